//! PyTorch's warnings: printed to stderr as `UserWarning: message`, once per session each.

use std::cell::RefCell;
use std::collections::HashSet;

thread_local! {
    static SHOWN: RefCell<HashSet<&'static str>> = RefCell::new(HashSet::new());
}

/// Shows `message` unless the warning named `key` was already shown in this session.
pub fn warn_once(key: &'static str, message: &str) {
    let first = SHOWN.with(|s| s.borrow_mut().insert(key));
    if first {
        super::output::warning(&format!("UserWarning: {message}"));
    }
}

/// Forgets which warnings were shown (a fresh session).
pub fn reset() {
    SHOWN.with(|s| s.borrow_mut().clear());
}
