//! `t[...]` and `t[...] = v` on tensors: ints, ranges, index strings (`":, 1:3, None"`),
//! lists and tensors (advanced indexing).

use std::ops::{Range, RangeInclusive};

use rhai::{Array, Dynamic, Engine, EvalAltResult, INT, Position};

use crate::core::creation::tensor_from_data;
use crate::core::dtype::DType;
use crate::core::index::{IndexItem, Value, index, index_put};
use crate::core::index_parse::parse_index;
use crate::core::tensor::Tensor;
use crate::script::convert::{as_scalar, py_type_name, to_data};
use crate::script::errors::{IntoRhai, RhaiResult, type_error};

/// The index items a Rhai index value stands for.
pub fn items(idx: &Dynamic) -> RhaiResult<Vec<IndexItem>> {
    if let Ok(i) = idx.as_int() {
        return Ok(vec![IndexItem::Int(i)]);
    }
    if let Some(r) = idx.clone().try_cast::<Range<INT>>() {
        return Ok(vec![IndexItem::Slice {
            start: Some(r.start),
            stop: Some(r.end),
            step: None,
        }]);
    }
    if let Some(r) = idx.clone().try_cast::<RangeInclusive<INT>>() {
        return Ok(vec![IndexItem::Slice {
            start: Some(*r.start()),
            stop: Some(r.end() + 1),
            step: None,
        }]);
    }
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
    if let Ok(b) = idx.as_bool() {
        return Ok(vec![IndexItem::Bool(b)]);
    }
    if idx.is_unit() {
        return Ok(vec![IndexItem::NewAxis]);
    }
    if let Some(t) = idx.clone().try_cast::<Tensor>() {
        return Ok(vec![IndexItem::Tensor(t)]);
    }
    if idx.is::<Array>() {
        let data = to_data(idx)?;
        let t = tensor_from_data(&data, None).rhai()?;
        let t = if t.numel() == 0 {
            crate::core::copy::cast_copy(&t, DType::Int64).rhai()?
        } else {
            t
        };
        return Ok(vec![IndexItem::Tensor(t)]);
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
