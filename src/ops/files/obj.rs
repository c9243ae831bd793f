//! The values a pickle builds, as Python holds them: shared (`Rc`) so that a memo reference
//! is the same object, never a copy; compared and hashed by Python's rules where a set or a
//! dict key needs it; and taken apart without recursion, so that nesting a file may hold
//! millions of levels deep costs heap, never stack.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use rhai::Dynamic;

use crate::core::error::{Result, TorchError};

/// Which of the dict types the weights-only loader allows a dict is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DictKind {
    /// `{}`.
    Plain,
    /// `collections.OrderedDict`.
    Ordered,
    /// `collections.Counter`.
    Counter,
}

/// A dict's entries in insertion order, keys unique by Python's equality (found through a
/// hash index, so a dict of a million keys builds in linear time).
#[derive(Debug, Default)]
pub struct DictEntries {
    items: Vec<(Obj, Obj)>,
    index: HashMap<HashKey, usize>,
}

impl DictEntries {
    /// The `(key, value)` pairs in insertion order.
    pub fn iter(&self) -> std::slice::Iter<'_, (Obj, Obj)> {
        self.items.iter()
    }

    /// How many keys.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// `d[k] = v` by Python's rules: an equal key keeps its place and takes the new value;
    /// an unhashable key is Python's `TypeError`.
    pub fn set(&mut self, k: Obj, v: Obj) -> Result<()> {
        let key = hash_key(&k)?;
        match self.index.get(&key) {
            Some(&i) => {
                let old = std::mem::replace(&mut self.items[i].1, v);
                drop_deep([old, k]);
            }
            None => {
                self.index.insert(key, self.items.len());
                self.items.push((k, v));
            }
        }
        Ok(())
    }
}

/// A dict, shared.
pub type Entries = Rc<RefCell<DictEntries>>;

/// A value read from a pickle.
#[derive(Debug, Clone)]
pub enum Obj {
    /// `None`.
    None,
    /// A bool.
    Bool(bool),
    /// An integer that fits `i64`.
    Int(i64),
    /// An integer beyond `i64` (its little-endian two's complement bytes).
    BigInt(Rc<Vec<u8>>),
    /// A float.
    Float(f64),
    /// A `str`.
    Str(Rc<str>),
    /// `bytes`.
    Bytes(Rc<Vec<u8>>),
    /// A `bytearray`.
    ByteArray(Rc<Vec<u8>>),
    /// A list (shared: `APPEND` may add to it after it was memoized).
    List(Rc<RefCell<Vec<Obj>>>),
    /// A tuple.
    Tuple(Rc<Vec<Obj>>),
    /// A dict of one of the allowed kinds (shared, as lists are).
    Dict(DictKind, Entries),
    /// A set, its items unique by Python's equality.
    Set(Rc<RefCell<Vec<Obj>>>),
    /// A global the resolver allowed: `module.name`.
    Global(Rc<str>, Rc<str>),
    /// Something the resolver made (a tensor, a storage, a dtype, ...).
    Made(Dynamic),
}

impl Obj {
    /// A new, empty dict of `kind`.
    pub fn dict(kind: DictKind) -> Obj {
        Obj::Dict(kind, Rc::default())
    }

    /// Python's `type(x)` as `<class 'name'>` shows it: `tuple`, `NoneType`, ...
    pub fn type_name(&self) -> String {
        match self {
            Obj::None => "NoneType".into(),
            Obj::Bool(_) => "bool".into(),
            Obj::Int(_) | Obj::BigInt(_) => "int".into(),
            Obj::Float(_) => "float".into(),
            Obj::Str(_) => "str".into(),
            Obj::Bytes(_) => "bytes".into(),
            Obj::ByteArray(_) => "bytearray".into(),
            Obj::List(_) => "list".into(),
            Obj::Tuple(_) => "tuple".into(),
            Obj::Dict(DictKind::Plain, _) => "dict".into(),
            Obj::Dict(DictKind::Ordered, _) => "collections.OrderedDict".into(),
            Obj::Dict(DictKind::Counter, _) => "collections.Counter".into(),
            Obj::Set(_) => "set".into(),
            Obj::Global(_, _) => "type".into(),
            Obj::Made(d) if d.is::<crate::core::memory::storage::Storage>() => {
                "torch.storage.UntypedStorage".into()
            }
            Obj::Made(d) if d.is::<crate::ops::storage::typed::TypedStorage>() => {
                "torch.storage.TypedStorage".into()
            }
            Obj::Made(d) => crate::ops::convert::py_type_name(d),
        }
    }

