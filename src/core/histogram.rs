//! `torch.histogram` and `torch.histogramdd`: the counts (or summed weights) of points in
//! bins. `histogramdd` reads its input as rows of `D` coordinates (the innermost dim);
//! `histogram` is its one-dimensional case over all elements. Along each dim the bins are
//! given by their number (equal bins over that dim's data range or `range`, edges from
//! `linspace` in the input's dtype) or by a tensor of edges. A coordinate belongs to the
//! bin whose left edge is the last one not above it; the last bin also holds its right
//! edge; points outside the edges (and NaNs) are not counted. Counts accumulate in the
//! input's dtype, in row-major order, one run per thread (see `count`).

use crate::core::copy::cast_copy;
use crate::core::dtype::DType;
use crate::core::engine::elements::f64_values;
use crate::core::error::{Result, TorchError};
use crate::core::tensor::Tensor;

/// How the bins are given.
pub enum Bins<'a> {
    /// This many equal bins.
    Count(i64),
    /// These edges (one more than the bins).
    Edges(&'a Tensor),
}

/// A number as PyTorch's messages print it.
fn shown(x: f64) -> String {
    crate::core::cpp_format::stream_double(x)
}

/// The edges of `count` equal bins over `range`, or over the data's range (widened by a
/// half on each side when all values are one).
fn equal_edges(
    column: impl Iterator<Item = f64> + Clone,
    dim: usize,
    count: i64,
    range: Option<(f64, f64)>,
    dtype: DType,
) -> Result<Tensor> {
    if count <= 0 {
        return Err(TorchError::runtime(format!(
            "torch.histogram(): bins must be > 0, but got {count} for dimension {dim}"
        )));
    }
    let (mut lo, mut hi) = match range {
        Some(r) => r,
        None if column.clone().next().is_none() => (0.0, 1.0),
        // A NaN makes both ends NaN, as PyTorch's `aminmax` does.
        None if column.clone().any(|v| v.is_nan()) => (f64::NAN, f64::NAN),
        None => (
            column.clone().fold(f64::INFINITY, f64::min),
            column.fold(f64::NEG_INFINITY, f64::max),
        ),
    };
    if lo > hi {
        return Err(TorchError::runtime(format!(
            "torch.histogramdd: min should not exceed max, but got min {} max {} for dimension {dim}",
            shown(lo),
            shown(hi)
        )));
    }
    if !lo.is_finite() || !hi.is_finite() {
        return Err(TorchError::runtime(format!(
            "torch.histogramdd: dimension {dim}'s range [{}, {}] is not finite",
            shown(lo),
            shown(hi)
        )));
    }
    if lo == hi {
        lo -= 0.5;
        hi += 0.5;
    }
    crate::core::creation::linspace(lo, hi, count + 1, dtype)
}

/// `torch.histogram`: `(hist, bin_edges)` over all of `t`'s elements.
pub fn histogram(
    t: &Tensor,
    bins: Bins,
    range: Option<(f64, f64)>,
    weight: Option<&Tensor>,
    density: bool,
) -> Result<(Tensor, Tensor)> {
    let flat = t.numel();
    let points = crate::core::views::reshape(t, &[flat, 1])?;
    // A weight of the input's shape weighs the element at the same place.
    let weight = match weight {
        Some(w) if w.sizes() == t.sizes() => Some(crate::core::views::reshape(w, &[flat])?),
        other => other.cloned(),
    };
    let range = range.map(|(lo, hi)| vec![lo, hi]);
    let (hist, mut edges) =
        histogramdd(&points, &[bins], range.as_deref(), weight.as_ref(), density)?;
    // One dim was asked for, so one edge tensor came back.
    match edges.pop() {
        Some(e) => Ok((hist, e)),
        None => Err(TorchError::runtime("histogram: no bin edges")),
    }
}

