//! Order statistics along one dim, each returning values and their indices: `topk`,
//! `kthvalue`, `median`, `nanmedian`, `mode`, and the running extremes `cummax`/`cummin`.
//!
//! Each row along the dim is read once as `f64` (floats) or `i64` (integers and bools) keys,
//! the op picks indices per row, and the values are gathered from the input by those
//! indices (so they keep its dtype exactly). Selections order NaN above every number, as
//! PyTorch's do, and run the same selection algorithms PyTorch's do (`select_order`), so
//! that among equal values the same index is reported.

use std::cmp::Ordering;

use super::dtype::DType;
use super::engine::elements::from_i64s;
use super::error::{Result, TorchError, wrap_dim};
use super::select_order;
use super::selection::gather;
use super::tensor::Tensor;
use super::unbuilt_kernels::not_built;
use super::views::{movedim, reshape, squeeze};

/// A row's keys: floats (NaN largest) or integers.
enum Keys {
    Float(Vec<f64>),
    Int(Vec<i64>),
}

impl Keys {
    /// Orders elements `a` and `b` ascending, NaN last (equal NaNs compare equal).
    fn cmp(&self, a: usize, b: usize) -> Ordering {
        match self {
            Keys::Int(v) => v[a].cmp(&v[b]),
            Keys::Float(v) => match (v[a].is_nan(), v[b].is_nan()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                _ => v[a].partial_cmp(&v[b]).unwrap_or(Ordering::Equal),
            },
        }
    }

    fn is_nan(&self, i: usize) -> bool {
        matches!(self, Keys::Float(v) if v[i].is_nan())
    }

    /// `a > b`, NaN above every number (PyTorch's `gt_or_nan`).
    fn gt_nan(&self, a: usize, b: usize) -> bool {
        match self {
            Keys::Int(v) => v[a] > v[b],
            Keys::Float(v) => (v[a].is_nan() && !v[b].is_nan()) || v[a] > v[b],
        }
    }

    /// `a < b`, NaN above every number.
    fn lt_nan(&self, a: usize, b: usize) -> bool {
        match self {
            Keys::Int(v) => v[a] < v[b],
            Keys::Float(v) => (!v[a].is_nan() && v[b].is_nan()) || v[a] < v[b],
        }
    }

    /// Plain `a < b` (false whenever a NaN is involved).
    fn lt(&self, a: usize, b: usize) -> bool {
        match self {
            Keys::Int(v) => v[a] < v[b],
            Keys::Float(v) => v[a] < v[b],
        }
    }

    /// Plain `a != b` (true whenever a NaN is involved).
    fn ne(&self, a: usize, b: usize) -> bool {
        match self {
            Keys::Int(v) => v[a] != v[b],
            Keys::Float(v) => v[a] != v[b],
        }
    }
}

/// Runs `pick(row_start, positions)` on each row's positions `0..n` (offset by the row's
/// start in the keys), Ctrl-C checked per row. Nothing is allocated for no rows (an empty
/// tensor may have a huge dim).
fn per_row(rows: usize, n: usize, mut pick: impl FnMut(usize, &mut Vec<usize>)) -> Result<()> {
    if rows == 0 {
        return Ok(());
    }
    let mut v = super::memory::alloc::vec_with_capacity(n)?;
    for r in 0..rows {
        super::interrupt::check();
        v.clear();
        v.extend(r * n..(r + 1) * n);
        pick(r * n, &mut v);
    }
    Ok(())
}

