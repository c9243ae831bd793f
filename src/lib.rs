//! tensh: a REPL and script runner, scripted in Rhai, over a Rust re-implementation of
//! PyTorch's strided tensor memory model.
//!
//! Layers depend one way: `platform` ← `core` ← `print` ← `ops` ← `script` ← `python` ←
//! `repl` ← `transcript` ← `page` ← `jupyter` ← `page_server` ← `cli`
//! (`tests/architecture.rs` keeps it so). The two fronts stand side by side on `ops`, the op
//! table: `script` runs Rhai programs, `python` calls the table directly and never `script`.

#![warn(missing_docs)]

/// Every allocation is counted, so a script's step-by-step growth is stopped with
/// `MemoryError` before memory runs out (`platform::heap`).
#[global_allocator]
static ALLOCATOR: platform::heap::CountingAllocator = platform::heap::CountingAllocator;

/// The version line, as `tensh --version` and the REPL's banner print it.
pub fn version() -> String {
    format!("tensh {}", env!("CARGO_PKG_VERSION"))
}

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod core;
pub mod fuzz;
#[cfg(not(target_arch = "wasm32"))]
pub mod jupyter;
pub mod ops;
pub mod page;
#[cfg(not(target_arch = "wasm32"))]
pub mod page_server;
pub mod platform;
pub mod print;
pub mod python;
pub mod repl;
pub mod script;
pub mod transcript;
