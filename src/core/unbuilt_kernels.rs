//! The CPU kernels PyTorch does not build for its "barebones" unsigned dtypes (uint16,
//! uint32, uint64): arithmetic beyond `*` and `/`, ordering comparisons, `abs`, `neg`,
//! `max`/`min`/`argmax`, `dot`, `pow`, remainder and floor division raise
//! `NotImplementedError` naming the kernel, while copies, fills, `sum`, `prod`, `mul`, `div`
//! and `==` work. Nor for complex32, beyond copies, `+`, `-`, `*`, `==`, `neg`, `abs` and
//! `sgn`. Each op asks here by its kernel's name, so the rule lives in one place.

use super::dtype::DType;
use super::error::{Result, TorchError};
use super::operand::BinaryOp;

/// PyTorch's error when `kernel` has no version for `dtype`: the wide unsigned dtypes lack
/// every kernel that asks here; complex32 lacks those `COMPLEX_HALF_UNBUILT` lists.
pub fn require_kernel(kernel: &str, dtype: DType) -> Result<()> {
    if matches!(dtype, DType::UInt16 | DType::UInt32 | DType::UInt64) {
        return Err(not_built(kernel, dtype));
    }
    require_complex_half_kernel(kernel, dtype)
}

/// The CPU kernels PyTorch builds for complex64 and complex128 but not for complex32
/// (`ComplexHalf`, "experimental" in PyTorch: copies, fills, `+`, `-`, `*`, `==`, `neg`,
/// `abs`, `sgn` and views work). Unary functions name theirs in `unary_math`.
const COMPLEX_HALF_UNBUILT: &[&str] = &[
    "pow",
    "div_cpu",
    "div_trunc_cpu",
    "div_floor_cpu",
    "remainder_cpu",
    "sum_cpu",
    "prod_out_cpu",
    "nan_to_num",
    "flip_cpu",
    "equal_notnan_cpu",
    "trace",
    "angle_cpu",
    "vdot",
    "logical_not_cpu",
    "logical_and_cpu",
    "logical_or_cpu",
    "logical_xor_cpu",
    "atan2_cpu",
    "hypot_cpu",
    "copysign_cpu",
    "fmod_cpu",
    "logaddexp_cpu",
    "xlogy_cpu",
    "nextafter_cpu",
    "gcd_cpu",
    "lcm_cpu",
    "lshift_cpu",
    "rshift_cpu",
    "igamma_cpu",
    "igammac_cpu",
];

/// PyTorch's error when `kernel` is one complex32 lacks and `dtype` is complex32 (for the
/// kernels the wide unsigned dtypes have: `div_cpu`, `sum_cpu`, ...).
pub fn require_complex_half_kernel(kernel: &str, dtype: DType) -> Result<()> {
    if dtype == DType::Complex32 && COMPLEX_HALF_UNBUILT.contains(&kernel) {
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
    fn complex32_lacks_the_kernels_listed_for_it() {
        let e = require_kernel("pow", DType::Complex32).unwrap_err();
        assert_eq!(e.message, "\"pow\" not implemented for 'ComplexHalf'");
        assert!(require_kernel("add_stub", DType::Complex32).is_ok());
        assert!(require_complex_half_kernel("div_cpu", DType::Complex64).is_ok());
        assert!(require_complex_half_kernel("div_cpu", DType::UInt16).is_ok());
        assert!(require_complex_half_kernel("div_cpu", DType::Complex32).is_err());
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
