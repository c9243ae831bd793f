//! `quantile`, `nanquantile` (`core::quantile`), and `cov`, `corrcoef`, composed of the
//! engine's ops as PyTorch defines them (weighted means, centred products through `mm`,
//! division by the normalisation, `corrcoef`'s division by the standard deviations and
//! clamp to `[-1, 1]`).

use rhai::Dynamic;

use crate::core::dtype::DType;
use crate::core::error::{Result, TorchError};
use crate::core::ops::{Arg, BinaryOp, binary_untracked as binary};
use crate::core::quantile::{Interpolation, quantile_with_sources};
use crate::core::reduce::{Reduction, reduce};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::detached;
use crate::core::views;
use crate::ops::args::Args;
use crate::ops::convert::to_scalar;
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::ops::registry::Registry;
use crate::ops::warnings::warn_once;

fn t(x: &Tensor) -> Arg {
    Arg::Tensor(x.clone())
}

/// A `quantile` or `nanquantile` call. Both check their arguments as PyTorch's `quantile`
/// does, in its order and words: a number `q` out of range first, then an empty input, a
/// `q` of more than one dim, the input's dtype, `q`'s dtype, then `q`'s values.
fn quantile_call(x: &Tensor, a: &Args, ignore_nan: bool) -> RhaiResult<Dynamic> {
    let refuse = |message: String| -> RhaiResult<Dynamic> {
        Err(to_rhai(TorchError::runtime(format!(
            "quantile() {message}"
        ))))
    };
    let name = if ignore_nan {
        "nanquantile"
    } else {
        "quantile"
    };
    let q = a.req(0, "q", name)?;
    let q_tensor = q.clone().try_cast::<Tensor>();
    let number = match &q_tensor {
        Some(_) => None,
        None => Some(to_scalar(q, "q")?.to_f64()),
    };
    if let Some(v) = number.filter(|v| !(0.0..=1.0).contains(v)) {
        return refuse(format!(
            "q must be in the range [0, 1] but got {}",
            crate::core::cpp_format::stream_double(v)
        ));
    }
    if x.numel() == 0 {
        return refuse("input tensor must be non-empty".into());
    }
    if q_tensor.as_ref().is_some_and(|qt| qt.ndim() > 1) {
        return refuse("q must be a scalar or 1D tensor".into());
    }
    if !matches!(x.dtype(), DType::Float32 | DType::Float64) {
        return refuse("input tensor must be either float or double dtype".into());
    }
    let (qs, vector) = match (q_tensor, number) {
        (Some(qt), _) => {
            if qt.dtype() != x.dtype() {
                return refuse("q tensor must be same dtype as the input tensor".into());
            }
            let values: Vec<f64> = crate::core::copy::to_scalars(&qt)
                .rhai()?
                .iter()
                .map(|s| s.to_f64())
                .collect();
            if values.iter().any(|v| !(0.0..=1.0).contains(v)) {
                return refuse("q values must be in the range [0, 1]".into());
            }
            (values, qt.ndim() == 1)
        }
        (None, number) => (vec![number.unwrap_or_default()], false),
    };
    let dim = a.opt_int(1, "dim")?;
    let keepdim = a.bool_or(2, "keepdim", false)?;
    let how = match a.kw("interpolation") {
        Some(v) => Interpolation::parse(&v.clone().into_string().unwrap_or_default()).rhai()?,
        None => Interpolation::Linear,
    };
    let wanted = x.requires_grad() && crate::core::tensor::grad_mode::is_enabled();
    let (out, found) = quantile_with_sources(
        &detached(x),
        &qs,
        vector,
        dim,
        keepdim,
        how,
        ignore_nan,
        wanted,
    )
    .rhai()?;
    if wanted {
        // PyTorch composes quantile of a sort, a gather, a lerp and a squeeze, which
        // names the node; the gradient goes back to the elements each value was read from.
        let sizes = x.sizes();
        crate::core::autograd::tracked::single(&out, "SqueezeBackward4", x, move |g, _| {
            crate::core::quantile::quantile_grad(g, &sizes, &found)
        });
    }
    Ok(Dynamic::from(out))
}

