//! The functions of one argument as methods and `torch` functions (`x.exp()`,
//! `torch::floor(x)`) and their in-place forms (`x.exp_()`), recorded for autograd with
//! the factor their gradient is multiplied by.

use rhai::Dynamic;

use crate::core::copy;
use crate::core::error::Result;
use crate::core::ops::check_in_place_result;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::BackwardOp;
use crate::core::tensor::record::{record_in_place, record_scaled};
use crate::core::unary::{Unary, round_decimals, unary, unary_with_factor};
use crate::script::args::Args;
use crate::script::errors::{IntoRhai, RhaiResult};
use crate::script::registry::Registry;

/// The result of `f(x)` (or `x.round(decimals=n)`) and, when autograd must record it, the
/// gradient's factor (`None` inside: no formula).
type Computed = (Tensor, Option<Option<Tensor>>);

/// Computes `f(x)`, with the gradient's factor when `x` requires grad and the result can
/// carry a gradient.
fn compute(x: &Tensor, f: Unary, decimals: Option<i64>) -> Result<Computed> {
    if let Some(n) = decimals {
        let out = round_decimals(x, n)?;
        // Rounding has a zero gradient everywhere.
        let factor = match x.requires_grad() {
            true => Some(Some(Tensor::zeros(x.sizes(), x.dtype())?)),
            false => None,
        };
        return Ok((out, factor));
    }
    let d = f.result_dtype(x.dtype())?;
    let tracked = x.requires_grad() && (d.is_floating_point() || d.is_complex());
    if !tracked {
        return Ok((unary(x, f)?, None));
    }
    let (out, factor) = unary_with_factor(x, f)?;
    Ok((out, Some(factor)))
}

/// PyTorch's node name: `round(decimals=n)` is its second overload.
fn node(f: Unary, decimals: Option<i64>) -> &'static str {
    if decimals.is_some() {
        "RoundBackward1"
    } else {
        f.node()
    }
}

fn scaled(factor: Option<Tensor>, f: Unary) -> BackwardOp {
    match factor {
        Some(factor) => BackwardOp::Scaled {
            factor,
            saves: !f.constant_gradient(),
        },
        None => BackwardOp::Unsupported {
            op: f.name().to_string(),
        },
    }
}

/// `x.f()`.
fn out_of_place(x: &Tensor, f: Unary, decimals: Option<i64>) -> Result<Tensor> {
    let (out, factor) = compute(x, f, decimals)?;
    if let Some(factor) = factor {
        record_scaled(&out, x, node(f, decimals), factor, !f.constant_gradient());
    }
    Ok(out)
}

/// `x.f_()`: computed, checked against `x`'s dtype, written back into `x`.
fn in_place(x: &Tensor, f: Unary, decimals: Option<i64>) -> Result<Tensor> {
    let (out, factor) = compute(x, f, decimals)?;
    check_in_place_result(x, &out.sizes(), out.dtype())?;
    copy::copy_(x, &out)?;
    if let Some(factor) = factor {
        record_in_place(x, node(f, decimals), &[], scaled(factor, f));
    }
    Ok(x.clone())
}

/// `decimals=` of `round` (keyword only).
fn decimals(f: Unary, a: &Args) -> RhaiResult<Option<i64>> {
    if f != Unary::Round {
        return Ok(None);
    }
    match a.kw("decimals") {
        Some(_) => Ok(Some(a.int(usize::MAX, "decimals", "round")?)),
        None => Ok(None),
    }
}

/// Registers every function of one argument, its `torch` form and its in-place method.
pub fn register(r: &mut Registry) {
    for (name, f) in Unary::ALL {
        let max = usize::from(f == Unary::Round);
        r.method_and_function(name, max, move |x, a| {
            let n = decimals(f, &a)?;
            Ok(Dynamic::from(out_of_place(x, f, n).rhai()?))
        });
        let in_place_name = format!("{name}_");
        r.method(&in_place_name, max, move |x, a| {
            let n = decimals(f, &a)?;
            Ok(Dynamic::from(in_place(x, f, n).rhai()?))
        });
    }
}
