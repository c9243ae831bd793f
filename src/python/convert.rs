//! Python values to the Rhai values tensh's ops take, and back.
//!
//! Python's containers cross as Rhai arrays and maps; `None` is `()`; numbers are numbers.
//! An array coming back is a `tuple` (as `stride()`, `split` and every op returning several
//! values give in Python) unless the op builds Python lists (`tolist()`, `torch.load`).

use rhai::{Array, Dynamic, Map};

use super::exception::PyException;
use super::value::Value;
use crate::ops::values::PyComplex;

/// How arrays coming back from an op read in Python.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrays {
    /// As tuples (the default: ops return tuples).
    Tuples,
    /// As lists (`tolist()`, `torch.load`).
    Lists,
}

/// The Rhai value an op reads for `v`.
pub fn to_dynamic(v: &Value) -> Result<Dynamic, PyException> {
    Ok(match v {
        Value::None => Dynamic::UNIT,
        Value::Bool(b) => Dynamic::from(*b),
        Value::Int(i) => Dynamic::from(*i),
        // PyTorch's words where such an int reaches a tensor (`torch.tensor([2**63])`).
        Value::BigInt(_) => {
            return Err(PyException::new(
                "ValueError",
                "Overflow when unpacking long long",
            ));
        }
        Value::Float(f) => Dynamic::from(*f),
        Value::Complex(c) => Dynamic::from(PyComplex(*c)),
        Value::Str(s) => Dynamic::from(s.to_string()),
        Value::List(items) => Dynamic::from(array(&items.borrow())?),
        Value::Set(items) => Dynamic::from(array(&items.borrow().items())?),
        Value::DictView(kind, entries) => Dynamic::from(array(&kind.items(&entries.borrow()))?),
        Value::Tuple(items) => {
            // Marked, so that a message names it as Python does.
            let mut d = Dynamic::from(array(items)?);
            d.set_tag(crate::ops::convert::TUPLE_TAG.into());
            d
        }
        Value::Range(start, stop, step) => {
            let items: Vec<Value> = range_items(*start, *stop, *step).map(Value::Int).collect();
            Dynamic::from(array(&items)?)
        }
        Value::Dict(entries) => {
            let mut map = Map::new();
            for (k, v) in entries.borrow().iter() {
                let Value::Str(key) = k else {
                    return Err(PyException::new(
                        "TypeError",
                        format!(
                            "tensh passes dicts with str keys to torch functions; this one has a key of type '{}'",
                            k.type_name()
                        ),
                    ));
                };
                map.insert(key.as_ref().into(), to_dynamic(v)?);
            }
            Dynamic::from(map)
        }
        Value::Tensor(t) => Dynamic::from(t.clone()),
        Value::Host(d) => d.clone(),
        // An instance of a class deriving from a builtin type (an `IntEnum` member, a
        // `dict` subclass) is its value to PyTorch, as to CPython's argument parser.
        Value::Instance(i) if let Some(base) = &i.base => to_dynamic(base)?,
        other => {
            return Err(PyException::new(
                "TypeError",
                format!(
                    "tensh cannot pass a Python '{}' to a torch function",
                    other.type_name()
                ),
            ));
        }
    })
}

/// The items of `range(start, stop, step)` (`step` is never 0).
pub fn range_items(start: i64, stop: i64, step: i64) -> impl Iterator<Item = i64> {
    let mut at = start;
    std::iter::from_fn(move || {
        let more = if step > 0 { at < stop } else { at > stop };
        if !more {
            return None;
        }
        let v = at;
        at = at.saturating_add(step);
        if at == v {
            // Saturated: the next item would leave 64 bits.
            at = stop;
        }
        Some(v)
    })
}

fn array(items: &[Value]) -> Result<Array, PyException> {
    items.iter().map(to_dynamic).collect()
}

