//! `index_put` and `index_put_`: `t[indices] = values` with the indices as a tuple of
//! tensors, replacing or (`accumulate=True`) adding, where repeated positions add up.

use rhai::{Array, Dynamic};

use crate::core::autograd::placing_grads::{Written, put_grads};
use crate::core::engine::{elements, place};
use crate::core::error::TorchError;
use crate::core::index::{IndexItem, Value, advanced_positions, index_put};
use crate::core::layout::fmt_list;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::BackwardOp;
use crate::core::tensor::graph::detached;
use crate::core::tensor::record::record_in_place;
use crate::ops::args::Args;
use crate::ops::convert::py_type_name;
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::ops::registry::Registry;

/// The `indices` tuple: tensors only, as PyTorch's binding requires.
fn indices(v: &Dynamic) -> RhaiResult<Vec<Tensor>> {
    let items = match v.clone().try_cast::<Tensor>() {
        Some(t) => return Ok(vec![t]),
        None => v.clone().try_cast::<Array>().ok_or_else(|| {
            to_rhai(TorchError::type_error(format!(
                "index_put(): argument 'indices' (position 1) must be tuple of Tensors, not {}",
                py_type_name(v)
            )))
        })?,
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.clone().try_cast::<Tensor>().ok_or_else(|| {
                to_rhai(TorchError::type_error(format!(
                    "expected Tensor as element {i} in argument 0, but got {}",
                    py_type_name(item)
                )))
            })
        })
        .collect()
}

/// `x.index_put(indices, values, accumulate)` as a new tensor.
fn index_put_copy(
    x: &Tensor,
    idx: &[Tensor],
    values: &Tensor,
    accumulate: bool,
) -> RhaiResult<Tensor> {
    if idx.len() > x.ndim() {
        return Err(to_rhai(TorchError::index(format!(
            "too many indices for tensor of dimension {} (got {})",
            x.ndim(),
            idx.len()
        ))));
    }
    // Without accumulation, the write itself checks dtypes (a one-element value through a
    // mask is converted, as PyTorch's `masked_fill_` does).
    if accumulate && values.dtype() != x.dtype() {
        return Err(to_rhai(TorchError::runtime(format!(
            "Index put requires the source and destination dtypes match, got {} for the destination and {} for the source.",
            x.dtype().cpp_name(),
            values.dtype().cpp_name()
        ))));
    }
    let x = detached(x);
    if !accumulate {
        let out = crate::core::copy::contiguous_copy(&x).rhai()?;
        let items: Vec<IndexItem> = idx.iter().cloned().map(IndexItem::Tensor).collect();
        index_put(&out, &items, &Value::Tensor(detached(values))).rhai()?;
        return Ok(out);
    }
    let (shape, positions) = advanced_positions(&x, idx).rhai()?;
    let expanded = crate::core::views::expand(&detached(values), &shape).map_err(|_| {
        to_rhai(TorchError::runtime(format!(
            "shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of shape {}",
            fmt_list(&values.sizes()),
            fmt_list(&shape)
        )))
    })?;
    let src = elements::image(&expanded).rhai()?;
    let pairs: Vec<(usize, usize)> = positions
        .iter()
        .enumerate()
        .map(|(k, &p)| (p as usize, k))
        .collect();
    place::placed(&x, place::Combine::Sum, true, &src, &pairs).rhai()
}

/// An `index_put` or `index_put_` call on `x`.
fn call(x: &Tensor, a: &Args, func: &str) -> RhaiResult<Dynamic> {
    let idx = indices(a.req(0, "indices", func)?)?;
    let values = a.tensor(1, "values", func)?;
    let accumulate = a.bool_or(2, "accumulate", false)?;
    if idx.is_empty() {
        // PyTorch has no index to write through and fails inside its kernels.
        return Err(to_rhai(crate::core::error::TorchError::runtime(
            if accumulate || values.ndim() > 0 {
                "ntensor >= 3 INTERNAL ASSERT FAILED at \"/__w/pytorch/pytorch/aten/src/ATen/native/cpu/IndexKernelUtils.h\":8, please report a bug to PyTorch. "
            } else {
                "sym_strides() called on an undefined Tensor"
            },
        )));
    }
    let out = index_put_copy(x, &idx, &values, accumulate)?;
    let float = x.dtype().is_floating_point() || x.dtype().is_complex();
    let recorded = float && (x.requires_grad() || values.requires_grad());
    let formula = if recorded {
        let items: Vec<IndexItem> = idx.iter().cloned().map(IndexItem::Tensor).collect();
        let (shape, positions) =
            crate::core::index::indexed_positions(&x.sizes(), &items).rhai()?;
        let written = Written {
            values: Some((values.sizes(), values.dtype())),
            accumulate,
        };
        Some(BackwardOp::formula(2, move |g| {
            put_grads(g, &shape, &positions, &written)
        }))
    } else {
        None
    };
    if func.ends_with('_') {
        if !accumulate && x.layout().has_internal_overlap() {
            // Elements that share memory: the values written into the selected ones only.
            crate::ops::warnings::expanded_write("index_put_");
            let items: Vec<IndexItem> = idx.iter().cloned().map(IndexItem::Tensor).collect();
            index_put(x, &items, &Value::Tensor(detached(&values))).rhai()?;
        } else {
            crate::core::copy::copy_(x, &out).rhai()?;
        }
        if let Some(op) = formula {
            record_in_place(x, "IndexPutBackward0", &[&values], op);
        }
        return Ok(Dynamic::from(x.clone()));
    }
    if let Some(op) = formula {
        crate::core::tensor::graph::record(&[&out], "IndexPutBackward0", &[x, &values], op);
    }
    Ok(Dynamic::from(out))
}

/// Registers `index_put` and `index_put_` (methods and `torch` functions).
pub fn register(r: &mut Registry) {
    r.method_and_function("index_put", 3, |x, a| call(x, &a, "index_put"));
    r.method_and_function("index_put_", 3, |x, a| call(x, &a, "index_put_"));
}
