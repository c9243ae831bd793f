//! The gradients of `softmax`, `log_softmax` and `logsumexp`, from the saved output (and
//! for `logsumexp` the saved input), computed in the gradient's dtype with untracked ops.

use crate::core::error::Result;
use crate::core::ops::{Arg, BinaryOp, binary_untracked as binary};
use crate::core::reduce::{Reduction, reduce};
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::SoftmaxKind;
use crate::core::unary::{Unary, unary};

fn t(x: &Tensor) -> Arg {
    Arg::Tensor(x.clone())
}

/// The input's gradient for output gradient `g`.
pub fn gradient(
    kind: SoftmaxKind,
    input: &Tensor,
    output: &Tensor,
    dims: &[i64],
    keepdim: bool,
    g: &Tensor,
) -> Result<Tensor> {
    match kind {
        SoftmaxKind::Softmax => {
            // y * (g - sum(g * y))
            let gy = binary(BinaryOp::Mul, &t(g), &t(output))?;
            let s = reduce(&gy, Reduction::Sum, Some(dims), true)?;
            let d = binary(BinaryOp::Sub, &t(g), &t(&s))?;
            binary(BinaryOp::Mul, &t(output), &t(&d))
        }
        SoftmaxKind::LogSoftmax => {
            // g - exp(y) * sum(g)
            let s = reduce(g, Reduction::Sum, Some(dims), true)?;
            let e = unary(output, Unary::Exp)?;
            let es = binary(BinaryOp::Mul, &t(&e), &t(&s))?;
            binary(BinaryOp::Sub, &t(g), &t(&es))
        }
        SoftmaxKind::LogSumExp => {
            // g * exp(x - y), with the reduced dims put back for broadcasting
            let (g, y) = if keepdim || input.ndim() == 0 {
                (g.clone(), output.clone())
            } else {
                let mut sizes = input.sizes();
                for &d in dims {
                    sizes[d as usize] = 1;
                }
                (
                    crate::core::views::reshape(g, &sizes)?,
                    crate::core::views::reshape(output, &sizes)?,
                )
            };
            // (Complex: the conjugate of the exponential, as for every holomorphic op.)
            let diff = binary(BinaryOp::Sub, &t(input), &t(&y))?;
            let e = unary(&diff, Unary::Exp)?;
            let e = if e.dtype().is_complex() {
                crate::core::copy::contiguous_copy(&crate::core::views::conj::conj(&e))?
            } else {
                e
            };
            binary(BinaryOp::Mul, &t(&g), &t(&e))
        }
    }
}
