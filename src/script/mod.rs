//! The Rhai front: a session that compiles and runs Rhai programs over the op table's
//! runtime (`ops::runtime`), the translation of `catch (e)` bindings into Python's words,
//! Rhai's tokens for the prompt, hints for mistyped names, and scripts run from files.

pub mod caught;
pub mod hints;
pub mod script_file;
pub mod session;
pub mod source_excerpt;
pub mod tokens;
