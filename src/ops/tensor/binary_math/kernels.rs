//! More elementwise functions of two operands, each one typed closure on the engine's zip
//! mode with PyTorch's dtype rule and refusals (read off the oracle): `atan2`, `hypot`,
//! `copysign`, `fmod`, `logaddexp`, `logaddexp2`, `xlogy`, `nextafter`, `heaviside`,
//! `fmax`/`fmin`, `gcd`/`lcm`, the bit shifts, `ldexp`, `float_power`, the logical ops and
//! `igamma`/`igammac`.

use half::{bf16, f16};

use crate::core::defaults::default_dtype;
use crate::core::dtype::DType;
use crate::core::error::{Result, TorchError};
use crate::core::incomplete_gamma::{lower_regularized, upper_regularized};
use crate::core::ops::Arg;
use crate::core::pointwise::{zip_complex, zip_float, zip_int};
use crate::core::tensor::Tensor;
use crate::core::unbuilt_kernels::not_built;

/// A function of two operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Binary {
    Atan2,
    Hypot,
    Copysign,
    Fmod,
    Logaddexp,
    Logaddexp2,
    Xlogy,
    Nextafter,
    Heaviside,
    Fmax,
    Fmin,
    Gcd,
    Lcm,
    LeftShift,
    RightShift,
    FloatPower,
    Ldexp,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
    Igamma,
    Igammac,
}

impl Binary {
    /// PyTorch's CPU kernel name, in its refusals.
    fn kernel(self) -> &'static str {
        match self {
            Binary::Atan2 => "atan2_cpu",
            Binary::Hypot => "hypot_cpu",
            Binary::Copysign => "copysign_cpu",
            Binary::Fmod => "fmod_cpu",
            Binary::Logaddexp => "logaddexp_cpu",
            Binary::Logaddexp2 => "logaddexp2_cpu",
            Binary::Xlogy => "xlogy_cpu",
            Binary::Nextafter => "nextafter_cpu",
            Binary::Gcd => "gcd_cpu",
            Binary::Lcm => "lcm_cpu",
            Binary::LeftShift => "lshift_cpu",
            Binary::RightShift => "rshift_cpu",
            Binary::Igamma => "igamma_cpu",
            Binary::Igammac => "igammac_cpu",
            Binary::LogicalAnd => "logical_and_cpu",
            Binary::LogicalOr => "logical_or_cpu",
            Binary::LogicalXor => "logical_xor_cpu",
            _ => "",
        }
    }
}

