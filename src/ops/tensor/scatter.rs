//! The index-placing ops, each a method, an in-place twin and (where PyTorch has one) a
//! `torch` function: `scatter`, `scatter_add`, `scatter_reduce`, `index_add`, `index_copy`,
//! `index_fill`, `index_reduce`, `take`, `put`, `take_along_dim`, `masked_scatter`. Their
//! results (and in-place writes) are recorded under PyTorch's node names with gradient
//! formulas; `scatter` with a legacy `reduce=` has none (as in PyTorch), so `backward()`
//! through it raises in words.

use rhai::Dynamic;

use crate::core::autograd::{cast_grad, selection_grads, sum_to};
use crate::core::engine::place::Combine;
use crate::core::error::Result as CoreResult;
use crate::core::error::TorchError;
use crate::core::ops::{Arg, BinaryOp};
use crate::core::scalar::Scalar;
use crate::core::scatter::{self, Source};
use crate::core::selection;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::BackwardOp;
use crate::core::tensor::graph::detached;
use crate::core::tensor::record::record_in_place;
use crate::core::{index_ops, take_put};
use crate::ops::args::Args;
use crate::ops::convert::to_scalar;
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::ops::registry::Registry;
use std::rc::Rc;

/// A gradient formula of an index-placing op: from the output's gradient, those of `x`
/// (the values before the op) and of each other tensor input, in order.
type Formula = Rc<dyn Fn(&Tensor) -> CoreResult<Vec<Option<Tensor>>>>;

/// `formula`, or (`None`) a node that raises when backward reaches it.
fn backward_op(op: &str, inputs: usize, formula: Option<Formula>) -> BackwardOp {
    match formula {
        Some(f) => BackwardOp::formula(inputs, move |g| f(g)),
        None => BackwardOp::Unsupported { op: op.into() },
    }
}

/// Records `out` of `op` under `node` when an input requires grad (`inputs`: `x` first).
fn recorded(
    out: Tensor,
    node: &str,
    op: &str,
    inputs: &[&Tensor],
    formula: Option<Formula>,
) -> RhaiResult<Dynamic> {
    let float = out.dtype().is_floating_point() || out.dtype().is_complex();
    if float && inputs.iter().any(|t| t.requires_grad()) {
        let op = backward_op(op, inputs.len(), formula);
        crate::core::tensor::graph::record(&[&out], node, inputs, op);
    }
    Ok(Dynamic::from(out))
}

/// Records the in-place write of `op` into `x` under `node` and returns `x`.
fn recorded_in_place(
    x: &Tensor,
    node: &str,
    op: &str,
    others: &[&Tensor],
    formula: Option<Formula>,
) -> RhaiResult<Dynamic> {
    if x.dtype().is_floating_point() || x.dtype().is_complex() {
        record_in_place(x, node, others, backward_op(op, others.len() + 1, formula));
    }
    Ok(Dynamic::from(x.clone()))
}

/// `t`'s gradient in its dtype, summed down to its sizes.
fn shaped(g: Tensor, like: &Tensor) -> CoreResult<Option<Tensor>> {
    Ok(Some(cast_grad(&sum_to(&g, &like.sizes())?, like.dtype())?))
}

/// The flat row-major position of every element of a tensor of `sizes`, as an int64
/// tensor of those sizes: an op that moves elements, applied to it, says where each of
/// its output elements came from.
fn positions(sizes: &[i64]) -> CoreResult<Tensor> {
    let numel: i64 = sizes.iter().product();
    let flat = crate::core::creation::arange(
        Scalar::Int(0),
        Scalar::Int(numel),
        Scalar::Int(1),
        Some(crate::core::dtype::DType::Int64),
    )?;
    crate::core::views::view(&flat, sizes)
}

/// The gradient of an op that read each output element from one element of `x`, given
/// the op applied to `x`'s positions (`moved`).
fn to_sources(g: &Tensor, x: &Tensor, moved: &Tensor) -> CoreResult<Tensor> {
    let at = crate::core::engine::elements::int64_values(moved)?;
    selection_grads::to_positions(g, &x.sizes(), &at)
}

