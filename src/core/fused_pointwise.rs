//! The pointwise ops of three operands, each one fused loop on the engine's three-operand
//! zip (`engine::zip::zip_n`): `lerp(start, end, weight)`, `addcmul(input, t1, t2, value)`
//! (`input + value * t1 * t2`) and `addcdiv(input, t1, t2, value)` (`input + value * t1 /
//! t2`).
//!
//! PyTorch computes each step in the dtype's "opmath" type: `float` for float32 and the
//! 16-bit floats, `double` for float64, their complex forms for complex dtypes, and rounds
//! only the result to the dtype. tensh's float lanes are `f64`; for the `float` opmath each
//! step is rounded to `f32` (a single `+ - * /` of two `f32` values computed in `f64` and
//! rounded once is the `f32` operation), so the results are PyTorch's bit for bit.
//! Integers compute in wrapping `i64` lanes (wrapping commutes with the final cast).

use num_complex::Complex64;

use super::checked_scalar::{TypeNaming, check_fits};
use super::dtype::DType;
use super::engine::zip::{self, ZipLane};
use super::error::{Result, TorchError};
use super::operand::Arg;
use super::ops::operand;
use super::promotion::result_type;
use super::scalar::Scalar;
use super::tensor::Tensor;
use super::unbuilt_kernels::not_built;

/// Runs `$body` with `$r` the rounding of a float lane to the opmath type of `$dtype`
/// (`f64` for float64 and complex128, else `f32`), chosen once per call: the body is
/// compiled once per rounding, so the per-element loop calls no function pointer.
macro_rules! with_float_rounding {
    ($dtype:expr, |$r:ident| $body:expr) => {
        if matches!($dtype, DType::Float64 | DType::Complex128) {
            let $r = |v: f64| v;
            $body
        } else {
            let $r = |v: f64| v as f32 as f64;
            $body
        }
    };
}

/// `with_float_rounding` for complex lanes (each part rounded).
macro_rules! with_complex_rounding {
    ($dtype:expr, |$r:ident| $body:expr) => {
        if $dtype == DType::Complex128 {
            let $r = |v: Complex64| v;
            $body
        } else {
            let $r = |v: Complex64| Complex64::new(v.re as f32 as f64, v.im as f32 as f64);
            $body
        }
    };
}

/// The number as the opmath type takes it: PyTorch's conversion refuses a value that does
/// not fit (`float` for the 32- and 16-bit floats), and a complex one for a real dtype.
fn checked_number(value: Scalar, dtype: DType) -> Result<Scalar> {
    let opmath = match dtype {
        DType::Float16 | DType::BFloat16 => DType::Float32,
        DType::Complex32 => DType::Complex64,
        other => other,
    };
    if let Scalar::Complex(c) = value
        && !opmath.is_complex()
        && c.im != 0.0
    {
        return Err(TorchError::runtime(format!(
            "value cannot be converted to type {} without overflow",
            opmath.c_type_name()
        )));
    }
    check_fits(opmath, value, TypeNaming::Cpp)?;
    Ok(value)
}

/// The three-operand zip in the lane type of `dtype`, its number operands made lanes.
fn run3<L: ZipLane>(
    args: [&Arg; 3],
    dtype: DType,
    f: impl Fn(L, L, L) -> L + Sync,
) -> Result<Tensor> {
    let compute = match dtype {
        DType::Float16 | DType::BFloat16 => DType::Float32,
        DType::Complex32 => DType::Complex64,
        other => other,
    };
    let chunk = move |[a, b, c]: [&[L]; 3], out: &mut [L]| {
        for (((o, &x), &y), &z) in out.iter_mut().zip(a).zip(b).zip(c) {
            *o = f(x, y, z);
        }
        Ok(())
    };
    let out = zip::zip_n::<L, 3>(args, compute, dtype, &chunk)?;
    let inputs: Vec<&Tensor> = args.into_iter().filter_map(Arg::as_tensor).collect();
    super::result_layout::in_inputs_order(out, &inputs)
}

