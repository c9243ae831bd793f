//! Subscripts: `x[i]`, `x[a:b]`, `x[i] = v`, `del x[i]` on Python's sequences and dicts, and
//! on tensh's values through the engine, each Python index turned into the index form the
//! engine reads (the text of a basic index, `"0, 1:3, None, ..."`, or an array of items when
//! it holds tensors or lists).

use rhai::{Array, Dynamic};

use super::{Flow, Interpreter};
use crate::core::index::IndexItem;
use crate::core::tensor::Tensor;
use crate::ops::tensor::indexing;
use crate::python::convert::{Arrays, from_dynamic, to_dynamic};
use crate::python::exception::PyException;
use crate::python::value::Value;

/// Python's `slice.indices(len)`: the start, stop and step a slice selects in a sequence of
/// `len` items.
fn slice_indices(
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
    len: i64,
) -> Result<(i64, i64, i64), PyException> {
    let step = step.unwrap_or(1);
    if step == 0 {
        return Err(PyException::new("ValueError", "slice step cannot be zero"));
    }
    let clamp = |v: Option<i64>, default: i64| -> i64 {
        match v {
            None => default,
            Some(v) if v < 0 => {
                let v = v.saturating_add(len);
                if v < 0 {
                    if step < 0 { -1 } else { 0 }
                } else {
                    v
                }
            }
            Some(v) if v >= len => {
                if step < 0 {
                    len - 1
                } else {
                    len
                }
            }
            Some(v) => v,
        }
    };
    if step > 0 {
        Ok((clamp(start, 0), clamp(stop, len), step))
    } else {
        Ok((clamp(start, len - 1), clamp(stop, -1), step))
    }
}

/// Where index `i` (negative from the end) falls in `len` items, if inside.
pub(super) fn position(i: i64, len: i64) -> Option<usize> {
    let at = if i < 0 { i.checked_add(len)? } else { i };
    (0..len).contains(&at).then_some(at as usize)
}

/// The positions a slice selects.
fn slice_positions(start: i64, stop: i64, step: i64) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        out.push(i as usize);
        i += step;
    }
    out
}

impl Interpreter {
    /// An index as an integer (`__index__`): ints, bools and one-element integer tensors.
    fn as_index(&mut self, v: &Value, what: &str) -> Flow<i64> {
        match v {
            Value::Int(i) => Ok(*i),
            Value::Bool(b) => Ok(*b as i64),
            // A slice's bound past 64 bits is clamped, as CPython's are; a position is
            // refused in CPython's words.
            Value::BigInt(n) if what == "slice" => Ok(if num_traits::Signed::is_negative(&**n) {
                i64::MIN
            } else {
                i64::MAX
            }),
            Value::BigInt(_) => {
                self.raise("IndexError", "cannot fit 'int' into an index-sized integer")
            }
            Value::Tensor(t) => self.tensor_as_index(t),
            Value::Instance(_) if Self::has_special(v, "__index__") => {
                match self.special(v, "__index__", Vec::new())? {
                    Some(i) => self.as_index(&i, what),
                    None => self.raise("TypeError", "__index__ returned nothing"),
                }
            }
            // An instance of a class deriving from `int` (an `IntEnum` member).
            Value::Instance(i) if matches!(i.base, Some(Value::Int(_) | Value::Bool(_))) => {
                let base = i.base.clone().unwrap_or(Value::None);
                self.as_index(&base, what)
            }
            other => self.raise(
                "TypeError",
                format!(
                    "{what} indices must be integers or slices, not {}",
                    other.type_name()
                ),
            ),
        }
    }

    /// The start, stop and step a slice selects in `len` items.
    fn slice_of(&mut self, parts: &[Value; 3], len: i64) -> Flow<(i64, i64, i64)> {
        let [a, b, c] = self.slice_parts(parts)?;
        self.lift(slice_indices(a, b, c, len))
    }

