//! The family of elementwise functions of two operands (`atan2`, `hypot`, `copysign`,
//! `fmod`, `logaddexp`, `xlogy`, `gcd`, the shifts, the logical ops, ...), in one place as
//! ATen keeps a family: `kernels` (the typed loops, PyTorch's dtype rule and its kernels'
//! names in refusals), `gradients` (the formulas), and here the names, aliases, in-place
//! forms, `<<` and `>>` for tensors and the autograd node names. A new function of two
//! operands is a variant and a loop in `kernels`, a row here, an arm in `gradients`, its
//! declaration (`signature/declarations.txt`) and its oracle case.

pub mod gradients;
pub mod kernels;

use rhai::Dynamic;

use crate::core::autograd::tracked;
use crate::core::error::TorchError;
use crate::core::ops::Arg;
use crate::core::tensor::Tensor;
use crate::core::tensor::record as autograd;
use crate::ops::errors::{IntoRhai, RhaiResult};
use crate::ops::registry::Registry;
use crate::ops::tensor::in_place_writes;
use crate::ops::tensor::math::{arg, register_in_place_operator, register_operator};
use kernels::{Binary, binary_math};

/// Every function: its names (the first is PyTorch's main one), the op, the parameter name
/// of the second operand, and whether it has an in-place form.
const FUNCTIONS: [(&str, Binary, &str, bool); 23] = [
    ("atan2", Binary::Atan2, "other", true),
    ("arctan2", Binary::Atan2, "other", true),
    ("hypot", Binary::Hypot, "other", true),
    ("copysign", Binary::Copysign, "other", true),
    ("fmod", Binary::Fmod, "other", true),
    ("logaddexp", Binary::Logaddexp, "other", false),
    ("logaddexp2", Binary::Logaddexp2, "other", false),
    ("xlogy", Binary::Xlogy, "other", true),
    ("nextafter", Binary::Nextafter, "other", true),
    ("heaviside", Binary::Heaviside, "values", true),
    ("fmax", Binary::Fmax, "other", false),
    ("fmin", Binary::Fmin, "other", false),
    ("gcd", Binary::Gcd, "other", true),
    ("lcm", Binary::Lcm, "other", true),
    ("bitwise_left_shift", Binary::LeftShift, "other", true),
    ("bitwise_right_shift", Binary::RightShift, "other", true),
    ("float_power", Binary::FloatPower, "exponent", false),
    ("ldexp", Binary::Ldexp, "other", true),
    ("logical_and", Binary::LogicalAnd, "other", true),
    ("logical_or", Binary::LogicalOr, "other", true),
    ("logical_xor", Binary::LogicalXor, "other", true),
    ("igamma", Binary::Igamma, "other", true),
    ("igammac", Binary::Igammac, "other", true),
];

/// PyTorch's node for `op(a, b)` (its overloads for a number operand have their own).
fn node(op: Binary, a: &Arg, b: &Arg) -> &'static str {
    let number = |x: &Arg| x.as_tensor().is_none();
    match op {
        Binary::Atan2 => "Atan2Backward0",
        Binary::Hypot => "HypotBackward0",
        Binary::Copysign if number(b) => "CopysignBackward1",
        Binary::Copysign => "CopysignBackward0",
        Binary::Fmod if number(b) => "FmodBackward0",
        Binary::Fmod => "FmodBackward1",
        Binary::Logaddexp => "LogaddexpBackward0",
        Binary::Logaddexp2 => "Logaddexp2Backward0",
        Binary::Xlogy if number(a) => "XlogyBackward1",
        Binary::Xlogy if number(b) => "XlogyBackward2",
        Binary::Xlogy => "XlogyBackward0",
        Binary::Nextafter => "NextafterBackward0",
        Binary::Heaviside => "NotImplemented",
        Binary::Fmax => "FmaxBackward0",
        Binary::Fmin => "FminBackward0",
        Binary::Ldexp => "LdexpBackward0",
        Binary::FloatPower if number(a) => "PowBackward2",
        Binary::FloatPower if number(b) => "PowBackward0",
        Binary::FloatPower => "PowBackward1",
        Binary::Igamma => "IgammaBackward0",
        Binary::Igammac => "IgammacBackward0",
        _ => "NotImplemented",
    }
}

