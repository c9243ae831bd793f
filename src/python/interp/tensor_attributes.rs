//! Attributes a Python program sets on a tensor (`t.name = "w"`, `t.view = 3`): PyTorch's
//! tensors are Python objects with an instance `__dict__`, so any name that is not one of
//! the tensor's properties can be set, read back, shadow a method and be deleted. They are
//! kept beside the tensor object (not its views, not its storage), by its identity.
//!
//! Invariant: an entry holds a weak handle to its tensor, so the tensor's allocation (and
//! so its identity) is not reused while the entry exists; an entry whose tensor is gone is
//! never read and is swept when the table has doubled since the last sweep.

use std::collections::HashMap;
use std::rc::Rc;

use crate::core::tensor::{Tensor, WeakTensor};
use crate::python::value::Value;

/// One tensor's attributes, in the order they were first set.
type Attributes = Vec<(Rc<str>, Value)>;

/// The attributes set on tensors, by tensor identity.
#[derive(Default)]
pub struct TensorAttributes {
    by_tensor: HashMap<usize, (WeakTensor, Attributes)>,
    /// The table's size after the last sweep.
    swept: usize,
}

impl TensorAttributes {
    /// Whether no tensor has attributes (the common case: nothing to look up).
    pub fn is_empty(&self) -> bool {
        self.by_tensor.is_empty()
    }

    /// `t`'s live attributes, if any.
    fn of(&self, t: &Tensor) -> Option<&Attributes> {
        let (weak, attributes) = self.by_tensor.get(&t.id())?;
        weak.upgrade()
            .is_some_and(|alive| alive.ptr_eq(t))
            .then_some(attributes)
    }

    /// The attribute `name` of `t`, if set.
    pub fn get(&self, t: &Tensor, name: &str) -> Option<Value> {
        self.of(t)?
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| v.clone())
    }

    /// Sets `t`'s attribute `name` (a new one goes last).
    pub fn set(&mut self, t: &Tensor, name: &str, value: Value) {
        if self.of(t).is_none() {
            self.sweep();
            self.by_tensor.insert(t.id(), (t.downgrade(), Vec::new()));
        }
        if let Some((_, attributes)) = self.by_tensor.get_mut(&t.id()) {
            match attributes.iter_mut().find(|(n, _)| &**n == name) {
                Some((_, slot)) => *slot = value,
                None => attributes.push((name.into(), value)),
            }
        }
    }

    /// Deletes `t`'s attribute `name`: whether it was set.
    pub fn delete(&mut self, t: &Tensor, name: &str) -> bool {
        if self.of(t).is_none() {
            return false;
        }
        let Some((_, attributes)) = self.by_tensor.get_mut(&t.id()) else {
            return false;
        };
        let before = attributes.len();
        attributes.retain(|(n, _)| &**n != name);
        attributes.len() != before
    }

    /// `t`'s attributes as `(name, value)` pairs (its `__dict__`).
    pub fn items(&self, t: &Tensor) -> Attributes {
        self.of(t).cloned().unwrap_or_default()
    }

    /// Drops the entries of tensors that are gone, once the table has doubled.
    fn sweep(&mut self) {
        if self.by_tensor.len() < 2 * self.swept.max(64) {
            return;
        }
        self.by_tensor
            .retain(|_, (weak, _)| weak.upgrade().is_some());
        self.swept = self.by_tensor.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_stay_with_their_tensor_and_go_with_it() {
        let mut table = TensorAttributes::default();
        let t = Tensor::zeros(vec![2], crate::core::dtype::DType::Float32).unwrap();
        let v = crate::core::views::view(&t, &[2]).unwrap();
        table.set(&t, "name", Value::str("w"));
        assert!(matches!(table.get(&t, "name"), Some(Value::Str(s)) if &*s == "w"));
        assert!(table.get(&v, "name").is_none(), "a view is another object");
        assert!(table.delete(&t, "name"));
        assert!(!table.delete(&t, "name"));
        // Many short-lived tensors with attributes: the table is swept, not grown forever.
        for _ in 0..10_000 {
            let u = Tensor::zeros(vec![1], crate::core::dtype::DType::Float32).unwrap();
            table.set(&u, "tag", Value::Int(1));
        }
        assert!(table.by_tensor.len() < 1_000, "{}", table.by_tensor.len());
    }
}
