//! Elementwise math as methods, `torch` functions and operators (the functions of one
//! argument are in `unary`): pow (`**`), remainder (`%`), floor_divide, maximum/minimum, the bitwise ops (`&`,
//! `|`, `^`, `!` for Python's `~`), clamp, where, isclose, allclose.

use rhai::Dynamic;

use crate::core::autograd::{grad_ops, pointwise_grads, sum_to, tracked};
use crate::core::ops::Arg;
use crate::core::pointwise::{self, Bitwise, FloatClass, Rounding};
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::BackwardOp;
use crate::core::tensor::record as autograd;
use crate::ops::args::Args;
use crate::ops::convert::{to_float, to_tensor};
use crate::ops::errors::{IntoRhai, RhaiResult};
use crate::ops::registry::Registry;
use crate::ops::tensor::in_place_writes;
use crate::ops::tensor::math::{arg, register_in_place_operator, register_operator};

type BinaryFn = fn(&Arg, &Arg) -> crate::core::error::Result<Tensor>;

/// `f(a, b)`, recorded for autograd: `x ** number` has a formula, the rest are recorded
/// under PyTorch's node names without one.
fn apply_tracked(f: BinaryFn, a: Arg, b: Arg) -> RhaiResult<Tensor> {
    let out = f(&a, &b).rhai()?;
    let inputs: Vec<&Tensor> = [&a, &b].into_iter().filter_map(Arg::as_tensor).collect();
    if !autograd::any_requires_grad(&inputs) || !out.dtype().is_floating_point() {
        return Ok(out);
    }
    let is_pow = std::ptr::fn_addr_eq(f, pointwise::pow as BinaryFn);
    match (&a, &b) {
        (Arg::Tensor(x), Arg::Number(e)) if is_pow => autograd::record_pow(&out, x, e.to_f64()),
        (Arg::Number(_), _) if is_pow => {
            tracked::pair(&out, "PowBackward2", &a, &b, pointwise_grads::pow_grads)
        }
        _ if is_pow => tracked::pair(&out, "PowBackward1", &a, &b, pointwise_grads::pow_grads),
        _ if std::ptr::fn_addr_eq(f, pointwise::remainder as BinaryFn) => {
            let node = if b.as_tensor().is_some() {
                "RemainderBackward1"
            } else {
                "RemainderBackward0"
            };
            tracked::pair(&out, node, &a, &b, |g, v| {
                pointwise_grads::rounded_division_grads(g, &v.a, &v.b, Rounding::Floor)
            })
        }
        // PyTorch itself has no formula for floor_divide and names the node so.
        _ => autograd::record_not_differentiable(&out, "floor_divide", &inputs),
    }
    Ok(out)
}

/// `f(x, y)` written back into `x`: computed, then copied in, refusing a result whose shape
/// or dtype `x` cannot hold (PyTorch's in-place rule). When autograd recorded the result,
/// `x` gets an in-place node of the same name and formula (`PowBackward0`, ...).
fn apply_in_place(f: BinaryFn, x: &Tensor, y: Arg) -> RhaiResult<()> {
    crate::core::ops::check_in_place_promotion(x, &y).rhai()?;
    let others: Vec<&Tensor> = y.as_tensor().into_iter().collect();
    let source = in_place_writes::source(x, &others).rhai()?;
    let out = apply_tracked(f, Arg::Tensor(source), y.clone())?;
    in_place_writes::write_back(x, &others, &out)
}

fn floor_divide(a: &Arg, b: &Arg) -> crate::core::error::Result<Tensor> {
    pointwise::div_rounded(a, b, Rounding::Floor)
}

fn optional_arg(a: &Args, i: usize, name: &str) -> RhaiResult<Option<Arg>> {
    match a.get(i, name) {
        None => Ok(None),
        Some(v) if v.is_unit() => Ok(None),
        Some(v) => arg(v, name).map(Some),
    }
}