/// `cov`'s rows as a 2-d tensor (a 1-d input is one row).
fn as_rows(x: &Tensor) -> Result<Tensor> {
    if x.ndim() < 2 {
        views::reshape(x, &[1, -1])
    } else {
        Ok(x.clone())
    }
}

/// `cov`'s observation weights (`fweights * aweights`, either, or none) and its divisor
/// (the weight sum less `correction`, scaled as `aweights` ask), as a 0-d tensor.
fn weights_and_norm(
    observations: i64,
    correction: f64,
    fweights: Option<&Tensor>,
    aweights: Option<&Tensor>,
) -> Result<(Option<Tensor>, Tensor)> {
    let weights = match (fweights, aweights) {
        (Some(f), Some(w)) => Some(binary(BinaryOp::Mul, &t(f), &t(w))?),
        (Some(f), None) => Some(f.clone()),
        (None, Some(w)) => Some(w.clone()),
        (None, None) => None,
    };
    let weight_sum = match &weights {
        None => Arg::Number(Scalar::Int(observations)),
        Some(w) => Arg::Tensor(reduce(w, Reduction::Sum, None, false)?),
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
    Ok((weights, norm))
}

/// The rows of `float` centred on their (weighted) means.
fn centred_rows(float: &Tensor, weights: Option<&Tensor>) -> Result<Tensor> {
    let average = match weights {
        None => reduce(float, Reduction::Mean, Some(&[1]), true)?,
        Some(w) => {
            let sum = reduce(w, Reduction::Sum, None, false)?;
            let weighted = binary(BinaryOp::Mul, &t(float), &t(w))?;
            let total = reduce(&weighted, Reduction::Sum, Some(&[1]), true)?;
            binary(BinaryOp::Div, &t(&total), &t(&sum))?
        }
    };
    binary(BinaryOp::Sub, &t(float), &t(&average))
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
    let input = as_rows(x)?;
    let observations = input.sizes()[1];
    let (weights, norm) = weights_and_norm(observations, correction, fweights, aweights)?;
    let float = if input.dtype().is_floating_point() || input.dtype().is_complex() {
        input.clone()
    } else {
        crate::core::copy::cast_copy(&input, crate::core::defaults::default_dtype())?
    };
    let centred = centred_rows(&float, weights.as_ref())?;
    let right = match &weights {
        Some(w) => binary(BinaryOp::Mul, &t(&centred), &t(w))?,
        None => centred.clone(),
    };
    let right = crate::core::views::conj::conj(&views::transpose(&right, 0, 1)?);
    let product = crate::core::linalg::mm(&centred, &crate::core::copy::contiguous_copy(&right)?)?;
    let c = binary(BinaryOp::Div, &t(&product), &t(&norm))?;
    views::squeeze(&c, None)
}

/// The gradient of `cov(x)`: with `X` the rows centred on their (weighted) means and `W`
/// the weights, `C = X W Xᴴ / n`, so `X` gets `(G + Gᴴ) X W / n`, and `x` that less each
/// row's weighted mean of it (the centring's share).
fn cov_grad(
    g: &Tensor,
    x: &Tensor,
    correction: f64,
    fweights: Option<&Tensor>,
    aweights: Option<&Tensor>,
) -> Result<Tensor> {
    let input = as_rows(x)?;
    let (vars, observations) = (input.sizes()[0], input.sizes()[1]);
    let (weights, norm) = weights_and_norm(observations, correction, fweights, aweights)?;
    let float = crate::core::copy::cast_copy(&input, g.dtype())?;
    let centred = centred_rows(&float, weights.as_ref())?;
    let gm = views::reshape(&crate::core::copy::contiguous_copy(g)?, &[vars, vars])?;
    let adjoint = crate::core::views::conj::conj(&views::transpose(&gm, 0, 1)?);
    let both = binary(BinaryOp::Add, &t(&gm), &t(&adjoint))?;
    let weighted = match &weights {
        Some(w) => binary(BinaryOp::Mul, &t(&centred), &t(w))?,
        None => centred,
    };
    let d_centred = crate::core::linalg::mm(
        &crate::core::copy::contiguous_copy(&both)?,
        &crate::core::copy::contiguous_copy(&weighted)?,
    )?;
    let d_centred = binary(BinaryOp::Div, &t(&d_centred), &t(&norm))?;
    let d_centred = crate::core::copy::cast_copy(&d_centred, g.dtype())?;
    let share = match &weights {
        None => reduce(&d_centred, Reduction::Mean, Some(&[1]), true)?,
        Some(w) => {
            let sum = reduce(w, Reduction::Sum, None, false)?;
            let total = reduce(&d_centred, Reduction::Sum, Some(&[1]), true)?;
            let per = binary(BinaryOp::Div, &t(w), &t(&sum))?;
            binary(BinaryOp::Mul, &t(&total), &t(&per))?
        }
    };
    let dx = binary(BinaryOp::Sub, &t(&d_centred), &t(&share))?;
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
    // Clamped to [-1, 1]: a complex result's real and imaginary parts each.
    let one = |v: f64| Some(Arg::Number(Scalar::Float(v)));
    if both.dtype().is_complex() {
        let parts = crate::core::views::dtype::view_as_real(&both)?;
        let clamped = crate::core::pointwise::clamp(&parts, one(-1.0), one(1.0))?;
        return crate::core::views::dtype::view_as_complex(&clamped);
    }
    crate::core::pointwise::clamp(&both, one(-1.0), one(1.0))
}

/// An optional tensor keyword.
fn tensor_kw(a: &Args, name: &str) -> RhaiResult<Option<Tensor>> {
    Ok(match a.kw(name) {
        Some(v) => Some(v.clone().try_cast::<Tensor>().ok_or_else(|| {
            to_rhai(TorchError::type_error(format!(
                "cov(): argument '{name}' must be Tensor, not {}",
                crate::ops::convert::py_type_name(v)
            )))
        })?),
        None => None,
    })
}

/// The real part of `v` (itself when real).
fn real_part(v: &Tensor) -> Result<Tensor> {
    if v.dtype().is_complex() {
        crate::core::views::dtype::real(&crate::core::copy::contiguous_copy(v)?)
    } else {
        Ok(v.clone())
    }
}

/// The gradient of `corrcoef(x)` from its output's gradient `g`, back through the steps
/// the forward takes: the clamp (passing where `-1 <= r <= 1`; a complex result's parts
/// each), the two divisions by the standard deviations (real: their gradients are the real
/// parts of PyTorch's conjugated quotient rule), their square roots of the real part of
/// `cov`'s diagonal, and `cov` itself. A 1-d `x` gives `c / c`, whose gradient is
/// `g / c - g c / c²`.
fn corrcoef_grad(g: &Tensor, x: &Tensor) -> Result<Tensor> {
    use crate::core::views::conj::conj;
    let c = cov(x, 1.0, None, None)?;
    let c = crate::core::copy::cast_copy(&c, g.dtype())?;
    if c.ndim() == 0 {
        let direct = binary(BinaryOp::Div, &t(g), &t(&c))?;
        let squared = binary(BinaryOp::Mul, &t(&c), &t(&c))?;
        let through = binary(BinaryOp::Mul, &t(g), &t(&c))?;
        let through = binary(BinaryOp::Div, &t(&through), &t(&squared))?;
        let gc = binary(BinaryOp::Sub, &t(&direct), &t(&through))?;
        return cov_grad(&gc, x, 1.0, None, None);
    }
    let n = c.sizes()[0];
    let d = crate::core::copy::contiguous_copy(&views::diagonal(&c, 0, 0, 1)?)?;
    let std = crate::core::unary::unary(&real_part(&d)?, crate::core::unary::Unary::Sqrt)?;
    let rows = views::unsqueeze(&std, 1)?;
    let columns = views::unsqueeze(&std, 0)?;
    let by_rows = binary(BinaryOp::Div, &t(&c), &t(&rows))?;
    let both = binary(BinaryOp::Div, &t(&by_rows), &t(&columns))?;
    // The clamp passes the gradient where its input lay in [-1, 1] (each part apart).
    let g = crate::core::copy::contiguous_copy(g)?;
    let g = if both.dtype().is_complex() {
        let parts = crate::core::views::dtype::view_as_real(&both)?;
        let kept = inside_unit(&parts)?;
        let g_parts = crate::core::views::dtype::view_as_real(&g)?;
        let zero = Arg::Number(Scalar::Float(0.0));
        let masked = crate::core::pointwise::where_(&kept, &t(&g_parts), &zero)?;
        crate::core::views::dtype::view_as_complex(&crate::core::copy::contiguous_copy(&masked)?)?
    } else {
        let zero = Arg::Number(Scalar::Float(0.0));
        crate::core::pointwise::where_(&inside_unit(&both)?, &t(&g), &zero)?
    };
    // both = by_rows / columns.
    let g_by_rows = binary(BinaryOp::Div, &t(&g), &t(&columns))?;
    let column_share = binary(BinaryOp::Mul, &t(&g), &t(&conj(&both)))?;
    let column_share = binary(BinaryOp::Div, &t(&column_share), &t(&columns))?;
    let d_columns = reduce(
        &real_part(&column_share)?,
        Reduction::Sum,
        Some(&[0]),
        false,
    )?;
    // by_rows = c / rows.
    let mut g_c = binary(BinaryOp::Div, &t(&g_by_rows), &t(&rows))?;
    let row_share = binary(BinaryOp::Mul, &t(&g_by_rows), &t(&conj(&by_rows)))?;
    let row_share = binary(BinaryOp::Div, &t(&row_share), &t(&rows))?;
    let d_rows = reduce(&real_part(&row_share)?, Reduction::Sum, Some(&[1]), false)?;
    let d_std = binary(BinaryOp::Add, &t(&d_rows), &t(&d_columns))?;
    let d_std = binary(BinaryOp::Mul, &t(&d_std), &Arg::Number(Scalar::Float(-1.0)))?;
    // std = sqrt(real(d)): d gets d_std / (2 std) (a real gradient), on the diagonal.
    let twice = binary(BinaryOp::Mul, &t(&std), &Arg::Number(Scalar::Float(2.0)))?;
    let d_diag = binary(BinaryOp::Div, &t(&d_std), &t(&twice))?;
    let eye = crate::core::creation::eye(n, n, d_diag.dtype())?;
    let on_diagonal = binary(BinaryOp::Mul, &t(&eye), &t(&views::unsqueeze(&d_diag, 0)?))?;
    g_c = binary(BinaryOp::Add, &t(&g_c), &t(&on_diagonal))?;
    cov_grad(&g_c, x, 1.0, None, None)
}

/// Where `v` lies in `[-1, 1]`.
fn inside_unit(v: &Tensor) -> Result<Tensor> {
    let low = binary(BinaryOp::Ge, &t(v), &Arg::Number(Scalar::Float(-1.0)))?;
    let high = binary(BinaryOp::Le, &t(v), &Arg::Number(Scalar::Float(1.0)))?;
    crate::core::pointwise::where_(&low, &t(&high), &Arg::Number(Scalar::Bool(false)))
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
            let (f, w) = (f.map(|f| detached(&f)), w.map(|w| detached(&w)));
            crate::core::autograd::tracked::single(&out, "SqueezeBackward0", x, move |g, x| {
                cov_grad(g, x, correction, f.as_ref(), w.as_ref())
            });
        }
        Ok(Dynamic::from(out))
    });
    r.method_and_function("corrcoef", 0, |x, _| {
        let out = corrcoef(&detached(x)).rhai()?;
        if x.requires_grad() {
            // PyTorch clamps a complex result's real and imaginary parts apart and joins
            // them (`ComplexBackward0`).
            let node = match (out.ndim(), x.dtype().is_complex()) {
                (0, _) => "DivBackward0",
                (_, true) => "ComplexBackward0",
                _ => "ClampBackward1",
            };
            crate::core::autograd::tracked::single(&out, node, x, corrcoef_grad);
        }
        Ok(Dynamic::from(out))
    });
}
