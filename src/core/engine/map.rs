//! The elementwise mode of the engine: a function of one element applied in place over the
//! dense bytes of a new result. The dtype is dispatched once per call; each dtype runs a
//! typed loop over blocks of elements (in place as `f32`/`f64`/complex slices when aligned),
//! the halves on both threads for large results, Ctrl-C checked between blocks.
//!
//! Values are computed as PyTorch's CPU kernels compute them: `float64` in `f64`, every
//! narrower float dtype in `f32` and rounded once to its dtype, complex in complex `f64`,
//! integers in `i64` (`u64` for `uint64`) and wrapped to their width.

use half::{bf16, f16};
use num_complex::{Complex, Complex64};

use crate::core::dtype::DType;
use crate::core::float8;
use crate::core::interrupt;
use crate::core::kernels::pair;
use crate::core::kernels::plain::{Plain, with_elems_mut};

/// A function of one element, given for each domain a dtype computes in.
pub trait ElementMap: Sync {
    /// At a `float64` element.
    fn f64(&self, x: f64) -> f64;
    /// At an element of a narrower float dtype, read as `f32`.
    fn f32(&self, x: f32) -> f32;
    /// At a complex element, read as complex `f64`.
    fn complex(&self, z: Complex64) -> Complex64;
    /// At a `complex64` element: by default `complex` at it, rounded once; a function
    /// PyTorch computes in single precision says so here.
    fn complex32(&self, z: Complex<f32>) -> Complex<f32> {
        let w = self.complex(Complex64::new(z.re.into(), z.im.into()));
        Complex::new(w.re as f32, w.im as f32)
    }
    /// At a signed integer or bool element (bool as 0 or 1; a bool result is `!= 0`).
    fn int(&self, i: i64) -> i64;
    /// At a `uint64` element.
    fn uint(&self, u: u64) -> u64;
}

/// Elements per block: Ctrl-C is checked between blocks.
const BLOCK: usize = 1 << 16;

/// Elements from which the two halves run on both threads.
const PARALLEL_MIN: usize = 1 << 17;

/// Applies `m` to every element of `bytes`, whole elements of `dtype` laid end to end.
pub fn map_in_place(dtype: DType, bytes: &mut [u8], m: &impl ElementMap) {
    let item = dtype.itemsize();
    let n = bytes.len() / item;
    if n >= PARALLEL_MIN {
        let (a, b) = bytes[..n * item].split_at_mut(n / 2 * item);
        pair::join(|| in_blocks(dtype, a, m), || in_blocks(dtype, b, m));
    } else {
        in_blocks(dtype, bytes, m);
    }
}

fn in_blocks(dtype: DType, bytes: &mut [u8], m: &impl ElementMap) {
    for block in bytes.chunks_mut(BLOCK * dtype.itemsize()) {
        interrupt::check();
        map_block(dtype, block, m);
    }
}

/// One block, the dtype decided once for all its elements.
fn map_block(dtype: DType, b: &mut [u8], m: &impl ElementMap) {
    match dtype {
        DType::Float64 => plain(b, |x: f64| m.f64(x)),
        DType::Float32 => plain(b, |x: f32| m.f32(x)),
        DType::Complex128 => plain(b, |z: Complex<f64>| m.complex(z)),
        DType::Complex64 => plain(b, |z: Complex<f32>| m.complex32(z)),
        DType::Int64 => plain(b, |i: i64| m.int(i)),
        DType::Float16 => each::<2>(b, |x| {
            f16::from_f32(m.f32(f16::from_le_bytes(x).to_f32())).to_le_bytes()
        }),
        DType::BFloat16 => each::<2>(b, |x| {
            bf16::from_f32(m.f32(bf16::from_le_bytes(x).to_f32())).to_le_bytes()
        }),
        DType::Complex32 => each::<4>(b, |x| {
            let part = |i: usize| f16::from_le_bytes([x[i], x[i + 1]]).to_f64();
            let w = m.complex(Complex64::new(part(0), part(2)));
            let (re, im) = (
                f16::from_f64(w.re).to_le_bytes(),
                f16::from_f64(w.im).to_le_bytes(),
            );
            [re[0], re[1], im[0], im[1]]
        }),
        DType::Float8E4M3FN => eight(b, m, float8::E4M3FN),
        DType::Float8E4M3FNUZ => eight(b, m, float8::E4M3FNUZ),
        DType::Float8E5M2 => eight(b, m, float8::E5M2),
        DType::Float8E5M2FNUZ => eight(b, m, float8::E5M2FNUZ),
        DType::Bool => each::<1>(b, |x| [u8::from(m.int(i64::from(x[0] != 0)) != 0)]),
        DType::UInt8 => each::<1>(b, |x| [m.int(x[0].into()) as u8]),
        DType::Int8 => each::<1>(b, |x| [m.int((x[0] as i8).into()) as u8]),
        DType::Int16 => each::<2>(b, |x| {
            (m.int(i16::from_le_bytes(x).into()) as i16).to_le_bytes()
        }),
        DType::UInt16 => each::<2>(b, |x| {
            (m.int(u16::from_le_bytes(x).into()) as u16).to_le_bytes()
        }),
        DType::Int32 => each::<4>(b, |x| {
            (m.int(i32::from_le_bytes(x).into()) as i32).to_le_bytes()
        }),
        DType::UInt32 => each::<4>(b, |x| {
            (m.int(u32::from_le_bytes(x).into()) as u32).to_le_bytes()
        }),
        DType::UInt64 => each::<8>(b, |x| m.uint(u64::from_le_bytes(x)).to_le_bytes()),
    }
}

