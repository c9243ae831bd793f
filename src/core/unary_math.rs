//! The functions of one argument on numbers: which ones there are, their names and
//! autograd nodes, PyTorch's dtype rule and refusals, their values and derivatives for
//! real and complex arguments. `unary` applies them to tensors.

use num_complex::{Complex, Complex64};

use crate::platform::cmath::{ComplexFunction, ComplexLibm};

use super::special_functions as sf;
use num_traits::{Float, FloatConst};

use super::defaults::default_dtype;
use super::dtype::DType;
use super::error::{Result, TorchError};

/// A one-argument function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Unary {
    Abs,
    Sqrt,
    Exp,
    Log,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Sigmoid,
    Exp2,
    Expm1,
    Log2,
    Log10,
    Log1p,
    Rsqrt,
    Reciprocal,
    Floor,
    Ceil,
    Round,
    Trunc,
    Frac,
    Sign,
    Sgn,
    Square,
    Relu,
    Acosh,
    Asinh,
    Atanh,
    Deg2rad,
    Rad2deg,
    Erf,
    Erfc,
    Lgamma,
    Sinc,
    Digamma,
    Erfinv,
    I0,
}

impl Unary {
    /// Every function with its method name, as scripts call it.
    pub const ALL: [(&'static str, Unary); 42] = [
        ("abs", Unary::Abs),
        ("sqrt", Unary::Sqrt),
        ("exp", Unary::Exp),
        ("log", Unary::Log),
        ("sin", Unary::Sin),
        ("cos", Unary::Cos),
        ("tan", Unary::Tan),
        ("asin", Unary::Asin),
        ("acos", Unary::Acos),
        ("atan", Unary::Atan),
        ("sinh", Unary::Sinh),
        ("cosh", Unary::Cosh),
        ("tanh", Unary::Tanh),
        ("sigmoid", Unary::Sigmoid),
        ("exp2", Unary::Exp2),
        ("expm1", Unary::Expm1),
        ("log2", Unary::Log2),
        ("log10", Unary::Log10),
        ("log1p", Unary::Log1p),
        ("rsqrt", Unary::Rsqrt),
        ("reciprocal", Unary::Reciprocal),
        ("floor", Unary::Floor),
        ("ceil", Unary::Ceil),
        ("round", Unary::Round),
        ("trunc", Unary::Trunc),
        ("frac", Unary::Frac),
        ("sign", Unary::Sign),
        ("sgn", Unary::Sgn),
        ("square", Unary::Square),
        ("relu", Unary::Relu),
        ("acosh", Unary::Acosh),
        ("asinh", Unary::Asinh),
        ("atanh", Unary::Atanh),
        ("deg2rad", Unary::Deg2rad),
        ("rad2deg", Unary::Rad2deg),
        ("erf", Unary::Erf),
        ("erfc", Unary::Erfc),
        ("lgamma", Unary::Lgamma),
        ("sinc", Unary::Sinc),
        ("digamma", Unary::Digamma),
        ("erfinv", Unary::Erfinv),
        ("i0", Unary::I0),
    ];

    /// The method name.
    pub fn name(self) -> &'static str {
        Unary::ALL
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("", |(n, _)| n)
    }

