//! A generator function's call part way: the statements it is inside, innermost last, each
//! with what it needs to go on (a loop's iteration, a `try`'s phase, a `with`'s manager),
//! so the interpreter can leave it at a `yield` and come back (`interp::generators`). And
//! the two things such a step holds that statements share with the rest of the interpreter:
//! how a statement ended other than normally (`Unwind`) and what a context manager's
//! `__enter__` did (`Entered`).

use std::rc::Rc;

use ruff_python_ast::{Expr, Stmt, StmtFor, StmtTry, StmtWhile};

use super::iteration::PyIter;
use super::{Function, PyException, Scope, Value};

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
    /// The warnings filter to put back (`warnings.catch_warnings()`).
    pub warnings_ignored: Option<bool>,
}

/// A generator made by calling a generator function.
pub struct GeneratorFrame {
    /// The function called (its name for tracebacks, its source kept alive).
    pub function: Rc<Function>,
    /// The call's scope: its arguments and locals.
    pub scope: Rc<Scope>,
    /// The statements it is inside, outermost first; empty once finished.
    pub steps: Vec<Step>,
    /// Where a value sent in on resuming goes (`x = yield v` suspended there).
    pub receiver: Option<&'static [Expr]>,
    /// Whether it has started (a value other than `None` cannot be sent before).
    pub started: bool,
    /// The exceptions its `except` clauses are handling, kept while it is suspended (a
    /// bare `raise` in a clause re-raises its own).
    pub handling: Vec<Rc<PyException>>,
}

/// One statement a generator is inside.
pub enum Step {
    /// A block of statements and the next one's place.
    Block(&'static [Stmt], usize),
    /// A `for` loop and its iteration (on top: take the next item).
    For(&'static StmtFor, PyIter),
    /// A `while` loop (on top: test again).
    While(&'static StmtWhile),
    /// A `try` statement in one of its phases.
    Try(&'static StmtTry, TryPhase),
    /// A `with` item entered: its manager and what entering it did (on top: exit it).
    With(Value, Entered),
    /// `yield from` an iteration: its items are this generator's until it ends.
    YieldFrom(PyIter),
}

/// Where a `try` statement is.
pub enum TryPhase {
    /// Running its body.
    Body,
    /// Running the handler at this place of its `except` clauses, for this exception.
    Handler(usize, Rc<PyException>),
    /// Running its `else` block.
    Else,
    /// Running its `finally` block; what was unwinding through it goes on after.
    Finally(Option<Unwind>),
}