    /// The items of an iterable (`list(x)` in Python): a tuple's or list's items, a set's,
    /// a dict's keys, a string's characters; `None` for what does not iterate.
    pub fn items(&self) -> Option<Vec<Obj>> {
        Some(match self {
            Obj::List(l) | Obj::Set(l) => l.borrow().clone(),
            Obj::Tuple(t) => (**t).clone(),
            Obj::Dict(_, d) => d.borrow().iter().map(|(k, _)| k.clone()).collect(),
            Obj::Str(s) => s.chars().map(|c| Obj::Str(c.to_string().into())).collect(),
            Obj::Bytes(b) | Obj::ByteArray(b) => b.iter().map(|&x| Obj::Int(x as i64)).collect(),
            _ => return None,
        })
    }

    /// Python's `str(x)` for the values an error message names.
    pub fn py_str(&self) -> String {
        match self {
            Obj::None => "None".into(),
            Obj::Bool(b) => if *b { "True" } else { "False" }.into(),
            Obj::Int(i) => i.to_string(),
            Obj::Float(f) => crate::print::number::float_repr(*f),
            Obj::Str(s) => s.to_string(),
            Obj::Global(m, n) => format!("<class '{m}.{n}'>"),
            Obj::Tuple(t) => {
                let items: Vec<String> = t.iter().map(Obj::py_str).collect();
                if items.len() == 1 {
                    format!("({},)", items[0])
                } else {
                    format!("({})", items.join(", "))
                }
            }
            other => format!("<{} object>", other.type_name()),
        }
    }
}

/// What a hashable value is equal by: Python's `1 == 1.0 == True`, strings and bytes by
/// content, tuples item by item, made objects (tensors) by identity.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HashKey {
    /// `None`.
    None,
    /// An integer, or a bool, or a float with an integer value.
    Int(i64),
    /// An integer beyond `i64`.
    BigInt(Vec<u8>),
    /// A float that is not an integer (by its bits; NaN equals only itself here).
    Float(u64),
    /// A string.
    Str(Rc<str>),
    /// Bytes.
    Bytes(Vec<u8>),
    /// A tuple of hashable items.
    Tuple(Vec<HashKey>),
    /// A tensor, compared by identity.
    Identity(usize),
    /// Another made value (a dtype, a size, a device), compared by what it prints.
    Text(String),
}

/// `unhashable type: 'list'`.
fn unhashable(o: &Obj) -> TorchError {
    TorchError::type_error(format!("unhashable type: '{}'", o.type_name()))
}

/// The key `o` is hashed and compared by, or Python's `TypeError` for a list, dict, set or
/// bytearray (also inside a tuple). Iterative: a tuple nested a million deep is walked
/// with a heap stack.
pub fn hash_key(o: &Obj) -> Result<HashKey> {
    if !matches!(o, Obj::Tuple(_)) {
        return leaf_key(o);
    }
    enum Step<'a> {
        Visit(&'a Obj),
        Close(usize),
    }
    let mut steps = vec![Step::Visit(o)];
    let mut done: Vec<HashKey> = Vec::new();
    while let Some(step) = steps.pop() {
        match step {
            Step::Close(n) => {
                let items = done.split_off(done.len() - n);
                done.push(HashKey::Tuple(items));
            }
            Step::Visit(o) => match o {
                Obj::Tuple(t) => {
                    steps.push(Step::Close(t.len()));
                    steps.extend(t.iter().rev().map(Step::Visit));
                }
                other => done.push(leaf_key(other)?),
            },
        }
    }
    done.pop().ok_or_else(|| unhashable(o))
}

