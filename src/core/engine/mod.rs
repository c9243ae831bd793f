//! The typed op engine: an op's operands become a *plan* (which dims are walked, which are
//! reduced or sorted along, where each output goes: `along::Plan`), the dtype is dispatched
//! once per call to a typed element (`ordered::Ordered`, `with_ordered!`), and a typed inner
//! loop runs over contiguous runs of storage bytes (`strided::for_each_run`), on both threads
//! when the work is large, checking Ctrl-C between blocks. Outputs are new contiguous
//! tensors.
//!
//! Modes built on it so far: functions of one element over a new result (`map`), moves of
//! whole elements by byte images (`elements`: masked ops, `roll`, `diag`, `nonzero`), reductions
//! to the extreme and its index over any set of dims (`extreme`), sorts along a dim (`sort`),
//! running sums and products (`scan`), moves by index (`gather_rows`: `index_select`,
//! `gather`), and functions of two broadcast operands read in place (`zip`). Matrix
//! products have their own kernels (`kernels::gemm`, reached through `products`).

pub mod along;
pub mod elements;
pub mod extreme;
pub mod gather_rows;
pub mod map;
pub mod ordered;
pub mod place;
pub mod rows;
pub mod scan;
pub mod sort;
pub mod zip;
