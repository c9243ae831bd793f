//! Counting and repeating ops, each a method and a `torch` function: `unique`,
//! `unique_consecutive`, `bincount`, `histc`, `repeat_interleave`.

use rhai::{Array, Dynamic};

use crate::core::copy::contiguous_copy;
use crate::core::counting;
use crate::core::dtype::DType;
use crate::core::error::{Result, TorchError, wrap_dim};
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::detached;
use crate::core::tensor::record::{record_copy, record_without_formula};
use crate::core::unique::unique;
use crate::core::views;
use crate::ops::args::Args;
use crate::ops::convert::to_scalar;
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::ops::registry::Registry;

/// `unique`'s result: the values alone, or a tuple with the inverse and counts asked for.
fn unique_call(x: &Tensor, a: &Args, consecutive: bool) -> RhaiResult<Dynamic> {
    // `unique` reads `sorted` first (always sorted on the CPU, as PyTorch's is).
    let skip = usize::from(!consecutive);
    if !consecutive {
        a.bool_or(0, "sorted", true)?;
    }
    let inverse = a.bool_or(skip, "return_inverse", false)?;
    let counts = a.bool_or(skip + 1, "return_counts", false)?;
    let dim = a.opt_int(skip + 2, "dim")?;
    let u = unique(x, dim, consecutive).rhai()?;
    if x.requires_grad() && (x.dtype().is_floating_point() || x.dtype().is_complex()) {
        // PyTorch records the values and has no derivative for them.
        let (node, op) = match (consecutive, dim) {
            (true, _) => ("UniqueConsecutiveBackward0", "unique_consecutive"),
            (false, None) => ("Unique2Backward0", "_unique2"),
            (false, Some(_)) => ("UniqueDimBackward0", "unique_dim"),
        };
        let message = format!("the derivative for '{op}' is not implemented.");
        crate::core::tensor::record::record_formula(&u.values, node, &[x], &[], move |_| {
            Err(TorchError::not_implemented(message.clone()))
        });
    }
    if !inverse && !counts {
        return Ok(Dynamic::from(u.values));
    }
    let mut out = Array::new();
    out.push(Dynamic::from(u.values));
    if inverse {
        out.push(Dynamic::from(u.inverse));
    }
    if counts {
        out.push(Dynamic::from(u.counts));
    }
    Ok(Dynamic::from(out))
}

/// The indices `0, 0, 1, 2, 2, ...`: each position repeated its count (`repeats` 1-d,
/// non-negative integers), in `repeats`' dtype; `alone` for `torch.repeat_interleave(repeats)`,
/// whose refusals are worded its own way.
fn repeated_indices(repeats: &Tensor, alone: bool) -> Result<Tensor> {
    if repeats.ndim() != 1 {
        return Err(TorchError::runtime(if alone {
            "repeat_interleave only accept 1D vector as repeat"
        } else {
            "repeats must be 0-dim or 1-dim tensor"
        }));
    }
    if !matches!(repeats.dtype(), DType::Int64 | DType::Int32) {
        return Err(if alone {
            TorchError::not_implemented(format!(
                "\"repeat_interleave_cpu\" not implemented for '{}'",
                repeats.dtype().cpp_name()
            ))
        } else {
            TorchError::runtime("repeats has to be Long or Int tensor")
        });
    }
    let counts = crate::core::engine::elements::int64_values(repeats)?;
    if counts.iter().any(|&c| c < 0) {
        return Err(TorchError::runtime("repeats can not be negative"));
    }
    let total = counts
        .iter()
        .try_fold(0i64, |s, &c| s.checked_add(c))
        .ok_or_else(|| TorchError::runtime("repeats: the total overflows"))?;
    let mut idx = crate::core::memory::alloc::vec_with_capacity(total as usize)?;
    for (i, &c) in counts.iter().enumerate() {
        idx.extend(std::iter::repeat_n(i as i64, c as usize));
    }
    let out = crate::core::engine::elements::from_i64s(&idx, vec![total])?;
    if repeats.dtype() == DType::Int64 {
        return Ok(out);
    }
    crate::core::copy::cast_copy(&out, repeats.dtype())
}

