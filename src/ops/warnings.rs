//! PyTorch's warnings. In a Rhai session each is printed to stderr as
//! `UserWarning: message`, once per session (`warn_once`) or each time (`warn`). While
//! Python runs (`set_collecting`), they are kept instead, for the Python interpreter to
//! take (`take_pending`) and issue through Python's `warnings` filters, as PyTorch's
//! warnings go through CPython's.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

thread_local! {
    static SHOWN: RefCell<HashSet<&'static str>> = RefCell::new(HashSet::new());
    static COLLECTING: Cell<bool> = const { Cell::new(false) };
    static PENDING: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    /// Whether `PENDING` holds any (read after every Python statement: one flag).
    static ANY_PENDING: Cell<bool> = const { Cell::new(false) };
}

/// The most warnings kept for Python between two takes (a loop of ops each warning cannot
/// grow the list without bound; CPython shows such a warning once per line anyway).
const MAX_PENDING: usize = 64;

/// Keeps warnings for Python (`true`) or prints them (`false`); returns the previous
/// setting.
pub fn set_collecting(on: bool) -> bool {
    COLLECTING.with(|c| c.replace(on))
}

/// Whether warnings were kept since the last `take_pending`.
#[inline]
pub fn has_pending() -> bool {
    ANY_PENDING.with(Cell::get)
}

/// The warnings kept since the last call, oldest first.
pub fn take_pending() -> Vec<String> {
    ANY_PENDING.with(|a| a.set(false));
    PENDING.with(|p| std::mem::take(&mut *p.borrow_mut()))
}

/// Warns `message` each time (kept for Python while it runs).
pub fn warn(message: &str) {
    if COLLECTING.with(Cell::get) {
        PENDING.with(|p| {
            let mut p = p.borrow_mut();
            if p.len() < MAX_PENDING {
                p.push(message.to_string());
            }
        });
        ANY_PENDING.with(|a| a.set(true));
        return;
    }
    super::output::warning(&format!("UserWarning: {message}"));
}

/// Warns `message` unless the warning named `key` was already given in this session (a
/// warning PyTorch gives once per process).
pub fn warn_once(key: &'static str, message: &str) {
    let first = SHOWN.with(|s| s.borrow_mut().insert(key));
    if first {
        warn(message);
    }
}

/// A warning PyTorch gives each time, which Python's default filter then shows once per
/// line: kept for Python each time, shown once per session in Rhai (which has no lines to
/// tell apart).
pub fn warn_each_time(key: &'static str, message: &str) {
    if COLLECTING.with(Cell::get) {
        warn(message);
    } else {
        warn_once(key, message);
    }
}

/// PyTorch's warning before `op` (`index_fill_`, `masked_fill_` or `index_put_`, as
/// `core::index::expanded_write_op` names it) writes into a tensor whose elements share
/// memory: deprecated, but done.
pub fn expanded_write(op: &'static str) {
    let (example, line) = match op {
        "index_fill_" => ("tensor[mask] = scalar", 1929),
        "masked_fill_" => ("tensor[mask] = scalar", 2469),
        _ => ("tensor[indices] = tensor", 975),
    };
    warn_each_time(
        op,
        &format!(
            "Use of {op} on expanded tensors is deprecated. Please clone() the tensor before performing this operation. This also applies to advanced indexing e.g. {example} (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:{line}.)"
        ),
    );
}

/// Forgets which warnings were shown (a fresh session).
pub fn reset() {
    SHOWN.with(|s| s.borrow_mut().clear());
    let _ = take_pending();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_takes_what_it_collects_and_the_list_is_bounded() {
        let before = set_collecting(true);
        let _ = take_pending();
        warn_each_time("test-key", "first");
        warn_each_time("test-key", "again");
        warn_once("test-once", "once");
        warn_once("test-once", "not again");
        for _ in 0..100 {
            warn("many");
        }
        let taken = take_pending();
        assert_eq!(taken.len(), MAX_PENDING);
        assert_eq!(&taken[..3], ["first", "again", "once"]);
        assert!(!has_pending());
        set_collecting(before);
    }
}
