//! Reductions over all elements or over dims (`keepdim`): sum, prod, mean, max, min, argmax,
//! argmin, all, any, with PyTorch's result dtypes, empty-input rules and messages.
//!
//! Values are gathered per output element in the reduced dims' row-major order. Float sums
//! of a row that is the innermost, contiguous dim use PyTorch's cascade (`kernels::sum`);
//! other float sums add in order in the tensor's own precision.

use num_complex::Complex64;

use super::copy;
use super::creation::from_scalars;
use super::dtype::{DType, Kind};
use super::error::{Result, TorchError, wrap_dim};
use super::kernels::sum::cascade_sum;
use super::memory::alloc;
use super::scalar::Scalar;
use super::tensor::Tensor;
use super::views::permute;

/// A reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Reduction {
    Sum,
    Prod,
    Mean,
    Max,
    Min,
    ArgMax,
    ArgMin,
    All,
    Any,
}

impl Reduction {
    /// PyTorch's name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Reduction::Sum => "sum",
            Reduction::Prod => "prod",
            Reduction::Mean => "mean",
            Reduction::Max => "max",
            Reduction::Min => "min",
            Reduction::ArgMax => "argmax",
            Reduction::ArgMin => "argmin",
            Reduction::All => "all",
            Reduction::Any => "any",
        }
    }

    /// The result dtype for an input dtype.
    pub fn out_dtype(self, d: DType) -> Result<DType> {
        Ok(match self {
            Reduction::Sum | Reduction::Prod if d.is_integral() => DType::Int64,
            Reduction::Sum | Reduction::Prod => d,
            Reduction::Mean => {
                if !(d.is_floating_point() || d.is_complex()) {
                    return Err(TorchError::not_implemented(format!(
                        "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}",
                        d.cpp_name()
                    )));
                }
                d
            }
            Reduction::Max | Reduction::Min => {
                if d.is_complex() {
                    return Err(TorchError::not_implemented(format!(
                        "\"{}_all\" not implemented for '{}'",
                        self.name(),
                        d.cpp_name()
                    )));
                }
                d
            }
            Reduction::ArgMax | Reduction::ArgMin if d == DType::Bool => {
                return Err(TorchError::not_implemented(format!(
                    "{}(): does not support bool input",
                    self.name()
                )));
            }
            Reduction::ArgMax | Reduction::ArgMin => DType::Int64,
            Reduction::All | Reduction::Any if d == DType::UInt8 => DType::UInt8,
            Reduction::All | Reduction::Any => DType::Bool,
        })
    }

    fn needs_elements(self) -> bool {
        matches!(
            self,
            Reduction::Max | Reduction::Min | Reduction::ArgMax | Reduction::ArgMin
        )
    }
}

/// Reduced dims, sorted, from PyTorch's `dim` argument (`None`, or an empty list: all).
fn reduced_dims(ndim: usize, dims: Option<&[i64]>) -> Result<Vec<usize>> {
    let Some(dims) = dims.filter(|d| !d.is_empty()) else {
        return Ok((0..ndim).collect());
    };
    let mut out = Vec::with_capacity(dims.len());
    for &d in dims {
        let w = wrap_dim(d, ndim)?;
        if out.contains(&w) {
            return Err(TorchError::runtime(format!(
                "dim {w} appears multiple times in the list of dims"
            )));
        }
        out.push(w);
    }
    out.sort_unstable();
    Ok(out)
}

fn fold_float<T: Copy>(
    vals: &[Scalar],
    to: impl Fn(f64) -> T,
    add: impl Fn(T, T) -> T,
    zero: T,
) -> T {
    vals.iter().fold(zero, |a, v| add(a, to(v.to_f64())))
}

/// Sums one row in the dtype's precision; `inner` rows of float32/float64 use the cascade,
/// over the row's bytes gathered in `scratch` (reused from row to row).
fn sum_row(vals: &[Scalar], dtype: DType, inner: bool, scratch: &mut Vec<u8>) -> Scalar {
    match (dtype.kind(), dtype) {
        (Kind::Complex, _) => Scalar::Complex(vals.iter().map(|v| v.to_complex()).sum()),
        (_, DType::Float32) if inner => {
            scratch.clear();
            scratch.extend(vals.iter().flat_map(|v| (v.to_f64() as f32).to_le_bytes()));
            Scalar::Float(cascade_sum::<f32>(scratch) as f64)
        }
        (_, DType::Float64) if inner => {
            scratch.clear();
            scratch.extend(vals.iter().flat_map(|v| v.to_f64().to_le_bytes()));
            Scalar::Float(cascade_sum::<f64>(scratch))
        }
        (_, DType::Float32 | DType::Float16 | DType::BFloat16) => {
            Scalar::Float(fold_float(vals, |x| x as f32, |a, b| a + b, 0.0f32) as f64)
        }
        (Kind::Float, _) => Scalar::Float(fold_float(vals, |x| x, |a, b| a + b, 0.0)),
        _ => Scalar::Int(vals.iter().fold(0i64, |a, v| a.wrapping_add(v.to_i64()))),
    }
}

