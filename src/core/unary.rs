//! Elementwise functions of one argument (`abs`, `sqrt`, `exp`, ..., `floor`, `sign`,
//! `relu`): each with PyTorch's dtype rule (transcendental functions take integers and
//! bools to the default float dtype; rounding, `sign`, `square` and `relu` keep the
//! dtype), its refusals word for word, and the factor its gradient is multiplied by.
//! Values are computed in `f64` (or `Complex64`), then rounded to the output's dtype.

use num_complex::Complex64;
use num_traits::{Float, FloatConst};

use super::creation::from_scalars;
use super::defaults::default_dtype;
use super::dtype::DType;
use super::error::{Result, TorchError};
use super::ops::{Arg, cast, values};
use super::scalar::Scalar;
use super::tensor::Tensor;

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
}

impl Unary {
    /// Every function with its method name, as scripts call it.
    pub const ALL: [(&'static str, Unary); 30] = [
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
                super::unbuilt_kernels::require_kernel("abs_cpu", d)?;
                match d {
                    DType::Bool => unbuilt("abs_cpu"),
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
            f if f.to_float() && (d.is_integral() || d == DType::Bool) => Ok(default_dtype()),
            _ => Ok(d),
        }
    }

    /// The function of a real number, computed in `F` (`f32` for every real dtype but
    /// `float64`, as PyTorch's kernels compute).
    fn real<F: Float + FloatConst>(self, x: F) -> F {
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
        }
    }

    /// The function of a complex number (the functions PyTorch defines for complex).
    fn complex(self, z: Complex64) -> Complex64 {
        let one = Complex64::new(1.0, 0.0);
        match self {
            Unary::Sqrt => z.sqrt(),
            Unary::Exp => z.exp(),
            Unary::Log => z.ln(),
            Unary::Sin => z.sin(),
            Unary::Cos => z.cos(),
            Unary::Tan => z.tan(),
            Unary::Asin => z.asin(),
            Unary::Acos => z.acos(),
            Unary::Atan => z.atan(),
            Unary::Sinh => z.sinh(),
            Unary::Cosh => z.cosh(),
            Unary::Tanh => z.tanh(),
            Unary::Sigmoid => one / (one + (-z).exp()),
            Unary::Exp2 => (z * std::f64::consts::LN_2).exp(),
            Unary::Expm1 => z.exp() - one,
            Unary::Log2 => z.ln() / std::f64::consts::LN_2,
            Unary::Log10 => z.ln() / std::f64::consts::LN_10,
            Unary::Log1p => (one + z).ln(),
            Unary::Rsqrt => one / z.sqrt(),
            Unary::Reciprocal => one / z,
            Unary::Sgn => complex_sgn(z),
            Unary::Square => z * z,
            // Refused for complex by `result_dtype` (`abs` has its own path).
            _ => z,
        }
    }

    /// The function of an integer (or bool, as 0/1) for the functions that keep the dtype.
    fn integer(self, i: i64) -> i64 {
        match self {
            Unary::Abs => i.wrapping_abs(),
            Unary::Sign | Unary::Sgn => i.signum(),
            Unary::Square => i.wrapping_mul(i),
            Unary::Relu => i.max(0),
            _ => i,
        }
    }

    /// The factor the output's gradient is multiplied by, at input `x` with output `y`
    /// (real functions), each step rounded to `F` as PyTorch's formulas, written as
    /// tensor ops, round each.
    fn real_factor<F: Float + FloatConst>(self, x: F, y: F) -> F {
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
        }
    }

    /// The factor for a complex input: the conjugate of the derivative (PyTorch's rule for
    /// holomorphic functions), and `sgn(z)` for `abs`. `None`: tensh has no formula
    /// (`sgn` of a complex input).
    fn complex_factor(self, z: Complex64, w: Complex64) -> Option<Complex64> {
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
            _ => Complex64::new(0.0, 0.0),
        };
        Some(derivative.conj())
    }
}

/// -1, 0 or 1 (NaN stays NaN; the sign of zero is dropped, as in PyTorch).
fn sign<F: Float>(x: F) -> F {
    if x > F::zero() {
        F::one()
    } else if x < F::zero() {
        -F::one()
    } else if x.is_nan() {
        x
    } else {
        F::zero()
    }
}

