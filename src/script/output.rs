//! Where a session's text goes: `print` to stdout, warnings and errors to stderr. Stdout is
//! flushed before anything goes to stderr so the two interleave as written. Tests can capture
//! both into a buffer instead.

use std::cell::{Cell, RefCell};
use std::io::Write;

use owo_colors::OwoColorize;

thread_local! {
    static CAPTURE: RefCell<Option<String>> = const { RefCell::new(None) };
    static COLOR: Cell<bool> = const { Cell::new(false) };
}

/// Turns colour on or off for warnings and errors (off unless the CLI decides otherwise).
pub fn set_color(on: bool) {
    COLOR.with(|c| c.set(on));
}

/// Whether colour is on.
pub fn color() -> bool {
    COLOR.with(|c| c.get())
}

/// Starts capturing this thread's output (both streams) into a buffer.
pub fn start_capture() {
    CAPTURE.with(|c| *c.borrow_mut() = Some(String::new()));
}

/// Stops capturing and returns what was captured.
pub fn take_capture() -> String {
    CAPTURE.with(|c| c.borrow_mut().take()).unwrap_or_default()
}

fn captured(text: &str) -> bool {
    CAPTURE.with(|c| match c.borrow_mut().as_mut() {
        Some(buf) => {
            buf.push_str(text);
            buf.push('\n');
            true
        }
        None => false,
    })
}

/// Writes one line of `print` output.
pub fn print_line(text: &str) {
    if captured(text) {
        return;
    }
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
}

/// Writes a warning line to stderr (after flushing stdout), yellow when colour is on.
pub fn warning(text: &str) {
    to_stderr(text, |t| t.yellow().to_string());
}

/// Writes an error line to stderr (after flushing stdout), red when colour is on.
pub fn error(text: &str) {
    to_stderr(text, |t| t.red().to_string());
}

fn to_stderr(text: &str, paint: impl Fn(&str) -> String) {
    if captured(text) {
        return;
    }
    let _ = std::io::stdout().flush();
    if color() {
        eprintln!("{}", paint(text));
    } else {
        eprintln!("{text}");
    }
}
