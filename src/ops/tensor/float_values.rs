//! Ops about special float values, composed of the engine's pointwise ops as PyTorch
//! defines them: `nan_to_num` (NaN and infinities replaced, by default with the dtype's
//! limits), `logit` (`log(z / (1 - z))`, `z` clamped to `[eps, 1 - eps]`), `angle` (the
//! argument of a complex number; `pi` for negative reals), `frexp` (mantissa and
//! exponent). Each step rounds to the result's dtype, half precision included, as
//! PyTorch's kernels do; results are recorded under PyTorch's node names.

use rhai::Dynamic;

use super::binary_math::kernels::{Binary, binary_math};
use crate::core::autograd::{grad_ops, tracked};
use crate::core::copy::cast_copy;
use crate::core::dtype::DType;
use crate::core::element;
use crate::core::engine::elements;
use crate::core::error::{Result, TorchError};
use crate::core::ops::{Arg, BinaryOp, binary_untracked};
use crate::core::pointwise::{FloatClass, classify, where_};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::detached;
use crate::core::unary::unary;
use crate::core::unary_math::Unary;
use crate::ops::args::Args;
use crate::ops::convert::to_scalar;
use crate::ops::dtype_info::FInfo;
use crate::ops::errors::{IntoRhai, RhaiResult};
use crate::ops::registry::Registry;
use crate::ops::return_tuple::ReturnTuple;
use crate::ops::tensor::in_place_writes;

fn num(v: f64) -> Arg {
    Arg::Number(Scalar::Float(v))
}

/// The gradient of one of these ops from the output's, given the input's values.
type GradOf = fn(&Tensor, &Tensor, Option<f64>) -> Result<Tensor>;

/// Records `out` under `node` when `x` requires grad, with the gradient `grad` computes
/// (`eps`: `logit`'s).
fn recorded(
    out: Tensor,
    x: &Tensor,
    node: &str,
    grad: GradOf,
    eps: Option<f64>,
) -> RhaiResult<Dynamic> {
    tracked::single(&out, node, x, move |g, x| grad(g, x, eps));
    Ok(Dynamic::from(out))
}

/// `x.op_(...)`: `op` computed from `x`'s stand-in, recorded with `grad`, written back.
fn written(
    x: &Tensor,
    node: &str,
    op: impl Fn(&Tensor) -> Result<Tensor>,
    grad: GradOf,
    eps: Option<f64>,
) -> RhaiResult<Dynamic> {
    let source = in_place_writes::source(x, &[]).rhai()?;
    let out = op(&source).rhai()?;
    tracked::single(&out, node, &source, move |g, x| grad(g, x, eps));
    in_place_writes::write_back(x, &[], &out)?;
    Ok(Dynamic::from(x.clone()))
}

/// `nan_to_num`'s gradient: it passes where `x` was finite.
fn nan_to_num_grad(g: &Tensor, x: &Tensor, _: Option<f64>) -> Result<Tensor> {
    grad_ops::keep(&classify(x, FloatClass::Finite)?, g)
}

/// `logit`'s gradient, `g / (x (1 - x))`: NaN outside `[0, 1]` without `eps`, zero
/// outside `[eps, 1 - eps]` with it.
fn logit_grad(g: &Tensor, x: &Tensor, eps: Option<f64>) -> Result<Tensor> {
    use grad_ops::{cmp, div, mul, n, or, select, sub, t};
    let slope = div(t(g), t(&mul(t(x), t(&sub(n(1.0), t(x))?))?))?;
    let (lo, hi, outside) = match eps {
        Some(e) => (e, 1.0 - e, 0.0),
        None => (0.0, 1.0, f64::NAN),
    };
    let out_of_range = or(
        &cmp(BinaryOp::Lt, t(x), n(lo))?,
        &cmp(BinaryOp::Gt, t(x), n(hi))?,
    )?;
    select(&out_of_range, n(outside), t(&slope))
}

/// `angle`'s gradient: zero for real inputs; `g · i z / |z|²` (zero at 0) for complex.
fn angle_grad(g: &Tensor, x: &Tensor, _: Option<f64>) -> Result<Tensor> {
    use grad_ops::{cmp, div, mul, n, select, t};
    if !x.dtype().is_complex() {
        return mul(t(g), n(0.0));
    }
    let abs2 = crate::core::unary::unary(x, crate::core::unary_math::Unary::Abs)?;
    let abs2 = mul(t(&abs2), t(&abs2))?;
    let turned = mul(
        t(x),
        Arg::Number(Scalar::Complex(num_complex::Complex64::new(0.0, 1.0))),
    )?;
    let grad = mul(t(g), t(&div(t(&turned), t(&abs2))?))?;
    select(&cmp(BinaryOp::Eq, t(x), n(0.0))?, n(0.0), t(&grad))
}

