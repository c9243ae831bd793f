//! Vector norms (`torch.linalg.vector_norm`, behind `norm` and `dist`): over the whole
//! tensor or over dims, `(Σ |x|^p)^(1/p)` with PyTorch's special orders (`0` counts the
//! nonzero elements, `inf` / `-inf` take the largest / smallest magnitude, `1` and `2`
//! without powers). Each row is read once in `f64` (complex: its magnitude), accumulated in
//! `f64` (a general power of a 32- or 16-bit float: in `f32`, as PyTorch) and rounded once
//! to the input's real dtype.

use num_complex::Complex64;

use super::dtype::DType;
use super::engine::rows::{self, RowPlan, by_rows};
use super::error::{Result, TorchError};
use super::reduce::{out_sizes, reduced_dims};
use super::tensor::Tensor;

/// How an order's magnitudes combine.
#[derive(Debug, Clone, Copy)]
enum Order {
    /// Nonzero count.
    Zero,
    /// Sum of magnitudes.
    One,
    /// Square root of the sum of squares.
    Two,
    /// Largest magnitude.
    Max,
    /// Smallest magnitude.
    Min,
    /// `(Σ |x|^p)^(1/p)`.
    Power(f64),
}

impl Order {
    fn of(p: f64) -> Order {
        match p {
            0.0 => Order::Zero,
            1.0 => Order::One,
            2.0 => Order::Two,
            f64::INFINITY => Order::Max,
            f64::NEG_INFINITY => Order::Min,
            p => Order::Power(p),
        }
    }

    /// The norm of a row's magnitudes. Order 1 and a general power run in `f32` arithmetic
    /// when `single` (the order itself a `float`, the terms summed in order), as PyTorch's
    /// kernels for the 32- and 16-bit floats do; order 2 sums in `f64` (PyTorch's
    /// vectorised sum of squares can differ in the last bit).
    fn norm(self, magnitudes: impl Iterator<Item = f64>, single: bool) -> f64 {
        match self {
            Order::Zero => magnitudes.filter(|&m| m != 0.0).count() as f64,
            Order::One if single => magnitudes.fold(0.0f32, |a, m| a + m as f32) as f64,
            Order::One => magnitudes.fold(0.0, |a, m| a + m),
            Order::Two if single => {
                // PyTorch sums the squares in `float`: a square too small for it is 0, a
                // sum too large is infinite (summed here in `f64` otherwise).
                let sum = magnitudes.fold(0.0, |a, m| {
                    let m = m as f32;
                    a + f64::from(m * m)
                });
                if sum > f64::from(f32::MAX) {
                    f64::INFINITY
                } else {
                    sum.sqrt()
                }
            }
            Order::Two => magnitudes.fold(0.0, |a, m| a + m * m).sqrt(),
            Order::Max => magnitudes.fold(f64::NEG_INFINITY, |a, m| {
                if a.is_nan() || m.is_nan() {
                    f64::NAN
                } else {
                    a.max(m)
                }
            }),
            Order::Min => magnitudes.fold(f64::INFINITY, |a, m| {
                if a.is_nan() || m.is_nan() {
                    f64::NAN
                } else {
                    a.min(m)
                }
            }),
            Order::Power(p) if single => {
                let p = p as f32;
                let sum = magnitudes.fold(0.0f32, |a, m| a + (m as f32).powf(p));
                sum.powf(1.0 / p) as f64
            }
            Order::Power(p) => magnitudes.fold(0.0, |a, m| a + m.powf(p)).powf(1.0 / p),
        }
    }
}

/// An order as PyTorch's messages print it (C++ stream formatting: `inf`, `-1`, `0.5`).
fn order_text(p: f64) -> String {
    crate::core::cpp_format::stream_double(p)
}

/// `torch.linalg.vector_norm(t, ord, dim, keepdim)` of a float or complex tensor (`who`
/// names the op in the dtype refusal). The result has the input's real dtype.
pub fn vector_norm(t: &Tensor, ord: f64, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
    let dtype = t.dtype();
    if !(dtype.is_floating_point() || dtype.is_complex()) {
        return Err(TorchError::not_implemented(format!(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}",
            dtype.cpp_name()
        )));
    }
    let ndim = t.ndim();
    let reduced = if ndim == 0 {
        Vec::new()
    } else {
        reduced_dims(ndim, dims)?
    };
    let sizes = t.sizes();
    if ord < 0.0 || ord.is_infinite() {
        let whole = dims.is_none_or(|d| d.is_empty());
        if whole && t.numel() == 0 {
            return Err(TorchError::runtime(format!(
                "linalg.vector_norm cannot compute the {} norm on an empty tensor because the operation does not have an identity",
                order_text(ord)
            )));
        }
        if let Some(&d) = reduced.iter().find(|&&d| sizes[d] == 0).filter(|_| !whole) {
            return Err(TorchError::runtime(format!(
                "linalg.vector_norm cannot compute the {} norm on the dimension {d}because this dimension is empty and the operation does not have an identity",
                order_text(ord)
            )));
        }
    }
    let all = dims.is_none_or(|d| d.is_empty());
    let order = Order::of(ord);
    let single = !matches!(dtype, DType::Float64 | DType::Complex128);
    let plan = RowPlan {
        reduced: &reduced,
        out_sizes: out_sizes(&sizes, &reduced, all, keepdim),
        out_dtype: dtype.to_real(),
        read: if dtype.is_complex() {
            DType::Complex128
        } else {
            DType::Float64
        },
        result: DType::Float64,
    };
    // A row of one element is its magnitude (no power to overflow or underflow), as
    // PyTorch's kernel gives it for every order but 0.
    let order_of = |n: usize| match order {
        Order::Zero => order,
        _ if n == 1 => Order::One,
        _ => order,
    };
    if dtype.is_complex() {
        by_rows(t, plan, |row, _| {
            order_of(row.len() / 16).norm(rows::values::<Complex64>(row).map(|v| v.norm()), single)
        })
    } else {
        by_rows(t, plan, |row, _| {
            order_of(row.len() / 8).norm(rows::values::<f64>(row).map(f64::abs), single)
        })
    }
}
