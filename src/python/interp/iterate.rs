//! Iteration (`for`, unpacking, `list(x)`, comprehensions) and truth values.

use std::rc::Rc;

use super::{Flow, Interpreter};
use crate::python::convert::{Arrays, from_dynamic};
use crate::python::host::HostCall;
use crate::python::value::iteration::{GeneratorState, PyIter};
use crate::python::value::{Seq, Value};

/// The most items a Python list made by iterating may hold here (`list(range(10**12))`
/// raises `MemoryError` rather than filling the machine).
const MAX_ITEMS: usize = 1 << 28;

/// How deep iterators may nest their calls of each other (a generator expression over one
/// over one ...): well within the interpreter thread's stack.
const DEEPEST_ITERATION: usize = 100_000;

impl Interpreter {
    /// Starts iterating over `v`.
    pub(super) fn iter_of(&mut self, v: &Value) -> Flow<PyIter> {
        Ok(match v {
            Value::Range(start, stop, step) => PyIter::Range(*start, *stop, *step),
            Value::List(items) => PyIter::List(items.clone(), 0),
            Value::Tuple(items) => PyIter::Items(items.clone(), 0),
            Value::Set(items) => PyIter::Items(Rc::new(Seq(items.borrow().items())), 0),
            Value::DictView(kind, entries) => {
                PyIter::Items(Rc::new(Seq(kind.items(&entries.borrow()))), 0)
            }
            Value::Dict(entries) => {
                let keys: Vec<Value> = entries.borrow().iter().map(|(k, _)| k.clone()).collect();
                PyIter::Items(Rc::new(Seq(keys)), 0)
            }
            Value::Str(s) => PyIter::Chars(s.clone(), 0),
            Value::Iterator(it) => PyIter::Shared(it.clone()),
            Value::Instance(_) | Value::Exception(_) | Value::Class(_)
                if Self::class_of_instance(v).is_some() =>
            {
                return self.object_iteration(v);
            }
            Value::Tensor(t) => {
                if t.ndim() == 0 {
                    return self.raise("TypeError", "iteration over a 0-d tensor");
                }
                PyIter::Rows(t.clone(), 0, t.sizes()[0])
            }
            Value::Host(d) => {
                // Sizes, storages, buffers, named tuples: their items as `tolist()` gives them.
                let call = HostCall::positional(Some(d.clone()), Vec::new());
                let items = self.host.call("tolist", call).map_err(|_| {
                    self.throw(crate::python::exception::PyException::new(
                        "TypeError",
                        format!("'{}' object is not iterable", v.type_name()),
                    ))
                })?;
                match from_dynamic(items, Arrays::Tuples) {
                    Value::Tuple(items) => PyIter::Items(items, 0),
                    other => PyIter::Items(Rc::new(Seq(vec![other])), 0),
                }
            }
            other => {
                return self.raise(
                    "TypeError",
                    format!("'{}' object is not iterable", other.type_name()),
                );
            }
        })
    }

    /// The next item, or `None` at the end. Iterators over iterators (generator expressions
    /// over generator expressions, ...) nest their calls: past `DEEPEST_ITERATION` they raise
    /// `RecursionError` rather than overflow the stack (CPython crashes there).
    pub(super) fn next_of(&mut self, it: &mut PyIter) -> Flow<Option<Value>> {
        if self.iterating > DEEPEST_ITERATION {
            return self.raise("RecursionError", "maximum recursion depth exceeded");
        }
        self.iterating += 1;
        let item = self.next_item(it);
        self.iterating -= 1;
        item
    }

