//! The autograd surface the script sees: `requires_grad` flags. Gradients themselves
//! (`backward`) are issue "Math and autograd"; until then `backward` raises a clear
//! `NotImplementedError`.

use super::errors::{RhaiResult, to_rhai};
use crate::core::error::TorchError;
use crate::core::tensor::Tensor;

/// Sets `requires_grad` on a leaf, with PyTorch's dtype rule.
pub fn set_requires_grad(t: &Tensor, flag: bool) -> RhaiResult<()> {
    let d = t.dtype();
    if flag && !(d.is_floating_point() || d.is_complex()) {
        return Err(to_rhai(TorchError::runtime(
            "only Tensors of floating point and complex dtype can require gradients",
        )));
    }
    if t.grad_state().grad_fn.is_some() && !flag {
        return Err(to_rhai(TorchError::runtime(
            "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().",
        )));
    }
    t.with_grad_mut(|g| g.requires_grad = flag);
    Ok(())
}

/// Registers `backward`, which is not built yet and says so.
pub fn register(r: &mut super::registry::Registry) {
    r.method("backward", 3, |_, _| {
        Err(to_rhai(TorchError::not_implemented(
            "backward() is not built in tensh yet (issue: Math and autograd)",
        )))
    });
}
