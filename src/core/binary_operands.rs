//! The operands of an elementwise binary op, converted to the type its typed kernel computes
//! in, by PyTorch's rules for mixed operands:
//!
//! - a tensor of another dtype is converted to the op's dtype first (an `int64` tensor
//!   times a `float16` tensor reads the integers as `float16`);
//! - `float16`, `bfloat16` and `complex32` ops compute in a wider type (PyTorch's "opmath"
//!   type: `f32`, complex `f32`), rounding once when the result is written; for `*` and
//!   `/` a Python number or a zero-dim tensor operand is read straight into that wider type,
//!   not rounded to the op's dtype first (`half_tensor * 3.3` multiplies by `3.3f32`), while
//!   `+`, `-` and the comparisons round it to the op's dtype first (`bf16_tensor - 0.01`
//!   subtracts `0.010009765625`), as PyTorch's kernels do;
//! - complex ops compute in complex `f64`; bool ops in `u8` (0 or 1), the result read as
//!   non-zero.

use super::copy::cast_copy;
use super::dtype::DType;
use super::element::cast;
use super::error::Result;
use super::operand::{Arg, BinaryOp};

/// The dtype the typed kernels compute an op of dtype `compute` in.
pub fn kernel_dtype(compute: DType) -> DType {
    match compute {
        DType::Float16
        | DType::BFloat16
        | DType::Float8E4M3FN
        | DType::Float8E4M3FNUZ
        | DType::Float8E5M2
        | DType::Float8E5M2FNUZ => DType::Float32,
        // complex64 computes in complex `f32`, as PyTorch's kernels do (so its products
        // and quotients round as PyTorch's); complex32 in complex `f64`.
        DType::Complex64 => DType::Complex64,
        DType::Complex32 | DType::Complex128 => DType::Complex128,
        DType::Bool => DType::UInt8,
        d => d,
    }
}

/// Whether PyTorch's kernel for `op` in `compute` reads numbers and zero-dim tensors
/// directly in its wider type (products and quotients of its reduced-precision floats).
fn reads_scalars_wide(op: BinaryOp, compute: DType) -> bool {
    matches!(op, BinaryOp::Mul | BinaryOp::Div)
        && matches!(compute, DType::Float16 | DType::BFloat16 | DType::Complex32)
}

/// `a` as the kernel for `op` in dtype `compute`, computing in `kernel`, reads it: a
/// number cast as the rules above say, a tensor of dtype `kernel` with no conjugate bit
/// (itself, or a converted copy).
pub fn prepare(op: BinaryOp, a: &Arg, compute: DType, kernel: DType) -> Result<Arg> {
    let wide = reads_scalars_wide(op, compute);
    Ok(match a {
        Arg::Number(s) if wide => Arg::Number(*s),
        Arg::Number(s) => Arg::Number(cast(compute, *s)),
        Arg::Tensor(t) if t.ndim() == 0 && wide => {
            if t.dtype() == kernel && t.is_resolved() {
                Arg::Tensor(t.clone())
            } else {
                Arg::Tensor(cast_copy(t, kernel)?)
            }
        }
        Arg::Tensor(t) => {
            let in_op_dtype = if t.dtype() == compute {
                t.clone()
            } else {
                cast_copy(t, compute)?
            };
            if in_op_dtype.dtype() == kernel && in_op_dtype.is_resolved() {
                Arg::Tensor(in_op_dtype)
            } else {
                Arg::Tensor(cast_copy(&in_op_dtype, kernel)?)
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scalar::Scalar;
    use crate::core::tensor::Tensor;

    #[test]
    fn every_dtype_computes_in_a_type_the_kernels_cover() {
        for d in crate::core::dtype::ALL_DTYPES {
            let k = kernel_dtype(d);
            assert!(
                !matches!(k, DType::Float16 | DType::BFloat16 | DType::Bool)
                    && (!k.is_complex() || matches!(k, DType::Complex64 | DType::Complex128)),
                "{d} computes in {k}"
            );
        }
    }

    #[test]
    fn numbers_for_half_ops_are_not_rounded_to_half() {
        let n = Arg::Number(Scalar::Float(3.3));
        let Arg::Number(wide) = prepare(BinaryOp::Mul, &n, DType::Float16, DType::Float32).unwrap()
        else {
            panic!("a number stays a number")
        };
        assert_eq!(wide.to_f64(), 3.3);
        let Arg::Number(narrow) =
            prepare(BinaryOp::Mul, &n, DType::Float32, DType::Float32).unwrap()
        else {
            panic!("a number stays a number")
        };
        assert_eq!(narrow.to_f64(), f64::from(3.3f32));
        let Arg::Number(rounded) =
            prepare(BinaryOp::Sub, &n, DType::Float16, DType::Float32).unwrap()
        else {
            panic!("a number stays a number")
        };
        assert_eq!(rounded.to_f64(), half::f16::from_f64(3.3).to_f64());
    }

    #[test]
    fn tensors_arrive_in_the_kernel_dtype() {
        let t = Tensor::zeros(vec![2], DType::Int64).unwrap();
        let Arg::Tensor(p) = prepare(
            BinaryOp::Add,
            &Arg::Tensor(t),
            DType::Float16,
            DType::Float32,
        )
        .unwrap() else {
            panic!("a tensor stays a tensor")
        };
        assert_eq!(p.dtype(), DType::Float32);
    }
}