    /// `next_of` without the depth check.
    fn next_item(&mut self, it: &mut PyIter) -> Flow<Option<Value>> {
        Ok(match it {
            PyIter::Range(at, stop, step) => {
                let more = if *step > 0 { *at < *stop } else { *at > *stop };
                if !more {
                    return Ok(None);
                }
                let v = *at;
                *at = at.checked_add(*step).unwrap_or(*stop);
                Some(Value::Int(v))
            }
            PyIter::Items(items, i) => {
                let v = items.get(*i).cloned();
                *i += 1;
                v
            }
            PyIter::List(items, i) => {
                let v = items.borrow().get(*i).cloned();
                *i += 1;
                v
            }
            PyIter::Chars(s, at) => {
                let c = s.get(*at..).and_then(|rest| rest.chars().next());
                if let Some(c) = c {
                    *at += c.len_utf8();
                }
                c.map(|c| Value::str(c.to_string()))
            }
            PyIter::Shared(shared) => {
                let shared = shared.clone();
                let Ok(mut inner) = shared.try_borrow_mut() else {
                    return self.raise("ValueError", "generator already executing");
                };
                self.next_of(&mut inner)?
            }
            PyIter::Rows(t, i, n) => {
                if *i >= *n {
                    return Ok(None);
                }
                let row = self
                    .host
                    .index_tensor(t, &[crate::core::index::IndexItem::Int(*i)])
                    .map_err(|e| self.throw(e))?;
                *i += 1;
                Some(Value::host(row))
            }
            PyIter::Enumerate(items, count) => match self.next_of(items)? {
                Some(x) => {
                    let pair = Value::tuple(vec![Value::Int(*count), x]);
                    *count += 1;
                    Some(pair)
                }
                None => None,
            },
            PyIter::Zip(columns, strict) => {
                let strict = *strict;
                let row = self.zip_row(columns, strict)?;
                if row.is_none() {
                    *it = PyIter::Done;
                }
                row
            }
            PyIter::Map(f, columns) => {
                let f = f.clone();
                match self.zip_row(columns, false)? {
                    Some(Value::Tuple(args)) => {
                        let call = super::expr::CallArgs {
                            args: args.to_vec(),
                            keywords: Vec::new(),
                        };
                        Some(self.call_value(&f, call)?)
                    }
                    _ => {
                        *it = PyIter::Done;
                        None
                    }
                }
            }
            PyIter::Filter(f, items) => {
                let f = f.clone();
                loop {
                    self.check_interrupt()?;
                    let Some(x) = self.next_of(items)? else {
                        break None;
                    };
                    let keep = match &f {
                        Value::None => x.clone(),
                        f => {
                            let call = super::expr::CallArgs {
                                args: vec![x.clone()],
                                keywords: Vec::new(),
                            };
                            self.call_value(f, call)?
                        }
                    };
                    if self.truthy(&keep)? {
                        break Some(x);
                    }
                }
            }
            PyIter::Generator(g) => {
                let item = self.generator_next(g);
                if !matches!(item, Ok(Some(_))) {
                    // Finished, or raised: a generator that raised is finished too.
                    *it = PyIter::Done;
                }
                item?
            }
            PyIter::Function(g) => {
                let item = self.resume_generator(g, Value::None);
                if !matches!(item, Ok(Some(_))) {
                    *it = PyIter::Done;
                }
                item?
            }
            PyIter::Next(object) => {
                let object = object.clone();
                match self.special(&object, "__next__", Vec::new()) {
                    Ok(Some(v)) => Some(v),
                    Ok(None) => {
                        return self.raise(
                            "TypeError",
                            format!("'{}' object is not an iterator", object.type_name()),
                        );
                    }
                    Err(super::Unwind::Raise(e)) if stops(&e) => {
                        *it = PyIter::Done;
                        None
                    }
                    Err(e) => return Err(e),
                }
            }
            PyIter::GetItem(object, i) => {
                let object = object.clone();
                match self.special(&object, "__getitem__", vec![Value::Int(*i)]) {
                    Ok(v) => {
                        *i += 1;
                        v
                    }
                    Err(super::Unwind::Raise(e))
                        if stops(&e)
                            || e.is_instance(&crate::python::types::builtin("IndexError")) =>
                    {
                        *it = PyIter::Done;
                        None
                    }
                    Err(e) => return Err(e),
                }
            }
            PyIter::Done => None,
        })
    }

