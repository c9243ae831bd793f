//! `topk`, `kthvalue`, `median`, `nanmedian`, `mode`, `cummax` and `cummin` as methods and
//! `torch` functions, each returning PyTorch's named tuple of values and indices.

use rhai::Dynamic;

use crate::core::autograd::{selection_grads, tracked};
use crate::core::order_stats;
use crate::core::tensor::Tensor;
use crate::ops::errors::{IntoRhai, RhaiResult};
use crate::ops::registry::Registry;
use crate::ops::return_types::ReturnTuple;

/// How an op's values were picked along `dim`: whether the results kept `dim`, and
/// whether an element can be picked more than once (the running extremes).
#[derive(Clone, Copy)]
struct Picked {
    dim: i64,
    keepdim: bool,
    repeats: bool,
}

/// The named tuple `kind(values, indices)`, the values recorded for autograd under `node`
/// when `x` requires grad: each value's gradient goes back to the element it came from.
fn pair(
    x: &Tensor,
    kind: &'static str,
    node: &str,
    how: Picked,
    (values, indices): (Tensor, Tensor),
) -> RhaiResult<Dynamic> {
    let at = indices.clone();
    tracked::single(&values, node, x, move |g, x| {
        selection_grads::to_picked(g, &x.sizes(), how.dim, &at, how.keepdim, how.repeats)
    });
    Ok(Dynamic::from(ReturnTuple {
        kind,
        fields: vec![
            ("values", Dynamic::from(values)),
            ("indices", Dynamic::from(indices)),
        ],
    }))
}

fn picked(dim: i64, keepdim: bool) -> Picked {
    Picked {
        dim,
        keepdim,
        repeats: false,
    }
}

/// Registers the order statistics.
pub fn register(r: &mut Registry) {
    r.method_and_function("topk", 4, |x, a| {
        let k = a.int(0, "k", "topk")?;
        let dim = a.int_or(1, "dim", -1)?;
        let largest = a.bool_or(2, "largest", true)?;
        let sorted = a.bool_or(3, "sorted", true)?;
        let out = order_stats::topk(x, k, dim, largest, sorted).rhai()?;
        pair(x, "topk", "TopkBackward0", picked(dim, true), out)
    });
    r.method_and_function("kthvalue", 3, |x, a| {
        let k = a.int(0, "k", "kthvalue")?;
        let dim = a.int_or(1, "dim", -1)?;
        let keepdim = a.bool_or(2, "keepdim", false)?;
        let out = order_stats::kthvalue(x, k, dim, keepdim).rhai()?;
        pair(
            x,
            "kthvalue",
            "KthvalueBackward0",
            picked(dim, keepdim),
            out,
        )
    });
    for (name, ignore_nan) in [("median", false), ("nanmedian", true)] {
        r.method_and_function(name, 2, move |x, a| {
            let (all_node, dim_node) = if ignore_nan {
                ("NanmedianBackward0", "NanmedianBackward1")
            } else {
                ("MedianBackward0", "MedianBackward1")
            };
            match a.get(0, "dim") {
                Some(d) if !d.is_unit() => {
                    let dim = a.int(0, "dim", name)?;
                    let keepdim = a.bool_or(1, "keepdim", false)?;
                    let out = order_stats::median_dim(x, dim, keepdim, ignore_nan).rhai()?;
                    pair(x, name, dim_node, picked(dim, keepdim), out)
                }
                _ => {
                    let out = order_stats::median_all(x, ignore_nan).rhai()?;
                    tracked::single_with_output(&out, all_node, x, |g, x, out| {
                        selection_grads::evenly_distributed(g, x, out)
                    });
                    Ok(Dynamic::from(out))
                }
            }
        });
    }
    r.method_and_function("mode", 2, |x, a| {
        let dim = a.int_or(0, "dim", -1)?;
        let keepdim = a.bool_or(1, "keepdim", false)?;
        let out = order_stats::mode(x, dim, keepdim).rhai()?;
        pair(x, "mode", "ModeBackward0", picked(dim, keepdim), out)
    });
    for (name, max) in [("cummax", true), ("cummin", false)] {
        r.method_and_function(name, 1, move |x, a| {
            let dim = a.int(0, "dim", name)?;
            let out = order_stats::cumulative_extreme(x, dim, max).rhai()?;
            let node = if max {
                "CummaxBackward0"
            } else {
                "CumminBackward0"
            };
            let how = Picked {
                dim,
                keepdim: true,
                repeats: true,
            };
            pair(x, name, node, how, out)
        });
    }
}
