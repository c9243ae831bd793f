//! `torch.segment_reduce`: `data` cut along `axis` into consecutive segments (given by
//! their lengths or by offsets, per row of the dims before `axis`) and each segment
//! reduced to one value by `sum`, `mean`, `max`, `min` or `prod`, starting from `initial`
//! when given. An empty segment gives `initial`, or the reduction's empty value (0, NaN,
//! −inf, inf, 1). Each step of a reduction rounds to the data's dtype, as PyTorch's
//! kernel accumulates in it. Its gradient (`SegmentReduceBackward0`) follows PyTorch's
//! rules: even shares among tied extremes, and a product's zeros handled apart.

use super::dtype::DType;
use super::element::round_to;
use super::engine::elements::{f64_values, from_f64s, int64_values};
use super::error::{Result, TorchError, wrap_dim};
use super::tensor::Tensor;

/// The reduction applied to each segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum SegmentReduction {
    Sum,
    Mean,
    Max,
    Min,
    Prod,
}

impl SegmentReduction {
    /// PyTorch's names (`max`/`min` also as `amax`/`amin`), or its refusal.
    pub fn parse(name: &str) -> Result<SegmentReduction> {
        Ok(match name {
            "sum" => SegmentReduction::Sum,
            "mean" => SegmentReduction::Mean,
            "max" | "amax" => SegmentReduction::Max,
            "min" | "amin" => SegmentReduction::Min,
            "prod" => SegmentReduction::Prod,
            other => {
                return Err(TorchError::runtime(format!(
                    "reduce argument must be either sum, prod, mean, amax or amin, got {other}"
                )));
            }
        })
    }

    fn empty_value(self) -> f64 {
        match self {
            SegmentReduction::Sum => 0.0,
            SegmentReduction::Mean => f64::NAN,
            SegmentReduction::Max => f64::NEG_INFINITY,
            SegmentReduction::Min => f64::INFINITY,
            SegmentReduction::Prod => 1.0,
        }
    }
}

