//! Iteration in progress, as Python's iterators hold it: lazily, one item at a time. A range
//! of 10**12 items, `zip`, `map`, `enumerate`, `filter` and a generator expression make
//! each item when it is asked for, so `next(iter(range(10**12)))` or `any(True for _ in
//! range(10**12))` answer at once and in constant memory. The interpreter advances them
//! (`interp::iterate`); this is their state, which `Value::Iterator` holds. A generator
//! function's call part way is one of them too (`GeneratorFrame`): the statements it is
//! inside, innermost last, each with what it needs to go on (a loop's iteration, a `try`'s
//! phase, a `with`'s manager), so the interpreter can leave it at a `yield` and come back
//! (`interp::generators`).

use std::cell::RefCell;
use std::rc::Rc;

use ruff_python_ast::{Comprehension, Expr, Stmt, StmtFor, StmtTry, StmtWhile};

use super::flow::{Entered, Unwind};
use super::{Function, Items, PyException, Scope, Seq, Value};
use crate::python::source::SourceText;

/// An iteration in progress.
pub enum PyIter {
    /// A range's next value, its end and step.
    Range(i64, i64, i64),
    /// Items already made, and the next one's place (a tuple's, a snapshot's).
    Items(Rc<Seq>, usize),
    /// A list, read live (items appended while iterating are seen, as in Python).
    List(Items, usize),
    /// A string's characters: the string and the next character's byte offset.
    Chars(Rc<str>, usize),
    /// An iterator value: what this loop takes, others do not see.
    Shared(Rc<RefCell<PyIter>>),
    /// A tensor's rows: the tensor, the next row and the count.
    Rows(crate::core::tensor::Tensor, i64, i64),
    /// `enumerate`: the items and the next count.
    Enumerate(Box<PyIter>, i64),
    /// `zip`: one iteration per argument, and `strict=`.
    Zip(Vec<PyIter>, bool),
    /// `map(f, ...)`: the function and one iteration per argument.
    Map(Value, Vec<PyIter>),
    /// `filter(f, items)`: the function (`None`: the items' truth) and the items.
    Filter(Value, Box<PyIter>),
    /// A generator expression.
    Generator(Box<GeneratorState>),
    /// A generator function's call.
    Function(Box<GeneratorFrame>),
    /// An object whose `__next__` gives the items (what its `__iter__` returned).
    Next(Value),
    /// An object with `__getitem__` but no `__iter__`: the item at 0, 1, ... until
    /// `IndexError`.
    GetItem(Value, i64),
    /// Nothing more.
    Done,
}

/// A generator expression part way: its clauses, the scope its variables live in, and one
/// iteration per clause entered.
pub struct GeneratorState {
    /// The `for` clauses (each with its `if`s).
    pub generators: &'static [Comprehension],
    /// What each item is.
    pub element: &'static Expr,
    /// The comprehension's own scope.
    pub scope: Rc<Scope>,
    /// The iteration of each clause entered so far, outermost first.
    pub levels: Vec<PyIter>,
    /// The source the clauses point into, kept alive while they are used.
    pub source: Rc<SourceText>,
}

/// How many values `range(start, stop, step)` holds (`step` is not zero; past 2**63 - 1
/// values, that many).
pub fn range_len(start: i64, stop: i64, step: i64) -> i64 {
    let (start, stop, step) = (start as i128, stop as i128, step as i128);
    let n = match step {
        0 => 0,
        s if s > 0 => (stop - start + s - 1) / s,
        s => (start - stop - s - 1) / -s,
    };
    n.clamp(0, i64::MAX as i128) as i64
}

impl PyIter {
    /// The name of the iterator's type, as `type(it).__name__` gives it.
    pub fn type_name(&self) -> &'static str {
        match self {
            PyIter::Range(..) => "range_iterator",
            PyIter::Items(..) => "tuple_iterator",
            PyIter::List(..) => "list_iterator",
            PyIter::Chars(..) => "str_ascii_iterator",
            PyIter::Shared(inner) => inner.try_borrow().map_or("generator", |i| i.type_name()),
            PyIter::Rows(..) => "iterator",
            PyIter::Enumerate(..) => "enumerate",
            PyIter::Zip(..) => "zip",
            PyIter::Map(..) => "map",
            PyIter::Filter(..) => "filter",
            PyIter::Generator(_) => "generator",
            PyIter::Next(_) => "iterator",
            PyIter::Function(_) => "generator",
            PyIter::GetItem(..) => "iterator",
            PyIter::Done => "iterator",
        }
    }

    /// An iterator value of `self`.
    pub fn into_value(self) -> Value {
        Value::Iterator(Rc::new(RefCell::new(self)))
    }
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
