//! The byte encoding of one element of each dtype (little-endian, as on x86-64): reading a
//! `Scalar` from bytes and writing one with PyTorch's cast rules.

use half::{bf16, f16};
use num_complex::Complex64;

use super::dtype::DType;
use super::float8;
use super::scalar::{Scalar, float_to_i64};

fn le<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut a = [0u8; N];
    a.copy_from_slice(&bytes[..N]);
    a
}

/// The `float16` with bits `h` as `f32` (exact: every half is a float), NaNs quieted as
/// x86's conversion instruction quiets them. Plain integer arithmetic and selects, so a
/// loop of conversions vectorises; `half`'s conversion checks the CPU for F16C on every
/// call, which kept such loops at a few nanoseconds an element.
#[inline(always)]
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let magnitude = u32::from(h & 0x7fff);
    let bits = if magnitude >= 0x7c00 {
        // Infinity or NaN: the exponent all ones, the mantissa kept, a NaN's quiet bit set.
        let quiet = if magnitude > 0x7c00 { 0x0040_0000 } else { 0 };
        0x7f80_0000 | ((magnitude & 0x3ff) << 13) | quiet
    } else if magnitude >= 0x0400 {
        // Normal: the exponent rebiased from 15 to 127.
        (magnitude << 13) + (112 << 23)
    } else {
        // Zero or subnormal: `magnitude * 2^-24`, exact in f32.
        (magnitude as f32 * f32::from_bits(0x3380_0000)).to_bits()
    };
    f32::from_bits(sign | bits)
}

/// Reads one element of `dtype` from the first `dtype.itemsize()` bytes of `bytes`.
///
/// Panics only if `bytes` is shorter than the item size, which callers rule out by slicing
/// within checked bounds. Always inlined: with a constant `dtype` (the typed readers and
/// converters below) the match folds to one arm.
#[inline(always)]
pub fn read(dtype: DType, bytes: &[u8]) -> Scalar {
    match dtype {
        DType::Bool => Scalar::Bool(bytes[0] != 0),
        DType::UInt8 => Scalar::Int(bytes[0] as i64),
        DType::Int8 => Scalar::Int(bytes[0] as i8 as i64),
        DType::Int16 => Scalar::Int(i16::from_le_bytes(le(bytes)) as i64),
        DType::Int32 => Scalar::Int(i32::from_le_bytes(le(bytes)) as i64),
        DType::Int64 => Scalar::Int(i64::from_le_bytes(le(bytes))),
        DType::UInt16 => Scalar::Int(u16::from_le_bytes(le(bytes)) as i64),
        DType::UInt32 => Scalar::Int(u32::from_le_bytes(le(bytes)) as i64),
        DType::UInt64 => {
            let u = u64::from_le_bytes(le(bytes));
            if u <= i64::MAX as u64 {
                Scalar::Int(u as i64)
            } else {
                Scalar::UInt(u)
            }
        }
        DType::Float16 => Scalar::Float(f16_to_f32(u16::from_le_bytes(le(bytes))) as f64),
        DType::BFloat16 => Scalar::Float(bf16::from_le_bytes(le(bytes)).to_f64()),
        DType::Float32 => Scalar::Float(f32::from_le_bytes(le(bytes)) as f64),
        DType::Float64 => Scalar::Float(f64::from_le_bytes(le(bytes))),
        DType::Complex32 => Scalar::Complex(Complex64::new(
            f16_to_f32(u16::from_le_bytes(le(bytes))) as f64,
            f16_to_f32(u16::from_le_bytes(le(&bytes[2..]))) as f64,
        )),
        DType::Complex64 => Scalar::Complex(Complex64::new(
            f32::from_le_bytes(le(bytes)) as f64,
            f32::from_le_bytes(le(&bytes[4..])) as f64,
        )),
        DType::Complex128 => Scalar::Complex(Complex64::new(
            f64::from_le_bytes(le(bytes)),
            f64::from_le_bytes(le(&bytes[8..])),
        )),
        DType::Float8E4M3FN => Scalar::Float(float8::E4M3FN.decode(bytes[0])),
        DType::Float8E4M3FNUZ => Scalar::Float(float8::E4M3FNUZ.decode(bytes[0])),
        DType::Float8E5M2 => Scalar::Float(float8::E5M2.decode(bytes[0])),
        DType::Float8E5M2FNUZ => Scalar::Float(float8::E5M2FNUZ.decode(bytes[0])),
    }
}

