//! Reductions over all elements or over dims (`keepdim`): sum, prod, mean, max, min, argmax,
//! argmin, all, any, with PyTorch's result dtypes, empty-input rules and messages.
//!
//! Values are gathered per output element in the reduced dims' row-major order. Float sums
//! of a row that is the innermost, contiguous dim use PyTorch's cascade (`kernels::sum`);
//! other float sums add in order in the tensor's own precision.

use num_complex::Complex64;

use super::complex_division::quotient;
use super::copy;
use super::creation::from_scalars;
use super::dtype::{DType, Kind};
use super::engine::rows::{self, RowPlan, by_rows};
use super::error::{Result, TorchError, wrap_dim};
use super::kernels::lane::Arith;
use super::kernels::sum::{SumFloat, cascade_sum};
use super::scalar::Scalar;
use super::tensor::Tensor;

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
            Reduction::ArgMax | Reduction::ArgMin if d.is_complex() => {
                // Complex numbers have no order: PyTorch refuses before choosing a kernel.
                return Err(unordered_complex(self.name()));
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
pub(crate) fn reduced_dims(ndim: usize, dims: Option<&[i64]>) -> Result<Vec<usize>> {
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

/// The dtype a float sum or product of dtype `d` accumulates in: `f32` for float32 and the
/// 16-bit floats, `f64` for float64 and the float8 dtypes (read exactly in `f64`).
fn float_accumulator(d: DType) -> DType {
    match d {
        DType::Float32 | DType::Float16 | DType::BFloat16 => DType::Float32,
        _ => DType::Float64,
    }
}

/// The row plan of a sum, product or mean of `dtype` (its accumulating dtype `acc`: int64
/// for integers, the dtype itself otherwise), with the result shape and dtype.
fn arithmetic_plan(
    reduced: &[usize],
    out_sizes: Vec<i64>,
    out_dtype: DType,
    acc: DType,
) -> RowPlan<'_> {
    let read = match acc.kind() {
        Kind::Complex => DType::Complex128,
        Kind::Float => float_accumulator(acc),
        _ => DType::Int64,
    };
    RowPlan {
        reduced,
        out_sizes,
        out_dtype,
        read,
        result: read,
    }
}

/// The sum of a row of `T`s in order (wrapping for integers).
fn fold_sum<T: Arith>(row: &[u8]) -> T {
    rows::values::<T>(row).fold(T::ZERO, T::add)
}

/// The product of a row of `T`s in order (wrapping for integers).
fn fold_product<T: Arith>(row: &[u8], one: T) -> T {
    rows::values::<T>(row).fold(one, T::mul)
}

/// A float row's sum: PyTorch's cascade for an innermost contiguous row of float32 (when
/// the sum is float32's own) or float64, else in order.
fn float_sum<T: SumFloat>(row: &[u8], cascade: bool) -> T {
    if cascade {
        cascade_sum::<T>(row)
    } else {
        fold_sum::<T>(row)
    }
}

/// The sum, product or mean of each row of `t` (accumulating in `acc`, the dtype `out_dtype`
/// is computed in).
fn arithmetic_rows(t: &Tensor, op: Reduction, plan: RowPlan, acc: DType) -> Result<Tensor> {
    let read = plan.read;
    let mean = op == Reduction::Mean;
    let product = op == Reduction::Prod;
    match read {
        DType::Complex128 => by_rows(t, plan, |row, _| {
            let n = (row.len() / 16) as f64;
            if product {
                fold_product::<Complex64>(row, Complex64::new(1.0, 0.0))
            } else if mean {
                // PyTorch divides the sum by `n + 0j` as a complex division (a NaN part
                // makes both NaN), in the dtype of the result.
                let total = fold_sum::<Complex64>(row);
                if acc == DType::Complex64 {
                    let total = num_complex::Complex32::new(total.re as f32, total.im as f32);
                    let q = quotient(total, num_complex::Complex32::new(n as f32, 0.0));
                    Complex64::new(f64::from(q.re), f64::from(q.im))
                } else {
                    quotient(total, Complex64::new(n, 0.0))
                }
            } else {
                fold_sum::<Complex64>(row)
            }
        }),
        DType::Float32 => by_rows(t, plan, |row, inner| {
            let n = (row.len() / 4) as f32;
            if product {
                fold_product::<f32>(row, 1.0)
            } else {
                let total = float_sum::<f32>(row, inner && acc == DType::Float32);
                if mean { total / n } else { total }
            }
        }),
        DType::Float64 => by_rows(t, plan, |row, inner| {
            let n = (row.len() / 8) as f64;
            if product {
                fold_product::<f64>(row, 1.0)
            } else {
                let total = float_sum::<f64>(row, inner && acc == DType::Float64);
                match (mean, acc) {
                    (false, _) => total,
                    (true, DType::Float64) => total / n,
                    // A float8 mean divides in f32, as the narrow floats' means do.
                    (true, _) => f64::from(total as f32 / n as f32),
                }
            }
        }),
        _ => by_rows(t, plan, |row, _| {
            if product {
                fold_product::<i64>(row, 1)
            } else {
                fold_sum::<i64>(row)
            }
        }),
    }
}

/// `all` or `any` of each row (read as bools), stored as `bool` or `uint8` (PyTorch keeps
/// uint8 for uint8 inputs).
fn truth_rows(t: &Tensor, plan: RowPlan, all: bool) -> Result<Tensor> {
    by_rows(t, plan, |row, _| {
        u8::from(if all {
            row.iter().all(|&b| b != 0)
        } else {
            row.iter().any(|&b| b != 0)
        })
    })
}

/// The index of the first maximum (or minimum) of a row of `f64`s, NaN counting as the
/// extreme (for the float dtypes the typed `extreme` engine does not cover).
fn arg_extreme(row: &[u8], max: bool) -> usize {
    let mut best: Option<(usize, f64)> = None;
    for (i, x) in rows::values::<f64>(row).enumerate() {
        let better = match best {
            None => true,
            Some((_, y)) if y.is_nan() => false,
            Some((_, y)) => x.is_nan() || if max { x > y } else { x < y },
        };
        if better {
            best = Some((i, x));
        }
    }
    best.map_or(0, |(i, _)| i)
}

/// PyTorch's error for a reduction of every element of an empty tensor by `op` (one that
/// needs an element: `max`, `argmax`, ...).
fn no_dim_for_empty(op: Reduction) -> TorchError {
    let max_or_min = matches!(op, Reduction::Max | Reduction::Min);
    let msg = format!(
        "{}(): Expected reduction dim to be specified for input.numel() == 0.{}",
        op.name(),
        if max_or_min {
            " Specify the reduction dim with the 'dim' argument."
        } else {
            ""
        }
    );
    if max_or_min {
        TorchError::runtime(msg)
    } else {
        TorchError::index(msg)
    }
}

/// PyTorch's refusal of a complex input by `op` along a dim (`max(0)`, `argmax()`):
/// complex numbers have no order.
pub fn unordered_complex(op: &str) -> TorchError {
    TorchError::type_error(format!("{op}(): does not support complex input"))
}

/// `t.op(dim, keepdim)`; `dims = None` reduces everything (to a 0-d tensor, `keepdim`
/// ignored as PyTorch does for the dim-less forms).
pub fn reduce(t: &Tensor, op: Reduction, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
    let dtype = t.dtype();
    let all = dims.is_none_or(|d| d.is_empty());
    // An extreme over no elements runs no kernel: `max()`/`min()` of nothing is refused
    // before the dtype is (a complex one too), and an empty result takes any dtype.
    let extreme_of_nothing = t.numel() == 0 && matches!(op, Reduction::Max | Reduction::Min);
    if all && extreme_of_nothing {
        return Err(no_dim_for_empty(op));
    }
    let out_dtype = if extreme_of_nothing {
        dtype
    } else {
        op.out_dtype(dtype)?
    };
    let sizes = t.sizes();
    let ndim = sizes.len();
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
    // Asked once the dims are known good (`c.sum(2)` is an IndexError first).
    let complex_half_kernel = match op {
        Reduction::Sum | Reduction::Mean => "sum_cpu",
        Reduction::Prod => "prod_out_cpu",
        _ => "",
    };
    super::unbuilt_kernels::require_complex_half_kernel(complex_half_kernel, dtype)?;
    if op.needs_elements() {
        if all && t.numel() == 0 {
            return Err(no_dim_for_empty(op));
        }
        if let Some(&d) = reduced.iter().find(|&&d| ndim > 0 && sizes[d] == 0) {
            return Err(super::error::empty_reduction_dim(
                &format!("{}():", op.name()),
                d,
            ));
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
    let shape = out_sizes(&sizes, &reduced, all, keepdim);
    match op {
        Reduction::Sum | Reduction::Prod => {
            let plan = arithmetic_plan(&reduced, shape, out_dtype, out_dtype);
            arithmetic_rows(t, op, plan, out_dtype)
        }
        Reduction::Mean => {
            let plan = arithmetic_plan(&reduced, shape, out_dtype, dtype);
            arithmetic_rows(t, op, plan, dtype)
        }
        Reduction::All | Reduction::Any => {
            let plan = RowPlan {
                reduced: &reduced,
                out_sizes: shape,
                out_dtype,
                read: DType::Bool,
                result: out_dtype,
            };
            truth_rows(t, plan, op == Reduction::All)
        }
        Reduction::Max | Reduction::Min | Reduction::ArgMax | Reduction::ArgMin => {
            // Only the float8 dtypes get here (`extreme` covers the others): read in f64,
            // exactly.
            let max = matches!(op, Reduction::Max | Reduction::ArgMax);
            let plan = RowPlan {
                reduced: &reduced,
                out_sizes: shape,
                out_dtype,
                read: DType::Float64,
                result: if out_dtype == DType::Int64 {
                    DType::Int64
                } else {
                    DType::Float64
                },
            };
            if matches!(op, Reduction::ArgMax | Reduction::ArgMin) {
                by_rows(t, plan, |row, _| arg_extreme(row, max) as i64)
            } else {
                by_rows(t, plan, |row, _| {
                    rows::values::<f64>(row)
                        .nth(arg_extreme(row, max))
                        .unwrap_or(f64::NAN)
                })
            }
        }
    }
}

/// The sizes of a reduction's result: none for a whole reduction without `keepdim`, 1 for
/// each reduced dim with it, else the kept dims.
pub(crate) fn out_sizes(sizes: &[i64], reduced: &[usize], all: bool, keepdim: bool) -> Vec<i64> {
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
    let plan = RowPlan {
        reduced: &reduced,
        out_sizes: out_sizes(&t.sizes(), &reduced, all, keepdim),
        out_dtype,
        read: if dtype.is_complex() {
            DType::Complex128
        } else {
            DType::Float64
        },
        result: DType::Float64,
    };
    let finish = move |squares: f64, n: f64| {
        let var = squares / (n - correction).max(0.0);
        if std { var.sqrt() } else { var }
    };
    if dtype.is_complex() {
        by_rows(t, plan, |row, _| {
            let n = (row.len() / 16) as f64;
            let mean = fold_sum::<Complex64>(row) / n;
            let squares = rows::values::<Complex64>(row)
                .map(|v| (v - mean).norm_sqr())
                .sum();
            finish(squares, n)
        })
    } else {
        by_rows(t, plan, |row, _| {
            let n = (row.len() / 8) as f64;
            let mean = fold_sum::<f64>(row) / n;
            let squares = rows::values::<f64>(row)
                .map(|v| (v - mean) * (v - mean))
                .sum();
            finish(squares, n)
        })
    }
}

/// `t.max(dim, keepdim)` and friends: the values and the indices of the extremes.
pub fn extreme_with_indices(
    t: &Tensor,
    max: bool,
    dim: i64,
    keepdim: bool,
) -> Result<(Tensor, Tensor)> {
    // The dim is wrapped, and an empty one refused, before the dtype is, as PyTorch does.
    let wrapped = wrap_dim(dim, t.ndim().max(1))?;
    if t.dtype().is_complex() {
        let name = if max { "max" } else { "min" };
        if t.ndim() > 0 && t.sizes()[wrapped] == 0 {
            return Err(super::error::empty_reduction_dim(
                &format!("{name}():"),
                wrapped,
            ));
        }
        return Err(unordered_complex(name));
    }
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