/// A string argument (`reduce`).
fn text(a: &Args, i: usize, name: &str, func: &str) -> RhaiResult<String> {
    let v = a.req(i, name, func)?;
    v.clone().into_string().map_err(|_| {
        to_rhai(TorchError::type_error(format!(
            "{func}(): argument '{name}' must be str"
        )))
    })
}

/// `scatter`'s source: a tensor, or a number (`value`).
fn scatter_source(a: &Args, func: &str) -> RhaiResult<Result<Tensor, Scalar>> {
    let v = a
        .get(2, "src")
        .or_else(|| a.get(usize::MAX, "value"))
        .ok_or_else(|| {
            to_rhai(TorchError::type_error(format!(
                "{func}() missing argument 'src'"
            )))
        })?;
    Ok(match v.clone().try_cast::<Tensor>() {
        Some(t) => Ok(t),
        None => Err(to_scalar(v, "value")?),
    })
}

/// Runs a `scatter` call (method, in place or function) and records it.
fn scatter_call(x: &Tensor, a: &Args, in_place: bool) -> RhaiResult<Dynamic> {
    let func = if in_place { "scatter_" } else { "scatter" };
    let dim = a.int(0, "dim", func)?;
    let index = a.tensor(1, "index", func)?;
    let src = scatter_source(a, func)?;
    let how = match a.kw("reduce").filter(|v| !v.is_unit()) {
        Some(v) => {
            let name = v.clone().into_string().unwrap_or_default();
            let how = scatter::scatter_legacy_reduction(&name).rhai()?;
            if src.is_ok() {
                crate::ops::warnings::warn_once(
                    "scatter_reduce_deprecated",
                    "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future PyTorch release. Use torch.scatter_reduce instead for more reduction options.",
                );
            }
            how
        }
        None => Combine::Replace,
    };
    let source = match &src {
        Ok(t) => Source::Tensor(t),
        Err(v) => Source::Value(*v),
    };
    let node = if src.is_ok() {
        "ScatterBackward0"
    } else {
        "ScatterBackward1"
    };
    let others: Vec<&Tensor> = src.as_ref().ok().into_iter().collect();
    if how != Combine::Replace {
        // PyTorch has no derivative for the legacy `reduce=` forms.
        let out = if in_place {
            scatter::scatter_(x, dim, &index, source, how, true).rhai()?;
            x.clone()
        } else {
            scatter::scatter(x, dim, &index, source, how, true).rhai()?
        };
        let mut inputs = vec![x];
        inputs.extend(others);
        let float = out.dtype().is_floating_point() || out.dtype().is_complex();
        if float && inputs.iter().any(|t| t.requires_grad()) {
            if in_place {
                let message = "derivative for aten::scatter_ is not implemented";
                let op =
                    BackwardOp::formula(inputs.len(), move |_| Err(TorchError::runtime(message)));
                record_in_place(x, "NotImplemented", &inputs[1..], op);
            } else {
                crate::core::tensor::record::record_not_differentiable(&out, "scatter", &inputs);
            }
        }
        return Ok(Dynamic::from(out));
    }
    let formula: Option<Formula> = {
        let (idx, src_like) = (index.clone(), src.as_ref().ok().map(detached));
        let x_like = detached(x);
        Some(Rc::new(move |g| {
            // `x` keeps the gradient where nothing was placed; `src` gets what its
            // elements' places got.
            let kept = scatter::scatter(g, dim, &idx, Source::Value(Scalar::Int(0)), how, true)?;
            let mut grads = vec![shaped(kept, &x_like)?];
            if let Some(s) = &src_like {
                grads.push(shaped(selection::gather(g, dim, &idx)?, s)?);
            }
            Ok(grads)
        }))
    };
    if in_place {
        scatter::scatter_(x, dim, &index, source, how, true).rhai()?;
        return recorded_in_place(x, node, func, &others, formula);
    }
    let out = scatter::scatter(x, dim, &index, source, how, true).rhai()?;
    let mut inputs = vec![x];
    inputs.extend(others);
    recorded(out, node, func, &inputs, formula)
}