/// The value as a wrapping integer of up to 64 bits, as a C cast to an integer type gives.
fn to_wrapping_int(value: Scalar) -> u64 {
    match value {
        Scalar::Bool(b) => b as u64,
        Scalar::Int(i) => i as u64,
        Scalar::UInt(u) => u,
        Scalar::Float(f) => float_to_i64(f) as u64,
        Scalar::Complex(c) => float_to_i64(c.re) as u64,
    }
}

/// Integer bits for a 32-bit-or-narrower target that PyTorch's CPU kernels fill through a
/// 32-bit conversion (int8, int16, int32, uint16): a float out of `i32`'s range, or NaN,
/// becomes the x86 "integer indefinite" `i32::MIN` before the narrowing, as the hardware
/// instruction those kernels compile to gives (`1e10` as int32 is `-2147483648`, as int16
/// `0`). uint8 and the 64-bit types go through `i64` instead (`to_wrapping_int`).
fn to_wrapping_int_via_i32(value: Scalar) -> u64 {
    let through_i32 = |f: f64| {
        if f.is_nan() || !(-2_147_483_648.0..2_147_483_648.0).contains(&f) {
            i32::MIN as u64
        } else {
            f as i32 as u64
        }
    };
    match value {
        Scalar::Float(f) => through_i32(f),
        Scalar::Complex(c) => through_i32(c.re),
        other => to_wrapping_int(other),
    }
}

/// Integer bits for uint64, which PyTorch's kernels convert from a float as compilers do
/// for x86: below 2^63 through `i64` (so `-1.0` wraps to `2^64 - 1`, and NaN or `-inf` give
/// the "integer indefinite" `2^63`); from 2^63 up, `2^63` is taken off, the rest converted
/// through `i64`, and the top bit set again (so `1e19` is exact, and `2^64`, `inf` or `5e19`
/// overflow to 0).
fn to_uint64(value: Scalar) -> u64 {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    let convert = |f: f64| {
        if f >= TWO_63 {
            (float_to_i64(f - TWO_63) as u64) ^ (1 << 63)
        } else {
            float_to_i64(f) as u64
        }
    };
    match value {
        Scalar::Float(f) => convert(f),
        Scalar::Complex(c) => convert(c.re),
        other => to_wrapping_int(other),
    }
}

/// The value as `f32`, rounding integers directly (not through `f64`) as a C cast does.
fn to_f32(value: Scalar) -> f32 {
    match value {
        Scalar::Int(i) => i as f32,
        Scalar::UInt(u) => u as f32,
        other => other.to_f64() as f32,
    }
}

