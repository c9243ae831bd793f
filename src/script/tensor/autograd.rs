//! The autograd surface the script sees: `requires_grad` flags and `backward()` (see
//! `core::autograd` for which ops record gradients).

use crate::core::error::TorchError;
use crate::core::tensor::Tensor;
use crate::script::errors::{RhaiResult, to_rhai};

/// Where a `requires_grad` request comes from: PyTorch words the dtype error differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GradRequest {
    /// `requires_grad=True` when creating a tensor.
    Creation,
    /// `t.requires_grad_()`.
    Method,
}

/// Sets `requires_grad` on a leaf, with PyTorch's dtype rule and wording.
pub fn set_requires_grad(t: &Tensor, flag: bool, from: GradRequest) -> RhaiResult<()> {
    let d = t.dtype();
    if flag && !(d.is_floating_point() || d.is_complex()) {
        return Err(to_rhai(TorchError::runtime(match from {
            GradRequest::Creation => {
                "Only Tensors of floating point and complex dtype can require gradients"
            }
            GradRequest::Method => "only Tensors of floating point dtype can require gradients",
        })));
    }
    if t.grad_state().grad_fn.is_some() && !flag {
        return Err(to_rhai(TorchError::runtime(
            "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().",
        )));
    }
    t.with_grad_mut(|g| g.requires_grad = flag);
    Ok(())
}

/// Registers `backward`.
pub fn register(r: &mut crate::script::registry::Registry) {
    r.method("backward", 3, |x, a| {
        // PyTorch's keywords are declared; what tensh has not built is refused, not ignored.
        if let Some(g) = a.get(0, "gradient")
            && !g.is::<crate::core::tensor::Tensor>()
            && !g.is_array()
        {
            return Err(crate::script::errors::type_error(format!(
                "'{}' object is not iterable",
                crate::script::convert::py_type_name(g)
            )));
        }
        let names = ["gradient", "retain_graph", "create_graph", "inputs"];
        if let Some((_, name)) = names
            .iter()
            .enumerate()
            .find(|(i, n)| a.get(*i, n).is_some())
        {
            return Err(to_rhai(crate::core::error::TorchError::not_implemented(
                format!("tensh does not implement the {name}= argument of backward()"),
            )));
        }
        crate::core::autograd::backward(x).map_err(to_rhai)?;
        Ok(rhai::Dynamic::UNIT)
    });
}
