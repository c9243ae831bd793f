//! Running sums along one dim (`cumsum`), from one contiguous buffer laid out as
//! `[outer, n, inner]` into another: each element becomes the sum of those before it along the dim,
//! accumulated as PyTorch's CPU kernel does (floats in `f64`, rounded to the element type
//! as each sum is written; integers wrapping in `i64`; complex in `complex128`).

use half::{bf16, f16};
use num_complex::{Complex, Complex64};

use crate::core::interrupt;
use crate::core::kernels::{PARALLEL_MIN, pair};

/// An element type with the accumulator its running sums use.
pub trait ScanElem: Copy + Send + Sync + 'static {
    /// Bytes per element.
    const SIZE: usize;
    /// The accumulator.
    type Acc: Copy + Send + Sync;
    /// The empty sum.
    fn zero() -> Self::Acc;
    /// Reads one element from the first `SIZE` bytes and adds it to `acc`.
    fn add(acc: Self::Acc, bytes: &[u8]) -> Self::Acc;
    /// The empty product.
    fn one() -> Self::Acc;
    /// Reads one element from the first `SIZE` bytes and multiplies `acc` by it.
    fn mul(acc: Self::Acc, bytes: &[u8]) -> Self::Acc;
    /// Writes `acc`, rounded to this type, into the first `SIZE` bytes.
    fn store(acc: Self::Acc, bytes: &mut [u8]);
}

fn le<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut a = [0u8; N];
    a.copy_from_slice(&bytes[..N]);
    a
}

macro_rules! float_scan {
    ($($t:ty => $from:expr, $to:expr),*) => {$(
        impl ScanElem for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            type Acc = f64;
            fn zero() -> f64 { 0.0 }
            #[inline(always)]
            fn add(acc: f64, bytes: &[u8]) -> f64 { acc + $from(<$t>::from_le_bytes(le(bytes))) }
            fn one() -> f64 { 1.0 }
            #[inline(always)]
            fn mul(acc: f64, bytes: &[u8]) -> f64 { acc * $from(<$t>::from_le_bytes(le(bytes))) }
            #[inline(always)]
            fn store(acc: f64, bytes: &mut [u8]) {
                let v: $t = $to(acc);
                bytes[..Self::SIZE].copy_from_slice(&v.to_le_bytes());
            }
        }
    )*};
}
float_scan!(
    f32 => |x: f32| x as f64, |a: f64| a as f32,
    f64 => |x: f64| x, |a: f64| a,
    f16 => |x: f16| x.to_f64(), f16::from_f64,
    bf16 => |x: bf16| x.to_f64(), bf16::from_f64
);

macro_rules! int_scan {
    ($($t:ty),*) => {$(
        impl ScanElem for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            type Acc = i64;
            fn zero() -> i64 { 0 }
            #[inline(always)]
            fn add(acc: i64, bytes: &[u8]) -> i64 { acc.wrapping_add(<$t>::from_le_bytes(le(bytes)) as i64) }
            fn one() -> i64 { 1 }
            #[inline(always)]
            fn mul(acc: i64, bytes: &[u8]) -> i64 { acc.wrapping_mul(<$t>::from_le_bytes(le(bytes)) as i64) }
            #[inline(always)]
            fn store(acc: i64, bytes: &mut [u8]) {
                bytes[..Self::SIZE].copy_from_slice(&(acc as $t).to_le_bytes());
            }
        }
    )*};
}
int_scan!(u8, i8, i16, i32, i64);

macro_rules! complex_scan {
    ($($t:ty),*) => {$(
        impl ScanElem for Complex<$t> {
            const SIZE: usize = 2 * std::mem::size_of::<$t>();
            type Acc = Complex64;
            fn zero() -> Complex64 { Complex64::new(0.0, 0.0) }
            #[inline(always)]
            fn add(acc: Complex64, bytes: &[u8]) -> Complex64 {
                let h = Self::SIZE / 2;
                let re = <$t>::from_le_bytes(le(bytes)) as f64;
                let im = <$t>::from_le_bytes(le(&bytes[h..])) as f64;
                acc + Complex64::new(re, im)
            }
            fn one() -> Complex64 { Complex64::new(1.0, 0.0) }
            #[inline(always)]
            fn mul(acc: Complex64, bytes: &[u8]) -> Complex64 {
                let h = Self::SIZE / 2;
                let re = <$t>::from_le_bytes(le(bytes)) as f64;
                let im = <$t>::from_le_bytes(le(&bytes[h..])) as f64;
                acc * Complex64::new(re, im)
            }
            #[inline(always)]
            fn store(acc: Complex64, bytes: &mut [u8]) {
                let h = Self::SIZE / 2;
                bytes[..h].copy_from_slice(&(acc.re as $t).to_le_bytes());
                bytes[h..2 * h].copy_from_slice(&(acc.im as $t).to_le_bytes());
            }
        }
    )*};
}
complex_scan!(f32, f64);

/// The empty sum or product.
#[inline(always)]
fn start<T: ScanElem, const PRODUCT: bool>() -> T::Acc {
    if PRODUCT { T::one() } else { T::zero() }
}

/// One step of a running sum or product.
#[inline(always)]
fn step<T: ScanElem, const PRODUCT: bool>(acc: T::Acc, bytes: &[u8]) -> T::Acc {
    if PRODUCT {
        T::mul(acc, bytes)
    } else {
        T::add(acc, bytes)
    }
}

