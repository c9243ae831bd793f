//! Counting ops: `bincount` (how often each non-negative integer occurs, or the sum of
//! its weights) and `histc` (how many values fall in each of equal-width bins), with
//! PyTorch's checks, messages and result dtypes.

use super::copy;
use super::dtype::DType;
use super::element;
use super::engine::elements;
use super::error::{Result, TorchError};
use super::tensor::Tensor;

/// `n` zeros, the allocation checked against the heap budget.
fn zeros<T: Clone + Default>(n: usize) -> Result<Vec<T>> {
    let mut v = super::memory::alloc::vec_with_capacity(n)?;
    v.resize(n, T::default());
    Ok(v)
}

/// `torch.bincount(input, weights=None, minlength=0)`.
pub fn bincount(t: &Tensor, weights: Option<&Tensor>, minlength: i64) -> Result<Tensor> {
    if minlength < 0 {
        return Err(TorchError::runtime("minlength should be >= 0"));
    }
    if !t.dtype().is_integral() || t.dtype() == DType::Bool {
        return Err(TorchError::not_implemented(format!(
            "\"bincount_cpu\" not implemented for '{}'",
            t.dtype().cpp_name()
        )));
    }
    let refuse = || TorchError::runtime("bincount only supports 1-d non-negative integral inputs.");
    if t.ndim() != 1 {
        return Err(refuse());
    }
    let values = elements::int64_values(t)?;
    if values.iter().any(|&v| v < 0) {
        return Err(refuse());
    }
    if let Some(w) = weights
        && (w.ndim() != 1 || w.numel() != t.numel())
    {
        return Err(TorchError::runtime(
            "weights should be 1-d and have the same length as input",
        ));
    }
    let len = values
        .iter()
        .map(|&v| v + 1)
        .max()
        .unwrap_or(0)
        .max(minlength);
    let len_usize = usize::try_from(len).map_err(|_| refuse())?;
    match weights {
        None => {
            let mut counts = zeros::<i64>(len_usize)?;
            for &v in &values {
                counts[v as usize] += 1;
            }
            elements::from_i64s(&counts, vec![len])
        }
        Some(w) => {
            // float32 weights keep their dtype; any other is summed in double.
            let dtype = if w.dtype() == DType::Float32 {
                DType::Float32
            } else {
                DType::Float64
            };
            let ws = elements::image(&copy::cast_copy(w, DType::Float64)?)?;
            let read = element::f64_reader(DType::Float64);
            let mut sums = zeros::<f64>(len_usize)?;
            for (&v, b) in values.iter().zip(ws.chunks_exact(8)) {
                sums[v as usize] += read(b);
            }
            let mut bytes = super::memory::alloc::zeroed_bytes(len_usize * 8)?;
            for (s, out) in sums.iter().zip(bytes.chunks_exact_mut(8)) {
                out.copy_from_slice(&s.to_le_bytes());
            }
            let wide = elements::from_image(bytes, vec![len], DType::Float64);
            copy::cast_copy(&wide, dtype)
        }
    }
}

/// PyTorch's error for a histogram range whose maximum is below its minimum.
fn range_refused() -> TorchError {
    TorchError::runtime("torch.histc: max must be larger than min")
}

/// `torch.histc(input, bins=100, min=0, max=0)`: counts of the values in `bins` equal
/// bins over `[min, max]` (the data's range when both are equal; widened by one on each
/// side when that is one value), in the input's dtype; values outside are not counted.
pub fn histc(t: &Tensor, bins: i64, min: f64, max: f64) -> Result<Tensor> {
    // PyTorch's order: the given range, then the first step that meets a bool or complex
    // input names itself, then the range the data gives (in every other dtype), widened in
    // the input's dtype when it is one value, and only then the integer dtypes' refusal.
    if min > max {
        return Err(range_refused());
    }
    if t.dtype() == DType::Bool {
        return Err(TorchError::not_implemented(
            "\"linspace_cpu\" not implemented for 'Bool'",
        ));
    }
    // An empty input has no range to ask `aminmax` for.
    if t.dtype().is_complex() && min == max && t.numel() > 0 {
        return Err(TorchError::type_error(format!(
            "aminmax not implemented for {}",
            t.dtype().cpp_name()
        )));
    }
    let values = elements::image(&copy::cast_copy(t, DType::Float64)?)?;
    let read = element::f64_reader(DType::Float64);
    let data: Vec<f64> = values.chunks_exact(8).map(read).collect();
    let (mut lo, mut hi) = (min, max);
    let from_data = lo == hi && !data.is_empty();
    if from_data {
        // The data's own extremes, a NaN among them being both (as `aminmax` gives them).
        let extreme = |pick: fn(f64, f64) -> f64| {
            move |a: f64, b: f64| {
                if a.is_nan() {
                    a
                } else if b.is_nan() {
                    b
                } else {
                    pick(a, b)
                }
            }
        };
        lo = data.iter().copied().fold(f64::INFINITY, extreme(f64::min));
        hi = data
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, extreme(f64::max));
    }
    if !lo.is_finite() || !hi.is_finite() {
        // A range `aminmax` found holding a NaN prints as `-nan` in PyTorch (its sign bit
        // set), whatever NaN the data held; a NaN given as a bound prints as `nan`.
        let shown = |x: f64| {
            if x.is_nan() && from_data {
                "-nan".to_string()
            } else {
                super::cpp_format::stream_double(x)
            }
        };
        return Err(TorchError::runtime(format!(
            "torch.histc: range of [{}, {}] is not finite",
            shown(lo),
            shown(hi)
        )));
    }
    if lo > hi {
        return Err(range_refused());
    }
    if lo == hi {
        lo -= 1.0;
        hi += 1.0;
        // The widened ends are numbers of the input's dtype (`uint8` has no -1).
        for end in [lo, hi] {
            super::checked_scalar::check_double_converts(t.dtype(), end)?;
        }
    }
    if !t.dtype().is_floating_point() {
        return Err(TorchError::not_implemented(format!(
            "\"histogram_cpu\" not implemented for '{}'",
            t.dtype().cpp_name()
        )));
    }
    if bins <= 0 {
        return Err(TorchError::runtime(format!(
            "torch.histogram(): bins must be > 0, but got {bins} for dimension 0"
        )));
    }
    let n = bins as usize;
    let mut counts = zeros::<f64>(n)?;
    for &x in &data {
        if !(lo..=hi).contains(&x) {
            continue;
        }
        let pos = (((x - lo) * bins as f64) / (hi - lo)) as usize;
        counts[pos.min(n - 1)] += 1.0;
    }
    let mut bytes = super::memory::alloc::zeroed_bytes(n * 8)?;
    for (c, out) in counts.iter().zip(bytes.chunks_exact_mut(8)) {
        out.copy_from_slice(&c.to_le_bytes());
    }
    copy::cast_copy(
        &elements::from_image(bytes, vec![bins], DType::Float64),
        t.dtype(),
    )
}