    /// Starts iterating over an instance of a class of a statement: what its `__iter__`
    /// returns, or its items by `__getitem__` from 0.
    fn object_iteration(&mut self, v: &Value) -> Flow<PyIter> {
        if let Some(it) = self.special(v, "__iter__", Vec::new())? {
            return match &it {
                Value::Iterator(shared) => Ok(PyIter::Shared(shared.clone())),
                _ if Self::has_special(&it, "__next__") => Ok(PyIter::Next(it)),
                other => self.raise(
                    "TypeError",
                    format!(
                        "iter() returned non-iterator of type '{}'",
                        other.type_name()
                    ),
                ),
            };
        }
        if let Some(base) = Self::base_value(v) {
            return self.iter_of(&base);
        }
        if Self::has_special(v, "__getitem__") {
            return Ok(PyIter::GetItem(v.clone(), 0));
        }
        self.raise(
            "TypeError",
            format!("'{}' object is not iterable", v.type_name()),
        )
    }

    /// The next row of `zip` over `columns` (as a tuple), `None` when one runs out; with
    /// `strict`, columns of unequal lengths raise Python's `ValueError`.
    fn zip_row(&mut self, columns: &mut [PyIter], strict: bool) -> Flow<Option<Value>> {
        let mut row = Vec::with_capacity(columns.len());
        for i in 0..columns.len() {
            match self.next_of(&mut columns[i])? {
                Some(x) => row.push(x),
                None if !strict => return Ok(None),
                None if i > 0 => {
                    return self.raise("ValueError", zip_mismatch(i, "shorter"));
                }
                None => {
                    for (j, column) in columns.iter_mut().enumerate().skip(1) {
                        if self.next_of(column)?.is_some() {
                            return self.raise("ValueError", zip_mismatch(j, "longer"));
                        }
                    }
                    return Ok(None);
                }
            }
        }
        if row.is_empty() {
            return Ok(None);
        }
        Ok(Some(Value::tuple(row)))
    }

    /// The next item of a generator expression: the innermost clause advanced, its target
    /// bound and its conditions tested, an exhausted clause left for the one outside it, a
    /// clause entered again evaluating its iterable anew.
    fn generator_next(&mut self, g: &mut GeneratorState) -> Flow<Option<Value>> {
        loop {
            self.check_interrupt()?;
            let depth = g.levels.len();
            let Some(innermost) = g.levels.last_mut() else {
                return Ok(None);
            };
            let Some(item) = self.next_of(innermost)? else {
                g.levels.pop();
                continue;
            };
            let clause = &g.generators[depth - 1];
            self.assign(&clause.target, item, &g.scope)?;
            let mut passes = true;
            for condition in &clause.ifs {
                if !self.eval_truth(condition, &g.scope)? {
                    passes = false;
                    break;
                }
            }
            if !passes {
                continue;
            }
            match g.generators.get(depth) {
                Some(next) => {
                    let iterable = self.eval(&next.iter, &g.scope)?;
                    let it = self.iter_of(&iterable)?;
                    g.levels.push(it);
                }
                None => return Ok(Some(self.eval(g.element, &g.scope)?)),
            }
        }
    }

    /// A generator expression's state: its first iterable evaluated now, in `scope` (as
    /// Python does), the rest as items are asked for.
    pub(super) fn generator(
        &mut self,
        generators: &'static [ruff_python_ast::Comprehension],
        element: &'static ruff_python_ast::Expr,
        scope: &Rc<crate::python::function::Scope>,
    ) -> Flow<Value> {
        let first = self.eval(&generators[0].iter, scope)?;
        let first = self.iter_of(&first)?;
        let inner = crate::python::function::Scope::inside(
            scope,
            crate::python::function::ScopeKind::Comprehension,
        );
        let source = match self.frames.last() {
            Some(frame) => frame.source.clone(),
            None => return self.raise("RuntimeError", "a generator expression outside a frame"),
        };
        Ok(PyIter::Generator(Box::new(GeneratorState {
            generators,
            element,
            scope: inner,
            levels: vec![first],
            source,
        }))
        .into_value())
    }