/// `op(a, b)` elementwise with broadcasting.
pub fn binary_math(op: Binary, a: &Arg, b: &Arg) -> Result<Tensor> {
    if matches!(op, Binary::Fmax | Binary::Fmin)
        && (dtype_of(a).is_complex() || dtype_of(b).is_complex())
    {
        // Checked by the op itself, before its operands' shapes are.
        return Err(TorchError::type_error(format!(
            "{} not implemented for complex tensors.",
            if op == Binary::Fmax { "fmax" } else { "fmin" }
        )));
    }
    if op == Binary::Heaviside {
        // Checked by the op itself, before its operands' shapes are.
        let (da, db) = (dtype_of(a), dtype_of(b));
        if da.is_complex() || db.is_complex() {
            return Err(TorchError::not_implemented(
                "heaviside is not yet implemented for complex tensors.",
            ));
        }
        if da != db {
            return Err(TorchError::runtime(
                "heaviside is not yet implemented for tensors with different dtypes.",
            ));
        }
    }
    let common = crate::core::ops::common_type(a, b)?;
    crate::core::unbuilt_kernels::require_complex_half_kernel(op.kernel(), common)?;
    let int_like = common.is_integral() || common == DType::Bool;
    match op {
        // Integers compute in the default float dtype.
        Binary::Atan2 | Binary::Copysign | Binary::Xlogy => {
            if common.is_complex() {
                return Err(not_built(op.kernel(), common));
            }
            let d = if int_like { default_dtype() } else { common };
            match op {
                Binary::Atan2 => zip_float(a, b, d, d, f64::atan2),
                Binary::Copysign => zip_float(a, b, d, d, f64::copysign),
                _ => zip_float(a, b, d, d, move |x, y| xlogy(d, x, y)),
            }
        }
        // Float kernels only.
        Binary::Hypot
        | Binary::Logaddexp
        | Binary::Logaddexp2
        | Binary::Nextafter
        | Binary::Igamma
        | Binary::Igammac => {
            if common.is_complex() && op == Binary::Logaddexp {
                return zip_complex(a, b, common, common, |x, y| {
                    // The larger real part taken out, so `exp` cannot overflow.
                    let (m, o) = if x.re >= y.re { (x, y) } else { (y, x) };
                    m + ((o - m).exp() + 1.0).ln()
                });
            }
            if int_like || common.is_complex() {
                return Err(not_built(op.kernel(), common));
            }
            match op {
                Binary::Hypot => zip_float(a, b, common, common, f64::hypot),
                Binary::Logaddexp => zip_float(a, b, common, common, logaddexp),
                Binary::Logaddexp2 => zip_float(a, b, common, common, logaddexp2),
                Binary::Igamma => zip_float(a, b, common, common, lower_regularized),
                Binary::Igammac => zip_float(a, b, common, common, upper_regularized),
                _ => zip_float(a, b, common, common, move |x, y| next_after(common, x, y)),
            }
        }
        Binary::Fmod => {
            if common == DType::Bool || common.is_complex() {
                return Err(not_built(op.kernel(), common));
            }
            if int_like {
                zip_int(a, b, common, common, |p, q| {
                    if q == 0 {
                        return Err(TorchError::runtime("ZeroDivisionError"));
                    }
                    Ok(p.wrapping_rem(q))
                })
            } else {
                zip_float(a, b, common, common, |x, y| x % y)
            }
        }
        Binary::Heaviside => {
            let step = |x: f64, v: f64| {
                if x == 0.0 {
                    v
                } else {
                    f64::from(u8::from(x > 0.0))
                }
            };
            if int_like {
                zip_int(a, b, common, common, |x, v| {
                    Ok(if x == 0 { v } else { i64::from(x > 0) })
                })
            } else {
                zip_float(a, b, common, common, step)
            }
        }
        Binary::Fmax | Binary::Fmin => {
            if common.is_complex() {
                return Err(TorchError::type_error(format!(
                    "{} not implemented for complex tensors.",
                    if op == Binary::Fmax { "fmax" } else { "fmin" }
                )));
            }
            let max = op == Binary::Fmax;
            if int_like {
                zip_int(a, b, common, common, move |x, y| {
                    Ok(if max { x.max(y) } else { x.min(y) })
                })
            } else {
                zip_float(a, b, common, common, move |x, y| {
                    if max { fmax(x, y) } else { fmin(x, y) }
                })
            }
        }
        Binary::Gcd | Binary::Lcm | Binary::LeftShift | Binary::RightShift => {
            if !common.is_integral() || common == DType::Bool {
                return Err(not_built(op.kernel(), common));
            }
            match op {
                Binary::Gcd => zip_int(a, b, common, common, |x, y| Ok(gcd(x, y))),
                Binary::Lcm => zip_int(a, b, common, common, |x, y| {
                    let g = gcd(x, y);
                    Ok(if g == 0 {
                        0
                    } else {
                        (x / g).wrapping_mul(y).wrapping_abs()
                    })
                }),
                Binary::LeftShift => zip_int(a, b, common, common, |x, s| {
                    Ok(if (0..64).contains(&s) {
                        ((x as u64) << s) as i64
                    } else {
                        0
                    })
                }),
                _ => zip_int(a, b, common, common, |x, s| {
                    // A shift out of range (negative, or past the width) fills with the
                    // sign, as PyTorch's kernel does.
                    Ok(if (0..64).contains(&s) {
                        x >> s
                    } else if x < 0 {
                        -1
                    } else {
                        0
                    })
                }),
            }
        }
        Binary::Ldexp => {
            // PyTorch's definition: `input * 2.0 ** other`.
            let two = Arg::Number(crate::core::scalar::Scalar::Float(2.0));
            let scale = crate::core::pointwise::pow(&two, b)?;
            crate::core::ops::binary_untracked(
                crate::core::ops::BinaryOp::Mul,
                a,
                &Arg::Tensor(scale),
            )
        }
        Binary::FloatPower => {
            // Both sides in double precision (complex128 if either is complex); a number is
            // `pow`'s parameter, as in PyTorch's `float_power`.
            let d = if common.is_complex() {
                DType::Complex128
            } else {
                DType::Float64
            };
            let no_int = |_: i64, _: i64| Ok(0);
            let complex = crate::core::complex_power::power(false, b);
            crate::core::pointwise::zip_with_parameter(a, b, d, d, f64::powf, no_int, complex)
        }
        Binary::LogicalAnd | Binary::LogicalOr | Binary::LogicalXor => {
            let truth = |x: &Arg| -> Result<Arg> {
                Ok(match x {
                    Arg::Tensor(t) => Arg::Tensor(crate::core::ops::binary_untracked(
                        crate::core::ops::BinaryOp::Ne,
                        &Arg::Tensor(t.clone()),
                        &Arg::Number(crate::core::scalar::Scalar::Int(0)),
                    )?),
                    Arg::Number(s) => Arg::Number(crate::core::scalar::Scalar::Bool(s.to_bool())),
                })
            };
            let (ta, tb) = (truth(a)?, truth(b)?);
            let d = DType::Bool;
            zip_int(&ta, &tb, d, d, move |x, y| {
                let (p, q) = (x != 0, y != 0);
                Ok(i64::from(match op {
                    Binary::LogicalAnd => p && q,
                    Binary::LogicalOr => p || q,
                    _ => p != q,
                }))
            })
        }
    }
}