    /// A slice's three parts as optional integers.
    fn slice_parts(&mut self, parts: &[Value; 3]) -> Flow<[Option<i64>; 3]> {
        let mut out = [None; 3];
        for (i, p) in parts.iter().enumerate() {
            out[i] = match p {
                Value::None => None,
                other => match self.as_index(other, "slice") {
                    Ok(v) => Some(v),
                    Err(_) => {
                        return self.raise(
                            "TypeError",
                            "slice indices must be integers or None or have an __index__ method",
                        );
                    }
                },
            };
        }
        Ok(out)
    }

    /// `container[index]`.
    pub(super) fn get_item(&mut self, container: &Value, index: Value) -> Flow<Value> {
        if let Some(base) = Self::base_value(container)
            && !Self::has_special(container, "__getitem__")
        {
            if matches!(base, Value::Dict(_)) && Self::has_special(container, "__missing__") {
                // A dict subclass's `__missing__` answers a key it lacks.
                let found = match &base {
                    Value::Dict(d) => self.dict_get(d, &index)?,
                    _ => None,
                };
                return match found {
                    Some(v) => Ok(v),
                    None => Ok(self
                        .special(container, "__missing__", vec![index])?
                        .unwrap_or(Value::None)),
                };
            }
            return self.get_item(&base, index);
        }
        if Self::class_of_instance(container).is_some()
            && (!matches!(container, Value::Class(_))
                || Self::has_special(container, "__getitem__"))
        {
            return match self.special(container, "__getitem__", vec![index])? {
                Some(v) => Ok(v),
                None => self.raise(
                    "TypeError",
                    format!("'{}' object is not subscriptable", container.type_name()),
                ),
            };
        }
        if let Value::Type(t) = container
            && t.kind == crate::python::types::TypeKind::Builtin
        {
            // `list[int]` in an annotation: the class itself stands for its alias.
            return Ok(container.clone());
        }
        let what = container.type_name();
        match container {
            Value::List(_) | Value::Tuple(_) | Value::Str(_) | Value::Range(..) => {
                if let Value::Slice(parts) = &index {
                    match container {
                        Value::Range(start, stop, step) => {
                            let len =
                                crate::python::value::iteration::range_len(*start, *stop, *step);
                            let (i, j, k) = self.slice_of(parts, len)?;
                            let at = |n: i64| {
                                let v = *start as i128 + n as i128 * *step as i128;
                                v.clamp(i64::MIN as i128, i64::MAX as i128) as i64
                            };
                            return Ok(Value::Range(at(i), at(j), step.saturating_mul(k)));
                        }
                        Value::Str(s) => {
                            let (s, len) = (s.clone(), s.chars().count() as i64);
                            let (i, j, k) = self.slice_of(parts, len)?;
                            let positions = slice_positions(i, j, k);
                            let text: String = if s.is_ascii() {
                                positions.iter().map(|&p| s.as_bytes()[p] as char).collect()
                            } else {
                                let chars: Vec<char> = s.chars().collect();
                                positions.iter().map(|&p| chars[p]).collect()
                            };
                            return Ok(Value::str(text));
                        }
                        _ => {}
                    }
                    let items: Vec<Value> = self.sequence_items(container)?;
                    let (start, stop, step) = self.slice_of(parts, items.len() as i64)?;
                    let picked: Vec<Value> = slice_positions(start, stop, step)
                        .into_iter()
                        .map(|i| items[i].clone())
                        .collect();
                    // Ranges and strings were sliced above: a list or a tuple is left.
                    return Ok(match container {
                        Value::List(_) => Value::list(picked),
                        _ => Value::tuple(picked),
                    });
                }
                // One item: read in place (a list is not copied to index it, a range not
                // made).
                let i = self.as_index(&index, &what)?;
                if let Value::Range(start, stop, step) = container {
                    // In 64 bits throughout: a range may be longer than a `usize` counts.
                    let len = crate::python::value::iteration::range_len(*start, *stop, *step);
                    let at = if i < 0 { i.checked_add(len) } else { Some(i) };
                    let Some(at) = at.filter(|a| (0..len).contains(a)) else {
                        return self.raise("IndexError", "range object index out of range");
                    };
                    let v = *start as i128 + at as i128 * *step as i128;
                    return Ok(Value::int(v));
                }
                let Some(at) = position(i, self.length(container)?) else {
                    let noun = match container {
                        Value::Str(_) => "string",
                        _ => &what,
                    };
                    return self.raise("IndexError", format!("{noun} index out of range"));
                };
                Ok(match container {
                    Value::List(items) => items.borrow()[at].clone(),
                    Value::Tuple(items) => items[at].clone(),
                    Value::Str(s) => {
                        Value::str(s.chars().nth(at).map(String::from).unwrap_or_default())
                    }
                    _ => Value::None,
                })
            }
            Value::Dict(entries) => {
                if let Some(v) = self.dict_get(entries, &index)? {
                    return Ok(v);
                }
                Err(self.throw(PyException::of_class(
                    crate::python::types::builtin("KeyError"),
                    vec![index],
                )))
            }
            Value::Tensor(t) => {
                let items = self.tensor_index_items(&index)?;
                let r = self.host.index_tensor(t, &items);
                Ok(from_dynamic(self.lift(r)?, Arrays::Tuples))
            }
            Value::Host(d) if d.is::<crate::ops::return_types::ReturnTuple>() => {
                // A named tuple (`torch.return_types.sort`) is indexed as the tuple it is.
                let items = self.collect(container)?;
                self.get_item(&Value::tuple(items), index)
            }
            Value::Host(d) => {
                let i = self.host_index(d, &index)?;
                let r = self.host.get_item(d.clone(), i);
                Ok(from_dynamic(self.lift(r)?, Arrays::Tuples))
            }
            Value::Type(t) if &*t.name == "list" || &*t.name == "tuple" || &*t.name == "dict" => {
                // `list[int]` in annotations.
                Ok(container.clone())
            }
            other => self.raise(
                "TypeError",
                format!("'{}' object is not subscriptable", other.type_name()),
            ),
        }
    }

