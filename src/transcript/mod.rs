//! `tensh test`: transcript tests. Markdown files' ```` ```tensh ```` blocks (and
//! ```` ```rhai ```` blocks with prompts) and `.tensh` files are Rhai sessions,
//! ```` ```pycon ```` blocks (and ```` ```python ```` blocks with prompts) and `.pycon` files
//! Python sessions, whose output is checked exactly by the rules of `matching` (`[..]` and
//! doctest's `...` and elided tracebacks); a mismatch shows a unified diff, and `--bless`
//! writes the actual output back. Each entry runs within a time limit.

pub mod check;
#[cfg(not(target_arch = "wasm32"))]
pub mod command;
#[cfg(not(target_arch = "wasm32"))]
pub mod deadline;
pub mod exercise;
pub mod matching;
pub mod parse;
pub mod unified_diff;