/// `x.repeat_interleave(repeats, dim)` as PyTorch composes it: a number of repeats
/// expands a new dim after `dim` and folds it in (a copy, then a view); a tensor of them
/// picks slices with `index_select`.
fn repeat_interleave(x: &Tensor, repeats: &Dynamic, dim: Option<i64>) -> RhaiResult<Dynamic> {
    let (input, d) = match dim {
        Some(dim) => (x.clone(), wrap_dim(dim, x.ndim().max(1)).rhai()?),
        None => (views::reshape(x, &[x.numel()]).rhai()?, 0),
    };
    let count = match repeats.clone().try_cast::<Tensor>() {
        Some(r) if r.ndim() == 0 => crate::core::copy::to_scalars(&r).rhai()?[0].to_i64(),
        Some(r) => {
            let along = if input.ndim() == 0 {
                1
            } else {
                input.sizes()[d]
            };
            if r.numel() != along && r.numel() != 1 {
                return Err(to_rhai(TorchError::runtime(format!(
                    "repeats must have the same size as input along dim, but got repeats.size(0) = {} and input.size({d}) = {along}",
                    r.numel()
                ))));
            }
            let r = if r.numel() == 1 && along != 1 {
                let n = crate::core::copy::to_scalars(&r).rhai()?[0];
                crate::core::creation::full(&[along], n, r.dtype()).rhai()?
            } else {
                r
            };
            let idx = repeated_indices(&r, false).rhai()?;
            let out =
                crate::core::selection::index_select(&detached(&input), d as i64, &idx).rhai()?;
            if input.requires_grad() {
                record_without_formula(&out, "IndexSelectBackward0", "index_select", &[&input]);
            }
            return Ok(Dynamic::from(out));
        }
        None => to_scalar(repeats, "repeats")?.to_i64(),
    };
    if count < 0 {
        return Err(to_rhai(TorchError::runtime("Repeats must be non-negative")));
    }
    let input = if input.ndim() == 0 {
        views::reshape(&input, &[1]).rhai()?
    } else {
        input
    };
    let mut sizes = input.sizes();
    let grown = views::unsqueeze(&input, d as i64 + 1).rhai()?;
    let mut wide = grown.sizes();
    wide[d + 1] = count;
    let expanded = views::expand(&grown, &wide).rhai()?;
    let copy = contiguous_copy(&detached(&expanded)).rhai()?;
    if expanded.requires_grad() {
        record_copy(&copy, &expanded, "CloneBackward0");
    }
    sizes[d] *= count;
    Ok(Dynamic::from(views::view(&copy, &sizes).rhai()?))
}

