//! Memory overlap between two tensors, as PyTorch classifies it before a copy or an in-place
//! op: a partial overlap (some but not all elements shared, or the same bytes walked in a
//! different order) is refused, because the result would depend on the walk order.

use super::error::{Result, TorchError};
use super::tensor::Tensor;

/// How two tensors' memory relates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlap {
    /// Disjoint memory.
    No,
    /// Exactly the same elements in the same order.
    Full,
    /// Some shared elements, or the same bytes with different strides.
    Partial,
    /// Not dense, so not analysed (PyTorch lets these through).
    TooHard,
}

/// PyTorch's overlap status of `a` and `b`.
pub fn overlap_status(a: &Tensor, b: &Tensor) -> Overlap {
    if a.ptr_eq(b) {
        return Overlap::Full;
    }
    if a.numel() == 0 || b.numel() == 0 {
        return Overlap::No;
    }
    let (la, lb) = (a.layout(), b.layout());
    if !la.is_non_overlapping_and_dense() || !lb.is_non_overlapping_and_dense() {
        return Overlap::TooHard;
    }
    if !a.storage().shares_memory(&b.storage()) {
        return Overlap::No;
    }
    let a_begin = a.data_ptr();
    let a_end = a_begin + a.numel() as usize * a.dtype().itemsize();
    let b_begin = b.data_ptr();
    let b_end = b_begin + b.numel() as usize * b.dtype().itemsize();
    if a_begin == b_begin && a_end == b_end {
        return if la.strides == lb.strides {
            Overlap::Full
        } else {
            Overlap::Partial
        };
    }
    if a_begin < b_end && b_begin < a_end {
        Overlap::Partial
    } else {
        Overlap::No
    }
}

/// Raises PyTorch's error when `written` and `read` partially overlap.
pub fn check_no_partial_overlap(written: &Tensor, read: &Tensor) -> Result<()> {
    if overlap_status(written, read) == Overlap::Partial {
        return Err(TorchError::runtime(
            "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.",
        ));
    }
    Ok(())
}
