//! `torch.finfo` and `torch.iinfo`: the limits of a floating-point or integer dtype, as
//! PyTorch reports them (its fields as properties, its repr with C's `%g`).

use rhai::{Dynamic, Engine, INT};

use crate::core::cpp_format::stream_double;
use crate::core::defaults::default_dtype;
use crate::core::dtype::DType;
use crate::core::error::TorchError;
use crate::ops::convert::py_type_name;
use crate::ops::errors::{RhaiResult, to_rhai, type_error};
use crate::ops::registry::Registry;

/// `torch.finfo(dtype)`: a floating-point dtype's limits (a complex dtype's parts').
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FInfo {
    /// The real floating-point dtype described.
    pub dtype: DType,
    /// Bits per value.
    pub bits: INT,
    /// The gap between 1 and the next value.
    pub eps: f64,
    /// The largest finite value (`min` is its negation).
    pub max: f64,
    /// The smallest positive normal value (`smallest_normal` too).
    pub tiny: f64,
}

impl FInfo {
    /// The limits of `dtype`, or PyTorch's `TypeError` for a dtype that is not floating.
    pub fn of(dtype: DType) -> Result<FInfo, TorchError> {
        let dtype = dtype.to_real();
        let (eps, max, tiny): (f64, f64, f64) = match dtype {
            DType::Float32 => (
                f32::EPSILON.into(),
                f32::MAX.into(),
                f32::MIN_POSITIVE.into(),
            ),
            DType::Float64 => (f64::EPSILON, f64::MAX, f64::MIN_POSITIVE),
            DType::Float16 => (2f64.powi(-10), 65504.0, 2f64.powi(-14)),
            // bfloat16: float32's exponent with 8 bits of mantissa.
            DType::BFloat16 => (
                2f64.powi(-7),
                3.3895313892515355e38,
                f32::MIN_POSITIVE.into(),
            ),
            DType::Float8E4M3FN => (0.125, 448.0, 2f64.powi(-6)),
            DType::Float8E4M3FNUZ => (0.125, 240.0, 2f64.powi(-7)),
            DType::Float8E5M2 => (0.25, 57344.0, 2f64.powi(-14)),
            DType::Float8E5M2FNUZ => (0.25, 57344.0, 2f64.powi(-15)),
            _ => {
                return Err(TorchError::type_error(
                    "torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'",
                ));
            }
        };
        Ok(FInfo {
            dtype,
            bits: dtype.itemsize() as INT * 8,
            eps,
            max,
            tiny,
        })
    }

    /// `resolution`: `10 ** -digits`, the decimal digits `eps` keeps (NumPy's rule).
    pub fn resolution(&self) -> f64 {
        10f64.powi(-((-self.eps.log10()).floor() as i32))
    }

    /// PyTorch's repr: every field with six significant digits.
    pub fn repr(&self) -> String {
        format!(
            "finfo(resolution={}, min={}, max={}, eps={}, smallest_normal={}, tiny={}, dtype={})",
            stream_double(self.resolution()),
            stream_double(-self.max),
            stream_double(self.max),
            stream_double(self.eps),
            stream_double(self.tiny),
            stream_double(self.tiny),
            self.dtype.short_name()
        )
    }
}

/// `torch.iinfo(dtype)`: an integer dtype's range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IInfo {
    /// The integer dtype described.
    pub dtype: DType,
}

impl IInfo {
    /// The range of `dtype`, or PyTorch's `TypeError` for a dtype that is not an integer.
    pub fn of(dtype: DType) -> Result<IInfo, TorchError> {
        if dtype == DType::Bool {
            return Err(TorchError::type_error(
                "torch.bool is not supported by torch.iinfo",
            ));
        }
        if !dtype.is_integral() {
            return Err(TorchError::type_error(
                "torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'",
            ));
        }
        Ok(IInfo { dtype })
    }

    /// The smallest and largest values, as wide integers (uint64's maximum is past `i64`).
    fn range(&self) -> (i128, i128) {
        let bits = self.dtype.itemsize() as u32 * 8;
        if self.dtype.is_signed() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        }
    }

    /// A bound as a script integer; uint64's maximum does not fit one.
    fn bound(&self, value: i128) -> RhaiResult<INT> {
        INT::try_from(value).map_err(|_| {
            to_rhai(TorchError::not_implemented(format!(
                "{value} does not fit in tensh's 64-bit signed integers"
            )))
        })
    }

    /// PyTorch's repr: the bounds with six significant digits.
    pub fn repr(&self) -> String {
        let (min, max) = self.range();
        format!(
            "iinfo(min={}, max={}, dtype={})",
            stream_double(min as f64),
            stream_double(max as f64),
            self.dtype.short_name()
        )
    }
}