/// Runs `scatter_add` or `scatter_reduce` (`reduce` read at `reduce_at`).
fn scatter_reducing(
    x: &Tensor,
    a: &Args,
    func: &str,
    reduce_at: Option<usize>,
) -> RhaiResult<Dynamic> {
    let in_place = func.ends_with('_');
    let dim = a.int(0, "dim", func)?;
    let index = a.tensor(1, "index", func)?;
    let src = a.tensor(2, "src", func)?;
    let (how, node) = match reduce_at {
        Some(i) => (
            scatter::scatter_reduction(&text(a, i, "reduce", func)?).rhai()?,
            "ScatterReduceBackward0",
        ),
        None => (Combine::Sum, "ScatterAddBackward0"),
    };
    let include_self = a.bool_or(usize::MAX, "include_self", true)?;
    let before = if in_place
        && x.requires_grad()
        && matches!(how, Combine::Amax | Combine::Amin | Combine::Prod)
    {
        // The extremes' and the product's formulas read `x`'s values from before the write.
        crate::core::copy::clone_tensor(&detached(x)).rhai()?
    } else {
        detached(x)
    };
    let out = if in_place {
        scatter::scatter_(x, dim, &index, Source::Tensor(&src), how, include_self).rhai()?;
        x.clone()
    } else {
        scatter::scatter(x, dim, &index, Source::Tensor(&src), how, include_self).rhai()?
    };
    let formula = reducing_formula(
        how,
        dim,
        &index,
        &before,
        &src,
        detached(&out),
        include_self,
        false,
    );
    if in_place {
        return recorded_in_place(x, node, func, &[&src], formula);
    }
    recorded(out, node, func, &[x, &src], formula)
}

/// The formula of `scatter_add`/`scatter_reduce` (`how`) from `x` (values before),
/// `src` and the result: `sum` passes the gradient to `x` (except where `include_self`
/// is false and something was placed) and gathers it for `src`; `mean` divides it by how
/// many values each place averaged; `amax`/`amin` share it among the values equal to
/// the result; `prod` gives each factor the product of the others (`prod_grads`).
#[allow(clippy::too_many_arguments)]
fn reducing_formula(
    how: Combine,
    dim: i64,
    index: &Tensor,
    x: &Tensor,
    src: &Tensor,
    out: Tensor,
    include_self: bool,
    ties_count_x: bool,
) -> Option<Formula> {
    use crate::core::autograd::grad_ops::{cmp, div, keep, t};
    if how == Combine::Replace {
        return None;
    }
    let (index, x, src) = (index.clone(), detached(x), detached(src));
    let zero = Source::Value(Scalar::Int(0));
    Some(Rc::new(move |g| {
        let placed = |v: &Tensor| scatter::scatter(v, dim, &index, zero, Combine::Replace, true);
        let (gx, gs) = match how {
            Combine::Prod => prod_grads(g, dim, &index, &x, &src, &out, include_self)?,
            Combine::Sum | Combine::Mean => {
                let g = if how == Combine::Mean {
                    // How many values each place averaged (itself included or not).
                    let start = if include_self { 1 } else { 0 };
                    let ones =
                        crate::core::creation::full(&src.sizes(), Scalar::Int(1), g.dtype())?;
                    let base =
                        crate::core::creation::full(&x.sizes(), Scalar::Int(start), g.dtype())?;
                    let counts = scatter::scatter(
                        &base,
                        dim,
                        &index,
                        Source::Tensor(&ones),
                        Combine::Sum,
                        true,
                    )?;
                    let counts = crate::core::pointwise::clamp(
                        &counts,
                        Some(Arg::Number(Scalar::Int(1))),
                        None,
                    )?;
                    div(t(g), t(&counts))?
                } else {
                    g.clone()
                };
                let gx = if include_self { g.clone() } else { placed(&g)? };
                (gx, selection::gather(&g, dim, &index)?)
            }
            _ => {
                let x_equal = cmp(BinaryOp::Eq, t(&x), t(&out))?;
                let x_wins = if include_self {
                    x_equal.clone()
                } else {
                    placed(&x_equal)?
                };
                // `index_reduce` counts an excluded `x` equal to the result among the ties
                // (it then gets no share); `scatter_reduce` does not.
                let x_counted = if ties_count_x { &x_equal } else { &x_wins };
                let at_src = selection::gather(&out, dim, &index)?;
                let src_wins = cmp(BinaryOp::Eq, t(&src), t(&at_src))?;
                let x_count = crate::core::copy::cast_copy(x_counted, g.dtype())?;
                let src_count = crate::core::copy::cast_copy(&src_wins, g.dtype())?;
                let counts = scatter::scatter(
                    &x_count,
                    dim,
                    &index,
                    Source::Tensor(&src_count),
                    Combine::Sum,
                    true,
                )?;
                let share = div(t(g), t(&counts))?;
                let gx = keep(&x_wins, &share)?;
                let gs = keep(&src_wins, &selection::gather(&share, dim, &index)?)?;
                (gx, gs)
            }
        };
        Ok(vec![shaped(gx, &x)?, shaped(gs, &src)?])
    }))
}