/// The dtype of an operand as PyTorch's same-dtype checks see it.
fn dtype_of(a: &Arg) -> DType {
    match a {
        Arg::Tensor(t) => t.dtype(),
        Arg::Number(s) => match s {
            crate::core::scalar::Scalar::Complex(_) => DType::Complex64,
            crate::core::scalar::Scalar::Float(_) => default_dtype(),
            crate::core::scalar::Scalar::Bool(_) => DType::Bool,
            _ => DType::Int64,
        },
    }
}

/// `x * log(y)`, 0 where `x` is 0 (unless `y` is NaN), for a result of dtype `d`: the
/// logarithm is rounded to `d` before the product, as PyTorch's kernel computes it in `d`
/// (`xlogy(5, 22)` in bfloat16 is 15.5, not the 15.4375 of one rounding at the end).
fn xlogy(d: DType, x: f64, y: f64) -> f64 {
    if y.is_nan() {
        f64::NAN
    } else if x == 0.0 {
        0.0
    } else {
        x * crate::core::element::round_to(d, y.ln())
    }
}

/// `log(exp(x) + exp(y))`, stably; equal infinities give themselves.
fn logaddexp(x: f64, y: f64) -> f64 {
    if x.is_infinite() && x == y {
        return x;
    }
    let m = x.max(y);
    m + (-(x - y).abs()).exp().ln_1p()
}

/// `log2(2^x + 2^y)`, stably.
fn logaddexp2(x: f64, y: f64) -> f64 {
    if x.is_infinite() && x == y {
        return x;
    }
    let m = x.max(y);
    m + (-(x - y).abs()).exp2().ln_1p() / std::f64::consts::LN_2
}

/// The next representable value of `dtype` after `x` toward `y`.
fn next_after(dtype: DType, x: f64, y: f64) -> f64 {
    fn step<B>(
        x: f64,
        y: f64,
        to_bits: impl Fn(f64) -> B,
        from_bits: impl Fn(B) -> f64,
        up: impl Fn(B) -> B,
        down: impl Fn(B) -> B,
        min_sub: f64,
    ) -> f64 {
        if x.is_nan() || y.is_nan() {
            return f64::NAN;
        }
        if x == y {
            return y;
        }
        if x == 0.0 {
            return if y > 0.0 { min_sub } else { -min_sub };
        }
        let bits = to_bits(x);
        // Away from zero when moving in the direction of x's sign.
        if (y > x) == (x > 0.0) {
            from_bits(up(bits))
        } else {
            from_bits(down(bits))
        }
    }
    match dtype {
        DType::Float32 => step(
            x,
            y,
            |v| (v as f32).to_bits(),
            |b| f32::from_bits(b) as f64,
            |b| b + 1,
            |b| b - 1,
            f64::from(f32::from_bits(1)),
        ),
        DType::Float16 => step(
            x,
            y,
            |v| f16::from_f64(v).to_bits(),
            |b| f16::from_bits(b).to_f64(),
            |b| b + 1,
            |b| b - 1,
            f16::from_bits(1).to_f64(),
        ),
        DType::BFloat16 => step(
            x,
            y,
            |v| bf16::from_f64(v).to_bits(),
            |b| bf16::from_bits(b).to_f64(),
            |b| b + 1,
            |b| b - 1,
            bf16::from_bits(1).to_f64(),
        ),
        _ => step(
            x,
            y,
            f64::to_bits,
            f64::from_bits,
            |b| b + 1,
            |b| b - 1,
            f64::from_bits(1),
        ),
    }
}

/// The greatest common divisor, non-negative (`gcd(0, 0)` is 0).
fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

/// `torch.fmax`'s rule: NaN on one side gives the other, and of two equal values (`0.` and
/// `-0.`) the first. (`f64::max` leaves the sign of zero to the platform: the page's
/// WebAssembly and x86 answer differently.)
fn fmax(x: f64, y: f64) -> f64 {
    if y.is_nan() || (!x.is_nan() && x >= y) {
        x
    } else {
        y
    }
}

/// `torch.fmin`'s rule: as `fmax`, the smaller.
fn fmin(x: f64, y: f64) -> f64 {
    if y.is_nan() || (!x.is_nan() && x <= y) {
        x
    } else {
        y
    }
}
