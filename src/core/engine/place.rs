//! The placing mode of the engine, for ops that write source elements into chosen places of
//! a destination (`scatter*`, `index_add/copy/reduce`, `put`): both sides as row-major
//! images of one dtype, and a list of `(destination, source)` element pairs in the order
//! PyTorch visits them (so repeated places end as PyTorch's do). The combining loop is
//! compiled once per dtype (`for_dtype!`): no dtype is matched per element.

use crate::core::dtype::DType;
use crate::core::element::{for_dtype, read, write};
use crate::core::error::{Result, TorchError};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;

/// How a source element meets the destination element it lands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// The source replaces it.
    Replace,
    /// Added (`sum`, `add`).
    Sum,
    /// Multiplied (`prod`, `multiply`).
    Prod,
    /// Averaged with the other sources (and itself, when included).
    Mean,
    /// The larger (NaN wins).
    Amax,
    /// The smaller (NaN wins).
    Amin,
}

impl Combine {
    /// PyTorch's name of the reduction, as its kernels name themselves in errors.
    fn kernel_name(self) -> &'static str {
        match self {
            Combine::Replace => "replace",
            Combine::Sum => "sum",
            Combine::Prod => "prod",
            Combine::Mean => "mean",
            Combine::Amax => "amax",
            Combine::Amin => "amin",
        }
    }
}

/// Refuses the reductions PyTorch's kernels lack for `dtype` (`mean` of bool, `amax` and
/// `amin` of complex), in its words.
pub fn check_dtype(how: Combine, dtype: DType) -> Result<()> {
    let missing = match how {
        Combine::Mean => dtype == DType::Bool,
        Combine::Amax | Combine::Amin => dtype.is_complex(),
        _ => false,
    };
    if missing {
        return Err(TorchError::not_implemented(format!(
            "\"scatter_gather_tensor_cpu_reduce_{}\" not implemented for '{}'",
            how.kernel_name(),
            dtype.cpp_name()
        )));
    }
    Ok(())
}

/// One reduction step on two values of the same kind.
#[inline(always)]
fn step(how: Combine, a: Scalar, b: Scalar) -> Scalar {
    match (a, b) {
        (Scalar::Float(x), Scalar::Float(y)) => Scalar::Float(match how {
            Combine::Replace => y,
            Combine::Sum | Combine::Mean => x + y,
            Combine::Prod => x * y,
            Combine::Amax if x.is_nan() || y.is_nan() => f64::NAN,
            Combine::Amin if x.is_nan() || y.is_nan() => f64::NAN,
            Combine::Amax => x.max(y),
            Combine::Amin => x.min(y),
        }),
        (Scalar::Int(x), Scalar::Int(y)) => Scalar::Int(match how {
            Combine::Replace => y,
            Combine::Sum | Combine::Mean => x.wrapping_add(y),
            Combine::Prod => x.wrapping_mul(y),
            Combine::Amax => x.max(y),
            Combine::Amin => x.min(y),
        }),
        (Scalar::Bool(x), Scalar::Bool(y)) => Scalar::Bool(match how {
            Combine::Replace => y,
            Combine::Sum | Combine::Mean | Combine::Amax => x || y,
            Combine::Prod | Combine::Amin => x && y,
        }),
        (Scalar::Complex(x), Scalar::Complex(y)) => Scalar::Complex(match how {
            Combine::Prod => x * y,
            Combine::Sum | Combine::Mean => x + y,
            _ => y,
        }),
        (_, b) => b,
    }
}

/// The value a place starts from when the destination's own value is left out
/// (`include_self=False`).
fn identity(how: Combine, dtype: DType) -> Scalar {
    match how {
        Combine::Prod => Scalar::Int(1),
        Combine::Amax if dtype.is_floating_point() => Scalar::Float(f64::NEG_INFINITY),
        Combine::Amin if dtype.is_floating_point() => Scalar::Float(f64::INFINITY),
        Combine::Amax => Scalar::Int(int_range(dtype).0),
        Combine::Amin => Scalar::Int(int_range(dtype).1),
        _ => Scalar::Int(0),
    }
}