/// The gradients of a `prod` scatter: each factor gets the product of the others at its
/// place. Where a factor is not zero that is `result / factor`; a zero `x` gets the
/// product of what was placed on it, and the only zero among the values placed at a place
/// the product with it taken as 1 (two zeros there leave every factor a zero product).
fn prod_grads(
    g: &Tensor,
    dim: i64,
    index: &Tensor,
    x: &Tensor,
    src: &Tensor,
    out: &Tensor,
    include_self: bool,
) -> CoreResult<(Tensor, Tensor)> {
    use crate::core::autograd::grad_ops::{cmp, div, mul, select, t};
    let one = Arg::Number(Scalar::Int(1));
    let reduce_onto = |base: &Tensor, values: &Tensor| {
        scatter::scatter(
            base,
            dim,
            index,
            Source::Tensor(values),
            Combine::Prod,
            include_self,
        )
    };
    // x: g * (the product with x taken as 1) / (x, its zeros taken as 1).
    let x_zero = cmp(BinaryOp::Eq, t(x), Arg::Number(Scalar::Int(0)))?;
    let masked_x = select(&x_zero, one.clone(), t(x))?;
    let masked_x_result = reduce_onto(&masked_x, src)?;
    let gx = div(t(&mul(t(g), t(&masked_x_result))?), t(&masked_x))?;
    let gx = if include_self {
        gx
    } else {
        scatter::scatter(
            &gx,
            dim,
            index,
            Source::Value(Scalar::Int(0)),
            Combine::Replace,
            true,
        )?
    };
    // src: how many zeros were placed at each value's place.
    let src_zero = cmp(BinaryOp::Eq, t(src), Arg::Number(Scalar::Int(0)))?;
    let zeros = crate::core::creation::full(&x.sizes(), Scalar::Int(0), g.dtype())?;
    let zero_counts = crate::core::copy::cast_copy(&src_zero, g.dtype())?;
    let counts = scatter::scatter(
        &zeros,
        dim,
        index,
        Source::Tensor(&zero_counts),
        Combine::Sum,
        true,
    )?;
    let counts = selection::gather(&counts, dim, index)?;
    let single = cmp(BinaryOp::Eq, t(&counts), one.clone())?;
    let single_zero = mul(t(&src_zero), t(&single))?;
    let single_zero = cmp(BinaryOp::Ne, t(&single_zero), Arg::Number(Scalar::Int(0)))?;
    let masked_src = select(&single_zero, one.clone(), t(src))?;
    let masked_src_result = reduce_onto(x, &masked_src)?;
    let by_zero = selection::gather(&mul(t(g), t(&masked_src_result))?, dim, index)?;
    let by_result = selection::gather(&mul(t(g), t(out))?, dim, index)?;
    let masked = select(&src_zero, one, t(src))?;
    let by_result = div(t(&by_result), t(&masked))?;
    let gs = select(&single_zero, t(&by_zero), t(&by_result))?;
    Ok((gx, gs))
}

