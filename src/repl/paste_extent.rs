//! Which lines arrived as part of one paste, decided by the paste's bytes, not by timing.
//!
//! A transcript pasted without bracketed paste reaches the prompt as one burst of bytes:
//! the editor returns its first line while the rest is already waiting (in the editor's
//! read-ahead buffer and the terminal's input queue). The bytes waiting at that moment are
//! the rest of the paste; a line a person types afterwards, even while the paste's inputs
//! still run, queues behind them. [`PasteExtent`] counts the paste's bytes down as its
//! lines are read, so the prompt skips transcript output only inside the paste, and never a
//! line someone typed.

/// The bytes of the current paste not yet read.
///
/// Invariant: `left` counts only bytes that were waiting when the paste's first line was
/// returned, minus the bytes each later line of the paste took; bytes that arrived later
/// are never added to it.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PasteExtent {
    left: usize,
}

impl PasteExtent {
    /// Accounts for one line read by the editor: `before` is what was waiting when the read
    /// began, `after` what was waiting when it returned. Returns whether the line came
    /// inside a paste, after its first line (so may be a pasted transcript's output).
    pub fn line_read(&mut self, before: usize, after: usize) -> bool {
        if self.left > 0 {
            // Input is read in order: the paste's remaining bytes come first. The line took
            // what the waiting bytes lost during the read (nothing arrives in the
            // microseconds a waiting line takes to read).
            let taken = before.saturating_sub(after).max(1);
            self.left = self.left.saturating_sub(taken);
            return true;
        }
        // A line that arrived with more behind it starts a paste (or several lines typed
        // ahead): its own text decides what it is, the lines behind it belong to the burst.
        self.left = after;
        false
    }

    /// Forgets the paste (after Ctrl-C or Ctrl-D, which end the input being read).
    pub fn end(&mut self) {
        self.left = 0;
    }
}

/// Bytes waiting in the terminal's input queue, not yet read by anyone (0 when standard
/// input is not a terminal or the count cannot be had).
pub fn queued_in_terminal() -> usize {
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one `c_int` through the pointer, which points at `n`, a live
    // local of that type; on an fd that does not support it the call fails and `n` stays 0.
    let ok = unsafe { libc::ioctl(libc::STDIN_FILENO, libc::FIONREAD, &mut n) } == 0;
    if ok { n.max(0) as usize } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paste_is_its_first_lines_bytes_and_no_more() {
        let mut p = PasteExtent::default();
        // ">>> a\r" returned with 14 bytes behind it: "out\r>>> b\rxy\r".
        assert!(!p.line_read(20, 14));
        assert!(p.line_read(14, 10), "out");
        // A person typed "typed\r" (6 bytes) while `>>> b` ran: waiting is now 10 + 6.
        assert!(p.line_read(16, 10), ">>> b");
        assert!(p.line_read(10, 6), "xy");
        assert!(!p.line_read(6, 0), "typed by a person");
    }

    #[test]
    fn a_line_typed_alone_is_never_a_paste() {
        let mut p = PasteExtent::default();
        assert!(!p.line_read(0, 0));
        assert!(!p.line_read(5, 0));
    }

    #[test]
    fn a_line_reaching_past_the_paste_ends_it() {
        let mut p = PasteExtent::default();
        p.line_read(10, 3);
        // The paste's last 3 bytes had no newline; the person's typing completed the line.
        assert!(p.line_read(9, 0));
        assert!(!p.line_read(4, 0));
    }

    #[test]
    fn ending_forgets_the_paste() {
        let mut p = PasteExtent::default();
        p.line_read(10, 8);
        p.end();
        assert!(!p.line_read(8, 0));
    }
}
