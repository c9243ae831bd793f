//! What a function's body does with names, found once per definition site.

use std::collections::HashSet;
use std::rc::Rc;

/// What a function's body does with names, found once when the function is defined.
#[derive(Default)]
pub struct NameUse {
    /// Names the body assigns (its locals, parameters included), less those declared
    /// `global` or `nonlocal`.
    pub locals: HashSet<Rc<str>>,
    /// Names declared `global`.
    pub globals: HashSet<Rc<str>>,
    /// Names declared `nonlocal`.
    pub nonlocals: HashSet<Rc<str>>,
    /// The statements of the body (by address) that hold a `yield` outside any scope of
    /// their own: a function with any is a generator function.
    pub yielding: HashSet<usize>,
}

impl NameUse {
    /// Whether calling the function makes a generator (its body yields).
    pub fn is_generator(&self) -> bool {
        !self.yielding.is_empty()
    }
}
