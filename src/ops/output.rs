//! Where a session's text goes: `print` to stdout, warnings and errors to stderr. Stdout is
//! flushed before anything goes to stderr so the two interleave as written. Tests can capture
//! both into a buffer instead.

use std::cell::{Cell, RefCell};
use std::io::Write;

use owo_colors::OwoColorize;

/// Which stream a line of output belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// `print` and echoed values.
    Stdout,
    /// Warnings and errors.
    Stderr,
}

/// What a session shows, as a front end other than a terminal receives it (the Jupyter
/// kernel): a line of text on a stream (with its `\n`), or a picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown<'a> {
    /// One line of text, ending in `\n`.
    Text(Stream, &'a str),
    /// An SVG document (`explain`'s picture).
    Svg(&'a str),
}

/// A front end's receiver of everything shown on this thread.
pub type Sink = Box<dyn FnMut(Shown<'_>)>;

thread_local! {
    static CAPTURE: RefCell<Option<String>> = const { RefCell::new(None) };
    static SINK: RefCell<Option<Sink>> = const { RefCell::new(None) };
    static COLOR: Cell<bool> = const { Cell::new(false) };
    static RECORD: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Turns colour on or off for warnings and errors (off unless the CLI decides otherwise).
pub fn set_color(on: bool) {
    COLOR.with(|c| c.set(on));
}

/// Whether colour is on.
pub fn color() -> bool {
    COLOR.with(|c| c.get())
}

/// Sends everything this thread shows to `sink` instead of the terminal (and asks for
/// pictures: see `wants_pictures`); `None` goes back to the terminal.
pub fn set_sink(sink: Option<Sink>) {
    SINK.with(|s| *s.borrow_mut() = sink);
}

/// Whether a front end that shows pictures receives this thread's output: `explain` then
/// draws its picture too.
pub fn wants_pictures() -> bool {
    SINK.with(|s| s.borrow().is_some())
}

/// Shows an SVG picture on the front end that wants pictures (nothing otherwise).
pub fn show_svg(svg: &str) {
    to_sink(Shown::Svg(svg));
}

/// Hands `shown` to the sink; false when there is none. A sink that shows output itself
/// (through this module) meets the sink taken out, and that output goes to the terminal.
fn to_sink(shown: Shown<'_>) -> bool {
    let Some(mut sink) = SINK.with(|s| s.borrow_mut().take()) else {
        return false;
    };
    sink(shown);
    SINK.with(|s| {
        let mut slot = s.borrow_mut();
        if slot.is_none() {
            *slot = Some(sink);
        }
    });
    true
}

/// Starts capturing this thread's output (both streams) into a buffer.
pub fn start_capture() {
    CAPTURE.with(|c| *c.borrow_mut() = Some(String::new()));
}

/// Stops capturing and returns what was captured.
pub fn take_capture() -> String {
    CAPTURE.with(|c| c.borrow_mut().take()).unwrap_or_default()
}

/// Starts keeping a copy of every line printed or reported on this thread (the prompt's
/// session log for `:save`); the lines are still written as usual.
pub fn start_recording() {
    RECORD.with(|r| *r.borrow_mut() = Some(String::new()));
}

/// What was recorded since the last call (recording goes on), and whether it was cut: past
/// `RECORD_LIMIT` bytes the text is cut after its last whole line within the limit, so it
/// still ends with a line break.
pub fn take_recorded() -> (String, bool) {
    let text = RECORD.with(|r| {
        r.borrow_mut()
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    });
    if text.len() > RECORD_LIMIT {
        let within = &text[..text.floor_char_boundary(RECORD_LIMIT)];
        let end = within.rfind('\n').map_or(0, |i| i + 1);
        return (text[..end].to_string(), true);
    }
    (text, false)
}

/// Appends `text` to `buf` without its terminal escape sequences (`ESC [ ... letter`: the
/// colours of `explain`, `:why` and errors in a colour terminal).
fn push_without_escapes(buf: &mut String, text: &str) {
    let mut rest = text;
    while let Some(at) = rest.find('\x1b') {
        buf.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        rest = match after.strip_prefix('[') {
            Some(csi) => {
                // Parameters and intermediates, then one final byte in `@`..=`~`.
                let end = csi.find(|c: char| ('@'..='~').contains(&c));
                end.map_or("", |e| &csi[e + 1..])
            }
            None => after,
        };
    }
    buf.push_str(rest);
}

/// Bytes of one input's output the prompt keeps for `:save`: a huge print is shown, not
/// kept (the session would otherwise hold every byte it ever printed).
pub const RECORD_LIMIT: usize = 1 << 20;

fn captured(stream: Stream, text: &str) -> bool {
    captured_raw(stream, &format!("{text}\n"))
}

/// `captured` for text that carries its own line breaks (or ends inside a line).
fn captured_raw(stream: Stream, text: &str) -> bool {
    if SINK.with(|s| s.borrow().is_some()) && to_sink(Shown::Text(stream, text)) {
        return true;
    }
    RECORD.with(|r| {
        if let Some(buf) = r.borrow_mut().as_mut()
            && buf.len() <= RECORD_LIMIT
        {
            // A transcript is plain text whatever the terminal showed: colours are dropped.
            push_without_escapes(buf, text);
        }
    });
    CAPTURE.with(|c| match c.borrow_mut().as_mut() {
        Some(buf) => {
            buf.push_str(text);
            true
        }
        None => false,
    })
}

/// Writes program output that carries its own line breaks (Python's `print(..., end="")`,
/// `sys.stdout.write`), through the same capture, recording and notebook sink as
/// `print_line`.
pub fn print_raw(text: &str) {
    if captured_raw(Stream::Stdout, text) {
        return;
    }
    write_stdout(text, false);
}

/// Writes `text` (and a line break after it if `newline`) to standard output a block at a
/// time, so Ctrl-C stops a long text between blocks; flushes when a line ended.
fn write_stdout(text: &str, newline: bool) {
    let mut out = std::io::stdout().lock();
    let mut rest = text.as_bytes();
    while rest.len() > WRITE_BLOCK {
        let (block, after) = rest.split_at(WRITE_BLOCK);
        if let Err(e) = out.write_all(block) {
            write_failed(&e);
        }
        crate::core::interrupt::check();
        rest = after;
    }
    let end: &[u8] = if newline { b"\n" } else { b"" };
    if let Err(e) = out.write_all(rest).and_then(|_| out.write_all(end)) {
        write_failed(&e);
    }
    if !newline
        && text.contains('\n')
        && let Err(e) = out.flush()
    {
        write_failed(&e);
    }
}

/// Writes text that carries its own line breaks to standard error (a Python traceback),
/// through the same capture, recording and notebook sink as `error`.
pub fn stderr_raw(text: &str) {
    if captured_raw(Stream::Stderr, text) {
        return;
    }
    stderr_text(text);
}

/// Writes one line of `print` output.
pub fn print_line(text: &str) {
    if captured(Stream::Stdout, text) {
        return;
    }
    write_stdout(text, true);
}

/// Bytes written between checks for Ctrl-C.
const WRITE_BLOCK: usize = 1 << 16;

/// Writes `text` to standard output as it is (the command line's own messages).
pub fn stdout_text(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        write_failed(&e);
    }
}

/// Writes `text` to standard error as it is. A failure is ignored: there is nowhere left to
/// report it, and the exit status still tells.
pub fn stderr_text(text: &str) {
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// Standard output is gone (a closed pipe, as in `tensh script.rhai | head -1`) or full (a
/// full disk): Python raises `BrokenPipeError`/`OSError` from `print` and, uncaught, the
/// script ends with it. tensh does the same: the error in Python's words on standard error,
/// and exit status 1. Going on would lose output silently, or never end (`loop { print(1) }`).
fn write_failed(e: &std::io::Error) -> ! {
    stderr_text(&format!("{}\n", python_os_error(e)));
    std::process::exit(1)
}

/// An I/O error as Python prints it: `BrokenPipeError: [Errno 32] Broken pipe`.
pub fn python_os_error(e: &std::io::Error) -> String {
    let code = crate::platform::fs::error_code(e);
    if code == 0 {
        return format!("OSError: {e}");
    }
    let class = match e.kind() {
        std::io::ErrorKind::BrokenPipe => "BrokenPipeError",
        _ => "OSError",
    };
    // Rust appends ` (os error N)` to the system's message; Python puts the number first.
    let text = e.to_string();
    let message = text
        .strip_suffix(&format!(" (os error {code})"))
        .unwrap_or(&text);
    format!("{class}: [Errno {code}] {message}")
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
    if captured(Stream::Stderr, text) {
        return;
    }
    if color() {
        stderr_text(&format!("{}\n", paint(text)));
    } else {
        stderr_text(&format!("{text}\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_text_has_no_colour_escapes() {
        let mut buf = String::new();
        push_without_escapes(
            &mut buf,
            "\x1b[1;31mRuntimeError\x1b[0m: x \x1b[2mdim\x1b[22m end\x1b",
        );
        assert_eq!(buf, "RuntimeError: x dim end");
    }
}
