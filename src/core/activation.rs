//! The activation functions of `torch.nn.functional` that ATen computes with kernels of
//! their own (`elu`, `gelu`, `silu`, `mish`, `hardtanh`, `hardsigmoid`, `hardswish`,
//! `hardshrink`, `softshrink`, `leaky_relu`, `softplus`, `threshold`, `log_sigmoid`):
//! their values, PyTorch's dtype refusals in its kernels' words, their autograd nodes and
//! the gradients of their backward kernels.
//!
//! Each value is computed per element in `f64` (reduced float dtypes are read as `f32`
//! and the result rounded once), into a result laid out as the input is; each gradient is
//! its backward kernel's formula per element over the output's gradient and the input, so
//! a gradient that passes or stops (`hardtanh`, `threshold`, the shrinks) picks rather
//! than multiplies.

use num_complex::Complex64;

use super::autograd::tracked;
use super::copy::copy_;
use super::dtype::DType;
use super::engine::map::{ElementMap, map_in_place};
use super::engine::zip::{each, zip_n};
use super::error::{Result, TorchError};
use super::operand::Arg;
use super::result_layout::zeros_in_inputs_order;
use super::tensor::Tensor;

/// An activation with its parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Activation {
    /// `scale * (x > 0 ? x : alpha * (exp(x * input_scale) - 1))`: `elu`, `selu` and
    /// `celu` (which PyTorch records under its own node).
    Elu {
        /// The negative side's factor.
        alpha: f64,
        /// The factor of the whole.
        scale: f64,
        /// The factor inside the exponential.
        input_scale: f64,
        /// Whether this is `celu` (its node is `CeluBackward0`).
        celu: bool,
    },
    /// `x * Φ(x)`, or its tanh approximation.
    Gelu {
        /// `approximate='tanh'`.
        tanh: bool,
    },
    /// `x * sigmoid(x)`.
    Silu,
    /// `x * tanh(softplus(x))`.
    Mish,
    /// `x` clamped into `[min, max]` (`relu6` is `[0, 6]`).
    Hardtanh {
        /// The lower bound.
        min: f64,
        /// The upper bound.
        max: f64,
    },
    /// `relu6(x + 3) / 6`.
    Hardsigmoid,
    /// `x * relu6(x + 3) / 6`.
    Hardswish,
    /// `x` outside `[-lambd, lambd]`, else 0.
    Hardshrink(f64),
    /// `x` moved towards 0 by `lambd`, 0 inside `[-lambd, lambd]`.
    Softshrink(f64),
    /// `x > 0 ? x : x * negative_slope`.
    LeakyRelu(f64),
    /// `log(1 + exp(beta * x)) / beta`, `x` itself where `beta * x > threshold`.
    Softplus {
        /// The sharpness.
        beta: f64,
        /// Where the function turns linear.
        threshold: f64,
    },
    /// `x <= threshold ? value : x`.
    Threshold {
        /// The threshold.
        threshold: f64,
        /// What replaces the elements at or below it.
        value: f64,
    },
    /// `log(sigmoid(x))`, computed stably.
    LogSigmoid,
}

