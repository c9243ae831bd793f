//! The gradients of the family's functions (`kernels`), each composed step by step as
//! PyTorch's formula is, so float32 gradients round as PyTorch's do.

use super::kernels::{Binary, binary_math};
use crate::core::autograd::grad_ops::{
    add, and, apply, cmp, div, keep, mul, n, neg, or, select, sub, t,
};
use crate::core::autograd::pointwise_grads::{
    PairGrads, both, drop_where, pow_grads, rounded_division_grads,
};
use crate::core::autograd::tracked::Operands;
use crate::core::error::Result;
use crate::core::ops::{Arg, BinaryOp};
use crate::core::pointwise::Rounding;
use crate::core::tensor::Tensor;
use crate::core::unary_math::Unary;

/// The gradients of `op(a, b)` (`None`: PyTorch has no formula for `op`).
pub fn binary_math_grads(op: Binary, g: &Tensor, v: &Operands) -> Result<Option<PairGrads>> {
    let (a, b) = (&v.a, &v.b);
    let grads = match op {
        Binary::Atan2 => {
            let recip = apply(
                Unary::Reciprocal,
                &add(
                    t(&mul(a.clone(), a.clone())?),
                    t(&mul(b.clone(), b.clone())?),
                )?,
            )?;
            let ga = mul(t(&mul(t(g), b.clone())?), t(&recip))?;
            let minus_a = mul(a.clone(), n(-1.0))?;
            let gb = mul(t(&mul(t(g), t(&minus_a))?), t(&recip))?;
            both(ga, gb)?
        }
        Binary::Hypot => both(
            div(t(&mul(t(g), a.clone())?), t(&v.out))?,
            div(t(&mul(t(g), b.clone())?), t(&v.out))?,
        )?,
        Binary::Copysign => {
            let ratio = div(t(&v.out), a.clone())?;
            let zero = cmp(BinaryOp::Eq, a.clone(), n(0.0))?;
            let ga = mul(t(g), t(&drop_where(&zero, &ratio)?))?;
            (Some(ga), Some(mul(t(g), n(0.0))?))
        }
        Binary::Fmod => rounded_division_grads(g, a, b, Rounding::Trunc)?,
        Binary::Logaddexp | Binary::Logaddexp2 => {
            let spread = |from: &Arg, to: &Arg| -> Result<Tensor> {
                let d = sub(from.clone(), to.clone())?;
                let e = if op == Binary::Logaddexp {
                    apply(Unary::Exp, &d)?
                } else {
                    crate::core::pointwise::pow(&n(2.0), &t(&d))?
                };
                div(t(g), t(&add(n(1.0), t(&e))?))
            };
            both(spread(b, a)?, spread(a, b)?)?
        }
        Binary::Xlogy => {
            let log_b = binary_math(Binary::Xlogy, &t(g), b)?;
            let undefined = and(
                &cmp(BinaryOp::Eq, a.clone(), n(0.0))?,
                &cmp(BinaryOp::Le, b.clone(), n(0.0))?,
            )?;
            let ga = drop_where(&undefined, &log_b)?;
            let gb = div(t(&mul(t(g), a.clone())?), b.clone())?;
            both(ga, gb)?
        }
        Binary::Nextafter => {
            let moved = cmp(BinaryOp::Ne, a.clone(), b.clone())?;
            (Some(keep(&moved, g)?), Some(mul(t(g), n(0.0))?))
        }
        Binary::Fmax | Binary::Fmin => {
            // The operand chosen gets the gradient (`a` when `b` is NaN, even if both
            // are), halved between equal ones.
            let o = if op == Binary::Fmax {
                BinaryOp::Gt
            } else {
                BinaryOp::Lt
            };
            let b_nan = cmp(BinaryOp::Ne, b.clone(), b.clone())?;
            let a_side = or(&cmp(o, a.clone(), b.clone())?, &b_nan)?;
            let tied = cmp(BinaryOp::Eq, a.clone(), b.clone())?;
            let b_side = crate::core::selection::logical_not(&or(&a_side, &tied)?)?;
            let half = div(t(g), n(2.0))?;
            let ga = select(&tied, t(&half), t(&keep(&a_side, g)?))?;
            let gb = select(&tied, t(&half), t(&keep(&b_side, g)?))?;
            both(ga, gb)?
        }
        Binary::Ldexp => {
            let scale = crate::core::pointwise::pow(&n(2.0), b)?;
            let ga = mul(t(g), t(&scale))?;
            let gb = mul(t(g), t(&mul(t(&v.out), n(std::f64::consts::LN_2))?))?;
            both(ga, gb)?
        }
        Binary::FloatPower => pow_grads(g, v)?,
        Binary::Igamma | Binary::Igammac => {
            // Only `x` has a gradient: `±g · exp((a − 1) ln x − x − lgamma(a))`.
            let Arg::Tensor(at) = a else {
                return Ok(None);
            };
            let Arg::Tensor(xt) = b else {
                return Ok(None);
            };
            let power = mul(t(&sub(a.clone(), n(1.0))?), t(&apply(Unary::Log, xt)?))?;
            let exponent = sub(
                t(&sub(t(&power), b.clone())?),
                t(&apply(Unary::Lgamma, at)?),
            )?;
            let density = apply(Unary::Exp, &exponent)?;
            let signed = if op == Binary::Igamma {
                g.clone()
            } else {
                neg(g)?
            };
            (None, Some(mul(t(&signed), t(&density))?))
        }
        _ => return Ok(None),
    };
    Ok(Some(grads))
}