fn leaf_key(o: &Obj) -> Result<HashKey> {
    Ok(match o {
        Obj::None => HashKey::None,
        Obj::Bool(b) => HashKey::Int(*b as i64),
        Obj::Int(i) => HashKey::Int(*i),
        Obj::BigInt(b) => HashKey::BigInt(b.to_vec()),
        Obj::Float(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => HashKey::Int(*f as i64),
        Obj::Float(f) => HashKey::Float(f.to_bits()),
        Obj::Str(s) => HashKey::Str(s.clone()),
        Obj::Bytes(b) => HashKey::Bytes(b.to_vec()),
        Obj::Global(m, n) => HashKey::Str(format!("<class {m}.{n}>").into()),
        Obj::Made(d) => match d.read_lock::<crate::core::tensor::Tensor>() {
            Some(t) => HashKey::Identity(t.id()),
            None => HashKey::Text(d.to_string()),
        },
        Obj::List(_) | Obj::Dict(..) | Obj::Set(_) | Obj::ByteArray(_) | Obj::Tuple(_) => {
            return Err(unhashable(o));
        }
    })
}

/// `d[k] = v` on a shared dict.
pub fn dict_set(d: &Entries, k: Obj, v: Obj) -> Result<()> {
    d.borrow_mut().set(k, v)
}

/// `set(x)`: the first of each group of equal items of the iterable `x`, in order, or
/// `None` when `x` does not iterate. A list is read in place, not copied.
pub fn set_of(x: &Obj) -> Option<Result<Obj>> {
    let mut keys: ahash::AHashSet<HashKey> = ahash::AHashSet::new();
    let mut kept = Vec::new();
    let mut add = |item: &Obj| -> Result<()> {
        if keys.insert(hash_key(item)?) {
            kept.push(item.clone());
        }
        Ok(())
    };
    let added = match x {
        Obj::List(l) | Obj::Set(l) => l.borrow().iter().try_for_each(&mut add),
        Obj::Tuple(t) => t.iter().try_for_each(&mut add),
        other => match other.items() {
            Some(items) => items.iter().try_for_each(&mut add),
            None => return None,
        },
    };
    if let Err(e) = added {
        return Some(Err(e));
    }
    Some(Ok(Obj::Set(Rc::new(RefCell::new(kept)))))
}

/// Drops `roots` and everything only they hold, with a heap stack instead of recursion
/// (`Drop` of a value nested millions deep would overflow the thread's stack).
pub fn drop_deep(roots: impl IntoIterator<Item = Obj>) {
    let mut pending: Vec<Obj> = roots.into_iter().collect();
    while let Some(o) = pending.pop() {
        match o {
            Obj::List(l) | Obj::Set(l) => {
                if let Ok(cell) = Rc::try_unwrap(l) {
                    pending.extend(cell.into_inner());
                }
            }
            Obj::Tuple(t) => {
                if let Ok(items) = Rc::try_unwrap(t) {
                    pending.extend(items);
                }
            }
            Obj::Dict(_, d) => {
                if let Ok(cell) = Rc::try_unwrap(d) {
                    for (k, v) in cell.into_inner().items {
                        pending.push(k);
                        pending.push(v);
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_numbers_are_one_key() {
        let list = Obj::Tuple(Rc::new(vec![
            Obj::Int(1),
            Obj::Float(1.0),
            Obj::Bool(true),
            Obj::Int(2),
        ]));
        let set = set_of(&list).expect("iterable").expect("hashable");
        let Obj::Set(items) = set else {
            panic!("a set")
        };
        assert_eq!(items.borrow().len(), 2);
    }

    #[test]
    fn a_list_inside_a_tuple_is_unhashable() {
        let t = Obj::Tuple(Rc::new(vec![Obj::Int(1), Obj::List(Rc::default())]));
        let e = hash_key(&t).expect_err("unhashable");
        assert_eq!(e.to_string(), "TypeError: unhashable type: 'list'");
    }

    #[test]
    fn dropping_a_value_nested_millions_deep_uses_no_stack() {
        let mut o = Obj::None;
        for _ in 0..2_000_000 {
            o = Obj::Tuple(Rc::new(vec![o]));
        }
        drop_deep([o]);
    }
}
