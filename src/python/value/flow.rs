//! How a statement ended other than normally (`Unwind`) and what a context manager's
//! `__enter__` did (`Entered`): what the interpreter's statements and a generator's
//! suspended steps (`iteration::GeneratorFrame`) both hold.

use std::rc::Rc;

use super::{PyException, Value};

/// How a statement or expression ended other than normally.
pub enum Unwind {
    /// An exception is propagating.
    Raise(Rc<PyException>),
    /// `break`.
    Break,
    /// `continue`.
    Continue,
    /// `return value`.
    Return(Value),
}

/// What a context manager's `__enter__` did, for its `__exit__`.
pub struct Entered {
    /// The value `as` binds.
    pub value: Value,
    /// The grad and inference settings to put back.
    pub restore: Option<(bool, bool)>,
    /// Whether the block saved the warnings filters, to put back when it ends
    /// (`warnings.catch_warnings()`: the interpreter keeps the saved ones).
    pub warnings_saved: bool,
    /// Whether the block recorded warnings (`catch_warnings(record=True)`): its list is
    /// taken off the interpreter's stack when the block ends.
    pub warnings_recorded: bool,
}
