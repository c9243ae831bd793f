//! Ctrl-C inside one long operation. The interactive session's signal handler sets a flag;
//! the script engine polls it between operations, and long loops (kernels between runs or
//! blocks, random fills, printers) poll it between blocks with `check`, which unwinds to the
//! session with an `Interrupted` payload (no panic message: `resume_unwind` skips the hook).
//! The session catches it and reports `KeyboardInterrupt`, keeping its variables. A value an
//! interrupted operation was making is dropped unfinished; an in-place operation stops part
//! way, as a Python loop over the elements would.
//!
//! Only the thread that turned checking on (the session's) ever unwinds: `check` does
//! nothing on other threads, so a worker thread of a parallel kernel runs to its end.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

thread_local! {
    static CHECKING: Cell<bool> = const { Cell::new(false) };
}

/// Makes `check` act on this thread (the one running the interactive session).
pub fn check_on_this_thread() {
    CHECKING.with(|c| c.set(true));
}

/// The payload `check` unwinds with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted;

/// The flag a signal handler sets (and the script engine's progress hook polls).
pub fn flag() -> &'static AtomicBool {
    &REQUESTED
}

/// Asks the running operation to stop (from a signal handler: only an atomic store).
pub fn request() {
    REQUESTED.store(true, Ordering::Relaxed);
}

/// Stops the running operation when an interrupt was requested: unwinds with `Interrupted`
/// (and clears the request). One relaxed load otherwise.
#[inline]
pub fn check() {
    if REQUESTED.load(Ordering::Relaxed) && CHECKING.with(Cell::get) {
        stop_if_requested(&REQUESTED);
    }
}

/// Unwinds with `Interrupted` if `flag` is set, clearing it.
fn stop_if_requested(flag: &AtomicBool) {
    if flag.swap(false, Ordering::Relaxed) {
        std::panic::resume_unwind(Box::new(Interrupted));
    }
}

/// `check` once every 65,536 calls of a per-element loop (`i` counts the elements).
#[inline]
pub fn check_every(i: usize) {
    if i & 0xffff == 0 {
        check();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_unwinds_once_with_its_payload() {
        // A flag of its own: the process-wide one is shared by tests running alongside.
        let flag = AtomicBool::new(false);
        stop_if_requested(&flag);
        flag.store(true, Ordering::Relaxed);
        let caught = std::panic::catch_unwind(|| stop_if_requested(&flag)).expect_err("unwinds");
        assert!(caught.downcast_ref::<Interrupted>().is_some());
        // The request was used up.
        stop_if_requested(&flag);
    }

    #[test]
    fn other_threads_never_unwind() {
        // This test thread never turned checking on.
        std::thread::spawn(|| {
            REQUESTED.load(Ordering::Relaxed);
            check();
        })
        .join()
        .expect("no unwinding");
    }
}