    /// A sequence's items (a string's characters).
    fn sequence_items(&mut self, v: &Value) -> Flow<Vec<Value>> {
        if let Value::Range(..) = v {
            let n = self.length(v)?;
            if n > 1 << 28 {
                return self.raise(
                    "MemoryError",
                    "tensh's Python indexes ranges of at most 2**28 items",
                );
            }
        }
        self.collect(v)
    }

    /// `container[index] = value`.
    pub(super) fn set_item(&mut self, container: &Value, index: Value, value: Value) -> Flow<()> {
        if let Some(base) = Self::base_value(container)
            && !Self::has_special(container, "__setitem__")
        {
            return self.set_item(&base, index, value);
        }
        if Self::class_of_instance(container).is_some() {
            return match self.special(container, "__setitem__", vec![index, value])? {
                Some(_) => Ok(()),
                None => self.raise(
                    "TypeError",
                    format!(
                        "'{}' object does not support item assignment",
                        container.type_name()
                    ),
                ),
            };
        }
        match container {
            Value::List(items) => {
                let len = items.borrow().len() as i64;
                if let Value::Slice(parts) = &index {
                    let (start, stop, step) = self.slice_of(parts, len)?;
                    let new = self.collect(&value)?;
                    if step == 1 {
                        let stop = stop.max(start);
                        items
                            .borrow_mut()
                            .splice(start as usize..stop as usize, new);
                        return Ok(());
                    }
                    let positions = slice_positions(start, stop, step);
                    if positions.len() != new.len() {
                        return self.raise(
                            "ValueError",
                            format!(
                                "attempt to assign sequence of size {} to extended slice of size {}",
                                new.len(),
                                positions.len()
                            ),
                        );
                    }
                    let mut items = items.borrow_mut();
                    for (p, v) in positions.into_iter().zip(new) {
                        items[p] = v;
                    }
                    return Ok(());
                }
                let i = self.as_index(&index, "list")?;
                let Some(at) = position(i, len) else {
                    return self.raise("IndexError", "list assignment index out of range");
                };
                items.borrow_mut()[at] = value;
                Ok(())
            }
            Value::Dict(entries) => self.dict_set(entries, index, value),
            Value::Tensor(t) => {
                let items = self.tensor_index_items(&index)?;
                let v = self.lift(to_dynamic(&value))?;
                let r = self.host.assign_tensor_index(t, &items, &v);
                self.lift(r)
            }
            Value::Host(d) => {
                let i = self.host_index(d, &index)?;
                let v = self.lift(to_dynamic(&value))?;
                let r = self.host.set_item(d.clone(), i, v);
                self.lift(r)
            }
            other => self.raise(
                "TypeError",
                format!(
                    "'{}' object does not support item assignment",
                    other.type_name()
                ),
            ),
        }
    }

