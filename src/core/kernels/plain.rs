//! `Plain`: element types that are plain little-endian bytes with no invalid bit pattern, so
//! a storage's bytes can be read as a slice of them in place when aligned.

use std::borrow::Cow;

use num_complex::Complex;

/// A type every bit pattern of whose `size_of` bytes is a valid value, with no padding
/// (floats, integers and `repr(C)` pairs of floats); sealed to the types below.
pub trait Plain: Copy + Default + sealed::Sealed + 'static {
    /// Reads one value from the first `size_of::<Self>()` bytes (little-endian).
    fn read(bytes: &[u8]) -> Self;
    /// Writes one value into the first `size_of::<Self>()` bytes.
    fn write(self, bytes: &mut [u8]);
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! plain {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Plain for $t {
            fn read(bytes: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(&bytes[..std::mem::size_of::<$t>()]);
                <$t>::from_le_bytes(a)
            }
            fn write(self, bytes: &mut [u8]) {
                bytes[..std::mem::size_of::<$t>()].copy_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
plain!(f32, f64, i64);

macro_rules! plain_complex {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for Complex<$t> {}
        impl Plain for Complex<$t> {
            fn read(bytes: &[u8]) -> Self {
                let half = std::mem::size_of::<$t>();
                Complex::new(<$t>::read(bytes), <$t>::read(&bytes[half..]))
            }
            fn write(self, bytes: &mut [u8]) {
                let half = std::mem::size_of::<$t>();
                self.re.write(bytes);
                self.im.write(&mut bytes[half..]);
            }
        }
    )*};
}
plain_complex!(f32, f64);

/// `bytes` as values of `T`: in place when the bytes are aligned for `T`, else a copy.
/// Trailing bytes that do not make a whole value are left out.
pub fn elems<T: Plain>(bytes: &[u8]) -> Cow<'_, [T]> {
    // SAFETY: `T` is `Plain` (sealed): every bit pattern is a valid `T` and it has no
    // padding, so aligned bytes may be read as `T`s; `align_to` returns only the aligned
    // middle part.
    let (head, middle, _) = unsafe { bytes.align_to::<T>() };
    if head.is_empty() {
        return Cow::Borrowed(middle);
    }
    let size = std::mem::size_of::<T>();
    Cow::Owned(bytes.chunks_exact(size).map(T::read).collect())
}

/// Runs `f` on `bytes` as values of `T`, in place when aligned, else on a copy written back.
pub fn with_elems_mut<T: Plain, R>(bytes: &mut [u8], f: impl FnOnce(&mut [T]) -> R) -> R {
    // SAFETY: as in `elems`; writing any `T` leaves valid bytes.
    let (head, middle, _) = unsafe { bytes.align_to_mut::<T>() };
    if head.is_empty() {
        return f(middle);
    }
    let size = std::mem::size_of::<T>();
    let mut copy: Vec<T> = bytes.chunks_exact(size).map(T::read).collect();
    let r = f(&mut copy);
    for (v, out) in copy.into_iter().zip(bytes.chunks_exact_mut(size)) {
        v.write(out);
    }
    r
}

/// The bytes of a slice of `T`s (their in-memory, little-endian encoding).
pub fn bytes_of<T: Plain>(v: &[T]) -> &[u8] {
    // SAFETY: `T` is `Plain`: no padding, so every byte of the slice is initialised, and
    // `u8` has alignment 1; the length is the slice's size in bytes.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
}

/// The bytes of a slice of `T`s, writable: any bytes written leave valid `T`s.
pub fn bytes_of_mut<T: Plain>(v: &mut [T]) -> &mut [u8] {
    // SAFETY: as in `bytes_of`; and every bit pattern is a valid `T` (`Plain`), so writing
    // arbitrary bytes cannot make an invalid value. The borrow is exclusive for its length.
    unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_of_a_slice_are_its_little_endian_encoding() {
        let mut v = [1.5f64, -2.0];
        assert_eq!(bytes_of(&v)[..8], 1.5f64.to_le_bytes());
        bytes_of_mut(&mut v)[8..].copy_from_slice(&7i64.to_le_bytes());
        assert_eq!(v[1].to_bits(), 7);
        let z = [Complex::new(1.0f32, 2.0)];
        assert_eq!(bytes_of(&z).len(), 8);
    }

    #[test]
    fn values_read_the_same_at_any_alignment() {
        let values = [1.5f64, -2.0, 3.25];
        let mut copied = 0;
        for start in [0, 1, 4] {
            let mut bytes = vec![0u8; start + 3 * 8];
            for (i, v) in values.iter().enumerate() {
                v.write(&mut bytes[start + i * 8..]);
            }
            let read = elems::<f64>(&bytes[start..]);
            assert_eq!(read.as_ref(), &values);
            copied += usize::from(matches!(read, Cow::Owned(_)));
        }
        assert!(copied >= 1, "an odd start is never aligned for f64");
    }

    #[test]
    fn writes_reach_the_bytes_either_way() {
        let mut bytes = [0u8; 17];
        for start in [0, 1] {
            with_elems_mut::<Complex<f32>, _>(&mut bytes[start..start + 16], |v| {
                v[1] = Complex::new(2.0, -1.0);
            });
            assert_eq!(
                Complex::<f32>::read(&bytes[start + 8..]),
                Complex::new(2.0, -1.0)
            );
        }
    }
}
