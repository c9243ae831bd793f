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
        return Err(TorchError::not_implemented(format!(
            "\"{kernel}\" not implemented for '{}'",
            dtype.cpp_name()
        )));
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
}
