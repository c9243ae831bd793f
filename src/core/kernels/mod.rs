//! Typed kernels: elementwise binary ops and sums over raw storage bytes, monomorphised per
//! element type so inner loops are plain slice loops the compiler vectorises, and split over
//! two threads for large contiguous tensors.

pub mod binary;
pub mod gemm;
pub mod lane;
pub mod pair;
pub mod plain;
pub mod sum;
pub mod transpose;

/// Elements below which a kernel stays on one thread (handing half to the helper thread
/// would cost more than it saves).
pub const PARALLEL_MIN: usize = 1 << 18;

/// Bytes from which a plain copy or fill is split between the two threads.
pub const PARALLEL_MIN_BYTES: usize = 1 << 20;

/// `dst.copy_from_slice(src)`, the halves on two threads for large copies (a fresh
/// destination's first touch and the copy both scale).
pub fn copy_bytes(dst: &mut [u8], src: &[u8]) {
    if dst.len() < PARALLEL_MIN_BYTES {
        dst.copy_from_slice(src);
        return;
    }
    let half = dst.len() / 2;
    let (d1, d2) = dst.split_at_mut(half);
    let (s1, s2) = src.split_at(half);
    pair::join(|| d1.copy_from_slice(s1), || d2.copy_from_slice(s2));
}
