//! `matmul` for 1-d, 2-d and batched operands, with PyTorch's shape rules and messages, and
//! `mean`. Products accumulate in `f64` (or `i64`) and round once per result element.

use super::copy::to_scalars;
use super::creation::from_scalars;
use super::dtype::Kind;
use super::error::{Result, TorchError};
use super::layout::fmt_list;
use super::scalar::Scalar;
use super::tensor::Tensor;
use super::views::{broadcast_shapes, expand, unsqueeze};

/// Batched matrix product of `[.., n, k]` and `[.., k, m]` with broadcast batch dims.
fn batched(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (sa, sb) = (a.sizes(), b.sizes());
    let (n, k) = (sa[sa.len() - 2], sa[sa.len() - 1]);
    let (k2, m) = (sb[sb.len() - 2], sb[sb.len() - 1]);
    if k != k2 {
        return Err(TorchError::runtime(format!(
            "mm: mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})"
        )));
    }
    let batch = broadcast_shapes(&sa[..sa.len() - 2], &sb[..sb.len() - 2])?;
    let full = |t: &Tensor, r: i64, c: i64| {
        let mut s = batch.clone();
        s.extend([r, c]);
        expand(t, &s)
    };
    let (va, vb) = (to_scalars(&full(a, n, k)?)?, to_scalars(&full(b, k, m)?)?);
    let dtype = a.dtype();
    let batches: i64 = batch.iter().product();
    let mut out = super::memory::alloc::vec_with_capacity((batches * n * m).max(0) as usize)?;
    for bi in 0..batches {
        let (oa, ob) = ((bi * n * k) as usize, (bi * k * m) as usize);
        for i in 0..n {
            // Ctrl-C stops a long product between rows of the result.
            super::interrupt::check();
            for j in 0..m {
                let cell = |p: i64| (va[oa + (i * k + p) as usize], vb[ob + (p * m + j) as usize]);
                out.push(match dtype.kind() {
                    // From the first product (a lone `-0.` product stays `-0.`, as in
                    // PyTorch); an empty inner dimension gives +0.0 (Rust's `sum` of
                    // nothing is -0.0).
                    Kind::Float => Scalar::Float(
                        (0..k)
                            .map(|p| cell(p).0.to_f64() * cell(p).1.to_f64())
                            .reduce(|acc, x| acc + x)
                            .unwrap_or(0.0),
                    ),
                    Kind::Complex => Scalar::Complex(
                        (0..k)
                            .map(|p| cell(p).0.to_complex() * cell(p).1.to_complex())
                            .sum(),
                    ),
                    _ => Scalar::Int((0..k).fold(0i64, |acc, p| {
                        acc.wrapping_add(cell(p).0.to_i64().wrapping_mul(cell(p).1.to_i64()))
                    })),
                });
            }
        }
    }
    let mut shape = batch;
    shape.extend([n, m]);
    from_scalars(&out, shape, dtype)
}

/// `a.dot(b)`: the inner product of two 1-d tensors of one dtype and length.
pub fn dot(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.ndim() != 1 || b.ndim() != 1 {
        return Err(TorchError::runtime(format!(
            "1D tensors expected, but got {}D and {}D tensors",
            a.ndim(),
            b.ndim()
        )));
    }
    if a.dtype() != b.dtype() {
        return Err(TorchError::runtime(format!(
            "dot : expected both vectors to have same dtype, but found {} and {}",
            a.dtype().cpp_name(),
            b.dtype().cpp_name()
        )));
    }
    super::unbuilt_kernels::require_kernel("dot", a.dtype())?;
    let (na, nb) = (a.numel(), b.numel());
    if na != nb {
        return Err(TorchError::runtime(format!(
            "inconsistent tensor size, expected tensor {} and src {} to have the same number of elements, but got {na} and {nb} elements respectively",
            fmt_list(&a.sizes()),
            fmt_list(&b.sizes())
        )));
    }
    let r = batched(&unsqueeze(a, 0)?, &unsqueeze(b, 1)?)?;
    let out = super::views::reshape(&r, &[])?;
    super::tensor::record::record_matmul(&out, a, b);
    Ok(out)
}

/// The dtype check of the kernel `matmul` reaches for these ranks, in its words: a matrix
/// (or a stack folded into one) times a vector is `mv` (its sizes checked first), times a
/// matrix is `mm`, and anything times a stack of matrices is `bmm`.
fn check_same_dtype(a: &Tensor, b: &Tensor) -> Result<()> {
    if b.ndim() == 1 {
        let sa = a.sizes();
        let k = sa[sa.len() - 1];
        let rows: i64 = sa[..sa.len() - 1].iter().product();
        if k != b.numel() {
            return Err(TorchError::runtime(format!(
                "size mismatch, got input ({rows}), mat ({rows}x{k}), vec ({})",
                b.numel()
            )));
        }
        if a.dtype() != b.dtype() {
            let (m, v) = (a.dtype().cpp_name(), b.dtype().cpp_name());
            return Err(TorchError::runtime(format!(
                "addmv input tensors must have the same dtype, but got {v}, {m}, and {v}"
            )));
        }
        return Ok(());
    }
    if a.dtype() == b.dtype() {
        return Ok(());
    }
    if b.ndim() == 2 {
        Err(TorchError::runtime(format!(
            "expected m1 and m2 to have the same dtype, but got: {} != {}",
            a.dtype().c_type_name(),
            b.dtype().c_type_name()
        )))
    } else {
        Err(TorchError::runtime(format!(
            "expected scalar type {} but found {}",
            a.dtype().cpp_name(),
            b.dtype().cpp_name()
        )))
    }
}

/// `a.matmul(b)` / `a @ b`.
pub fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (da, db) = (a.ndim(), b.ndim());
    if da == 0 || db == 0 {
        return Err(TorchError::runtime(format!(
            "both arguments to matmul need to be at least 1D, but they are {da}D and {db}D"
        )));
    }
    if da == 1 && db == 1 {
        return dot(a, b);
    }
    check_same_dtype(a, b)?;
    let a2 = if da == 1 { unsqueeze(a, 0)? } else { a.clone() };
    let b2 = if db == 1 { unsqueeze(b, 1)? } else { b.clone() };
    let r = batched(&a2, &b2)?;
    let mut shape = r.sizes();
    if db == 1 {
        shape.pop();
    }
    if da == 1 {
        let len = shape.len();
        shape.remove(len - 1 - if db == 1 { 0 } else { 1 });
    }
    let out = super::views::reshape(&r, &shape)?;
    super::tensor::record::record_matmul(&out, a, b);
    Ok(out)
}
