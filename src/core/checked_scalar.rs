//! PyTorch's range check when a Python number is written into an integer tensor: values that
//! do not fit raise instead of wrapping (floating and bool targets never raise).

use super::dtype::DType;
use super::error::{Result, TorchError};
use super::scalar::Scalar;

/// How the message names the target type: `torch.tensor` uses dtype names (`uint8`);
/// `fill_`, `full` and assignment use C++ type names (`uint8_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeNaming {
    /// `int8`, `uint8`, `int32`...
    DType,
    /// `int8_t`, `uint8_t`, `int`...
    Cpp,
}

/// The C++ type name PyTorch's conversion messages give `d` (`float`, `int64_t`, ...).
pub fn cpp_type(d: DType) -> &'static str {
    match d {
        DType::UInt8 => "uint8_t",
        DType::Int8 => "int8_t",
        DType::Int16 => "int16_t",
        DType::Int32 => "int",
        DType::Int64 => "int64_t",
        DType::UInt16 => "uint16_t",
        DType::UInt32 => "uint32_t",
        DType::UInt64 => "uint64_t",
        DType::Float32 => "float",
        DType::Float16 => "c10::Half",
        DType::BFloat16 => "c10::BFloat16",
        DType::Complex64 => "c10::complex<float>",
        DType::Complex32 => "c10::complex<c10::Half>",
        other => other.short_name(),
    }
}

/// The range of an integer dtype other than bool, as floats (`None` for other dtypes).
pub fn integer_limits(d: DType) -> Option<(f64, f64)> {
    limits(d)
}

fn limits(d: DType) -> Option<(f64, f64)> {
    Some(match d {
        DType::UInt8 => (0.0, u8::MAX as f64),
        DType::Int8 => (i8::MIN as f64, i8::MAX as f64),
        DType::Int16 => (i16::MIN as f64, i16::MAX as f64),
        DType::Int32 => (i32::MIN as f64, i32::MAX as f64),
        DType::Int64 => (i64::MIN as f64, i64::MAX as f64),
        DType::UInt16 => (0.0, u16::MAX as f64),
        DType::UInt32 => (0.0, u32::MAX as f64),
        DType::UInt64 => (0.0, u64::MAX as f64),
        _ => return None,
    })
}

/// The finite range of the float dtypes whose conversions PyTorch checks when filling or
/// assigning a number (`fill_`, `full`, `t[i] = v`): float32 and the complex types, part by
/// part. `reduced` adds float16 and bfloat16, which only a write through a scalar tensor
/// checks (a typed storage's `fill_` and assignment). Infinities and NaN always pass.
fn float_limit(d: DType, reduced: bool) -> Option<f64> {
    match d {
        DType::Float32 | DType::Complex64 => Some(f32::MAX as f64),
        DType::Complex32 => Some(65504.0),
        DType::Float16 if reduced => Some(65504.0),
        DType::BFloat16 if reduced => Some(3.3895313892515355e38),
        _ => None,
    }
}

/// PyTorch's overflow error for a value that does not fit `dtype`.
fn overflow(dtype: DType, naming: TypeNaming) -> TorchError {
    let name = match naming {
        TypeNaming::DType => dtype.short_name(),
        TypeNaming::Cpp => cpp_type(dtype),
    };
    TorchError::runtime(format!(
        "value cannot be converted to type {name} without overflow"
    ))
}

/// `check_fits` for a write through a scalar tensor, which also checks float16 and bfloat16
/// (a typed storage's `fill_` and `s[i] = v`, checked with the oracle).
pub fn check_fits_through_scalar_tensor(dtype: DType, value: Scalar) -> Result<()> {
    check_fits_as(dtype, value, TypeNaming::Cpp, true)
}

/// The float part of the check: finite parts beyond the dtype's range overflow.
fn check_float(dtype: DType, value: Scalar, reduced: bool, naming: TypeNaming) -> Result<()> {
    let Some(limit) = float_limit(dtype, reduced) else {
        return Ok(());
    };
    let parts = match value {
        Scalar::Complex(c) => [c.re, c.im],
        other => [other.to_f64(), 0.0],
    };
    if parts.iter().any(|p| p.is_finite() && p.abs() > limit) {
        return Err(overflow(dtype, naming));
    }
    Ok(())
}

