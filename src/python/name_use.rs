//! What a function's body does with names, found once per definition site.

use std::collections::HashSet;
use std::rc::Rc;

/// A set of names, hashed with ahash (a function's every read of a name that is not bound
/// yet, a global read from a function, asks `locals`).
pub type Names = HashSet<Rc<str>, ahash::RandomState>;

/// What a function's body does with names, found once when the function is defined.
#[derive(Default)]
pub struct NameUse {
    /// The positional parameters' names (positional-only first), in order: what a call's
    /// positional arguments are bound to, keys shared by every call's scope.
    pub positional: Vec<Rc<str>>,
    /// Names the body assigns (its locals, parameters included), less those declared
    /// `global` or `nonlocal`.
    pub locals: Names,
    /// Names declared `global`.
    pub globals: Names,
    /// Names declared `nonlocal`.
    pub nonlocals: Names,
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
