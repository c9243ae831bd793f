//! The untracked tensor arithmetic gradient formulas are written in: short names over
//! `core`'s ops (none of them records), so a formula reads as its math does.

use crate::core::dtype::DType;
use crate::core::error::Result;
use crate::core::ops::{Arg, BinaryOp, binary_untracked};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::unary::unary;
use crate::core::unary_math::Unary;

/// A tensor operand.
pub fn t(x: &Tensor) -> Arg {
    Arg::Tensor(x.clone())
}

/// A number operand.
pub fn n(x: f64) -> Arg {
    Arg::Number(Scalar::Float(x))
}

fn op(o: BinaryOp, a: Arg, b: Arg) -> Result<Tensor> {
    binary_untracked(o, &a, &b)
}

/// `a * b`.
pub fn mul(a: Arg, b: Arg) -> Result<Tensor> {
    op(BinaryOp::Mul, a, b)
}

/// `a / b`.
pub fn div(a: Arg, b: Arg) -> Result<Tensor> {
    op(BinaryOp::Div, a, b)
}

/// `a + b`.
pub fn add(a: Arg, b: Arg) -> Result<Tensor> {
    op(BinaryOp::Add, a, b)
}

/// `a - b`.
pub fn sub(a: Arg, b: Arg) -> Result<Tensor> {
    op(BinaryOp::Sub, a, b)
}

/// `-a`.
pub fn neg(a: &Tensor) -> Result<Tensor> {
    mul(t(a), n(-1.0))
}

/// The comparison `a o b` (a bool tensor).
pub fn cmp(o: BinaryOp, a: Arg, b: Arg) -> Result<Tensor> {
    op(o, a, b)
}

/// `f(a)` elementwise.
pub fn apply(f: Unary, a: &Tensor) -> Result<Tensor> {
    unary(a, f)
}

/// `where(mask, a, b)`.
pub fn select(mask: &Tensor, a: Arg, b: Arg) -> Result<Tensor> {
    crate::core::pointwise::where_(mask, &a, &b)
}

/// `g` where `keep` holds, zero elsewhere.
pub fn keep(keep: &Tensor, g: &Tensor) -> Result<Tensor> {
    select(keep, t(g), n(0.0))
}

/// `a | b` of bool tensors.
pub fn or(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    use crate::core::pointwise::{Bitwise, bitwise};
    bitwise(&t(a), &t(b), Bitwise::Or)
}

/// `a & b` of bool tensors.
pub fn and(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    use crate::core::pointwise::{Bitwise, bitwise};
    bitwise(&t(a), &t(b), Bitwise::And)
}

/// `isnan(a)`.
pub fn isnan(a: &Tensor) -> Result<Tensor> {
    cmp(BinaryOp::Ne, t(a), t(a))
}

/// Zeros of `sizes` in `dtype`.
pub fn zeros(sizes: &[i64], dtype: DType) -> Result<Tensor> {
    Tensor::zeros(sizes.to_vec(), dtype)
}

/// `g` with the reduced `dims` of a result put back as size-1 dims (`keepdim=False`
/// results), so it broadcasts against the input.
pub fn unreduce(g: &Tensor, ndim: usize, dims: &[usize], keepdim: bool) -> Result<Tensor> {
    if keepdim || ndim == 0 {
        return Ok(g.clone());
    }
    let mut sorted = dims.to_vec();
    sorted.sort_unstable();
    let mut out = g.clone();
    for d in sorted {
        out = crate::core::views::unsqueeze(&out, d as i64)?;
    }
    Ok(out)
}
