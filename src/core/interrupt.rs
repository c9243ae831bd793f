//! Ctrl-C, and a heap past its budget, inside one long operation. The interactive session's
//! signal handler sets a flag; the script engine polls it between operations, and long loops
//! (kernels between runs or blocks, random fills, printers, pictures) poll it between blocks
//! with `check`, which unwinds to the session with an `Interrupted` payload (no panic
//! message: `resume_unwind` skips the hook). The session catches it and reports
//! `KeyboardInterrupt`, keeping its variables. The same check stops an operation whose values
//! grow past the heap budget (`platform::heap`) step by step, with an `OutOfMemory` payload the
//! session reports as `MemoryError`, before the process runs out of memory. A value an
//! interrupted operation was making is dropped unfinished; an in-place operation stops part
//! way, as a Python loop over the elements would.
//!
//! Only the thread that turned checking on (the session's) ever unwinds: `check` does
//! nothing on other threads, so a worker thread of a parallel kernel runs to its end.

use std::any::Any;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::platform::heap;

static REQUESTED: AtomicBool = AtomicBool::new(false);

thread_local! {
    static CHECKING: Cell<bool> = const { Cell::new(false) };
}

/// Makes `check` act on this thread (the one running the interactive session).
pub fn check_on_this_thread() {
    CHECKING.with(|c| c.set(true));
}

/// The payload `check` unwinds with after Ctrl-C.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted;

/// The payload `check` unwinds with when the heap has grown past its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfMemory;

/// The message of the `MemoryError` that stops code whose values have grown past the heap
/// budget.
pub const OUT_OF_MEMORY: &str = "the script's values fill three quarters of this machine's \
memory (or of `ulimit -v`); it was stopped before memory ran out";

/// The exception an unwinding that reached a session stands for, as (class, message):
/// `KeyboardInterrupt` for Ctrl-C, `MemoryError` for a heap past its budget, and tensh's
/// `InternalError` for anything else (a bug: no input should panic).
pub fn unwound_exception(payload: &(dyn Any + Send)) -> (&'static str, String) {
    if payload.is::<Interrupted>() {
        return ("KeyboardInterrupt", String::new());
    }
    if payload.is::<OutOfMemory>() {
        return ("MemoryError", OUT_OF_MEMORY.to_string());
    }
    let what = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    (
        "InternalError",
        format!("tensh hit a bug ({what}); please report it"),
    )
}

/// The flag a signal handler sets (and the script engine's progress hook polls).
pub fn flag() -> &'static AtomicBool {
    &REQUESTED
}

/// `unwound_exception` as the line a session reports: `Kind: message`, or `Kind` alone.
pub fn unwound_line(payload: &(dyn Any + Send)) -> String {
    match unwound_exception(payload) {
        (kind, message) if message.is_empty() => kind.to_string(),
        (kind, message) => format!("{kind}: {message}"),
    }
}

/// Asks the running operation to stop (from a signal handler: only an atomic store).
pub fn request() {
    REQUESTED.store(true, Ordering::Relaxed);
}

/// Stops the running operation when an interrupt was requested (unwinding with
/// `Interrupted`, and clearing the request) or the heap is past its budget (unwinding with
/// `OutOfMemory`). Two relaxed loads otherwise.
#[inline]
pub fn check() {
    if REQUESTED.load(Ordering::Relaxed) && CHECKING.with(Cell::get) {
        stop_if_requested(&REQUESTED);
    }
    if heap::over_budget() && CHECKING.with(Cell::get) {
        std::panic::resume_unwind(Box::new(OutOfMemory));
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
    fn a_heap_past_its_budget_unwinds_the_checking_thread() {
        std::thread::spawn(|| {
            check_on_this_thread();
            check();
            heap::set_thread_budget(0);
            let caught = std::panic::catch_unwind(check).expect_err("unwinds");
            assert!(caught.downcast_ref::<OutOfMemory>().is_some());
        })
        .join()
        .expect("the thread's own unwinding was caught");
    }

    #[test]
    fn payloads_are_named_as_exceptions() {
        assert_eq!(
            unwound_exception(&Interrupted),
            ("KeyboardInterrupt", String::new())
        );
        assert_eq!(unwound_exception(&OutOfMemory).0, "MemoryError");
        let (kind, message) = unwound_exception(&"index out of bounds");
        assert_eq!(kind, "InternalError");
        assert!(message.contains("(index out of bounds)"), "{message}");
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
