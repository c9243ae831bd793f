//! `norm` and `dist` (vector norms, `core::norms`), and `std_mean` / `var_mean`, with
//! their gradients under PyTorch's node names (`LinalgVectorNormBackward0`,
//! `DistBackward0`).

use rhai::Dynamic;

use crate::core::autograd::{cast_grad, sum_to};
use crate::core::autograd::{reduction_grads, tracked};
use crate::core::error::{Result, TorchError};
use crate::core::norms::vector_norm;
use crate::core::ops::{Arg, BinaryOp, binary_untracked as binary};
use crate::core::pointwise::where_;
use crate::core::reduce::{Reduction, reduce, reduced_dims, variance};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::detached;
use crate::core::tensor::record::record_formula;
use crate::core::unary::{Unary, unary};
use crate::ops::args::Args;
use crate::ops::convert::{to_float, to_scalar};
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::ops::registry::Registry;

fn num(v: f64) -> Arg {
    Arg::Number(Scalar::Float(v))
}

fn t(x: &Tensor) -> Arg {
    Arg::Tensor(x.clone())
}

/// `r` (reduced over `reduced` without keepdim) with the reduced dims back as size 1.
fn unsqueezed(r: &Tensor, reduced: &[usize], keepdim: bool) -> Result<Tensor> {
    if keepdim {
        return Ok(r.clone());
    }
    let mut out = r.clone();
    for &d in reduced {
        out = crate::core::views::unsqueeze(&out, d as i64)?;
    }
    Ok(out)
}

/// The gradient of `y = vector_norm(x, p, dims, keepdim)` for the output gradient `g`
/// (`None` for order 0, as PyTorch: the count has no gradient).
fn norm_grad(
    x: &Tensor,
    y: &Tensor,
    g: &Tensor,
    p: f64,
    dims: Option<&[i64]>,
    keepdim: bool,
) -> Result<Option<Tensor>> {
    if p == 0.0 {
        return Ok(None);
    }
    let reduced = if x.ndim() == 0 {
        Vec::new()
    } else {
        reduced_dims(x.ndim(), dims)?
    };
    let g = unsqueezed(g, &reduced, keepdim)?;
    let y = unsqueezed(y, &reduced, keepdim)?;
    // PyTorch's rule for each range of orders (a NaN norm stays NaN in the gradient; only
    // a zero norm gives zero).
    let zero_norm = || binary(BinaryOp::Eq, &t(&y), &num(0.0));
    let sgn = || unary(x, Unary::Sgn);
    let grad = if p == 1.0 {
        binary(BinaryOp::Mul, &t(&g), &t(&sgn()?))?
    } else if p == 2.0 {
        let quotient = binary(BinaryOp::Div, &t(x), &t(&y))?;
        let quotient = where_(&zero_norm()?, &num(0.0), &t(&quotient))?;
        binary(BinaryOp::Mul, &t(&g), &t(&quotient))?
    } else if p.is_infinite() {
        let magnitude = unary(x, Unary::Abs)?;
        // The elements the norm is (`|x| == y`), or NaN ones (a NaN norm is theirs).
        let at_extreme = binary(BinaryOp::Eq, &t(&magnitude), &t(&y))?;
        let not_a_number = binary(BinaryOp::Ne, &t(&magnitude), &t(&magnitude))?;
        let at_extreme = where_(&not_a_number, &num(1.0), &t(&at_extreme))?;
        let mask = crate::core::copy::cast_copy(&at_extreme, magnitude.dtype())?;
        let dims: Vec<i64> = reduced.iter().map(|&d| d as i64).collect();
        let count = reduce(&mask, Reduction::Sum, Some(&dims), true)?;
        let share = binary(BinaryOp::Div, &t(&g), &t(&count))?;
        let share = binary(BinaryOp::Mul, &t(&share), &t(&mask))?;
        binary(BinaryOp::Mul, &t(&sgn()?), &t(&share))?
    } else {
        let magnitude = unary(x, Unary::Abs)?;
        if p < 1.0 {
            // sgn(x) |x|^(p-1) (zero at zero elements) g y^(1-p).
            let power = crate::core::pointwise::pow(&t(&magnitude), &num(p - 1.0))?;
            let zero_element = binary(BinaryOp::Eq, &t(x), &num(0.0))?;
            let power = where_(&zero_element, &num(0.0), &t(&power))?;
            let scaled = binary(BinaryOp::Mul, &t(&sgn()?), &t(&power))?;
            let scaled = binary(BinaryOp::Mul, &t(&scaled), &t(&g))?;
            let norm_power = crate::core::pointwise::pow(&t(&y), &num(1.0 - p))?;
            binary(BinaryOp::Mul, &t(&scaled), &t(&norm_power))?
        } else {
            // x |x|^(p-2) (zero at zero elements below order 2, where the power is
            // infinite), times g / y^(p-1) (zero where the norm is zero).
            let power = crate::core::pointwise::pow(&t(&magnitude), &num(p - 2.0))?;
            let scaled = binary(BinaryOp::Mul, &t(x), &t(&power))?;
            let scaled = if p < 2.0 {
                let zero_element = binary(BinaryOp::Eq, &t(x), &num(0.0))?;
                where_(&zero_element, &num(0.0), &t(&scaled))?
            } else {
                scaled
            };
            let norm_power = crate::core::pointwise::pow(&t(&y), &num(p - 1.0))?;
            let scale = binary(BinaryOp::Div, &t(&g), &t(&norm_power))?;
            let scale = where_(&zero_norm()?, &num(0.0), &t(&scale))?;
            binary(BinaryOp::Mul, &t(&scaled), &t(&scale))?
        }
    };
    Ok(Some(cast_grad(&grad, x.dtype())?))
}