/// `nan_to_num` of a real float tensor.
fn nan_to_num_real(
    x: &Tensor,
    nan: f64,
    posinf: Option<f64>,
    neginf: Option<f64>,
) -> Result<Tensor> {
    let max = FInfo::of(x.dtype())?.max;
    let t = Arg::Tensor(x.clone());
    let out = where_(&classify(x, FloatClass::Nan)?, &num(nan), &t)?;
    let is_pos = binary_untracked(BinaryOp::Eq, &t, &num(f64::INFINITY))?;
    let out = where_(&is_pos, &num(posinf.unwrap_or(max)), &Arg::Tensor(out))?;
    let is_neg = binary_untracked(BinaryOp::Eq, &t, &num(f64::NEG_INFINITY))?;
    where_(&is_neg, &num(neginf.unwrap_or(-max)), &Arg::Tensor(out))
}

/// `x.nan_to_num(nan=0.0, posinf=None, neginf=None)`: integers and bools are copied;
/// complex numbers have each part replaced.
/// `nan_to_num`, laid out as PyTorch lays out its result: `empty_like(x)`'s layout.
fn nan_to_num(x: &Tensor, nan: f64, posinf: Option<f64>, neginf: Option<f64>) -> Result<Tensor> {
    crate::core::unbuilt_kernels::require_complex_half_kernel("nan_to_num", x.dtype())?;
    crate::core::result_layout::like_input(nan_to_num_in_row_order(x, nan, posinf, neginf)?, x)
}

fn nan_to_num_in_row_order(
    x: &Tensor,
    nan: f64,
    posinf: Option<f64>,
    neginf: Option<f64>,
) -> Result<Tensor> {
    let x = detached(x);
    if x.dtype().is_complex() {
        let c = crate::core::copy::contiguous_copy(&x)?;
        let parts = crate::core::views::dtype::view_as_real(&c)?;
        let fixed = nan_to_num_real(&parts, nan, posinf, neginf)?;
        let fixed = crate::core::copy::contiguous_copy(&fixed)?;
        return crate::core::copy::contiguous_copy(&crate::core::views::dtype::view_as_complex(
            &fixed,
        )?);
    }
    if !x.dtype().is_floating_point() {
        return crate::core::copy::clone_tensor(&x);
    }
    nan_to_num_real(&x, nan, posinf, neginf)
}

/// `x.logit(eps=None)`.
/// `logit`, laid out as PyTorch's elementwise kernels lay out their result.
fn logit(x: &Tensor, eps: Option<f64>) -> Result<Tensor> {
    crate::core::result_layout::in_inputs_order(logit_in_row_order(x, eps)?, &[x])
}

fn logit_in_row_order(x: &Tensor, eps: Option<f64>) -> Result<Tensor> {
    if x.dtype().is_complex() {
        return Err(crate::core::unbuilt_kernels::not_built(
            "logit_cpu",
            x.dtype(),
        ));
    }
    let x = detached(x);
    let result = if x.dtype().is_floating_point() {
        x.dtype()
    } else {
        crate::core::defaults::default_dtype()
    };
    // Every step rounds to the dtype, half precision included (as PyTorch's kernel).
    let work = cast_copy(&x, result)?;
    let z = match eps {
        Some(e) => crate::core::pointwise::clamp(&work, Some(num(e)), Some(num(1.0 - e)))?,
        None => work,
    };
    let one_minus = binary_untracked(BinaryOp::Sub, &num(1.0), &Arg::Tensor(z.clone()))?;
    let ratio = binary_untracked(BinaryOp::Div, &Arg::Tensor(z), &Arg::Tensor(one_minus))?;
    let out = unary(&ratio, Unary::Log)?;
    if out.dtype() == result {
        Ok(out)
    } else {
        cast_copy(&out, result)
    }
}

/// `x.angle()`: `atan2(imag, real)` of complex numbers; for reals `pi` where negative,
/// `0` elsewhere, NaN kept (integers give the default float dtype).
/// `angle`, laid out as PyTorch's elementwise kernels lay out their result (a complex
/// input's angle is row-major in PyTorch too).
fn angle(x: &Tensor) -> Result<Tensor> {
    let out = angle_in_row_order(x)?;
    if x.dtype().is_complex() {
        return Ok(out);
    }
    crate::core::result_layout::in_inputs_order(out, &[x])
}

