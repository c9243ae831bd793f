//! `torch::cat` (also spelled `concat` and `concatenate`) and `torch::stack`: a list of
//! tensors joined into a fresh tensor (`core::join`).

use rhai::{Array, Dynamic};

use crate::core::join;
use crate::core::tensor::Tensor;
use crate::ops::convert::py_type_name;
use crate::ops::errors::{IntoRhai, RhaiResult, type_error};
use crate::ops::registry::Registry;

/// The list of tensors `value` must be, with PyTorch's errors for anything else.
pub(crate) fn tensor_list(value: &Dynamic, name: &str) -> RhaiResult<Vec<Tensor>> {
    let Some(items) = value.clone().try_cast::<Array>() else {
        return Err(type_error(format!(
            "{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not {}",
            py_type_name(value)
        )));
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            v.clone().try_cast::<Tensor>().ok_or_else(|| {
                type_error(format!(
                    "expected Tensor as element {i} in argument 0, but got {}",
                    py_type_name(&v)
                ))
            })
        })
        .collect()
}

/// Registers the joining functions.
pub fn register(r: &mut Registry) {
    for (name, stacked) in [
        ("cat", false),
        ("concat", false),
        ("concatenate", false),
        ("stack", true),
    ] {
        r.function(name, 2, move |a| {
            let tensors = tensor_list(a.req(0, "tensors", name)?, name)?;
            let dim = a.int_or(1, "dim", 0)?;
            let joined = if stacked {
                join::stack(&tensors, dim)
            } else {
                join::cat(&tensors, dim)
            };
            Ok(Dynamic::from(joined.rhai()?))
        });
    }
}