/// `&`, `|`, `^` (with `&=`, `|=`, `^=` writing into the left tensor, as PyTorch's
/// `__iand__` and friends do), `!` for Python's `~`, and their named forms.
fn register_bitwise(r: &mut Registry) {
    for (symbol, name, op) in [
        ("&", "bitwise_and", Bitwise::And),
        ("|", "bitwise_or", Bitwise::Or),
        ("^", "bitwise_xor", Bitwise::Xor),
    ] {
        register_operator(r, symbol, move |a, b| pointwise::bitwise(&a, &b, op).rhai());
        register_in_place_operator(r, &format!("{symbol}="), move |x, y| {
            crate::core::ops::check_in_place_promotion(x, &y).rhai()?;
            let out = pointwise::bitwise(&Arg::Tensor(x.clone()), &y, op).rhai()?;
            crate::core::ops::check_in_place_result(x, &out.sizes(), out.dtype()).rhai()?;
            crate::core::copy::copy_(x, &out).rhai()
        });
        r.method_and_function(name, 1, move |x, a| {
            let other = arg(a.req(0, "other", name)?, "other")?;
            Ok(Dynamic::from(
                pointwise::bitwise(&Arg::Tensor(x.clone()), &other, op).rhai()?,
            ))
        });
    }
    r.engine
        .register_fn("!", |t: Tensor| pointwise::bitwise_not(&t).rhai());
    r.method_and_function("bitwise_not", 0, |x, _| {
        // The operator `~` refuses floats in Python's words (a TypeError); the op itself
        // has no kernel for them.
        if x.dtype().is_floating_point() || x.dtype().is_complex() {
            return Err(crate::ops::errors::to_rhai(
                crate::core::unbuilt_kernels::not_built("bitwise_not_cpu", x.dtype()),
            ));
        }
        Ok(Dynamic::from(pointwise::bitwise_not(x).rhai()?))
    });
}

/// `torch.maximum(x, other)` / `minimum`, which `max`/`min` given a tensor are.
pub fn elementwise_extreme(x: &Tensor, other: &Tensor, max: bool) -> RhaiResult<Dynamic> {
    let out = crate::core::pointwise::extreme_of(x, other, max).rhai()?;
    let name = if max {
        "MaximumBackward0"
    } else {
        "MinimumBackward0"
    };
    let (a, b) = (Arg::Tensor(x.clone()), Arg::Tensor(other.clone()));
    tracked::pair(&out, name, &a, &b, move |g, v| {
        pointwise_grads::extreme_grads(g, v, max)
    });
    Ok(Dynamic::from(out))
}

/// Which bounds a clamp takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bounds {
    /// `clamp`, `clip`: `min` and `max`, either optional.
    Both,
    /// `clamp_min`.
    Min,
    /// `clamp_max`.
    Max,
}

/// The bounds of a clamp call, and PyTorch's node name for its result (the tensor
/// overloads have their own: `ClampBackward0`, `ClampMinBackward1`, ...).
fn clamp_bounds(
    a: &Args,
    which: Bounds,
    name: &str,
) -> RhaiResult<(Option<Arg>, Option<Arg>, &'static str)> {
    let (min, max) = match which {
        Bounds::Both => (optional_arg(a, 0, "min")?, optional_arg(a, 1, "max")?),
        Bounds::Min => (Some(arg(a.req(0, "min", name)?, "min")?), None),
        Bounds::Max => (None, Some(arg(a.req(0, "max", name)?, "max")?)),
    };
    let tensor = min
        .iter()
        .chain(max.iter())
        .any(|b| b.as_tensor().is_some());
    let node = match (which, tensor) {
        (Bounds::Both, true) => "ClampBackward0",
        (Bounds::Both, false) => "ClampBackward1",
        (Bounds::Min, false) => "ClampMinBackward0",
        (Bounds::Min, true) => "ClampMinBackward1",
        (Bounds::Max, false) => "ClampMaxBackward0",
        (Bounds::Max, true) => "ClampMaxBackward1",
    };
    Ok((min, max, node))
}

