//! Matrix products `c = a · b` of strided matrices: `float32`, `float64`, `complex64` and
//! `complex128` through the `matrixmultiply` crate (packed and vectorised; large products
//! split their rows between the two threads, small batched ones share out whole matrices),
//! integers through a typed loop that wraps as PyTorch's integer products do.
//!
//! A product is cut into blocks of rows of `c` so that Ctrl-C is noticed between blocks
//! (`interrupt::check`): one block is at most `BLOCK_FLOPS` multiply-adds.

use num_complex::Complex;

use super::pair;
use crate::core::interrupt;

/// Multiply-adds per block of rows: about 50 ms on one core of the reference machine, so a
/// 4096² product stops within a fraction of a second of Ctrl-C, and a 1024² one is a single
/// call.
#[cfg(target_pointer_width = "64")]
const BLOCK_FLOPS: usize = 1 << 32;
/// On 32 bits (the browser page) no product is that large: one block.
#[cfg(not(target_pointer_width = "64"))]
const BLOCK_FLOPS: usize = usize::MAX;

/// Multiply-adds from which a product's rows are split between the two threads.
const PARALLEL_FLOPS: usize = 1 << 21;

/// The fewest rows a thread takes (the kernels work on row panels of up to 16).
const SPLIT_MIN_ROWS: usize = 16;

/// A strided matrix inside a slice: element `(i, j)` is `data[offset + i * rows + j * cols]`.
#[derive(Clone, Copy)]
pub struct Mat<'a, T> {
    /// The elements the matrix lies in.
    pub data: &'a [T],
    /// Where element `(0, 0)` is.
    pub offset: usize,
    /// The step between rows, in elements (never negative: tensors' strides are not).
    pub rows: usize,
    /// The step between columns, in elements.
    pub cols: usize,
}

impl<T> Mat<'_, T> {
    /// Whether every element of an `r` by `c` matrix lies inside `data` (both non-zero).
    fn fits(&self, r: usize, c: usize) -> bool {
        let last = (r - 1)
            .checked_mul(self.rows)
            .and_then(|x| x.checked_add((c - 1).checked_mul(self.cols)?))
            .and_then(|x| x.checked_add(self.offset));
        last.is_some_and(|l| l < self.data.len())
    }
}

/// An element type the packed product computes in.
pub trait Gemm: Copy + Default + Send + Sync + 'static {
    /// `c[m×n] (row-major, contiguous) = a[m×k] · b[k×n]`.
    ///
    /// # Safety
    /// Every element of `a` and `b` (`fits`) lies inside its slice, `c` holds `m * n`
    /// elements, and `m`, `k`, `n` are non-zero.
    unsafe fn product(m: usize, k: usize, n: usize, a: Mat<Self>, b: Mat<Self>, c: &mut [Self]);
}

macro_rules! real_gemm {
    ($t:ty, $f:path) => {
        impl Gemm for $t {
            unsafe fn product(m: usize, k: usize, n: usize, a: Mat<$t>, b: Mat<$t>, c: &mut [$t]) {
                // SAFETY: the caller guarantees the bounds (`Gemm::product`); strides fit in
                // isize because they index slices.
                unsafe {
                    $f(
                        m,
                        k,
                        n,
                        1.0,
                        a.data.as_ptr().add(a.offset),
                        a.rows as isize,
                        a.cols as isize,
                        b.data.as_ptr().add(b.offset),
                        b.rows as isize,
                        b.cols as isize,
                        0.0,
                        c.as_mut_ptr(),
                        n as isize,
                        1,
                    )
                }
            }
        }
    };
}
real_gemm!(f32, matrixmultiply::sgemm);
real_gemm!(f64, matrixmultiply::dgemm);