/// `norm`'s order: a number, `'fro'` (2 over at most two dims), or a refusal.
fn order(p: Option<&Dynamic>) -> RhaiResult<f64> {
    let Some(p) = p.filter(|v| !v.is_unit()) else {
        return Ok(2.0);
    };
    if let Ok(text) = p.clone().into_string() {
        return match text.as_str() {
            "fro" => Ok(2.0),
            "nuc" => Err(to_rhai(TorchError::not_implemented(
                "tensh does not implement the nuclear norm: it needs a singular value decomposition (torch.linalg's decompositions are outside tensh's model)",
            ))),
            other => Err(to_rhai(TorchError::runtime(format!(
                "linalg.matrix_norm: Order {other} not supported."
            )))),
        };
    }
    to_float(p, "p")
}

/// A `dim` argument at position `i`: `None`, an int, or a list of ints.
fn dims_at(a: &Args, i: usize) -> RhaiResult<Option<Vec<i64>>> {
    match a.get(i, "dim") {
        None => Ok(None),
        Some(v) if v.is_unit() => Ok(None),
        Some(v) => {
            if let Ok(d) = v.as_int() {
                return Ok(Some(vec![d]));
            }
            crate::ops::convert::to_int_list(v, "dim").map(Some)
        }
    }
}

/// Runs `vector_norm` and records it with its formula under `node` (inputs: `inputs`,
/// whose gradients `grads` maps from the gradient of `x`).
fn recorded_norm(x: &Tensor, p: f64, dims: Option<Vec<i64>>, keepdim: bool) -> RhaiResult<Tensor> {
    let input = detached(x);
    let out = vector_norm(&input, p, dims.as_deref(), keepdim).rhai()?;
    if x.requires_grad() {
        let y = detached(&out);
        record_formula(&out, "LinalgVectorNormBackward0", &[x], &[x], move |g| {
            Ok(vec![norm_grad(&input, &y, g, p, dims.as_deref(), keepdim)?])
        });
    }
    Ok(out)
}

/// `x.norm(p='fro', dim=None, keepdim=False, dtype=None)`.
fn norm(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let p = order(a.get(0, "p"))?;
    let dims = dims_at(a, 1)?;
    let keepdim = a.bool_or(2, "keepdim", false)?;
    let x = match a.dtype()? {
        Some(d) if d != x.dtype() => crate::core::copy::cast_copy(x, d).rhai()?,
        _ => x.clone(),
    };
    Ok(Dynamic::from(recorded_norm(&x, p, dims, keepdim)?))
}

/// `torch.norm`'s refusal of a dtype that is neither floating nor complex (`dist`,
/// `frobenius_norm`).
fn require_norm_dtype(dtype: crate::core::dtype::DType) -> RhaiResult<()> {
    if dtype.is_floating_point() || dtype.is_complex() {
        return Ok(());
    }
    Err(to_rhai(TorchError::not_implemented(format!(
        "norm(): input dtype should be either floating point or complex. Got {} instead.",
        dtype.cpp_name()
    ))))
}

