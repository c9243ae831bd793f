//! The losses of `torch.nn.functional` that ATen computes as ops of their own, each
//! recorded under its own autograd node with its backward kernel's formula:
//! `mse_loss`, `smooth_l1_loss`, `huber_loss`, `nll_loss`, `binary_cross_entropy` and
//! `binary_cross_entropy_with_logits`. (`l1_loss`, `kl_div` and the parts of
//! `cross_entropy` PyTorch composes from other ops are composed by the front's module.)

use super::autograd::grad_ops::{add, apply, cmp, div, mul, n, select, sub, t};
use super::autograd::tracked;
use super::dtype::DType;
use super::error::{Result, TorchError};
use super::operand::Arg;
use super::ops::BinaryOp;
use super::reduce::{Reduction as Reduce, reduce};
use super::scalar::Scalar;
use super::scatter::{Source, scatter};
use super::selection::{gather, index_select};
use super::tensor::Tensor;
use super::tensor::graph::detached;
use super::unary_math::Unary;
use super::views;

/// How a loss reduces its elements (`reduction=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LossReduction {
    /// Each element's loss.
    None,
    /// Their mean.
    Mean,
    /// Their sum.
    Sum,
}

impl LossReduction {
    /// `reduction=` as PyTorch reads it, or its `ValueError`.
    pub fn parse(name: &str) -> Result<LossReduction> {
        match name {
            "none" => Ok(LossReduction::None),
            "mean" => Ok(LossReduction::Mean),
            "sum" => Ok(LossReduction::Sum),
            other => Err(TorchError::value(format!(
                "{other} is not a valid value for reduction"
            ))),
        }
    }

    /// The reduction of the element losses `l`.
    fn apply(self, l: Tensor) -> Result<Tensor> {
        match self {
            LossReduction::None => Ok(l),
            LossReduction::Mean => reduce(&l, Reduce::Mean, None, false),
            LossReduction::Sum => reduce(&l, Reduce::Sum, None, false),
        }
    }

    /// The factor the gradient of an element gets from the reduction of `count` elements.
    fn norm(self, count: i64) -> f64 {
        match self {
            LossReduction::Mean => 1.0 / count as f64,
            _ => 1.0,
        }
    }
}

/// A pointwise loss of an input against a target of the same (broadcast) shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PointwiseLoss {
    /// `(x - y)²`.
    Mse,
    /// `0.5 d² / beta` inside `beta`, `|d| - 0.5 beta` outside.
    SmoothL1(f64),
    /// `0.5 d²` inside `delta`, `delta (|d| - 0.5 delta)` outside.
    Huber(f64),
}

impl PointwiseLoss {
    fn node(self) -> &'static str {
        match self {
            PointwiseLoss::Mse => "MseLossBackward0",
            PointwiseLoss::SmoothL1(_) => "SmoothL1LossBackward0",
            PointwiseLoss::Huber(_) => "HuberLossBackward0",
        }
    }
}

/// `loss(input, target)` reduced by `how`, recorded under the loss's node.
pub fn pointwise_loss(
    input: &Tensor,
    target: &Tensor,
    loss: PointwiseLoss,
    how: LossReduction,
) -> Result<Tensor> {
    let (x, y) = (detached(input), detached(target));
    let d = sub(t(&x), t(&y))?;
    let elements = match loss {
        PointwiseLoss::Mse => mul(t(&d), t(&d))?,
        PointwiseLoss::SmoothL1(beta) | PointwiseLoss::Huber(beta) => {
            let magnitude = apply(Unary::Abs, &d)?;
            let inside = cmp(BinaryOp::Lt, t(&magnitude), n(beta))?;
            let (quadratic, linear) = if let PointwiseLoss::SmoothL1(_) = loss {
                (
                    div(t(&mul(t(&mul(n(0.5), t(&d))?), t(&d))?), n(beta))?,
                    sub(t(&magnitude), n(0.5 * beta))?,
                )
            } else {
                (
                    mul(t(&mul(n(0.5), t(&d))?), t(&d))?,
                    mul(n(beta), t(&sub(t(&magnitude), n(0.5 * beta))?))?,
                )
            };
            select(&inside, t(&quadratic), t(&linear))?
        }
    };
    let count = elements.numel();
    let out = how.apply(elements)?;
    let norm = how.norm(count);
    tracked::pair(
        &out,
        loss.node(),
        &Arg::Tensor(input.clone()),
        &Arg::Tensor(target.clone()),
        move |g, v| {
            let gx = pointwise_gradient(loss, norm, g, &v.a, &v.b)?;
            let gy = mul(t(&gx), n(-1.0))?;
            Ok((Some(gx), Some(gy)))
        },
    );
    Ok(out)
}