fn prod_row(vals: &[Scalar], dtype: DType) -> Scalar {
    match (dtype.kind(), dtype) {
        (Kind::Complex, _) => {
            Scalar::Complex(vals.iter().map(|v| v.to_complex()).product::<Complex64>())
        }
        (_, DType::Float32 | DType::Float16 | DType::BFloat16) => {
            Scalar::Float(fold_float(vals, |x| x as f32, |a, b| a * b, 1.0f32) as f64)
        }
        (Kind::Float, _) => Scalar::Float(fold_float(vals, |x| x, |a, b| a * b, 1.0)),
        _ => Scalar::Int(vals.iter().fold(1i64, |a, v| a.wrapping_mul(v.to_i64()))),
    }
}

/// An integer value widened so signed and unsigned values compare correctly.
fn wide(s: &Scalar) -> i128 {
    match s {
        Scalar::UInt(u) => i128::from(*u),
        other => i128::from(other.to_i64()),
    }
}

/// The index of the first maximum (or minimum), NaN counting as the extreme.
fn arg_extreme(vals: &[Scalar], dtype: DType, max: bool) -> usize {
    let better = |a: &Scalar, b: &Scalar| -> bool {
        match dtype.kind() {
            Kind::Float => {
                let (x, y) = (a.to_f64(), b.to_f64());
                if y.is_nan() {
                    return false;
                }
                x.is_nan() || if max { x > y } else { x < y }
            }
            Kind::Bool => {
                if max {
                    a.to_bool() & !b.to_bool()
                } else {
                    !a.to_bool() & b.to_bool()
                }
            }
            _ => {
                let (x, y) = (wide(a), wide(b));
                if max { x > y } else { x < y }
            }
        }
    };
    let mut best = 0;
    for i in 1..vals.len() {
        if better(&vals[i], &vals[best]) {
            best = i;
        }
    }
    best
}

/// One output of a reduction from its row of values; `scratch` is reused by sums.
fn reduce_row(
    op: Reduction,
    vals: &[Scalar],
    dtype: DType,
    out: DType,
    inner: bool,
    scratch: &mut Vec<u8>,
) -> Scalar {
    match op {
        // `out` is the accumulating dtype (`Reduction::out_dtype`: int64 for integers).
        Reduction::Sum => sum_row(vals, out, inner, scratch),
        Reduction::Prod => prod_row(vals, out),
        Reduction::Mean => {
            let n = vals.len() as f64;
            match sum_row(vals, dtype, inner, scratch) {
                Scalar::Complex(c) => Scalar::Complex(c / n),
                s if dtype == DType::Float64 => Scalar::Float(s.to_f64() / n),
                s => Scalar::Float((s.to_f64() as f32 / n as f32) as f64),
            }
        }
        Reduction::Max | Reduction::Min => vals[arg_extreme(vals, dtype, op == Reduction::Max)],
        Reduction::ArgMax | Reduction::ArgMin => {
            Scalar::Int(arg_extreme(vals, dtype, op == Reduction::ArgMax) as i64)
        }
        Reduction::All => bool_out(vals.iter().all(|v| v.to_bool()), out),
        Reduction::Any => bool_out(vals.iter().any(|v| v.to_bool()), out),
    }
}

fn bool_out(b: bool, out: DType) -> Scalar {
    if out == DType::UInt8 {
        Scalar::Int(i64::from(b))
    } else {
        Scalar::Bool(b)
    }
}