impl Activation {
    /// PyTorch's autograd node of the function.
    pub fn node(self) -> &'static str {
        self.names().0
    }

    /// PyTorch's autograd node of the in-place form (`elu_` records `EluBackward1`: its
    /// formula reads the result).
    pub fn in_place_node(self) -> &'static str {
        match self {
            Activation::Elu { celu: true, .. } => "CeluBackward1",
            Activation::Elu { .. } => "EluBackward1",
            Activation::LeakyRelu(_) => "LeakyReluBackward1",
            Activation::Threshold { .. } => "ThresholdBackward1",
            other => other.node(),
        }
    }

    /// The name of the kernel PyTorch's dtype refusal names.
    fn kernel(self) -> &'static str {
        self.names().1
    }

    /// The function's autograd node and the kernel its dtype refusal names.
    fn names(self) -> (&'static str, &'static str) {
        match self {
            Activation::Elu { celu: true, .. } => ("CeluBackward0", "elu_cpu"),
            Activation::Elu { .. } => ("EluBackward0", "elu_cpu"),
            Activation::Gelu { .. } => ("GeluBackward0", "GeluKernelImpl"),
            Activation::Silu => ("SiluBackward0", "silu_cpu"),
            Activation::Mish => ("MishBackward0", "mish_cpu"),
            Activation::Hardtanh { .. } => ("HardtanhBackward0", "clamp_cpu"),
            Activation::Hardsigmoid => ("HardsigmoidBackward0", "hardsigmoid_cpu"),
            Activation::Hardswish => ("HardswishBackward0", "hardswish_cpu"),
            Activation::Hardshrink(_) => ("HardshrinkBackward0", "hardshrink_cpu"),
            Activation::Softshrink(_) => ("SoftshrinkBackward0", "softshrink_check"),
            Activation::LeakyRelu(_) => ("LeakyReluBackward0", "leaky_relu_cpu"),
            Activation::Softplus { .. } => ("SoftplusBackward0", "softplus_cpu"),
            Activation::Threshold { .. } => ("ThresholdBackward0", "threshold_cpu"),
            Activation::LogSigmoid => ("LogSigmoidBackward0", "log_sigmoid_cpu"),
        }
    }

    /// PyTorch's refusal of dtype `d`, if it refuses it: the floats (and for `hardtanh`
    /// and `threshold` the integers, for `silu` the complex dtypes) are computed.
    fn refusal(self, d: DType) -> Option<TorchError> {
        let float = matches!(
            d,
            DType::Float16 | DType::BFloat16 | DType::Float32 | DType::Float64
        );
        let integer = d.is_integral() && d != DType::Bool;
        match self {
            _ if float => None,
            Activation::Hardtanh { .. } if d == DType::Bool => Some(TorchError::not_implemented(
                "Bool inputs not supported for hardtanh",
            )),
            Activation::Hardtanh { .. } if d.is_complex() => Some(TorchError::not_implemented(
                "clamp is not supported for complex types",
            )),
            Activation::Hardtanh { .. } | Activation::Threshold { .. } if integer => None,
            Activation::Silu if matches!(d, DType::Complex64 | DType::Complex128) => None,
            f => Some(TorchError::not_implemented(format!(
                "\"{}\" not implemented for '{}'",
                f.kernel(),
                d.cpp_name()
            ))),
        }
    }

    /// The function at a real `x`, computed in `x`'s own type (PyTorch's float kernels
    /// compute `float32` in `float32`).
    pub fn value<F: Real>(self, x: F) -> F {
        let c = F::of;
        let (zero, one) = (F::zero(), F::one());
        match self {
            Activation::Elu {
                alpha,
                scale,
                input_scale,
                ..
            } => {
                if x > zero {
                    x * c(scale)
                } else {
                    (x * c(input_scale)).exp_m1() * c(alpha * scale)
                }
            }
            Activation::Gelu { tanh: false } => x * c(0.5) * (one + (x * c(FRAC_1_SQRT_2)).erf()),
            Activation::Gelu { tanh: true } => {
                let inner = c(SQRT_2_OVER_PI) * (x + c(GELU_TANH_CUBE) * x * x * x);
                c(0.5) * x * (one + inner.tanh())
            }
            Activation::Silu => x / (one + (-x).exp()),
            Activation::Mish => x * x.exp().ln_1p().tanh(),
            Activation::Hardtanh { min, max } => {
                if x.is_nan() {
                    x
                } else {
                    x.max(c(min)).min(c(max))
                }
            }
            Activation::Hardsigmoid => relu6(x + c(3.0)) / c(6.0),
            Activation::Hardswish => x * relu6(x + c(3.0)) / c(6.0),
            Activation::Hardshrink(l) => {
                if x >= c(-l) && x <= c(l) {
                    zero
                } else {
                    x
                }
            }
            Activation::Softshrink(l) => {
                let l = c(l);
                if x > l {
                    x - l
                } else if x < -l {
                    x + l
                } else {
                    // PyTorch's kernel keeps the sign of a zero it multiplies into.
                    x * zero
                }
            }
            Activation::LeakyRelu(slope) => {
                if x > zero {
                    x
                } else {
                    x * c(slope)
                }
            }
            Activation::Softplus { beta, threshold } => {
                let beta = c(beta);
                if x * beta > c(threshold) {
                    x
                } else {
                    (x * beta).exp().ln_1p() / beta
                }
            }
            Activation::Threshold { threshold, value } => {
                if x <= c(threshold) {
                    c(value)
                } else {
                    x
                }
            }
            Activation::LogSigmoid => x.min(zero) - (-x.abs()).exp().ln_1p(),
        }
    }

    /// The gradient at a real `x` given the output's gradient `g` (the backward kernel's
    /// formula).
    pub fn gradient(self, g: f64, x: f64) -> f64 {
        match self {
            Activation::Elu {
                alpha,
                scale,
                input_scale,
                ..
            } => {
                if x > 0.0 {
                    g * scale
                } else {
                    g * input_scale * alpha * scale * (x * input_scale).exp()
                }
            }
            Activation::Gelu { tanh: false } => {
                let cdf = 0.5 * (1.0 + libm::erf(x * FRAC_1_SQRT_2));
                let pdf = (-0.5 * x * x).exp() * FRAC_1_SQRT_2PI;
                g * (cdf + x * pdf)
            }
            Activation::Gelu { tanh: true } => {
                let x_sq = x * x;
                let inner = SQRT_2_OVER_PI * (x + GELU_TANH_CUBE * x_sq * x);
                let t = inner.tanh();
                let left = 0.5 * x;
                let right = 1.0 + t;
                let left_derivative = 0.5 * right;
                let right_derivative = left * (1.0 - t * t);
                let inner_derivative = SQRT_2_OVER_PI * (1.0 + 3.0 * GELU_TANH_CUBE * x_sq);
                g * (left_derivative + right_derivative * inner_derivative)
            }
            Activation::Silu => {
                let s = 1.0 / (1.0 + (-x).exp());
                g * s * (1.0 + x * (1.0 - s))
            }
            Activation::Mish => {
                let s = 1.0 / (1.0 + (-x).exp());
                let t = x.exp().ln_1p().tanh();
                g * (t + x * s * (1.0 - t * t))
            }
            Activation::Hardtanh { min, max } => {
                if x <= min || x >= max {
                    0.0
                } else {
                    g
                }
            }
            Activation::Hardsigmoid => {
                if x > -3.0 && x < 3.0 {
                    g / 6.0
                } else {
                    0.0
                }
            }
            Activation::Hardswish => {
                if x < -3.0 {
                    0.0
                } else if x <= 3.0 {
                    g * (x / 3.0 + 0.5)
                } else {
                    g
                }
            }
            Activation::Hardshrink(l) | Activation::Softshrink(l) => {
                if (-l..=l).contains(&x) {
                    0.0
                } else {
                    g
                }
            }
            Activation::LeakyRelu(slope) => {
                if x > 0.0 {
                    g
                } else {
                    g * slope
                }
            }
            Activation::Softplus { beta, threshold } => {
                let z = (x * beta).exp();
                if x * beta > threshold {
                    g
                } else {
                    g * z / (z + 1.0)
                }
            }
            Activation::Threshold { threshold, .. } => {
                if x <= threshold {
                    0.0
                } else {
                    g
                }
            }
            Activation::LogSigmoid => {
                let negative = x < 0.0;
                let max_derivative = if negative { 1.0 } else { 0.0 };
                let sign = if negative { 1.0 } else { -1.0 };
                let z = (-x.abs()).exp();
                g * (max_derivative - sign * (z / (1.0 + z)))
            }
        }
    }

    /// The function at an integer (`hardtanh` and `threshold` only: their bounds read as
    /// the dtype's integers, as PyTorch's integer kernels read them).
    fn integer(self, i: i64) -> i64 {
        match self {
            Activation::Hardtanh { min, max } => i.max(min as i64).min(max as i64),
            Activation::Threshold { threshold, value } => {
                if (i as f64) <= threshold {
                    value as i64
                } else {
                    i
                }
            }
            _ => i,
        }
    }
}

