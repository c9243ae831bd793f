//! Ops PyTorch itself composes of others, composed here the same way (so their values,
//! layouts and autograd nodes follow from the parts): `broadcast_to`, `diff`, `rot90`,
//! `outer`/`ger`, `inner`, `vdot`, `kron`, `diagflat`, `diag_embed`, `nansum`, `nanmean`,
//! `aminmax`, `cumprod`, `constant_pad_nd` (core/padding.rs); `hash_tensor` (a row reduction of `core::hash_tensor`); and small predicates: `is_same_size`, `is_nonzero`, `isreal`,
//! `isposinf`, `isneginf`, `dim_order`, `torch.can_cast`; `retain_grad`.

use rhai::Dynamic;

use crate::core::dtype::DType;
use crate::core::error::{Result, TorchError, wrap_dim};
use crate::core::ops::{Arg, BinaryOp, binary};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::views;
use crate::ops::convert::{to_dtype, to_int, to_int_list, to_tensor};
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::ops::registry::Registry;
use crate::ops::return_types::ReturnTuple;

fn t(x: Tensor) -> RhaiResult<Dynamic> {
    Ok(Dynamic::from(x))
}

fn tensor(x: &Tensor) -> Arg {
    Arg::Tensor(x.clone())
}

/// `x.diff(n, dim, prepend, append)`: `n` times the differences of neighbours along `dim`
/// (`!=` for bools), after joining `prepend` and `append` on.
fn diff(
    x: &Tensor,
    n: i64,
    dim: i64,
    prepend: Option<Tensor>,
    append: Option<Tensor>,
) -> Result<Tensor> {
    if x.ndim() == 0 {
        return Err(TorchError::runtime(
            "diff expects input to be at least one-dimensional",
        ));
    }
    if n < 0 {
        return Err(TorchError::runtime(format!(
            "order must be non-negative but got {n}"
        )));
    }
    let dim = wrap_dim(dim, x.ndim())? as i64;
    let mut parts = Vec::new();
    parts.extend(prepend);
    parts.push(x.clone());
    parts.extend(append);
    let mut cur = if parts.len() == 1 {
        x.clone()
    } else {
        crate::core::join::cat(&parts, dim)?
    };
    for _ in 0..n {
        let len = cur.sizes()[dim as usize];
        if len == 0 {
            break;
        }
        let hi = views::narrow(&cur, dim, 1, len - 1)?;
        let lo = views::narrow(&cur, dim, 0, len - 1)?;
        cur = if cur.dtype() == DType::Bool {
            binary(BinaryOp::Ne, &tensor(&hi), &tensor(&lo))?
        } else {
            binary(BinaryOp::Sub, &tensor(&hi), &tensor(&lo))?
        };
    }
    Ok(cur)
}

/// `x.sum_to_size(size)`: summed over the leading dims `size` lacks and the dims where it
/// has 1, to that size (the inverse of broadcasting it).
fn sum_to_size(x: &Tensor, size: &[i64]) -> Result<Tensor> {
    let sizes = x.sizes();
    let fits = size.len() <= sizes.len()
        && size
            .iter()
            .rev()
            .zip(sizes.iter().rev())
            .all(|(&s, &have)| s == have || s == 1);
    if !fits {
        return Err(TorchError::runtime(format!(
            "size {{{size:?}}} is not expandable to size {{{sizes:?}}}."
        )));
    }
    // As PyTorch's `sum_to`: one sum keeping every summed dim, then a view without the
    // leading ones.
    let lead = sizes.len() - size.len();
    let mut dims: Vec<i64> = (0..lead as i64).collect();
    dims.extend(
        (lead..sizes.len())
            .filter(|&k| size[k - lead] == 1 && sizes[k] != 1)
            .map(|k| k as i64),
    );
    if dims.is_empty() {
        return Ok(x.clone());
    }
    let summed =
        crate::core::reduce::reduce(x, crate::core::reduce::Reduction::Sum, Some(&dims), true)?;
    crate::core::tensor::record::record_sum(&summed, x, Some(&dims), true);
    if lead == 0 {
        return Ok(summed);
    }
    views::view(&summed, size)
}

