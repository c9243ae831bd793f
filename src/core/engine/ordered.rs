//! `Ordered`: an element type with PyTorch's order, read from storage bytes, and the
//! once-per-call dispatch from a dtype to it (`with_ordered!`).

use half::{bf16, f16};

/// A real element type: loaded from and stored to little-endian bytes, compared with `<`,
/// with NaN (for floats) reported apart because PyTorch's rules single it out.
pub trait Ordered: Copy + PartialOrd + Send + Sync + 'static {
    /// Bytes per element.
    const SIZE: usize;
    /// Reads one element from the first `SIZE` bytes.
    fn load(bytes: &[u8]) -> Self;
    /// Writes one element into the first `SIZE` bytes.
    fn store(self, bytes: &mut [u8]);
    /// Whether this is a NaN (never, for integers).
    fn is_nan(self) -> bool;
}

/// `Ordered` for each type, `$nan` telling whether a value `$x` is a NaN.
macro_rules! ordered {
    (|$x:ident| $nan:expr; $($t:ty),*) => {$(
        impl Ordered for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            #[inline(always)]
            fn load(bytes: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(&bytes[..Self::SIZE]);
                <$t>::from_le_bytes(a)
            }
            #[inline(always)]
            fn store(self, bytes: &mut [u8]) {
                bytes[..Self::SIZE].copy_from_slice(&self.to_le_bytes());
            }
            #[inline(always)]
            #[allow(clippy::eq_op)]
            fn is_nan(self) -> bool {
                let $x = self;
                $nan
            }
        }
    )*};
}
ordered!(|_x| false; u8, i8, i16, i32, i64, u16, u32, u64);
ordered!(|x| x != x; f32, f64, f16, bf16);

/// `Some($body)` with `$T` standing for the element type of `$dtype` (bool as `u8`), for
/// the real dtypes but float8; `None` for the others (complex, float8).
#[macro_export]
macro_rules! with_ordered {
    ($dtype:expr, $T:ident => $body:expr) => {
        $crate::with_ordered!(@each $dtype, $T, $body;
            Bool u8, UInt8 u8, Int8 i8, Int16 i16, Int32 i32, Int64 i64, UInt16 u16,
            UInt32 u32, UInt64 u64, Float16 half::f16, BFloat16 half::bf16, Float32 f32,
            Float64 f64)
    };
    (@each $dtype:expr, $T:ident, $body:expr; $($variant:ident $ty:ty),*) => {
        match $dtype {
            $($crate::core::dtype::DType::$variant => Some({
                type $T = $ty;
                $body
            }),)*
            _ => None,
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_is_reported_and_bytes_round_trip() {
        assert!(f16::NAN.is_nan() && Ordered::is_nan(f32::NAN) && !Ordered::is_nan(1.0f64));
        assert!(!Ordered::is_nan(bf16::from_f32(2.0)));
        let mut b = [0u8; 8];
        (-3i16).store(&mut b[1..]);
        assert_eq!(i16::load(&b[1..]), -3);
    }
}