/// `x.dist(other, p=2)`: the norm of `x - other` (broadcast, promoted).
fn dist(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let other = a.tensor(0, "other", "dist")?;
    let p = match a.get(1, "p") {
        Some(v) if !v.is_unit() => to_scalar(v, "p")?.to_f64(),
        _ => 2.0,
    };
    let (xd, od) = (detached(x), detached(&other));
    let diff = binary(BinaryOp::Sub, &t(&xd), &t(&od)).rhai()?;
    require_norm_dtype(diff.dtype())?;
    let out = vector_norm(&diff, p, None, false).rhai()?;
    if x.requires_grad() || other.requires_grad() {
        let y = detached(&out);
        record_formula(
            &out,
            "DistBackward0",
            &[x, &other],
            &[x, &other],
            move |g| {
                let grad = norm_grad(&diff, &y, g, p, None, false)?;
                difference_grads(grad, &xd, &od)
            },
        );
    }
    Ok(Dynamic::from(out))
}

/// The gradients of `x` and `other` for a norm of `x - other` (`dist`,
/// `pairwise_distance`) from the difference's gradient: it, and its negation, each summed
/// to its operand's sizes and cast to its dtype.
fn difference_grads(
    grad: Option<Tensor>,
    x: &Tensor,
    other: &Tensor,
) -> Result<Vec<Option<Tensor>>> {
    let Some(grad) = grad else {
        return Ok(vec![None, None]);
    };
    let gx = cast_grad(&sum_to(&grad, &x.sizes())?, x.dtype())?;
    let negated = binary(BinaryOp::Mul, &t(&grad), &num(-1.0))?;
    let go = cast_grad(&sum_to(&negated, &other.sizes())?, other.dtype())?;
    Ok(vec![Some(gx), Some(go)])
}

/// `torch.std_mean` / `torch.var_mean`: `(std or var, mean)` over the same dims.
fn spread_and_mean(x: &Tensor, a: &Args, std: bool) -> RhaiResult<Dynamic> {
    let name = if std { "std_mean" } else { "var_mean" };
    let dtype = x.dtype();
    if !(dtype.is_floating_point() || dtype.is_complex()) {
        return Err(to_rhai(TorchError::not_implemented(format!(
            "{name} only support floating point and complex dtypes"
        ))));
    }
    // `(input, unbiased)` is PyTorch's third form; otherwise `dim`, `unbiased`, `keepdim`.
    let (dims, unbiased, keepdim) = match a.pos.first() {
        Some(v) if v.is_bool() => (None, v.as_bool().ok(), false),
        _ => (
            dims_at(a, 0)?,
            a.get(1, "unbiased")
                .map(|_| a.bool_or(1, "unbiased", true))
                .transpose()?,
            a.bool_or(2, "keepdim", false)?,
        ),
    };
    let correction = match (a.kw("correction"), unbiased) {
        (Some(c), _) if !c.is_unit() => to_float(c, "correction")?,
        (_, Some(false)) => 0.0,
        _ => 1.0,
    };
    let input = detached(x);
    let spread = variance(&input, dims.as_deref(), correction, keepdim, std).rhai()?;
    let mean = reduce(&input, Reduction::Mean, dims.as_deref(), keepdim).rhai()?;
    if x.requires_grad() {
        let node = if std {
            "StdMeanBackward0"
        } else {
            "VarMeanBackward0"
        };
        // One node per result (PyTorch has one node with two outputs; the gradients
        // reaching `x` are the same).
        let reduced = crate::core::reduce::reduced_dims(x.ndim(), dims.as_deref()).rhai()?;
        let kept = reduced.clone();
        reduction_grads::record_spread(&spread, node, x, kept, correction, keepdim, std);
        tracked::single(&mean, node, x, move |g, x| {
            reduction_grads::mean_grad(g, x, &reduced, keepdim)
        });
    }
    Ok(Dynamic::from(vec![
        Dynamic::from(spread),
        Dynamic::from(mean),
    ]))
}

/// `x.renorm(p, dim, maxnorm)`: each slice along `dim` whose `p`-norm (over the other
/// dims) exceeds `maxnorm` multiplied by `maxnorm / (norm + 1e-7)`.
fn renorm(x: &Tensor, p: f64, dim: i64, maxnorm: f64) -> Result<Tensor> {
    if p <= 0.0 {
        return Err(TorchError::runtime(
            "renorm: non-positive-norm not supported",
        ));
    }
    if maxnorm < 0.0 {
        return Err(TorchError::runtime(format!(
            "renorm: expected maxnorm to be >= 0 but got {}",
            crate::core::cpp_format::stream_double(maxnorm)
        )));
    }
    if x.ndim() < 2 {
        return Err(TorchError::runtime(format!(
            "renorm: input needs at least 2 dimensions, got {} dimensions",
            x.ndim()
        )));
    }
    let scale = RenormScale::of(x, p, dim, maxnorm)?;
    let factor = crate::core::copy::cast_copy(&scale.factor, x.dtype())?;
    binary(BinaryOp::Mul, &t(x), &t(&factor))
}