/// Whether `dtype` has PyTorch's `lerp` kernels (the floats and wider complex types).
fn has_lerp(dtype: DType) -> bool {
    matches!(
        dtype,
        DType::Float16
            | DType::BFloat16
            | DType::Float32
            | DType::Float64
            | DType::Complex64
            | DType::Complex128
    )
}

/// PyTorch's refusal of an operand whose dtype is not `start`'s.
fn lerp_dtype(expected: DType, got: DType, what: &str) -> TorchError {
    TorchError::runtime(format!(
        "expected dtype {} for `{what}` but got dtype {}",
        expected.c_type_name(),
        got.c_type_name()
    ))
}

/// `torch.lerp(start, end, weight)`: `start + weight * (end - start)` for `|weight| < 0.5`,
/// `end - (end - start) * (1 - weight)` otherwise (exact at both ends). `end` (and a
/// weight tensor with dimensions) must have `start`'s dtype; a 0-d weight tensor counts as
/// its number.
pub fn lerp(start: &Tensor, end: &Tensor, weight: &Arg) -> Result<Tensor> {
    let dtype = start.dtype();
    if end.dtype() != dtype {
        return Err(lerp_dtype(dtype, end.dtype(), "end"));
    }
    let weight = match weight {
        Arg::Tensor(w) if w.ndim() == 0 => Arg::Number(crate::core::copy::to_scalars(w)?[0]),
        other => other.clone(),
    };
    let kernel = match &weight {
        Arg::Tensor(w) => {
            if w.dtype() != dtype {
                return Err(lerp_dtype(dtype, w.dtype(), "weight"));
            }
            "lerp_kernel_tensor"
        }
        Arg::Number(_) => "lerp_kernel_scalar",
    };
    if !has_lerp(dtype) {
        return Err(not_built(kernel, dtype));
    }
    let weight = match weight {
        Arg::Number(w) => Arg::Number(checked_number(w, dtype)?),
        other => other,
    };
    let args = [
        &Arg::Tensor(start.clone()),
        &Arg::Tensor(end.clone()),
        &weight,
    ];
    if dtype.is_complex() {
        with_complex_rounding!(dtype, |r| run3::<Complex64>(args, dtype, move |s, e, w| {
            let diff = r(e - s);
            if w.norm() < 0.5 {
                r(s + r(w * diff))
            } else {
                r(e - r(diff * r(Complex64::new(1.0, 0.0) - w)))
            }
        }))
    } else {
        with_float_rounding!(dtype, |r| run3::<f64>(args, dtype, move |s, e, w| {
            let diff = r(e - s);
            if w.abs() < 0.5 {
                r(s + r(w * diff))
            } else {
                r(e - r(diff * r(1.0 - w)))
            }
        }))
    }
}

/// Which of the two ops with a scaled product or quotient.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Addc {
    /// `input + value * t1 * t2`.
    Mul,
    /// `input + value * t1 / t2`.
    Div,
}

impl Addc {
    /// The op's Python name.
    pub fn name(self) -> &'static str {
        match self {
            Addc::Mul => "addcmul",
            Addc::Div => "addcdiv",
        }
    }

    /// Whether PyTorch builds the op's kernel for `dtype`.
    fn has_kernel(self, dtype: DType) -> bool {
        // `lerp`'s dtypes: the floats and the wider complex types.
        let float = has_lerp(dtype);
        match self {
            Addc::Div => float,
            Addc::Mul => {
                float
                    || dtype == DType::Complex32
                    || matches!(
                        dtype,
                        DType::UInt8 | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64
                    )
            }
        }
    }
}

/// The dtype `op(input, t1, t2)` computes and returns: the three tensors promoted as
/// PyTorch's elementwise ops promote.
pub fn addc_dtype(op: Addc, input: &Tensor, t1: &Tensor, t2: &Tensor) -> Result<DType> {
    if op == Addc::Div && t1.dtype().is_integral() && t2.dtype().is_integral() {
        return Err(TorchError::runtime(
            "Integer division with addcdiv is no longer supported, and in a future  release \
             addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv \
             behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(\
             input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for \
             float inputs. The future addcdiv behavior is just the latter implementation: (input \
             + value * tensor1 / tensor2), for all dtypes.",
        ));
    }
    let operands: Vec<_> = [input, t1, t2]
        .into_iter()
        .map(|t| operand(&Arg::Tensor(t.clone())))
        .collect();
    result_type(&operands)
}