/// Writes `value` as one element of `dtype` into the first `dtype.itemsize()` bytes of `out`,
/// converting as PyTorch's casts do: truncation for float to int, wrapping for narrower ints,
/// non-zero for bool, the real part for complex to real. Always inlined, as [`read`] is.
#[inline(always)]
pub fn write(dtype: DType, out: &mut [u8], value: Scalar) {
    match dtype {
        DType::Bool => out[0] = value.to_bool() as u8,
        DType::UInt8 => out[0] = to_wrapping_int(value) as u8,
        DType::Int8 => out[0] = to_wrapping_int_via_i32(value) as u8,
        DType::Int16 | DType::UInt16 => {
            out[..2].copy_from_slice(&(to_wrapping_int_via_i32(value) as u16).to_le_bytes())
        }
        DType::Int32 => {
            out[..4].copy_from_slice(&(to_wrapping_int_via_i32(value) as u32).to_le_bytes())
        }
        DType::UInt32 => out[..4].copy_from_slice(&(to_wrapping_int(value) as u32).to_le_bytes()),
        DType::Int64 => out[..8].copy_from_slice(&to_wrapping_int(value).to_le_bytes()),
        DType::UInt64 => out[..8].copy_from_slice(&to_uint64(value).to_le_bytes()),
        DType::Float16 => out[..2].copy_from_slice(&f16::from_f32(to_f32(value)).to_le_bytes()),
        DType::BFloat16 => out[..2].copy_from_slice(&bf16::from_f32(to_f32(value)).to_le_bytes()),
        DType::Float32 => out[..4].copy_from_slice(&to_f32(value).to_le_bytes()),
        DType::Float64 => out[..8].copy_from_slice(&value.to_f64().to_le_bytes()),
        DType::Complex32 => {
            let c = value.to_complex();
            out[..2].copy_from_slice(&f16::from_f64(c.re).to_le_bytes());
            out[2..4].copy_from_slice(&f16::from_f64(c.im).to_le_bytes());
        }
        DType::Complex64 => {
            let c = value.to_complex();
            out[..4].copy_from_slice(&(c.re as f32).to_le_bytes());
            out[4..8].copy_from_slice(&(c.im as f32).to_le_bytes());
        }
        DType::Complex128 => {
            let c = value.to_complex();
            out[..8].copy_from_slice(&c.re.to_le_bytes());
            out[8..16].copy_from_slice(&c.im.to_le_bytes());
        }
        DType::Float8E4M3FN => out[0] = float8::E4M3FN.encode(value.to_f64()),
        DType::Float8E4M3FNUZ => out[0] = float8::E4M3FNUZ.encode(value.to_f64()),
        DType::Float8E5M2 => out[0] = float8::E5M2.encode(value.to_f64()),
        DType::Float8E5M2FNUZ => out[0] = float8::E5M2FNUZ.encode(value.to_f64()),
    }
}

/// A writer of integers into elements of `dtype`, converting as [`write`] converts a
/// `Scalar::Int` (wrapping for integers, rounding for floats, 0 imaginary part), chosen once
/// for a loop over many elements.
pub fn int_writer(dtype: DType) -> fn(i64, &mut [u8]) {
    match dtype {
        DType::Bool => |v, o| o[0] = u8::from(v != 0),
        DType::UInt8 | DType::Int8 => |v, o| o[0] = v as u8,
        DType::Int16 | DType::UInt16 => |v, o| o[..2].copy_from_slice(&(v as u16).to_le_bytes()),
        DType::Int32 | DType::UInt32 => |v, o| o[..4].copy_from_slice(&(v as u32).to_le_bytes()),
        DType::Int64 | DType::UInt64 => |v, o| o[..8].copy_from_slice(&v.to_le_bytes()),
        DType::Float16 => |v, o| o[..2].copy_from_slice(&f16::from_f32(v as f32).to_le_bytes()),
        DType::BFloat16 => |v, o| o[..2].copy_from_slice(&bf16::from_f32(v as f32).to_le_bytes()),
        DType::Float32 => |v, o| o[..4].copy_from_slice(&(v as f32).to_le_bytes()),
        DType::Float64 => |v, o| o[..8].copy_from_slice(&(v as f64).to_le_bytes()),
        DType::Complex32 => |v, o| write(DType::Complex32, o, Scalar::Int(v)),
        DType::Complex64 => |v, o| write(DType::Complex64, o, Scalar::Int(v)),
        DType::Complex128 => |v, o| write(DType::Complex128, o, Scalar::Int(v)),
        DType::Float8E4M3FN => |v, o| o[0] = float8::E4M3FN.encode(v as f64),
        DType::Float8E4M3FNUZ => |v, o| o[0] = float8::E4M3FNUZ.encode(v as f64),
        DType::Float8E5M2 => |v, o| o[0] = float8::E5M2.encode(v as f64),
        DType::Float8E5M2FNUZ => |v, o| o[0] = float8::E5M2FNUZ.encode(v as f64),
    }
}

