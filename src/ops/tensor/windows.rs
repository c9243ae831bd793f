//! The window functions of signal processing as factories: `bartlett_window`,
//! `blackman_window`, `hamming_window`, `hann_window`, `kaiser_window`. Each is computed
//! as PyTorch composes it (from `arange`, scaled, through `cos` or `i0`), every step
//! rounded to the dtype, so the rounding residues PyTorch prints (`-2.9802e-08`) are the
//! same; `periodic` windows are one longer, with the last element dropped.

use rhai::Dynamic;

use crate::core::defaults::default_dtype;
use crate::core::dtype::DType;
use crate::core::error::{Result, TorchError};
use crate::core::scalar::Scalar;
use crate::ops::args::Args;
use crate::ops::convert::to_scalar;
use crate::ops::errors::{IntoRhai, RhaiResult};
use crate::ops::registry::Registry;
use crate::ops::tensor::autograd::finish;

/// Which window.
#[derive(Clone, Copy)]
enum Window {
    Bartlett,
    Blackman,
    Hamming { alpha: f64, beta: f64 },
    Kaiser { beta: f64 },
}

/// Rounds to `dtype` (its arithmetic's precision).
fn rounding(dtype: DType) -> fn(f64) -> f64 {
    match dtype {
        DType::Float64 => |v| v,
        DType::Float16 => |v| half::f16::from_f64(v).to_f64(),
        DType::BFloat16 => |v| half::bf16::from_f64(v).to_f64(),
        _ => |v| v as f32 as f64,
    }
}

/// The `n` values of `window` (already lengthened for a periodic one), in `dtype`'s
/// arithmetic.
fn values(window: Window, n: i64, dtype: DType) -> Vec<f64> {
    let r = rounding(dtype);
    let last = (n - 1) as f64;
    let index = (0..n).map(|i| i as f64);
    match window {
        Window::Bartlett => {
            let step = r(2.0 / last);
            let first_half = ((n - 1) >> 1) + 1;
            index
                .map(|i| {
                    let v = r(i * step);
                    if (i as i64) < first_half {
                        v
                    } else {
                        r(2.0 - v)
                    }
                })
                .collect()
        }
        Window::Blackman => {
            let step = r(std::f64::consts::PI / last);
            index
                .map(|i| {
                    let w = r(i * step);
                    let four = r(r(r(w * 4.0).cos()) * r(0.08));
                    let two = r(r(r(w * 2.0).cos()) * 0.5);
                    r(r(four - two) + r(0.42))
                })
                .collect()
        }
        Window::Hamming { alpha, beta } => {
            let step = r(std::f64::consts::PI * 2.0 / last);
            index
                .map(|i| r(r(r(r(i * step).cos()) * r(-beta)) + r(alpha)))
                .collect()
        }
        Window::Kaiser { beta } => {
            // PyTorch's kernel computes in float for every dtype but float64 (the result
            // rounded to the dtype once).
            let r = rounding(match dtype {
                DType::Float64 => DType::Float64,
                _ => DType::Float32,
            });
            let i0 = |v: f64| match dtype {
                DType::Float64 => crate::core::bessel_i::i0(v),
                _ => f64::from(crate::core::bessel_i::i0(v as f32)),
            };
            let center = r(last / 2.0);
            let at_beta = r(i0(r(beta)));
            index
                .map(|i| {
                    let ratio = r(r(i - center) / center);
                    let root = r(r(1.0 - r(ratio * ratio)).abs().sqrt());
                    r(r(i0(r(r(beta) * root))) / at_beta)
                })
                .collect()
        }
    }
}

/// The window `name` of length `n`.
fn window(
    name: &str,
    kind: Window,
    n: i64,
    periodic: bool,
    dtype: DType,
) -> Result<crate::core::tensor::Tensor> {
    if n < 0 {
        return Err(TorchError::runtime(format!(
            "{name} requires non-negative window_length, got window_length={n}"
        )));
    }
    if !dtype.is_floating_point() {
        return Err(TorchError::runtime(format!(
            "{name} expects floating point dtypes, got: TensorOptions(dtype={}, device=cpu, layout=Strided (default), requires_grad=false (default), pinned_memory=false, memory_format=(nullopt))",
            dtype.c_type_name()
        )));
    }
    if n <= 1 {
        return crate::core::creation::full(&[n], Scalar::Int(1), dtype);
    }
    let length = if periodic { n + 1 } else { n };
    // The values are computed into a vector of `length` `f64`s: asked of the budget first.
    crate::core::memory::alloc::vec_with_capacity::<f64>(length as usize)?;
    let mut all = values(kind, length, dtype);
    all.truncate(n as usize);
    let scalars: Vec<Scalar> = all.into_iter().map(Scalar::Float).collect();
    crate::core::creation::from_scalars(&scalars, vec![n], dtype)
}

/// An optional float parameter at position `i`.
fn float_at(a: &Args, i: usize, name: &str, default: f64) -> RhaiResult<f64> {
    Ok(match a.get(i, name) {
        Some(v) => to_scalar(v, name)?.to_f64(),
        None => default,
    })
}

/// Registers the windows.
pub fn register(r: &mut Registry) {
    for name in [
        "bartlett_window",
        "blackman_window",
        "hamming_window",
        "hann_window",
        "kaiser_window",
    ] {
        r.function(name, 4, move |a| {
            let n = a.int(0, "window_length", name)?;
            let periodic = a.bool_or(1, "periodic", true)?;
            let kind = match name {
                "bartlett_window" => Window::Bartlett,
                "blackman_window" => Window::Blackman,
                "hann_window" => Window::Hamming {
                    alpha: 0.5,
                    beta: 0.5,
                },
                "hamming_window" => Window::Hamming {
                    alpha: float_at(&a, 2, "alpha", 0.54)?,
                    beta: float_at(&a, 3, "beta", 0.46)?,
                },
                _ => Window::Kaiser {
                    beta: float_at(&a, 2, "beta", 12.0)?,
                },
            };
            let dtype = a.dtype()?.unwrap_or_else(default_dtype);
            let out = window(name, kind, n, periodic, dtype).rhai()?;
            finish(out, &a).map(Dynamic::from)
        });
    }
}