/// `torch.addcmul` / `torch.addcdiv`: `input + value * t1 * t2` (or `/ t2`), broadcast,
/// in the promoted dtype of the three tensors; `value` is taken in that dtype (truncated
/// for integers, refused where it does not fit).
pub fn addc(op: Addc, input: &Tensor, t1: &Tensor, t2: &Tensor, value: Scalar) -> Result<Tensor> {
    let dtype = addc_dtype(op, input, t1, t2)?;
    if !op.has_kernel(dtype) {
        return Err(not_built(&format!("{}_cpu_out", op.name()), dtype));
    }
    let value = checked_number(value, dtype)?;
    let tensors = [input, t1, t2].map(|t| Arg::Tensor(t.clone()));
    let args = [&tensors[0], &tensors[1], &tensors[2]];
    if dtype.is_complex() {
        let v = match value {
            Scalar::Complex(c) => c,
            other => Complex64::new(other.to_f64(), 0.0),
        };
        return with_complex_rounding!(dtype, |r| {
            let v = r(v);
            match op {
                Addc::Mul => run3::<Complex64>(args, dtype, move |x, a, b| r(x + r(r(v * a) * b))),
                Addc::Div => run3::<Complex64>(args, dtype, move |x, a, b| r(x + r(r(v * a) / b))),
            }
        });
    }
    if dtype.is_floating_point() {
        return with_float_rounding!(dtype, |r| {
            let v = r(value.to_f64());
            match op {
                Addc::Mul => run3::<f64>(args, dtype, move |x, a, b| r(x + r(r(v * a) * b))),
                Addc::Div => run3::<f64>(args, dtype, move |x, a, b| r(x + r(r(v * a) / b))),
            }
        });
    }
    // Integers (only `addcmul` gets here): the value truncated to an integer, wrapping.
    let v = match value {
        Scalar::Float(f) => f as i64,
        Scalar::Bool(b) => i64::from(b),
        Scalar::UInt(u) => u as i64,
        Scalar::Int(i) => i,
        Scalar::Complex(c) => c.re as i64,
    };
    run3::<i64>(args, dtype, move |x, a, b| {
        x.wrapping_add(v.wrapping_mul(a).wrapping_mul(b))
    })
}

/// `a + alpha * b` as PyTorch's `add` kernel computes it when `alpha` is not 1 (`sub` is
/// `add` with `-alpha`) in float32 or float64, the dtype `a` and `b` promote to: one fused
/// multiply-add, rounded once (scaling `b` first and adding would round twice; checked
/// against PyTorch element by element, vectorized body and scalar tail alike). `None` for
/// the other dtypes, whose two separate steps are PyTorch's.
pub fn add_scaled(a: &Tensor, b: &Tensor, alpha: Scalar) -> Result<Option<Tensor>> {
    let (a, b) = (Arg::Tensor(a.clone()), Arg::Tensor(b.clone()));
    let dtype = result_type(&[operand(&a), operand(&b)])?;
    let args = [&a, &b];
    let out = match dtype {
        DType::Float32 => {
            let s = alpha.to_f64() as f32;
            run2::<f64>(args, dtype, move |x, y| {
                (y as f32).mul_add(s, x as f32) as f64
            })?
        }
        DType::Float64 => {
            let s = alpha.to_f64();
            run2::<f64>(args, dtype, move |x, y| y.mul_add(s, x))?
        }
        _ => return Ok(None),
    };
    Ok(Some(out))
}

/// `run3` for two operands.
fn run2<L: ZipLane>(args: [&Arg; 2], dtype: DType, f: impl Fn(L, L) -> L + Sync) -> Result<Tensor> {
    let chunk = move |[a, b]: [&[L]; 2], out: &mut [L]| {
        for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
            *o = f(x, y);
        }
        Ok(())
    };
    let out = zip::zip_n::<L, 2>(args, dtype, dtype, &chunk)?;
    let inputs: Vec<&Tensor> = args.into_iter().filter_map(Arg::as_tensor).collect();
    super::result_layout::in_inputs_order(out, &inputs)
}