    /// PyTorch's autograd node for the function (`square` is `pow(x, 2)` there).
    pub fn node(self) -> &'static str {
        match self {
            Unary::Abs => "AbsBackward0",
            Unary::Sqrt => "SqrtBackward0",
            Unary::Exp => "ExpBackward0",
            Unary::Log => "LogBackward0",
            Unary::Sin => "SinBackward0",
            Unary::Cos => "CosBackward0",
            Unary::Tan => "TanBackward0",
            Unary::Asin => "AsinBackward0",
            Unary::Acos => "AcosBackward0",
            Unary::Atan => "AtanBackward0",
            Unary::Sinh => "SinhBackward0",
            Unary::Cosh => "CoshBackward0",
            Unary::Tanh => "TanhBackward0",
            Unary::Sigmoid => "SigmoidBackward0",
            Unary::Exp2 => "Exp2Backward0",
            Unary::Expm1 => "Expm1Backward0",
            Unary::Log2 => "Log2Backward0",
            Unary::Log10 => "Log10Backward0",
            Unary::Log1p => "Log1PBackward0",
            Unary::Rsqrt => "RsqrtBackward0",
            Unary::Reciprocal => "ReciprocalBackward0",
            Unary::Floor => "FloorBackward0",
            Unary::Ceil => "CeilBackward0",
            Unary::Round => "RoundBackward0",
            Unary::Trunc => "TruncBackward0",
            Unary::Frac => "FracBackward0",
            Unary::Sign => "SignBackward0",
            Unary::Sgn => "SgnBackward0",
            Unary::Square => "PowBackward0",
            Unary::Relu => "ReluBackward0",
            Unary::Acosh => "AcoshBackward0",
            Unary::Asinh => "AsinhBackward0",
            Unary::Atanh => "AtanhBackward0",
            Unary::Deg2rad => "Deg2RadBackward0",
            Unary::Rad2deg => "Rad2DegBackward0",
            Unary::Erf => "ErfBackward0",
            Unary::Erfc => "ErfcBackward0",
            Unary::Lgamma => "LgammaBackward0",
            Unary::Sinc => "SincBackward0",
            Unary::Digamma => "DigammaBackward0",
            Unary::Erfinv => "ErfinvBackward0",
            Unary::I0 => "I0Backward0",
        }
    }

    /// Which tensor PyTorch's formula reads: `Some(true)` the output (`exp`, `tanh`, ...),
    /// `Some(false)` the input (`sin`, `log`, ...), `None` neither (a constant gradient).
    pub fn reads_output(self) -> Option<bool> {
        match self {
            f if f.constant_gradient() => None,
            Unary::Sqrt
            | Unary::Exp
            | Unary::Tan
            | Unary::Tanh
            | Unary::Sigmoid
            | Unary::Exp2
            | Unary::Expm1
            | Unary::Rsqrt
            | Unary::Reciprocal
            | Unary::Relu
            | Unary::Erfinv => Some(true),
            _ => Some(false),
        }
    }

    /// Whether the gradient is a constant (zero or one), so backward needs no saved values.
    pub fn constant_gradient(self) -> bool {
        matches!(
            self,
            Unary::Floor | Unary::Ceil | Unary::Round | Unary::Trunc | Unary::Frac | Unary::Sign
        )
    }

    /// Whether the function rounds to an integer (identity on integer dtypes).
    fn rounds(self) -> bool {
        matches!(
            self,
            Unary::Floor | Unary::Ceil | Unary::Round | Unary::Trunc
        )
    }

    /// Whether integers and bools go to the default float dtype.
    fn to_float(self) -> bool {
        !self.rounds()
            && !matches!(
                self,
                Unary::Abs | Unary::Frac | Unary::Sign | Unary::Sgn | Unary::Square | Unary::Relu
            )
    }

    /// The kernel PyTorch's CPU build lacks for complex32 (`ComplexHalf`) inputs of this
    /// function, named as its refusal names it; `None` for those it has (`abs`, `sgn`) and
    /// those refused for every complex dtype in other words (`floor`, `sign`, `relu`).
    fn complex_half_kernel(self) -> Option<String> {
        use Unary::*;
        match self {
            Sqrt | Exp | Log | Sin | Cos | Tan | Asin | Acos | Atan | Tanh | Expm1 | Log2
            | Log10 | Log1p | Erf | Erfc | Lgamma | Erfinv | I0 | Round => {
                Some(format!("{}_vml_cpu", self.name()))
            }
            Sinh | Cosh | Sigmoid | Rsqrt | Reciprocal | Frac | Acosh | Asinh | Atanh | Sinc => {
                Some(format!("{}_cpu", self.name()))
            }
            Exp2 | Digamma => Some(self.name().to_string()),
            Square => Some("pow".to_string()),
            Abs | Sgn | Sign | Floor | Ceil | Trunc | Relu | Deg2rad | Rad2deg => None,
        }
    }

    /// The result dtype for an input of `d`, or PyTorch's refusal.
    pub fn result_dtype(self, d: DType) -> Result<DType> {
        let unbuilt = |kernel: &str| {
            Err(TorchError::not_implemented(format!(
                "\"{kernel}\" not implemented for '{}'",
                d.cpp_name()
            )))
        };
        match self {
            Unary::Abs => {
                match d {
                    // PyTorch's abs kernel lacks bool and the wide unsigned dtypes.
                    DType::Bool | DType::UInt16 | DType::UInt32 | DType::UInt64 => {
                        unbuilt("abs_cpu")
                    }
                    DType::Complex64 => Ok(DType::Float32),
                    DType::Complex128 => Ok(DType::Float64),
                    DType::Complex32 => Ok(DType::Float16),
                    other => Ok(other),
                }
            }
            f if f.rounds() => match d {
                DType::Bool => unbuilt(&format!("{}_vml_cpu", f.name())),
                c if c.is_complex() && f == Unary::Round => unbuilt("round_vml_cpu"),
                c if c.is_complex() => Err(TorchError::not_implemented(format!(
                    "{} is not supported for complex inputs",
                    f.name()
                ))),
                other => Ok(other),
            },
            Unary::Frac if !d.is_floating_point() => unbuilt("frac_cpu"),
            Unary::Sign if d.is_complex() => Err(TorchError::not_implemented(
                "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.",
            )),
            Unary::Square if d == DType::Bool => Ok(DType::Int64),
            Unary::Relu if d == DType::Bool => Err(TorchError::not_implemented(
                "Boolean inputs not supported for relu",
            )),
            Unary::Relu if d.is_complex() => Err(TorchError::not_implemented(
                "clamp is not supported for complex types",
            )),
            Unary::Deg2rad | Unary::Rad2deg if d.is_complex() => Err(TorchError::not_implemented(
                format!("{} is not supported for complex tensors.", self.name()),
            )),
            Unary::Erf | Unary::Erfc | Unary::Lgamma | Unary::Erfinv | Unary::I0
                if d.is_complex() =>
            {
                unbuilt(&format!("{}_vml_cpu", self.name()))
            }
            Unary::Digamma if d.is_complex() => unbuilt("digamma"),
            f if d == DType::Complex32
                && let Some(kernel) = f.complex_half_kernel() =>
            {
                unbuilt(&kernel)
            }
            f if f.to_float() && (d.is_integral() || d == DType::Bool) => Ok(default_dtype()),
            _ => Ok(d),
        }
    }

    /// The function of a real number, computed in `F` (`f32` for every real dtype but
    /// `float64`, as PyTorch's kernels compute).
    pub(crate) fn real<F: Float + FloatConst>(self, x: F) -> F {
        let one = F::one();
        match self {
            Unary::Abs => x.abs(),
            Unary::Sqrt => x.sqrt(),
            Unary::Exp => x.exp(),
            Unary::Log => x.ln(),
            Unary::Sin => x.sin(),
            Unary::Cos => x.cos(),
            Unary::Tan => x.tan(),
            Unary::Asin => x.asin(),
            Unary::Acos => x.acos(),
            Unary::Atan => x.atan(),
            Unary::Sinh => x.sinh(),
            Unary::Cosh => x.cosh(),
            Unary::Tanh => x.tanh(),
            Unary::Sigmoid => one / (one + (-x).exp()),
            Unary::Exp2 => x.exp2(),
            Unary::Expm1 => x.exp_m1(),
            Unary::Log2 => x.log2(),
            Unary::Log10 => x.log10(),
            Unary::Log1p => x.ln_1p(),
            Unary::Rsqrt => one / x.sqrt(),
            Unary::Reciprocal => one / x,
            Unary::Floor => x.floor(),
            Unary::Ceil => x.ceil(),
            Unary::Round => round_half_even(x),
            Unary::Trunc => x.trunc(),
            Unary::Frac => x - x.trunc(),
            Unary::Sign | Unary::Sgn => sign(x),
            Unary::Square => x * x,
            Unary::Relu => relu(x),
            Unary::Acosh => x.acosh(),
            Unary::Asinh => x.asinh(),
            Unary::Atanh => x.atanh(),
            Unary::Deg2rad => x * (F::PI() / F::from(180.0).unwrap_or(F::nan())),
            Unary::Rad2deg => x * (F::from(180.0).unwrap_or(F::nan()) / F::PI()),
            Unary::Erf => special(x, libm::erff, libm::erf),
            Unary::Erfc => special(x, libm::erfcf, libm::erfc),
            Unary::Lgamma => special(x, libm::lgammaf, libm::lgamma),
            Unary::Sinc => sinc(x),
            Unary::Digamma => sf::digamma(x),
            Unary::Erfinv => special(x, |v| sf::erfinv(v as f64) as f32, sf::erfinv),
            Unary::I0 => crate::core::bessel_i::i0(x),
        }
    }

    /// The C library's function this is for complex numbers, if it is one (PyTorch's
    /// kernels call it for `complex64` and `complex128` alike).
    fn c_function(self) -> Option<ComplexFunction> {
        use ComplexFunction as C;
        Some(match self {
            Unary::Sqrt => C::Sqrt,
            Unary::Exp => C::Exp,
            Unary::Log => C::Log,
            Unary::Sin => C::Sin,
            Unary::Cos => C::Cos,
            Unary::Tan => C::Tan,
            Unary::Asin => C::Asin,
            Unary::Acos => C::Acos,
            Unary::Atan => C::Atan,
            Unary::Sinh => C::Sinh,
            Unary::Cosh => C::Cosh,
            Unary::Tanh => C::Tanh,
            Unary::Asinh => C::Asinh,
            Unary::Acosh => C::Acosh,
            Unary::Atanh => C::Atanh,
            _ => return None,
        })
    }

    /// The function of a `complex64` element, in single precision where PyTorch computes
    /// it so (the C library's functions), else as `complex` computes it, rounded once.
    pub(crate) fn complex32(self, z: Complex<f32>) -> Complex<f32> {
        let one = Complex::new(1.0_f32, 0.0);
        match self.c_function() {
            Some(f) => f32::apply(f, z),
            None if self == Unary::Reciprocal => super::complex_division::quotient(one, z),
            None if self == Unary::Sgn => complex_sgn(z),
            None if self == Unary::Sinc => complex_sinc(z),
            None if self == Unary::Rsqrt => {
                super::complex_division::quotient(one, f32::apply(ComplexFunction::Sqrt, z))
            }
            None => {
                let w = self.complex(Complex64::new(z.re.into(), z.im.into()));
                Complex::new(w.re as f32, w.im as f32)
            }
        }
    }

    /// The function of a complex number (the functions PyTorch defines for complex).
    pub(crate) fn complex(self, z: Complex64) -> Complex64 {
        let one = Complex64::new(1.0, 0.0);
        if self == Unary::Acos {
            // PyTorch's double kernel: `π/2 − asin(z)`, the imaginary part `0 − asin(z).im`.
            let w = f64::apply(ComplexFunction::Asin, z);
            return Complex64::new(std::f64::consts::FRAC_PI_2 - w.re, 0.0 - w.im);
        }
        if let Some(f) = self.c_function() {
            return f64::apply(f, z);
        }
        match self {
            Unary::Sigmoid => one / (one + (-z).exp()),
            Unary::Exp2 => (z * std::f64::consts::LN_2).exp(),
            Unary::Expm1 => z.exp() - one,
            Unary::Log2 => z.ln() / std::f64::consts::LN_2,
            Unary::Log10 => z.ln() / std::f64::consts::LN_10,
            Unary::Log1p => (one + z).ln(),
            Unary::Rsqrt => {
                super::complex_division::quotient(one, f64::apply(ComplexFunction::Sqrt, z))
            }
            Unary::Reciprocal => super::complex_division::quotient(one, z),
            Unary::Sgn => complex_sgn(z),
            Unary::Square => z * z,
            Unary::Sinc => complex_sinc(z),
            // Refused for complex by `result_dtype` (`abs` has its own path).
            _ => z,
        }
    }

    /// The function of an integer (or bool, as 0/1) for the functions that keep the dtype.
    pub(crate) fn integer(self, i: i64) -> i64 {
        match self {
            Unary::Abs => i.wrapping_abs(),
            Unary::Sign | Unary::Sgn => i.signum(),
            Unary::Square => i.wrapping_mul(i),
            Unary::Relu => i.max(0),
            _ => i,
        }
    }

    /// The function of a `uint64` element, for the functions that keep the dtype (the
    /// value is never negative: `abs` and `relu` leave it, `sign` is 0 or 1).
    pub(crate) fn unsigned(self, u: u64) -> u64 {
        match self {
            Unary::Sign | Unary::Sgn => u64::from(u != 0),
            Unary::Square => u.wrapping_mul(u),
            _ => u,
        }
    }

    /// Whether tensh has a gradient formula for complex inputs (`complex_factor` is `Some`).
    pub(crate) fn has_complex_factor(self) -> bool {
        !matches!(self, Unary::Sgn | Unary::Sinc)
    }

    /// The factor the output's gradient is multiplied by, at input `x` with output `y`
    /// (real functions), each step rounded to `F` as PyTorch's formulas, written as
    /// tensor ops, round each.
    pub(crate) fn real_factor<F: Float + FloatConst>(self, x: F, y: F) -> F {
        let (one, two) = (F::one(), F::one() + F::one());
        match self {
            Unary::Abs | Unary::Sgn => sign(x),
            Unary::Sqrt => one / (two * y),
            Unary::Exp => y,
            Unary::Log => one / x,
            Unary::Sin => x.cos(),
            Unary::Cos => -x.sin(),
            Unary::Tan => one + y * y,
            Unary::Asin => one / (one - x * x).sqrt(),
            Unary::Acos => -(one / (one - x * x).sqrt()),
            Unary::Atan => one / (one + x * x),
            Unary::Sinh => x.cosh(),
            Unary::Cosh => x.sinh(),
            Unary::Tanh => one - y * y,
            Unary::Sigmoid => (one - y) * y,
            Unary::Exp2 => y * F::LN_2(),
            Unary::Expm1 => y + one,
            Unary::Log2 => one / (x * F::LN_2()),
            Unary::Log10 => one / (x * F::LN_10()),
            Unary::Log1p => one / (x + one),
            Unary::Rsqrt => -(y * y * y) / two,
            Unary::Reciprocal => -(y * y),
            Unary::Floor | Unary::Ceil | Unary::Round | Unary::Trunc | Unary::Sign => F::zero(),
            Unary::Frac => one,
            Unary::Square => x * two,
            Unary::Relu => {
                if y > F::zero() {
                    one
                } else {
                    F::zero()
                }
            }
            Unary::Acosh => one / (x * x - one).sqrt(),
            Unary::Asinh => one / (x * x + one).sqrt(),
            Unary::Atanh => one / (one - x * x),
            Unary::Deg2rad => F::PI() / F::from(180.0).unwrap_or(F::nan()),
            Unary::Rad2deg => F::from(180.0).unwrap_or(F::nan()) / F::PI(),
            Unary::Erf | Unary::Erfc => {
                let d = two / F::PI().sqrt() * (-(x * x)).exp();
                if self == Unary::Erf { d } else { -d }
            }
            Unary::Lgamma => sf::digamma(x),
            Unary::Digamma => sf::trigamma(x),
            // √π / 2 · exp(erfinv(x)²), from the output.
            Unary::Erfinv => F::PI().sqrt() / two * (y * y).exp(),
            Unary::I0 => F::from(sf::i1(x.to_f64().unwrap_or(f64::NAN))).unwrap_or(F::nan()),
            Unary::Sinc => {
                if x == F::zero() {
                    F::zero()
                } else {
                    let p = F::PI() * x;
                    (p * p.cos() - p.sin()) / (F::PI() * x * x)
                }
            }
        }
    }

    /// The factor for a complex input: the conjugate of the derivative (PyTorch's rule for
    /// holomorphic functions), and `sgn(z)` for `abs`. `None`: tensh has no formula
    /// (`sgn` of a complex input).
    pub(crate) fn complex_factor(self, z: Complex64, w: Complex64) -> Option<Complex64> {
        let one = Complex64::new(1.0, 0.0);
        let derivative = match self {
            Unary::Abs => return Some(complex_sgn(z)),
            Unary::Sgn => return None,
            Unary::Sqrt => one / (w * 2.0),
            Unary::Exp => w,
            Unary::Log => one / z,
            Unary::Sin => z.cos(),
            Unary::Cos => -z.sin(),
            Unary::Tan => one + w * w,
            Unary::Asin => one / (one - z * z).sqrt(),
            Unary::Acos => -one / (one - z * z).sqrt(),
            Unary::Atan => one / (one + z * z),
            Unary::Sinh => z.cosh(),
            Unary::Cosh => z.sinh(),
            Unary::Tanh => one - w * w,
            Unary::Sigmoid => w * (one - w),
            Unary::Exp2 => w * std::f64::consts::LN_2,
            Unary::Expm1 => w + one,
            Unary::Log2 => one / (z * std::f64::consts::LN_2),
            Unary::Log10 => one / (z * std::f64::consts::LN_10),
            Unary::Log1p => one / (one + z),
            Unary::Rsqrt => w * w * w * -0.5,
            Unary::Reciprocal => -(w * w),
            Unary::Square => z * 2.0,
            Unary::Acosh => one / ((z - one).sqrt() * (z + one).sqrt()),
            Unary::Asinh => one / (z * z + one).sqrt(),
            Unary::Atanh => one / (one - z * z),
            Unary::Sinc => return None,
            _ => Complex64::new(0.0, 0.0),
        };
        Some(derivative.conj())
    }
}