/// `max(x, 0)`, NaN propagating.
fn relu<F: Float>(x: F) -> F {
    if x.is_nan() || x > F::zero() {
        x
    } else {
        F::zero()
    }
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

/// `f`'s value and gradient factor at a real `x`, computed in `f64` for `float64` and in
/// `f32` for the narrower float dtypes (and integers read as floats).
fn real_pair(f: Unary, x: f64, out: DType) -> (f64, f64) {
    if out == DType::Float64 {
        let y = f.real(x);
        (y, f.real_factor(x, y))
    } else {
        let x32 = x as f32;
        // The value is rounded to the output dtype before the factor reads it.
        let y = cast(out, Scalar::Float(f64::from(f.real(x32)))).to_f64() as f32;
        (f64::from(y), f64::from(f.real_factor(x32, y)))
    }
}

/// `z / |z|`, 0 at 0.
fn complex_sgn(z: Complex64) -> Complex64 {
    let n = z.norm();
    if n == 0.0 { z * 0.0 } else { z / n }
}

/// `f(t)` elementwise, laid out in `t`'s stride order as PyTorch's unary kernels are.
pub fn unary(t: &Tensor, f: Unary) -> Result<Tensor> {
    let (out, _) = compute(t, f, false)?;
    Ok(out)
}

/// `f(t)` and the factor its gradient is multiplied by (`None` when tensh has no formula),
/// for a result autograd records.
pub fn unary_with_factor(t: &Tensor, f: Unary) -> Result<(Tensor, Option<Tensor>)> {
    compute(t, f, true)
}

fn compute(t: &Tensor, f: Unary, want_factor: bool) -> Result<(Tensor, Option<Tensor>)> {
    let d = t.dtype();
    let out = f.result_dtype(d)?;
    let sizes = t.sizes();
    // Read in the output dtype, except `abs` of complex (read as complex, output real)
    // and `square` of bool (read as the int64 it gives).
    let read = if d.is_complex() { d } else { out };
    let xs = values(&Arg::Tensor(t.clone()), &sizes, read)?;
    let integral = !out.is_floating_point() && !out.is_complex();
    let mut ys = Vec::with_capacity(xs.len());
    let mut factors = Vec::with_capacity(if want_factor { xs.len() } else { 0 });
    let mut has_formula = true;
    for &x in &xs {
        let real = match x {
            Scalar::Complex(_) => None,
            _ if integral => None,
            v => Some(real_pair(f, v.to_f64(), out)),
        };
        let y = match x {
            Scalar::Complex(z) if f == Unary::Abs => Scalar::Float(z.norm()),
            Scalar::Complex(z) => Scalar::Complex(f.complex(z)),
            v if integral => {
                let i = f.integer(v.to_i64());
                if out == DType::Bool {
                    Scalar::Bool(i != 0)
                } else {
                    Scalar::Int(i)
                }
            }
            _ => Scalar::Float(real.map_or(0.0, |(y, _)| y)),
        };
        let y = cast(out, y);
        if want_factor {
            let factor = match (x, y) {
                (Scalar::Complex(z), Scalar::Complex(w)) => f.complex_factor(z, w),
                (Scalar::Complex(z), _) => f.complex_factor(z, z),
                _ => Some(Complex64::new(real.map_or(0.0, |(_, k)| k), 0.0)),
            };
            match factor {
                Some(c) if d.is_complex() => factors.push(Scalar::Complex(c)),
                Some(c) => factors.push(Scalar::Float(c.re)),
                None => has_formula = false,
            }
        }
        ys.push(y);
    }
    let result = from_scalars(&ys, sizes.clone(), out)?;
    let result = super::result_layout::in_inputs_order(result, &[t])?;
    let factor = if want_factor && has_formula {
        Some(from_scalars(&factors, sizes, d)?)
    } else {
        None
    };
    Ok((result, factor))
}

/// `t.round(decimals=n)`: each step (scale, round half to even, unscale) rounded to
/// `t`'s dtype, as PyTorch computes it; integer dtypes are refused (even for `n == 0`,
/// in PyTorch's words for each case).
pub fn round_decimals(t: &Tensor, decimals: i64) -> Result<Tensor> {
    let d = t.dtype();
    if !d.is_floating_point() {
        let kernel = if decimals == 0 {
            "round_vml_cpu"
        } else {
            "round_cpu"
        };
        return Err(TorchError::not_implemented(format!(
            "\"{kernel}\" not implemented for '{}'",
            d.cpp_name()
        )));
    }
    let ten = cast(
        d,
        Scalar::Float(10f64.powi(decimals.unsigned_abs().min(400) as i32)),
    )
    .to_f64();
    let xs = values(&Arg::Tensor(t.clone()), &t.sizes(), d)?;
    let ys: Vec<Scalar> = xs
        .into_iter()
        .map(|x| {
            let x = x.to_f64();
            let step = |v: f64| cast(d, Scalar::Float(v)).to_f64();
            Scalar::Float(if decimals >= 0 {
                step(step(x * ten).round_ties_even() / ten)
            } else {
                step(step(x / ten).round_ties_even() * ten)
            })
        })
        .collect();
    let out = from_scalars(&ys, t.sizes(), d)?;
    super::result_layout::in_inputs_order(out, &[t])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(values: &[f64], f: Unary) -> Vec<f64> {
        let t = from_scalars(
            &values.iter().map(|&v| Scalar::Float(v)).collect::<Vec<_>>(),
            vec![values.len() as i64],
            DType::Float64,
        )
        .unwrap();
        let out = unary(&t, f).unwrap();
        super::super::copy::to_scalars(&out)
            .unwrap()
            .iter()
            .map(|s| s.to_f64())
            .collect()
    }

    #[test]
    fn rounding_is_half_to_even_and_frac_keeps_the_sign() {
        assert_eq!(run(&[0.5, 1.5, -2.5], Unary::Round), vec![0.0, 2.0, -2.0]);
        assert_eq!(run(&[-1.25, 2.75], Unary::Frac), vec![-0.25, 0.75]);
        assert_eq!(run(&[-3.0, 0.0, 2.0], Unary::Sign), vec![-1.0, 0.0, 1.0]);
    }

    #[test]
    fn dtype_rules_follow_pytorch() {
        assert_eq!(
            Unary::Exp.result_dtype(DType::Int64).unwrap(),
            default_dtype()
        );
        assert_eq!(
            Unary::Floor.result_dtype(DType::Int64).unwrap(),
            DType::Int64
        );
        assert_eq!(
            Unary::Square.result_dtype(DType::Bool).unwrap(),
            DType::Int64
        );
        assert!(Unary::Frac.result_dtype(DType::Int64).is_err());
        assert!(Unary::Sign.result_dtype(DType::Complex64).is_err());
        assert_eq!(Unary::Sgn.result_dtype(DType::Bool).unwrap(), DType::Bool);
    }

    #[test]
    fn every_function_has_its_name_and_node() {
        for (name, f) in Unary::ALL {
            assert_eq!(f.name(), name);
            assert!(f.node().ends_with("Backward0"));
        }
    }
}
