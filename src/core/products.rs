//! The compute behind `matmul`, `dot`, `mv`, `mm` and `bmm`: batched products of strided
//! matrices, dispatched on the dtype once per call.
//!
//! - `float32`, `float64`, `complex64`, `complex128`: the packed kernels of `kernels::gemm`,
//!   reading the operands' storages in place with their strides (no copy, broadcast batch
//!   dims included).
//! - `float16`, `bfloat16` (and float8, which only `mm` takes): computed in `float32` and
//!   rounded once per result element, as PyTorch's CPU kernels accumulate them.
//! - integers: wrapping 64-bit products, whose low bits are PyTorch's narrower results.
//!
//! Which dtypes each kernel takes, and its name in the error, follow PyTorch (`require`).

use num_complex::Complex;

use super::copy::cast_copy;
use super::dtype::DType;
use super::error::{Result, TorchError};
use super::kernels::gemm::{Gemm, Mat, int_product, product};
use super::kernels::pair;
use super::kernels::plain::{Plain, elems, with_elems_mut};
use super::tensor::Tensor;
use super::unbuilt_kernels::not_built;

/// PyTorch's `NotImplementedError` when `kernel` has no version for `dtype`: the products
/// take the integer types up to 64 bits (not the wide unsigned ones), the float and complex
/// types but `complex32`, and `mm` also takes the float8 types.
pub fn require(kernel: &str, dtype: DType) -> Result<()> {
    use DType::*;
    let built = match dtype {
        UInt8 | Int8 | Int16 | Int32 | Int64 | Float16 | BFloat16 | Float32 | Float64
        | Complex64 | Complex128 => true,
        Float8E4M3FN | Float8E4M3FNUZ | Float8E5M2 | Float8E5M2FNUZ => kernel == "addmm_impl_cpu_",
        Bool | UInt16 | UInt32 | UInt64 | Complex32 => false,
    };
    if built {
        Ok(())
    } else {
        Err(not_built(kernel, dtype))
    }
}

/// Below this many elements in the two operands (`n·k + k·m`), the products of a batch are
/// shared between the threads a matrix at a time instead of each product being split.
const SMALL_PRODUCT: usize = 1 << 16;

/// One operand: `[batch.., rows, cols]`, already expanded to the common batch shape.
struct Operand<'a> {
    sizes: &'a [i64],
    strides: &'a [i64],
    offset: i64,
}

impl Operand<'_> {
    /// The element offset of matrix `index` (row-major over the batch dims).
    fn matrix_offset(&self, mut index: usize) -> usize {
        let nb = self.sizes.len() - 2;
        let mut off = self.offset;
        for d in (0..nb).rev() {
            let size = self.sizes[d] as usize;
            off += (index % size) as i64 * self.strides[d];
            index /= size;
        }
        off as usize
    }

    fn mat<'d, T>(&self, data: &'d [T], index: usize) -> Mat<'d, T> {
        let nb = self.sizes.len() - 2;
        Mat {
            data,
            offset: self.matrix_offset(index),
            rows: self.strides[nb] as usize,
            cols: self.strides[nb + 1] as usize,
        }
    }
}

/// `c[i] = a[i] · b[i]` for each matrix of the batch, into a new contiguous tensor of
/// `dtype`, in the packed kernel of `T`.
fn packed<T: Gemm + Plain>(a: &Tensor, b: &Tensor, shape: &[i64], dtype: DType) -> Result<Tensor> {
    let out = Tensor::zeros(shape.to_vec(), dtype)?;
    let (la, lb) = (a.layout(), b.layout());
    let size = std::mem::size_of::<T>();
    let nd = shape.len();
    let (n, m) = (shape[nd - 2] as usize, shape[nd - 1] as usize);
    let k = la.sizes[nd - 1] as usize;
    let batches: usize = shape[..nd - 2].iter().map(|&s| s as usize).product();
    let oa = Operand {
        sizes: &la.sizes,
        strides: &la.strides,
        offset: la.offset,
    };
    let ob = Operand {
        sizes: &lb.sizes,
        strides: &lb.strides,
        offset: lb.offset,
    };
    a.storage().with_bytes(|ab| {
        la.check_in_bounds(size, ab.len())?;
        let av = elems::<T>(ab);
        b.storage().with_bytes(|bb| {
            lb.check_in_bounds(size, bb.len())?;
            let bv = elems::<T>(bb);
            out.storage().with_bytes_mut(|cb| {
                with_elems_mut::<T, _>(cb, |c| {
                    let (av, bv) = (&av[..], &bv[..]);
                    let run = |first: usize, c: &mut [T], split: bool| {
                        for (i, c) in c.chunks_exact_mut((n * m).max(1)).enumerate() {
                            let (ma, mb) = (oa.mat(av, first + i), ob.mat(bv, first + i));
                            product((n, k, m), ma, mb, c, split);
                        }
                    };
                    let c = &mut c[..batches * n * m];
                    if batches >= 2 && n * k + k * m < SMALL_PRODUCT {
                        // Small products: a batch per thread beats splitting each product.
                        let half = batches / 2;
                        let (c1, c2) = c.split_at_mut(half * n * m);
                        pair::join(|| run(0, c1, false), || run(half, c2, false));
                    } else {
                        run(0, c, true);
                    }
                })
            });
            Ok(())
        })
    })?;
    Ok(out)
}

