//! The `torch.*_copy` functions (`view_copy`, `permute_copy`, `split_copy`, ...): the view
//! op of the same name run, then each view copied into a new contiguous tensor, recorded
//! as PyTorch does (the view's node name with `_copy`); and `unsafe_split`,
//! `unsafe_chunk`, `unsafe_split_with_sizes` (the views themselves, under PyTorch's
//! `UnsafeSplitBackward0`). Each reuses the view op's own body, so arguments, checks and
//! errors are the view's.

use rhai::{Array, Dynamic};

use crate::core::copy::contiguous_copy;
use crate::core::error::TorchError;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::{ViewReplay, detached};
use crate::core::tensor::record::{record_copy, record_untracked_views, record_without_formula};
use crate::ops::args::Args;
use crate::ops::errors::{IntoRhai, RhaiResult, error_text};
use crate::ops::op_table::TensorOp;
use crate::ops::registry::Registry;

/// `torch.name_copy` and the view op it copies.
const COPIES: &[(&str, &str)] = &[
    ("as_strided_copy", "as_strided"),
    ("diagonal_copy", "diagonal"),
    ("expand_copy", "expand"),
    ("permute_copy", "permute"),
    ("select_copy", "select"),
    ("split_copy", "split"),
    ("split_with_sizes_copy", "split_with_sizes"),
    ("squeeze_copy", "squeeze"),
    ("t_copy", "t"),
    ("transpose_copy", "transpose"),
    ("unbind_copy", "unbind"),
    ("unfold_copy", "unfold"),
    ("unsqueeze_copy", "unsqueeze"),
    ("view_copy", "view"),
];

/// A contiguous copy of the view `v`, recorded under its node's name with `_copy`.
fn copy_of_view(v: &Tensor) -> RhaiResult<Tensor> {
    let out = contiguous_copy(&detached(v)).rhai()?;
    if let Some(node) = v.grad_state().grad_fn.clone() {
        record_copy(&out, v, &format!("{}_copy", node.name));
    }
    Ok(out)
}

/// Copies of the views a view op returned: one tensor, or an array of them (a tuple).
fn copies(result: Dynamic) -> RhaiResult<Dynamic> {
    if let Some(v) = result.clone().try_cast::<Tensor>() {
        return Ok(Dynamic::from(copy_of_view(&v)?));
    }
    if let Some(items) = result.clone().try_cast::<Array>() {
        let mut out = Array::with_capacity(items.len());
        for item in items {
            match item.clone().try_cast::<Tensor>() {
                Some(v) => out.push(Dynamic::from(copy_of_view(&v)?)),
                None => out.push(item),
            }
        }
        return Ok(Dynamic::from(out));
    }
    Ok(result)
}

/// `torch.slice_copy(input, dim=0, start=None, end=None, step=1)`.
fn slice_copy(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let dim = a.int_or(0, "dim", 0)?;
    let start = a.opt_int(1, "start")?;
    let end = a.opt_int(2, "end")?;
    let step = a.int_or(3, "step", 1)?;
    let v = crate::core::index::slice_along(x, dim, start, end, step).rhai()?;
    let out = contiguous_copy(&detached(&v)).rhai()?;
    if v.grad_state().grad_fn.is_some() {
        record_copy(&out, &v, "SliceBackward0_copy");
    }
    Ok(Dynamic::from(out))
}

/// The tensors of a list `result`, or `None` when it is not a list of tensors.
fn tensors_of(result: &Dynamic) -> Option<Vec<Tensor>> {
    let items = result.read_lock::<Array>()?;
    items
        .iter()
        .map(|item| item.read_lock::<Tensor>().map(|v| v.clone()))
        .collect()
}

/// The views of a split (`op` called with `a`) recorded as PyTorch's `unsafe_*` splits record
/// them (`node`): one node for all of them, and no view tracking.
fn unsafe_views(op: TensorOp, x: &Tensor, a: Args, node: &'static str) -> RhaiResult<Dynamic> {
    let result = op(x, a.clone())?;
    if !x.requires_grad() {
        return Ok(result);
    }
    let Some(views) = tensors_of(&result) else {
        return Ok(result);
    };
    let parts: Vec<Tensor> = views.iter().map(detached).collect();
    let replay = ViewReplay::many(move |p| {
        let again = op(p, a.clone()).map_err(|e| TorchError::runtime(error_text(&e)))?;
        tensors_of(&again).ok_or_else(|| TorchError::runtime("the split gave no tensors"))
    });
    record_untracked_views(&parts, x, node, replay);
    Ok(Dynamic::from(
        parts.into_iter().map(Dynamic::from).collect::<Array>(),
    ))
}

/// Registers the copies of views and the unsafe splits.
pub fn register(r: &mut Registry) {
    for &(name, view) in COPIES {
        let Some(op) = r.ops.tensor_op(view) else {
            continue;
        };
        // `view_copy` copies first where the view could not be made (PyTorch's copy is
        // of the values, so any layout reshapes).
        let contiguous_first = name == "view_copy";
        r.tensor_function(name, 8, move |x, a| {
            if contiguous_first && !x.is_contiguous() {
                let c = contiguous_copy(&detached(x)).rhai()?;
                if x.requires_grad() {
                    record_copy(&c, x, "CloneBackward0");
                }
                return copies(op(&c, a)?);
            }
            copies(op(x, a)?)
        });
    }
    r.tensor_function("slice_copy", 4, |x, a| slice_copy(x, &a));
    r.tensor_function("view_as_real_copy", 0, |x, _| {
        copies(Dynamic::from(
            crate::core::views::dtype::view_as_real(x).rhai()?,
        ))
    });
    r.tensor_function("view_as_complex_copy", 0, |x, _| {
        if x.requires_grad() && crate::core::tensor::grad_mode::is_enabled() {
            return Err(crate::ops::errors::to_rhai(
                crate::core::error::TorchError::not_implemented(
                    "view_as_complex_copy does not support automatic differentiation for outputs with complex dtype.",
                ),
            ));
        }
        copies(Dynamic::from(crate::core::views::dtype::view_as_complex(x).rhai()?))
    });
    r.tensor_function("alias_copy", 0, |x, _| {
        let out = contiguous_copy(&detached(x)).rhai()?;
        if x.requires_grad() {
            record_copy(&out, x, "AliasBackward0_copy");
        }
        Ok(Dynamic::from(out))
    });
    if let Some(detach) = r.ops.tensor_op("detach") {
        r.tensor_function("detach_copy", 0, move |x, a| {
            let v = detach(x, a)?;
            let Some(v) = v.try_cast::<Tensor>() else {
                return Ok(Dynamic::UNIT);
            };
            let out = contiguous_copy(&v).rhai()?;
            // PyTorch records its copy of a detached view under a node with no formula.
            if x.requires_grad() && crate::core::tensor::grad_mode::is_enabled() {
                record_without_formula(&out, "NotImplemented", "detach_copy", &[x]);
            }
            Ok(Dynamic::from(out))
        });
    }
    for (name, view, node) in [
        ("unsafe_split", "split", "UnsafeSplitBackward0"),
        ("unsafe_chunk", "chunk", "UnsafeSplitBackward0"),
        (
            "unsafe_split_with_sizes",
            "split_with_sizes",
            "UnsafeSplitWithSizesBackward0",
        ),
    ] {
        let Some(op) = r.ops.tensor_op(view) else {
            continue;
        };
        let op: TensorOp = op;
        r.method_and_function(name, 8, move |x, a| unsafe_views(op.clone(), x, a, node));
    }
}
