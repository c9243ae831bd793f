//! Dict and set lookups: a key's hash picks its candidates (`python::value::dict`; a set is a
//! dict of its items), and only those are compared by Python's equality, so a lookup costs
//! the same with ten keys as with a million.

use std::cell::RefCell;
use std::rc::Rc;

use super::{Flow, Interpreter};
use crate::python::value::dict::{Dict, NoHash, key_hash};
use crate::python::value::{DictEntries, Value};

impl Interpreter {
    /// The hash of `key`, or Python's error for a key that has none.
    pub(super) fn hash_of_key(&self, key: &Value) -> Flow<i64> {
        match key_hash(key) {
            Ok(h) => Ok(h),
            Err(NoHash::Unhashable(t)) => {
                self.raise("TypeError", format!("unhashable type: '{t}'"))
            }
            Err(NoHash::TooDeep) => self.raise(
                "RecursionError",
                "maximum recursion depth exceeded while calling a Python object",
            ),
        }
    }

    /// The place of the key equal to `key` in `d`, and `key`'s hash.
    fn dict_place(&mut self, d: &DictEntries, key: &Value) -> Flow<(i64, Option<u32>)> {
        let hash = self.hash_of_key(key)?;
        let places = d.borrow().places(hash);
        for place in places {
            // The dict is not borrowed while keys compare (a comparison may run an op).
            let Some(present) = d.borrow().key_at(place).cloned() else {
                continue;
            };
            if self.same_key(&present, key)? {
                return Ok((hash, Some(place)));
            }
        }
        Ok((hash, None))
    }

    /// Whether two keys of one hash are the same key (the usual ones compared at once).
    fn same_key(&mut self, a: &Value, b: &Value) -> Flow<bool> {
        match (a, b) {
            (Value::Str(x), Value::Str(y)) => Ok(x == y),
            (Value::Int(x), Value::Int(y)) => Ok(x == y),
            _ => self.key_equal(a, b),
        }
    }

    /// `d[key]`, if `d` has the key.
    pub(super) fn dict_get(&mut self, d: &DictEntries, key: &Value) -> Flow<Option<Value>> {
        let (_, place) = self.dict_place(d, key)?;
        Ok(place.and_then(|p| d.borrow().value_at(p).cloned()))
    }

    /// `d[key] = value` (an equal key present keeps its place and its key).
    pub(super) fn dict_set(&mut self, d: &DictEntries, key: Value, value: Value) -> Flow<()> {
        match self.dict_place(d, &key)? {
            (_, Some(place)) => d.borrow_mut().set_value_at(place, value),
            (hash, None) => d.borrow_mut().push(hash, key, value),
        }
        Ok(())
    }

    /// Removes `key` from `d`, returning its value if it was there.
    pub(super) fn dict_remove(&mut self, d: &DictEntries, key: &Value) -> Flow<Option<Value>> {
        let (_, place) = self.dict_place(d, key)?;
        Ok(place
            .and_then(|p| d.borrow_mut().remove_at(p))
            .map(|(_, v)| v))
    }

    /// Adds `item` to the set `set` unless an equal item is there (which stays).
    pub(super) fn set_add(&mut self, set: &DictEntries, item: Value) -> Flow<()> {
        if let (hash, None) = self.dict_place(set, &item)? {
            set.borrow_mut().push(hash, item, Value::None);
        }
        Ok(())
    }

    /// A set of `items` (the first of equal items kept).
    pub(super) fn set_of(&mut self, items: Vec<Value>) -> Flow<DictEntries> {
        let set = self.dict_of(Vec::new())?;
        for item in items {
            self.set_add(&set, item)?;
        }
        Ok(set)
    }

    /// A new dict of `pairs`, a later equal key replacing an earlier one's value.
    pub(super) fn dict_of(&mut self, pairs: Vec<(Value, Value)>) -> Flow<DictEntries> {
        let d = Rc::new(RefCell::new(Dict::new()));
        for (k, v) in pairs {
            self.dict_set(&d, k, v)?;
        }
        Ok(d)
    }
}