/// `t` with `dim` moved last, its rows read as keys: (moved view, keys of all rows in
/// row-major order, row length).
fn rows(t: &Tensor, dim: usize) -> Result<(Tensor, Keys, usize)> {
    let moved = if t.ndim() == 0 {
        reshape(t, &[1])?
    } else {
        movedim(t, &[dim as i64], &[-1])?
    };
    let n = *moved.sizes().last().unwrap_or(&1) as usize;
    // Read once through the typed converters, straight from the storage.
    let keys = if t.dtype().is_floating_point() {
        let mut v = Vec::new();
        super::copy::for_each_chunk_as(&moved, DType::Float64, |b| {
            v.extend(
                b.chunks_exact(8)
                    .map(|x| f64::from_le_bytes(x.try_into().unwrap_or([0; 8]))),
            );
        })?;
        Keys::Float(v)
    } else {
        let mut v = Vec::new();
        super::copy::for_each_chunk_as(&moved, DType::Int64, |b| {
            v.extend(
                b.chunks_exact(8)
                    .map(|x| i64::from_le_bytes(x.try_into().unwrap_or([0; 8]))),
            );
        })?;
        Keys::Int(v)
    };
    Ok((moved, keys, n))
}

/// From `m` indices per row (row-major): the values gathered from `moved` and the indices,
/// both with the dim moved back to `dim`; `squeeze` drops it (a single pick, no keepdim).
fn finish(
    t: &Tensor,
    moved: &Tensor,
    dim: usize,
    picks: Vec<i64>,
    m: usize,
    squeeze_dim: bool,
) -> Result<(Tensor, Tensor)> {
    let mut sizes = moved.sizes();
    if let Some(last) = sizes.last_mut() {
        *last = m as i64;
    }
    let indices = from_i64s(&picks, sizes)?;
    let values = if moved.numel() == 0 {
        let mut s = moved.sizes();
        if let Some(last) = s.last_mut() {
            *last = m as i64;
        }
        Tensor::zeros(s, t.dtype())?
    } else {
        gather(moved, -1, &indices)?
    };
    let back = |x: &Tensor| -> Result<Tensor> {
        if t.ndim() == 0 {
            return reshape(x, &[]);
        }
        let x = movedim(x, &[-1], &[dim as i64])?;
        let x = if squeeze_dim {
            squeeze(&x, Some(&[dim as i64]))?
        } else {
            x
        };
        super::copy::contiguous_copy(&x)
    };
    Ok((back(&values)?, back(&indices)?))
}

fn row_count(moved: &Tensor, n: usize) -> usize {
    (moved.numel().max(0) as usize).checked_div(n).unwrap_or(0)
}

/// `t.topk(k, dim, largest, sorted)`: as PyTorch's kernel, a partial sort when `k` is at
/// most 1/64 of the row, else the `k`-th element selected and (if `sorted`) the ones
/// before it sorted.
pub fn topk(t: &Tensor, k: i64, dim: i64, largest: bool, sorted: bool) -> Result<(Tensor, Tensor)> {
    // `k` is checked against the dim first; the dtype when the kernel is picked.
    let dim = wrap_dim(dim, t.ndim().max(1))?;
    let size = if t.ndim() == 0 { 1 } else { t.sizes()[dim] };
    if k < 0 || k > size {
        return Err(TorchError::runtime("selected index k out of range"));
    }
    if t.dtype() == DType::Bool {
        return Err(TorchError::not_implemented(
            "topk does not support bool dtypes on CPU",
        ));
    }
    if t.dtype().is_complex() {
        // PyTorch's words, leading space included.
        return Err(TorchError::type_error(
            " topk does not support complex dtypes on CPU",
        ));
    }
    let (moved, keys, n) = rows(t, dim)?;
    let k = k as usize;
    let before = |a: usize, b: usize| {
        if largest {
            keys.gt_nan(a, b)
        } else {
            keys.lt_nan(a, b)
        }
    };
    let mut picks = Vec::new();
    per_row(row_count(&moved, n), n, |start, v| {
        if k > 0 {
            if k * 64 <= n {
                select_order::partial_sort(v, k, &before);
            } else {
                select_order::nth_element(v, k - 1, &before);
                if sorted {
                    select_order::sort(&mut v[..k - 1], &before);
                }
            }
        }
        picks.extend(v[..k].iter().map(|&i| (i - start) as i64));
    })?;
    finish(t, &moved, dim, picks, k, false)
}