/// The input's gradient of a pointwise loss (the target's is its negation).
fn pointwise_gradient(
    loss: PointwiseLoss,
    norm: f64,
    g: &Tensor,
    x: &Arg,
    y: &Arg,
) -> Result<Tensor> {
    let d = sub(x.clone(), y.clone())?;
    match loss {
        PointwiseLoss::Mse => mul(t(&mul(n(2.0 * norm), t(&d))?), t(g)),
        PointwiseLoss::SmoothL1(beta) | PointwiseLoss::Huber(beta) => {
            // Outside the band the gradient is ±norm (times delta for Huber); inside it
            // is norm * d (over beta for smooth L1).
            let outer = if let PointwiseLoss::Huber(_) = loss {
                norm * beta
            } else {
                norm
            };
            let inner = if let PointwiseLoss::Huber(_) = loss {
                mul(t(&mul(n(norm), t(&d))?), t(g))?
            } else {
                div(t(&mul(t(&mul(n(norm), t(&d))?), t(g))?), n(beta))?
            };
            let below = cmp(BinaryOp::Lt, t(&d), n(-beta))?;
            let above = cmp(BinaryOp::Gt, t(&d), n(beta))?;
            let up = mul(n(outer), t(g))?;
            let down = mul(n(-outer), t(g))?;
            select(&below, t(&down), t(&select(&above, t(&up), t(&inner))?))
        }
    }
}

/// `nll_loss(input, target, weight, ignore_index, reduction)`: minus the input's value at
/// each target class (times the class's weight), over inputs `(C)`, `(N, C)` or
/// `(N, C, d1, ...)` with targets `()`, `(N)` or `(N, d1, ...)`; the mean divides by the
/// weights taken. Recorded as `NllLossBackward0`.
pub fn nll_loss(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    ignore_index: i64,
    how: LossReduction,
) -> Result<Tensor> {
    let x = detached(input);
    let dim = x.ndim();
    if dim < 1 {
        return Err(TorchError::value("Expected 1 or more dimensions (got 0)"));
    }
    if !matches!(target.dtype(), DType::Int64 | DType::UInt8) {
        return Err(TorchError::runtime(format!(
            "expected target dtype to be Long or Byte, but got {}",
            target.dtype().cpp_name()
        )));
    }
    let target = &super::copy::cast_copy(&detached(target), DType::Int64)?;
    // A `(C)` input is one sample of a `(1, C)` batch.
    let (x, target) = if dim == 1 {
        if target.ndim() > 1 {
            return Err(TorchError::runtime(
                "0D or 1D target tensor expected, multi-target not supported",
            ));
        }
        (
            views::unsqueeze(&x, 0)?,
            views::reshape(&detached(target), &[1])?,
        )
    } else {
        (x, detached(target))
    };
    let (sizes, target_sizes) = (x.sizes(), target.sizes());
    let batch_ok = target_sizes.len() + 1 == sizes.len()
        && target_sizes[0] == sizes[0]
        && target_sizes[1..] == sizes[2..];
    if !batch_ok {
        return Err(if sizes.len() == 2 {
            TorchError::value(format!(
                "Expected input batch_size ({}) to match target batch_size ({}).",
                sizes[0],
                target_sizes.first().copied().unwrap_or(1)
            ))
        } else {
            TorchError::runtime(format!(
                "size mismatch (got input: {}, target: {})",
                shape_text(&sizes),
                shape_text(&target_sizes)
            ))
        });
    }
    let classes = sizes[1];
    if let Some(w) = weight
        && (w.ndim() != 1 || w.numel() != classes)
    {
        return Err(TorchError::runtime(format!(
            "weight tensor should be defined either for all {classes} classes or no classes but got weight tensor of shape: {}",
            shape_text(&w.sizes())
        )));
    }
    let ignored = cmp(BinaryOp::Eq, t(&target), n(ignore_index as f64))?;
    let ignored_in_gradient = ignored.clone();
    let safe = select(&ignored, n(0.0), t(&target))?;
    let safe = super::copy::cast_copy(&safe, DType::Int64)?;
    for k in super::engine::elements::i64_values(&safe)? {
        if k < 0 || k >= classes {
            return Err(TorchError::index(format!("Target {k} is out of bounds.")));
        }
    }
    let index = views::unsqueeze(&safe, 1)?;
    let picked = views::squeeze(&gather(&x, 1, &index)?, Some(&[1]))?;
    let weights = match weight {
        Some(w) => {
            let flat = views::reshape(&safe, &[-1])?;
            let taken = index_select(&detached(w), 0, &flat)?;
            views::reshape(&taken, &target_sizes)?
        }
        None => super::creation::full(&target_sizes, Scalar::Float(1.0), x.dtype())?,
    };
    let weights = select(&ignored, n(0.0), t(&weights))?;
    let weights = super::copy::cast_copy(&weights, x.dtype())?;
    let losses = mul(t(&picked), t(&weights))?;
    let losses = mul(t(&losses), n(-1.0))?;
    let total = reduce(&weights, Reduce::Sum, None, false)?;
    let out = match how {
        LossReduction::None if dim == 1 => views::reshape(&losses, &[])?,
        LossReduction::None => losses,
        LossReduction::Sum => reduce(&losses, Reduce::Sum, None, false)?,
        LossReduction::Mean => div(t(&reduce(&losses, Reduce::Sum, None, false)?), t(&total))?,
    };
    let input_sizes = input.sizes();
    // A batch of images (`(N, C, H, W)` and the shapes PyTorch reshapes to it) is
    // `nll_loss2d`'s.
    let node = if dim >= 3 {
        "NllLoss2DBackward0"
    } else {
        "NllLossBackward0"
    };
    tracked::single(&out, node, input, move |g, _| {
        // -weight * g at each target class (over the taken weights for the mean).
        let mut coef = mul(t(&weights), n(-1.0))?;
        coef = match how {
            LossReduction::None => mul(t(&coef), t(&views::reshape(g, &target_sizes)?))?,
            LossReduction::Sum => mul(t(&coef), t(g))?,
            LossReduction::Mean => div(t(&mul(t(&coef), t(g))?), t(&total))?,
        };
        // An ignored target's place keeps its zero (no signed zero from a zero weight).
        let coef = select(&ignored_in_gradient, n(0.0), t(&coef))?;
        let zeros = super::creation::full(&sizes, Scalar::Float(0.0), coef.dtype())?;
        let coef = views::unsqueeze(&coef, 1)?;
        let grad = scatter(
            &zeros,
            1,
            &index,
            Source::Tensor(&coef),
            super::engine::place::Combine::Replace,
            true,
        )?;
        views::reshape(&grad, &input_sizes)
    });
    Ok(out)
}

