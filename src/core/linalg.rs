//! `matmul` for 1-d, 2-d and batched operands, with PyTorch's shape rules and messages, and
//! `mean`; the products themselves are computed in `products`.

use super::error::{Result, TorchError};
use super::layout::fmt_list;
use super::tensor::Tensor;
use super::tensor::graph::detached;
use super::views::{broadcast_shapes, expand, unsqueeze};

/// Whether PyTorch's `matmul` folds `a` (3-d or more, times a matrix or vector) into one
/// matrix for `mm`: when its batch and row dims merge into one without a copy.
fn folds(a: &Tensor) -> bool {
    let l = a.layout();
    l.numel() == 0
        || (0..l.ndim().saturating_sub(2))
            .all(|i| l.strides[i] == l.strides[i + 1] * l.sizes[i + 1])
}

/// PyTorch's error for inner dimensions that differ, in the words of the kernel it reaches:
/// `mm` for matrices (a folded stack counts its rows together), else `bmm` naming the batch.
fn inner_mismatch(a: &Tensor, b: &Tensor, mm_kernel: bool) -> TorchError {
    let (sa, sb) = (a.sizes(), b.sizes());
    let k = sa[sa.len() - 1];
    let (k2, m) = (sb[sb.len() - 2], sb[sb.len() - 1]);
    let batch = broadcast_shapes(&sa[..sa.len() - 2], &sb[..sb.len() - 2]).unwrap_or_default();
    if mm_kernel {
        let rows: i64 = sa[..sa.len() - 1].iter().product();
        return TorchError::runtime(format!(
            "mm: mat1 and mat2 shapes cannot be multiplied ({rows}x{k} and {k2}x{m})"
        ));
    }
    let count: i64 = batch.iter().product();
    TorchError::runtime(format!(
        "Expected size for first two dimensions of batch2 tensor to be: [{count}, {k}] but got: [{count}, {k2}]."
    ))
}

/// Batched matrix product of `[.., n, k]` and `[.., k, m]` with broadcast batch dims.
/// `mm_kernel`: PyTorch reaches its `mm` kernel, which computes a product over an inner
/// dimension of 1 as plain products (a `-0.` product stays `-0.`); its other kernels add
/// the products to a zero (`+0.`).
fn batched(a: &Tensor, b: &Tensor, mm_kernel: bool) -> Result<Tensor> {
    let batch = check_shapes(a, b, mm_kernel)?;
    let (sa, sb) = (a.sizes(), b.sizes());
    let (n, k) = (sa[sa.len() - 2], sa[sa.len() - 1]);
    let m = sb[sb.len() - 1];
    let full = |t: &Tensor, r: i64, c: i64| {
        let mut s = batch.clone();
        s.extend([r, c]);
        expand(t, &s)
    };
    let (a, b) = (full(a, n, k)?, full(b, k, m)?);
    if mm_kernel && k == 1 {
        use super::operand::{Arg, BinaryOp};
        return super::ops::binary_untracked(BinaryOp::Mul, &Arg::Tensor(a), &Arg::Tensor(b));
    }
    super::products::batched_product(&a, &b)
}

/// Whether stacks of matrices `a` and `b` can be multiplied: their inner sizes agree and
/// their batch sizes broadcast (to the batch shape returned).
fn check_shapes(a: &Tensor, b: &Tensor, mm_kernel: bool) -> Result<Vec<i64>> {
    let (sa, sb) = (a.sizes(), b.sizes());
    if sa[sa.len() - 1] != sb[sb.len() - 2] {
        return Err(inner_mismatch(a, b, mm_kernel));
    }
    broadcast_shapes(&sa[..sa.len() - 2], &sb[..sb.len() - 2])
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
    super::products::require("dot", a.dtype())?;
    let (na, nb) = (a.numel(), b.numel());
    if na != nb {
        return Err(TorchError::runtime(format!(
            "inconsistent tensor size, expected tensor {} and src {} to have the same number of elements, but got {na} and {nb} elements respectively",
            fmt_list(&a.sizes()),
            fmt_list(&b.sizes())
        )));
    }
    let r = batched(&unsqueeze(a, 0)?, &unsqueeze(b, 1)?, false)?;
    let out = super::views::reshape(&r, &[])?;
    super::tensor::record::record_matmul(&out, a, b);
    Ok(out)
}

/// The dtype check of the kernel `matmul` reaches for these ranks, in its words: a matrix
/// (or a stack folded into one) times a vector is `mv` (its sizes checked first), times a
/// matrix is `mm`, and anything times a stack of matrices is `bmm`.
fn check_same_dtype(a: &Tensor, b: &Tensor, kernel: &str) -> Result<()> {
    if kernel == "addmv_impl_cpu" {
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
    if kernel == "addmm_impl_cpu_" {
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

/// `torch.mm(a, b)`: two matrices, no broadcasting; PyTorch's checks in its order (ranks,
/// shapes, then the dtypes and the kernel, as `matmul` checks them).
pub fn mm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    for (t, what) in [(a, "self"), (b, "mat2")] {
        if t.ndim() != 2 {
            return Err(TorchError::runtime(format!(
                "mm: {what} must be a matrix, got {}-D tensor",
                t.ndim()
            )));
        }
    }
    let (sa, sb) = (a.sizes(), b.sizes());
    if sa[1] != sb[0] {
        return Err(TorchError::runtime(format!(
            "mm: mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
            sa[0], sa[1], sb[0], sb[1]
        )));
    }
    matmul(a, b)
}

/// `torch.mv(a, v)`: a matrix times a vector.
pub fn mv(a: &Tensor, v: &Tensor) -> Result<Tensor> {
    // PyTorch reads the matrix's first size before it checks the ranks.
    if a.ndim() == 0 {
        return Err(TorchError::index(
            "Dimension specified as 0 but tensor has no dimensions",
        ));
    }
    if a.ndim() != 2 || v.ndim() != 1 {
        return Err(TorchError::runtime(format!(
            "vector + matrix @ vector expected, got 1, {}, {}",
            a.ndim(),
            v.ndim()
        )));
    }
    matmul(a, v)
}

/// `torch.bmm(a, b)`: two stacks of matrices with the same batch size, no broadcasting.
pub fn bmm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    for (t, what) in [(a, "batch1"), (b, "batch2")] {
        if t.ndim() != 3 {
            return Err(TorchError::runtime(format!("{what} must be a 3D tensor")));
        }
    }
    let (sa, sb) = (a.sizes(), b.sizes());
    if sb[0] != sa[0] || sb[1] != sa[2] {
        return Err(TorchError::runtime(format!(
            "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].",
            sa[0], sa[2], sb[0], sb[1]
        )));
    }
    let out = matmul(&detached(a), &detached(b))?;
    super::tensor::record::record_matmul_as(&out, a, b, "BmmBackward0");
    Ok(out)
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
    let folded = da <= 2 || folds(a);
    let kernel = match (db, folded) {
        (1, true) => "addmv_impl_cpu",
        (2, true) => "addmm_impl_cpu_",
        _ => "bmm",
    };
    let a2 = if da == 1 { unsqueeze(a, 0)? } else { a.clone() };
    let b2 = if db == 1 { unsqueeze(b, 1)? } else { b.clone() };
    // The shapes are checked before the dtypes (`mv` checks its sizes in its own words).
    if kernel != "addmv_impl_cpu" {
        check_shapes(&a2, &b2, kernel == "addmm_impl_cpu_")?;
    }
    check_same_dtype(a, b, kernel)?;
    super::products::require(kernel, a.dtype())?;
    let r = batched(&a2, &b2, kernel == "addmm_impl_cpu_")?;
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
