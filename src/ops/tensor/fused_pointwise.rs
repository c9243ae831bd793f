//! `lerp`, `addcmul` and `addcdiv` (`core::fused_pointwise`) as methods, `torch` functions
//! and in-place forms, recorded with their gradient formulas under PyTorch's node names.

use rhai::Dynamic;

use crate::core::autograd::{cast_grad, sum_to};
use crate::core::error::Result;
use crate::core::fused_pointwise::{Addc, addc, lerp};
use crate::core::ops::{Arg, BinaryOp, binary_untracked as binary};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::{BackwardOp, GradFormula, detached};
use crate::core::tensor::record::{record_formula, record_in_place};
use crate::ops::args::Args;
use crate::ops::convert::to_scalar;
use crate::ops::errors::{IntoRhai, RhaiResult};
use crate::ops::registry::Registry;

/// One gradient: `g` times the factors, summed to `like`'s shape and cast to its dtype.
fn grad_for(g: &Tensor, factors: &[Arg], like: &Tensor) -> Result<Option<Tensor>> {
    let mut grad = g.clone();
    for f in factors {
        grad = binary(BinaryOp::Mul, &Arg::Tensor(grad), f)?;
    }
    let summed = sum_to(&grad, &like.sizes())?;
    Ok(Some(cast_grad(&summed, like.dtype())?))
}

/// `lerp`'s gradients: `1 - weight` for `start`, `weight` for `end`, `end - start` for a
/// weight tensor.
fn lerp_formula(
    start: &Tensor,
    end: &Tensor,
    weight: &Arg,
) -> impl Fn(&Tensor) -> Result<Vec<Option<Tensor>>> + 'static {
    let (s, e) = (detached(start), detached(end));
    let w = match weight {
        Arg::Tensor(t) => Arg::Tensor(detached(t)),
        number => number.clone(),
    };
    move |g| {
        let one_minus = binary(BinaryOp::Sub, &Arg::Number(Scalar::Int(1)), &w)?;
        let mut grads = vec![
            grad_for(g, &[Arg::Tensor(one_minus)], &s)?,
            grad_for(g, std::slice::from_ref(&w), &e)?,
        ];
        if let Arg::Tensor(wt) = &w {
            let diff = binary(
                BinaryOp::Sub,
                &Arg::Tensor(e.clone()),
                &Arg::Tensor(s.clone()),
            )?;
            grads.push(grad_for(g, &[Arg::Tensor(diff)], wt)?);
        }
        Ok(grads)
    }
}

/// `addcmul`'s and `addcdiv`'s gradients: 1 for `input`; for `t1` `value * t2` (or
/// `value / t2`); for `t2` `value * t1` (or `-value * t1 / t2²`).
fn addc_formula(
    op: Addc,
    input: &Tensor,
    t1: &Tensor,
    t2: &Tensor,
    value: Scalar,
) -> impl Fn(&Tensor) -> Result<Vec<Option<Tensor>>> + 'static {
    let (x, a, b) = (detached(input), detached(t1), detached(t2));
    move |g| {
        let v = Arg::Number(value);
        let (ga, gb) = match op {
            Addc::Mul => (
                grad_for(g, &[v.clone(), Arg::Tensor(b.clone())], &a)?,
                grad_for(g, &[v, Arg::Tensor(a.clone())], &b)?,
            ),
            Addc::Div => {
                let inverse = binary(BinaryOp::Div, &v, &Arg::Tensor(b.clone()))?;
                let b2 = binary(
                    BinaryOp::Mul,
                    &Arg::Tensor(b.clone()),
                    &Arg::Tensor(b.clone()),
                )?;
                let quotient = binary(BinaryOp::Div, &Arg::Tensor(a.clone()), &Arg::Tensor(b2))?;
                let scaled = binary(BinaryOp::Mul, &Arg::Tensor(quotient), &v)?;
                let negated = binary(
                    BinaryOp::Mul,
                    &Arg::Tensor(scaled),
                    &Arg::Number(Scalar::Int(-1)),
                )?;
                (
                    grad_for(g, &[Arg::Tensor(inverse)], &a)?,
                    grad_for(g, &[Arg::Tensor(negated)], &b)?,
                )
            }
        };
        Ok(vec![grad_for(g, &[], &x)?, ga, gb])
    }
}

