//! Dict and set lookups: a key's hash picks its candidates (`python::value::dict`, and a
//! set's probe run in `python::value::set`), and only those are compared by Python's
//! equality, so a lookup costs the same with ten keys as with a million. The set operations
//! follow CPython's algorithms, so their results iterate in CPython's order.

use std::cell::RefCell;
use std::rc::Rc;

use super::{Flow, Interpreter};
use crate::python::value::dict::{Dict, NoHash, key_hash};
use crate::python::value::set::{Probe, SetTable};
use crate::python::value::{DictEntries, SetItems, Value};

impl Interpreter {
    /// The hash of `key`, or Python's error for a key that has none.
    pub(super) fn hash_of_key(&mut self, key: &Value) -> Flow<i64> {
        if let Some(class) = Self::class_of_instance(key) {
            return self.instance_hash(key, &class);
        }
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

    /// The hash of an instance of a class of a statement: its `__hash__`'s, the identity's
    /// when none is defined, unhashable when `__hash__` is `None` (as a class defining
    /// `__eq__` alone has it, `class_statement`).
    fn instance_hash(
        &mut self,
        key: &Value,
        class: &Rc<crate::python::value::class::Class>,
    ) -> Flow<i64> {
        let unhashable =
            |me: &Self| me.raise("TypeError", format!("unhashable type: '{}'", class.name));
        match class.find("__hash__") {
            Some((Value::None, _)) => unhashable(self),
            Some(_) => match self.special(key, "__hash__", Vec::new())? {
                Some(Value::Int(h)) => Ok(if h == -1 { -2 } else { h }),
                Some(Value::Bool(b)) => Ok(b as i64),
                Some(Value::BigInt(h)) => Ok(crate::python::hash::long(&h)),
                _ => self.raise("TypeError", "__hash__ method should return an integer"),
            },
            None => match Self::base_value(key) {
                Some(base) => self.hash_of_key(&base),
                None => Ok(super::classes::identity_hash(key)),
            },
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

    /// The place of the item equal to `item` in `set`, with `item`'s hash and the probe
    /// run that looked (made again if a comparison changed the set meanwhile).
    fn set_place(&mut self, set: &SetItems, item: &Value) -> Flow<(i64, Probe, Option<usize>)> {
        let hash = self.hash_of_key(item)?;
        loop {
            let probe = set.borrow().probe(hash);
            let mut found = None;
            for (place, present) in &probe.candidates {
                if self.same_key(present, item)? {
                    found = Some(*place);
                    break;
                }
            }
            if set.borrow().version() == probe.version {
                return Ok((hash, probe, found));
            }
        }
    }

    /// Whether `set` holds an item equal to `item`.
    pub(super) fn set_contains(&mut self, set: &SetItems, item: &Value) -> Flow<bool> {
        Ok(self.set_place(set, item)?.2.is_some())
    }

    /// Adds `item` to `set` unless an equal item is there (which stays).
    pub(super) fn set_add(&mut self, set: &SetItems, item: Value) -> Flow<()> {
        if let (hash, probe, None) = self.set_place(set, &item)? {
            set.borrow_mut().insert(&probe, hash, item);
        }
        Ok(())
    }

    /// Removes the item equal to `item` from `set`; whether there was one.
    pub(super) fn set_remove(&mut self, set: &SetItems, item: &Value) -> Flow<bool> {
        match self.set_place(set, item)? {
            (_, _, Some(place)) => Ok(set.borrow_mut().remove_at(place).is_some()),
            _ => Ok(false),
        }
    }

    /// Adds the items of `source` to `set` as CPython's `set.update` does: another set's
    /// table copied into an empty one, a dict's keys after making room for them, anything
    /// else item by item.
    pub(super) fn set_update(&mut self, set: &SetItems, source: &Value) -> Flow<()> {
        match source {
            Value::Set(other) => {
                if Rc::ptr_eq(set, other) {
                    return Ok(());
                }
                let other = other.borrow().clone();
                if set.borrow_mut().merge_into_empty(&other) {
                    return Ok(());
                }
                set.borrow_mut().reserve_for(other.len());
                for item in other.items() {
                    self.set_add(set, item)?;
                }
                Ok(())
            }
            Value::Dict(d) => {
                let keys = d.borrow().keys();
                set.borrow_mut().reserve_for(keys.len());
                for k in keys {
                    self.set_add(set, k)?;
                }
                Ok(())
            }
            other => {
                let mut items = self.iter_of(other)?;
                while let Some(item) = self.next_of(&mut items)? {
                    self.set_add(set, item)?;
                }
                Ok(())
            }
        }
    }

    /// A copy of `set` (CPython's: the table copied).
    pub(super) fn set_copy(&mut self, set: &SetItems) -> Flow<SetItems> {
        let copy: SetItems = Rc::new(RefCell::new(SetTable::new()));
        self.set_update(&copy, &Value::Set(set.clone()))?;
        Ok(copy)
    }

    /// `set & other` / `set.intersection(other)`, its items in CPython's order (a set's
    /// smaller operand walked, the larger asked).
    pub(super) fn set_intersection(&mut self, set: &SetItems, other: &Value) -> Flow<SetItems> {
        let result: SetItems = Rc::new(RefCell::new(SetTable::new()));
        match other {
            Value::Set(o) => {
                let (walked, asked) = if o.borrow().len() > set.borrow().len() {
                    (set, o)
                } else {
                    (o, set)
                };
                let items = walked.borrow().items();
                for item in items {
                    if self.set_contains(asked, &item)? {
                        self.set_add(&result, item)?;
                    }
                }
            }
            other => {
                let mut items = self.iter_of(other)?;
                while let Some(item) = self.next_of(&mut items)? {
                    if self.set_contains(set, &item)? {
                        self.set_add(&result, item)?;
                    }
                }
            }
        }
        Ok(result)
    }

    /// `set ^ other` / `set.symmetric_difference(other)`: a copy of `set`, then each item
    /// of `other` taken out if there and put in if not, as CPython's update runs.
    pub(super) fn set_symmetric_difference(
        &mut self,
        set: &SetItems,
        other: &Value,
    ) -> Flow<SetItems> {
        let result = self.set_copy(set)?;
        let mut items = self.iter_of(other)?;
        while let Some(item) = self.next_of(&mut items)? {
            if !self.set_remove(&result, &item)? {
                self.set_add(&result, item)?;
            }
        }
        Ok(result)
    }

    /// `set - other` / `set.difference(other)`, its items in CPython's order.
    pub(super) fn set_difference(&mut self, set: &SetItems, other: &Value) -> Flow<SetItems> {
        let other_len = match other {
            Value::Set(o) => Some(o.borrow().len()),
            Value::Dict(d) => Some(d.borrow().len()),
            _ => None,
        };
        match other_len {
            Some(n) if set.borrow().len() >> 2 <= n => {
                let result: SetItems = Rc::new(RefCell::new(SetTable::new()));
                let items = set.borrow().items();
                for item in items {
                    if !self.contains(other, &item)? {
                        self.set_add(&result, item)?;
                    }
                }
                Ok(result)
            }
            _ => {
                // A copy with the other's items taken out.
                let result = self.set_copy(set)?;
                let mut items = self.iter_of(other)?;
                while let Some(item) = self.next_of(&mut items)? {
                    self.set_remove(&result, &item)?;
                }
                Ok(result)
            }
        }
    }

    /// A set of `items` added in order (a set display, a set comprehension).
    pub(super) fn set_of(&mut self, items: Vec<Value>) -> Flow<SetItems> {
        let set: SetItems = Rc::new(RefCell::new(SetTable::new()));
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