/// An in-place clamp's check, before anything is computed: the promoted type of `x` and
/// its bounds must cast back to `x`'s dtype. PyTorch names the dtype by its C++ type when
/// the bounds are numbers (`long int`), by its scalar type when one is a tensor (`Long`).
fn check_clamp_cast<'b>(
    x: &Tensor,
    bounds: impl Iterator<Item = &'b Arg> + Clone,
) -> RhaiResult<()> {
    let input = Arg::Tensor(x.clone());
    let mut ops = vec![crate::core::ops::operand(&input)];
    ops.extend(bounds.clone().map(crate::core::ops::operand));
    let common = crate::core::promotion::result_type(&ops).rhai()?;
    if crate::core::promotion::can_cast(common, x.dtype()) {
        return Ok(());
    }
    let tensor = bounds.into_iter().any(|b| b.as_tensor().is_some());
    let target = if tensor {
        x.dtype().cpp_name()
    } else {
        x.dtype().c_type_name()
    };
    Err(crate::ops::errors::to_rhai(
        crate::core::error::TorchError::runtime(format!(
            "result type {} can't be cast to the desired output type {target}",
            common.cpp_name()
        )),
    ))
}

/// The gradients of a clamp of `x` (the values clamped) for `x` and each tensor bound,
/// in that order, summed down to each one's sizes.
fn clamp_formula(
    x: Tensor,
    min: Option<Arg>,
    max: Option<Arg>,
) -> impl Fn(&Tensor) -> crate::core::error::Result<Vec<Option<Tensor>>> + 'static {
    let detach = |b: Option<Arg>| {
        b.map(|b| match b {
            Arg::Tensor(t) => Arg::Tensor(crate::core::tensor::graph::detached(&t)),
            other => other,
        })
    };
    let (min, max) = (detach(min), detach(max));
    move |g| {
        let tensors = min
            .iter()
            .chain(max.iter())
            .any(|b| b.as_tensor().is_some());
        let [gx, gmin, gmax] = if tensors {
            pointwise_grads::clamp_by_tensors_grads(g, &x, min.as_ref(), max.as_ref())?
        } else {
            let gx = pointwise_grads::clamp_by_numbers_grad(g, &x, min.as_ref(), max.as_ref())?;
            [gx, g.clone(), g.clone()]
        };
        let gx = crate::core::autograd::cast_grad(&sum_to(&gx, &x.sizes())?, x.dtype())?;
        let mut grads = vec![Some(gx)];
        for (bound, grad) in [(&min, gmin), (&max, gmax)] {
            if let Some(Arg::Tensor(b)) = bound {
                let summed = sum_to(&grad, &b.sizes())?;
                grads.push(Some(crate::core::autograd::cast_grad(&summed, b.dtype())?));
            }
        }
        Ok(grads)
    }
}

/// Records `out = clamp(x, min, max)` with its gradient formula.
fn record_clamp(out: &Tensor, node: &str, x: &Tensor, min: Option<Arg>, max: Option<Arg>) {
    let bounds: Vec<Tensor> = min
        .iter()
        .chain(max.iter())
        .filter_map(|b| b.as_tensor().cloned())
        .collect();
    let mut inputs = vec![x];
    inputs.extend(bounds.iter());
    if !autograd::any_requires_grad(&inputs) || !out.dtype().is_floating_point() {
        return;
    }
    let formula = clamp_formula(crate::core::tensor::graph::detached(x), min, max);
    autograd::record_formula(out, node, &inputs, &inputs, formula);
}

/// PyTorch's refusals to clamp with complex numbers (in any of the clamp ops' forms): a
/// complex tensor, a complex number as a bound (which clamp converts to a double), a
/// complex tensor as a bound (no `maximum`/`minimum` kernel for it).
///
/// `clamp_min`/`clamp_max` of a complex tensor by a tensor reach PyTorch's `maximum`/`minimum`
/// kernel, which names itself; `clamp` by two tensors reaches its own kernel, which has no
/// `Bool` form.
fn refuse_complex_clamp(
    x: &Tensor,
    which: Bounds,
    min: Option<&Arg>,
    max: Option<&Arg>,
) -> RhaiResult<()> {
    use crate::core::error::TorchError;
    let not_built = |kernel: &str, dtype| {
        Err(crate::ops::errors::to_rhai(
            crate::core::unbuilt_kernels::not_built(kernel, dtype),
        ))
    };
    if x.dtype().is_complex() {
        match (which, min, max) {
            (Bounds::Min, Some(Arg::Tensor(_)), _) => return not_built("maximum_cpu", x.dtype()),
            (Bounds::Max, _, Some(Arg::Tensor(_))) => return not_built("minimum_cpu", x.dtype()),
            _ => {}
        }
        return Err(crate::ops::errors::to_rhai(TorchError::not_implemented(
            "clamp is not supported for complex types",
        )));
    }
    for (bound, kernel) in [(min, "maximum_cpu"), (max, "minimum_cpu")] {
        match bound {
            Some(Arg::Number(crate::core::scalar::Scalar::Complex(c))) if c.im != 0.0 => {
                return Err(crate::ops::errors::to_rhai(TorchError::runtime(
                    "value cannot be converted to type double without overflow",
                )));
            }
            Some(Arg::Tensor(b)) if b.dtype().is_complex() => {
                return Err(crate::ops::errors::to_rhai(
                    crate::core::unbuilt_kernels::not_built(kernel, b.dtype()),
                ));
            }
            _ => {}
        }
    }
    if let (Some(Arg::Tensor(lo)), Some(Arg::Tensor(hi))) = (min, max)
        && [x.dtype(), lo.dtype(), hi.dtype()]
            .iter()
            .all(|d| *d == crate::core::dtype::DType::Bool)
    {
        return not_built("clamp_cpu", crate::core::dtype::DType::Bool);
    }
    Ok(())
}

