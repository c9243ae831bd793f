//! `torch.cosine_similarity` and `torch.pairwise_distance`, composed as PyTorch composes
//! them so the float results round the same way: the cosine is
//! `sum((a / max(|a|, eps)) * (b / max(|b|, eps)), dim)` of the broadcast inputs in their
//! common floating dtype; the distance is `norm(a - b + eps, p)` over the last dim.
//! Untracked: the callers record the gradients.

use crate::core::autograd::grad_ops::{div, mul, n, t};
use crate::core::error::{Result, TorchError, wrap_dim};
use crate::core::norms::vector_norm;
use crate::core::operand::Arg;
use crate::core::reduce::{Reduction, reduce};
use crate::core::tensor::Tensor;

/// `a` and `b` cast to their common dtype (which must be floating) and broadcast together.
pub fn common_floating(a: &Tensor, b: &Tensor) -> Result<(Tensor, Tensor)> {
    let dtype = crate::core::promotion::promote_types(a.dtype(), b.dtype())?;
    if !(dtype.is_floating_point() || dtype.is_complex()) {
        return Err(TorchError::runtime(format!(
            "expected common dtype to be floating point, yet common dtype is {}",
            dtype.cpp_name()
        )));
    }
    let sizes = crate::core::broadcast::broadcast_shapes(&a.sizes(), &b.sizes())?;
    let cast = |x: &Tensor| -> Result<Tensor> {
        let x = if x.dtype() == dtype {
            x.clone()
        } else {
            crate::core::copy::cast_copy(x, dtype)?
        };
        crate::core::views::expand(&x, &sizes)
    };
    Ok((cast(a)?, cast(b)?))
}

/// The norm of `x` along `dim` (kept), raised to at least `eps`.
pub fn clamped_norm(x: &Tensor, dim: i64, eps: f64) -> Result<Tensor> {
    let norm = vector_norm(x, 2.0, Some(&[dim]), true)?;
    crate::core::pointwise::clamp(
        &norm,
        Some(Arg::Number(crate::core::scalar::Scalar::Float(eps))),
        None,
    )
}

/// `torch.cosine_similarity(a, b, dim, eps)` with `a`, `b` already common and broadcast.
pub fn cosine_similarity(a: &Tensor, b: &Tensor, dim: i64, eps: f64) -> Result<Tensor> {
    let ndim = a.ndim();
    let dim = if ndim == 0 {
        wrap_dim(dim, 1)?;
        0
    } else {
        wrap_dim(dim, ndim)? as i64
    };
    let (na, nb) = (clamped_norm(a, dim, eps)?, clamped_norm(b, dim, eps)?);
    let product = mul(t(&div(t(a), t(&na))?), t(&div(t(b), t(&nb))?))?;
    let dims = [dim];
    reduce(
        &product,
        Reduction::Sum,
        (ndim > 0).then_some(&dims[..]),
        false,
    )
}

/// The gradients of `cosine_similarity` for `a` and `b` (common, broadcast) from the
/// result's gradient `g`, step by step back through PyTorch's composition (so the float
/// gradients round as PyTorch's do): for `a`, the product gives `g b̂`; the division
/// `a / |a|` passes `g b̂ / |a|` to `a` and `-g b̂ (a / |a|) / |a|`, summed along `dim`, to
/// the clamped norm; the clamp passes it where the norm reached `eps`; the norm passes
/// `a (grad / |a|)` (zero where the norm is zero). The same with the roles swapped for `b`.
pub fn cosine_similarity_grads(
    g: &Tensor,
    a: &Tensor,
    b: &Tensor,
    dim: i64,
    eps: f64,
) -> Result<(Tensor, Tensor)> {
    use crate::core::autograd::grad_ops::{add, cmp, keep, neg, unreduce};
    use crate::core::operand::BinaryOp;
    let ndim = a.ndim();
    let dim = if ndim == 0 { 0 } else { wrap_dim(dim, ndim)? };
    let ge = unreduce(g, ndim, &[dim], false)?;
    let (na, nb) = (
        clamped_norm(a, dim as i64, eps)?,
        clamped_norm(b, dim as i64, eps)?,
    );
    let (a_hat, b_hat) = (div(t(a), t(&na))?, div(t(b), t(&nb))?);
    let dims = [dim as i64];
    let side = |x: &Tensor, nx: &Tensor, hat: &Tensor, other_hat: &Tensor| -> Result<Tensor> {
        let through_product = mul(t(&ge), t(other_hat))?;
        let direct = div(t(&through_product), t(nx))?;
        let to_norm = mul(t(&neg(&through_product)?), t(&div(t(hat), t(nx))?))?;
        let to_norm = reduce(
            &to_norm,
            Reduction::Sum,
            (ndim > 0).then_some(&dims[..]),
            true,
        )?;
        let raw = vector_norm(x, 2.0, Some(&dims), true)?;
        let to_norm = keep(&cmp(BinaryOp::Ge, t(&raw), n(eps))?, &to_norm)?;
        let scale = div(t(&to_norm), t(&raw))?;
        let scale = keep(&cmp(BinaryOp::Ne, t(&raw), n(0.0))?, &scale)?;
        add(t(&direct), t(&mul(t(x), t(&scale))?))
    };
    Ok((side(a, &na, &a_hat, &b_hat)?, side(b, &nb, &b_hat, &a_hat)?))
}

/// What `torch.pairwise_distance(a, b, p, eps, keepdim)` takes the `p`-norm of over the
/// last dim: `a - b + eps`.
pub fn pairwise_distance_input(a: &Tensor, b: &Tensor, eps: f64) -> Result<Tensor> {
    let diff =
        crate::core::ops::binary_untracked(crate::core::operand::BinaryOp::Sub, &t(a), &t(b))?;
    crate::core::ops::binary_untracked(crate::core::operand::BinaryOp::Add, &t(&diff), &n(eps))
}
