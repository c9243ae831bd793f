//! Selecting and moving elements by index or mask, each a method and a `torch` function:
//! `index_select`, `gather`, `masked_fill(_)`, `masked_select`, `nonzero` (and one-argument
//! `torch::where`), `roll`, `diag`, `trace`, `count_nonzero`, `amax`/`amin`,
//! `fliplr`/`flipud`, `signbit`, `logical_not(_)`, `sort`/`argsort`/`msort`, and `cpu()`.

use rhai::Dynamic;

use crate::core::autograd::{grad_ops, selection_grads, tracked};
use crate::core::checked_scalar::check_converts;
use crate::core::dtype::DType;
use crate::core::engine::place::Combine;
use crate::core::error::TorchError;
use crate::core::reduce::{Reduction, reduce};
use crate::core::scalar::Scalar;
use crate::core::scatter::{Source, scatter};
use crate::core::selection;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::BackwardOp;
use crate::core::tensor::graph::detached;
use crate::core::tensor::record::{record_copy, record_in_place, record_sum_as};
use crate::ops::args::Args;
use crate::ops::convert::{tensor_array, to_int_list, to_scalar};
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::ops::registry::Registry;

fn t(x: Tensor) -> RhaiResult<Dynamic> {
    Ok(Dynamic::from(x))
}

/// `masked_fill`'s value: a number or a 0-d tensor, checked to fit `dtype`.
fn fill_value(a: &Args, func: &str, dtype: DType) -> RhaiResult<crate::core::scalar::Scalar> {
    let v = a.req(1, "value", func)?;
    let value = match v.clone().try_cast::<Tensor>() {
        Some(t) if t.ndim() != 0 => {
            return Err(to_rhai(TorchError::runtime(format!(
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
                t.ndim()
            ))));
        }
        Some(t) => crate::core::copy::to_scalars(&t).rhai()?[0],
        None => to_scalar(v, "value")?,
    };
    check_converts(dtype, value, true).rhai()?;
    Ok(value)
}

/// A dim argument that may be one int or a list of them (`amax`, `count_nonzero`).
fn dim_list(a: &Args, i: usize) -> RhaiResult<Option<Vec<i64>>> {
    match a.get(i, "dim") {
        None => Ok(None),
        Some(v) if v.is_unit() => Ok(None),
        Some(v) if v.is_int() => Ok(Some(vec![v.as_int().unwrap_or(0)])),
        Some(v) => Ok(Some(to_int_list(v, "dim")?)),
    }
}

/// `amax`/`amin`: the extreme over `dim` (all dims when empty), with their own name in
/// PyTorch's messages about empty inputs.
fn extreme(x: &Tensor, a: &Args, max: bool) -> RhaiResult<Dynamic> {
    let name = if max { "amax" } else { "amin" };
    let dims = dim_list(a, 0)?.unwrap_or_default();
    // The dims are wrapped before the dtype is refused, as PyTorch does.
    for &d in &dims {
        crate::core::error::wrap_dim(d, x.ndim().max(1)).rhai()?;
    }
    let keepdim = a.bool_or(1, "keepdim", false)?;
    let op = if max { Reduction::Max } else { Reduction::Min };
    if dims.is_empty() && x.numel() == 0 {
        return Err(to_rhai(TorchError::runtime(format!(
            "{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."
        ))));
    }
    let sizes = x.sizes();
    for &d in &dims {
        let w = crate::core::error::wrap_dim(d, x.ndim().max(1)).rhai()?;
        if x.ndim() > 0 && sizes[w] == 0 {
            // Named as it was given (`-1`), as PyTorch's message names it.
            return Err(to_rhai(crate::core::error::empty_reduction_dim(
                &format!("{name}():"),
                d,
            )));
        }
    }
    // The shape is checked before the dtype; an empty result runs no kernel.
    if x.dtype().is_complex() && x.numel() > 0 {
        let kernel = if max {
            "max_values_cpu"
        } else {
            "min_values_cpu"
        };
        return Err(to_rhai(crate::core::unbuilt_kernels::not_built(
            kernel,
            x.dtype(),
        )));
    }
    let all: Vec<i64> = (0..x.ndim() as i64).collect();
    let dims = if dims.is_empty() { all } else { dims };
    let out = reduce(x, op, Some(&dims), keepdim).rhai()?;
    let reduced = crate::core::reduce::reduced_dims(x.ndim(), Some(&dims)).rhai()?;
    let node = if max {
        "AmaxBackward0"
    } else {
        "AminBackward0"
    };
    tracked::single_with_output(&out, node, x, move |g, x, out| {
        selection_grads::shared_among_ties(g, x, out, &reduced, keepdim)
    });
    t(out)
}

/// Records `values`, picked from `x` along `dim` at `indices` (of the same dims), with
/// the gradient that puts each value's back where it came from.
fn picked(values: &Tensor, node: &str, x: &Tensor, dim: i64, indices: &Tensor) {
    let indices = indices.clone();
    tracked::single(values, node, x, move |g, x| {
        selection_grads::to_picked(g, &x.sizes(), dim, &indices, true, false)
    });
}