    /// `del container[index]`.
    pub(super) fn delete_item(&mut self, container: &Value, index: Value) -> Flow<()> {
        if let Some(base) = Self::base_value(container)
            && !Self::has_special(container, "__delitem__")
        {
            return self.delete_item(&base, index);
        }
        if Self::class_of_instance(container).is_some() {
            return match self.special(container, "__delitem__", vec![index])? {
                Some(_) => Ok(()),
                None => self.raise(
                    "TypeError",
                    format!(
                        "'{}' object does not support item deletion",
                        container.type_name()
                    ),
                ),
            };
        }
        match container {
            Value::List(items) => {
                let len = items.borrow().len() as i64;
                if let Value::Slice(parts) = &index {
                    let (start, stop, step) = self.slice_of(parts, len)?;
                    let mut positions = slice_positions(start, stop, step);
                    positions.sort_unstable();
                    let mut items = items.borrow_mut();
                    for p in positions.into_iter().rev() {
                        items.remove(p);
                    }
                    return Ok(());
                }
                let i = self.as_index(&index, "list")?;
                let Some(at) = position(i, len) else {
                    return self.raise("IndexError", "list assignment index out of range");
                };
                items.borrow_mut().remove(at);
                Ok(())
            }
            Value::Dict(entries) => {
                if self.dict_remove(entries, &index)?.is_some() {
                    return Ok(());
                }
                Err(self.throw(PyException::of_class(
                    crate::python::types::builtin("KeyError"),
                    vec![index],
                )))
            }
            other => self.raise(
                "TypeError",
                format!(
                    "'{}' object doesn't support item deletion",
                    other.type_name()
                ),
            ),
        }
    }

    /// The engine's index form of a Python index into the tensh value `target`.
    fn host_index(&mut self, target: &Dynamic, index: &Value) -> Flow<Dynamic> {
        let is_tensor = target.is::<Tensor>();
        match index {
            Value::Tuple(items) => {
                if items.iter().all(|x| self.is_basic(x)) {
                    let mut parts = Vec::with_capacity(items.len());
                    for x in items.iter() {
                        parts.push(self.basic_text(x)?);
                    }
                    return Ok(Dynamic::from(parts.join(", ")));
                }
                let mut array = Array::with_capacity(items.len());
                for x in items.iter() {
                    array.push(self.index_item(x)?);
                }
                Ok(Dynamic::from(array))
            }
            Value::Slice(_) | Value::None | Value::Ellipsis => Ok(Dynamic::from(self.basic_text(index)?)),
            Value::Str(_) if is_tensor => self.raise(
                "IndexError",
                "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got str)",
            ),
            other => self.index_item(other),
        }
    }

    /// The index items of a Python index into a tensor, built from its values as PyTorch
    /// reads them: a tuple is one item per element, anything else one item (a list or a
    /// tensor one advanced index).
    fn tensor_index_items(&mut self, index: &Value) -> Flow<Vec<IndexItem>> {
        match index {
            Value::Tuple(items) => items.iter().map(|x| self.tensor_index_item(x)).collect(),
            Value::List(_) | Value::Host(_) | Value::Tensor(_) => {
                let d = self.lift(to_dynamic(index))?;
                self.lift(indexing::items(&d).map_err(|e| PyException::from_rhai(&e)))
            }
            other => Ok(vec![self.tensor_index_item(other)?]),
        }
    }

