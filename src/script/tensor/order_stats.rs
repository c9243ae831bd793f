//! `topk`, `kthvalue`, `median`, `nanmedian`, `mode`, `cummax` and `cummin` as methods and
//! `torch` functions, each returning PyTorch's named tuple of values and indices.

use rhai::Dynamic;

use crate::core::order_stats;
use crate::core::tensor::Tensor;
use crate::core::tensor::record::record_without_formula;
use crate::script::errors::{IntoRhai, RhaiResult};
use crate::script::registry::Registry;
use crate::script::return_types::ReturnTuple;

/// The named tuple `kind(values, indices)`, the values recorded for autograd under `node`
/// (without a formula yet) when `x` requires grad.
fn pair(
    x: &Tensor,
    kind: &'static str,
    node: &str,
    (values, indices): (Tensor, Tensor),
) -> RhaiResult<Dynamic> {
    if x.requires_grad() && (values.dtype().is_floating_point() || values.dtype().is_complex()) {
        record_without_formula(&values, node, kind, &[x]);
    }
    Ok(Dynamic::from(ReturnTuple {
        kind,
        fields: vec![
            ("values", Dynamic::from(values)),
            ("indices", Dynamic::from(indices)),
        ],
    }))
}

/// Registers the order statistics.
pub fn register(r: &mut Registry) {
    r.method_and_function("topk", 4, |x, a| {
        let k = a.int(0, "k", "topk")?;
        let dim = a.int_or(1, "dim", -1)?;
        let largest = a.bool_or(2, "largest", true)?;
        let sorted = a.bool_or(3, "sorted", true)?;
        let out = order_stats::topk(x, k, dim, largest, sorted).rhai()?;
        pair(x, "topk", "TopkBackward0", out)
    });
    r.method_and_function("kthvalue", 3, |x, a| {
        let k = a.int(0, "k", "kthvalue")?;
        let dim = a.int_or(1, "dim", -1)?;
        let keepdim = a.bool_or(2, "keepdim", false)?;
        let out = order_stats::kthvalue(x, k, dim, keepdim).rhai()?;
        pair(x, "kthvalue", "KthvalueBackward0", out)
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
                    pair(x, name, dim_node, out)
                }
                _ => {
                    let out = order_stats::median_all(x, ignore_nan).rhai()?;
                    if x.requires_grad() && out.dtype().is_floating_point() {
                        record_without_formula(&out, all_node, name, &[x]);
                    }
                    Ok(Dynamic::from(out))
                }
            }
        });
    }
    r.method_and_function("mode", 2, |x, a| {
        let dim = a.int_or(0, "dim", -1)?;
        let keepdim = a.bool_or(1, "keepdim", false)?;
        let out = order_stats::mode(x, dim, keepdim).rhai()?;
        pair(x, "mode", "ModeBackward0", out)
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
            pair(x, name, node, out)
        });
    }
}
