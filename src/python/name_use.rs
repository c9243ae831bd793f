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
}
