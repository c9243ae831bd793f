//! Gradients of the elementwise functions of two operands kept in core (`pow` of tensors,
//! `maximum`, rounded division, ...) and of `clamp`, each composed step by step as
//! PyTorch's formula is, so float32 gradients round as PyTorch's do.

use super::grad_ops::{and, apply, cmp, div, keep, mul, n, neg, or, select, sub, t};
use super::tracked::Operands;
use crate::core::error::Result;
use crate::core::ops::{Arg, BinaryOp};
use crate::core::pointwise::{Rounding, div_rounded};
use crate::core::tensor::Tensor;
use crate::core::unary_math::Unary;

/// Gradients of the two operands, each `None` where the formula gives none.
pub type PairGrads = (Option<Tensor>, Option<Tensor>);

/// Both operands' gradients.
pub fn both(a: Tensor, b: Tensor) -> Result<PairGrads> {
    Ok((Some(a), Some(b)))
}

/// `g` with zeros where `mask` holds.
pub fn drop_where(mask: &Tensor, g: &Tensor) -> Result<Tensor> {
    select(mask, n(0.0), t(g))
}

/// `fmod` (`Trunc`) and `remainder` (`Floor`): `a`'s gradient passes, `b`'s is `-g`
/// times the rounded quotient.
pub fn rounded_division_grads(g: &Tensor, a: &Arg, b: &Arg, how: Rounding) -> Result<PairGrads> {
    let quotient = div_rounded(a, b, how)?;
    let gb = mul(t(&neg(g)?), t(&quotient))?;
    both(g.clone(), gb)
}

/// `pow(a, b)` with a tensor exponent (or a number base): `b · a^(b-1)` for the base
/// (zero where `b` is 0), `out · ln a` for the exponent (zero where `a` is 0 and `b ≥ 0`).
pub fn pow_grads(g: &Tensor, v: &Operands) -> Result<PairGrads> {
    let (a, b) = (&v.a, &v.b);
    let ga = match a {
        Arg::Tensor(_) => {
            let lowered = crate::core::pointwise::pow(a, &t(&sub(b.clone(), n(1.0))?))?;
            let factor = mul(b.clone(), t(&lowered))?;
            let scaled = mul(t(g), t(&factor))?;
            let flat = cmp(BinaryOp::Eq, b.clone(), n(0.0))?;
            Some(drop_where(&flat, &scaled)?)
        }
        Arg::Number(_) => None,
    };
    let log_a = match a {
        Arg::Tensor(at) => apply(Unary::Log, at)?,
        Arg::Number(s) => crate::core::creation::full(
            &[],
            crate::core::scalar::Scalar::Float(s.to_f64().ln()),
            v.out.dtype(),
        )?,
    };
    let rate = mul(t(&v.out), t(&log_a))?;
    let at_zero = and(
        &cmp(BinaryOp::Eq, a.clone(), n(0.0))?,
        &cmp(BinaryOp::Ge, b.clone(), n(0.0))?,
    )?;
    let gb = mul(t(g), t(&drop_where(&at_zero, &rate)?))?;
    Ok((ga, Some(gb)))
}

/// `maximum`/`minimum`: the gradient goes to the larger (smaller) operand, halved
/// between equal ones.
pub fn extreme_grads(g: &Tensor, v: &Operands, max: bool) -> Result<PairGrads> {
    let (a, b) = (&v.a, &v.b);
    let tied = cmp(BinaryOp::Eq, a.clone(), b.clone())?;
    let shared = select(&tied, t(&div(t(g), n(2.0))?), t(g))?;
    let (a_loses, b_loses) = if max {
        (BinaryOp::Lt, BinaryOp::Gt)
    } else {
        (BinaryOp::Gt, BinaryOp::Lt)
    };
    let ga = drop_where(&cmp(a_loses, a.clone(), b.clone())?, &shared)?;
    let gb = drop_where(&cmp(b_loses, a.clone(), b.clone())?, &shared)?;
    both(ga, gb)
}

