//! The trapezoidal rule: `trapezoid` (and its old name `trapz`) and
//! `cumulative_trapezoid`, along a dim, with unit spacing, a spacing `dx`, or sample
//! points `x`, composed of the engine's ops in PyTorch's order.

use rhai::Dynamic;

use crate::core::error::{Result, TorchError, wrap_dim};
use crate::core::ops::{Arg, BinaryOp, binary_untracked as binary};
use crate::core::reduce::{Reduction, reduce};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::detached;
use crate::core::views;
use crate::ops::args::Args;
use crate::ops::convert::to_scalar;
use crate::ops::errors::{IntoRhai, RhaiResult};
use crate::ops::registry::Registry;

fn t(x: &Tensor) -> Arg {
    Arg::Tensor(x.clone())
}

/// Spacing: none (1), a number, or sample points.
#[derive(Clone)]
enum Spacing {
    Step(Scalar),
    Points(Tensor),
}

/// `y[1:] + y[:-1]` along `d`, and `x[1:] - x[:-1]` for sample points.
fn neighbours(y: &Tensor, d: i64, n: i64) -> Result<Tensor> {
    let later = views::narrow(y, d, 1, n - 1)?;
    let earlier = views::narrow(y, d, 0, n - 1)?;
    binary(BinaryOp::Add, &t(&later), &t(&earlier))
}

/// The areas of the `n - 1` trapezoids along `d` (before summing), times two.
fn doubled_areas(y: &Tensor, d: i64, spacing: &Spacing) -> Result<Tensor> {
    let n = y.sizes()[d as usize];
    let sums = neighbours(y, d, n)?;
    match spacing {
        Spacing::Step(dx) => binary(BinaryOp::Mul, &t(&sums), &Arg::Number(*dx)),
        Spacing::Points(x) => {
            // Sample points of several dims line up with `y` from the right (padded with
            // leading 1s) and take their differences along `y`'s dim.
            let one_dim = x.ndim() == 1;
            let padded;
            let x = if !one_dim && x.ndim() < y.ndim() {
                let mut sizes = vec![1; y.ndim() - x.ndim()];
                sizes.extend(x.sizes());
                padded = views::reshape(x, &sizes)?;
                &padded
            } else {
                x
            };
            let xd = if one_dim { 0 } else { d };
            let xn = x.sizes()[xd as usize];
            if one_dim && xn != n {
                return Err(TorchError::runtime(
                    "trapezoid: There must be one `x` value for each sample point",
                ));
            }
            let widths = binary(
                BinaryOp::Sub,
                &t(&views::narrow(x, xd, 1, xn - 1)?),
                &t(&views::narrow(x, xd, 0, xn - 1)?),
            )?;
            let widths = if one_dim && y.ndim() > 1 {
                // A 1-d `x` lines up with `y`'s dim `d`.
                let mut shape = vec![1; y.ndim()];
                shape[d as usize] = xn - 1;
                views::reshape(&widths, &shape)?
            } else {
                widths
            };
            binary(BinaryOp::Mul, &t(&sums), &t(&widths))
        }
    }
}

/// The gradient for `y` of a rule whose result is a sum of `areas / 2` (`g_areas`: the
/// gradient each area receives): each trapezoid's width halved, times its gradient, goes
/// to both of its sides. (The areas are linear in `y`: doubled areas of ones are twice
/// the widths.)
fn sides_grad(g_areas: &Tensor, y: &Tensor, d: i64, spacing: &Spacing) -> Result<Tensor> {
    let n = y.sizes()[d as usize];
    let ones = crate::core::creation::full(&y.sizes(), Scalar::Int(1), g_areas.dtype())?;
    let widths2 = doubled_areas(&ones, d, spacing)?;
    let share = binary(BinaryOp::Mul, &t(g_areas), &t(&widths2))?;
    let share = binary(BinaryOp::Div, &t(&share), &Arg::Number(Scalar::Float(4.0)))?;
    let mut wide = share.sizes();
    wide[d as usize] = n;
    let grad = Tensor::zeros(wide, share.dtype())?;
    for start in [0, 1] {
        let side = views::narrow(&grad, d, start, n - 1)?;
        let summed = binary(BinaryOp::Add, &t(&side), &t(&share))?;
        crate::core::copy::copy_(&side, &summed)?;
    }
    Ok(grad)
}

