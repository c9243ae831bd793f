//! The memory model: dtypes, storages, layouts, tensors and the ops over them. Knows nothing
//! of Rhai, terminals or printing.

pub mod autograd;
pub mod binary_math;
pub mod binary_operands;
pub mod broadcast;
pub mod checked_scalar;
pub mod copy;
pub mod cpp_format;
pub mod creation;
pub mod defaults;
pub mod dtype;
pub mod element;
pub mod engine;
pub mod error;
pub mod flip;
pub mod float8;
pub mod index;
pub mod index_ops;
pub mod index_parse;
pub mod interrupt;
pub mod join;
pub mod kernels;
pub mod layout;
pub mod linalg;
pub mod memory;
pub mod memory_format;
pub mod operand;
pub mod ops;
pub mod ops_fast;
pub mod order_stats;
pub mod overlap;
pub mod pointwise;
pub mod products;
pub mod promotion;
pub mod random;
pub mod reduce;
pub mod repeat;
pub mod resize;
pub mod result_layout;
pub mod scalar;
pub mod scan;
pub mod scatter;
pub mod select_order;
pub mod selection;
pub mod softmax;
pub mod strided;
pub mod take_put;
pub mod tensor;
pub mod triangle;
pub mod unary;
pub mod unary_math;
pub mod unbuilt_kernels;
pub mod views;
pub mod why;

#[cfg(test)]
mod view_model_tests;