/// The dtype argument of `finfo`/`iinfo` (`finfo()` describes the default dtype).
fn dtype_argument(v: Option<&Dynamic>, function: &str) -> RhaiResult<DType> {
    match v {
        None => Ok(default_dtype()),
        Some(v) => v.clone().try_cast::<DType>().ok_or_else(|| {
            type_error(format!(
                "{function}(): argument 'type' (position 1) must be torch.dtype, not {}",
                py_type_name(v)
            ))
        }),
    }
}

/// Registers `torch::finfo`, `torch::iinfo` and their fields.
pub fn register(r: &mut Registry) {
    register_types(r.engine);
    r.function("finfo", 1, |a| {
        let dtype = dtype_argument(a.get(0, "type"), "finfo")?;
        Ok(Dynamic::from(FInfo::of(dtype).map_err(to_rhai)?))
    });
    r.function("iinfo", 1, |a| {
        let dtype = dtype_argument(a.get(0, "type"), "iinfo")?;
        Ok(Dynamic::from(IInfo::of(dtype).map_err(to_rhai)?))
    });
}

fn register_types(engine: &mut Engine) {
    engine.register_type_with_name::<FInfo>("finfo");
    engine.register_get("bits", |f: &mut FInfo| f.bits);
    engine.register_get("eps", |f: &mut FInfo| f.eps);
    engine.register_get("max", |f: &mut FInfo| f.max);
    engine.register_get("min", |f: &mut FInfo| -f.max);
    engine.register_get("tiny", |f: &mut FInfo| f.tiny);
    engine.register_get("smallest_normal", |f: &mut FInfo| f.tiny);
    engine.register_get("resolution", |f: &mut FInfo| f.resolution());
    // Python's `finfo.dtype` is the dtype's name, a string.
    engine.register_get("dtype", |f: &mut FInfo| f.dtype.short_name().to_string());
    engine.register_fn("==", |a: FInfo, b: FInfo| a == b);
    engine.register_fn("!=", |a: FInfo, b: FInfo| a != b);
    engine.register_type_with_name::<IInfo>("iinfo");
    engine.register_get("bits", |i: &mut IInfo| i.dtype.itemsize() as INT * 8);
    engine.register_get("max", |i: &mut IInfo| i.bound(i.range().1));
    engine.register_get("min", |i: &mut IInfo| i.bound(i.range().0));
    engine.register_get("dtype", |i: &mut IInfo| i.dtype.short_name().to_string());
    engine.register_fn("==", |a: IInfo, b: IInfo| a == b);
    engine.register_fn("!=", |a: IInfo, b: IInfo| a != b);
    for name in ["to_string", "to_debug"] {
        engine.register_fn(name, |f: &mut FInfo| f.repr());
        engine.register_fn(name, |i: &mut IInfo| i.repr());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_limits_and_reprs_match_pytorch() {
        let f = FInfo::of(DType::Float16).unwrap();
        assert_eq!(
            f.repr(),
            "finfo(resolution=0.001, min=-65504, max=65504, eps=0.000976562, smallest_normal=6.10352e-05, tiny=6.10352e-05, dtype=float16)"
        );
        assert_eq!(FInfo::of(DType::Complex64).unwrap().dtype, DType::Float32);
        assert_eq!(FInfo::of(DType::Float8E4M3FN).unwrap().resolution(), 1.0);
        assert!(FInfo::of(DType::Int32).is_err());
    }

    #[test]
    fn integer_ranges_reach_every_width() {
        let u64_info = IInfo::of(DType::UInt64).unwrap();
        assert_eq!(u64_info.range(), (0, u64::MAX as i128));
        assert!(u64_info.bound(u64_info.range().1).is_err());
        assert_eq!(
            IInfo::of(DType::Int8).unwrap().repr(),
            "iinfo(min=-128, max=127, dtype=int8)"
        );
        assert!(IInfo::of(DType::Bool).is_err());
        assert!(IInfo::of(DType::Float32).is_err());
    }
}