/// Writes `out` into `x` (an in-place index op) and records it, or records `out`.
fn finish(
    x: &Tensor,
    out: Tensor,
    in_place: bool,
    node: &str,
    func: &str,
    others: &[&Tensor],
    formula: Option<Formula>,
) -> RhaiResult<Dynamic> {
    if in_place {
        crate::core::copy::copy_(x, &out).rhai()?;
        return recorded_in_place(x, node, func, others, formula);
    }
    let mut inputs = vec![x];
    inputs.extend_from_slice(others);
    recorded(out, node, func, &inputs, formula)
}

fn index_add(x: &Tensor, a: &Args, func: &str) -> RhaiResult<Dynamic> {
    let dim = a.int(0, "dim", func)?;
    let index = a.tensor(1, "index", func)?;
    let source = a.tensor(2, "source", func)?;
    let alpha = match a.kw("alpha") {
        Some(v) if !v.is_unit() => to_scalar(v, "alpha")?,
        _ => Scalar::Int(1),
    };
    let out = index_ops::index_add(x, dim, &index, &source, alpha).rhai()?;
    let (idx, x_like, s_like) = (index.clone(), detached(x), detached(&source));
    let formula: Formula = Rc::new(move |g| {
        let picked = selection::index_select(g, dim, &idx)?;
        let picked = crate::core::autograd::grad_ops::mul(
            crate::core::autograd::grad_ops::t(&picked),
            Arg::Number(alpha),
        )?;
        let picked = crate::core::views::reshape(&picked, &s_like.sizes())?;
        Ok(vec![shaped(g.clone(), &x_like)?, shaped(picked, &s_like)?])
    });
    finish(
        x,
        out,
        func.ends_with('_'),
        "IndexAddBackward0",
        func,
        &[&source],
        Some(formula),
    )
}

fn index_copy(x: &Tensor, a: &Args, func: &str) -> RhaiResult<Dynamic> {
    let dim = a.int(0, "dim", func)?;
    let index = a.tensor(1, "index", func)?;
    let source = a.tensor(2, "source", func)?;
    let out = index_ops::index_copy(x, dim, &index, &source).rhai()?;
    let (idx, x_like, s_like) = (index.clone(), detached(x), detached(&source));
    let formula: Formula = Rc::new(move |g| {
        let kept = index_ops::index_fill(g, dim, &idx, Scalar::Int(0))?;
        let picked = selection::index_select(g, dim, &idx)?;
        let picked = crate::core::views::reshape(&picked, &s_like.sizes())?;
        Ok(vec![shaped(kept, &x_like)?, shaped(picked, &s_like)?])
    });
    finish(
        x,
        out,
        func.ends_with('_'),
        "IndexCopyBackward0",
        func,
        &[&source],
        Some(formula),
    )
}

fn index_fill(x: &Tensor, a: &Args, func: &str) -> RhaiResult<Dynamic> {
    let dim = a.int(0, "dim", func)?;
    let index = a.tensor(1, "index", func)?;
    let v = a.req(2, "value", func)?;
    let (value, node) = match v.clone().try_cast::<Tensor>() {
        Some(t) if t.ndim() != 0 => {
            return Err(to_rhai(TorchError::runtime(format!(
                "index_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
                t.ndim()
            ))));
        }
        Some(t) => (
            crate::core::copy::to_scalars(&t).rhai()?[0],
            "IndexFillBackward1",
        ),
        None => (to_scalar(v, "value")?, "IndexFillBackward0"),
    };
    crate::core::index::check_index_fill_value(x.dtype(), value).rhai()?;
    let in_place = func.ends_with('_');
    let out = if index_ops::index_fill_writes(x, dim, &index, in_place).rhai()? {
        index_ops::index_fill(x, dim, &index, value).rhai()?
    } else {
        // Nothing to write (and no index read): `x`'s values as they are.
        crate::core::copy::contiguous_copy(&detached(x)).rhai()?
    };
    let (idx, x_like) = (index.clone(), detached(x));
    let formula: Formula = Rc::new(move |g| {
        let kept = index_ops::index_fill(g, dim, &idx, Scalar::Int(0))?;
        Ok(vec![shaped(kept, &x_like)?])
    });
    if func.ends_with('_') && x.layout().has_internal_overlap() {
        // Elements that share memory: the value written into the selected ones only.
        crate::ops::warnings::expanded_write("index_fill_");
        let d = crate::core::error::wrap_dim(dim, x.ndim().max(1)).rhai()?;
        crate::core::index::index_fill_through(x, d, &index, value).rhai()?;
        return recorded_in_place(x, node, func, &[], Some(formula));
    }
    finish(x, out, func.ends_with('_'), node, func, &[], Some(formula))
}

