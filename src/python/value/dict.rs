//! A dict's storage: its entries in insertion order, indexed by their keys' hashes, so a
//! lookup compares only the keys of one hash (as CPython's dict does), not every key.
//!
//! Hashes are computed, and keys compared, by the interpreter (Python's equality can call
//! back into ops); this type keeps the order and the index. Invariant: `index` maps each
//! live entry's key hash to that entry's place, and nothing else; `live` counts the entries
//! that are not holes.

use std::collections::HashMap;

use smallvec::SmallVec;

use super::Value;

/// Places of the entries whose keys share one hash (almost always one).
type Places = SmallVec<[u32; 1]>;

/// Which view of a dict a `Value::DictView` is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ViewKind {
    /// `d.keys()`.
    Keys,
    /// `d.values()`.
    Values,
    /// `d.items()`.
    Items,
}

impl ViewKind {
    /// Its Python type's name (`dict_keys`).
    pub fn type_name(self) -> &'static str {
        match self {
            ViewKind::Keys => "dict_keys",
            ViewKind::Values => "dict_values",
            ViewKind::Items => "dict_items",
        }
    }

    /// The view's items now: the keys, the values, or `(key, value)` tuples.
    pub fn items(self, dict: &Dict) -> Vec<Value> {
        match self {
            ViewKind::Keys => dict.keys(),
            ViewKind::Values => dict.values(),
            ViewKind::Items => dict
                .pairs()
                .into_iter()
                .map(|(k, v)| Value::tuple(vec![k, v]))
                .collect(),
        }
    }
}

/// A dict's entries.
#[derive(Clone, Default)]
pub struct Dict {
    /// Entries in insertion order; a removed entry leaves a hole until the next compaction.
    entries: Vec<Option<Entry>>,
    index: HashMap<i64, Places, ahash::RandomState>,
    live: usize,
}

/// One key, its hash and its value.
#[derive(Clone)]
struct Entry {
    hash: i64,
    key: Value,
    value: Value,
}

impl Dict {
    /// An empty dict.
    pub fn new() -> Dict {
        Dict::default()
    }

    /// A dict of `pairs`, whose keys are hashable and distinct.
    pub fn from_distinct(pairs: Vec<(Value, Value)>) -> Dict {
        let mut d = Dict::new();
        for (k, v) in pairs {
            d.push(key_hash(&k).unwrap_or(0), k, v);
        }
        d
    }

    /// How many keys.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// The places of the entries whose keys hash to `hash` (candidates for an equal key).
    pub fn places(&self, hash: i64) -> Places {
        self.index.get(&hash).cloned().unwrap_or_default()
    }

    /// The key at `place` (one `places` gave).
    pub fn key_at(&self, place: u32) -> Option<&Value> {
        self.entry(place).map(|e| &e.key)
    }

    /// The value at `place`.
    pub fn value_at(&self, place: u32) -> Option<&Value> {
        self.entry(place).map(|e| &e.value)
    }

    fn entry(&self, place: u32) -> Option<&Entry> {
        self.entries.get(place as usize)?.as_ref()
    }

    /// Replaces the value at `place`, keeping the key and its place in the order.
    pub fn set_value_at(&mut self, place: u32, value: Value) {
        if let Some(Some(e)) = self.entries.get_mut(place as usize) {
            e.value = value;
        }
    }

    /// Adds `key` (hashing to `hash`, and equal to no key present) with `value`, last.
    pub fn push(&mut self, hash: i64, key: Value, value: Value) {
        let place = self.entries.len() as u32;
        self.entries.push(Some(Entry { hash, key, value }));
        self.index.entry(hash).or_default().push(place);
        self.live += 1;
    }

    /// Removes the entry at `place`, returning its key and value.
    pub fn remove_at(&mut self, place: u32) -> Option<(Value, Value)> {
        let e = self.entries.get_mut(place as usize)?.take()?;
        if let Some(places) = self.index.get_mut(&e.hash) {
            places.retain(|p| *p != place);
            if places.is_empty() {
                self.index.remove(&e.hash);
            }
        }
        self.live -= 1;
        // Holes at the end go at once (`popitem` in a loop stays linear).
        while matches!(self.entries.last(), Some(None)) {
            self.entries.pop();
        }
        if self.entries.len() > 8 && self.live * 2 < self.entries.len() {
            self.compact();
        }
        Some((e.key, e.value))
    }

    /// The value under the `str` key `name` (an attribute in a namespace or an instance's
    /// `__dict__`): found by the text's hash, as every `str` key is stored.
    pub fn get_str(&self, name: &str) -> Option<&Value> {
        self.str_place(name).and_then(|p| self.value_at(p))
    }

    /// Sets the value under the `str` key `name`, added last when new.
    pub fn set_str(&mut self, name: &str, value: Value) {
        match self.str_place(name) {
            Some(p) => self.set_value_at(p, value),
            None => self.push(crate::python::hash::text(name), Value::str(name), value),
        }
    }

    /// Removes the `str` key `name`, returning its value.
    pub fn remove_str(&mut self, name: &str) -> Option<Value> {
        let p = self.str_place(name)?;
        self.remove_at(p).map(|(_, v)| v)
    }

    fn str_place(&self, name: &str) -> Option<u32> {
        let hash = crate::python::hash::text(name);
        self.index
            .get(&hash)?
            .iter()
            .copied()
            .find(|p| matches!(self.key_at(*p), Some(Value::Str(k)) if &**k == name))
    }