/// A special function from `libm`, in `f32` for the narrow dtypes (`F` = `f32`) and `f64`
/// for `float64`.
fn special<F: Float>(x: F, narrow: fn(f32) -> f32, wide: fn(f64) -> f64) -> F {
    if std::mem::size_of::<F>() == 4 {
        F::from(narrow(x.to_f32().unwrap_or(f32::NAN))).unwrap_or(F::nan())
    } else {
        F::from(wide(x.to_f64().unwrap_or(f64::NAN))).unwrap_or(F::nan())
    }
}

/// `sin(πx) / (πx)`, 1 at 0, computed in `F` as PyTorch computes it.
fn sinc<F: Float + FloatConst>(x: F) -> F {
    if x == F::zero() {
        return F::one();
    }
    let p = F::PI() * x;
    p.sin() / p
}

/// -1, 0 or 1 (NaN stays NaN; the sign of zero is dropped, as in PyTorch).
fn sign<F: Float>(x: F) -> F {
    // PyTorch's `(0 < x) - (x < 0)`: a NaN is neither, so its sign is 0.
    if x > F::zero() {
        F::one()
    } else if x < F::zero() {
        -F::one()
    } else {
        F::zero()
    }
}

/// `x < 0 ? 0 : x`, as PyTorch's kernel: NaN and `-0.` pass through unchanged.
fn relu<F: Float>(x: F) -> F {
    if x < F::zero() { F::zero() } else { x }
}