/// `clamp`, `clip`, `clamp_min`, `clamp_max` and their in-place forms (methods and
/// `torch` functions), recorded under PyTorch's node names with their gradients.
fn register_clamps(r: &mut Registry) {
    for (name, which) in [
        ("clamp", Bounds::Both),
        ("clip", Bounds::Both),
        ("clamp_min", Bounds::Min),
        ("clamp_max", Bounds::Max),
    ] {
        let max_args = if which == Bounds::Both { 2 } else { 1 };
        r.method_and_function(name, max_args, move |x, a| {
            let (min, max, node) = clamp_bounds(&a, which, name)?;
            refuse_complex_clamp(x, which, min.as_ref(), max.as_ref())?;
            let out = pointwise::clamp(x, min.clone(), max.clone()).rhai()?;
            record_clamp(&out, node, x, min, max);
            Ok(Dynamic::from(out))
        });
        let in_place = format!("{name}_");
        r.method_and_function(&in_place, max_args, move |x, a| {
            let (min, max, node) = clamp_bounds(&a, which, name)?;
            let others: Vec<Tensor> = min
                .iter()
                .chain(max.iter())
                .filter_map(|b| b.as_tensor().cloned())
                .collect();
            check_clamp_cast(x, min.iter().chain(max.iter()))?;
            refuse_complex_clamp(x, which, min.as_ref(), max.as_ref())?;
            let out = pointwise::clamp(
                &crate::core::tensor::graph::detached(x),
                min.clone(),
                max.clone(),
            )
            .rhai()?;
            crate::core::ops::check_in_place_result(x, &out.sizes(), out.dtype()).rhai()?;
            let recorded = (x.requires_grad() || others.iter().any(Tensor::requires_grad))
                && x.dtype().is_floating_point();
            // The formula reads `x`'s values from before the write.
            let before = if recorded {
                Some(
                    crate::core::copy::clone_tensor(&crate::core::tensor::graph::detached(x))
                        .rhai()?,
                )
            } else {
                None
            };
            crate::core::copy::copy_(x, &out).rhai()?;
            if let Some(before) = before {
                let others: Vec<&Tensor> = others.iter().collect();
                let formula = clamp_formula(before, min, max);
                autograd::record_in_place(
                    x,
                    node,
                    &others,
                    BackwardOp::formula(others.len() + 1, formula),
                );
            }
            Ok(Dynamic::from(x.clone()))
        });
    }
}

/// `where(cond, x, y)`, recorded: each operand's gradient where it was chosen.
fn where_tracked(cond: &Tensor, x: Arg, y: Arg) -> RhaiResult<Dynamic> {
    let out = pointwise::where_(cond, &x, &y).rhai()?;
    let chosen = crate::core::tensor::graph::detached(cond);
    tracked::pair(&out, "WhereBackward0", &x, &y, move |g, _| {
        let zero = grad_ops::n(0.0);
        Ok((
            Some(grad_ops::select(&chosen, grad_ops::t(g), zero.clone())?),
            Some(grad_ops::select(&chosen, zero, grad_ops::t(g))?),
        ))
    });
    Ok(Dynamic::from(out))
}

