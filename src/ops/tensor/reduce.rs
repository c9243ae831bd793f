//! Reductions as methods and `torch` functions: `sum`, `mean`, `prod`, `var`, `std`, `max`,
//! `min`, `argmax`, `argmin`, `all`, `any`, each with `dim` (an int, or a list for sum and mean)
//! and `keepdim`. `max(dim)` and `min(dim)` return PyTorch's named tuple (values, indices);
//! given a tensor they are the elementwise `maximum`/`minimum` (`pointwise`).

use rhai::Dynamic;

use crate::core::autograd::{reduction_grads, selection_grads, tracked};
use crate::core::copy::cast_copy;
use crate::core::dtype::DType;
use crate::core::error::TorchError;
use crate::core::reduce::reduced_dims;
use crate::core::reduce::{Reduction, extreme_with_indices, reduce, variance};
use crate::core::tensor::Tensor;
use crate::core::tensor::record::record_copy;
use crate::ops::args::Args;
use crate::ops::convert::{py_type_name, to_float, to_int, to_int_list};
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai, type_error};
use crate::ops::registry::Registry;
use crate::ops::return_types::ReturnTuple;

/// The `dim` argument: absent, one dim, or (where `list` is allowed) several.
fn dims(a: &Args, list: bool) -> RhaiResult<Option<Vec<i64>>> {
    match a.get(0, "dim") {
        None => Ok(None),
        Some(v) if v.is_unit() => Ok(None),
        Some(v) if list && v.is_array() => Ok(Some(to_int_list(v, "dim")?)),
        Some(v) => Ok(Some(vec![to_int(v, "dim")?])),
    }
}

/// `keepdim` (position 2, after `dim`), which PyTorch requires to be a bool.
fn keepdim(a: &Args, func: &str) -> RhaiResult<bool> {
    match a.get(1, "keepdim") {
        None => Ok(false),
        Some(v) => v.as_bool().map_err(|_| {
            type_error(format!(
                "{func}(): argument 'keepdim' (position 2) must be bool, not {}",
                py_type_name(v)
            ))
        }),
    }
}

/// `dtype=` of `sum`, `mean` and `prod`: as in PyTorch, the input is converted to `dtype`
/// first (a cast autograd sees, `ToCopyBackward0`) and the result has that dtype. `None`
/// when no conversion is asked for.
fn converted(t: &Tensor, a: &Args, op: Reduction) -> RhaiResult<Option<(Tensor, DType)>> {
    let Some(d) = a.dtype()? else { return Ok(None) };
    if op == Reduction::Mean && !(d.is_floating_point() || d.is_complex()) {
        return Err(to_rhai(TorchError::not_implemented(format!(
            "mean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. Got: {}",
            d.cpp_name()
        ))));
    }
    // No conversion when the input's own result already has `dtype` (an integer `mean`
    // has none: it needs the conversion).
    if op.out_dtype(t.dtype()).ok() == Some(d) {
        return Ok(None);
    }
    let input = if t.dtype() == d {
        t.clone()
    } else {
        let c = cast_copy(t, d).rhai()?;
        if d.is_floating_point() || d.is_complex() {
            record_copy(&c, t, "ToCopyBackward0");
        }
        c
    };
    Ok(Some((input, d)))
}

/// A reduction's result in the dtype asked for (integer sums run in int64, and wrap to a
/// narrower dtype as PyTorch's do).
fn in_dtype(out: Tensor, d: Option<DType>) -> RhaiResult<Tensor> {
    match d {
        Some(d) if out.dtype() != d => cast_copy(&out, d).rhai(),
        _ => Ok(out),
    }
}

fn run(t: &Tensor, op: Reduction, a: &Args, list: bool) -> RhaiResult<Dynamic> {
    let conversion = if matches!(op, Reduction::Sum | Reduction::Mean | Reduction::Prod) {
        converted(t, a, op)?
    } else {
        None
    };
    let (t, dtype) = match &conversion {
        Some((c, d)) => (c, Some(*d)),
        None => (t, None),
    };
    let d = dims(a, list)?;
    let out = in_dtype(
        reduce(t, op, d.as_deref(), keepdim(a, op.name())?).rhai()?,
        dtype,
    )?;
    if op == Reduction::Sum {
        crate::core::tensor::record::record_sum(&out, t, d.as_deref(), keepdim(a, "sum")?);
    } else if op == Reduction::Mean {
        crate::core::tensor::record::record_mean(&out, t, d.as_deref(), keepdim(a, "mean")?);
    } else if op == Reduction::Prod {
        let dim = match &d {
            Some(d) => reduced_dims(t.ndim(), Some(d)).rhai()?.first().copied(),
            None => None,
        };
        let keep = keepdim(a, "prod")?;
        let node = if dim.is_some() {
            "ProdBackward1"
        } else {
            "ProdBackward0"
        };
        tracked::single_with_output(&out, node, t, move |g, x, out| {
            reduction_grads::prod_grad(g, x, out, dim, keep)
        });
    }
    Ok(Dynamic::from(out))
}

