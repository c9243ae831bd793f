//! The in-place fills from continuous and discrete distributions PyTorch builds on one
//! uniform double per element (53 bits of two draws), in memory order as its serial CPU
//! kernels visit elements: `exponential_` (`-ln(1 - u) / lambda`), `cauchy_`
//! (`median + sigma * tan(pi * (u - 1/2))`), `geometric_` (`ceil(ln u / ln(1 - p))`, for
//! integer tensors too) and `log_normal_` (`exp` of the cached double Box–Muller normal).
//! `fill_slots` refuses a tensor whose elements share memory before drawing. Each value is
//! computed in double and rounded once to the element's dtype (through
//! float for the half types, as PyTorch's conversions go). Also `random_()` without bounds:
//! one draw per element (64 bits for int64 and double), reduced modulo the dtype's range
//! (`0..=2^mantissa digits` for floating types).

use super::distributions::{normal_scalar, unit_double};
use super::generator::with_global;
use super::ops::fill_slots;
use crate::core::dtype::DType;
use crate::core::error::{Result, TorchError};
use crate::core::tensor::Tensor;
use crate::core::unbuilt_kernels::{not_built, require_random_kernel};

/// A writer of a double into a floating element of `dtype`, chosen once per fill: the half
/// types round through float, as PyTorch's `static_cast` does.
fn float_writer(dtype: DType) -> fn(f64, &mut [u8]) {
    match dtype {
        DType::Float64 => |v, o| o[..8].copy_from_slice(&v.to_le_bytes()),
        DType::Float32 => |v, o| o[..4].copy_from_slice(&(v as f32).to_le_bytes()),
        DType::Float16 => {
            |v, o| o[..2].copy_from_slice(&half::f16::from_f32(v as f32).to_le_bytes())
        }
        _ => |v, o| o[..2].copy_from_slice(&half::bf16::from_f32(v as f32).to_le_bytes()),
    }
}

/// Fills `t` with `value(u)` of one uniform double per element, for a floating `t`.
fn fill_floats(
    t: &Tensor,
    mut value: impl FnMut(&mut super::generator::Generator) -> f64,
) -> Result<()> {
    let put = float_writer(t.dtype());
    with_global(|g| fill_slots(t, put, || value(g)))
}

/// PyTorch's refusal of a non-floating tensor for a continuous distribution `name`.
fn require_continuous(t: &Tensor, name: &str, kernel: &str, c_type: bool) -> Result<()> {
    let d = t.dtype();
    if !d.is_floating_point() {
        return Err(TorchError::runtime(format!(
            "{name} distribution is a continuous probability distribution. dtype must be a floating point but you specified {}",
            if c_type {
                d.c_type_name()
            } else {
                d.cpp_name()
            }
        )));
    }
    require_random_kernel(kernel, d)
}

/// PyTorch's refusal of a parameter `name` of `op` that is not above zero (NaN included).
fn require_positive(op: &str, name: &str, value: f64) -> Result<()> {
    if value > 0.0 {
        return Ok(());
    }
    Err(TorchError::runtime(format!(
        "{op} expects {name} > 0.0, but found {name}={}",
        crate::core::cpp_format::stream_double(value)
    )))
}

/// `t.exponential_(lambd)`.
pub fn exponential_(t: &Tensor, lambd: f64) -> Result<()> {
    require_positive("exponential_", "lambda", lambd)?;
    require_continuous(t, "Exponential", "exponential_cpu", false)?;
    fill_floats(t, |g| (-1.0 / lambd) * (1.0 - unit_double(g)).ln())
}

/// `t.cauchy_(median, sigma)`.
pub fn cauchy_(t: &Tensor, median: f64, sigma: f64) -> Result<()> {
    require_positive("cauchy_", "sigma", sigma)?;
    require_continuous(t, "Cauchy", "cauchy_cpu", true)?;
    fill_floats(t, |g| {
        median + sigma * (std::f64::consts::PI * (unit_double(g) - 0.5)).tan()
    })
}

/// `t.log_normal_(mean, std)`.
pub fn log_normal_(t: &Tensor, mean: f64, std: f64) -> Result<()> {
    require_positive("log_normal_", "std", std)?;
    if !t.dtype().is_floating_point() {
        return Err(not_built("log_normal_cpu", t.dtype()));
    }
    require_random_kernel("log_normal_cpu", t.dtype())?;
    fill_floats(t, |g| normal_scalar(g, mean, std).exp())
}

/// `t.geometric_(p)`: the number of trials up to the first success, for floating and
/// integer tensors.
pub fn geometric_(t: &Tensor, p: f64) -> Result<()> {
    if !(p > 0.0 && p < 1.0) {
        return Err(TorchError::runtime(format!(
            "geometric_ expects p to be in (0, 1), but got p={}",
            crate::core::cpp_format::stream_double(p)
        )));
    }
    let d = t.dtype();
    if d == DType::Bool || d.is_complex() {
        return Err(not_built("geometric_cpu", d));
    }
    crate::core::unbuilt_kernels::require_kernel("geometric_cpu", d)?;
    require_random_kernel("geometric_cpu", d)?;
    let scale = (-p).ln_1p();
    let draw = move |g: &mut super::generator::Generator| (unit_double(g).ln() / scale).ceil();
    if d.is_floating_point() {
        return fill_floats(t, draw);
    }
    let put = crate::core::element::int_writer(d);
    with_global(|g| fill_slots(t, put, || draw(g) as i64))
}

/// `t.random_()`: integers from 0 to the dtype's largest (to `2^digits` for floating
/// types, where every integer is exact), one draw per element.
pub fn random_full_(t: &Tensor) -> Result<()> {
    let d = t.dtype();
    if d.is_complex() {
        return Err(not_built("random_kernel_cpu", d));
    }
    crate::core::unbuilt_kernels::require_kernel("random_kernel_cpu", d)?;
    require_random_kernel("random_kernel_cpu", d)?;
    // How many values the dtype can hold from 0 (the modulus), and whether a draw takes 64 bits.
    let (modulus, wide): (u64, bool) = match d {
        DType::Bool => (2, false),
        DType::UInt8 => (1 << 8, false),
        DType::Int8 => (1 << 7, false),
        DType::Int16 => (1 << 15, false),
        DType::Int32 => (1 << 31, false),
        DType::Int64 => (1 << 63, true),
        DType::Float64 => ((1 << 53) + 1, true),
        DType::Float32 => ((1 << 24) + 1, false),
        DType::Float16 => ((1 << 11) + 1, false),
        _ => ((1 << 8) + 1, false),
    };
    let draw = move |g: &mut super::generator::Generator| {
        let v = if wide {
            g.random64()
        } else {
            g.random() as u64
        };
        v % modulus
    };
    if d.is_floating_point() {
        return fill_floats(t, move |g| draw(g) as f64);
    }
    let put = crate::core::element::int_writer(d);
    with_global(|g| fill_slots(t, put, || draw(g) as i64))
}