/// Records `out` (or the write into `x` when `in_place`) under `node` with `formula`.
fn finish(
    x: &Tensor,
    out: Tensor,
    in_place: bool,
    node: &str,
    others: &[&Tensor],
    formula: impl Fn(&Tensor) -> Result<Vec<Option<Tensor>>> + 'static,
) -> RhaiResult<Dynamic> {
    if in_place {
        // Written through `x`: no element of `x` twice, none an input's element elsewhere.
        crate::core::copy::check_no_internal_overlap(&x.layout()).rhai()?;
        for other in others {
            crate::core::overlap::check_no_partial_overlap(x, other).rhai()?;
        }
        crate::core::ops::check_in_place_result(x, &out.sizes(), out.dtype()).rhai()?;
        crate::core::copy::copy_(x, &out).rhai()?;
        let op = BackwardOp::Formula {
            inputs: 1 + others.len(),
            grads: GradFormula(std::rc::Rc::new(formula)),
        };
        record_in_place(x, node, others, op);
        return Ok(Dynamic::from(x.clone()));
    }
    let mut inputs = vec![x];
    inputs.extend_from_slice(others);
    record_formula(&out, node, &inputs, &inputs, formula);
    Ok(Dynamic::from(out))
}

/// `x.lerp_(end, weight)`'s check of its output's shape, which PyTorch makes after the
/// operands' dtypes are found equal and before the kernel is picked (so an integer
/// `x` of the wrong shape hears of the shape).
fn check_lerp_output(x: &Tensor, end: &Tensor, weight: &Arg) -> crate::core::error::Result<()> {
    let weight_dtype_agrees = match weight {
        Arg::Tensor(w) => w.ndim() == 0 || w.dtype() == x.dtype(),
        Arg::Number(_) => true,
    };
    if end.dtype() != x.dtype() || !weight_dtype_agrees {
        return Ok(());
    }
    let mut shape = crate::core::broadcast::broadcast_shapes(&x.sizes(), &end.sizes())?;
    if let Arg::Tensor(w) = weight {
        shape = crate::core::broadcast::broadcast_shapes(&shape, &w.sizes())?;
    }
    crate::core::ops::check_in_place_result(x, &shape, x.dtype())
}

/// A `lerp` call (method, in place or function; `x` is `self`/`input`).
fn lerp_call(x: &Tensor, a: &Args, func: &str) -> RhaiResult<Dynamic> {
    let end = a.tensor(0, "end", func)?;
    let w = a.req(1, "weight", func)?;
    let weight = match w.clone().try_cast::<Tensor>() {
        Some(t) => Arg::Tensor(t),
        None => Arg::Number(to_scalar(w, "weight")?),
    };
    if func.ends_with('_') {
        check_lerp_output(x, &end, &weight).rhai()?;
    }
    let out = lerp(&detached(x), &detached(&end), &weight).rhai()?;
    let (node, others): (&str, Vec<&Tensor>) = match &weight {
        Arg::Tensor(wt) => ("LerpBackward1", vec![&end, wt]),
        Arg::Number(_) => ("LerpBackward0", vec![&end]),
    };
    let formula = lerp_formula(x, &end, &weight);
    finish(x, out, func.ends_with('_'), node, &others, formula)
}

/// An `addcmul`/`addcdiv` call.
fn addc_call(op: Addc, x: &Tensor, a: &Args, func: &str) -> RhaiResult<Dynamic> {
    let t1 = a.tensor(0, "tensor1", func)?;
    let t2 = a.tensor(1, "tensor2", func)?;
    let value = match a.kw("value") {
        Some(v) if !v.is_unit() => to_scalar(v, "value")?,
        _ => Scalar::Int(1),
    };
    let out = addc(op, &detached(x), &detached(&t1), &detached(&t2), value).rhai()?;
    let node = match op {
        Addc::Mul => "AddcmulBackward0",
        Addc::Div => "AddcdivBackward0",
    };
    let formula = addc_formula(op, x, &t1, &t2, value);
    finish(x, out, func.ends_with('_'), node, &[&t1, &t2], formula)
}

/// Registers the three ops and their in-place forms.
pub fn register(r: &mut Registry) {
    r.method_and_function("lerp", 2, |x, a| lerp_call(x, &a, "lerp"));
    r.method("lerp_", 2, |x, a| lerp_call(x, &a, "lerp_"));
    for (op, name, in_place) in [
        (Addc::Mul, "addcmul", "addcmul_"),
        (Addc::Div, "addcdiv", "addcdiv_"),
    ] {
        r.method_and_function(name, 2, move |x, a| addc_call(op, x, &a, name));
        r.method(in_place, 2, move |x, a| addc_call(op, x, &a, in_place));
    }
}
