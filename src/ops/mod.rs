//! The op table and everything its entries speak: the tensor methods and `torch` functions
//! by concern (`tensor/`, `storage/`, `files/`, the sub-modules), their declarations and
//! argument binding (`signature`, `args`, `registration`), values and conversions, errors
//! as `Kind: message` and their kinds, warnings and captured output, and the `Runtime` that
//! holds the table with the engine it registers into. Both fronts stand on it side by side:
//! `script` runs Rhai programs, `python` calls entries directly; this layer uses neither.

pub mod args;
pub mod autograd_module;
pub mod call_check;
pub mod complex_api;
pub mod convert;
pub mod direct;
pub mod display;
pub mod dtype_info;
pub mod engine;
pub mod errors;
pub mod exit;
pub mod explain_api;
pub mod expr_text;
pub mod files;
pub mod formats;
pub mod generation;
pub mod generator_object;
pub mod grad_fn;
pub mod grad_hook;
pub mod grad_mode_api;
pub mod hidden;
pub mod keyword_audit;
pub mod limits;
pub mod linalg_chains;
pub mod linalg_module;
pub mod list_repr;
pub mod missing;
pub mod nn_functional;
pub mod nn_module;
pub mod op_table;
pub mod out_argument;
pub mod out_of_scope;
pub mod output;
pub mod placement;
pub mod pytorch_names;
pub mod random_api;
pub mod random_generator;
pub mod registered_call;
pub mod registration;
pub mod registry;
pub mod renamed;
pub mod return_tuple;
pub mod return_types;
pub mod rhai_errors;
pub mod runtime;
pub mod settings_api;
pub mod signature;
pub mod special_module;
pub mod storage;
pub mod submodule_functions;
pub mod sym_numbers;
pub mod tensor;
pub mod torch_module;
pub mod value_methods;
pub mod values;
pub mod values_api;
pub mod warnings;