/// Checks that `value` fits `dtype` as PyTorch does. Unsigned types accept negatives down to
/// `-max` (they wrap), as PyTorch's check allows. Floats are checked only where PyTorch's
/// fill and assignment check them (`TypeNaming::Cpp`); `torch.tensor()` does not.
pub fn check_fits(dtype: DType, value: Scalar, naming: TypeNaming) -> Result<()> {
    check_fits_as(dtype, value, naming, false)
}

/// Checks that `value` converts to `dtype` as PyTorch's checked conversion of a number does
/// where a number is written into a tensor (`fill_`, `full`, `masked_fill`, `t[i] = v`, a
/// one-element value written through a mask): besides `check_fits`' ranges, a NaN does not
/// convert to an integer type, a complex number with an imaginary part does not convert to a
/// real type (bool takes any number), and a float of 2⁶³ or more does not convert to int64.
/// `half_checked` also checks float16 and bfloat16 (every such write but a basic index's).
pub fn check_converts(dtype: DType, value: Scalar, half_checked: bool) -> Result<()> {
    if dtype == DType::Bool {
        return Ok(());
    }
    let integral = dtype.is_integral();
    let refused = match value {
        Scalar::Complex(c) if !dtype.is_complex() => {
            c.im != 0.0 || (integral && (c.re.is_nan() || past_64_bits(dtype, c.re)))
        }
        Scalar::Float(f) if integral => f.is_nan() || past_64_bits(dtype, f),
        _ => false,
    };
    if refused {
        return Err(overflow(dtype, TypeNaming::Cpp));
    }
    check_fits_as(dtype, value, TypeNaming::Cpp, half_checked)
}

/// Checks that the double `f` converts to the integer `dtype` as c10's conversion from a
/// floating-point number checks it: within the type's range, so no negative number wraps
/// into an unsigned type (`check_converts` takes a number written into a tensor, which
/// may). Other dtypes pass.
pub fn check_double_converts(dtype: DType, f: f64) -> Result<()> {
    if !dtype.is_integral() || dtype == DType::Bool {
        return Ok(());
    }
    match limits(dtype) {
        Some((min, max)) if f.is_nan() || f < min || f > max || past_64_bits(dtype, f) => {
            Err(overflow(dtype, TypeNaming::Cpp))
        }
        _ => Ok(()),
    }
}

/// Whether `f` is at or past the first value a 64-bit integer `dtype` cannot hold (as an
/// `f64`, `i64::MAX` rounds up to 2⁶³, so the range check alone lets 2⁶³ through).
fn past_64_bits(dtype: DType, f: f64) -> bool {
    match dtype {
        DType::Int64 => f >= 9_223_372_036_854_775_808.0,
        DType::UInt64 => f >= 18_446_744_073_709_551_616.0,
        _ => false,
    }
}

/// `check_fits`, with `reduced` also checking float16 and bfloat16 (`float_limit`).
fn check_fits_as(dtype: DType, value: Scalar, naming: TypeNaming, reduced: bool) -> Result<()> {
    if naming == TypeNaming::Cpp {
        check_float(dtype, value, reduced, naming)?;
    }
    let Some((min, max)) = limits(dtype) else {
        return Ok(());
    };
    let v = match value {
        Scalar::Bool(_) => return Ok(()),
        Scalar::UInt(u) => u as f64,
        Scalar::Int(i) => i as f64,
        Scalar::Float(f) if f.is_nan() => return Ok(()),
        Scalar::Float(f) => f,
        Scalar::Complex(c) => c.re,
    };
    let fits = if min == 0.0 {
        v <= max && -v <= max
    } else {
        v >= min && v <= max
    };
    if fits {
        return Ok(());
    }
    Err(overflow(dtype, naming))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_pytorch() {
        assert!(check_fits(DType::UInt8, Scalar::Int(-255), TypeNaming::Cpp).is_ok());
        assert_eq!(
            check_fits(DType::UInt8, Scalar::Int(-256), TypeNaming::Cpp)
                .unwrap_err()
                .message,
            "value cannot be converted to type uint8_t without overflow"
        );
        assert!(check_fits(DType::Int8, Scalar::Int(128), TypeNaming::DType).is_err());
        assert!(check_fits(DType::Float16, Scalar::Float(1e9), TypeNaming::DType).is_ok());
        assert!(check_fits(DType::UInt8, Scalar::Float(1000.0), TypeNaming::DType).is_err());
    }
}