/// Registers the reductions.
pub fn register(r: &mut Registry) {
    r.method_and_function("sum", 2, |x, a| {
        if a.pos.is_empty() && a.kw("dim").is_none() {
            let Some((c, d)) = converted(x, &a, Reduction::Sum)? else {
                return Ok(Dynamic::from(crate::core::ops::sum_all(x).rhai()?));
            };
            let out = in_dtype(crate::core::ops::sum_all(&c).rhai()?, Some(d))?;
            // sum_all records itself on `c`; the cast back to a narrower integer type
            // needs no gradient (integers have none).
            return Ok(Dynamic::from(out));
        }
        run(x, Reduction::Sum, &a, true)
    });
    r.method_and_function("cumsum", 1, |x, a| {
        let dim = a.int(0, "dim", "cumsum")?;
        let out = crate::core::scan::cumsum(x, dim, a.dtype()?).rhai()?;
        Ok(Dynamic::from(out))
    });
    r.method_and_function("mean", 2, |x, a| run(x, Reduction::Mean, &a, true));
    r.method_and_function("prod", 2, |x, a| run(x, Reduction::Prod, &a, false));
    for (name, std, node) in [
        ("var", false, "VarBackward0"),
        ("std", true, "StdBackward0"),
    ] {
        r.method_and_function(name, 3, move |x, a| {
            // `x.var(True)` is PyTorch's third form (`unbiased` alone); otherwise position
            // 0 is `dim`, then `unbiased`, then `keepdim`.
            let (d, unbiased, keep) = match a.pos.first() {
                Some(v) if v.is_bool() => (None, v.as_bool().ok(), false),
                _ => (
                    dims(&a, true)?,
                    a.get(1, "unbiased")
                        .map(|_| a.bool_or(1, "unbiased", true))
                        .transpose()?,
                    a.bool_or(2, "keepdim", false)?,
                ),
            };
            let correction = match (a.kw("correction"), unbiased) {
                (Some(c), _) => to_float(c, "correction")?,
                (None, Some(false)) => 0.0,
                (None, _) => 1.0,
            };
            let out = variance(x, d.as_deref(), correction, keep, std).rhai()?;
            let reduced = reduced_dims(x.ndim(), d.as_deref()).rhai()?;
            reduction_grads::record_spread(&out, node, x, reduced, correction, keep, std);
            Ok(Dynamic::from(out))
        });
    }
    for (name, op) in [
        ("argmax", Reduction::ArgMax),
        ("argmin", Reduction::ArgMin),
        ("all", Reduction::All),
        ("any", Reduction::Any),
    ] {
        r.method_and_function(name, 2, move |x, a| run(x, op, &a, false));
    }
    for (name, max) in [("max", true), ("min", false)] {
        r.method_and_function(name, 2, move |x, a| {
            let op = if max { Reduction::Max } else { Reduction::Min };
            if let Some(other) = a
                .get(0, "other")
                .and_then(|v| v.clone().try_cast::<Tensor>())
            {
                return crate::ops::tensor::pointwise::elementwise_extreme(x, &other, max);
            }
            match dims(&a, false)? {
                None => {
                    let out = reduce(x, op, None, false).rhai()?;
                    let node = if max { "MaxBackward1" } else { "MinBackward1" };
                    tracked::single_with_output(&out, node, x, |g, x, out| {
                        selection_grads::evenly_distributed(g, x, out)
                    });
                    Ok(Dynamic::from(out))
                }
                Some(d) => {
                    let keep = keepdim(&a, name)?;
                    let (v, i) = extreme_with_indices(x, max, d[0], keep).rhai()?;
                    let (dim, indices) = (d[0], i.clone());
                    let node = if max { "MaxBackward0" } else { "MinBackward0" };
                    tracked::single(&v, node, x, move |g, x| {
                        selection_grads::to_picked(g, &x.sizes(), dim, &indices, keep, false)
                    });
                    Ok(Dynamic::from(ReturnTuple {
                        kind: name,
                        fields: vec![("values", Dynamic::from(v)), ("indices", Dynamic::from(i))],
                    }))
                }
            }
        });
    }
}