/// PyTorch's error for a reduction along an empty dim (`op():`).
fn empty_dim(op: &str, dim: usize) -> TorchError {
    super::error::empty_reduction_dim(&format!("{op}():"), dim)
}

/// `t.kthvalue(k, dim, keepdim)`: the k-th smallest (1-based).
pub fn kthvalue(t: &Tensor, k: i64, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor)> {
    // The dim first (an empty one is an IndexError), then the dtype; a 0-d tensor is its
    // own k-th value of every dtype (no kernel runs for it).
    let dim = wrap_dim(dim, t.ndim().max(1))?;
    if t.ndim() > 0 && t.sizes()[dim] == 0 {
        return Err(empty_dim("kthvalue", dim));
    }
    if t.ndim() > 0 {
        refuse_unordered(t, "kthvalue_cpu")?;
    }
    let (moved, keys, n) = rows(t, dim)?;
    if k < 1 || k as usize > n {
        return Err(TorchError::runtime(format!(
            "kthvalue(): selected number k out of range for dimension {dim}"
        )));
    }
    let k = k as usize - 1;
    let mut picks = Vec::new();
    per_row(row_count(&moved, n), n, |start, v| {
        select_order::quick_select(v, k, &|a, b| keys.gt_nan(a, b));
        picks.push((v[k] - start) as i64);
    })?;
    finish(t, &moved, dim, picks, 1, !keepdim)
}

/// `t.median(dim, keepdim)` (`ignore_nan`: `nanmedian`): the lower median of each row; a
/// row with NaN gives NaN (its first NaN) unless NaNs are ignored.
pub fn median_dim(
    t: &Tensor,
    dim: i64,
    keepdim: bool,
    ignore_nan: bool,
) -> Result<(Tensor, Tensor)> {
    // The dim is wrapped before the dtype is refused, as PyTorch's reductions do.
    let dim = wrap_dim(dim, t.ndim().max(1))?;
    refuse_unordered(t, "median_out")?;
    let (moved, keys, n) = rows(t, dim)?;
    if t.ndim() > 0 && n == 0 {
        // `nanmedian` names itself `median` here, as PyTorch's does.
        return Err(empty_dim("median", dim));
    }
    let mut picks = Vec::new();
    per_row(row_count(&moved, n), n, |start, v| {
        // A row with NaN has NaN for its median: the first one.
        if !ignore_nan && let Some(&first_nan) = v.iter().find(|&&i| keys.is_nan(i)) {
            picks.push((first_nan - start) as i64);
            return;
        }
        let nans = if ignore_nan {
            v.iter().filter(|&&i| keys.is_nan(i)).count()
        } else {
            0
        };
        let k = (n - nans).saturating_sub(1) / 2;
        // PyTorch's median reports the element at rank `k` in a stable order (among
        // equal values, the lowest index first; NaN last).
        v.sort_by(|&a, &b| keys.cmp(a, b));
        picks.push((v[k] - start) as i64);
    })?;
    finish(t, &moved, dim, picks, 1, !keepdim)
}

/// `t.median()` / `t.nanmedian()`: the lower median of every element (NaN for none).
pub fn median_all(t: &Tensor, ignore_nan: bool) -> Result<Tensor> {
    // Nothing to order: NaN in the input's dtype (`True` for bool, 0 for the integers,
    // as NaN converts in PyTorch's fill), whatever the dtype.
    if t.numel() == 0 {
        let nan = if t.dtype().is_integral() && t.dtype() != DType::Bool {
            super::scalar::Scalar::Int(0)
        } else {
            super::scalar::Scalar::Float(f64::NAN)
        };
        return super::creation::full(&[], nan, t.dtype());
    }
    refuse_unordered(t, "median_cpu")?;
    let flat = reshape(&super::copy::contiguous_copy(t)?, &[-1])?;
    let (values, _) = median_dim(&flat, 0, false, ignore_nan)?;
    Ok(values)
}