/// How the segments are given.
pub enum Segments<'a> {
    /// Each segment's length (the last dim), one row per index of the dims before `axis`.
    Lengths(&'a Tensor),
    /// Each segment's start, then the end (one more than the segments).
    Offsets(&'a Tensor),
}

/// Where the segments of every row lie, and the shapes around `axis`.
#[derive(Debug, Clone)]
pub struct Plan {
    /// `[start, end)` of each segment of each outer row, row-major.
    bounds: Vec<(usize, usize)>,
    /// Segments per outer row.
    segments: usize,
    /// Rows before `axis` (the product of those sizes).
    outer: usize,
    /// `data`'s size along `axis`.
    length: usize,
    /// Elements after `axis` (the product of those sizes).
    inner: usize,
    /// The result's shape.
    shape: Vec<i64>,
}

/// Checks the arguments as PyTorch does and finds each segment's bounds.
pub fn plan(data: &Tensor, segments: &Segments, axis: i64, unchecked: bool) -> Result<Plan> {
    let axis = wrap_dim(axis, data.ndim())?;
    let (given, kind) = match segments {
        Segments::Lengths(l) => (*l, "lengths"),
        Segments::Offsets(o) => (*o, "offsets"),
    };
    if data.ndim() < given.ndim() {
        return Err(TorchError::runtime(format!(
            "Expected data.dim() >= {kind}_value.dim() to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)"
        )));
    }
    if given.ndim() as i64 - 1 != axis as i64 {
        return Err(TorchError::runtime(format!(
            "segment_reduce(): Expected axis to be the last dimension of {kind} but got {axis}."
        )));
    }
    let sizes = data.sizes();
    let given_sizes = given.sizes();
    let outer_sizes = &sizes[..axis];
    let length = sizes[axis].max(0) as usize;
    let inner = sizes[axis + 1..].iter().product::<i64>().max(0) as usize;
    let outer = outer_sizes.iter().product::<i64>().max(0) as usize;
    let sum_error = || {
        TorchError::runtime(
            "segment_reduce(): Expected all rows of lengths along axis to sum to data.size(lengths.dim()-1) when !unsafe.",
        )
    };
    // Every row of the lengths or offsets belongs to one row of the data.
    if &given_sizes[..axis] != outer_sizes {
        return Err(sum_error());
    }
    let values = int64_values(given)?;
    let per_row = given_sizes[axis].max(0) as usize;
    if matches!(segments, Segments::Lengths(_)) {
        if values.is_empty() {
            return Err(TorchError::runtime(
                "min(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.",
            ));
        }
        if !unchecked
            && values
                .chunks(per_row.max(1))
                .any(|r| r.iter().sum::<i64>() != length as i64)
        {
            return Err(sum_error());
        }
        if values.iter().any(|&v| v < 0) {
            return Err(TorchError::runtime("lengths contains negative value!"));
        }
    }
    if !given.dtype().is_integral() || given.dtype() == DType::Bool {
        return Err(crate::core::unbuilt_kernels::not_built(
            if kind == "lengths" {
                "_segment_reduce_lengths_cpu_kernel1"
            } else {
                "_segment_reduce_offsets_cpu_kernel1"
            },
            given.dtype(),
        ));
    }
    let mut bounds = Vec::with_capacity(values.len());
    let segments_per_row = match segments {
        Segments::Lengths(_) => {
            for row in values.chunks(per_row.max(1)) {
                let mut start = 0usize;
                for &l in row {
                    let end = start.saturating_add(l as usize);
                    bounds.push((start, end));
                    start = end;
                }
            }
            per_row
        }
        Segments::Offsets(_) => {
            for row in values.chunks(per_row.max(1)) {
                for pair in row.windows(2) {
                    if pair[1] < pair[0] {
                        return Err(TorchError::runtime(
                            "Expected segment_length >= 0 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)",
                        ));
                    }
                    bounds.push((pair[0].max(0) as usize, pair[1].max(0) as usize));
                }
            }
            per_row.saturating_sub(1)
        }
    };
    // PyTorch reads past the data when unchecked segments overrun it; tensh refuses.
    if bounds.iter().any(|&(_, end)| end > length) {
        return Err(TorchError::runtime(format!(
            "segment_reduce(): the segments reach past the data's {length} elements along axis {axis}"
        )));
    }
    let mut shape = sizes.to_vec();
    shape[axis] = segments_per_row as i64;
    Ok(Plan {
        bounds,
        segments: segments_per_row,
        outer,
        length,
        inner,
        shape,
    })
}

/// The float dtypes the kernel has, or PyTorch's refusal.
fn check_dtype(data: &Tensor) -> Result<DType> {
    let dtype = data.dtype();
    if !matches!(
        dtype,
        DType::Float32 | DType::Float64 | DType::Float16 | DType::BFloat16
    ) {
        return Err(crate::core::unbuilt_kernels::not_built(
            "_segment_reduce_cpu",
            dtype,
        ));
    }
    Ok(dtype)
}

/// The position in `data`'s row-major values of element `k` of segment row `o`, inner `i`.
fn at(plan: &Plan, o: usize, k: usize, i: usize) -> usize {
    (o * plan.length + k) * plan.inner + i
}

/// `torch.segment_reduce` on a checked plan.
pub fn segment_reduce(
    data: &Tensor,
    reduction: SegmentReduction,
    plan: &Plan,
    initial: Option<f64>,
) -> Result<Tensor> {
    let dtype = check_dtype(data)?;
    let values = f64_values(data)?;
    let round = |x: f64| round_to(dtype, x);
    let cells = plan.outer * plan.segments * plan.inner;
    let mut out = crate::core::memory::alloc::vec_with_capacity::<f64>(cells)?;
    for o in 0..plan.outer {
        for s in 0..plan.segments {
            let (start, end) = plan.bounds[o * plan.segments + s];
            for i in 0..plan.inner {
                crate::core::interrupt::check_every(out.len());
                if start == end {
                    out.push(initial.map_or(reduction.empty_value(), round));
                    continue;
                }
                let mut acc = initial.map_or(
                    match reduction {
                        SegmentReduction::Max => f64::NEG_INFINITY,
                        SegmentReduction::Min => f64::INFINITY,
                        SegmentReduction::Prod => 1.0,
                        _ => 0.0,
                    },
                    round,
                );
                for k in start..end {
                    let x = values[at(plan, o, k, i)];
                    acc = match reduction {
                        SegmentReduction::Sum | SegmentReduction::Mean => round(acc + x),
                        SegmentReduction::Prod => round(acc * x),
                        // NaN wins.
                        SegmentReduction::Max if x.is_nan() || x > acc => x,
                        SegmentReduction::Min if x.is_nan() || x < acc => x,
                        _ => acc,
                    };
                }
                if reduction == SegmentReduction::Mean {
                    acc = round(acc / (end - start) as f64);
                }
                out.push(acc);
            }
        }
    }
    crate::core::copy::cast_copy(&from_f64s(&out, plan.shape.clone())?, dtype)
}

/// The gradient of `data` from the result's gradient `grad`, given the result `result`.
pub fn segment_reduce_grad(
    data: &Tensor,
    reduction: SegmentReduction,
    plan: &Plan,
    result: &Tensor,
    grad: &Tensor,
    initial: Option<f64>,
) -> Result<Tensor> {
    let dtype = data.dtype();
    let round = |x: f64| round_to(dtype, x);
    let values = f64_values(data)?;
    let results = f64_values(result)?;
    let grads = f64_values(grad)?;
    let mut out = crate::core::memory::alloc::vec_with_capacity::<f64>(values.len())?;
    out.resize(values.len(), 0.0);
    for o in 0..plan.outer {
        for s in 0..plan.segments {
            let (start, end) = plan.bounds[o * plan.segments + s];
            for i in 0..plan.inner {
                let cell = (o * plan.segments + s) * plan.inner + i;
                let (g, r) = (grads[cell], results[cell]);
                let slots = (start..end).map(|k| at(plan, o, k, i));
                match reduction {
                    SegmentReduction::Sum => slots.for_each(|p| out[p] = g),
                    SegmentReduction::Mean => {
                        let share = round(g / (end - start) as f64);
                        slots.for_each(|p| out[p] = share);
                    }
                    SegmentReduction::Max | SegmentReduction::Min => {
                        // Counted, then written: no list of the tied places.
                        let tied = slots.filter(|&p| values[p] == r);
                        let share = round(g / tied.clone().count() as f64);
                        for p in tied {
                            out[p] = share;
                        }
                    }
                    SegmentReduction::Prod => {
                        let zeros = slots.clone().filter(|&p| values[p] == 0.0).count();
                        for p in slots.clone() {
                            out[p] = match zeros {
                                0 => round(round(g * r) / values[p]),
                                1 if values[p] == 0.0 => {
                                    // The product of the others (and `initial`).
                                    let others = slots
                                        .clone()
                                        .filter(|&q| q != p)
                                        .fold(initial.map_or(1.0, round), |a, q| {
                                            round(a * values[q])
                                        });
                                    round(g * others)
                                }
                                _ => 0.0,
                            };
                        }
                    }
                }
            }
        }
    }
    crate::core::copy::cast_copy(&from_f64s(&out, data.sizes())?, dtype)
}