/// Registers the counting and repeating ops.
pub fn register(r: &mut Registry) {
    r.method_and_function("unique", 4, |x, a| unique_call(x, &a, false));
    r.method_and_function("unique_consecutive", 3, |x, a| unique_call(x, &a, true));
    r.method_and_function("bincount", 2, |x, a| {
        let weights = match a.get(0, "weights") {
            Some(v) if !v.is_unit() => Some(a.tensor(0, "weights", "bincount")?),
            _ => None,
        };
        let minlength = a.int_or(1, "minlength", 0)?;
        Ok(Dynamic::from(
            counting::bincount(x, weights.as_ref(), minlength).rhai()?,
        ))
    });
    r.method_and_function("histc", 3, |x, a| {
        let bins = a.int_or(0, "bins", 100)?;
        let bound = |i, name| -> RhaiResult<f64> {
            Ok(match a.get(i, name) {
                Some(v) if !v.is_unit() => to_scalar(v, name)?.to_f64(),
                _ => 0.0,
            })
        };
        let (min, max) = (bound(1, "min")?, bound(2, "max")?);
        Ok(Dynamic::from(counting::histc(x, bins, min, max).rhai()?))
    });
    r.method_and_function("histogram", 2, |x, a| {
        let bins_arg = a.get(0, "bins").filter(|v| !v.is_unit()).cloned();
        let edges = bins_arg.as_ref().and_then(|v| v.clone().try_cast::<Tensor>());
        let bins = match (&edges, &bins_arg) {
            (Some(e), _) => crate::core::histogram::Bins::Edges(e),
            (None, Some(v)) => crate::core::histogram::Bins::Count(crate::ops::convert::to_int(v, "bins")?),
            (None, None) => crate::core::histogram::Bins::Count(100),
        };
        let range = match a.kw("range").filter(|v| !v.is_unit()) {
            Some(v) => {
                let items = v.clone().try_cast::<rhai::Array>().unwrap_or_default();
                let r = items
                    .iter()
                    .map(|x| crate::ops::convert::to_float(x, "range"))
                    .collect::<RhaiResult<Vec<f64>>>()?;
                match r.as_slice() {
                    [lo, hi] => Some((*lo, *hi)),
                    _ => {
                        return Err(to_rhai(crate::core::error::TorchError::runtime(format!(
                            "torch.histogramdd: for a 1-dimensional histogram range should have 2 elements, but got {}",
                            r.len()
                        ))));
                    }
                }
            }
            None => None,
        };
        let weight = match a.kw("weight").filter(|v| !v.is_unit()) {
            Some(v) => Some(crate::ops::convert::to_tensor(v, "weight")?),
            None => None,
        };
        let density = a.kw("density").map(|v| v.as_bool().unwrap_or(false)).unwrap_or(false);
        let (hist, edges) = crate::core::histogram::histogram(x, bins, range, weight.as_ref(), density).rhai()?;
        Ok(Dynamic::from(crate::ops::return_tuple::ReturnTuple {
            kind: "histogram",
            fields: vec![("hist", Dynamic::from(hist)), ("bin_edges", Dynamic::from(edges))],
        }))
    });
    r.tensor_function("histogramdd", 4, |x, a| {
        use crate::core::histogram::Bins;
        let bins_arg = a.req(0, "bins", "histogramdd")?;
        let edges: Vec<Tensor> = match bins_arg.read_lock::<rhai::Array>() {
            Some(items) if items.iter().any(|i| i.is::<Tensor>()) => items
                .iter()
                .enumerate()
                .map(|(k, i)| {
                    i.clone().try_cast::<Tensor>().ok_or_else(|| {
                        crate::ops::errors::type_error(format!(
                            "expected Tensor as element {k} in argument 1, but got {}",
                            crate::ops::convert::py_type_name(i)
                        ))
                    })
                })
                .collect::<RhaiResult<Vec<Tensor>>>()?,
            _ => Vec::new(),
        };
        let dims = x.sizes().last().copied().unwrap_or(0) as usize;
        let bins: Vec<Bins> = if let Ok(n) = bins_arg.as_int() {
            // One number of bins serves every dim.
            (0..dims).map(|_| Bins::Count(n)).collect()
        } else if edges.is_empty() {
            crate::ops::convert::to_int_list(bins_arg, "bins")?
                .into_iter()
                .map(Bins::Count)
                .collect()
        } else {
            edges.iter().map(Bins::Edges).collect()
        };
        let range = match a.get(1, "range").filter(|v| !v.is_unit()) {
            Some(v) => Some(
                v.clone()
                    .try_cast::<rhai::Array>()
                    .unwrap_or_default()
                    .iter()
                    .map(|x| crate::ops::convert::to_float(x, "range"))
                    .collect::<RhaiResult<Vec<f64>>>()?,
            ),
            None => None,
        };
        let weight = match a.get(2, "weight").filter(|v| !v.is_unit()) {
            Some(v) => Some(crate::ops::convert::to_tensor(v, "weight")?),
            None => None,
        };
        let density = a.get(3, "density").is_some_and(|v| v.as_bool().unwrap_or(false));
        // PyTorch wants one sequence of edges per dim.
        if !edges.is_empty() && edges.len() != dims && x.ndim() >= 2 {
            return Err(to_rhai(crate::core::error::TorchError::runtime(format!(
                "torch.histogramdd: expected {dims} sequences of bin edges for a {dims}-dimensional histogram but got {}",
                edges.len()
            ))));
        }
        let (hist, edges) = crate::core::histogram::histogramdd(
            x,
            &bins,
            range.as_deref(),
            weight.as_ref(),
            density,
        )
        .rhai()?;
        Ok(Dynamic::from(crate::ops::return_tuple::ReturnTuple {
            kind: "histogramdd",
            fields: vec![
                ("hist", Dynamic::from(hist)),
                (
                    "bin_edges",
                    Dynamic::from(crate::ops::convert::tensor_array(edges)),
                ),
            ],
        }))
    });
    r.method_and_function("repeat_interleave", 2, |x, a| {
        let Some(repeats) = a.get(0, "repeats").cloned() else {
            // `torch.repeat_interleave(repeats)`: the indices each count repeats.
            return Ok(Dynamic::from(repeated_indices(x, true).rhai()?));
        };
        // `output_size` only spares PyTorch a device sync; the result is the same.
        a.opt_int(usize::MAX, "output_size")?;
        repeat_interleave(x, &repeats, a.opt_int(1, "dim")?)
    });
}
