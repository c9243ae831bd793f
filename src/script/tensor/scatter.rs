//! The index-placing ops, each a method, an in-place twin and (where PyTorch has one) a
//! `torch` function: `scatter`, `scatter_add`, `scatter_reduce`, `index_add`, `index_copy`,
//! `index_fill`, `index_reduce`, `take`, `put`, `take_along_dim`, `masked_scatter`. Their
//! results are recorded under PyTorch's node names; tensh has no gradient formulas for
//! them yet, so `backward()` through one raises in words.

use rhai::Dynamic;

use crate::core::engine::place::Combine;
use crate::core::error::TorchError;
use crate::core::scalar::Scalar;
use crate::core::scatter::{self, Source};
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::BackwardOp;
use crate::core::tensor::record::{record_in_place, record_without_formula};
use crate::core::{index_ops, take_put};
use crate::script::args::Args;
use crate::script::convert::to_scalar;
use crate::script::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::script::registry::Registry;

/// Records `out` of `op` under `node` when an input requires grad.
fn recorded(out: Tensor, node: &str, op: &str, inputs: &[&Tensor]) -> RhaiResult<Dynamic> {
    if inputs.iter().any(|t| t.requires_grad()) {
        record_without_formula(&out, node, op, inputs);
    }
    Ok(Dynamic::from(out))
}

/// Records the in-place write of `op` into `x` under `node` and returns `x`.
fn recorded_in_place(x: &Tensor, node: &str, op: &str, others: &[&Tensor]) -> RhaiResult<Dynamic> {
    let unsupported = BackwardOp::Unsupported { op: op.into() };
    record_in_place(x, node, others, unsupported);
    Ok(Dynamic::from(x.clone()))
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
                crate::script::warnings::warn_once(
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
    if in_place {
        scatter::scatter_(x, dim, &index, source, how, true).rhai()?;
        return recorded_in_place(x, node, func, &others);
    }
    let out = scatter::scatter(x, dim, &index, source, how, true).rhai()?;
    let mut inputs = vec![x];
    inputs.extend(others);
    recorded(out, node, func, &inputs)
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
    if in_place {
        scatter::scatter_(x, dim, &index, Source::Tensor(&src), how, include_self).rhai()?;
        return recorded_in_place(x, node, func, &[&src]);
    }
    let out = scatter::scatter(x, dim, &index, Source::Tensor(&src), how, include_self).rhai()?;
    recorded(out, node, func, &[x, &src])
}

/// Writes `out` into `x` (an in-place index op) and records it, or records `out`.
fn finish(
    x: &Tensor,
    out: Tensor,
    in_place: bool,
    node: &str,
    func: &str,
    others: &[&Tensor],
) -> RhaiResult<Dynamic> {
    if in_place {
        crate::core::copy::copy_(x, &out).rhai()?;
        return recorded_in_place(x, node, func, others);
    }
    let mut inputs = vec![x];
    inputs.extend_from_slice(others);
    recorded(out, node, func, &inputs)
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
    finish(
        x,
        out,
        func.ends_with('_'),
        "IndexAddBackward0",
        func,
        &[&source],
    )
}

fn index_copy(x: &Tensor, a: &Args, func: &str) -> RhaiResult<Dynamic> {
    let dim = a.int(0, "dim", func)?;
    let index = a.tensor(1, "index", func)?;
    let source = a.tensor(2, "source", func)?;
    let out = index_ops::index_copy(x, dim, &index, &source).rhai()?;
    finish(
        x,
        out,
        func.ends_with('_'),
        "IndexCopyBackward0",
        func,
        &[&source],
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
    let out = index_ops::index_fill(x, dim, &index, value).rhai()?;
    finish(x, out, func.ends_with('_'), node, func, &[])
}

fn index_reduce(x: &Tensor, a: &Args, func: &str) -> RhaiResult<Dynamic> {
    let dim = a.int(0, "dim", func)?;
    let index = a.tensor(1, "index", func)?;
    let source = a.tensor(2, "source", func)?;
    let how = index_ops::index_reduction(&text(a, 3, "reduce", func)?).rhai()?;
    let include_self = a.bool_or(usize::MAX, "include_self", true)?;
    crate::script::warnings::warn_once(
        "index_reduce_beta",
        "index_reduce() is in beta and the API may change at any time.",
    );
    let out = index_ops::index_reduce(x, dim, &index, &source, how, include_self).rhai()?;
    finish(
        x,
        out,
        func.ends_with('_'),
        "IndexReduceBackward0",
        func,
        &[&source],
    )
}

fn put(x: &Tensor, a: &Args, func: &str) -> RhaiResult<Dynamic> {
    let index = a.tensor(0, "index", func)?;
    let source = a.tensor(1, "source", func)?;
    let accumulate = a.bool_or(2, "accumulate", false)?;
    let out = take_put::put(x, &index, &source, accumulate).rhai()?;
    finish(
        x,
        out,
        func.ends_with('_'),
        "PutBackward0",
        func,
        &[&source],
    )
}

fn masked_scatter(x: &Tensor, a: &Args, func: &str) -> RhaiResult<Dynamic> {
    let mask = a.tensor(0, "mask", func)?;
    let source = a.tensor(1, "source", func)?;
    if func.ends_with('_') {
        take_put::masked_scatter_(x, &mask, &source).rhai()?;
        return recorded_in_place(x, "MaskedScatterBackward0", func, &[&source]);
    }
    let out = take_put::masked_scatter(x, &mask, &source).rhai()?;
    recorded(out, "MaskedScatterBackward0", func, &[x, &source])
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
        recorded(out, "TakeBackward0", "take", &[x])
    });
    r.method_and_function("put", 3, |x, a| put(x, &a, "put"));
    r.method("put_", 3, |x, a| put(x, &a, "put_"));
    r.method_and_function("take_along_dim", 2, |x, a| {
        let indices = a.tensor(0, "indices", "take_along_dim")?;
        let dim = a.opt_int(1, "dim")?;
        let out = take_put::take_along_dim(x, &indices, dim).rhai()?;
        recorded(out, "GatherBackward0", "take_along_dim", &[x])
    });
    r.method_and_function("masked_scatter", 2, |x, a| {
        masked_scatter(x, &a, "masked_scatter")
    });
    r.method("masked_scatter_", 2, |x, a| {
        masked_scatter(x, &a, "masked_scatter_")
    });
}
