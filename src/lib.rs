//! tensh: a REPL and script runner, scripted in Rhai, over a Rust re-implementation of
//! PyTorch's strided tensor memory model.
//!
//! Layers depend one way: `core` ← `print` ← `script` ← `repl` ← `cli`.

#![warn(missing_docs)]

pub mod cli;
pub mod core;
pub mod print;
pub mod repl;
pub mod script;
pub mod transcript;
