//! The interactive session on a terminal: rustyline editing, completion, highlighting and
//! history around a `Console`, which holds the terminal-free logic.

pub mod catalog;
pub mod chain;
pub mod color;
pub mod commands;
pub mod complete;
pub mod complete_python;
pub mod completion;
pub mod console;
pub mod explain_command;
pub mod help;
#[cfg(not(target_arch = "wasm32"))]
pub mod helper;
pub mod highlight;
#[cfg(not(target_arch = "wasm32"))]
pub mod history;
pub mod lines;
pub mod meta;
pub mod paste;
#[cfg(not(target_arch = "wasm32"))]
pub mod paste_extent;
pub mod shared_names;
#[cfg(not(target_arch = "wasm32"))]
pub mod terminal;
pub mod timing;
pub mod topics;
pub mod why_command;

#[cfg(not(target_arch = "wasm32"))]
pub use terminal::run;
