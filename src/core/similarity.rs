//! `torch.cosine_similarity` and `torch.pairwise_distance`, composed as PyTorch composes
//! them so the float results round the same way: the cosine is
//! `sum((a / max(|a|, eps)) * (b / max(|b|, eps)), dim)` of the broadcast inputs in their
//! common floating dtype; the distance is `norm(a - b + eps, p)` over the last dim.
//! Untracked: the callers record the gradients, which `Cosine` computes from what its
//! forward kept.

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

/// One input of `cosine_similarity` with what its forward computed and its gradient reads:
/// its norm along the dim (kept), that norm raised to at least `eps`, and `x / clamped`.
struct Side {
    x: Tensor,
    raw: Tensor,
    clamped: Tensor,
    hat: Tensor,
}

impl Side {
    fn new(x: &Tensor, dim: i64, eps: f64) -> Result<Side> {
        let raw = vector_norm(x, 2.0, Some(&[dim]), true)?;
        let clamped = crate::core::pointwise::clamp(
            &raw,
            Some(Arg::Number(crate::core::scalar::Scalar::Float(eps))),
            None,
        )?;
        let hat = div(t(x), t(&clamped))?;
        Ok(Side {
            x: x.clone(),
            raw,
            clamped,
            hat,
        })
    }
}

/// What the gradient of `torch.cosine_similarity(a, b, dim, eps)` reads, kept by its
/// forward (not the result itself: a formula holding its own output would be a cycle).
pub struct Cosine {
    sides: [Side; 2],
    /// The wrapped dim (0 for 0-d inputs).
    dim: i64,
    ndim: usize,
    eps: f64,
}

impl Cosine {
    /// `sum((a / max(|a|, eps)) * (b / max(|b|, eps)), dim)` of `a`, `b` already common
    /// and broadcast, with what its gradient reads.
    pub fn new(a: &Tensor, b: &Tensor, dim: i64, eps: f64) -> Result<(Tensor, Cosine)> {
        let ndim = a.ndim();
        let dim = if ndim == 0 {
            wrap_dim(dim, 1)?;
            0
        } else {
            wrap_dim(dim, ndim)? as i64
        };
        let sides = [Side::new(a, dim, eps)?, Side::new(b, dim, eps)?];
        let product = mul(t(&sides[0].hat), t(&sides[1].hat))?;
        let value = reduce(&product, Reduction::Sum, Self::dims(ndim, &[dim]), false)?;
        Ok((
            value,
            Cosine {
                sides,
                dim,
                ndim,
                eps,
            },
        ))
    }

    /// The dims reduced: `dim`, or all of a 0-d input's none.
    fn dims(ndim: usize, dim: &[i64; 1]) -> Option<&[i64]> {
        (ndim > 0).then_some(&dim[..])
    }

    /// The gradients for `a` and `b` from the result's gradient `g`, step by step back
    /// through PyTorch's composition (so the float gradients round as PyTorch's do): for
    /// `a`, the product gives `g b̂`; the division `a / |a|` passes `g b̂ / |a|` to `a` and
    /// `-g b̂ (a / |a|) / |a|`, summed along `dim`, to the clamped norm; the clamp passes it
    /// where the norm reached `eps`; the norm passes `a (grad / |a|)` (zero where the norm
    /// is zero). The same with the roles swapped for `b`.
    pub fn grads(&self, g: &Tensor) -> Result<(Tensor, Tensor)> {
        use crate::core::autograd::grad_ops::{add, cmp, keep, neg, unreduce};
        use crate::core::operand::BinaryOp;
        let ge = unreduce(g, self.ndim, &[self.dim as usize], false)?;
        let dims = [self.dim];
        let grad = |side: &Side, other: &Side| -> Result<Tensor> {
            let through_product = mul(t(&ge), t(&other.hat))?;
            let direct = div(t(&through_product), t(&side.clamped))?;
            let to_norm = mul(
                t(&neg(&through_product)?),
                t(&div(t(&side.hat), t(&side.clamped))?),
            )?;
            let to_norm = reduce(&to_norm, Reduction::Sum, Self::dims(self.ndim, &dims), true)?;
            let to_norm = keep(&cmp(BinaryOp::Ge, t(&side.raw), n(self.eps))?, &to_norm)?;
            let scale = div(t(&to_norm), t(&side.raw))?;
            let scale = keep(&cmp(BinaryOp::Ne, t(&side.raw), n(0.0))?, &scale)?;
            add(t(&direct), t(&mul(t(&side.x), t(&scale))?))
        };
        let [a, b] = &self.sides;
        Ok((grad(a, b)?, grad(b, a)?))
    }
}

/// What `torch.pairwise_distance(a, b, p, eps, keepdim)` takes the `p`-norm of over the
/// last dim: `a - b + eps`.
pub fn pairwise_distance_input(a: &Tensor, b: &Tensor, eps: f64) -> Result<Tensor> {
    let diff =
        crate::core::ops::binary_untracked(crate::core::operand::BinaryOp::Sub, &t(a), &t(b))?;
    crate::core::ops::binary_untracked(crate::core::operand::BinaryOp::Add, &t(&diff), &n(eps))
}