/// Rounds half to even (`2.5` to `2`, `3.5` to `4`), as `torch.round` does.
fn round_half_even<F: Float>(x: F) -> F {
    let r = x.round();
    let two = F::one() + F::one();
    if (r - x).abs() == F::one() / two {
        (x / two).round() * two
    } else {
        r
    }
}

/// `z / |z|` part by part (`|z|` the C library's `hypot`), `+0` at either zero.
fn complex_sgn<T: Float>(z: Complex<T>) -> Complex<T> {
    let n = z.re.hypot(z.im);
    if n == T::zero() {
        Complex::new(T::zero(), T::zero())
    } else {
        // Each part divided by `|z|`, as PyTorch's vectorized kernel divides (its scalar
        // loop, which runs the last elements of a row shorter than two vectors, divides as
        // complex numbers: see docs/opinfo.md).
        Complex::new(z.re / n, z.im / n)
    }
}

/// `sin(πz) / (πz)`, 1 at 0, in `T`'s arithmetic (the C library's `sin`, Smith's division).
fn complex_sinc<T: Float + FloatConst + ComplexLibm>(z: Complex<T>) -> Complex<T> {
    if z.re == T::zero() && z.im == T::zero() {
        return Complex::new(T::one(), T::zero());
    }
    // π as a complex number times z, as PyTorch multiplies them (so `π·(−0)` gains `+0`).
    let p = Complex::new(T::PI(), T::zero()) * z;
    super::complex_division::quotient(T::apply(ComplexFunction::Sin, p), p)
}

impl Unary {
    /// Whether the gradient is zero whatever the output's gradient is (PyTorch's
    /// `zeros_like(grad)`: the rounding functions and `sign`).
    pub fn gradient_is_zero(self) -> bool {
        matches!(
            self,
            Unary::Floor | Unary::Ceil | Unary::Round | Unary::Trunc | Unary::Sign
        )
    }

    /// Whether the gradient is the output's gradient or zero, picked element by element
    /// rather than multiplied by a factor (`gradient_is_zero`'s functions, and `relu`).
    pub fn gradient_selects(self) -> bool {
        self.gradient_is_zero() || self == Unary::Relu
    }
}