/// The running sums (products when `PRODUCT`) of `outer` blocks of `n × inner` elements of
/// `src`, into `dst`.
fn blocks<T: ScanElem, const PRODUCT: bool>(src: &[u8], dst: &mut [u8], n: usize, inner: usize) {
    let block = (n * inner * T::SIZE).max(1);
    let row = (inner * T::SIZE).max(1);
    let mut acc = vec![start::<T, PRODUCT>(); inner];
    for (o, (s, d)) in src
        .chunks_exact(block)
        .zip(dst.chunks_exact_mut(block))
        .enumerate()
    {
        if o & 0xff == 0 || block >= 1 << 16 {
            interrupt::check();
        }
        if inner == 1 {
            // One lane: a plain running sum.
            let mut a = start::<T, PRODUCT>();
            for (x, y) in s.chunks_exact(T::SIZE).zip(d.chunks_exact_mut(T::SIZE)) {
                a = step::<T, PRODUCT>(a, x);
                T::store(a, y);
            }
            continue;
        }
        acc.fill(start::<T, PRODUCT>());
        for (sr, dr) in s.chunks_exact(row).zip(d.chunks_exact_mut(row)) {
            let pairs = sr.chunks_exact(T::SIZE).zip(dr.chunks_exact_mut(T::SIZE));
            for (a, (x, y)) in acc.iter_mut().zip(pairs) {
                *a = step::<T, PRODUCT>(*a, x);
                T::store(*a, y);
            }
        }
    }
}

/// Writes into `dst` the running sums along the middle dim of `src` (both contiguous
/// `[outer, n, inner]` of `T`s); many blocks are split between the threads.
pub fn cumsum_into<T: ScanElem>(src: &[u8], dst: &mut [u8], outer: usize, n: usize, inner: usize) {
    scan_into::<T, false>(src, dst, outer, n, inner);
}

/// Writes into `dst` the running products along the middle dim of `src`.
pub fn cumprod_into<T: ScanElem>(src: &[u8], dst: &mut [u8], outer: usize, n: usize, inner: usize) {
    scan_into::<T, true>(src, dst, outer, n, inner);
}

/// `cumsum_into` or `cumprod_into`.
fn scan_into<T: ScanElem, const PRODUCT: bool>(
    src: &[u8],
    dst: &mut [u8],
    outer: usize,
    n: usize,
    inner: usize,
) {
    if outer >= 2 && outer * n * inner >= PARALLEL_MIN {
        let at = outer / 2 * n * inner * T::SIZE;
        let ((s1, s2), (d1, d2)) = (src.split_at(at), dst.split_at_mut(at));
        pair::join(
            || blocks::<T, PRODUCT>(s1, d1, n, inner),
            || blocks::<T, PRODUCT>(s2, d2, n, inner),
        );
    } else {
        blocks::<T, PRODUCT>(src, dst, n, inner);
    }
}

/// The kernel writing running sums from one `[outer, n, inner]` buffer into another.
pub type CumsumKernel = fn(&[u8], &mut [u8], usize, usize, usize);

/// The running-sum kernel for `dtype`: PyTorch's CPU kernel covers the integer types up to
/// `int64` (not bool, not the wide unsigned ones), the float types but float8, and
/// `complex64`/`complex128`; `None` for the others.
pub fn cumsum_kernel(dtype: crate::core::dtype::DType) -> Option<CumsumKernel> {
    scan_kernel(dtype, false)
}

/// The running-product kernel for `dtype` (the same dtypes as `cumsum`'s).
pub fn cumprod_kernel(dtype: crate::core::dtype::DType) -> Option<CumsumKernel> {
    scan_kernel(dtype, true)
}

fn scan_kernel(dtype: crate::core::dtype::DType, product: bool) -> Option<CumsumKernel> {
    if product {
        return scan_kernel_of::<true>(dtype);
    }
    scan_kernel_of::<false>(dtype)
}

fn scan_kernel_of<const PRODUCT: bool>(dtype: crate::core::dtype::DType) -> Option<CumsumKernel> {
    use crate::core::dtype::DType as D;
    Some(match dtype {
        D::UInt8 => scan_into::<u8, PRODUCT>,
        D::Int8 => scan_into::<i8, PRODUCT>,
        D::Int16 => scan_into::<i16, PRODUCT>,
        D::Int32 => scan_into::<i32, PRODUCT>,
        D::Int64 => scan_into::<i64, PRODUCT>,
        D::Float16 => scan_into::<f16, PRODUCT>,
        D::BFloat16 => scan_into::<bf16, PRODUCT>,
        D::Float32 => scan_into::<f32, PRODUCT>,
        D::Float64 => scan_into::<f64, PRODUCT>,
        D::Complex64 => scan_into::<Complex<f32>, PRODUCT>,
        D::Complex128 => scan_into::<Complex<f64>, PRODUCT>,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float32_sums_round_as_written() {
        let src: Vec<u8> = [1e8f32, 4.0, 4.0, 4.0]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let mut bytes = vec![0u8; 16];
        cumsum_into::<f32>(&src, &mut bytes, 1, 4, 1);
        let got: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(le(b)))
            .collect();
        assert_eq!(got, [1e8, 1e8, 100000008.0, 100000016.0]);
    }

    #[test]
    fn columns_sum_down_and_integers_wrap() {
        let src: Vec<u8> = [100i8, 1, 100, 2]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let mut bytes = vec![0u8; 4];
        cumsum_into::<i8>(&src, &mut bytes, 1, 2, 2);
        assert_eq!(
            bytes.iter().map(|&b| b as i8).collect::<Vec<_>>(),
            [100, 1, -56, 3]
        );
    }
}