/// Registers the selection ops.
pub fn register(r: &mut Registry) {
    r.method_and_function("index_select", 2, |x, a| {
        let dim = a.int(0, "dim", "index_select")?;
        let index = a.tensor(1, "index", "index_select")?;
        let out = selection::index_select(x, dim, &index).rhai()?;
        tracked::single(&out, "IndexSelectBackward0", x, move |g, x| {
            let zeros = Tensor::zeros(x.sizes(), g.dtype())?;
            crate::core::index_ops::index_add(&zeros, dim, &index, g, Scalar::Int(1))
        });
        t(out)
    });
    r.method_and_function("gather", 2, |x, a| {
        let dim = a.int(0, "dim", "gather")?;
        let index = a.tensor(1, "index", "gather")?;
        let out = selection::gather(x, dim, &index).rhai()?;
        tracked::single(&out, "GatherBackward0", x, move |g, x| {
            let zeros = Tensor::zeros(x.sizes(), g.dtype())?;
            scatter(&zeros, dim, &index, Source::Tensor(g), Combine::Sum, true)
        });
        t(out)
    });
    r.method_and_function("masked_fill", 2, |x, a| {
        let mask = a.tensor(0, "mask", "masked_fill")?;
        let value = fill_value(&a, "masked_fill", x.dtype())?;
        let out = selection::masked_fill(x, &mask, value).rhai()?;
        let kept = detached(&mask);
        tracked::single(&out, "MaskedFillBackward0", x, move |g, _| {
            grad_ops::select(&kept, grad_ops::n(0.0), grad_ops::t(g))
        });
        t(out)
    });
    r.method("masked_fill_", 2, |x, a| {
        let mask = a.tensor(0, "mask", "masked_fill_")?;
        let value = fill_value(&a, "masked_fill_", x.dtype())?;
        if x.layout().has_internal_overlap() {
            crate::ops::warnings::expanded_write("masked_fill_");
        }
        selection::masked_fill_(x, &mask, value).rhai()?;
        let kept = detached(&mask);
        let op = BackwardOp::formula(1, move |g| {
            Ok(vec![Some(grad_ops::select(
                &kept,
                grad_ops::n(0.0),
                grad_ops::t(g),
            )?)])
        });
        record_in_place(x, "MaskedFillBackward0", &[], op);
        Ok(Dynamic::from(x.clone()))
    });
    r.method_and_function("masked_select", 1, |x, a| {
        let mask = a.tensor(0, "mask", "masked_select")?;
        let out = selection::masked_select(x, &mask).rhai()?;
        let chosen = detached(&mask);
        tracked::single(&out, "MaskedSelectBackward0", x, move |g, x| {
            // Into the broadcast shape at the chosen places; `single` sums it down.
            let shape = crate::core::broadcast::broadcast_shapes(&chosen.sizes(), &x.sizes())?;
            let wide = crate::core::views::expand(&chosen, &shape)?;
            let truth = crate::core::engine::elements::truth(&wide)?;
            let positions: Vec<i64> = (0..truth.len() as i64)
                .filter(|&i| truth[i as usize] != 0)
                .collect();
            selection_grads::to_positions(g, &shape, &positions)
        });
        t(out)
    });
    r.method_and_function("nonzero", 1, |x, a| {
        if a.bool_or(usize::MAX, "as_tuple", false)? {
            let parts = selection::nonzero_tuple(x).rhai()?;
            return Ok(Dynamic::from(tensor_array(parts)));
        }
        t(selection::nonzero(x).rhai()?)
    });
    r.method_and_function("argwhere", 0, |x, _| t(selection::nonzero(x).rhai()?));
    r.method_and_function("roll", 2, |x, a| {
        let shifts = to_int_list(a.req(0, "shifts", "roll")?, "shifts")?;
        let dims = match a.get(1, "dims") {
            Some(v) => to_int_list(v, "dims")?,
            None => Vec::new(),
        };
        let out = selection::roll(x, &shifts, &dims).rhai()?;
        let back: Vec<i64> = shifts.iter().map(|s| s.wrapping_neg()).collect();
        tracked::single(&out, "RollBackward0", x, move |g, _| {
            selection::roll(g, &back, &dims)
        });
        t(out)
    });
    r.method_and_function("diag", 1, |x, a| {
        let diagonal = a.int_or(0, "diagonal", 0)?;
        match x.ndim() {
            1 => {
                let out = selection::diag_embed_1d(x, diagonal).rhai()?;
                tracked::single(&out, "DiagEmbedBackward0", x, move |g, _| {
                    let d = crate::core::views::diagonal(g, diagonal, 0, 1)?;
                    crate::core::copy::contiguous_copy(&d)
                });
                t(out)
            }
            2 => {
                // A copy of the diagonal view, recorded as PyTorch's `diagonal_copy`.
                let d = crate::core::views::diagonal(x, diagonal, 0, 1).rhai()?;
                let out = crate::core::copy::clone_tensor(&detached(&d)).rhai()?;
                record_copy(&out, &d, "DiagonalBackward0_copy");
                t(out)
            }
            n => Err(to_rhai(TorchError::runtime(format!(
                "diag(): Supports 1D or 2D tensors. Got {n}D"
            )))),
        }
    });
    r.method_and_function("trace", 0, |x, _| {
        // Its dtype is asked before its shape.
        crate::core::unbuilt_kernels::require_complex_half_kernel("trace", x.dtype()).rhai()?;
        if x.ndim() != 2 {
            return Err(to_rhai(TorchError::runtime(format!(
                "trace: expected a matrix, but got tensor with dim {}",
                x.ndim()
            ))));
        }
        if x.dtype() == DType::Bool {
            return Err(to_rhai(TorchError::not_implemented(
                "\"trace\" not implemented for 'Bool'",
            )));
        }
        // The sum of the diagonal view, recorded as PyTorch's one `TraceBackward0` node.
        let d = crate::core::views::diagonal(x, 0, 0, 1).rhai()?;
        let out = crate::core::ops::sum_all(&detached(&d)).rhai()?;
        record_sum_as(&out, &d, "TraceBackward0");
        t(out)
    });
    r.method_and_function("count_nonzero", 1, |x, a| {
        let nz = selection::logical_not(&selection::logical_not(x).rhai()?).rhai()?;
        // `x.count_nonzero(0, 1)`: loose ints are the `dim` list (its declaration gathers
        // them), so `x.count_nonzero(1, 1)` names dim 1 twice.
        let dims = if a.pos.len() > 1 {
            Some(a.sizes("dim")?)
        } else {
            dim_list(&a, 0)?
        };
        let counted = match dims {
            None => reduce(&nz, Reduction::Sum, None, false),
            Some(dims) => reduce(&nz, Reduction::Sum, Some(&dims), false),
        };
        t(counted.rhai()?)
    });
    r.method_and_function("amax", 2, |x, a| extreme(x, &a, true));
    r.method_and_function("amin", 2, |x, a| extreme(x, &a, false));
    r.method_and_function("fliplr", 0, |x, _| {
        if x.ndim() < 2 {
            return Err(to_rhai(TorchError::runtime("Input must be >= 2-d.")));
        }
        t(crate::core::flip::flip(x, &[1]).rhai()?)
    });
    r.method_and_function("flipud", 0, |x, _| {
        if x.ndim() < 1 {
            return Err(to_rhai(TorchError::runtime("Input must be >= 1-d.")));
        }
        t(crate::core::flip::flip(x, &[0]).rhai()?)
    });
    r.method_and_function("signbit", 0, |x, _| t(selection::signbit(x).rhai()?));
    // Complex32 has no `logical_not` kernel (ops that count or mask with it inside, as
    // `count_nonzero`, work).
    let logical_not = |x: &Tensor| -> RhaiResult<Tensor> {
        crate::core::unbuilt_kernels::require_complex_half_kernel("logical_not_cpu", x.dtype())
            .rhai()?;
        selection::logical_not(x).rhai()
    };
    r.method_and_function("logical_not", 0, move |x, _| t(logical_not(x)?));
    r.method("logical_not_", 0, move |x, _| {
        let not = logical_not(x)?;
        crate::core::copy::copy_(x, &not).rhai()?;
        record_in_place(x, "LogicalNotBackward0", &[], BackwardOp::Overwritten);
        Ok(Dynamic::from(x.clone()))
    });
    for name in ["sort", "argsort"] {
        r.method_and_function(name, 2, move |x, a| {
            let dim = a.int_or(0, "dim", -1)?;
            let descending = a.bool_or(1, "descending", false)?;
            let stable = a.kw("stable").is_some();
            let (values, indices) = selection::sort(x, dim, descending).rhai()?;
            if name == "argsort" {
                return t(indices);
            }
            if x.requires_grad() && values.dtype().is_floating_point() {
                let node = if stable {
                    "SortBackward1"
                } else {
                    "SortBackward0"
                };
                picked(&values, node, x, dim, &indices);
            }
            Ok(Dynamic::from(crate::ops::return_types::ReturnTuple {
                kind: "sort",
                fields: vec![
                    ("values", Dynamic::from(values)),
                    ("indices", Dynamic::from(indices)),
                ],
            }))
        });
    }
    r.method_and_function("msort", 0, |x, _| {
        let (values, _) = selection::sort(x, 0, false).rhai()?;
        if x.requires_grad() && values.dtype().is_floating_point() {
            let (_, indices) = selection::sort(x, 0, false).rhai()?;
            picked(&values, "SortBackward0", x, 0, &indices);
        }
        t(values)
    });
    // Every tensor lives on the CPU: `cpu()` is the tensor itself, as in PyTorch.
    r.method("cpu", 1, |x, _| Ok(Dynamic::from(x.clone())));
}
