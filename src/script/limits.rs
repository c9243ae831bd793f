//! How large a script's own values may grow. Rhai's strings, arrays and maps are bounded, so
//! `"x".pad(1 << 40, "y")` is an error a script can catch rather than an abort; values tensh
//! makes for a script (`tolist()`, reprs) are checked against the same bounds *before* they
//! are built, so a huge tensor or storage gives `MemoryError` instead of exhausting memory.

use super::errors::RhaiResult;
use crate::core::error::{ErrorKind, TorchError};

/// The longest string: 256 MiB.
pub const MAX_STRING: usize = 1 << 28;
/// The most items in an array: 64 Mi.
pub const MAX_ARRAY: usize = 1 << 26;
/// The most keys in a map: 1 Mi.
pub const MAX_MAP: usize = 1 << 20;

fn memory_error(message: String) -> Box<rhai::EvalAltResult> {
    super::errors::to_rhai(TorchError {
        kind: ErrorKind::Memory,
        message,
    })
}

/// Refuses a list of `n` items (from `what`, such as `tolist()`) larger than an array may be.
pub fn check_list(what: &str, n: usize) -> RhaiResult<()> {
    if n > MAX_ARRAY {
        return Err(memory_error(format!(
            "{what} would make a list of {n} items; a tensh list holds at most {MAX_ARRAY}"
        )));
    }
    Ok(())
}

/// Refuses a repr of `n` items that takes at least `min_chars` characters per item, when it
/// could not fit in a string.
pub fn check_repr(n: usize, min_chars: usize) -> RhaiResult<()> {
    if n.saturating_mul(min_chars) > MAX_STRING {
        return Err(memory_error(format!(
            "printing {n} items needs more than {MAX_STRING} characters, the longest tensh string"
        )));
    }
    Ok(())
}

/// Refuses nested lists of `n` values in all (lists and their items, from `what`, such as
/// `tolist()`) larger than one array may be: memory follows the count, not the depth.
pub fn check_nested(what: &str, n: usize) -> RhaiResult<()> {
    if n > MAX_ARRAY {
        return Err(memory_error(format!(
            "{what} would make {n} lists and items; tensh holds at most {MAX_ARRAY} in one result"
        )));
    }
    Ok(())
}
