//! tensh: a REPL and script runner, scripted in Rhai, over a Rust re-implementation of
//! PyTorch's strided tensor memory model.
//!
//! Layers depend one way: `core` ← `print` ← `script` ← `repl` ← `transcript` ← `jupyter` ← `cli`
//! (`tests/architecture.rs` keeps it so).

#![warn(missing_docs)]

/// The version line, as `tensh --version` and the REPL's banner print it.
pub fn version() -> String {
    format!("tensh {}", env!("CARGO_PKG_VERSION"))
}

pub mod cli;
pub mod core;
pub mod fuzz;
pub mod jupyter;
pub mod print;
pub mod repl;
pub mod script;
pub mod transcript;