/// A loop over `bytes` as a slice of `T`, in place when aligned.
fn plain<T: Plain>(bytes: &mut [u8], f: impl Fn(T) -> T) {
    with_elems_mut::<T, _>(bytes, |v| {
        for x in v {
            *x = f(*x);
        }
    });
}

/// A loop over `N`-byte elements.
fn each<const N: usize>(bytes: &mut [u8], f: impl Fn([u8; N]) -> [u8; N]) {
    for chunk in bytes.chunks_exact_mut(N) {
        let mut x = [0u8; N];
        x.copy_from_slice(chunk);
        chunk.copy_from_slice(&f(x));
    }
}

/// A loop over one-byte float8 elements of one format, computed in `f32`.
fn eight(bytes: &mut [u8], m: &impl ElementMap, format: float8::Float8Format) {
    for x in bytes.iter_mut() {
        *x = format.encode(f64::from(m.f32(format.decode(*x) as f32)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::dtype::ALL_DTYPES;
    use crate::core::element;
    use crate::core::scalar::Scalar;

    /// Doubles each value; `uint` and `int` wrap as the dtype's width does.
    struct Double;

    impl ElementMap for Double {
        fn f64(&self, x: f64) -> f64 {
            x * 2.0
        }
        fn f32(&self, x: f32) -> f32 {
            x * 2.0
        }
        fn complex(&self, z: Complex64) -> Complex64 {
            z * 2.0
        }
        fn int(&self, i: i64) -> i64 {
            i.wrapping_mul(2)
        }
        fn uint(&self, u: u64) -> u64 {
            u.wrapping_mul(2)
        }
    }

    #[test]
    fn every_dtype_maps_each_element_as_its_own_arithmetic_would() {
        let values = [0.0, 1.0, 3.0, 100.0, 200.0];
        for d in ALL_DTYPES {
            let item = d.itemsize();
            // An odd start: the loops read any alignment.
            let mut bytes = vec![0u8; 1 + values.len() * item];
            for (i, v) in values.iter().enumerate() {
                element::write(d, &mut bytes[1 + i * item..], Scalar::Float(*v));
            }
            map_in_place(d, &mut bytes[1..], &Double);
            for (i, v) in values.iter().enumerate() {
                let stored = element::read(d, &element::encode(d, Scalar::Float(*v)).0);
                let want = element::read(
                    d,
                    &element::encode(
                        d,
                        match (d, stored) {
                            (DType::Bool, s) => Scalar::Bool(s.to_bool()),
                            (_, Scalar::Int(i)) => Scalar::Int(i * 2),
                            (_, Scalar::Complex(z)) => Scalar::Complex(z * 2.0),
                            (_, s) => Scalar::Float(s.to_f64() * 2.0),
                        },
                    )
                    .0,
                );
                let got = element::read(d, &bytes[1 + i * item..]);
                assert_eq!(format!("{got:?}"), format!("{want:?}"), "{d} at {v}");
            }
        }
    }

    #[test]
    fn large_inputs_are_mapped_on_both_halves() {
        let n = PARALLEL_MIN + 3;
        let mut bytes: Vec<u8> = (0..n).flat_map(|i| (i as f32).to_le_bytes()).collect();
        map_in_place(DType::Float32, &mut bytes, &Double);
        for i in [0, n / 2 - 1, n / 2, n - 1] {
            let x = f32::from_le_bytes(bytes[i * 4..i * 4 + 4].try_into().unwrap());
            assert_eq!(x, 2.0 * i as f32);
        }
    }
}
