//! `t[...]` and `t[...] = v` on tensors: ints, ranges, index strings (`":, 1:3, None"`),
//! lists and tensors (advanced indexing).

use std::ops::{Range, RangeInclusive};

use rhai::{Array, Dynamic, Engine, INT};

use crate::core::creation::tensor_from_data;
use crate::core::error::Result;
use crate::core::index::{IndexItem, Value, index, index_put};
use crate::core::index_parse::{index_tensor_from_data, parse_index};
use crate::core::tensor::graph::BackwardOp;
use crate::core::tensor::{Tensor, record};
use crate::ops::convert::{as_scalar, py_type_name, to_data};
use crate::ops::errors::{IntoRhai, RhaiResult, refuse_attribute_as_index, type_error};

/// The index items a Rhai index value stands for. An array of numbers is one advanced list;
/// an array holding anything else (strings, tensors, ranges, `()`, arrays) is Python's index
/// tuple, one item per element.
pub fn items(idx: &Dynamic) -> RhaiResult<Vec<IndexItem>> {
    // The common `t[i]` first.
    if let Ok(i) = idx.as_int() {
        return Ok(vec![IndexItem::Int(i)]);
    }
    if idx.is_string() {
        let text = idx.to_string();
        // Rhai feeds a property's value back through the indexer with the property's name
        // (`x.shape.len()`); a name is not an index, so say "no such indexer" and Rhai treats
        // the property as read-only.
        refuse_attribute_as_index(&text, "Tensor")?;
        return parse_index(&text).rhai();
    }
    if let Some(array) = idx.read_lock::<Array>()
        && is_index_tuple(&array)
    {
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
pub fn item(idx: &Dynamic) -> RhaiResult<IndexItem> {
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

/// Records `t[items] = value` for autograd: a basic index writes a region of `t` (a fill
/// or a copy), an advanced one is PyTorch's `IndexFillBackward0`/`IndexPutBackward0`.
fn record_put(t: &Tensor, items: &[IndexItem], advanced: bool, value: &Value) -> Result<()> {
    let source = match value {
        Value::Tensor(v) => Some(v),
        Value::Scalar(_) => None,
    };
    if !t.requires_grad() && !source.is_some_and(Tensor::requires_grad) {
        return Ok(());
    }
    let others: Vec<&Tensor> = source.into_iter().collect();
    if advanced {
        let name = match (source, items) {
            (None, [IndexItem::Tensor(m)]) if m.dtype() == crate::core::dtype::DType::Bool => {
                "MaskedFillBackward0"
            }
            (None, [IndexItem::Tensor(_)]) => "IndexFillBackward0",
            _ => "IndexPutBackward0",
        };
        let (shape, positions) = crate::core::index::indexed_positions(&t.sizes(), items)?;
        let written = crate::core::autograd::placing_grads::Written {
            values: source.map(|v| (v.sizes(), v.dtype())),
            accumulate: false,
        };
        let op = BackwardOp::formula(1 + others.len(), move |g| {
            crate::core::autograd::placing_grads::put_grads(g, &shape, &positions, &written)
        });
        // Python indexes a view first when a basic index narrows the tensor, and the
        // write into that view is PyTorch's `CopySlices` (here around the whole tensor's
        // formula, which gives the same gradients).
        let narrowed = items.iter().any(|i| match i {
            IndexItem::Int(_) | IndexItem::NewAxis => true,
            IndexItem::Slice { start, stop, step } => {
                start.is_some() || stop.is_some() || step.is_some_and(|s| s != 1)
            }
            _ => false,
        });
        if narrowed {
            let whole = t.layout();
            let op = BackwardOp::CopySlices {
                base: whole.clone(),
                view: whole,
                dtype: t.dtype(),
                storage_nbytes: t.storage().nbytes(),
                inner: Box::new(op),
            };
            record::record_in_place(t, "CopySlices", &others, op);
        } else {
            record::record_in_place(t, name, &others, op);
        }
        return Ok(());
    }
    let region =
        crate::core::index::index(&crate::core::tensor::graph::detached(t), items)?.layout();
    let (name, op) = match source {
        Some(v) => (
            "CopyBackwards",
            BackwardOp::CopyFrom {
                sizes: v.sizes(),
                dtype: v.dtype(),
            },
        ),
        None => ("FillBackward2", BackwardOp::Overwritten),
    };
    record::record_write(t, &region, name, &others, op);
    Ok(())
}

/// `t[idx]`: the indexer's read (the Python front calls it directly).
pub fn get(t: &Tensor, idx: &Dynamic) -> RhaiResult<Tensor> {
    index(t, &items(idx)?).rhai()
}

/// `t[idx] = v`: the indexer's write.
pub fn set(t: &Tensor, idx: &Dynamic, v: &Dynamic) -> RhaiResult<()> {
    set_items(t, &items(idx)?, v)
}

/// `t[items] = v` (the Python front builds the items from its own values).
pub fn set_items(t: &Tensor, items: &[IndexItem], v: &Dynamic) -> RhaiResult<()> {
    // Python indexes first: basic items write through a view of `t`, advanced ones write
    // into `t` itself, and autograd words its refusal accordingly.
    let advanced = items.iter().any(|i| match i {
        IndexItem::Bool(_) => true,
        IndexItem::Tensor(x) => x.ndim() > 0 || x.dtype() == crate::core::dtype::DType::Bool,
        _ => false,
    });
    if advanced {
        record::check_inplace(t).rhai()?;
    } else {
        record::check_write_through_view(t).rhai()?;
    }
    let value = value(v)?;
    if let Some(op) = crate::core::index::expanded_write_op(t, items, &value) {
        crate::ops::warnings::expanded_write(op);
    }
    record::counted_write(t, || {
        index_put(t, items, &value).rhai()?;
        record_put(t, items, advanced, &value).rhai()
    })
}

/// Registers the tensor indexers.
pub fn register(engine: &mut Engine) {
    // `t[i]`, the most common index, found by its exact type before the general indexer:
    // no index list to build, no `Dynamic` to inspect.
    engine.register_indexer_get(|t: &mut Tensor, i: INT| -> RhaiResult<Tensor> {
        index(t, &[IndexItem::Int(i)]).rhai()
    });
    engine.register_indexer_get(|t: &mut Tensor, idx: Dynamic| get(t, &idx));
    engine.register_indexer_set(|t: &mut Tensor, idx: Dynamic, v: Dynamic| set(t, &idx, &v));
}