    /// Removes and returns the last entry (`popitem`).
    pub fn pop_last(&mut self) -> Option<(Value, Value)> {
        let place = self.entries.iter().rposition(Option::is_some)?;
        self.remove_at(place as u32)
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        *self = Dict::new();
    }

    /// The keys and values, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&Value, &Value)> {
        self.entries.iter().flatten().map(|e| (&e.key, &e.value))
    }

    /// The keys, in order.
    pub fn keys(&self) -> Vec<Value> {
        self.iter().map(|(k, _)| k.clone()).collect()
    }

    /// The values, in order.
    pub fn values(&self) -> Vec<Value> {
        self.iter().map(|(_, v)| v.clone()).collect()
    }

    /// The `(key, value)` pairs, in order.
    pub fn pairs(&self) -> Vec<(Value, Value)> {
        self.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    /// Every key and value, the dict left empty (for dropping without recursion).
    pub fn take_all(&mut self) -> Vec<Value> {
        let entries = std::mem::take(&mut self.entries);
        self.clear();
        let mut out = Vec::with_capacity(entries.len() * 2);
        for e in entries.into_iter().flatten() {
            out.push(e.key);
            out.push(e.value);
        }
        out
    }

    /// Closes the holes, rebuilding the index.
    fn compact(&mut self) {
        let entries: Vec<Entry> = std::mem::take(&mut self.entries)
            .into_iter()
            .flatten()
            .collect();
        self.index.clear();
        self.live = 0;
        for e in entries {
            self.push(e.hash, e.key, e.value);
        }
    }
}

/// Why a value cannot be a key.
#[derive(Debug, PartialEq)]
pub enum NoHash {
    /// Its type is unhashable (the type's name: `list`).
    Unhashable(String),
    /// Tuples nested deeper than Python's recursion limit.
    TooDeep,
}

/// How deep tuples in a key may nest (CPython hashes deeper ones; past this a key is
/// refused rather than risk the stack).
const DEEPEST_KEY: usize = 100_000;

/// The hash of `key` as a dict key or set item, consistent with how keys compare (`1`,
/// `1.0` and `True` hash alike; a tensor by its identity; another tensh value by its type,
/// as those compare by value).
pub fn key_hash(key: &Value) -> Result<i64, NoHash> {
    nested_key_hash(key, 0)
}

fn nested_key_hash(key: &Value, depth: usize) -> Result<i64, NoHash> {
    use crate::python::hash;
    if depth > DEEPEST_KEY {
        return Err(NoHash::TooDeep);
    }
    Ok(match key {
        Value::None => 0x4e6f_6e65,
        Value::Ellipsis => 0x456c_6c69,
        Value::Bool(b) => *b as i64,
        Value::Int(i) => hash::int(*i as i128),
        Value::BigInt(i) => crate::python::hash::long(i),
        // A NaN equals no key, so any hash serves.
        Value::Float(f) => hash::float(*f).unwrap_or(0),
        Value::Complex(c) => hash::complex(c.re, c.im).unwrap_or(0),
        Value::Str(s) => hash::text(s),
        Value::Tuple(items) => {
            let mut hashes = Vec::with_capacity(items.len());
            for item in items.iter() {
                hashes.push(nested_key_hash(item, depth + 1)?);
            }
            hash::tuple(hashes.into_iter())
        }
        Value::Range(start, stop, step) => hash::tuple([*start, *stop, *step].into_iter()),
        Value::List(_) | Value::Dict(_) | Value::Set(_) => {
            return Err(NoHash::Unhashable(key.type_name()));
        }
        // Keys and items views compare as sets, so they have no hash; a values view is
        // hashed by identity.
        Value::DictView(kind, _) if *kind != ViewKind::Values => {
            return Err(NoHash::Unhashable(key.type_name()));
        }
        Value::DictView(_, entries) => std::rc::Rc::as_ptr(entries) as i64,
        Value::Tensor(t) => t.id() as i64,
        Value::Host(d) => hash::text(d.type_name()),
        Value::Type(t) => hash::text(&t.name),
        Value::Builtin(n) | Value::HostPath(n) | Value::Module(n) => hash::text(n),
        Value::Function(f) => std::rc::Rc::as_ptr(f) as usize as i64,
        Value::Exception(e) => std::rc::Rc::as_ptr(e) as usize as i64,
        other => hash::text(&other.type_name()),
    })
}

impl Drop for Dict {
    fn drop(&mut self) {
        if !self.entries.is_empty() {
            super::drop_iteratively(self.take_all());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_keep_insertion_order_through_removals() {
        let mut d = Dict::new();
        for i in 0..20 {
            d.push(i, Value::Int(i), Value::Int(i * 10));
        }
        for i in (0..20).step_by(2) {
            let place = d.places(i)[0];
            assert!(d.remove_at(place).is_some());
        }
        assert_eq!(d.len(), 10);
        let keys: Vec<i64> = d.keys().iter().filter_map(Value::as_int).collect();
        assert_eq!(keys, (1..20).step_by(2).collect::<Vec<_>>());
        // Compacted: every place the index gives holds its key.
        for i in (1..20).step_by(2) {
            let place = d.places(i)[0];
            assert_eq!(d.key_at(place).and_then(Value::as_int), Some(i));
        }
        assert_eq!(d.pop_last().and_then(|(k, _)| k.as_int()), Some(19));
        assert_eq!(d.len(), 9);
    }
}