/// The Python value for what an op returned.
pub fn from_dynamic(d: Dynamic, arrays: Arrays) -> Value {
    use std::any::TypeId;
    // The value's type is read once (Rhai's `as_int` and the like name the type when they
    // fail, and most results are tensors or other tensh values).
    let id = d.type_id();
    if id == TypeId::of::<crate::core::tensor::Tensor>() {
        return Value::host(d);
    }
    if id == TypeId::of::<()>() {
        return Value::None;
    }
    if id == TypeId::of::<bool>() {
        return Value::Bool(d.as_bool().unwrap_or_default());
    }
    if id == TypeId::of::<rhai::INT>() {
        return Value::Int(d.as_int().unwrap_or_default());
    }
    if id == TypeId::of::<rhai::FLOAT>() {
        return Value::Float(d.as_float().unwrap_or_default());
    }
    if id == TypeId::of::<PyComplex>() {
        return Value::Complex(d.cast::<PyComplex>().0);
    }
    if id == TypeId::of::<rhai::ImmutableString>() {
        return Value::str(d.into_string().unwrap_or_default());
    }
    if id == TypeId::of::<Array>() {
        let items: Vec<Value> = d
            .cast::<Array>()
            .into_iter()
            .map(|x| from_dynamic(x, arrays))
            .collect();
        return match arrays {
            Arrays::Tuples => Value::tuple(items),
            Arrays::Lists => Value::list(items),
        };
    }
    if id == TypeId::of::<Map>() {
        let entries = d
            .cast::<Map>()
            .into_iter()
            .map(|(k, v)| (Value::str(k.as_str()), from_dynamic(v, arrays)))
            .collect();
        return Value::dict(entries);
    }
    Value::host(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_cross_both_ways() {
        let v = Value::tuple(vec![Value::Int(2), Value::Float(0.5), Value::None]);
        let d = to_dynamic(&v).unwrap();
        let back = from_dynamic(d.clone(), Arrays::Tuples);
        assert!(matches!(back, Value::Tuple(ref t) if t.len() == 3 && matches!(t[2], Value::None)));
        assert!(matches!(from_dynamic(d, Arrays::Lists), Value::List(_)));
        assert_eq!(range_items(0, 5, 2).collect::<Vec<_>>(), vec![0, 2, 4]);
        assert_eq!(range_items(5, 0, -2).collect::<Vec<_>>(), vec![5, 3, 1]);
        assert_eq!(range_items(i64::MAX - 1, i64::MAX, 5).count(), 1);
        let bad = Value::dict(vec![(Value::Int(1), Value::None)]);
        assert!(to_dynamic(&bad).is_err());
    }

    #[test]
    fn a_tensor_crosses_as_itself() {
        use crate::core::tensor::Tensor;
        let t = crate::core::creation::full(
            &[2],
            crate::core::scalar::Scalar::Float(1.0),
            crate::core::dtype::DType::Float32,
        )
        .unwrap();
        // A tensor the ops give is held as itself, never as a Rhai value.
        let v = from_dynamic(Dynamic::from(t.clone()), Arrays::Tuples);
        assert!(matches!(&v, Value::Tensor(u) if u.ptr_eq(&t)));
        assert!(v.is_host::<Tensor>() && v.is_tensh());
        assert!(!v.is_host::<crate::core::dtype::DType>());
        // Inside a result too (a tuple of tensors).
        let pair = Dynamic::from(vec![Dynamic::from(t.clone()), Dynamic::from(2_i64)]);
        let Value::Tuple(items) = from_dynamic(pair, Arrays::Tuples) else {
            panic!("a tuple")
        };
        assert!(matches!(&items[0], Value::Tensor(u) if u.ptr_eq(&t)));
        // And back to the ops as the same tensor.
        let back = to_dynamic(&v).unwrap();
        assert!(back.read_lock::<Tensor>().unwrap().ptr_eq(&t));
        assert!(
            v.into_host()
                .unwrap()
                .read_lock::<Tensor>()
                .unwrap()
                .ptr_eq(&t)
        );
        // Other tensh values stay Rhai values.
        let dtype = from_dynamic(
            Dynamic::from(crate::core::dtype::DType::Float32),
            Arrays::Tuples,
        );
        assert!(matches!(dtype, Value::Host(_)));
    }
}