/// `torch.histogramdd`: `(hist, bin_edges)` of the rows of `t` (`..., D`), one entry of
/// `bins` per dim, `range` as `[min₀, max₀, min₁, max₁, ...]`.
pub fn histogramdd(
    t: &Tensor,
    bins: &[Bins],
    range: Option<&[f64]>,
    weight: Option<&Tensor>,
    density: bool,
) -> Result<(Tensor, Vec<Tensor>)> {
    let dtype = t.dtype();
    if t.ndim() < 2 {
        return Err(TorchError::runtime(
            "torch.histogramdd: input tensor should have at least 2 dimensions",
        ));
    }
    let sizes = t.sizes();
    let dims = sizes.last().copied().unwrap_or(0) as usize;
    if bins.len() != dims {
        return Err(TorchError::runtime(
            "histogramdd: The size of bins must be equal to the innermost dimension of the input.",
        ));
    }
    if !matches!(dtype, DType::Float32 | DType::Float64) {
        return Err(TorchError::not_implemented(format!(
            "\"histogramdd\" not implemented for '{}'",
            dtype.cpp_name()
        )));
    }
    let rows_shape = &sizes[..sizes.len() - 1];
    if let Some(w) = weight
        && w.dtype() != dtype
    {
        return Err(TorchError::runtime(format!(
            "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should have the same dtype, but got input({}), and weight({})",
            dtype.c_type_name(),
            w.dtype().c_type_name()
        )));
    }
    let rows = rows_shape.iter().product::<i64>().max(0) as usize;
    if let Some(w) = weight
        && w.sizes() != rows_shape
    {
        return Err(TorchError::runtime(format!(
            "torch.histogramdd: if weight tensor is provided it should have the same shape as the input tensor excluding its innermost dimension, but got input with shape [{rows}, {dims}] and weight with shape {}",
            crate::core::layout::fmt_list(&w.sizes())
        )));
    }
    if let Some(r) = range
        && r.len() != 2 * dims
    {
        return Err(TorchError::runtime(format!(
            "torch.histogramdd: for a {dims}-dimensional histogram range should have {} elements, but got {}",
            2 * dims,
            r.len()
        )));
    }
    let data = f64_values(t)?;
    let column = |d: usize| data.iter().skip(d).step_by(dims.max(1)).copied();
    let mut edges = Vec::with_capacity(dims);
    for d in 0..dims {
        let e = match bins.get(d) {
            Some(Bins::Edges(e)) => {
                if e.dtype() != dtype {
                    return Err(TorchError::runtime(format!(
                        "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input with dtype {} and bins for dimension {d} with dtype {}",
                        dtype.c_type_name(),
                        e.dtype().c_type_name()
                    )));
                }
                if e.ndim() != 1 {
                    return Err(TorchError::runtime(format!(
                        "torch.histogramdd: bins tensor should have one dimension, but got {} dimensions in the bins tensor for dimension {d}",
                        e.ndim()
                    )));
                }
                (*e).clone()
            }
            Some(Bins::Count(n)) => {
                let r = range.and_then(|r| Some((*r.get(2 * d)?, *r.get(2 * d + 1)?)));
                equal_edges(column(d), d, *n, r, dtype)?
            }
            None => equal_edges(column(d), d, 100, None, dtype)?,
        };
        edges.push(e);
    }
    let edge_values = edges
        .iter()
        .map(f64_values)
        .collect::<Result<Vec<Vec<f64>>>>()?;
    let counts: Vec<usize> = edge_values
        .iter()
        .map(|e| e.len().saturating_sub(1))
        .collect();
    let weights = match weight {
        Some(w) => Some(f64_values(w)?),
        None => None,
    };
    let round = |x: f64| crate::core::element::round_to(dtype, x);
    let mut hist = count(
        &data,
        dims,
        rows,
        &edge_values,
        &counts,
        weights.as_deref(),
        round,
    )?;
    if density {
        // Divided by the total, then by each dim's bin widths in turn, each step rounded.
        let total = round(hist.iter().fold(0.0, |s, &h| round(s + h)));
        for h in hist.iter_mut() {
            *h = round(*h / total);
        }
        let mut inner = hist.len();
        for (d, e) in edge_values.iter().enumerate() {
            inner /= counts[d].max(1);
            for (i, h) in hist.iter_mut().enumerate() {
                let bin = (i / inner.max(1)) % counts[d].max(1);
                if let [lo, hi] = e.get(bin..bin + 2).unwrap_or(&[0.0, 1.0]) {
                    *h = round(*h / round(hi - lo));
                }
            }
        }
    }
    let shape: Vec<i64> = counts.iter().map(|&c| c as i64).collect();
    let out = crate::core::engine::elements::from_f64s(&hist, shape)?;
    let edges = edges
        .iter()
        .map(|e| cast_copy(e, dtype))
        .collect::<Result<Vec<Tensor>>>()?;
    Ok((cast_copy(&out, dtype)?, edges))
}

/// The counts (or weight sums) of the `rows` points of `data` in the cells the edges make,
/// row-major over the dims. PyTorch splits the points in one run per thread, each
/// counting on its own, then adds the runs' counts in order: weighted float32 counts round
/// that way (`round` rounds to the dtype).
fn count(
    data: &[f64],
    dims: usize,
    rows: usize,
    edges: &[Vec<f64>],
    counts: &[usize],
    weights: Option<&[f64]>,
    round: impl Fn(f64) -> f64,
) -> Result<Vec<f64>> {
    let cells: usize = counts.iter().product();
    let mut hist = crate::core::memory::alloc::vec_with_capacity::<f64>(cells)?;
    hist.resize(cells, 0.0);
    if cells == 0 || dims == 0 {
        return Ok(hist);
    }
    let threads = crate::core::kernels::pair::threads().max(1);
    let run = rows.div_ceil(threads).max(1);
    let mut local = crate::core::memory::alloc::vec_with_capacity::<f64>(cells)?;
    for first_row in (0..rows).step_by(run) {
        local.clear();
        local.resize(cells, 0.0);
        for row in first_row..(first_row + run).min(rows) {
            crate::core::interrupt::check_every(row);
            let point = data.get(row * dims..(row + 1) * dims).unwrap_or(&[]);
            let mut cell = 0;
            let mut inside = true;
            for ((&x, e), &n) in point.iter().zip(edges).zip(counts) {
                let (Some(&lo), Some(&hi)) = (e.first(), e.last()) else {
                    inside = false;
                    break;
                };
                if !(x >= lo && x <= hi) {
                    inside = false;
                    break;
                }
                // The last edge not above `x`; the right edge belongs to the last bin.
                let bin = e.partition_point(|&v| v <= x).saturating_sub(1).min(n - 1);
                cell = cell * n + bin;
            }
            if inside {
                let w = weights.and_then(|w| w.get(row).copied()).unwrap_or(1.0);
                local[cell] = round(local[cell] + w);
            }
        }
        for (h, l) in hist.iter_mut().zip(&local) {
            *h = round(*h + l);
        }
    }
    Ok(hist)
}