macro_rules! complex_gemm {
    ($t:ty, $f:path, $pair:ty) => {
        impl Gemm for Complex<$t> {
            unsafe fn product(
                m: usize,
                k: usize,
                n: usize,
                a: Mat<Complex<$t>>,
                b: Mat<Complex<$t>>,
                c: &mut [Complex<$t>],
            ) {
                use matrixmultiply::CGemmOption::Standard;
                // SAFETY: as for the real types; `Complex<T>` is `repr(C)` `{re, im}`, the
                // layout of matrixmultiply's `[T; 2]`.
                unsafe {
                    $f(
                        Standard,
                        Standard,
                        m,
                        k,
                        n,
                        [1.0, 0.0],
                        a.data.as_ptr().add(a.offset).cast::<$pair>(),
                        a.rows as isize,
                        a.cols as isize,
                        b.data.as_ptr().add(b.offset).cast::<$pair>(),
                        b.rows as isize,
                        b.cols as isize,
                        [0.0, 0.0],
                        c.as_mut_ptr().cast::<$pair>(),
                        n as isize,
                        1,
                    )
                }
            }
        }
    };
}
complex_gemm!(f32, matrixmultiply::cgemm, [f32; 2]);
complex_gemm!(f64, matrixmultiply::zgemm, [f64; 2]);

/// Rows of `c` per block for an `m×k · k×n` product.
fn block_rows(m: usize, k: usize, n: usize) -> usize {
    (BLOCK_FLOPS / k.max(1).saturating_mul(n).max(1)).clamp(1, m.max(1))
}

/// `c = a · b` for `a` of `m×k`, `b` of `k×n`, `c` contiguous row-major `m×n`; `c` is
/// zeroed when `k` is 0. `split`: a large product may split its rows between the threads
/// (not when the caller already runs products on both). Panics (a bug, not input) if an
/// operand does not fit its slice.
pub fn product<T: Gemm>(
    (m, k, n): (usize, usize, usize),
    a: Mat<T>,
    b: Mat<T>,
    c: &mut [T],
    split: bool,
) {
    assert_eq!(c.len(), m * n, "the result holds m×n elements");
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        c.fill(T::default());
        return;
    }
    assert!(
        a.fits(m, k) && b.fits(k, n),
        "operands lie inside their slices"
    );
    let step = block_rows(m, k, n);
    let mut r0 = 0;
    while r0 < m {
        interrupt::check();
        let rows = step.min(m - r0);
        let block = Mat {
            offset: a.offset + r0 * a.rows,
            ..a
        };
        let c_block = &mut c[r0 * n..(r0 + rows) * n];
        if split && rows >= 2 * SPLIT_MIN_ROWS && rows * k * n >= PARALLEL_FLOPS {
            // Half the rows on each thread (each packs its own copy of `b`).
            let half = rows / 2;
            let (c1, c2) = c_block.split_at_mut(half * n);
            let lower = Mat {
                offset: block.offset + half * a.rows,
                ..block
            };
            // SAFETY: as below, for each half of the block's rows.
            pair::join(
                || unsafe { T::product(half, k, n, block, b, c1) },
                || unsafe { T::product(rows - half, k, n, lower, b, c2) },
            );
        } else {
            // SAFETY: `fits` holds for all of `a`, so for any block of its rows; `c`'s block
            // holds rows × n elements; all sizes are non-zero.
            unsafe { T::product(rows, k, n, block, b, c_block) };
        }
        r0 += rows;
    }
}

