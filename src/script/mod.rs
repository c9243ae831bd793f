//! The Rhai side: registered types, the `torch` module, keyword maps, conversions, and errors
//! as `Kind: message` strings.

pub mod args;
pub mod caught;
pub mod complex_api;
pub mod convert;
pub mod display;
pub mod engine;
pub mod errors;
pub mod exit;
pub mod explain_api;
pub mod files;
pub mod formats;
pub mod grad_fn;
pub mod grad_hook;
pub mod hidden;
pub mod hints;
pub mod keyword_audit;
pub mod limits;
pub mod missing;
pub mod output;
pub mod placement;
pub mod random_api;
pub mod registration;
pub mod registry;
pub mod renamed;
pub mod return_types;
pub mod rhai_errors;
pub mod session;
pub mod signature;
pub mod storage;
pub mod tensor;
pub mod tokens;
pub mod torch_module;
pub mod values;
pub mod values_api;
pub mod warnings;
