//! In-place forms written as their out-of-place op: the op computes from a stand-in for
//! the tensor (`source`), its result is checked against the tensor and copied in, and
//! the write is recorded under the result's node with the result's gradient formula.
//! The stand-in is a copy of the old values whenever the write will be recorded, so the
//! formula reads what the tensor held before it (PyTorch saves `original_self` so).

use crate::core::error::Result;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::{BackwardOp, detached};
use crate::core::tensor::record::record_in_place;
use crate::ops::errors::{IntoRhai, RhaiResult};

/// What an in-place op on `x` computes from: `x` itself, or, when autograd will record
/// the write (`x` or one of `others` requires grad), a copy of `x`'s values standing in
/// for it (requiring grad as `x` does).
pub(crate) fn source(x: &Tensor, others: &[&Tensor]) -> Result<Tensor> {
    let recorded = crate::core::tensor::grad_mode::is_enabled()
        && (x.requires_grad() || others.iter().any(|t| t.requires_grad()));
    if !recorded {
        return Ok(x.clone());
    }
    let copy = crate::core::copy::clone_tensor(&detached(x))?;
    if x.requires_grad() {
        copy.with_grad_mut(|g| g.requires_grad = true);
    }
    Ok(copy)
}

/// Writes `out`, computed from `source(x, others)` and `others`, into `x`: PyTorch's
/// in-place shape and dtype check first. When autograd recorded `out`, `x` gets an
/// in-place node of the same name whose formula is `out`'s (its inputs were the source
/// and `others`, in that order); a node over other inputs raises when backward reaches
/// it.
pub(crate) fn write_back(x: &Tensor, others: &[&Tensor], out: &Tensor) -> RhaiResult<()> {
    write_back_named(x, others, out, None)
}

/// `write_back`, the in-place node named `name` where PyTorch's in-place overload has a
/// name of its own (`polygamma_` is `PolygammaBackward1`).
pub(crate) fn write_back_named(
    x: &Tensor,
    others: &[&Tensor],
    out: &Tensor,
    name: Option<&str>,
) -> RhaiResult<()> {
    crate::core::ops::check_in_place_result(x, &out.sizes(), out.dtype()).rhai()?;
    crate::core::copy::copy_(x, out).rhai()?;
    if let Some(node) = out.grad_state().grad_fn {
        let name = name.map_or_else(|| node.name.clone(), str::to_string);
        if node.next.len() == others.len() + 1 {
            let op = BackwardOp::formula(node.next.len(), move |g| {
                crate::core::autograd::apply_formula(&node.op, &[Some(g.clone())])
            });
            record_in_place(x, &name, others, op);
        } else {
            let op = BackwardOp::Unsupported { op: name.clone() };
            record_in_place(x, &name, &[], op);
        }
    }
    Ok(())
}