/// `c = a · b` in wrapping 64-bit integer arithmetic (the low bits of any narrower integer
/// product, as PyTorch's integer kernels give). `c` is contiguous row-major `m×n`.
pub fn int_product(m: usize, k: usize, n: usize, a: Mat<i64>, b: Mat<i64>, c: &mut [i64]) {
    assert_eq!(c.len(), m * n, "the result holds m×n elements");
    c.fill(0);
    if m == 0 || n == 0 || k == 0 {
        return;
    }
    assert!(
        a.fits(m, k) && b.fits(k, n),
        "operands lie inside their slices"
    );
    for (i, row) in c.chunks_exact_mut(n).enumerate() {
        interrupt::check();
        for p in 0..k {
            let x = a.data[a.offset + i * a.rows + p * a.cols];
            let b_row = b.offset + p * b.rows;
            for (j, out) in row.iter_mut().enumerate() {
                *out = out.wrapping_add(x.wrapping_mul(b.data[b_row + j * b.cols]));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mat<T>(data: &[T], offset: usize, rows: usize, cols: usize) -> Mat<'_, T> {
        Mat {
            data,
            offset,
            rows,
            cols,
        }
    }

    fn naive(m: usize, k: usize, n: usize, a: &Mat<f64>, b: &Mat<f64>) -> Vec<f64> {
        let mut c = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                for p in 0..k {
                    c[i * n + j] += a.data[a.offset + i * a.rows + p * a.cols]
                        * b.data[b.offset + p * b.rows + j * b.cols];
                }
            }
        }
        c
    }

    #[test]
    fn strided_and_transposed_operands_multiply_as_written() {
        let data: Vec<f64> = (0..64).map(|x| x as f64 - 20.0).collect();
        // a: 3×4 transposed out of a 4×3 block at offset 5; b: 4×2 with row step 8.
        let a = mat(&data, 5, 1, 3);
        let b = mat(&data, 2, 8, 3);
        let mut c = vec![0.0; 6];
        product((3, 4, 2), a, b, &mut c, true);
        assert_eq!(c, naive(3, 4, 2, &a, &b));
    }

    #[test]
    fn broadcast_rows_and_empty_inner_dimension() {
        let data = [2.0f32, 3.0];
        // Every row of `a` is the same element (row step 0).
        let a = mat(&data, 0, 0, 1);
        let b = mat(&data, 1, 1, 0);
        let mut c = vec![0.0; 4];
        product((2, 1, 2), a, b, &mut c, true);
        assert_eq!(c, [6.0; 4]);
        let mut c = vec![9.0f32; 4];
        product((2, 0, 2), a, b, &mut c, true);
        assert_eq!(c, [0.0; 4]);
    }

    #[test]
    fn rows_split_between_threads_give_the_whole_product() {
        let (m, k, n) = (150, 130, 120);
        let data: Vec<f64> = (0..m * k + k * n)
            .map(|x| ((x * 37) % 101) as f64 - 50.0)
            .collect();
        let a = mat(&data, 0, k, 1);
        let b = mat(&data, m * k, n, 1);
        assert!(m * k * n >= PARALLEL_FLOPS);
        let (mut split, mut whole) = (vec![0.0; m * n], vec![0.0; m * n]);
        product((m, k, n), a, b, &mut split, true);
        product((m, k, n), a, b, &mut whole, false);
        assert_eq!(split, naive(m, k, n, &a, &b));
        assert_eq!(whole, split);
    }

    #[test]
    fn blocks_cover_every_row() {
        assert_eq!(block_rows(4096, 4096, 4096), 256);
        assert_eq!(block_rows(1024, 1024, 1024), 1024);
        assert_eq!(block_rows(3, 1 << 20, 1 << 20), 1);
    }

    #[test]
    fn integer_products_wrap() {
        let data = [100i64, 100];
        let a = mat(&data, 0, 2, 1);
        let b = mat(&data, 0, 1, 1);
        let mut c = vec![0; 1];
        int_product(1, 2, 1, a, b, &mut c);
        assert_eq!(
            c[0] as i8, 32,
            "PyTorch's int8 [[100, 100]] @ its transpose"
        );
    }

    #[test]
    fn complex_products() {
        let data = [Complex::new(1.0f64, 2.0), Complex::new(0.0, 1.0)];
        let a = mat(&data, 0, 2, 1);
        let b = mat(&data, 0, 1, 1);
        let mut c = vec![Complex::default(); 1];
        product((1, 2, 1), a, b, &mut c, true);
        assert_eq!(c[0], Complex::new(1.0, 2.0) * Complex::new(1.0, 2.0) - 1.0);
    }
}
