//! The Rhai side: registered types, the `torch` module, keyword maps, conversions, and errors
//! as `Kind: message` strings.

pub mod args;
pub mod autograd_api;
pub mod buffers;
pub mod convert;
pub mod display;
pub mod engine;
pub mod errors;
pub mod explain_api;
pub mod grad_hook;
pub mod indexing;
pub mod output;
pub mod random_api;
pub mod registry;
pub mod session;
pub mod signature;
pub mod storage_api;
pub mod tensor_math;
pub mod tensor_meta;
pub mod tensor_mutation;
pub mod tensor_pointwise;
pub mod tensor_reduce;
pub mod tensor_views;
pub mod torch_module;
pub mod typed_storage;
pub mod values;
pub mod warnings;
