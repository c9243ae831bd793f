//! `quantile` and `nanquantile`: each row (along a dim, or of the flattened tensor) sorted
//! once, NaNs last; for each `q` the rank `q * (n - 1)` (in the dtype's arithmetic, as
//! PyTorch computes it) picks or interpolates between its neighbours. `quantile` gives NaN
//! for a row holding NaN; `nanquantile` ignores NaNs (an all-NaN row gives NaN).

use super::copy::cast_copy;
use super::dtype::DType;
use super::engine::elements;
use super::error::{Result, TorchError, wrap_dim};
use super::memory::alloc;
use super::tensor::Tensor;
use super::views::movedim;

/// How a rank between two elements becomes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interpolation {
    /// `below + (above - below) * fraction`.
    Linear,
    /// The element below.
    Lower,
    /// The element above.
    Higher,
    /// Halfway between both.
    Midpoint,
    /// The nearer one (ties to the even rank).
    Nearest,
}

impl Interpolation {
    /// The mode PyTorch names `name`, or its error.
    pub fn parse(name: &str) -> Result<Interpolation> {
        Ok(match name {
            "linear" => Interpolation::Linear,
            "lower" => Interpolation::Lower,
            "higher" => Interpolation::Higher,
            "midpoint" => Interpolation::Midpoint,
            "nearest" => Interpolation::Nearest,
            other => {
                return Err(TorchError::runtime(format!(
                    "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got {other}"
                )));
            }
        })
    }
}

/// PyTorch's `lerp` of two values in the given rounding.
fn lerp(a: f64, b: f64, w: f64, r: fn(f64) -> f64) -> f64 {
    if w.abs() < 0.5 {
        r(a + r(w * r(b - a)))
    } else {
        r(b - r(r(b - a) * r(1.0 - w)))
    }
}

/// The quantile `q` of a sorted row whose first `n` values are not NaN.
fn pick(sorted: &[f64], n: usize, q: f64, how: Interpolation, r: fn(f64) -> f64) -> f64 {
    if n == 0 {
        return f64::NAN;
    }
    let rank = r(q * (n - 1) as f64);
    let below = rank.floor();
    let above = rank.ceil();
    let value = |i: f64| sorted[(i as usize).min(n - 1)];
    match how {
        Interpolation::Lower => value(below),
        Interpolation::Higher => value(above),
        Interpolation::Nearest => value(rank.round_ties_even()),
        Interpolation::Midpoint => lerp(value(below), value(above), 0.5, r),
        Interpolation::Linear => lerp(value(below), value(above), r(rank - below), r),
    }
}

/// `torch.quantile(t, q, dim, keepdim, interpolation)` (`ignore_nan`: `nanquantile`);
/// `qs` are the quantiles, `q_is_vector` whether `q` was a 1-d tensor (its dim leads the
/// result).
#[allow(clippy::too_many_arguments)]
pub fn quantile(
    t: &Tensor,
    qs: &[f64],
    q_is_vector: bool,
    dim: Option<i64>,
    keepdim: bool,
    how: Interpolation,
    ignore_nan: bool,
) -> Result<Tensor> {
    let dtype = t.dtype();
    let name = if ignore_nan {
        "nanquantile"
    } else {
        "quantile"
    };
    if !matches!(dtype, DType::Float32 | DType::Float64) {
        return Err(TorchError::runtime(format!(
            "{name}() input tensor must be either float or double dtype"
        )));
    }
    if t.numel() == 0 {
        return Err(TorchError::runtime(format!(
            "{name}() input tensor must be non-empty"
        )));
    }
    for &q in qs {
        if !(0.0..=1.0).contains(&q) {
            return Err(TorchError::runtime(format!(
                "{name}() q must be in the range [0, 1] but got {}",
                super::cpp_format::stream_double(q)
            )));
        }
    }
    let sizes = t.sizes();
    let (rows_tensor, kept): (Tensor, Vec<i64>) = match dim {
        None => (
            super::views::reshape(t, &[1, t.numel()])?,
            if keepdim {
                vec![1; sizes.len()]
            } else {
                vec![]
            },
        ),
        Some(d) => {
            let w = wrap_dim(d, t.ndim().max(1))?;
            let moved = if t.ndim() == 0 {
                super::views::reshape(t, &[1])?
            } else {
                movedim(t, &[w as i64], &[t.ndim() as i64 - 1])?
            };
            let mut kept = sizes.clone();
            if keepdim {
                if !kept.is_empty() {
                    kept[w] = 1;
                }
            } else if !kept.is_empty() {
                kept.remove(w);
            }
            (moved, kept)
        }
    };
    let n = *rows_tensor.sizes().last().unwrap_or(&1) as usize;
    let values = elements::f64_values(&rows_tensor)?;
    let rows = values.len() / n.max(1);
    let round: fn(f64) -> f64 = if dtype == DType::Float32 {
        |v| v as f32 as f64
    } else {
        |v| v
    };
    let mut out = alloc::vec_with_capacity::<f64>(rows * qs.len())?;
    out.resize(rows * qs.len(), 0.0);
    let mut sorted = Vec::with_capacity(n);
    for (r, row) in values.chunks_exact(n.max(1)).enumerate() {
        super::interrupt::check_every(r);
        sorted.clear();
        sorted.extend_from_slice(row);
        // NaNs last whatever their sign.
        sorted.sort_by(|a, b| a.is_nan().cmp(&b.is_nan()).then(a.total_cmp(b)));
        let valid = sorted.iter().take_while(|v| !v.is_nan()).count();
        for (k, &q) in qs.iter().enumerate() {
            out[k * rows + r] = if valid < n && !ignore_nan {
                f64::NAN
            } else {
                pick(&sorted, valid, q, how, round)
            };
        }
    }
    let mut shape = Vec::new();
    if q_is_vector {
        shape.push(qs.len() as i64);
    }
    shape.extend(kept);
    let mut bytes = alloc::vec_with_capacity::<u8>(out.len() * 8)?;
    bytes.extend(out.iter().flat_map(|v| v.to_le_bytes()));
    let result = elements::from_image(bytes, shape, DType::Float64);
    cast_copy(&result, dtype)
}