/// `t.op(dim, keepdim)`; `dims = None` reduces everything (to a 0-d tensor, `keepdim`
/// ignored as PyTorch does for the dim-less forms).
pub fn reduce(t: &Tensor, op: Reduction, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
    let dtype = t.dtype();
    let out_dtype = op.out_dtype(dtype)?;
    let sizes = t.sizes();
    let ndim = sizes.len();
    let all = dims.is_none_or(|d| d.is_empty());
    let kernel = match op {
        Reduction::Max if all => Some("max_all"),
        Reduction::Min if all => Some("min_all"),
        Reduction::Max => Some("max_cpu"),
        Reduction::Min => Some("min_cpu"),
        Reduction::ArgMax => Some("argmax_cpu"),
        Reduction::ArgMin => Some("argmin_cpu"),
        _ => None,
    };
    if let Some(kernel) = kernel {
        super::unbuilt_kernels::require_kernel(kernel, dtype)?;
    }
    // A 0-d tensor accepts dim 0 or -1 and reduces its one element, keeping no dims.
    let reduced = reduced_dims(ndim, dims)?;
    let reduced = if ndim == 0 { Vec::new() } else { reduced };
    if op.needs_elements() {
        if all && t.numel() == 0 {
            let msg = format!(
                "{}(): Expected reduction dim to be specified for input.numel() == 0.{}",
                op.name(),
                if matches!(op, Reduction::Max | Reduction::Min) {
                    " Specify the reduction dim with the 'dim' argument."
                } else {
                    ""
                }
            );
            return Err(if matches!(op, Reduction::Max | Reduction::Min) {
                TorchError::runtime(msg)
            } else {
                TorchError::index(msg)
            });
        }
        if let Some(&d) = reduced.iter().find(|&&d| ndim > 0 && sizes[d] == 0) {
            return Err(TorchError::index(format!(
                "{}(): Expected reduction dim {d} to have non-zero size.",
                op.name()
            )));
        }
    }
    if matches!(
        op,
        Reduction::Max | Reduction::Min | Reduction::ArgMax | Reduction::ArgMin
    ) && let Some((values, indices)) = super::engine::extreme::reduce_extremes(
        t,
        &reduced,
        matches!(op, Reduction::Max | Reduction::ArgMax),
    )? {
        let r = if matches!(op, Reduction::Max | Reduction::Min) {
            values
        } else {
            indices
        };
        return super::views::reshape(&r, &out_sizes(&sizes, &reduced, all, keepdim));
    }
    if all
        && matches!(op, Reduction::Sum | Reduction::Mean)
        && t.numel() > 0
        && let Some(total) = super::ops_fast::try_sum_float(t)?
    {
        // A dense float tensor reduced whole: PyTorch's cascade order (mean divides the sum).
        let n = t.numel() as f64;
        let v = match (op, dtype) {
            (Reduction::Sum, _) => total,
            (_, DType::Float64) => Scalar::Float(total.to_f64() / n),
            _ => Scalar::Float((total.to_f64() as f32 / n as f32) as f64),
        };
        let sizes = if keepdim { vec![1; ndim] } else { vec![] };
        return from_scalars(&[v], sizes, out_dtype);
    }
    let mut scratch = Vec::new();
    by_rows(t, &reduced, all, keepdim, out_dtype, |row, inner| {
        reduce_row(op, row, dtype, out_dtype, inner, &mut scratch)
    })
}

/// The reduction's output from one value per output element: `row_value` gets the values
/// of `reduced` for that element (in their row-major order) and whether they form the
/// innermost contiguous dim. `dims = None` (`all`) gives a 0-d result unless `keepdim`.
fn by_rows(
    t: &Tensor,
    reduced: &[usize],
    all: bool,
    keepdim: bool,
    out_dtype: DType,
    mut row_value: impl FnMut(&[Scalar], bool) -> Scalar,
) -> Result<Tensor> {
    let sizes = t.sizes();
    let ndim = sizes.len();
    // Kept dims first, then reduced dims: each output's values are consecutive.
    let kept: Vec<usize> = (0..ndim).filter(|d| !reduced.contains(d)).collect();
    // PyTorch allocates the output first, so an output too large to exist (a reduction over
    // an empty dimension keeps the huge others) fails with its size in bytes.
    let kept_sizes: Vec<i64> = kept.iter().map(|&d| sizes[d]).collect();
    let out_bytes = alloc::contiguous_nbytes(&kept_sizes, out_dtype.itemsize())?;
    drop(alloc::zeroed_bytes(out_bytes)?);
    let order: Vec<i64> = kept.iter().chain(reduced).map(|&d| d as i64).collect();
    let arranged = if ndim == 0 {
        t.clone()
    } else {
        permute(t, &order)?
    };
    let vals = copy::to_scalars(&arranged)?;
    let row: usize = reduced
        .iter()
        .map(|&d| sizes[d].max(0) as usize)
        .product::<usize>()
        .max(if ndim == 0 { 1 } else { 0 });
    let outputs: usize = kept.iter().map(|&d| sizes[d].max(0) as usize).product();
    let layout = t.layout();
    let inner = reduced.len() == 1
        && reduced[0] == ndim.saturating_sub(1)
        && layout.strides.last().is_none_or(|s| *s == 1);
    // The outputs may be many (a reduction over an empty dimension keeps the others).
    let mut results = alloc::vec_with_capacity(outputs)?;
    for o in 0..outputs {
        let slice = if row == 0 {
            &[][..]
        } else {
            &vals[o * row..(o + 1) * row]
        };
        results.push(row_value(slice, inner || ndim <= 1));
    }
    from_scalars(
        &results,
        out_sizes(&sizes, reduced, all, keepdim),
        out_dtype,
    )
}

