//! Iteration in progress, as Python's iterators hold it: lazily, one item at a time. A range
//! of 10**12 items, `zip`, `map`, `enumerate`, `filter` and a generator expression make
//! each item when it is asked for, so `next(iter(range(10**12)))` or `any(True for _ in
//! range(10**12))` answer at once and in constant memory. The interpreter advances them
//! (`interp::iterate`); this is their state, which `Value::Iterator` holds.

use std::cell::RefCell;
use std::rc::Rc;

use rhai::Dynamic;
use ruff_python_ast::{Comprehension, Expr};

use super::{Items, Scope, Seq, Value};
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
    Rows(Dynamic, i64, i64),
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
    Function(Box<super::generator::GeneratorFrame>),
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