/// `min(max(x, 0), 6)`.
fn relu6<F: Real>(x: F) -> F {
    x.max(F::zero()).min(F::of(6.0))
}

/// A float type the activations compute in: `f64`, or `f32` for `float32` and the
/// reduced floats (PyTorch's kernels compute those in `float`).
pub trait Real: num_traits::Float {
    /// A parameter, rounded to this type.
    fn of(x: f64) -> Self;
    /// The error function.
    fn erf(self) -> Self;
}

impl Real for f64 {
    fn of(x: f64) -> f64 {
        x
    }
    fn erf(self) -> f64 {
        libm::erf(self)
    }
}

impl Real for f32 {
    fn of(x: f64) -> f32 {
        x as f32
    }
    fn erf(self) -> f32 {
        libm::erff(self)
    }
}

const FRAC_1_SQRT_2: f64 = std::f64::consts::FRAC_1_SQRT_2;
/// `1 / sqrt(2π)`.
const FRAC_1_SQRT_2PI: f64 = 0.398_942_280_401_432_7;
/// `sqrt(2 / π)`.
const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;
/// The cubic term's factor of gelu's tanh approximation.
const GELU_TANH_CUBE: f64 = 0.044715;

/// `f`'s value at each element.
struct Values(Activation);

impl ElementMap for Values {
    fn f64(&self, x: f64) -> f64 {
        self.0.value(x)
    }
    fn f32(&self, x: f32) -> f32 {
        self.0.value(x)
    }
    fn complex(&self, z: Complex64) -> Complex64 {
        // Only `silu` takes complex values: z / (1 + exp(-z)).
        z / (Complex64::new(1.0, 0.0) + (-z).exp())
    }
    fn int(&self, i: i64) -> i64 {
        self.0.integer(i)
    }
    fn uint(&self, u: u64) -> u64 {
        self.0.integer(u as i64) as u64
    }
}

