//! tensh: a REPL and script runner, scripted in Rhai, over a Rust re-implementation of
//! PyTorch's strided tensor memory model.
//!
//! Layers depend one way: `core` ← `print` ← `script` ← `repl` ← `transcript` ← `jupyter` ← `cli`
//! (`tests/architecture.rs` keeps it so).

#![warn(missing_docs)]

/// Every allocation is counted, so a script's step-by-step growth is stopped with
/// `MemoryError` before memory runs out (`core::memory::heap`).
#[global_allocator]
static ALLOCATOR: core::memory::heap::CountingAllocator = core::memory::heap::CountingAllocator;

/// The version line, as `tensh --version` and the REPL's banner print it.
pub fn version() -> String {
    format!("tensh {}", env!("CARGO_PKG_VERSION"))
}

pub mod cli;
pub mod core;
pub mod fuzz;
pub mod jupyter;
pub mod print;
pub mod python;
pub mod repl;
pub mod script;
pub mod transcript;