    /// All items of `v`.
    pub(super) fn collect(&mut self, v: &Value) -> Flow<Vec<Value>> {
        match v {
            Value::List(items) => return Ok(items.borrow().to_vec()),
            Value::Tuple(items) => return Ok(items.to_vec()),
            _ => {}
        }
        let mut it = self.iter_of(v)?;
        let mut out = Vec::new();
        while let Some(x) = self.next_of(&mut it)? {
            if out.len() >= MAX_ITEMS {
                return self.raise(
                    "MemoryError",
                    "tensh's Python lists hold at most 2**28 items",
                );
            }
            if out.len() & 0xffff == 0xffff {
                self.check_interrupt()?;
            }
            out.push(x);
        }
        Ok(out)
    }

    /// `bool(v)`: Python's truth value; a tensor's is its one element's (PyTorch refuses
    /// more or fewer).
    pub(super) fn truthy(&mut self, v: &Value) -> Flow<bool> {
        Ok(match v {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::BigInt(_) => true,
            Value::Float(f) => *f != 0.0,
            Value::Complex(c) => c.re != 0.0 || c.im != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(items) => !items.borrow().is_empty(),
            Value::Set(items) => !items.borrow().is_empty(),
            Value::DictView(_, entries) => !entries.borrow().is_empty(),
            Value::Tuple(items) => !items.is_empty(),
            Value::Dict(entries) => !entries.borrow().is_empty(),
            Value::Range(start, stop, step) => {
                if *step > 0 {
                    start < stop
                } else {
                    start > stop
                }
            }
            Value::Tensor(t) => {
                match t.numel() {
                    1 => {}
                    0 => {
                        return self.raise(
                            "RuntimeError",
                            "Boolean value of Tensor with no values is ambiguous",
                        );
                    }
                    _ => {
                        return self.raise(
                            "RuntimeError",
                            "Boolean value of Tensor with more than one value is ambiguous",
                        );
                    }
                }
                let call = HostCall::positional(None, Vec::new());
                let item = self
                    .host
                    .call_tensor_method("item", t, call)
                    .map_err(|e| self.throw(e))?;
                let item = from_dynamic(item, Arrays::Tuples);
                return self.truthy(&item);
            }
            Value::Host(d) => {
                let call = HostCall::positional(Some(d.clone()), Vec::new());
                match self.host.call("len", call) {
                    Ok(n) => n.as_int() != Ok(0),
                    Err(_) => true,
                }
            }
            Value::Instance(_) => {
                if let Some(b) = self.special(v, "__bool__", Vec::new())? {
                    return match b {
                        Value::Bool(b) => Ok(b),
                        other => self.raise(
                            "TypeError",
                            format!(
                                "__bool__ should return bool, returned {}",
                                other.type_name()
                            ),
                        ),
                    };
                }
                if Self::has_special(v, "__len__") {
                    return Ok(self.length(v)? != 0);
                }
                if let Some(base) = Self::base_value(v) {
                    return self.truthy(&base);
                }
                true
            }
            _ => true,
        })
    }
}

/// CPython's words for `zip(..., strict=True)` over arguments of unequal lengths: argument
/// `at` (0-based) ran out first (`shorter`) or went on after the first ran out (`longer`).
fn zip_mismatch(at: usize, which: &str) -> String {
    let before = if at == 1 {
        "argument 1".to_string()
    } else {
        format!("arguments 1-{at}")
    };
    format!("zip() argument {} is {which} than {before}", at + 1)
}

/// Whether `e` ends an iteration (`StopIteration`).
fn stops(e: &crate::python::exception::PyException) -> bool {
    e.is_instance(&crate::python::types::builtin("StopIteration"))
}
