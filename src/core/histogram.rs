//! `torch.histogram(input, bins, range=, weight=, density=)`: the counts (or summed
//! weights) of the input's elements, all of them, in bins given by their number (equal
//! bins over the data's range or `range`, edges from `linspace` in the input's dtype) or
//! by a tensor of edges. An element belongs to the bin whose left edge is the last one not
//! above it; the last bin also holds its right edge; elements outside the edges (and
//! NaNs) are not counted. Counts accumulate in the input's dtype, in row-major order.

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
    data: &[f64],
    count: i64,
    range: Option<(f64, f64)>,
    dtype: DType,
) -> Result<Tensor> {
    if count <= 0 {
        return Err(TorchError::runtime(format!(
            "torch.histogram(): bins must be > 0, but got {count} for dimension 0"
        )));
    }
    let (mut lo, mut hi) = match range {
        Some(r) => r,
        None if data.is_empty() => (0.0, 1.0),
        // A NaN makes both ends NaN, as PyTorch's `aminmax` does.
        None if data.iter().any(|v| v.is_nan()) => (f64::NAN, f64::NAN),
        None => (
            data.iter().copied().fold(f64::INFINITY, f64::min),
            data.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        ),
    };
    if lo > hi {
        return Err(TorchError::runtime(format!(
            "torch.histogramdd: min should not exceed max, but got min {} max {} for dimension 0",
            shown(lo),
            shown(hi)
        )));
    }
    if !lo.is_finite() || !hi.is_finite() {
        return Err(TorchError::runtime(format!(
            "torch.histogramdd: dimension 0's range [{}, {}] is not finite",
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

/// `torch.histogram`: `(hist, bin_edges)`.
pub fn histogram(
    t: &Tensor,
    bins: Bins,
    range: Option<(f64, f64)>,
    weight: Option<&Tensor>,
    density: bool,
) -> Result<(Tensor, Tensor)> {
    let dtype = t.dtype();
    if !matches!(dtype, DType::Float32 | DType::Float64) {
        return Err(TorchError::not_implemented(format!(
            "\"histogramdd\" not implemented for '{}'",
            dtype.cpp_name()
        )));
    }
    if let Some(w) = weight
        && w.dtype() != dtype
    {
        return Err(TorchError::runtime(format!(
            "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should have the same dtype, but got input({}), and weight({})",
            dtype.c_type_name(),
            w.dtype().c_type_name()
        )));
    }
    if let Some(w) = weight
        && w.sizes() != t.sizes()
    {
        return Err(TorchError::runtime(format!(
            "torch.histogramdd: if weight tensor is provided it should have the same shape as the input tensor excluding its innermost dimension, but got input with shape [{}, 1] and weight with shape {}",
            t.numel(),
            crate::core::layout::fmt_list(&w.sizes())
        )));
    }
    let data = f64_values(t)?;
    let edges = match bins {
        Bins::Count(n) => equal_edges(&data, n, range, dtype)?,
        Bins::Edges(e) => {
            if e.dtype() != dtype {
                return Err(TorchError::runtime(format!(
                    "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input with dtype {} and bins for dimension 0 with dtype {}",
                    dtype.c_type_name(),
                    e.dtype().c_type_name()
                )));
            }
            if e.ndim() != 1 {
                return Err(TorchError::runtime(format!(
                    "torch.histogramdd: bins tensor should have one dimension, but got {} dimensions in the bins tensor for dimension 0",
                    e.ndim()
                )));
            }
            e.clone()
        }
    };
    let edge_values = f64_values(&edges)?;
    let bins = edge_values.len().saturating_sub(1);
    let weights = match weight {
        Some(w) => Some(f64_values(w)?),
        None => None,
    };
    // Each step rounded to the dtype the counts are kept in.
    let round = |x: f64| {
        if dtype == DType::Float32 {
            x as f32 as f64
        } else {
            x
        }
    };
    let mut hist = crate::core::memory::alloc::vec_with_capacity::<f64>(bins)?;
    hist.resize(bins, 0.0);
    if let (Some(&first), Some(&last)) = (edge_values.first(), edge_values.last())
        && bins > 0
    {
        // PyTorch splits the elements in one run per thread, each counting on its own,
        // then adds the runs' counts in order: weighted float32 counts round that way.
        let threads = crate::core::kernels::pair::threads().max(1);
        let run = data.len().div_ceil(threads).max(1);
        let mut local = crate::core::memory::alloc::vec_with_capacity::<f64>(bins)?;
        for (r, chunk) in data.chunks(run).enumerate() {
            local.clear();
            local.resize(bins, 0.0);
            for (k, &x) in chunk.iter().enumerate() {
                crate::core::interrupt::check_every(k);
                if !(x >= first && x <= last) {
                    continue;
                }
                // The last edge not above `x`; the right edge belongs to the last bin.
                let pos = edge_values
                    .partition_point(|&e| e <= x)
                    .saturating_sub(1)
                    .min(bins - 1);
                let w = weights.as_ref().map_or(1.0, |w| w[r * run + k]);
                local[pos] = round(local[pos] + w);
            }
            for (h, l) in hist.iter_mut().zip(&local) {
                *h = round(*h + l);
            }
        }
    }
    if density {
        // Divided by the total, then by each bin's width, each step rounded.
        let total = round(hist.iter().fold(0.0, |s, &h| round(s + h)));
        for (h, w) in hist.iter_mut().zip(edge_values.windows(2)) {
            *h = round(round(*h / total) / round(w[1] - w[0]));
        }
    }
    let out = crate::core::engine::elements::from_f64s(&hist, vec![bins as i64])?;
    Ok((cast_copy(&out, dtype)?, cast_copy(&edges, dtype)?))
}