/// The least and greatest values of an integer (or bool) dtype, as the `i64` that stores
/// them (uint64's greatest wraps to -1, which it stores as all ones).
fn int_range(dtype: DType) -> (i64, i64) {
    match dtype {
        DType::Bool => (0, 1),
        DType::UInt8 => (0, u8::MAX as i64),
        DType::Int8 => (i8::MIN as i64, i8::MAX as i64),
        DType::Int16 => (i16::MIN as i64, i16::MAX as i64),
        DType::UInt16 => (0, u16::MAX as i64),
        DType::Int32 => (i32::MIN as i64, i32::MAX as i64),
        DType::UInt32 => (0, u32::MAX as i64),
        DType::UInt64 => (0, -1),
        _ => (i64::MIN, i64::MAX),
    }
}

/// `value / count` as a mean of `dtype` finishes: floor division for integers.
fn divide(v: Scalar, count: u32) -> Scalar {
    let n = count.max(1);
    match v {
        Scalar::Float(x) => Scalar::Float(x / n as f64),
        Scalar::Int(x) => Scalar::Int(x.div_euclid(n as i64)),
        Scalar::Complex(z) => Scalar::Complex(z / n as f64),
        other => other,
    }
}

/// Writes the source elements into `dst` at their places: `pairs` are `(destination,
/// source)` element indices into the two images (both of `dtype`; a source of one element
/// can be named by every pair). With `include_self` false, each place that receives a
/// source starts from the reduction's identity instead of its own value; a mean divides
/// by the number of values it took.
pub fn place(
    dtype: DType,
    how: Combine,
    include_self: bool,
    dst: &mut [u8],
    src: &[u8],
    pairs: &[(usize, usize)],
) -> Result<()> {
    check_dtype(how, dtype)?;
    let w = dtype.itemsize();
    let in_bounds = |(d, s): &(usize, usize)| (d + 1) * w <= dst.len() && (s + 1) * w <= src.len();
    if !pairs.iter().all(in_bounds) {
        return Err(TorchError::runtime(
            "place: an element index is outside its tensor",
        ));
    }
    let start = identity(how, dtype);
    let mut counts: Vec<u32> = Vec::new();
    if how == Combine::Mean {
        counts = vec![u32::from(include_self); dst.len() / w.max(1)];
    }
    for_dtype!(dtype, D => {
        if !include_self && how != Combine::Replace {
            for &(d, _) in pairs {
                write(D, &mut dst[d * w..(d + 1) * w], start);
            }
        }
        for &(d, s) in pairs {
            let here = &mut dst[d * w..(d + 1) * w];
            let v = step(how, read(D, here), read(D, &src[s * w..(s + 1) * w]));
            write(D, here, v);
            if let Some(c) = counts.get_mut(d) {
                *c += 1;
            }
        }
        if how == Combine::Mean {
            for &(d, _) in pairs {
                // Each place is divided once: its count is reset after.
                let c = std::mem::take(&mut counts[d]);
                if c > 0 {
                    let here = &mut dst[d * w..(d + 1) * w];
                    write(D, here, divide(read(D, here), c));
                }
            }
        }
    });
    Ok(())
}

/// A new contiguous tensor holding `t`'s values with the source placed into them
/// (`place` on `t`'s row-major image).
pub fn placed(
    t: &Tensor,
    how: Combine,
    include_self: bool,
    src: &[u8],
    pairs: &[(usize, usize)],
) -> Result<Tensor> {
    let mut image = super::elements::image(t)?;
    place(t.dtype(), how, include_self, &mut image, src, pairs)?;
    Ok(super::elements::from_image(image, t.sizes(), t.dtype()))
}
