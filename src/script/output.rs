//! Where a session's text goes: `print` to stdout, warnings and errors to stderr. Stdout is
//! flushed before anything goes to stderr so the two interleave as written.

use std::io::Write;

/// Writes one line of `print` output.
pub fn print_line(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
}

/// Writes a warning line to stderr (after flushing stdout).
pub fn warning(text: &str) {
    let _ = std::io::stdout().flush();
    eprintln!("{text}");
}