/// Registers the functions and operators.
pub fn register(r: &mut Registry) {
    let binaries: [(&str, &str, BinaryFn); 3] = [
        ("**", "pow", pointwise::pow),
        ("%", "remainder", pointwise::remainder),
        ("", "floor_divide", floor_divide),
    ];
    for (symbol, name, f) in binaries {
        if !symbol.is_empty() {
            register_operator(r, symbol, move |a, b| apply_tracked(f, a, b));
            // `x **= y`, `x %= y`: PyTorch's `__ipow__`/`__imod__`, the same as `pow_`.
            let assign = format!("{symbol}=");
            register_in_place_operator(r, &assign, move |x, y| apply_in_place(f, x, y));
        }
        let parameter = if name == "pow" { "exponent" } else { "other" };
        r.method_and_function(name, 1, move |x, a| {
            let other = arg(a.req(0, parameter, name)?, parameter)?;
            // `torch.pow(2, t)` is pow's overload for a number base.
            let base = if name == "pow" {
                super::math::receiver(x)?
            } else {
                Arg::Tensor(x.clone())
            };
            Ok(Dynamic::from(apply_tracked(f, base, other)?))
        });
        // `pow_`, `remainder_`, `floor_divide_` (Python's `//=`).
        let in_place = format!("{name}_");
        r.method(&in_place, 1, move |x, a| {
            let other = arg(a.req(0, parameter, name)?, parameter)?;
            apply_in_place(f, x, other)?;
            Ok(Dynamic::from(x.clone()))
        });
    }
    register_bitwise(r);
    for (name, max) in [("maximum", true), ("minimum", false)] {
        r.method_and_function(name, 1, move |x, a| {
            let other = a.tensor(0, "other", name)?;
            elementwise_extreme(x, &other, max)
        });
    }
    for (name, class) in [
        ("isnan", FloatClass::Nan),
        ("isinf", FloatClass::Inf),
        ("isfinite", FloatClass::Finite),
    ] {
        r.method_and_function(name, 0, move |x, _| {
            Ok(Dynamic::from(pointwise::classify(x, class).rhai()?))
        });
    }
    register_clamps(r);
    r.function("where", 3, |a| {
        let cond = to_tensor(a.req(0, "condition", "where")?, "condition")?;
        if a.pos.len() == 1 && a.kw.is_empty() {
            // `torch.where(condition)` is `condition.nonzero(as_tuple=True)`.
            let parts = crate::core::selection::nonzero_tuple(&cond).rhai()?;
            return Ok(Dynamic::from(crate::ops::convert::tensor_array(parts)));
        }
        let x = arg(a.req(1, "input", "where")?, "input")?;
        let y = arg(a.req(2, "other", "where")?, "other")?;
        where_tracked(&cond, x, y)
    });
    // `x.where(condition, y)` is `torch.where(condition, x, y)`.
    r.method("where", 2, |x, a| {
        let cond = to_tensor(a.req(0, "condition", "where")?, "condition")?;
        let y = arg(a.req(1, "other", "where")?, "other")?;
        where_tracked(&cond, Arg::Tensor(x.clone()), y)
    });
    let tolerances = |a: &Args| -> RhaiResult<(f64, f64, bool)> {
        let rtol = a.get(1, "rtol").map_or(Ok(1e-5), |v| to_float(v, "rtol"))?;
        let atol = a.get(2, "atol").map_or(Ok(1e-8), |v| to_float(v, "atol"))?;
        Ok((rtol, atol, a.bool_or(3, "equal_nan", false)?))
    };
    r.method_and_function("isclose", 4, move |x, a| {
        let y = to_tensor(a.req(0, "other", "isclose")?, "other")?;
        let (rtol, atol, nan) = tolerances(&a)?;
        Ok(Dynamic::from(
            pointwise::isclose(x, &y, rtol, atol, nan).rhai()?,
        ))
    });
    r.method_and_function("allclose", 4, move |x, a| {
        let y = to_tensor(a.req(0, "other", "allclose")?, "other")?;
        let (rtol, atol, nan) = tolerances(&a)?;
        let close = pointwise::isclose(x, &y, rtol, atol, nan).rhai()?;
        let all = crate::core::copy::to_scalars(&close).rhai()?;
        Ok(Dynamic::from(all.iter().all(|v| v.to_bool())))
    });
}