/// Integer products: the operands as contiguous `int64`, wrapping products, the result cast
/// back (keeping the low bits, as a product in the narrower type gives).
fn integer(a: &Tensor, b: &Tensor, shape: &[i64], dtype: DType) -> Result<Tensor> {
    let (a, b) = (cast_copy(a, DType::Int64)?, cast_copy(b, DType::Int64)?);
    let out = Tensor::zeros(shape.to_vec(), DType::Int64)?;
    let nd = shape.len();
    let (n, m) = (shape[nd - 2] as usize, shape[nd - 1] as usize);
    let k = a.sizes()[nd - 1] as usize;
    a.storage().with_bytes(|ab| {
        let av = elems::<i64>(ab);
        b.storage().with_bytes(|bb| {
            let bv = elems::<i64>(bb);
            out.storage().with_bytes_mut(|cb| {
                with_elems_mut::<i64, _>(cb, |c| {
                    let step = (n * m).max(1);
                    for (i, c) in c.chunks_exact_mut(step).enumerate() {
                        let ma = Mat {
                            data: &av[..],
                            offset: i * n * k,
                            rows: k,
                            cols: 1,
                        };
                        let mb = Mat {
                            data: &bv[..],
                            offset: i * k * m,
                            rows: m,
                            cols: 1,
                        };
                        int_product(n, k, m, ma, mb, c);
                    }
                })
            })
        })
    });
    if dtype == DType::Int64 {
        Ok(out)
    } else {
        cast_copy(&out, dtype)
    }
}

/// The batched product of `a` (`[batch.., n, k]`) and `b` (`[batch.., k, m]`), both expanded
/// to one batch shape, as a new contiguous `[batch.., n, m]` tensor of their dtype. The
/// caller has checked the sizes, the dtypes (`require`) and that they match.
pub fn batched_product(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let dtype = a.dtype();
    let (sa, sb) = (a.sizes(), b.sizes());
    let mut shape = sa[..sa.len() - 1].to_vec();
    shape.push(sb[sb.len() - 1]);
    // Conjugate and negative views are multiplied by their values, not their stored bytes.
    let resolved = crate::core::copy::resolved;
    match dtype {
        DType::Float32 => packed::<f32>(&resolved(a)?, &resolved(b)?, &shape, dtype),
        DType::Float64 => packed::<f64>(&resolved(a)?, &resolved(b)?, &shape, dtype),
        DType::Complex64 => packed::<Complex<f32>>(&resolved(a)?, &resolved(b)?, &shape, dtype),
        DType::Complex128 => packed::<Complex<f64>>(&resolved(a)?, &resolved(b)?, &shape, dtype),
        DType::Float16
        | DType::BFloat16
        | DType::Float8E4M3FN
        | DType::Float8E4M3FNUZ
        | DType::Float8E5M2
        | DType::Float8E5M2FNUZ => {
            let (a, b) = (cast_copy(a, DType::Float32)?, cast_copy(b, DType::Float32)?);
            cast_copy(&packed::<f32>(&a, &b, &shape, DType::Float32)?, dtype)
        }
        DType::UInt8 | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => {
            integer(a, b, &shape, dtype)
        }
        DType::Bool | DType::UInt16 | DType::UInt32 | DType::UInt64 | DType::Complex32 => Err(
            TorchError::runtime(format!("no matrix product for {}", dtype.cpp_name())),
        ),
    }
}