/// `clamp(x, min, max)` with number bounds: the gradient passes where `x` lies strictly
/// inside them (PyTorch gives nothing at a bound, nor to NaN).
pub fn clamp_by_numbers_grad(
    g: &Tensor,
    x: &Tensor,
    min: Option<&Arg>,
    max: Option<&Arg>,
) -> Result<Tensor> {
    let above = min
        .map(|lo| cmp(BinaryOp::Gt, t(x), lo.clone()))
        .transpose()?;
    let below = max
        .map(|hi| cmp(BinaryOp::Lt, t(x), hi.clone()))
        .transpose()?;
    match (above, below) {
        (Some(a), Some(b)) => keep(&and(&a, &b)?, g),
        (Some(m), None) | (None, Some(m)) => keep(&m, g),
        (None, None) => Ok(g.clone()),
    }
}

/// `clamp(x, min, max)` with tensor bounds: the gradients of `x`, `min` and `max` (zeros
/// for a bound not given). The one chosen gets the gradient, halved between `x` and a
/// bound it equals (unless it equals both); `max` wins when the bounds cross; NaN sends
/// it to `x`.
pub fn clamp_by_tensors_grads(
    g: &Tensor,
    x: &Tensor,
    min: Option<&Arg>,
    max: Option<&Arg>,
) -> Result<[Tensor; 3]> {
    let zero = || mul(t(g), n(0.0));
    let half = div(t(g), n(2.0))?;
    Ok(match (min, max) {
        (Some(lo), Some(hi)) => {
            let below = cmp(BinaryOp::Lt, t(x), lo.clone())?;
            let above = cmp(BinaryOp::Gt, t(x), hi.clone())?;
            let at_lo = cmp(BinaryOp::Eq, t(x), lo.clone())?;
            let at_hi = cmp(BinaryOp::Eq, t(x), hi.clone())?;
            let crossed = cmp(BinaryOp::Gt, lo.clone(), hi.clone())?;
            let one_tie = crate::core::pointwise::bitwise(
                &t(&at_lo),
                &t(&at_hi),
                crate::core::pointwise::Bitwise::Xor,
            )?;
            let outside = or(&below, &above)?;
            let gx = drop_where(&outside, &select(&one_tie, t(&half), t(g))?)?;
            let only = |tie: &Tensor, other: &Tensor| -> Result<Tensor> {
                let not_other = crate::core::selection::logical_not(other)?;
                keep(&and(tie, &not_other)?, &half)
            };
            let glo = select(&below, t(g), t(&only(&at_lo, &at_hi)?))?;
            let glo = drop_where(&crossed, &glo)?;
            let ghi = select(&above, t(g), t(&only(&at_hi, &at_lo)?))?;
            let ghi = select(&crossed, t(g), t(&ghi))?;
            [gx, glo, ghi]
        }
        // One bound: `maximum(x, min)` or `minimum(x, max)`, ties halved, NaN to both.
        (Some(lo), None) => {
            let shared = select(&cmp(BinaryOp::Eq, t(x), lo.clone())?, t(&half), t(g))?;
            let gx = drop_where(&cmp(BinaryOp::Lt, t(x), lo.clone())?, &shared)?;
            let glo = drop_where(&cmp(BinaryOp::Gt, t(x), lo.clone())?, &shared)?;
            [gx, glo, zero()?]
        }
        (None, Some(hi)) => {
            let shared = select(&cmp(BinaryOp::Eq, t(x), hi.clone())?, t(&half), t(g))?;
            let gx = drop_where(&cmp(BinaryOp::Gt, t(x), hi.clone())?, &shared)?;
            let ghi = drop_where(&cmp(BinaryOp::Lt, t(x), hi.clone())?, &shared)?;
            [gx, zero()?, ghi]
        }
        (None, None) => [g.clone(), zero()?, zero()?],
    })
}