    /// One item of a tensor index.
    fn tensor_index_item(&mut self, v: &Value) -> Flow<IndexItem> {
        Ok(match v {
            Value::Int(i) => IndexItem::Int(*i),
            Value::Bool(b) => IndexItem::Bool(*b),
            Value::None => IndexItem::NewAxis,
            Value::Ellipsis => IndexItem::Ellipsis,
            Value::Slice(parts) => {
                let [start, stop, step] = self.slice_parts(parts)?;
                IndexItem::Slice { start, stop, step }
            }
            // A string is a sequence PyTorch tries to make a tensor of.
            Value::Str(_) => return self.raise("TypeError", "new(): invalid data type 'str'"),
            Value::Float(_) | Value::Complex(_) => {
                return self.raise(
                    "IndexError",
                    format!(
                        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got {})",
                        v.type_name()
                    ),
                );
            }
            Value::Range(..) => {
                let items = self.collect(v)?;
                self.advanced_item(&Value::list(items))?
            }
            other => self.advanced_item(other)?,
        })
    }

    /// An index item that is a value of the engine's (a tensor, a list of indices).
    fn advanced_item(&mut self, v: &Value) -> Flow<IndexItem> {
        let d = self.lift(to_dynamic(v))?;
        self.lift(indexing::item(&d).map_err(|e| PyException::from_rhai(&e)))
    }

    /// Whether an index item can be written as basic-index text.
    fn is_basic(&self, v: &Value) -> bool {
        matches!(
            v,
            Value::Int(_) | Value::Slice(_) | Value::None | Value::Ellipsis
        ) && match v {
            Value::Slice(parts) => parts
                .iter()
                .all(|p| matches!(p, Value::Int(_) | Value::None | Value::Bool(_))),
            _ => true,
        }
    }

    /// One item of an index tuple, for the engine's array form.
    fn index_item(&mut self, v: &Value) -> Flow<Dynamic> {
        match v {
            Value::Slice(_) | Value::None | Value::Ellipsis => {
                Ok(Dynamic::from(self.basic_text(v)?))
            }
            Value::Range(..) => {
                let items = self.collect(v)?;
                self.lift(to_dynamic(&Value::list(items)))
            }
            other => self.lift(to_dynamic(other)),
        }
    }

    /// A basic index item as text: `3`, `1:5:2`, `None`, `...`.
    fn basic_text(&mut self, v: &Value) -> Flow<String> {
        Ok(match v {
            Value::Int(i) => i.to_string(),
            Value::None => "None".into(),
            Value::Ellipsis => "...".into(),
            Value::Slice(parts) => {
                let [a, b, c] = self.slice_parts(parts)?;
                let text = |x: Option<i64>| x.map_or(String::new(), |v| v.to_string());
                match c {
                    Some(step) => format!("{}:{}:{}", text(a), text(b), step),
                    None => format!("{}:{}", text(a), text(b)),
                }
            }
            other => self.repr_text(other)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_select_as_python_does() {
        let pick = |a, b, c, n| {
            let (s, e, st) = slice_indices(a, b, c, n).unwrap();
            slice_positions(s, e, st)
        };
        assert_eq!(pick(None, None, None, 4), vec![0, 1, 2, 3]);
        assert_eq!(pick(Some(-2), None, None, 4), vec![2, 3]);
        assert_eq!(pick(None, None, Some(-1), 4), vec![3, 2, 1, 0]);
        assert_eq!(pick(Some(10), Some(-10), Some(-2), 4), vec![3, 1]);
        assert_eq!(pick(Some(1), Some(100), Some(2), 4), vec![1, 3]);
        assert!(slice_indices(None, None, Some(0), 4).is_err());
    }
}
