//! `t[...]` and `t[...] = v` on tensors: ints, ranges, index strings (`":, 1:3, None"`),
//! lists and tensors (advanced indexing).

use std::ops::{Range, RangeInclusive};

use rhai::{Array, Dynamic, Engine, EvalAltResult, INT, Position};

use crate::core::creation::tensor_from_data;
use crate::core::index::{IndexItem, Value, index, index_put};
use crate::core::index_parse::{index_tensor_from_data, parse_index};
use crate::core::tensor::Tensor;
use crate::script::convert::{as_scalar, py_type_name, to_data};
use crate::script::errors::{IntoRhai, RhaiResult, type_error};

/// The index items a Rhai index value stands for. An array of numbers is one advanced list;
/// an array holding anything else (strings, tensors, ranges, `()`, arrays) is Python's index
/// tuple, one item per element.
pub fn items(idx: &Dynamic) -> RhaiResult<Vec<IndexItem>> {
    if idx.is_string() {
        let text = idx.to_string();
        // Rhai feeds a property's value back through the indexer with the property's name
        // (`x.shape.len()`); a name is not an index, so say "no such indexer" and Rhai treats
        // the property as read-only.
        if rhai::is_valid_identifier(&text)
            && !matches!(text.as_str(), "None" | "True" | "False" | "Ellipsis")
        {
            return Err(EvalAltResult::ErrorIndexingType(
                format!("Tensor has no property '{text}'"),
                Position::NONE,
            )
            .into());
        }
        return parse_index(&text).rhai();
    }
    if let Some(array) = idx.read_lock::<Array>() {
        if is_index_tuple(&array) {
            let mut out = Vec::with_capacity(array.len());
            for element in array.iter() {
                if element.is_string() {
                    out.extend(items(element)?);
                } else {
                    // An array here is one advanced list, however deeply nested.
                    out.push(item(element)?);
                }
            }
            return Ok(out);
        }
    }
    item(idx).map(|i| vec![i])
}

/// Whether an index array is Python's index tuple rather than one advanced list: it holds an
/// element that is not a number.
fn is_index_tuple(array: &Array) -> bool {
    array.iter().any(|e| e.is::<Array>() || is_tuple_only(e))
}

/// Elements that can only be items of an index tuple, never elements of a list.
fn is_tuple_only(e: &Dynamic) -> bool {
    e.is_string()
        || e.is_unit()
        || e.is::<Tensor>()
        || e.is::<Range<INT>>()
        || e.is::<RangeInclusive<INT>>()
}

/// One index item from a value that is not a string or an index tuple.
fn item(idx: &Dynamic) -> RhaiResult<IndexItem> {
    if let Ok(i) = idx.as_int() {
        return Ok(IndexItem::Int(i));
    }
    if let Some(r) = idx.clone().try_cast::<Range<INT>>() {
        return Ok(IndexItem::Slice {
            start: Some(r.start),
            stop: Some(r.end),
            step: None,
        });
    }
    if let Some(r) = idx.clone().try_cast::<RangeInclusive<INT>>() {
        return Ok(IndexItem::Slice {
            start: Some(*r.start()),
            stop: Some(r.end() + 1),
            step: None,
        });
    }
    if let Ok(b) = idx.as_bool() {
        return Ok(IndexItem::Bool(b));
    }
    if idx.is_unit() {
        return Ok(IndexItem::NewAxis);
    }
    if let Some(t) = idx.clone().try_cast::<Tensor>() {
        return Ok(IndexItem::Tensor(t));
    }
    if idx.is::<Array>() {
        let t = index_tensor_from_data(&to_data(idx)?).rhai()?;
        return Ok(IndexItem::Tensor(t));
    }
    Err(type_error(format!(
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got {})",
        py_type_name(idx)
    )))
}

fn value(v: &Dynamic) -> RhaiResult<Value> {
    if let Some(t) = v.clone().try_cast::<Tensor>() {
        return Ok(Value::Tensor(t));
    }
    if let Some(s) = as_scalar(v) {
        return Ok(Value::Scalar(s));
    }
    if v.is::<Array>() {
        let t = tensor_from_data(&to_data(v)?, None).rhai()?;
        return Ok(Value::Tensor(t));
    }
    Err(type_error(format!(
        "can't assign a {} to a Tensor",
        py_type_name(v)
    )))
}

/// Registers the tensor indexers.
pub fn register(engine: &mut Engine) {
    engine.register_indexer_get(|t: &mut Tensor, idx: Dynamic| -> RhaiResult<Tensor> {
        let out = index(t, &items(&idx)?).rhai()?;
        Ok(out)
    });
    engine.register_indexer_set(
        |t: &mut Tensor, idx: Dynamic, v: Dynamic| -> RhaiResult<()> {
            crate::core::tensor::record::check_inplace(t).rhai()?;
            index_put(t, &items(&idx)?, &value(&v)?).rhai()
        },
    );
}
