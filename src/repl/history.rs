//! Where the REPL keeps its history: `TENSH_HISTORY` if set, else `tensh/history` in the
//! user's data directory.

use std::path::PathBuf;

/// The history file, if there is anywhere to keep one.
pub fn path() -> Option<PathBuf> {
    match std::env::var_os("TENSH_HISTORY") {
        Some(p) if !p.is_empty() => Some(PathBuf::from(p)),
        _ => dirs::data_dir().map(|d| d.join("tensh").join("history")),
    }
}