/// `[2, 3]` as PyTorch prints a shape in these messages.
fn shape_text(sizes: &[i64]) -> String {
    let parts: Vec<String> = sizes.iter().map(i64::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// `binary_cross_entropy(input, target, weight, reduction)`: `-w (y log x + (1 - y)
/// log(1 - x))`, each log held at -100 or above, as PyTorch's kernel does.
pub fn binary_cross_entropy(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    how: LossReduction,
) -> Result<Tensor> {
    let (x, y) = (detached(input), detached(target));
    let values = super::engine::elements::f64_values(&x)?;
    if values.iter().any(|v| !(0.0..=1.0).contains(v)) {
        return Err(TorchError::runtime(
            "all elements of input should be between 0 and 1",
        ));
    }
    let log_x = clamp_log(&x)?;
    let log_1mx = clamp_log(&sub(n(1.0), t(&x))?)?;
    let positive = mul(t(&y), t(&log_x))?;
    let negative = mul(t(&sub(n(1.0), t(&y))?), t(&log_1mx))?;
    let mut l = mul(t(&add(t(&positive), t(&negative))?), n(-1.0))?;
    if let Some(w) = weight {
        l = mul(t(&l), t(&detached(w)))?;
    }
    let count = l.numel();
    let out = how.apply(l)?;
    let norm = how.norm(count);
    let w = weight.map(detached);
    tracked::pair(
        &out,
        "BinaryCrossEntropyBackward0",
        &Arg::Tensor(input.clone()),
        &Arg::Tensor(target.clone()),
        move |g, v| {
            // g * (x - y) / max((1 - x) x, 1e-12), times the weight.
            let (x, y) = (&v.a, &v.b);
            let spread = mul(t(&sub(n(1.0), x.clone())?), x.clone())?;
            let floor = floor_at(&spread, 1e-12)?;
            let mut gx = div(
                t(&mul(
                    t(&mul(n(norm), t(g))?),
                    t(&sub(x.clone(), y.clone())?),
                )?),
                t(&floor),
            )?;
            if let Some(w) = &w {
                gx = mul(t(&gx), t(w))?;
            }
            // The target's gradient reads the logs unclamped (-inf at 0 and 1).
            let log_x = apply(Unary::Log, &as_tensor(x)?)?;
            let log_1mx = apply(Unary::Log1p, &mul(x.clone(), n(-1.0))?)?;
            let log_ratio = sub(t(&log_x), t(&log_1mx))?;
            let mut gy = mul(t(&mul(n(-norm), t(g))?), t(&log_ratio))?;
            if let Some(w) = &w {
                gy = mul(t(&gy), t(w))?;
            }
            Ok((Some(gx), Some(gy)))
        },
    );
    Ok(out)
}

/// `log(x)` held at -100 or above.
fn clamp_log(x: &Tensor) -> Result<Tensor> {
    floor_at(&apply(Unary::Log, x)?, -100.0)
}

/// An operand that is a tensor.
fn as_tensor(a: &Arg) -> Result<Tensor> {
    match a {
        Arg::Tensor(t) => Ok(t.clone()),
        Arg::Number(_) => Err(TorchError::runtime("expected a tensor operand")),
    }
}

/// `binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)`:
/// `(1 - y) x + (1 + (p - 1) y) (log(1 + exp(-|x|)) + max(-x, 0))`, times the weight.
pub fn binary_cross_entropy_with_logits(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    pos_weight: Option<&Tensor>,
    how: LossReduction,
) -> Result<Tensor> {
    let (x, y) = (detached(input), detached(target));
    let softplus_neg = softplus_of_negation(&x)?;
    let linear = mul(t(&sub(n(1.0), t(&y))?), t(&x))?;
    let mut l = match pos_weight {
        Some(p) => {
            let factor = add(n(1.0), t(&mul(t(&sub(t(&detached(p)), n(1.0))?), t(&y))?))?;
            add(t(&linear), t(&mul(t(&factor), t(&softplus_neg))?))?
        }
        None => add(t(&linear), t(&softplus_neg))?,
    };
    if let Some(w) = weight {
        l = mul(t(&l), t(&detached(w)))?;
    }
    let count = l.numel();
    let out = how.apply(l)?;
    let norm = how.norm(count);
    let (w, p) = (weight.map(detached), pos_weight.map(detached));
    tracked::pair(
        &out,
        "BinaryCrossEntropyWithLogitsBackward0",
        &Arg::Tensor(input.clone()),
        &Arg::Tensor(target.clone()),
        move |g, v| {
            let (x, y) = (&v.a, &v.b);
            let s = apply(Unary::Sigmoid, &as_tensor(x)?)?;
            let core = match &p {
                Some(p) => {
                    let factor = add(n(1.0), t(&mul(t(&sub(t(p), n(1.0))?), y.clone())?))?;
                    sub(t(&mul(t(&factor), t(&s))?), t(&mul(t(p), y.clone())?))?
                }
                None => sub(t(&s), y.clone())?,
            };
            let mut gx = mul(t(&mul(n(norm), t(g))?), t(&core))?;
            // -(p log σ(x) - log σ(-x)) = -(x + (1 - p) softplus(-x)); -x without p.
            let slope = match &p {
                Some(p) => {
                    let spn = softplus_of_negation(&as_tensor(x)?)?;
                    add(x.clone(), t(&mul(t(&sub(n(1.0), t(p))?), t(&spn))?))?
                }
                None => as_tensor(x)?,
            };
            let mut gy = mul(t(&mul(n(-norm), t(g))?), t(&slope))?;
            if let Some(w) = &w {
                gx = mul(t(&gx), t(w))?;
                gy = mul(t(&gy), t(w))?;
            }
            Ok((Some(gx), Some(gy)))
        },
    );
    Ok(out)
}

/// `log(1 + exp(-x))`, computed stably: `log1p(exp(-|x|)) + max(-x, 0)`.
fn softplus_of_negation(x: &Tensor) -> Result<Tensor> {
    let magnitude = apply(Unary::Abs, x)?;
    let e = apply(Unary::Exp, &mul(t(&magnitude), n(-1.0))?)?;
    let log1p = apply(Unary::Log1p, &e)?;
    let neg_x = mul(t(x), n(-1.0))?;
    add(t(&log1p), t(&floor_at(&neg_x, 0.0)?))
}

/// `x` held at `floor` or above (NaN stays NaN).
fn floor_at(x: &Tensor, floor: f64) -> Result<Tensor> {
    super::pointwise::clamp(x, Some(Arg::Number(Scalar::Float(floor))), None)
}
