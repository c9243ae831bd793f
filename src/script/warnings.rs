//! PyTorch's warnings: printed to stderr as `UserWarning: message`, once per session each.

use std::cell::RefCell;
use std::collections::HashSet;

thread_local! {
    static SHOWN: RefCell<HashSet<&'static str>> = RefCell::new(HashSet::new());
    static IGNORED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Turns every warning off (Python's `warnings.simplefilter("ignore")`) or back on; returns
/// the previous setting.
pub fn set_ignored(on: bool) -> bool {
    IGNORED.with(|i| i.replace(on))
}

/// Whether warnings are turned off.
pub fn ignored() -> bool {
    IGNORED.with(std::cell::Cell::get)
}

/// Shows `message` unless the warning named `key` was already shown in this session (or
/// warnings are turned off).
pub fn warn_once(key: &'static str, message: &str) {
    if ignored() {
        return;
    }
    let first = SHOWN.with(|s| s.borrow_mut().insert(key));
    if first {
        super::output::warning(&format!("UserWarning: {message}"));
    }
}

/// Forgets which warnings were shown (a fresh session).
pub fn reset() {
    SHOWN.with(|s| s.borrow_mut().clear());
    set_ignored(false);
}