/// `f(x)`, laid out as `x`, recorded for autograd under `f`'s node.
pub fn activation(x: &Tensor, f: Activation) -> Result<Tensor> {
    let d = x.dtype();
    if let Some(refusal) = f.refusal(d) {
        return Err(refusal);
    }
    let out = zeros_in_inputs_order(&x.sizes(), d, &[x])?;
    copy_(&out, x)?;
    out.storage()
        .with_bytes_mut(|b| map_in_place(d, b, &Values(f)));
    tracked::single(&out, f.node(), x, move |g, x| gradient(f, g, x));
    Ok(out)
}

/// The gradient of `f` at `x` from the output's gradient `g`, in `x`'s dtype.
pub fn gradient(f: Activation, g: &Tensor, x: &Tensor) -> Result<Tensor> {
    let d = x.dtype();
    let (gs, xs) = (Arg::Tensor(g.clone()), Arg::Tensor(x.clone()));
    if d.is_complex() {
        // `silu`'s complex gradient: g * conj(s * (1 + x * (1 - s))).
        let one = Complex64::new(1.0, 0.0);
        return zip_n::<Complex64, 2>([&gs, &xs], d, d, &|[g, x], out| {
            each(|g: Complex64, x: Complex64| {
                let s = one / (one + (-x).exp());
                g * (s * (one + x * (one - s))).conj()
            })(g, x, out)
        });
    }
    zip_n::<f64, 2>([&gs, &xs], d, d, &|[g, x], out| {
        each(|g: f64, x: f64| f.gradient(g, x))(g, x, out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gradients_that_stop_pick_zero_even_for_an_infinite_gradient() {
        let f = Activation::Hardtanh {
            min: -1.0,
            max: 1.0,
        };
        assert_eq!(f.gradient(f64::INFINITY, 2.0), 0.0);
        assert_eq!(f.gradient(f64::INFINITY, 0.5), f64::INFINITY);
        let t = Activation::Threshold {
            threshold: 0.0,
            value: 5.0,
        };
        assert_eq!(t.gradient(f64::INFINITY, 0.0), 0.0);
    }

    #[test]
    fn values_at_the_edges_follow_pytorchs_kernels() {
        assert_eq!(
            Activation::Softshrink(0.5).value(-0.25_f64).to_bits(),
            (-0.0f64).to_bits()
        );
        assert!(
            Activation::Hardtanh {
                min: -1.0,
                max: 1.0
            }
            .value(f64::NAN)
            .is_nan()
        );
        assert_eq!(
            Activation::LogSigmoid.value(0.0_f64),
            -std::f64::consts::LN_2
        );
        let sp = Activation::Softplus {
            beta: 1.0,
            threshold: 20.0,
        };
        assert_eq!(sp.value(30.0_f64), 30.0);
    }

    #[test]
    fn refusals_name_pytorchs_kernels() {
        let e = Activation::Gelu { tanh: false }
            .refusal(DType::Int64)
            .map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some("NotImplementedError: \"GeluKernelImpl\" not implemented for 'Long'")
        );
        assert!(Activation::Silu.refusal(DType::Complex64).is_none());
        assert!(
            Activation::Hardtanh { min: 0.0, max: 6.0 }
                .refusal(DType::Int32)
                .is_none()
        );
    }
}
