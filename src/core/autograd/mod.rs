//! Autograd: gradient formulas and the backward walk over the graph that ops record
//! (`tensor::graph`, `tensor::record`). Formulas: sum and mean (all or over dims), add, sub,
//! mul, div, neg, pow by a number, copies, and every view op (one rule for all of them, split
//! and unbind included). An op recorded without a formula raises a clear error if a gradient
//! has to pass through it; nothing ever yields a wrong gradient silently.
//!
//! Nothing in `core` below this module depends on it: ops record data, and only `backward`
//! reads it.

mod differentiate;
mod engine;
mod formulas;
pub mod grad_ops;
pub mod placing_grads;
pub mod pointwise_grads;
pub mod reduction_grads;
pub mod selection_grads;
mod softmax_grad;
pub mod tracked;

pub use differentiate::{backward_many, grad};
pub use engine::{backward, backward_from, backward_retaining, backward_with_hooks};
pub use formulas::{apply as apply_formula, cast_grad, sum_to};
