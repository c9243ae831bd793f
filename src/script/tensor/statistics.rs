//! `quantile`, `nanquantile` (`core::quantile`), and `cov`, `corrcoef`, composed of the
//! engine's ops as PyTorch defines them (weighted means, centred products through `mm`,
//! division by the normalisation, `corrcoef`'s division by the standard deviations and
//! clamp to `[-1, 1]`).

use rhai::Dynamic;

use crate::core::dtype::DType;
use crate::core::error::{Result, TorchError};
use crate::core::ops::{Arg, BinaryOp, binary_untracked as binary};
use crate::core::quantile::{Interpolation, quantile};
use crate::core::reduce::{Reduction, reduce};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::detached;
use crate::core::tensor::record::record_without_formula;
use crate::core::views;
use crate::script::args::Args;
use crate::script::convert::to_scalar;
use crate::script::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::script::registry::Registry;
use crate::script::warnings::warn_once;

fn t(x: &Tensor) -> Arg {
    Arg::Tensor(x.clone())
}

/// A `quantile` or `nanquantile` call.
fn quantile_call(x: &Tensor, a: &Args, ignore_nan: bool) -> RhaiResult<Dynamic> {
    let name = if ignore_nan {
        "nanquantile"
    } else {
        "quantile"
    };
    let q = a.req(0, "q", name)?;
    let (qs, vector) = match q.clone().try_cast::<Tensor>() {
        Some(qt) => {
            if qt.ndim() > 1 {
                return Err(to_rhai(TorchError::runtime(format!(
                    "{name}() q must be a scalar or 1D tensor"
                ))));
            }
            if qt.dtype() != x.dtype() && matches!(x.dtype(), DType::Float32 | DType::Float64) {
                return Err(to_rhai(TorchError::runtime(format!(
                    "{name}() q tensor must be same dtype as the input tensor"
                ))));
            }
            let values = crate::core::copy::to_scalars(&qt).rhai()?;
            (values.iter().map(|s| s.to_f64()).collect(), qt.ndim() == 1)
        }
        None => (vec![to_scalar(q, "q")?.to_f64()], false),
    };
    let dim = a.opt_int(1, "dim")?;
    let keepdim = a.bool_or(2, "keepdim", false)?;
    let how = match a.kw("interpolation") {
        Some(v) => Interpolation::parse(&v.clone().into_string().unwrap_or_default()).rhai()?,
        None => Interpolation::Linear,
    };
    let out = quantile(&detached(x), &qs, vector, dim, keepdim, how, ignore_nan).rhai()?;
    if x.requires_grad() {
        let node = if ignore_nan {
            "NanquantileBackward0"
        } else {
            "QuantileBackward0"
        };
        record_without_formula(&out, node, name, &[x]);
    }
    Ok(Dynamic::from(out))
}

/// `torch.cov(input, correction=1, fweights=None, aweights=None)` of the rows of a 2-d
/// `input` (variables × observations) or of a 1-d one.
fn cov(
    x: &Tensor,
    correction: f64,
    fweights: Option<&Tensor>,
    aweights: Option<&Tensor>,
) -> Result<Tensor> {
    if x.ndim() > 2 {
        return Err(TorchError::runtime(format!(
            "cov(): expected input to have two or fewer dimensions but got an input with {} dimensions",
            x.ndim()
        )));
    }
    let input = if x.ndim() < 2 {
        views::reshape(x, &[1, -1])?
    } else {
        x.clone()
    };
    let observations = input.sizes()[1];
    let weights = match (fweights, aweights) {
        (Some(f), Some(w)) => Some(binary(BinaryOp::Mul, &t(f), &t(w))?),
        (Some(f), None) => Some(f.clone()),
        (None, Some(w)) => Some(w.clone()),
        (None, None) => None,
    };
    let float = if input.dtype().is_floating_point() || input.dtype().is_complex() {
        input.clone()
    } else {
        crate::core::copy::cast_copy(&input, crate::core::defaults::default_dtype())?
    };
    let (average, weight_sum) = match &weights {
        None => (
            reduce(&float, Reduction::Mean, Some(&[1]), false)?,
            Arg::Number(Scalar::Int(observations)),
        ),
        Some(w) => {
            let sum = reduce(w, Reduction::Sum, None, false)?;
            let weighted = binary(BinaryOp::Mul, &t(&float), &t(w))?;
            let total = reduce(&weighted, Reduction::Sum, Some(&[1]), false)?;
            (
                binary(BinaryOp::Div, &t(&total), &t(&sum))?,
                Arg::Tensor(sum),
            )
        }
    };
    let norm = match (&weights, aweights) {
        (None, _) => binary(
            BinaryOp::Sub,
            &weight_sum,
            &Arg::Number(Scalar::Float(correction)),
        )?,
        _ if correction == 0.0 => match &weight_sum {
            Arg::Tensor(s) => s.clone(),
            Arg::Number(n) => crate::core::creation::full(&[], *n, DType::Int64)?,
        },
        (Some(_), None) => binary(
            BinaryOp::Sub,
            &weight_sum,
            &Arg::Number(Scalar::Float(correction)),
        )?,
        (Some(w), Some(aw)) => {
            let product = binary(BinaryOp::Mul, &t(w), &t(aw))?;
            let ratio = binary(
                BinaryOp::Div,
                &t(&reduce(&product, Reduction::Sum, None, false)?),
                &weight_sum,
            )?;
            let scaled = binary(
                BinaryOp::Mul,
                &t(&ratio),
                &Arg::Number(Scalar::Float(correction)),
            )?;
            binary(BinaryOp::Sub, &weight_sum, &t(&scaled))?
        }
    };
    let norm_value = crate::core::copy::to_scalars(&norm)?[0].to_f64();
    let norm = if norm_value <= 0.0 {
        warn_once(
            "cov_degrees_of_freedom",
            "cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of observations.",
        );
        crate::core::creation::full(&[], Scalar::Int(0), norm.dtype())?
    } else {
        norm
    };
    let centred = binary(
        BinaryOp::Sub,
        &t(&float),
        &t(&views::unsqueeze(&average, 1)?),
    )?;
    let right = match &weights {
        Some(w) => binary(BinaryOp::Mul, &t(&centred), &t(w))?,
        None => centred.clone(),
    };
    let right = crate::core::views::conj::conj(&views::transpose(&right, 0, 1)?);
    let product = crate::core::linalg::mm(&centred, &crate::core::copy::contiguous_copy(&right)?)?;
    let c = binary(BinaryOp::Div, &t(&product), &t(&norm))?;
    views::squeeze(&c, None)
}