/// The sizes of a reduction's result: none for a whole reduction without `keepdim`, 1 for
/// each reduced dim with it, else the kept dims.
fn out_sizes(sizes: &[i64], reduced: &[usize], all: bool, keepdim: bool) -> Vec<i64> {
    if all && !keepdim {
        vec![]
    } else {
        (0..sizes.len())
            .filter(|d| keepdim || !reduced.contains(d))
            .map(|d| if reduced.contains(&d) { 1 } else { sizes[d] })
            .collect()
    }
}

/// `t.var(dim, correction, keepdim)` (`std`: its square root): the squared distances from
/// each row's mean, summed and divided by `max(0, n - correction)`, computed in `f64` and
/// stored in the input's real dtype (a complex input gives its real counterpart). A row
/// with no degrees of freedom left gives NaN or infinity, as in PyTorch.
pub fn variance(
    t: &Tensor,
    dims: Option<&[i64]>,
    correction: f64,
    keepdim: bool,
    std: bool,
) -> Result<Tensor> {
    let dtype = t.dtype();
    if !(dtype.is_floating_point() || dtype.is_complex()) {
        return Err(TorchError::not_implemented(
            "std and var only support floating point and complex dtypes",
        ));
    }
    let out_dtype = dtype.to_real();
    let ndim = t.ndim();
    let reduced = reduced_dims(ndim, dims)?;
    let reduced = if ndim == 0 { Vec::new() } else { reduced };
    let all = dims.is_none_or(|d| d.is_empty());
    by_rows(t, &reduced, all, keepdim, out_dtype, |row, _| {
        let n = row.len() as f64;
        let mean: Complex64 = row.iter().map(|v| v.to_complex()).sum::<Complex64>() / n;
        let squares: f64 = row.iter().map(|v| (v.to_complex() - mean).norm_sqr()).sum();
        let var = squares / (n - correction).max(0.0);
        Scalar::Float(if std { var.sqrt() } else { var })
    })
}

/// `t.max(dim, keepdim)` and friends: the values and the indices of the extremes.
pub fn extreme_with_indices(
    t: &Tensor,
    max: bool,
    dim: i64,
    keepdim: bool,
) -> Result<(Tensor, Tensor)> {
    let (v, i) = if max {
        (Reduction::Max, Reduction::ArgMax)
    } else {
        (Reduction::Min, Reduction::ArgMin)
    };
    let dims = [dim];
    if t.ndim() > 0 && t.numel() > 0 {
        let kernel = if max { "max_cpu" } else { "min_cpu" };
        super::unbuilt_kernels::require_kernel(kernel, t.dtype())?;
        let reduced = reduced_dims(t.ndim(), Some(&dims))?;
        if let Some((values, indices)) = super::engine::extreme::reduce_extremes(t, &reduced, max)?
        {
            let shape = out_sizes(&t.sizes(), &reduced, false, keepdim);
            return Ok((
                super::views::reshape(&values, &shape)?,
                super::views::reshape(&indices, &shape)?,
            ));
        }
    }
    let values = reduce(t, v, Some(&dims), keepdim)?;
    // Bool inputs have indices too (only the bare argmax/argmin refuse them).
    let ranked = if t.dtype() == DType::Bool {
        copy::cast_copy(t, DType::UInt8)?
    } else {
        t.clone()
    };
    Ok((values, reduce(&ranked, i, Some(&dims), keepdim)?))
}
