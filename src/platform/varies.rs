//! Whether the input running now printed something that depends on the run rather than on
//! the code: a clock, a memory address, a seed taken from the clock. The functions that read
//! such a thing for a script (`time.time()`, `timestamp()`, `data_ptr()`, `id()`, a repr
//! holding an address, `torch.seed()`) note it; the prompt takes the note per input, and
//! `:save` writes such an input's output as wildcards, so the transcript it writes passes
//! `tensh test` on the next run too.

use std::cell::Cell;

thread_local! {
    static NOTED: Cell<bool> = const { Cell::new(false) };
}

/// Notes that the running input read something that differs from run to run.
pub fn note() {
    NOTED.with(|n| n.set(true));
}

/// Whether anything was noted since the last call; clears the note.
pub fn take() -> bool {
    NOTED.with(|n| n.replace(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_is_taken_once() {
        let _ = take();
        assert!(!take());
        note();
        assert!(take());
        assert!(!take());
    }
}