/// The first operand of `op`'s function form: a number a `torch` function wrapped is the
/// number for the ops ATen has a number overload of (`xlogy`, `float_power`).
fn first_operand(op: Binary, x: &Tensor) -> RhaiResult<Arg> {
    if matches!(op, Binary::Xlogy | Binary::FloatPower) {
        crate::ops::tensor::math::receiver(x)
    } else {
        Ok(Arg::Tensor(x.clone()))
    }
}

/// `op(a, b)`, recorded when a float or complex result comes from an input requiring grad.
fn tracked(op: Binary, name: &str, a: Arg, b: Arg) -> RhaiResult<Tensor> {
    let out = binary_math(op, &a, &b).rhai()?;
    let inputs: Vec<&Tensor> = [&a, &b].into_iter().filter_map(Arg::as_tensor).collect();
    if autograd::any_requires_grad(&inputs)
        && (out.dtype().is_floating_point() || out.dtype().is_complex())
    {
        let node = node(op, &a, &b);
        if node == "NotImplemented" {
            autograd::record_not_differentiable(&out, name, &inputs);
        } else {
            let name = name.to_string();
            // PyTorch has no formula for `igamma`'s first operand: backward refuses.
            let underivable_first = matches!(op, Binary::Igamma | Binary::Igammac)
                && a.as_tensor().is_some_and(Tensor::requires_grad);
            tracked::pair(&out, node, &a, &b, move |g, v| {
                if underivable_first {
                    return Err(TorchError::not_implemented(format!(
                        "the derivative for '{name}: input' is not implemented."
                    )));
                }
                gradients::binary_math_grads(op, g, v)?.ok_or_else(|| {
                    TorchError::runtime(format!("derivative for aten::{name} is not implemented"))
                })
            });
        }
    }
    Ok(out)
}

/// `x.op_(y)`: computed, checked against `x`, written back, recorded as an in-place node.
fn in_place(op: Binary, name: &str, x: &Tensor, y: Arg) -> RhaiResult<()> {
    autograd::check_inplace(x).rhai()?;
    let others: Vec<&Tensor> = y.as_tensor().into_iter().collect();
    let source = in_place_writes::source(x, &others).rhai()?;
    let out = tracked(op, name, Arg::Tensor(source), y.clone())?;
    in_place_writes::write_back(x, &others, &out)
}

/// Registers the functions, their in-place forms and the shift operators.
pub fn register(r: &mut Registry) {
    for (name, op, parameter, has_in_place) in FUNCTIONS {
        r.method_and_function(name, 1, move |x, a| {
            let other = arg(a.req(0, parameter, name)?, parameter)?;
            Ok(Dynamic::from(tracked(
                op,
                name,
                first_operand(op, x)?,
                other,
            )?))
        });
        if has_in_place {
            let body = move |x: &Tensor, a: crate::ops::args::Args| {
                let other = arg(a.req(0, parameter, name)?, parameter)?;
                in_place(op, name, x, other)?;
                Ok(Dynamic::from(x.clone()))
            };
            // PyTorch has only some in-place forms as `torch` functions.
            let in_place_name = format!("{name}_");
            if ["xlogy", "gcd", "lcm", "ldexp"].contains(&name) {
                r.method_and_function(&in_place_name, 1, body);
            } else {
                r.method(&in_place_name, 1, body);
            }
        }
    }
    for (symbol, op, name) in [
        ("<<", Binary::LeftShift, "bitwise_left_shift"),
        (">>", Binary::RightShift, "bitwise_right_shift"),
    ] {
        register_operator(r, symbol, move |a, b| tracked(op, name, a, b));
        register_in_place_operator(r, &format!("{symbol}="), move |x, y| {
            in_place(op, name, x, y)
        });
    }
}