/// What `renorm` computes per slice along `dim`: the dims summed over, each slice's norm,
/// whether it exceeds `maxnorm`, the norm plus `1e-7`, and the factor applied.
struct RenormScale {
    others: Vec<i64>,
    norms: Tensor,
    over: Tensor,
    shifted: Tensor,
    factor: Tensor,
}

impl RenormScale {
    fn of(x: &Tensor, p: f64, dim: i64, maxnorm: f64) -> Result<RenormScale> {
        let d = crate::core::error::wrap_dim(dim, x.ndim())?;
        let others: Vec<i64> = (0..x.ndim())
            .filter(|&k| k != d)
            .map(|k| k as i64)
            .collect();
        let norms = vector_norm(x, p, Some(&others), true)?;
        let over = binary(BinaryOp::Gt, &t(&norms), &num(maxnorm))?;
        let shifted = binary(BinaryOp::Add, &t(&norms), &num(1e-7))?;
        let scaled = binary(BinaryOp::Div, &num(maxnorm), &t(&shifted))?;
        let factor = where_(&over, &t(&scaled), &num(1.0))?;
        Ok(RenormScale {
            others,
            norms,
            over,
            shifted,
            factor,
        })
    }
}

/// The gradient of `renorm(x, p, dim, maxnorm)`: a slice left alone passes `g` through; a
/// scaled one (`x · maxnorm / (n + 1e-7)`, `n` its norm) gets `g` times the factor, less
/// `maxnorm / (n + 1e-7)²` times the slice's `sum(g · x)` times the norm's own gradient.
fn renorm_grad(x: &Tensor, g: &Tensor, p: f64, dim: i64, maxnorm: f64) -> Result<Tensor> {
    let RenormScale {
        others,
        norms,
        over,
        shifted,
        factor,
    } = RenormScale::of(x, p, dim, maxnorm)?;
    let direct = binary(BinaryOp::Mul, &t(g), &t(&factor))?;
    let along = binary(BinaryOp::Mul, &t(g), &t(x))?;
    let along = reduce(&along, Reduction::Sum, Some(&others), true)?;
    let squared = binary(BinaryOp::Mul, &t(&shifted), &t(&shifted))?;
    let slope = binary(BinaryOp::Div, &num(-maxnorm), &t(&squared))?;
    let slope = where_(&over, &t(&slope), &num(0.0))?;
    let outer = binary(BinaryOp::Mul, &t(&slope), &t(&along))?;
    let through_norm = norm_grad(x, &norms, &outer, p, Some(&others), true)?;
    let grad = match through_norm {
        Some(n) => binary(BinaryOp::Add, &t(&direct), &t(&n))?,
        None => direct,
    };
    cast_grad(&grad, x.dtype())
}