/// `$body` with the const `$D` standing for `$dtype`: a `match` over every dtype, so code
/// written for one dtype is compiled (and its own `match dtype` folded) once per dtype.
macro_rules! for_dtype {
    ($dtype:expr, $D:ident => $body:expr) => {
        $crate::core::element::for_dtype!(@each $dtype, $D, $body; Bool, UInt8, Int8, Int16, Int32, Int64, UInt16,
            UInt32, UInt64, Float16, BFloat16, Float32, Float64, Complex32, Complex64,
            Complex128, Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ)
    };
    (@each $dtype:expr, $D:ident, $body:expr; $($variant:ident),*) => {
        match $dtype {
            $(DType::$variant => {
                const $D: DType = DType::$variant;
                $body
            })*
        }
    };
}
pub(crate) use for_dtype;

/// A reader of one element of `dtype` as `f64` (as [`read`] then `to_f64`: complex gives
/// its real part), chosen once for a loop; each is compiled for its dtype, with no `Scalar`
/// left in it.
pub fn f64_reader(dtype: DType) -> fn(&[u8]) -> f64 {
    for_dtype!(dtype, D => |b| read(D, b).to_f64())
}

/// A reader of one element of `dtype` as `i64` (as [`read`] then `to_i64`).
pub fn i64_reader(dtype: DType) -> fn(&[u8]) -> i64 {
    for_dtype!(dtype, D => |b| read(D, b).to_i64())
}

/// A reader of one element of `dtype` as a complex number (real dtypes: imaginary part 0).
pub fn complex_reader(dtype: DType) -> fn(&[u8]) -> Complex64 {
    for_dtype!(dtype, D => |b| read(D, b).to_complex())
}

/// A writer of an `f64` into one element of `dtype`, converting as [`write`] does.
pub fn f64_writer(dtype: DType) -> fn(&mut [u8], f64) {
    for_dtype!(dtype, D => |b, v| write(D, b, Scalar::Float(v)))
}

/// A writer of a complex number into one element of `dtype`, converting as [`write`] does.
pub fn complex_writer(dtype: DType) -> fn(&mut [u8], Complex64) {
    for_dtype!(dtype, D => |b, v| write(D, b, Scalar::Complex(v)))
}

/// Converts `n` elements of one dtype into another: element `i` is read at element index
/// `s0 + i * ss` of `src` and written at `d0 + i * ds` of `dst`.
pub type ConvertRun =
    fn(src: &[u8], s0: usize, ss: usize, dst: &mut [u8], d0: usize, ds: usize, n: usize);

/// The run converter from `from` to `to`, converting each element exactly as [`write`] of
/// [`read`] does, chosen once for a copy: each of the 400 pairs is compiled on its own, so
/// the `Scalar` between the read and the write folds away and no dtype is matched per
/// element. Runs contiguous on both sides are plain slice loops.
pub fn converter(from: DType, to: DType) -> ConvertRun {
    for_dtype!(from, S => for_dtype!(to, D => |src, s0, ss, dst, d0, ds, n| {
        let (sw, dw) = (S.itemsize(), D.itemsize());
        if ss == 1 && ds == 1 {
            let src = &src[s0 * sw..(s0 + n) * sw];
            let dst = &mut dst[d0 * dw..(d0 + n) * dw];
            for (x, y) in src.chunks_exact(sw).zip(dst.chunks_exact_mut(dw)) {
                write(D, y, read(S, x));
            }
        } else {
            for i in 0..n {
                let (s, d) = ((s0 + i * ss) * sw, (d0 + i * ds) * dw);
                write(D, &mut dst[d..d + dw], read(S, &src[s..s + sw]));
            }
        }
    }))
}

/// Casts a value to `dtype` exactly as storing it in a tensor of that dtype would.
pub fn cast(dtype: DType, v: Scalar) -> Scalar {
    let (bytes, _) = encode(dtype, v);
    read(dtype, &bytes)
}

