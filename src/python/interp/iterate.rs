//! Iteration (`for`, unpacking, `list(x)`, comprehensions) and truth values.

use std::rc::Rc;

use rhai::Dynamic;

use super::{Flow, Interpreter};
use crate::python::convert::{Arrays, from_dynamic};
use crate::python::host::HostCall;
use crate::python::value::{Seq, Value};

/// The most items a Python list made by iterating may hold here (`list(range(10**12))`
/// raises `MemoryError` rather than filling the machine).
const MAX_ITEMS: usize = 1 << 28;

/// An iteration in progress.
pub enum PyIter {
    /// A range's next value, its end and step.
    Range(i64, i64, i64),
    /// Items already made, and the next one's place.
    Items(Rc<Seq>, usize),
    /// A list, read live (items appended while iterating are seen, as in Python).
    List(crate::python::value::Items, usize),
    /// An iterator value (shared: what this loop takes, others do not see).
    Shared(Rc<std::cell::RefCell<std::vec::IntoIter<Value>>>),
    /// A tensor's rows: the tensor, the next row and the count.
    Rows(Dynamic, i64, i64),
}

impl Interpreter {
    /// Starts iterating over `v`.
    pub(super) fn iter_of(&mut self, v: &Value) -> Flow<PyIter> {
        Ok(match v {
            Value::Range(start, stop, step) => PyIter::Range(*start, *stop, *step),
            Value::List(items) => PyIter::List(items.clone(), 0),
            Value::Tuple(items) => PyIter::Items(items.clone(), 0),
            Value::Set(items) => PyIter::Items(Rc::new(Seq(items.borrow().keys())), 0),
            Value::Dict(entries) => {
                let keys: Vec<Value> = entries.borrow().iter().map(|(k, _)| k.clone()).collect();
                PyIter::Items(Rc::new(Seq(keys)), 0)
            }
            Value::Str(s) => {
                let chars: Vec<Value> = s.chars().map(|c| Value::str(c.to_string())).collect();
                PyIter::Items(Rc::new(Seq(chars)), 0)
            }
            Value::Iterator(it) => PyIter::Shared(it.clone()),
            Value::Host(d) if d.is::<crate::core::tensor::Tensor>() => {
                let t = d.clone_cast::<crate::core::tensor::Tensor>();
                if t.ndim() == 0 {
                    return self.raise("TypeError", "iteration over a 0-d tensor");
                }
                PyIter::Rows(d.clone(), 0, t.sizes()[0])
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

    /// The next item, or `None` at the end.
    pub(super) fn next_of(&mut self, it: &mut PyIter) -> Flow<Option<Value>> {
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
            PyIter::Shared(it) => it.borrow_mut().next(),
            PyIter::Rows(t, i, n) => {
                if *i >= *n {
                    return Ok(None);
                }
                let row = self
                    .host
                    .get_item(t.clone(), Dynamic::from(*i))
                    .map_err(|e| self.throw(e))?;
                *i += 1;
                Some(Value::Host(row))
            }
        })
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
            Value::Tuple(items) => !items.is_empty(),
            Value::Dict(entries) => !entries.borrow().is_empty(),
            Value::Range(start, stop, step) => {
                if *step > 0 {
                    start < stop
                } else {
                    start > stop
                }
            }
            Value::Host(d) if d.is::<crate::core::tensor::Tensor>() => {
                let t = d.clone_cast::<crate::core::tensor::Tensor>();
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
                let call = HostCall::positional(Some(d.clone()), Vec::new());
                let item = self.host.call("item", call).map_err(|e| self.throw(e))?;
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
            _ => true,
        })
    }
}
