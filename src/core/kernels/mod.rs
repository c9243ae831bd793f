//! Typed kernels: elementwise binary ops and sums over raw storage bytes, monomorphised per
//! element type so inner loops are plain slice loops the compiler vectorises, and split over
//! two threads for large contiguous tensors.

pub mod binary;
pub mod lane;
pub mod pair;
pub mod sum;
pub mod transpose;

/// Elements below which a kernel stays on one thread (thread start-up costs more).
pub const PARALLEL_MIN: usize = 1 << 18;