/// Encodes `value` as one element of `dtype` into a small stack buffer (a fill pattern).
pub fn encode(dtype: DType, value: Scalar) -> ([u8; 16], usize) {
    let mut buf = [0u8; 16];
    write(dtype, &mut buf, value);
    (buf, dtype.itemsize())
}

/// Rounds a double to the precision of the floating `dtype` (the value PyTorch stores;
/// `float32` for any other dtype).
pub fn round_to(dtype: DType, x: f64) -> f64 {
    match dtype {
        DType::Float64 => x,
        DType::Float16 => half::f16::from_f64(x).to_f64(),
        DType::BFloat16 => half::bf16::from_f64(x).to_f64(),
        _ => x as f32 as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_to_f32_agrees_with_half_on_every_value() {
        for h in 0..=u16::MAX {
            let ours = f16_to_f32(h);
            let theirs = f16::from_bits(h).to_f32();
            if theirs.is_nan() {
                assert!(ours.is_nan(), "{h:#06x}");
                assert_eq!(
                    ours.is_sign_negative(),
                    theirs.is_sign_negative(),
                    "{h:#06x}"
                );
                // The payload is kept and the quiet bit set.
                assert_eq!(ours.to_bits() & 0x003f_e000, u32::from(h & 0x1ff) << 13);
                assert_ne!(ours.to_bits() & 0x0040_0000, 0);
            } else {
                assert_eq!(ours.to_bits(), theirs.to_bits(), "{h:#06x}");
            }
        }
    }
    use crate::core::dtype::ALL_DTYPES;

    #[test]
    fn casts_like_c() {
        let (b, _) = encode(DType::UInt8, Scalar::Float(300.0));
        assert_eq!(b[0], 44);
        let (b, _) = encode(DType::UInt8, Scalar::Float(-2.0));
        assert_eq!(b[0], 254);
        // Out of int32's range: the x86 "integer indefinite" value, then narrowed.
        let (b, _) = encode(DType::Int32, Scalar::Float(1e10));
        assert_eq!(i32::from_le_bytes([b[0], b[1], b[2], b[3]]), i32::MIN);
        let (b, _) = encode(DType::Int16, Scalar::Float(f64::NAN));
        assert_eq!(i16::from_le_bytes([b[0], b[1]]), 0);
        let (b, _) = encode(DType::Int8, Scalar::Float(70000.7));
        assert_eq!(b[0] as i8, 112);
        let (b, n) = encode(DType::Float32, Scalar::Int(1));
        assert_eq!(&b[..n], &[0, 0, 128, 63]);
    }

    #[test]
    fn readers_and_writers_are_read_and_write() {
        for d in ALL_DTYPES {
            let (bytes, n) = encode(d, Scalar::Float(-2.5));
            let v = read(d, &bytes);
            assert_eq!(f64_reader(d)(&bytes).to_bits(), v.to_f64().to_bits(), "{d}");
            assert_eq!(i64_reader(d)(&bytes), v.to_i64(), "{d}");
            assert_eq!(complex_reader(d)(&bytes), v.to_complex(), "{d}");
            let mut out = [0u8; 16];
            f64_writer(d)(&mut out, -2.5);
            assert_eq!(&out[..n], &bytes[..n], "{d}");
            let mut out = [0u8; 16];
            complex_writer(d)(&mut out, Complex64::new(-2.5, 0.0));
            assert_eq!(&out[..n], &bytes[..n], "{d}");
        }
    }

    #[test]
    fn int_writers_convert_as_write_does() {
        for d in ALL_DTYPES {
            for v in [0i64, 1, -1, 300, -129, 65_537, 1 << 40, i64::MIN] {
                let (want, n) = encode(d, Scalar::Int(v));
                let mut got = [0u8; 16];
                int_writer(d)(v, &mut got);
                assert_eq!(&got[..n], &want[..n], "{d} {v}");
            }
        }
    }

    #[test]
    fn small_integers_round_trip_in_every_dtype() {
        for d in ALL_DTYPES {
            let (b, _) = encode(d, Scalar::Int(1));
            assert_eq!(read(d, &b).to_f64(), 1.0, "{d}");
        }
    }
}