/// Records a rule's result `out` from `y`: `per_area` gives each area's gradient from
/// the result's.
fn record_rule(
    out: &Tensor,
    node: &str,
    y: &Tensor,
    d: i64,
    spacing: Spacing,
    per_area: impl Fn(&Tensor) -> Result<Tensor> + 'static,
) {
    crate::core::autograd::tracked::single(out, node, y, move |g, y| {
        let n = y.sizes()[d as usize];
        if n < 2 {
            return Tensor::zeros(y.sizes(), g.dtype());
        }
        sides_grad(&per_area(g)?, y, d, &spacing)
    });
}

/// Checks `y` and returns its wrapped dim.
fn prepared(y: &Tensor, dim: i64, name: &str) -> Result<i64> {
    if y.dtype() == crate::core::dtype::DType::Bool {
        return Err(TorchError::not_implemented(format!(
            "{name}: received a bool input for `y`, but bool is not supported"
        )));
    }
    if y.ndim() == 0 {
        return Err(TorchError::index(format!(
            "Dimension specified as {dim} but tensor has no dimensions"
        )));
    }
    Ok(wrap_dim(dim, y.ndim())? as i64)
}

/// `torch.trapezoid(y, x=None, *, dx=None, dim=-1)`.
fn trapezoid(y: &Tensor, dim: i64, spacing: &Spacing) -> Result<Tensor> {
    let d = prepared(y, dim, "trapezoid")?;
    let n = y.sizes()[d as usize];
    if n == 0 {
        return reduce(
            &binary(BinaryOp::Mul, &t(y), &Arg::Number(Scalar::Int(0)))?,
            Reduction::Sum,
            Some(&[d]),
            false,
        );
    }
    let areas = doubled_areas(y, d, spacing)?;
    let total = reduce(&areas, Reduction::Sum, Some(&[d]), false)?;
    binary(BinaryOp::Div, &t(&total), &Arg::Number(Scalar::Float(2.0)))
}

/// `torch.cumulative_trapezoid(y, x=None, *, dx=None, dim=-1)`.
fn cumulative_trapezoid(y: &Tensor, dim: i64, spacing: &Spacing) -> Result<Tensor> {
    let d = prepared(y, dim, "cumulative_trapezoid")?;
    let n = y.sizes()[d as usize];
    if n == 0 {
        return Ok(y.clone());
    }
    let areas = doubled_areas(y, d, spacing)?;
    let halves = binary(BinaryOp::Div, &t(&areas), &Arg::Number(Scalar::Float(2.0)))?;
    crate::core::scan::cumsum(&halves, d, None)
}

/// The spacing of a call: `x` (position 0 after `y`), else `dx=`, else 1.
fn spacing(a: &Args) -> RhaiResult<Spacing> {
    if let Some(v) = a.get(0, "x")
        && let Some(x) = v.clone().try_cast::<Tensor>()
    {
        return Ok(Spacing::Points(detached(&x)));
    }
    Ok(match a.kw("dx").or_else(|| a.get(0, "dx")) {
        Some(v) => Spacing::Step(to_scalar(v, "dx")?),
        None => Spacing::Step(Scalar::Int(1)),
    })
}

/// Registers the trapezoidal rules.
pub fn register(r: &mut Registry) {
    for name in ["trapezoid", "trapz"] {
        r.tensor_function(name, 2, move |y, a| {
            let dim = a.int_or(usize::MAX, "dim", -1)?;
            let dim = match a.pos.get(1).and_then(|v| v.as_int().ok()) {
                Some(d) => d,
                None => dim,
            };
            let spacing = spacing(&a)?;
            let out = trapezoid(&detached(y), dim, &spacing).rhai()?;
            if y.requires_grad() {
                let d = prepared(y, dim, name).rhai()?;
                // PyTorch's composition ends in a product (`dx`) or a halving (points).
                let node = match spacing {
                    Spacing::Step(_) => "MulBackward1",
                    Spacing::Points(_) => "DivBackward1",
                };
                record_rule(&out, node, y, d, spacing, move |g| views::unsqueeze(g, d));
            }
            Ok(Dynamic::from(out))
        });
    }
    r.tensor_function("cumulative_trapezoid", 2, |y, a| {
        let dim = a.int_or(usize::MAX, "dim", -1)?;
        let spacing = spacing(&a)?;
        let out = cumulative_trapezoid(&detached(y), dim, &spacing).rhai()?;
        if y.requires_grad() {
            let d = prepared(y, dim, "cumulative_trapezoid").rhai()?;
            // Area `i` counts in every running sum from `i` on.
            let node = match spacing {
                Spacing::Step(_) => "CumsumBackward0",
                Spacing::Points(_) => "DivBackward1",
            };
            record_rule(&out, node, y, d, spacing, move |g| {
                crate::core::scan::cumsum_backward(g, d)
            });
        }
        Ok(Dynamic::from(out))
    });
}
