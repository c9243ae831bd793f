//! The CPU kernels PyTorch does not build for its "barebones" unsigned dtypes (uint16,
//! uint32, uint64): arithmetic beyond `*` and `/`, ordering comparisons, `abs`, `neg`,
//! `max`/`min`/`argmax`, `dot`, `pow`, remainder and floor division raise
//! `NotImplementedError` naming the kernel, while copies, fills, `sum`, `prod`, `mul`, `div`
//! and `==` work. Each op asks here by its kernel's name, so the rule lives in one place.

use super::dtype::DType;
use super::error::{Result, TorchError};
use super::operand::BinaryOp;

/// PyTorch's error when `kernel` has no version for `dtype` (only the wide unsigned dtypes
/// lack the kernels that ask).
pub fn require_kernel(kernel: &str, dtype: DType) -> Result<()> {
    if matches!(dtype, DType::UInt16 | DType::UInt32 | DType::UInt64) {
        return Err(not_built(kernel, dtype));
    }
    Ok(())
}

/// PyTorch's error for a kernel with no version for `dtype`, in its words.
pub fn not_built(kernel: &str, dtype: DType) -> TorchError {
    TorchError::not_implemented(format!(
        "\"{kernel}\" not implemented for '{}'",
        dtype.cpp_name()
    ))
}

/// PyTorch's error when a random kernel (`normal_kernel_cpu`, `check_uniform_bounds`,
/// `random_update_from_to`, `randperm`, `bernoulli_scalar_cpu_`) meets a float8 dtype:
/// PyTorch builds its random kernels for the other float types only. Asked before any
/// sample is drawn or buffer allocated.
pub fn require_random_kernel(kernel: &str, dtype: DType) -> Result<()> {
    if matches!(
        dtype,
        DType::Float8E4M3FN | DType::Float8E4M3FNUZ | DType::Float8E5M2 | DType::Float8E5M2FNUZ
    ) {
        return Err(not_built(kernel, dtype));
    }
    Ok(())
}

/// The kernel a binary op runs, where that kernel lacks the wide unsigned dtypes.
pub fn binary_kernel(op: BinaryOp) -> Option<&'static str> {
    match op {
        BinaryOp::Add | BinaryOp::Sub => Some("add_stub"),
        BinaryOp::Lt => Some("lt_cpu"),
        BinaryOp::Le => Some("le_cpu"),
        BinaryOp::Gt => Some("gt_cpu"),
        BinaryOp::Ge => Some("ge_cpu"),
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Eq | BinaryOp::Ne => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_wide_unsigned_dtypes_lack_kernels() {
        assert!(require_kernel("add_stub", DType::UInt8).is_ok());
        assert!(require_kernel("add_stub", DType::Int64).is_ok());
        let e = require_kernel("add_stub", DType::UInt64).unwrap_err();
        assert_eq!(e.message, "\"add_stub\" not implemented for 'UInt64'");
        assert_eq!(binary_kernel(BinaryOp::Mul), None);
    }

    #[test]
    fn random_kernels_lack_the_float8_dtypes() {
        let e = require_random_kernel("normal_kernel_cpu", DType::Float8E4M3FNUZ).unwrap_err();
        assert_eq!(
            e.message,
            "\"normal_kernel_cpu\" not implemented for 'Float8_e4m3fnuz'"
        );
        assert!(require_random_kernel("normal_kernel_cpu", DType::BFloat16).is_ok());
    }
}
