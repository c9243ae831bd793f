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

fn cpp_type(d: DType) -> &'static str {
    match d {
        DType::UInt8 => "uint8_t",
        DType::Int8 => "int8_t",
        DType::Int16 => "int16_t",
        DType::Int32 => "int",
        DType::Int64 => "int64_t",
        DType::UInt16 => "uint16_t",
        DType::UInt32 => "uint32_t",
        DType::UInt64 => "uint64_t",
        other => other.short_name(),
    }
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

/// Checks that `value` fits `dtype` as PyTorch does. Unsigned types accept negatives down to
/// `-max` (they wrap), as PyTorch's check allows.
pub fn check_fits(dtype: DType, value: Scalar, naming: TypeNaming) -> Result<()> {
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
    let name = match naming {
        TypeNaming::DType => dtype.short_name(),
        TypeNaming::Cpp => cpp_type(dtype),
    };
    Err(TorchError::runtime(format!(
        "value cannot be converted to type {name} without overflow"
    )))
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