/// Registers `norm`, `dist`, `std_mean`, `var_mean`, `renorm`.
pub fn register(r: &mut Registry) {
    for name in ["renorm", "renorm_"] {
        let body = move |x: &Tensor, a: Args| {
            let p = to_scalar(a.req(0, "p", name)?, "p")?.to_f64();
            let dim = a.int(1, "dim", name)?;
            let maxnorm = to_scalar(a.req(2, "maxnorm", name)?, "maxnorm")?.to_f64();
            let input = detached(x);
            let out = renorm(&input, p, dim, maxnorm).rhai()?;
            if name.ends_with('_') {
                // The formula reads the values before the write.
                let old = crate::core::copy::contiguous_copy(&input).rhai()?;
                crate::core::copy::copy_(x, &out).rhai()?;
                let op = crate::core::tensor::graph::BackwardOp::formula(1, move |g| {
                    Ok(vec![Some(renorm_grad(&old, g, p, dim, maxnorm)?)])
                });
                crate::core::tensor::record::record_in_place(x, "RenormBackward0", &[], op);
                return Ok(Dynamic::from(x.clone()));
            }
            tracked::single(&out, "RenormBackward0", x, move |g, x| {
                renorm_grad(x, g, p, dim, maxnorm)
            });
            Ok(Dynamic::from(out))
        };
        if name.ends_with('_') {
            r.method(name, 3, body);
        } else {
            r.method_and_function(name, 3, body);
        }
    }
    r.method_and_function("norm", 4, |x, a| norm(x, &a));
    r.function("cosine_similarity", 4, |a| {
        let x1 = a.tensor(0, "x1", "cosine_similarity")?;
        let x2 = a.tensor(1, "x2", "cosine_similarity")?;
        let dim = a.int_or(2, "dim", 1)?;
        let eps = match a.get(3, "eps") {
            Some(v) => to_float(v, "eps")?,
            None => 1e-8,
        };
        let (p, q) =
            crate::core::similarity::common_floating(&detached(&x1), &detached(&x2)).rhai()?;
        let (out, cosine) = crate::core::similarity::Cosine::new(&p, &q, dim, eps).rhai()?;
        if x1.requires_grad() || x2.requires_grad() {
            let (s1, d1, s2, d2) = (x1.sizes(), x1.dtype(), x2.sizes(), x2.dtype());
            record_formula(&out, "SumBackward1", &[&x1, &x2], &[&x1, &x2], move |g| {
                let (ga, gb) = cosine.grads(g)?;
                Ok(vec![
                    Some(cast_grad(&sum_to(&ga, &s1)?, d1)?),
                    Some(cast_grad(&sum_to(&gb, &s2)?, d2)?),
                ])
            });
        }
        Ok(Dynamic::from(out))
    });
    r.function("pairwise_distance", 5, |a| {
        let x1 = a.tensor(0, "x1", "pairwise_distance")?;
        let x2 = a.tensor(1, "x2", "pairwise_distance")?;
        let p = match a.get(2, "p") {
            Some(v) => to_float(v, "p")?,
            None => 2.0,
        };
        let eps = match a.get(3, "eps") {
            Some(v) => to_float(v, "eps")?,
            None => 1e-6,
        };
        let keepdim = a.bool_or(4, "keepdim", false)?;
        let (xd, od) = (detached(&x1), detached(&x2));
        let diff = crate::core::similarity::pairwise_distance_input(&xd, &od, eps).rhai()?;
        let dims = vec![-1];
        let out = vector_norm(&diff, p, Some(&dims), keepdim).rhai()?;
        if x1.requires_grad() || x2.requires_grad() {
            let y = detached(&out);
            record_formula(&out, "NormBackward1", &[&x1, &x2], &[&x1, &x2], move |g| {
                let grad = norm_grad(&diff, &y, g, p, Some(&dims), keepdim)?;
                difference_grads(grad, &xd, &od)
            });
        }
        Ok(Dynamic::from(out))
    });
    r.function("frobenius_norm", 3, |a| {
        let x = a.tensor(0, "input", "frobenius_norm")?;
        let dims = crate::ops::convert::to_int_list(a.req(1, "dim", "frobenius_norm")?, "dim")?;
        let keepdim = a.bool_or(2, "keepdim", false)?;
        crate::ops::warnings::warn_once(
            "frobenius_norm",
            "at::frobenius_norm is deprecated and it is just left for JIT compatibility. It will be removed in a future PyTorch release. Please use `linalg.vector_norm(A, 2., dim, keepdim)` instead",
        );
        if dims.len() > 2 {
            return Err(to_rhai(TorchError::runtime(format!(
                "Expected at most 2 dimensions, but got {} dimensions instead.",
                dims.len()
            ))));
        }
        require_norm_dtype(x.dtype())?;
        Ok(Dynamic::from(recorded_norm(&x, 2.0, Some(dims), keepdim)?))
    });
    r.function("norm_except_dim", 3, |a| {
        let v = a.tensor(0, "v", "norm_except_dim")?;
        let p = a.int_or(1, "pow", 2)? as f64;
        let dim = a.int_or(2, "dim", 0)?;
        // `dim == -1` is the whole norm; any other dim is kept (size 1 elsewhere).
        if dim == -1 {
            return Ok(Dynamic::from(recorded_norm(&v, p, None, false)?));
        }
        let kept = crate::core::error::wrap_dim(dim, v.ndim()).rhai()?;
        let others: Vec<i64> = (0..v.ndim())
            .filter(|&d| d != kept)
            .map(|d| d as i64)
            .collect();
        let out = if others.is_empty() {
            let magnitude = unary(&detached(&v), Unary::Abs).rhai()?;
            let out = crate::core::copy::cast_copy(&magnitude, v.dtype().to_real()).rhai()?;
            tracked::single(&out, "AbsBackward0", &v, |g, x| {
                binary(BinaryOp::Mul, &t(g), &t(&unary(x, Unary::Sgn)?))
            });
            out
        } else {
            recorded_norm(&v, p, Some(others), true)?
        };
        Ok(Dynamic::from(out))
    });
    r.method_and_function("dist", 2, |x, a| dist(x, &a));
    r.tensor_function("std_mean", 3, |x, a| spread_and_mean(x, &a, true));
    r.tensor_function("var_mean", 3, |x, a| spread_and_mean(x, &a, false));
}