fn index_reduce(x: &Tensor, a: &Args, func: &str) -> RhaiResult<Dynamic> {
    let dim = a.int(0, "dim", func)?;
    let index = a.tensor(1, "index", func)?;
    let source = a.tensor(2, "source", func)?;
    let how = index_ops::index_reduction(&text(a, 3, "reduce", func)?).rhai()?;
    let include_self = a.bool_or(usize::MAX, "include_self", true)?;
    crate::ops::warnings::warn_once(
        "index_reduce_beta",
        "index_reduce() is in beta and the API may change at any time.",
    );
    let before = if func.ends_with('_') && x.requires_grad() {
        // The formula reads `x`'s values from before the write.
        crate::core::copy::clone_tensor(&detached(x)).rhai()?
    } else {
        detached(x)
    };
    let out = index_ops::index_reduce(x, dim, &index, &source, how, include_self).rhai()?;
    // An index along `dim` is the scatter whose index repeats it across `source`'s other
    // dims, so the scatter's formula serves.
    let formula = if x.requires_grad() || source.requires_grad() {
        let spread = spread_index(&index, dim, &source).rhai()?;
        reducing_formula(
            how,
            dim,
            &spread,
            &before,
            &source,
            detached(&out),
            include_self,
            true,
        )
    } else {
        None
    };
    finish(
        x,
        out,
        func.ends_with('_'),
        "IndexReduceBackward0",
        func,
        &[&source],
        formula,
    )
}

/// A 1-d `index` along `dim` as a scatter index of `source`'s shape: each slice of
/// `source` along `dim` takes its entry.
fn spread_index(index: &Tensor, dim: i64, source: &Tensor) -> CoreResult<Tensor> {
    let nd = source.ndim().max(1);
    let d = crate::core::error::wrap_dim(dim, nd)?;
    let mut shape = vec![1i64; nd];
    shape[d] = index.numel();
    let column = crate::core::views::reshape(index, &shape)?;
    let spread = crate::core::views::expand(&column, &source.sizes())?;
    crate::core::copy::contiguous_copy(&spread)
}

fn put(x: &Tensor, a: &Args, func: &str) -> RhaiResult<Dynamic> {
    let index = a.tensor(0, "index", func)?;
    let source = a.tensor(1, "source", func)?;
    let accumulate = a.bool_or(2, "accumulate", false)?;
    let out = take_put::put(x, &index, &source, accumulate).rhai()?;
    let (idx, x_like, s_like) = (index.clone(), detached(x), detached(&source));
    let formula: Formula = Rc::new(move |g| {
        // Accumulated: `x`'s gradient passes; replaced: not where something landed.
        let kept = if accumulate {
            g.clone()
        } else {
            let zeros = Tensor::zeros(s_like.sizes(), g.dtype())?;
            take_put::put(g, &idx, &zeros, false)?
        };
        let picked = take_put::take(g, &idx)?;
        Ok(vec![shaped(kept, &x_like)?, shaped(picked, &s_like)?])
    });
    finish(
        x,
        out,
        func.ends_with('_'),
        "PutBackward0",
        func,
        &[&source],
        Some(formula),
    )
}

