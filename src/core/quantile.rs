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

/// The ranks (0-based, in ascending order) a quantile's gradient goes to and the weight
/// of each, for a row whose first `n` sorted values count (`n = 0`: `empty_rank`, where
/// PyTorch reads a row with nothing to count). PyTorch's backward computes the rank in
/// double from `q` in the dtype (the forward, in the dtype), and takes its ranks and the
/// linear weight from it: `w = rank - floor(rank)`, and `1 - w` for the rank below.
fn gradient_ranks(
    empty_rank: usize,
    n: usize,
    q: f64,
    how: Interpolation,
    r: fn(f64) -> f64,
) -> [(usize, f64); 2] {
    if n == 0 {
        return [(empty_rank, 1.0), (empty_rank, 0.0)];
    }
    let at = |i: f64| (i as usize).min(n - 1);
    let rank = r(q) * (n - 1) as f64;
    let one = |i: f64| [(at(i), 1.0), (at(i), 0.0)];
    match how {
        Interpolation::Lower => one(rank.floor()),
        Interpolation::Higher => one(rank.ceil()),
        Interpolation::Nearest => one(rank.round_ties_even()),
        Interpolation::Midpoint => [(at(rank.floor()), 0.5), (at(rank.ceil()), 0.5)],
        Interpolation::Linear => {
            let w = r(rank - rank.floor());
            [(at(rank.floor()), r(1.0 - w)), (at(rank.ceil()), w)]
        }
    }
}

/// The positions in `row` of its elements in ascending order (NaN above every number),
/// equal elements in their order (PyTorch's sort, whose order the gradient follows).
fn sorted_positions(row: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..row.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (row[a], row[b]);
        x.is_nan()
            .cmp(&y.is_nan())
            .then(x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal))
    });
    order
}

/// What backward needs of a quantile: for each output element (row-major), the flat
/// row-major positions in the input it was read from and their weights.
#[derive(Debug, Clone, Default)]
pub struct QuantileSources {
    /// Input positions, two per output element.
    pub positions: Vec<i64>,
    /// The weight of each position.
    pub weights: Vec<f64>,
}

/// `torch.quantile(t, q, dim, keepdim, interpolation)` (`ignore_nan`: `nanquantile`);
/// `qs` are the quantiles, `q_is_vector` whether `q` was a 1-d tensor (its dim leads the
/// result). With `sources`, also where each value was read from (for backward).
#[allow(clippy::too_many_arguments)]
pub fn quantile_with_sources(
    t: &Tensor,
    qs: &[f64],
    q_is_vector: bool,
    dim: Option<i64>,
    keepdim: bool,
    how: Interpolation,
    ignore_nan: bool,
    sources: bool,
) -> Result<(Tensor, QuantileSources)> {
    let dtype = t.dtype();
    // `nanquantile` reports its errors as `quantile`, as PyTorch's does.
    let name = "quantile";
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
    // The rows as views of `t`, and of `t`'s flat positions when sources are asked.
    let rows_of = |t: &Tensor| -> Result<Tensor> {
        match dim {
            None => super::views::reshape(t, &[1, t.numel()]),
            Some(_) if t.ndim() == 0 => super::views::reshape(t, &[1]),
            Some(d) => {
                let w = wrap_dim(d, t.ndim())?;
                movedim(t, &[w as i64], &[t.ndim() as i64 - 1])
            }
        }
    };
    let (rows_tensor, kept): (Tensor, Vec<i64>) = match dim {
        None => (
            rows_of(t)?,
            if keepdim {
                vec![1; sizes.len()]
            } else {
                vec![]
            },
        ),
        Some(d) => {
            let w = wrap_dim(d, t.ndim().max(1))?;
            let moved = rows_of(t)?;
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
    let positions = if sources {
        let flat: Vec<i64> = (0..t.numel()).collect();
        let all = elements::from_i64s(&flat, sizes.clone())?;
        elements::i64_values(&rows_of(&all)?)?
    } else {
        Vec::new()
    };
    let mut found = QuantileSources::default();
    if sources {
        found.positions.resize(out.len() * 2, 0);
        found.weights.resize(out.len() * 2, 0.0);
    }
    let mut sorted = Vec::with_capacity(n);
    for (r, row) in values.chunks_exact(n.max(1)).enumerate() {
        super::interrupt::check_every(r);
        sorted.clear();
        sorted.extend_from_slice(row);
        // NaNs last whatever their sign.
        sorted.sort_by(|a, b| a.is_nan().cmp(&b.is_nan()).then(a.total_cmp(b)));
        let valid = sorted.iter().take_while(|v| !v.is_nan()).count();
        // A row holding NaN gives NaN.
        let counted = if valid < n && !ignore_nan { 0 } else { valid };
        let order = if sources {
            sorted_positions(row)
        } else {
            Vec::new()
        };
        for (k, &q) in qs.iter().enumerate() {
            let j = k * rows + r;
            out[j] = if counted == 0 {
                f64::NAN
            } else {
                pick(&sorted, counted, q, how, round)
            };
            if sources {
                // A row with NaN reads its last rank (a NaN); `nanquantile`'s row of NaNs
                // its first.
                let empty_rank = if ignore_nan { 0 } else { n.saturating_sub(1) };
                let ranks = gradient_ranks(empty_rank, counted, q, how, round);
                for (s, (rank, weight)) in ranks.into_iter().enumerate() {
                    let at = r * n + order.get(rank).copied().unwrap_or(0);
                    found.positions[j * 2 + s] = positions.get(at).copied().unwrap_or(0);
                    found.weights[j * 2 + s] = weight;
                }
            }
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
    Ok((cast_copy(&result, dtype)?, found))
}

/// The gradient of a quantile from its output's gradient `g`: each output element's
/// gradient, times each source's weight, added at the source's input position.
pub fn quantile_grad(g: &Tensor, sizes: &[i64], found: &QuantileSources) -> Result<Tensor> {
    let dtype = g.dtype();
    let grads = elements::f64_values(g)?;
    let mut values = alloc::vec_with_capacity::<f64>(found.weights.len())?;
    values.extend(found.weights.iter().enumerate().map(|(i, w)| {
        super::element::round_to(dtype, grads.get(i / 2).copied().unwrap_or(0.0) * w)
    }));
    let spread = elements::from_f64s(&values, vec![values.len() as i64])?;
    let spread = cast_copy(&spread, dtype)?;
    super::index_ops::add_at_positions(sizes, dtype, &found.positions, &spread)
}