/// `x.rot90(k, dims)`: a quarter turn `k` times from `dims[0]` toward `dims[1]` (flips and a
/// transpose, as PyTorch composes it).
fn rot90(x: &Tensor, k: i64, dims: &[i64]) -> Result<Tensor> {
    if dims.len() != 2 {
        return Err(TorchError::runtime(format!(
            "expected total rotation dims == 2, but got dims = {}",
            dims.len()
        )));
    }
    if x.ndim() < 2 {
        return Err(TorchError::runtime(format!(
            "expected total dims >= 2, but got total dims = {}",
            x.ndim()
        )));
    }
    let (d0, d1) = (dims[0], dims[1]);
    if d0 == d1 || (d0 - d1).abs() == x.ndim() as i64 {
        return Err(TorchError::runtime(format!(
            "expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}"
        )));
    }
    let n = x.ndim() as i64;
    if d0 >= n || d0 < -n || d1 >= n || d1 < -n {
        return Err(TorchError::runtime(format!(
            "Rotation dim0 out of range, dim0 = {d0}"
        )));
    }
    match k.rem_euclid(4) {
        1 => views::transpose(&crate::core::flip::flip(x, &[d1])?, d0, d1),
        2 => crate::core::flip::flip(x, &[d0, d1]),
        3 => views::transpose(&crate::core::flip::flip(x, &[d0])?, d0, d1),
        _ => crate::core::copy::clone_tensor(x),
    }
}

/// `torch.kron(a, b)`: every element of `a` times the whole of `b`, in blocks.
fn kron(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let n = a.ndim().max(b.ndim());
    let pad = |s: Vec<i64>| {
        let mut v = vec![1; n - s.len()];
        v.extend(s);
        v
    };
    let (sa, sb) = (pad(a.sizes()), pad(b.sizes()));
    let mut va = Vec::with_capacity(2 * n);
    let mut vb = Vec::with_capacity(2 * n);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        va.extend([sa[i], 1]);
        vb.extend([1, sb[i]]);
        out.push(sa[i] * sb[i]);
    }
    let p = binary(
        BinaryOp::Mul,
        &Arg::Tensor(views::view(a, &va)?),
        &Arg::Tensor(views::view(b, &vb)?),
    )?;
    // PyTorch views the product as it lies (`_unsafe_view`): a product laid out in its
    // inputs' stride order may not be, and then it refuses as `view` does.
    views::view(&p, &out)
}

/// `torch.inner(a, b)`: sums of products over the last dims (a product for a 0-d side).
fn inner(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.ndim() == 0 || b.ndim() == 0 {
        return binary(BinaryOp::Mul, &tensor(a), &tensor(b));
    }
    let (ka, kb) = (a.sizes()[a.ndim() - 1], b.sizes()[b.ndim() - 1]);
    if ka != kb {
        return Err(TorchError::runtime(format!(
            "inner() the last dimension must match on both input tensors but got shapes {:?} and {:?}",
            a.sizes(),
            b.sizes()
        )));
    }
    if a.ndim() == 1 && b.ndim() == 1 {
        return crate::core::linalg::matmul(a, b);
    }
    let bt = views::movedim(b, &[-1], &[0])?;
    let bt = views::reshape(&bt, &[kb, -1])?;
    let p = crate::core::linalg::matmul(a, &bt)?;
    let mut sizes = a.sizes();
    sizes.pop();
    sizes.extend(b.sizes().iter().take(b.ndim() - 1));
    views::reshape(&p, &sizes)
}

/// `x.diag_embed(offset)` for the default dims: each last-dim vector on the diagonal of a
/// new square matrix.
fn diag_embed(x: &Tensor, offset: i64) -> Result<Tensor> {
    let mut sizes = x.sizes();
    let n = sizes.pop().unwrap_or(1) + offset.abs();
    sizes.extend([n, n]);
    let out = Tensor::zeros(sizes, x.dtype())?;
    let d = views::diagonal(&out, offset, -2, -1)?;
    crate::core::copy::copy_(&d, x)?;
    Ok(out)
}