/// PyTorch's refusal of bool and complex inputs by the order-statistic kernel `kernel`
/// (`median_cpu` for a median of everything, `median_out` along a dim, for `nanmedian` too).
fn refuse_unordered(t: &Tensor, kernel: &str) -> Result<()> {
    if t.dtype() == DType::Bool || t.dtype().is_complex() {
        return Err(not_built(kernel, t.dtype()));
    }
    Ok(())
}

/// `t.mode(dim, keepdim)`: each row's most frequent value (the smallest among equally
/// frequent ones) and an index of it (as PyTorch's kernel finds it).
pub fn mode(t: &Tensor, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor)> {
    // The dim, then an empty one, then the dtype (a 0-d tensor is its own mode).
    let dim = wrap_dim(dim, t.ndim().max(1))?;
    if t.ndim() > 0 && t.sizes()[dim] == 0 {
        return Err(empty_dim("mode", dim));
    }
    if t.ndim() > 0 && t.numel() == 0 {
        // Rows of no length along other dims: empty results, no kernel (nor its dtypes).
        let mut sizes = t.sizes();
        if keepdim {
            sizes[dim] = 1;
        } else {
            sizes.remove(dim);
        }
        return Ok((
            Tensor::zeros(sizes.clone(), t.dtype())?,
            Tensor::zeros(sizes, DType::Int64)?,
        ));
    }
    if t.dtype().is_complex() && t.ndim() > 0 {
        return Err(not_built("mode_cpu", t.dtype()));
    }
    let (moved, keys, n) = rows(t, dim)?;
    let mut picks = Vec::new();
    per_row(row_count(&moved, n), n, |start, v| {
        // Sorted by value (plain `<`), then runs of equal values counted; the longest
        // run's last element wins (a NaN is a run of its own).
        select_order::sort(v, &|a, b| keys.lt(a, b));
        let (mut best, mut best_len, mut len) = (v[0], 0, 0);
        for i in 0..n {
            len += 1;
            if i == n - 1 || keys.ne(v[i], v[i + 1]) {
                if len > best_len {
                    best = v[i];
                    best_len = len;
                }
                len = 0;
            }
        }
        picks.push((best - start) as i64);
    })?;
    finish(t, &moved, dim, picks, 1, !keepdim)
}

/// `t.cummax(dim)` (`max`) or `t.cummin(dim)`: the running extreme and the index it was
/// last reached at (a tie moves the index on; NaN, once met, stays, each new NaN taking
/// the index).
pub fn cumulative_extreme(t: &Tensor, dim: i64, max: bool) -> Result<(Tensor, Tensor)> {
    if t.ndim() == 0 && !matches!(dim, -1 | 0) {
        let name = if max { "cummax" } else { "cummin" };
        return Err(TorchError::index(format!(
            "{name}(): Expected reduction dim -1 or 0 for scalar but got {dim}"
        )));
    }
    let dim = wrap_dim(dim, t.ndim().max(1))?;
    // No kernel runs for a 0-d or an empty tensor: any dtype passes.
    if t.dtype().is_complex() && t.ndim() > 0 && t.numel() > 0 {
        let kernel = if max { "cummax_cpu" } else { "cummin_cpu" };
        return Err(super::unbuilt_kernels::not_built(kernel, t.dtype()));
    }
    let (moved, keys, n) = rows(t, dim)?;
    let rows = row_count(&moved, n);
    let mut picks = Vec::with_capacity(rows * n);
    for r in 0..rows {
        super::interrupt::check();
        let mut best = 0usize;
        for i in 0..n {
            let (x, b) = (r * n + i, r * n + best);
            let take = i == 0
                || keys.is_nan(x)
                || (!keys.is_nan(b) && {
                    let o = keys.cmp(x, b);
                    if max {
                        o != Ordering::Less
                    } else {
                        o != Ordering::Greater
                    }
                });
            if take {
                best = i;
            }
            picks.push(best as i64);
        }
    }
    finish(t, &moved, dim, picks, n, false)
}