fn masked_scatter(x: &Tensor, a: &Args, func: &str) -> RhaiResult<Dynamic> {
    let mask = a.tensor(0, "mask", func)?;
    let source = a.tensor(1, "source", func)?;
    let (chosen, x_like, s_like) = (detached(&mask), detached(x), detached(&source));
    let formula: Formula = Rc::new(move |g| {
        // `x` keeps the gradient where the mask is false; the source's first elements,
        // in order, get the gradients of the places they filled.
        let kept = selection::masked_fill(g, &chosen, Scalar::Int(0))?;
        let filled = selection::masked_select(g, &chosen)?;
        let n = s_like.numel();
        let flat = Tensor::zeros(vec![n], g.dtype())?;
        let used = filled.numel().min(n);
        let head = crate::core::views::narrow(&flat, 0, 0, used)?;
        crate::core::copy::copy_(&head, &crate::core::views::narrow(&filled, 0, 0, used)?)?;
        let to_src = crate::core::views::view(&flat, &s_like.sizes())?;
        Ok(vec![shaped(kept, &x_like)?, shaped(to_src, &s_like)?])
    });
    if func.ends_with('_') {
        take_put::masked_scatter_(x, &mask, &source).rhai()?;
        return recorded_in_place(x, "MaskedScatterBackward0", func, &[&source], Some(formula));
    }
    let out = take_put::masked_scatter(x, &mask, &source).rhai()?;
    recorded(
        out,
        "MaskedScatterBackward0",
        func,
        &[x, &source],
        Some(formula),
    )
}

/// Registers the index-placing ops.
pub fn register(r: &mut Registry) {
    r.method_and_function("scatter", 3, |x, a| scatter_call(x, &a, false));
    r.method("scatter_", 3, |x, a| scatter_call(x, &a, true));
    r.method_and_function("scatter_add", 3, |x, a| {
        scatter_reducing(x, &a, "scatter_add", None)
    });
    r.method("scatter_add_", 3, |x, a| {
        scatter_reducing(x, &a, "scatter_add_", None)
    });
    r.method_and_function("scatter_reduce", 4, |x, a| {
        scatter_reducing(x, &a, "scatter_reduce", Some(3))
    });
    r.method("scatter_reduce_", 4, |x, a| {
        scatter_reducing(x, &a, "scatter_reduce_", Some(3))
    });
    r.method_and_function("index_add", 3, |x, a| index_add(x, &a, "index_add"));
    r.method("index_add_", 3, |x, a| index_add(x, &a, "index_add_"));
    r.method_and_function("index_copy", 3, |x, a| index_copy(x, &a, "index_copy"));
    r.method("index_copy_", 3, |x, a| index_copy(x, &a, "index_copy_"));
    r.method_and_function("index_fill", 3, |x, a| index_fill(x, &a, "index_fill"));
    r.method("index_fill_", 3, |x, a| index_fill(x, &a, "index_fill_"));
    r.method_and_function("index_reduce", 4, |x, a| {
        index_reduce(x, &a, "index_reduce")
    });
    r.method("index_reduce_", 4, |x, a| {
        index_reduce(x, &a, "index_reduce_")
    });
    r.method_and_function("take", 1, |x, a| {
        let index = a.tensor(0, "index", "take")?;
        let out = take_put::take(x, &index).rhai()?;
        let x_like = detached(x);
        let formula: Formula = Rc::new(move |g| {
            let moved = take_put::take(&positions(&x_like.sizes())?, &index)?;
            Ok(vec![Some(to_sources(g, &x_like, &moved)?)])
        });
        recorded(out, "TakeBackward0", "take", &[x], Some(formula))
    });
    r.method_and_function("put", 3, |x, a| put(x, &a, "put"));
    r.method("put_", 3, |x, a| put(x, &a, "put_"));
    r.method_and_function("take_along_dim", 2, |x, a| {
        let indices = a.tensor(0, "indices", "take_along_dim")?;
        let dim = a.opt_int(1, "dim")?;
        let out = take_put::take_along_dim(x, &indices, dim).rhai()?;
        let x_like = detached(x);
        let formula: Formula = Rc::new(move |g| {
            let from = take_put::take_along_dim(&positions(&x_like.sizes())?, &indices, dim)?;
            Ok(vec![Some(to_sources(g, &x_like, &from)?)])
        });
        recorded(
            out,
            "GatherBackward0",
            "take_along_dim",
            &[x],
            Some(formula),
        )
    });
    r.method_and_function("masked_scatter", 2, |x, a| {
        masked_scatter(x, &a, "masked_scatter")
    });
    r.method("masked_scatter_", 2, |x, a| {
        masked_scatter(x, &a, "masked_scatter_")
    });
}