/// `out`, `x`'s last dim laid on diagonal `offset`, recorded: the gradient is that
/// diagonal of the output's.
fn embedded(out: Tensor, x: &Tensor, offset: i64) -> Tensor {
    crate::core::autograd::tracked::single(&out, "DiagEmbedBackward0", x, move |g, _| {
        crate::core::copy::contiguous_copy(&views::diagonal(g, offset, -2, -1)?)
    });
    out
}

/// `x` with NaNs as zeros (untracked), for `nansum`.
fn nan_as_zero(x: &Tensor) -> Result<Tensor> {
    if !x.dtype().is_floating_point() {
        return Ok(x.clone());
    }
    let nan = crate::core::pointwise::classify(x, crate::core::pointwise::FloatClass::Nan)?;
    crate::core::pointwise::where_(&nan, &Arg::Number(Scalar::Float(0.0)), &tensor(x))
}

/// The `dim` argument of a reduction: none, one, or a list.
fn dims_arg(a: &crate::ops::args::Args) -> RhaiResult<Option<Vec<i64>>> {
    match a.get(0, "dim") {
        None => Ok(None),
        Some(v) if v.is_unit() => Ok(None),
        Some(v) if v.is_array() => Ok(Some(to_int_list(v, "dim")?)),
        Some(v) => Ok(Some(vec![to_int(v, "dim")?])),
    }
}