/// The gradient of a real, unweighted `cov(x)`: with `X` the rows centred on their means,
/// `C = X Xᵀ / (N - correction)`, so `X` gets `(G + Gᵀ) X / (N - correction)`, and `x`
/// that less each row's mean.
fn cov_grad(g: &Tensor, x: &Tensor, correction: f64) -> Result<Tensor> {
    let input = if x.ndim() < 2 {
        views::reshape(x, &[1, -1])?
    } else {
        x.clone()
    };
    let (vars, observations) = (input.sizes()[0], input.sizes()[1]);
    let float = crate::core::copy::cast_copy(&input, g.dtype())?;
    let average = reduce(&float, Reduction::Mean, Some(&[1]), true)?;
    let centred = binary(BinaryOp::Sub, &t(&float), &t(&average))?;
    let gm = views::reshape(&crate::core::copy::contiguous_copy(g)?, &[vars, vars])?;
    let both = binary(BinaryOp::Add, &t(&gm), &t(&views::transpose(&gm, 0, 1)?))?;
    let d_centred = crate::core::linalg::mm(&both, &centred)?;
    let dof = (observations as f64 - correction).max(0.0);
    let d_centred = binary(
        BinaryOp::Div,
        &t(&d_centred),
        &Arg::Number(Scalar::Float(dof)),
    )?;
    let row_means = reduce(&d_centred, Reduction::Mean, Some(&[1]), true)?;
    let dx = binary(BinaryOp::Sub, &t(&d_centred), &t(&row_means))?;
    views::reshape(&crate::core::copy::contiguous_copy(&dx)?, &x.sizes())
}

/// `torch.corrcoef(input)`: `cov` divided by the products of the standard deviations,
/// clamped to `[-1, 1]` (real parts for complex inputs).
fn corrcoef(x: &Tensor) -> Result<Tensor> {
    let c = cov(x, 1.0, None, None)?;
    if c.ndim() == 0 {
        return binary(BinaryOp::Div, &t(&c), &t(&c));
    }
    let d = views::diagonal(&c, 0, 0, 1)?;
    let real = if d.dtype().is_complex() {
        crate::core::views::dtype::real(&crate::core::copy::contiguous_copy(&d)?)?
    } else {
        d
    };
    let std = crate::core::unary::unary(&real, crate::core::unary::Unary::Sqrt)?;
    let by_rows = binary(BinaryOp::Div, &t(&c), &t(&views::unsqueeze(&std, 1)?))?;
    let both = binary(BinaryOp::Div, &t(&by_rows), &t(&views::unsqueeze(&std, 0)?))?;
    if both.dtype().is_complex() {
        return Ok(both);
    }
    let one = |v: f64| Some(Arg::Number(Scalar::Float(v)));
    crate::core::pointwise::clamp(&both, one(-1.0), one(1.0))
}

/// An optional tensor keyword.
fn tensor_kw(a: &Args, name: &str) -> RhaiResult<Option<Tensor>> {
    Ok(match a.kw(name) {
        Some(v) => Some(v.clone().try_cast::<Tensor>().ok_or_else(|| {
            to_rhai(TorchError::type_error(format!(
                "cov(): argument '{name}' must be Tensor, not {}",
                crate::script::convert::py_type_name(v)
            )))
        })?),
        None => None,
    })
}

/// Registers the statistics.
pub fn register(r: &mut Registry) {
    r.method_and_function("quantile", 2, |x, a| quantile_call(x, &a, false));
    r.method_and_function("nanquantile", 2, |x, a| quantile_call(x, &a, true));
    r.method_and_function("cov", 0, |x, a| {
        let correction = match a.kw("correction") {
            Some(v) => to_scalar(v, "correction")?.to_f64(),
            None => 1.0,
        };
        let (f, w) = (tensor_kw(&a, "fweights")?, tensor_kw(&a, "aweights")?);
        let out = cov(&detached(x), correction, f.as_ref(), w.as_ref()).rhai()?;
        if x.requires_grad() {
            if x.dtype().is_complex() || f.is_some() || w.is_some() {
                record_without_formula(&out, "SqueezeBackward0", "cov", &[x]);
            } else {
                crate::core::autograd::tracked::single(&out, "SqueezeBackward0", x, move |g, x| {
                    cov_grad(g, x, correction)
                });
            }
        }
        Ok(Dynamic::from(out))
    });
    r.method_and_function("corrcoef", 0, |x, _| {
        let out = corrcoef(&detached(x)).rhai()?;
        if x.requires_grad() {
            record_without_formula(&out, "ClampBackward1", "corrcoef", &[x]);
        }
        Ok(Dynamic::from(out))
    });
}
