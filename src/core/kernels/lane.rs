//! `Lane`: an element type the typed kernels compute in, read from and written to
//! little-endian bytes at any alignment (storages are byte buffers).

/// A primitive element type.
pub trait Lane: Copy + Send + Sync + PartialEq + 'static {
    /// Bytes per element.
    const SIZE: usize;
    /// Reads one element from the first `SIZE` bytes.
    fn load(bytes: &[u8]) -> Self;
    /// Writes one element into the first `SIZE` bytes.
    fn store(self, bytes: &mut [u8]);
    /// The value as f64 (for checks and mixed results).
    fn to_f64(self) -> f64;
}

/// Arithmetic as PyTorch does it in each type: IEEE for floats, wrapping for integers,
/// true division only defined for floats (integers divide in float elsewhere).
pub trait Arith: Lane {
    /// `a + b`.
    fn add(self, b: Self) -> Self;
    /// `a - b`.
    fn sub(self, b: Self) -> Self;
    /// `a * b`.
    fn mul(self, b: Self) -> Self;
    /// `a / b`. Floats divide; integer true division computes in float elsewhere and never
    /// reaches a kernel, so integers give 0 for a zero divisor instead of panicking.
    fn quotient(self, b: Self) -> Self;
    /// A Python number converted as storing it in a tensor of this type does (wrapping for
    /// integers, rounding for floats).
    fn from_scalar(s: crate::core::scalar::Scalar) -> Self;
    /// The additive identity.
    const ZERO: Self;
}

macro_rules! lane {
    ($($t:ty),*) => {$(
        impl Lane for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            #[inline(always)]
            fn load(bytes: &[u8]) -> Self {
                // Callers pass chunks of exactly SIZE bytes; a short slice reads as zero
                // rather than panicking.
                bytes
                    .get(..Self::SIZE)
                    .and_then(|b| <[u8; std::mem::size_of::<$t>()]>::try_from(b).ok())
                    .map_or(0 as $t, <$t>::from_le_bytes)
            }
            #[inline(always)]
            fn store(self, bytes: &mut [u8]) {
                if let Some(b) = bytes.get_mut(..Self::SIZE) {
                    b.copy_from_slice(&self.to_le_bytes());
                }
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    )*};
}
lane!(f32, f64, i64, i32, i16, i8, u8, u64, u32, u16);

/// Complex lanes: `Complex64` (complex `f64`, the type tensh computes `complex128` and
/// `complex32` ops in, rounded once to the result's dtype) and `Complex32` (complex `f32`,
/// the type PyTorch computes `complex64` arithmetic in: each product, sum and quotient step
/// is rounded to `f32`, as its kernels round them).
macro_rules! complex_lane {
    ($($c:ty, $part:ty, $size:expr);*) => {$(
        impl Lane for $c {
            const SIZE: usize = $size;
            #[inline(always)]
            fn load(bytes: &[u8]) -> Self {
                let half = $size / 2;
                <$c>::new(<$part>::load(bytes), <$part>::load(bytes.get(half..).unwrap_or(&[])))
            }
            #[inline(always)]
            fn store(self, bytes: &mut [u8]) {
                if bytes.len() >= $size {
                    self.re.store(bytes);
                    self.im.store(&mut bytes[$size / 2..]);
                }
            }
            /// The real part.
            fn to_f64(self) -> f64 {
                f64::from(self.re)
            }
        }

        impl Arith for $c {
            #[inline(always)]
            fn add(self, b: Self) -> Self {
                self + b
            }
            #[inline(always)]
            fn sub(self, b: Self) -> Self {
                self - b
            }
            #[inline(always)]
            fn mul(self, b: Self) -> Self {
                self * b
            }
            #[inline(always)]
            fn quotient(self, b: Self) -> Self {
                crate::core::complex_division::quotient(self, b)
            }
            fn from_scalar(s: crate::core::scalar::Scalar) -> Self {
                let c = s.to_complex();
                <$c>::new(c.re as $part, c.im as $part)
            }
            const ZERO: Self = <$c>::new(0.0, 0.0);
        }
    )*};
}
complex_lane!(num_complex::Complex64, f64, 16; num_complex::Complex32, f32, 8);

macro_rules! float_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline(always)]
            fn add(self, b: Self) -> Self { self + b }
            #[inline(always)]
            fn sub(self, b: Self) -> Self { self - b }
            #[inline(always)]
            fn mul(self, b: Self) -> Self { self * b }
            #[inline(always)]
            fn quotient(self, b: Self) -> Self { self / b }
            fn from_scalar(s: crate::core::scalar::Scalar) -> Self { s.to_f64() as $t }
            const ZERO: Self = 0.0;
        }
    )*};
}
float_arith!(f32, f64);

macro_rules! int_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline(always)]
            fn add(self, b: Self) -> Self { self.wrapping_add(b) }
            #[inline(always)]
            fn sub(self, b: Self) -> Self { self.wrapping_sub(b) }
            #[inline(always)]
            fn mul(self, b: Self) -> Self { self.wrapping_mul(b) }
            #[inline(always)]
            fn quotient(self, b: Self) -> Self { self.checked_div(b).unwrap_or(0) }
            fn from_scalar(s: crate::core::scalar::Scalar) -> Self { s.to_i64() as $t }
            const ZERO: Self = 0;
        }
    )*};
}
int_arith!(i64, i32, i16, i8, u8, u64, u32, u16);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_at_any_alignment() {
        let mut buf = [0u8; 9];
        1.5f64.store(&mut buf[1..]);
        assert_eq!(f64::load(&buf[1..]), 1.5);
        (-7i32).store(&mut buf[3..]);
        assert_eq!(i32::load(&buf[3..]), -7);
        assert_eq!(i64::load(&buf[5..]), 0, "short slices read as zero");
    }

    #[test]
    fn integers_wrap() {
        assert_eq!(127i8.add(1), -128);
        assert_eq!(0u8.sub(1), 255);
    }
}