/// Registers the ops.
pub fn register(r: &mut Registry) {
    r.method_and_function("broadcast_to", 8, |x, a| {
        t(views::expand(x, &a.sizes("size")?).rhai()?)
    });
    r.function("can_cast", 2, |a| {
        let from = to_dtype(a.req(0, "from_", "can_cast")?)?;
        let to = to_dtype(a.req(1, "to", "can_cast")?)?;
        Ok(Dynamic::from(crate::core::promotion::can_cast(from, to)))
    });
    r.method_and_function("is_same_size", 1, |x, a| {
        let other = a.tensor(0, "other", "is_same_size")?;
        Ok(Dynamic::from(x.sizes() == other.sizes()))
    });
    r.method_and_function("is_nonzero", 0, |x, _| match x.numel() {
        0 => Err(to_rhai(TorchError::runtime(
            "Boolean value of Tensor with no values is ambiguous",
        ))),
        1 => {
            let v = crate::core::copy::to_scalars(x).rhai()?;
            Ok(Dynamic::from(v.first().is_some_and(|s| s.to_bool())))
        }
        _ => Err(to_rhai(TorchError::runtime(
            "Boolean value of Tensor with more than one value is ambiguous",
        ))),
    });
    r.method_and_function("isreal", 0, |x, _| {
        if !x.dtype().is_complex() {
            let all = crate::core::creation::full(&x.sizes(), Scalar::Bool(true), DType::Bool);
            return t(crate::core::result_layout::in_inputs_order(all.rhai()?, &[x]).rhai()?);
        }
        let im = crate::core::views::dtype::imag(x).rhai()?;
        t(binary(BinaryOp::Eq, &tensor(&im), &Arg::Number(Scalar::Int(0))).rhai()?)
    });
    for (name, positive) in [("isposinf", true), ("isneginf", false)] {
        r.method_and_function(name, 0, move |x, _| {
            if x.dtype().is_complex() {
                return Err(to_rhai(TorchError::type_error(format!(
                    "{name} does not support complex inputs."
                ))));
            }
            let inf = if positive {
                f64::INFINITY
            } else {
                f64::NEG_INFINITY
            };
            if !x.dtype().is_floating_point() {
                let none =
                    crate::core::creation::full(&x.sizes(), Scalar::Bool(false), DType::Bool);
                return t(crate::core::result_layout::in_inputs_order(none.rhai()?, &[x]).rhai()?);
            }
            // PyTorch's own kernel: laid out as a one-input op, not as `x == inf`.
            let found =
                binary(BinaryOp::Eq, &tensor(x), &Arg::Number(Scalar::Float(inf))).rhai()?;
            t(crate::core::result_layout::in_inputs_order(found, &[x]).rhai()?)
        });
    }
    r.method("retain_grad", 0, |x, _| {
        x.retain_grad().rhai()?;
        Ok(Dynamic::UNIT)
    });
    r.method("dim_order", 0, |x, _| {
        let order = x.layout().memory_order_dims();
        Ok(Dynamic::from_array(
            order.into_iter().map(|d| Dynamic::from(d as i64)).collect(),
        ))
    });
    r.method_and_function("diff", 4, |x, a| {
        let n = a.int_or(0, "n", 1)?;
        let dim = a.int_or(1, "dim", -1)?;
        let opt = |i: usize, name: &str| -> RhaiResult<Option<Tensor>> {
            match a.get(i, name) {
                Some(v) if !v.is_unit() => Ok(Some(to_tensor(v, name)?)),
                _ => Ok(None),
            }
        };
        t(diff(x, n, dim, opt(2, "prepend")?, opt(3, "append")?).rhai()?)
    });
    r.method_and_function("rot90", 2, |x, a| {
        let k = a.int_or(0, "k", 1)?;
        let dims = match a.get(1, "dims") {
            Some(v) => to_int_list(v, "dims")?,
            None => vec![0, 1],
        };
        let out = rot90(&crate::core::tensor::graph::detached(x), k, &dims).rhai()?;
        crate::core::autograd::tracked::single(&out, "Rot90Backward0", x, move |g, _| {
            rot90(g, k.wrapping_neg(), &dims)
        });
        t(out)
    });
    for name in ["outer", "ger"] {
        r.method_and_function(name, 1, move |x, a| {
            let v = a.tensor(0, "vec2", name)?;
            for (argument, t) in [("self", x), ("vec2", &v)] {
                if t.ndim() != 1 {
                    return Err(to_rhai(TorchError::runtime(format!(
                        "outer: Expected 1-D argument {argument}, but got {}-D",
                        t.ndim()
                    ))));
                }
            }
            let col = views::reshape(x, &[-1, 1]).rhai()?;
            t(binary(BinaryOp::Mul, &Arg::Tensor(col), &tensor(&v)).rhai()?)
        });
    }
    r.method_and_function("inner", 1, |x, a| {
        t(inner(x, &a.tensor(0, "other", "inner")?).rhai()?)
    });
    r.method_and_function("vdot", 1, |x, a| {
        let other = a.tensor(0, "other", "vdot")?;
        if other.dtype() == x.dtype() {
            crate::core::unbuilt_kernels::require_complex_half_kernel("vdot", x.dtype()).rhai()?;
        }
        let conj = if x.dtype().is_complex() {
            crate::core::copy::contiguous_copy(&x.conj_view()).rhai()?
        } else {
            x.clone()
        };
        t(crate::core::linalg::dot(&conj, &other).rhai()?)
    });
    r.method_and_function("kron", 1, |x, a| {
        let out = kron(x, &a.tensor(0, "other", "kron")?).rhai()?;
        t(crate::core::autograd::tracked::renamed(
            out,
            "UnsafeViewBackward0",
        ))
    });
    r.method_and_function("diagflat", 1, |x, a| {
        let offset = a.int_or(0, "offset", 0)?;
        let flat = views::reshape(x, &[-1]).rhai()?;
        let out = crate::core::selection::diag_embed_1d(&flat, offset).rhai()?;
        t(embedded(out, &flat, offset))
    });
    r.method_and_function("diag_embed", 3, |x, a| {
        let offset = a.int_or(0, "offset", 0)?;
        let (d1, d2) = (a.int_or(1, "dim1", -2)?, a.int_or(2, "dim2", -1)?);
        // The dims are the result's, which has one dim more than `x`.
        for d in [d1, d2] {
            crate::core::error::wrap_dim(d, x.ndim() + 1).rhai()?;
        }
        if (d1, d2) != (-2, -1) {
            return Err(to_rhai(TorchError::not_implemented(
                "tensh does not implement diag_embed with dims other than (-2, -1) yet (PyTorch has it)",
            )));
        }
        let out = diag_embed(x, offset).rhai()?;
        t(embedded(out, x, offset))
    });
    r.function("constant_pad_nd", 3, |a| {
        let x = a.tensor(0, "input", "constant_pad_nd")?;
        let pad = to_int_list(a.req(1, "pad", "constant_pad_nd")?, "pad")?;
        let value = match a.get(2, "value") {
            Some(v) => crate::ops::convert::to_scalar(v, "value")?,
            None => crate::core::scalar::Scalar::Int(0),
        };
        let out = crate::core::padding::constant_pad_nd(
            &crate::core::tensor::graph::detached(&x),
            &pad,
            value,
        )
        .rhai()?;
        // The gradient is the result's gradient with the padding cut off again.
        let back: Vec<i64> = pad.iter().map(|p| -p).collect();
        crate::core::autograd::tracked::single(&out, "ConstantPadNdBackward0", &x, move |g, _| {
            crate::core::padding::constant_pad_nd(g, &back, crate::core::scalar::Scalar::Int(0))
        });
        t(out)
    });
    r.method_and_function("hash_tensor", 3, |x, a| {
        let dims = dims_arg(&a)?.unwrap_or_default();
        let keepdim = a.bool_or(1, "keepdim", false)?;
        let mode = a.int_or(usize::MAX, "mode", 0)?;
        t(crate::core::hash_tensor::hash_tensor(x, &dims, keepdim, mode).rhai()?)
    });
    r.method_and_function("nansum", 3, |x, a| {
        // The dims first, then the CPU kernel's refusal of complex inputs.
        crate::core::reduce::reduced_dims(x.ndim(), dims_arg(&a)?.as_deref()).rhai()?;
        if x.dtype().is_complex() {
            return Err(to_rhai(TorchError::not_implemented(
                "nansum on CPU does not support complex inputs",
            )));
        }
        let dims = dims_arg(&a)?;
        let keepdim = a.bool_or(1, "keepdim", false)?;
        let masked = nan_as_zero(&crate::core::tensor::graph::detached(x)).rhai()?;
        let masked = match a.dtype()? {
            Some(d) => crate::core::copy::cast_copy(&masked, d).rhai()?,
            None => masked,
        };
        let out = crate::core::reduce::reduce(
            &masked,
            crate::core::reduce::Reduction::Sum,
            dims.as_deref(),
            keepdim,
        )
        .rhai()?;
        let reduced = crate::core::reduce::reduced_dims(x.ndim(), dims.as_deref()).rhai()?;
        crate::core::autograd::tracked::single(&out, "NansumBackward0", x, move |g, x| {
            crate::core::autograd::reduction_grads::nansum_grad(g, x, &reduced, keepdim)
        });
        t(out)
    });
    r.method_and_function("nanmean", 3, |x, a| {
        // Its own dtype check first; then nansum's (over a count), whose CPU kernel refuses
        // complex inputs once the dims are known good.
        if !(x.dtype().is_floating_point() || x.dtype().is_complex()) {
            return Err(to_rhai(TorchError::not_implemented(format!(
                "nanmean(): expected input to have floating point or complex dtype but got {}",
                x.dtype().cpp_name()
            ))));
        }
        crate::core::reduce::reduced_dims(x.ndim(), dims_arg(&a)?.as_deref()).rhai()?;
        if x.dtype().is_complex() {
            return Err(to_rhai(TorchError::not_implemented(
                "nansum on CPU does not support complex inputs",
            )));
        }
        let dims = dims_arg(&a)?;
        let keepdim = a.bool_or(1, "keepdim", false)?;
        let x = &match a.dtype()? {
            Some(d) => crate::core::copy::cast_copy(x, d).rhai()?,
            None => x.clone(),
        };
        let masked = nan_as_zero(x).rhai()?;
        let total = crate::core::reduce::reduce(
            &masked,
            crate::core::reduce::Reduction::Sum,
            dims.as_deref(),
            keepdim,
        )
        .rhai()?;
        let nan =
            crate::core::pointwise::classify(x, crate::core::pointwise::FloatClass::Nan).rhai()?;
        let kept = crate::core::selection::logical_not(&nan).rhai()?;
        let count = crate::core::reduce::reduce(
            &kept,
            crate::core::reduce::Reduction::Sum,
            dims.as_deref(),
            keepdim,
        )
        .rhai()?;
        let out = binary(
            BinaryOp::Div,
            &Arg::Tensor(total),
            &Arg::Tensor(count.clone()),
        )
        .rhai()?;
        // PyTorch divides `nansum` by the count: the gradient is `g / count` where `x`
        // is not NaN.
        let reduced = crate::core::reduce::reduced_dims(x.ndim(), dims.as_deref()).rhai()?;
        crate::core::autograd::tracked::single(&out, "DivBackward0", x, move |g, x| {
            use crate::core::autograd::grad_ops::{div, t};
            let share = div(t(g), t(&count))?;
            crate::core::autograd::reduction_grads::nansum_grad(&share, x, &reduced, keepdim)
        });
        t(out)
    });
    r.method_and_function("aminmax", 2, |x, a| {
        if x.dtype().is_complex() {
            return Err(to_rhai(TorchError::type_error(format!(
                "aminmax not implemented for {}",
                x.dtype().cpp_name()
            ))));
        }
        let dim = match a.get(0, "dim") {
            Some(v) if !v.is_unit() => Some(vec![to_int(v, "dim")?]),
            _ => None,
        };
        let keepdim = a.bool_or(1, "keepdim", false)?;
        // An empty input has no extremes: refused in aminmax's own words.
        if x.numel() == 0 {
            match &dim {
                None => {
                    return Err(to_rhai(TorchError::runtime(
                        "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.",
                    )));
                }
                Some(d) => {
                    let w = crate::core::error::wrap_dim(d[0], x.ndim().max(1)).rhai()?;
                    if x.ndim() > 0 && x.sizes()[w] == 0 {
                        return Err(to_rhai(crate::core::error::empty_reduction_dim(
                            "aminmax:", w,
                        )));
                    }
                }
            }
        }
        use crate::core::reduce::{Reduction, reduce};
        let lo = reduce(x, Reduction::Min, dim.as_deref(), keepdim).rhai()?;
        let hi = reduce(x, Reduction::Max, dim.as_deref(), keepdim).rhai()?;
        // One node per result, each sharing its gradient among the tied elements.
        let reduced = crate::core::reduce::reduced_dims(x.ndim(), dim.as_deref()).rhai()?;
        let keep = keepdim && dim.is_some();
        for extreme in [&lo, &hi] {
            let reduced = reduced.clone();
            crate::core::autograd::tracked::single_with_output(
                extreme,
                "AminmaxBackward0",
                x,
                move |g, x, out| {
                    crate::core::autograd::selection_grads::shared_among_ties(
                        g, x, out, &reduced, keep,
                    )
                },
            );
        }
        Ok(Dynamic::from(ReturnTuple {
            kind: "aminmax",
            fields: vec![("min", Dynamic::from(lo)), ("max", Dynamic::from(hi))],
        }))
    });
    r.method("sum_to_size", 8, |x, a| {
        t(sum_to_size(x, &a.sizes("size")?).rhai()?)
    });
    r.method_and_function("cumprod", 1, |x, a| {
        let dim = a.int(0, "dim", "cumprod")?;
        t(crate::core::scan::cumprod(x, dim, a.dtype()?).rhai()?)
    });
}
