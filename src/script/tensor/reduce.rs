//! Reductions as methods and `torch` functions: `sum`, `mean`, `prod`, `max`, `min`,
//! `argmax`, `argmin`, `all`, `any`, each with `dim` (an int, or a list for sum and mean)
//! and `keepdim`. `max(dim)` and `min(dim)` return PyTorch's named tuple (values, indices).

use rhai::Dynamic;

use crate::core::reduce::{Reduction, extreme_with_indices, reduce};
use crate::core::tensor::Tensor;
use crate::script::args::Args;
use crate::script::convert::{py_type_name, to_int, to_int_list};
use crate::script::errors::{IntoRhai, RhaiResult, type_error};
use crate::script::registry::Registry;
use crate::script::return_types::ReturnTuple;

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

/// `dtype=` of `sum`, `mean` and `prod`: accepted when it is the dtype the reduction gives
/// anyway; a conversion is not built yet and says so rather than being ignored.
fn check_dtype(t: &Tensor, a: &Args, op: Reduction) -> RhaiResult<()> {
    let Some(d) = a.dtype()? else { return Ok(()) };
    if op.out_dtype(t.dtype()).rhai()? == d {
        return Ok(());
    }
    let name = op.name();
    Err(crate::script::errors::to_rhai(
        crate::core::error::TorchError::not_implemented(format!(
            "{name}(dtype=...) converting to another dtype is not built in tensh yet"
        )),
    ))
}

fn run(t: &Tensor, op: Reduction, a: &Args, list: bool) -> RhaiResult<Dynamic> {
    if matches!(op, Reduction::Sum | Reduction::Mean | Reduction::Prod) {
        check_dtype(t, a, op)?;
    }
    let d = dims(a, list)?;
    let out = reduce(t, op, d.as_deref(), keepdim(a, op.name())?).rhai()?;
    if op == Reduction::Sum {
        crate::core::tensor::record::record_sum(&out, t, d.as_deref(), keepdim(a, "sum")?);
    } else if op == Reduction::Mean {
        crate::core::tensor::record::record_mean(&out, t, d.as_deref(), keepdim(a, "mean")?);
    }
    Ok(Dynamic::from(out))
}

/// Registers the reductions.
pub fn register(r: &mut Registry) {
    r.method_and_function("sum", 2, |x, a| {
        if a.pos.is_empty() && a.kw("dim").is_none() {
            check_dtype(x, &a, Reduction::Sum)?;
            return Ok(Dynamic::from(crate::core::ops::sum_all(x).rhai()?));
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
            match dims(&a, false)? {
                None => Ok(Dynamic::from(reduce(x, op, None, false).rhai()?)),
                Some(d) => {
                    let (v, i) = extreme_with_indices(x, max, d[0], keepdim(&a, name)?).rhai()?;
                    Ok(Dynamic::from(ReturnTuple {
                        kind: name,
                        fields: vec![("values", Dynamic::from(v)), ("indices", Dynamic::from(i))],
                    }))
                }
            }
        });
    }
}
