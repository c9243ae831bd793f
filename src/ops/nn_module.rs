//! The native part of `torch.nn`: `Parameter(data=None, requires_grad=True)`, a detached
//! alias of `data` (its storage and version counter shared, no `_base`, no `grad_fn`)
//! marked as a parameter (`Tensor::is_parameter`), which prints as `Parameter containing:`
//! above the tensor. The modules (`nn.Module`, `nn.Linear`, ...) are written in Python
//! (`python/stdlib/torch_nn.py`) on the table's functions.

use std::rc::Rc;

use rhai::Dynamic;

use crate::core::error::TorchError;
use crate::core::tensor::Tensor;
use crate::ops::errors::{to_rhai, type_error};
use crate::ops::op_table::OpTable;
use crate::ops::tensor::autograd::{GradRequest, set_requires_grad};

/// Adds `torch::nn::Parameter` to `ops`.
pub fn add_nn(ops: &mut OpTable) {
    ops.submodule_function(
        "nn",
        "Parameter",
        2,
        Rc::new(|a| {
            let data = match a.get(0, "data").filter(|v| !v.is_unit()) {
                None => Tensor::zeros(vec![0], crate::core::defaults::default_dtype())
                    .map_err(to_rhai)?,
                Some(v) => v.clone().try_cast::<Tensor>().ok_or_else(|| {
                    // PyTorch's `Parameter.__new__` calls `data.detach()`.
                    to_rhai(TorchError::attribute(format!(
                        "'{}' object has no attribute 'detach'",
                        crate::ops::convert::py_type_name(v)
                    )))
                })?,
            };
            let requires_grad = match a.get(1, "requires_grad") {
                None => true,
                Some(v) => v.as_bool().map_err(|_| {
                    type_error(format!(
                        "Parameter(): argument 'requires_grad' must be bool, not {}",
                        crate::ops::convert::py_type_name(v)
                    ))
                })?,
            };
            let p = data.alias(data.layout());
            set_requires_grad(&p, requires_grad, GradRequest::Creation)?;
            p.mark_parameter();
            Ok(Dynamic::from(p))
        }),
    );
}