fn angle_in_row_order(x: &Tensor) -> Result<Tensor> {
    crate::core::unbuilt_kernels::require_complex_half_kernel("angle_cpu", x.dtype())?;
    let x = detached(x);
    if x.dtype().is_complex() {
        let c = crate::core::copy::contiguous_copy(&x)?;
        let re = crate::core::views::dtype::real(&c)?;
        let im = crate::core::views::dtype::imag(&c)?;
        return binary_math(Binary::Atan2, &Arg::Tensor(im), &Arg::Tensor(re));
    }
    let result = if x.dtype().is_floating_point() {
        x.dtype()
    } else {
        crate::core::defaults::default_dtype()
    };
    let work = cast_copy(&x, result)?;
    let negative = binary_untracked(BinaryOp::Lt, &Arg::Tensor(work.clone()), &num(0.0))?;
    let zero = crate::core::creation::full(&work.sizes(), Scalar::Float(0.0), result)?;
    let out = where_(&negative, &num(std::f64::consts::PI), &Arg::Tensor(zero))?;
    where_(
        &classify(&work, FloatClass::Nan)?,
        &Arg::Tensor(work),
        &Arg::Tensor(out),
    )
}

/// `x.frexp()`: `(mantissa, exponent)` with `x = mantissa * 2**exponent`, the mantissa's
/// magnitude in `[0.5, 1)` (0 for 0), the exponent int32.
fn frexp(x: &Tensor) -> Result<(Tensor, Tensor)> {
    if !x.dtype().is_floating_point() {
        return Err(TorchError::runtime(
            "torch.frexp() only supports floating-point dtypes",
        ));
    }
    let dtype = x.dtype();
    let item = dtype.itemsize();
    let values = elements::image(x)?;
    let read = element::f64_reader(dtype);
    let write = element::f64_writer(dtype);
    let mut mantissa = values.clone();
    let mut exponent = crate::core::memory::alloc::zeroed_bytes(values.len() / item * 4)?;
    for ((v, m), e) in values
        .chunks_exact(item)
        .zip(mantissa.chunks_exact_mut(item))
        .zip(exponent.chunks_exact_mut(4))
    {
        let x = read(v);
        let (fraction, power) = if x.is_finite() {
            libm::frexp(x)
        } else {
            (x, 0)
        };
        write(m, fraction);
        e.copy_from_slice(&power.to_le_bytes());
    }
    let sizes = x.sizes();
    Ok((
        elements::from_image(mantissa, sizes.clone(), dtype),
        elements::from_image(exponent, sizes, DType::Int32),
    ))
}

/// An optional float argument.
fn opt_float(a: &Args, i: usize, name: &str) -> RhaiResult<Option<f64>> {
    match a.get(i, name) {
        Some(v) if !v.is_unit() => Ok(Some(to_scalar(v, name)?.to_f64())),
        _ => Ok(None),
    }
}

/// `nan_to_num`'s arguments.
fn replacements(a: &Args) -> RhaiResult<(f64, Option<f64>, Option<f64>)> {
    Ok((
        opt_float(a, 0, "nan")?.unwrap_or(0.0),
        opt_float(a, 1, "posinf")?,
        opt_float(a, 2, "neginf")?,
    ))
}

/// Registers the float-value ops.
pub fn register(r: &mut Registry) {
    r.method_and_function("nan_to_num", 3, |x, a| {
        let (nan, posinf, neginf) = replacements(&a)?;
        let out = nan_to_num(x, nan, posinf, neginf).rhai()?;
        recorded(out, x, "NanToNumBackward0", nan_to_num_grad, None)
    });
    r.method("nan_to_num_", 3, |x, a| {
        let (nan, posinf, neginf) = replacements(&a)?;
        let op = move |s: &Tensor| nan_to_num(s, nan, posinf, neginf);
        written(x, "NanToNumBackward0", op, nan_to_num_grad, None)
    });
    r.method_and_function("logit", 1, |x, a| {
        let eps = opt_float(&a, 0, "eps")?;
        let out = logit(x, eps).rhai()?;
        recorded(out, x, "LogitBackward0", logit_grad, eps)
    });
    r.method("logit_", 1, |x, a| {
        let eps = opt_float(&a, 0, "eps")?;
        written(x, "LogitBackward0", |s| logit(s, eps), logit_grad, eps)
    });
    r.method_and_function("angle", 0, |x, _| {
        let out = angle(x).rhai()?;
        recorded(out, x, "AngleBackward0", angle_grad, None)
    });
    r.method_and_function("frexp", 0, |x, _| {
        let (mantissa, exponent) = frexp(x).rhai()?;
        // `x = mantissa · 2^exponent`: the mantissa's gradient is `g / 2^exponent`.
        let scale = exponent.clone();
        tracked::single(&mantissa, "FrexpBackward0", x, move |g, _| {
            let power = crate::core::pointwise::pow(&num(2.0), &Arg::Tensor(scale.clone()))?;
            grad_ops::div(grad_ops::t(g), grad_ops::t(&power))
        });
        Ok(Dynamic::from(ReturnTuple {
            kind: "frexp",
            fields: vec![
                ("mantissa", Dynamic::from(mantissa)),
                ("exponent", Dynamic::from(exponent)),
            ],
        }))
    });
}
