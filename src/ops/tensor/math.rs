//! Arithmetic and comparisons: the operators `+ - * /`, unary `-`, `== != < <= > >=` between
//! tensors and numbers, their method forms, the in-place forms, `sum` and `equal`.

use rhai::{Dynamic, FLOAT, INT};

use crate::core::ops::{self, Arg, BinaryOp};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::ops::args::Args;
use crate::ops::convert::{as_scalar, to_tensor};
use crate::ops::errors::{IntoRhai, RhaiResult, type_error};
use crate::ops::registry::Registry;
use crate::ops::values::PyComplex;

/// A tensor or a Python number as an operand.
pub fn arg(v: &Dynamic, what: &str) -> RhaiResult<Arg> {
    if let Some(t) = v.clone().try_cast::<Tensor>() {
        return Ok(Arg::Tensor(t));
    }
    as_scalar(v).map(Arg::Number).ok_or_else(|| {
        type_error(format!(
            "{what} must be Tensor or Number, not {}",
            crate::ops::convert::py_type_name(v)
        ))
    })
}

/// The receiver of an op with an overload for a number in its place (`pow`, `xlogy`,
/// `float_power`): the number itself when a `torch` function wrapped one
/// (`torch.pow(2, t)`), so the op computes, lays out and records as for a number.
pub fn receiver(x: &Tensor) -> RhaiResult<Arg> {
    if x.is_wrapped_number() {
        let value = crate::core::copy::to_scalars(x).rhai()?;
        if let Some(&n) = value.first() {
            return Ok(Arg::Number(n));
        }
    }
    Ok(Arg::Tensor(x.clone()))
}

fn apply(op: BinaryOp, a: Arg, b: Arg) -> RhaiResult<Tensor> {
    if op == BinaryOp::Div
        && let (Arg::Number(n), Arg::Tensor(t)) = (&a, &b)
    {
        return reverse_divide(*n, t).rhai();
    }
    if op == BinaryOp::Add && a.is_number() && !b.is_number() {
        // `n + t` is PyTorch's `t.add(n)`: `t + 1 * n`, whose complex product scales the
        // number, not the tensor (a NaN part of `t` stays in its own part).
        return ops::binary(op, &b, &a).rhai();
    }
    ops::binary(op, &a, &b).rhai()
}

/// `n / t` for a number `n`: as PyTorch's `Tensor.__rtruediv__` computes it, the
/// reciprocal of `t` times `n` (so its roundings, its infinities and its two recorded
/// nodes, `ReciprocalBackward0` then `MulBackward0`, are PyTorch's).
fn reverse_divide(n: Scalar, t: &Tensor) -> crate::core::error::Result<Tensor> {
    use crate::core::unary::{Unary, unary};
    let reciprocal = unary(t, Unary::Reciprocal)?;
    if t.requires_grad() && !reciprocal.dtype().is_integral() {
        crate::core::tensor::record::record_unary(&reciprocal, t, Unary::Reciprocal);
    }
    ops::binary(BinaryOp::Mul, &Arg::Tensor(reciprocal), &Arg::Number(n))
}

/// Registers the compound assignment `symbol` (`+=`) on a tensor as PyTorch's in-place
/// operator (`__iadd__`): `f` writes into the tensor itself, so every view sees it and the
/// `data_ptr` stays; Rhai would otherwise rebind the variable to a new tensor.
pub fn register_in_place_operator(
    r: &mut Registry,
    symbol: &str,
    f: impl Fn(&Tensor, Arg) -> RhaiResult<()> + Clone + Send + Sync + 'static,
) {
    // Every compound assignment is an in-place write: autograd's checks, and one version
    // once it is written.
    let f = move |x: &Tensor, y: Arg| -> RhaiResult<()> {
        crate::core::tensor::record::check_inplace(x).rhai()?;
        crate::core::tensor::record::counted_write(x, || f(x, y))
    };
    r.ops
        .direct
        .add_in_place_operator(symbol, std::rc::Rc::new(f.clone()));
    let engine = &mut *r.engine;
    let g = f.clone();
    engine.register_fn(symbol, move |x: &mut Tensor, y: Tensor| {
        g(x, Arg::Tensor(y))
    });
    let g = f.clone();
    engine.register_fn(symbol, move |x: &mut Tensor, y: INT| {
        g(x, Arg::Number(Scalar::Int(y)))
    });
    let g = f.clone();
    engine.register_fn(symbol, move |x: &mut Tensor, y: FLOAT| {
        g(x, Arg::Number(Scalar::Float(y)))
    });
    let g = f.clone();
    engine.register_fn(symbol, move |x: &mut Tensor, y: bool| {
        g(x, Arg::Number(Scalar::Bool(y)))
    });
    engine.register_fn(symbol, move |x: &mut Tensor, y: PyComplex| {
        f(x, Arg::Number(Scalar::Complex(y.0)))
    });
}

/// Registers the operator `symbol` between a tensor and a tensor or a Python number (int,
/// float, bool, complex), on either side, computed by `f`.
pub fn register_operator(
    r: &mut Registry,
    symbol: &str,
    f: impl Fn(Arg, Arg) -> RhaiResult<Tensor> + Clone + Send + Sync + 'static,
) {
    r.ops
        .direct
        .add_operator(symbol, std::rc::Rc::new(f.clone()));
    let engine = &mut *r.engine;
    let g = f.clone();
    engine.register_fn(symbol, move |a: Tensor, b: Tensor| {
        g(Arg::Tensor(a), Arg::Tensor(b))
    });
    let g = f.clone();
    engine.register_fn(symbol, move |a: Tensor, b: INT| {
        g(Arg::Tensor(a), Arg::Number(Scalar::Int(b)))
    });
    let g = f.clone();
    engine.register_fn(symbol, move |a: Tensor, b: FLOAT| {
        g(Arg::Tensor(a), Arg::Number(Scalar::Float(b)))
    });
    let g = f.clone();
    engine.register_fn(symbol, move |a: Tensor, b: bool| {
        g(Arg::Tensor(a), Arg::Number(Scalar::Bool(b)))
    });
    let g = f.clone();
    engine.register_fn(symbol, move |a: Tensor, b: PyComplex| {
        g(Arg::Tensor(a), Arg::Number(Scalar::Complex(b.0)))
    });
    let g = f.clone();
    engine.register_fn(symbol, move |a: INT, b: Tensor| {
        g(Arg::Number(Scalar::Int(a)), Arg::Tensor(b))
    });
    let g = f.clone();
    engine.register_fn(symbol, move |a: FLOAT, b: Tensor| {
        g(Arg::Number(Scalar::Float(a)), Arg::Tensor(b))
    });
    let g = f.clone();
    engine.register_fn(symbol, move |a: bool, b: Tensor| {
        g(Arg::Number(Scalar::Bool(a)), Arg::Tensor(b))
    });
    engine.register_fn(symbol, move |a: PyComplex, b: Tensor| {
        f(Arg::Number(Scalar::Complex(a.0)), Arg::Tensor(b))
    });
}

/// The `other` operand: the first positional, or the second in the deprecated
/// `add(alpha, other)` form.
fn other_of<'a>(a: &'a Args, name: &str) -> RhaiResult<&'a Dynamic> {
    a.req(usize::from(a.pos.len() == 2), "other", name)
}

/// PyTorch's checks of `alpha` against the dtype of the result it scales into (`result`:
/// the promoted dtype for `add`, the receiver's for `add_`).
fn check_alpha(alpha: Scalar, result: crate::core::dtype::DType) -> RhaiResult<()> {
    let refuse = |m: &str| {
        Err(crate::ops::errors::to_rhai(
            crate::core::error::TorchError::runtime(m),
        ))
    };
    if matches!(alpha, Scalar::Bool(_)) && result != crate::core::dtype::DType::Bool {
        return refuse("Boolean alpha only supported for Boolean results.");
    }
    let floating = result.is_floating_point() || result.is_complex();
    if !floating && matches!(alpha, Scalar::Float(_) | Scalar::Complex(_)) {
        return refuse(
            "For integral input tensors, argument alpha must not be a floating point number.",
        );
    }
    if !result.is_complex() && matches!(alpha, Scalar::Complex(_)) {
        return refuse(
            "For non-complex input tensors, argument alpha must not be a complex number.",
        );
    }
    // Then alpha must convert to the result's dtype (`int8` takes no 300, `float16` no 1e10).
    crate::core::checked_scalar::check_converts(result, alpha, true).rhai()
}

/// `add`/`sub`'s `alpha=` keyword (declared only for those: the other ops' signatures
/// refuse it), after PyTorch's checks of `alpha` (`check_alpha`): `None` when absent or 1.
fn alpha_of(
    op: BinaryOp,
    x: &Tensor,
    other: &Arg,
    a: &Args,
    in_place: bool,
) -> RhaiResult<Option<Scalar>> {
    ops::check_sub_bool(op, &Arg::Tensor(x.clone()), other).rhai()?;
    // The deprecated overload `add(Number alpha, Tensor other)` gives alpha first.
    let alpha = if a.pos.len() == 2 {
        a.pos.first()
    } else {
        a.kw("alpha")
    };
    let Some(alpha) = alpha else {
        return Ok(None);
    };
    let alpha = crate::ops::convert::to_scalar(alpha, "alpha")?;
    let result = if in_place {
        x.dtype()
    } else {
        let operands = [ops::operand(&Arg::Tensor(x.clone())), ops::operand(other)];
        crate::core::promotion::result_type(&operands).rhai()?
    };
    check_alpha(alpha, result)?;
    Ok((!matches!(alpha, Scalar::Int(1))).then_some(alpha))
}

/// `other * alpha`, the operand `add`/`sub` then take where they do not fuse the two steps.
fn scaled(other: Arg, alpha: Option<Scalar>) -> RhaiResult<Arg> {
    let Some(alpha) = alpha else {
        return Ok(other);
    };
    Ok(match other {
        Arg::Tensor(t) => {
            Arg::Tensor(ops::binary(BinaryOp::Mul, &Arg::Tensor(t), &Arg::Number(alpha)).rhai()?)
        }
        Arg::Number(n) => Arg::Number(match (n, alpha) {
            (Scalar::Int(p), Scalar::Int(q)) => Scalar::Int(p.wrapping_mul(q)),
            (p, q) => Scalar::Float(p.to_f64() * q.to_f64()),
        }),
    })
}

/// `x + alpha * other` (`x - alpha * other` for `sub`) fused as PyTorch's kernel fuses it
/// (`fused_pointwise::add_scaled`), when both are tensors: recorded as `AddBackward0`
/// (`SubBackward0`) with `alpha` in the formula. `None` where the dtypes are not fused.
fn fused_add(
    op: BinaryOp,
    x: &Tensor,
    other: &Tensor,
    alpha: Scalar,
) -> RhaiResult<Option<Tensor>> {
    let factor = match (op, alpha) {
        (BinaryOp::Sub, Scalar::Int(i)) => Scalar::Int(i.wrapping_neg()),
        (BinaryOp::Sub, s) => Scalar::Float(-s.to_f64()),
        (_, s) => s,
    };
    let Some(out) = crate::core::fused_pointwise::add_scaled(x, other, factor).rhai()? else {
        return Ok(None);
    };
    let tracks = crate::core::tensor::grad_mode::is_enabled()
        && (x.requires_grad() || other.requires_grad());
    if tracks {
        let node = if op == BinaryOp::Sub {
            "SubBackward0"
        } else {
            "AddBackward0"
        };
        let shapes = [(x.sizes(), x.dtype()), (other.sizes(), other.dtype())];
        crate::core::tensor::record::record_formula(&out, node, &[x, other], &[], move |g| {
            use crate::core::autograd::{cast_grad, sum_to};
            let scaled_grad = ops::binary_untracked(
                BinaryOp::Mul,
                &Arg::Tensor(g.clone()),
                &Arg::Number(factor),
            )?;
            Ok(vec![
                Some(cast_grad(&sum_to(g, &shapes[0].0)?, shapes[0].1)?),
                Some(cast_grad(
                    &sum_to(&scaled_grad, &shapes[1].0)?,
                    shapes[1].1,
                )?),
            ])
        });
    }
    Ok(Some(out))
}

/// `div`'s `rounding_mode`: `None` for true division.
pub fn rounding_mode(a: &Args) -> RhaiResult<Option<crate::core::pointwise::Rounding>> {
    match a.kw("rounding_mode") {
        None => Ok(None),
        Some(v) if v.is_unit() => Ok(None),
        Some(v) => match v.clone().into_string().unwrap_or_default().as_str() {
            "trunc" => Ok(Some(crate::core::pointwise::Rounding::Trunc)),
            "floor" => Ok(Some(crate::core::pointwise::Rounding::Floor)),
            other => Err(crate::ops::errors::to_rhai(
                crate::core::error::TorchError::runtime(format!(
                    "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{other}'"
                )),
            )),
        },
    }
}

/// `torch.rsub(input, other, alpha=1)`: `other - alpha * input` (PyTorch's `alpha` checks
/// and messages, as `sub`'s), recorded as `RsubBackward0` (tensor `other`) or
/// `RsubBackward1` (number).
fn rsub(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let other = arg(a.req(0, "other", "rsub")?, "other")?;
    let input = Arg::Tensor(crate::core::tensor::graph::detached(x));
    ops::check_sub_bool(BinaryOp::Sub, &other, &input).rhai()?;
    let alpha = match a.get(1, "alpha") {
        Some(v) if !v.is_unit() => crate::ops::convert::to_scalar(v, "alpha")?,
        _ => Scalar::Int(1),
    };
    let result = crate::core::promotion::result_type(&[ops::operand(&input), ops::operand(&other)])
        .rhai()?;
    check_alpha(alpha, result)?;
    let scaled = if matches!(alpha, Scalar::Int(1)) {
        input
    } else {
        Arg::Tensor(ops::binary_untracked(BinaryOp::Mul, &input, &Arg::Number(alpha)).rhai()?)
    };
    let other_plain = match &other {
        Arg::Tensor(t) => Arg::Tensor(crate::core::tensor::graph::detached(t)),
        n => n.clone(),
    };
    let out = ops::binary_untracked(BinaryOp::Sub, &other_plain, &scaled).rhai()?;
    let tensors: Vec<Tensor> = std::iter::once(x.clone())
        .chain(other.as_tensor().cloned())
        .collect();
    if tensors.iter().any(Tensor::requires_grad) {
        let node = if tensors.len() == 2 {
            "RsubBackward0"
        } else {
            "RsubBackward1"
        };
        let shapes: Vec<(Vec<i64>, crate::core::dtype::DType)> =
            tensors.iter().map(|t| (t.sizes(), t.dtype())).collect();
        let inputs: Vec<&Tensor> = tensors.iter().collect();
        crate::core::tensor::record::record_formula(&out, node, &inputs, &[], move |g| {
            use crate::core::autograd::{cast_grad, sum_to};
            let negated = ops::binary_untracked(
                BinaryOp::Mul,
                &Arg::Tensor(g.clone()),
                &Arg::Number(-alpha),
            )?;
            let mut grads = vec![Some(cast_grad(
                &sum_to(&negated, &shapes[0].0)?,
                shapes[0].1,
            )?)];
            if let Some((sizes, dtype)) = shapes.get(1) {
                grads.push(Some(cast_grad(&sum_to(g, sizes)?, *dtype)?));
            }
            Ok(grads)
        });
    }
    Ok(Dynamic::from(out))
}

/// Registers operators and arithmetic methods.
pub fn register(r: &mut Registry) {
    r.tensor_function("rsub", 2, |x, a| rsub(x, &a));
    let table = [
        ("+", "add", BinaryOp::Add),
        ("-", "sub", BinaryOp::Sub),
        ("*", "mul", BinaryOp::Mul),
        ("/", "div", BinaryOp::Div),
        ("==", "eq", BinaryOp::Eq),
        ("!=", "ne", BinaryOp::Ne),
        ("<", "lt", BinaryOp::Lt),
        ("<=", "le", BinaryOp::Le),
        (">", "gt", BinaryOp::Gt),
        (">=", "ge", BinaryOp::Ge),
    ];
    for (symbol, op) in [
        ("+=", BinaryOp::Add),
        ("-=", BinaryOp::Sub),
        ("*=", BinaryOp::Mul),
        ("/=", BinaryOp::Div),
    ] {
        register_in_place_operator(r, symbol, move |x, y| ops::binary_(op, x, &y).rhai());
    }
    for (symbol, name, op) in table {
        register_operator(r, symbol, move |a, b| apply(op, a, b));
        r.method_and_function(name, 1, move |x, a: Args| {
            let other = arg(other_of(&a, name)?, "other")?;
            let alpha = alpha_of(op, x, &other, &a, false)?;
            if let (Some(alpha), Arg::Tensor(o)) = (alpha, &other)
                && let Some(out) = fused_add(op, x, o, alpha)?
            {
                return Ok(Dynamic::from(out));
            }
            let other = scaled(other, alpha)?;
            if op == BinaryOp::Div
                && let Some(mode) = rounding_mode(&a)?
            {
                let t = crate::core::pointwise::div_rounded(&Arg::Tensor(x.clone()), &other, mode);
                return Ok(Dynamic::from(t.rhai()?));
            }
            Ok(Dynamic::from(apply(op, Arg::Tensor(x.clone()), other)?))
        });
        if !matches!(
            op,
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div
        ) {
            // `x.gt_(y)` and the other comparisons: the truth values written back into `x`
            // in its dtype.
            r.method(&format!("{name}_"), 1, move |x, a: Args| {
                let other = arg(other_of(&a, name)?, "other")?;
                let out = ops::binary_untracked(op, &Arg::Tensor(x.clone()), &other).rhai()?;
                if out.sizes() != x.sizes() {
                    ops::check_in_place_result(x, &out.sizes(), x.dtype()).rhai()?;
                }
                crate::core::copy::copy_(x, &out).rhai()?;
                Ok(Dynamic::from(x.clone()))
            });
        }
        if matches!(
            op,
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div
        ) {
            let inplace = format!("{name}_");
            r.method(&inplace, 1, move |x, a: Args| {
                let other = arg(other_of(&a, name)?, "other")?;
                let alpha = alpha_of(op, x, &other, &a, true)?;
                let records = crate::core::tensor::grad_mode::is_enabled()
                    && (x.requires_grad() || other.as_tensor().is_some_and(Tensor::requires_grad));
                if let (Some(alpha), Arg::Tensor(o), false) = (alpha, &other, records) {
                    // Computed fused, then written back with `add_`'s checks (a recorded
                    // write takes the unfused path, whose checks and node are the op's).
                    if let Some(out) = fused_add(op, x, o, alpha)? {
                        ops::check_in_place_result(x, &out.sizes(), out.dtype()).rhai()?;
                        crate::core::copy::check_no_internal_overlap(&x.layout()).rhai()?;
                        crate::core::overlap::check_no_partial_overlap(x, o).rhai()?;
                        crate::core::copy::copy_(x, &out).rhai()?;
                        return Ok(Dynamic::from(x.clone()));
                    }
                }
                let other = scaled(other, alpha)?;
                if op == BinaryOp::Div
                    && let Some(mode) = rounding_mode(&a)?
                {
                    // `div_(y, rounding_mode=...)`: the rounded quotient written back, with
                    // the in-place shape and dtype checks.
                    if x.requires_grad() || other.as_tensor().is_some_and(Tensor::requires_grad) {
                        return Err(crate::ops::errors::to_rhai(
                            crate::core::error::TorchError::not_implemented(
                                "tensh has no gradient formula for div_ with rounding_mode",
                            ),
                        ));
                    }
                    let out =
                        crate::core::pointwise::div_rounded(&Arg::Tensor(x.clone()), &other, mode)
                            .rhai()?;
                    ops::check_in_place_result(x, &out.sizes(), out.dtype()).rhai()?;
                    crate::core::copy::copy_(x, &out).rhai()?;
                    return Ok(Dynamic::from(x.clone()));
                }
                ops::binary_(op, x, &other).rhai()?;
                Ok(Dynamic::from(x.clone()))
            });
        }
    }
    r.engine.register_fn("-", |a: Tensor| ops::neg(&a).rhai());
    r.method_and_function("neg", 0, |x, _| Ok(Dynamic::from(ops::neg(x).rhai()?)));
    r.method_and_function("negative", 0, |x, _| Ok(Dynamic::from(ops::neg(x).rhai()?)));
    for name in ["neg_", "negative_"] {
        r.method_and_function(name, 0, |x, _| Ok(Dynamic::from(ops::neg_(x).rhai()?)));
    }
    // `+x`: the tensor itself, refused for bools as PyTorch refuses it.
    r.method_and_function("positive", 0, |x, _| {
        if x.dtype() == crate::core::dtype::DType::Bool {
            return Err(crate::ops::errors::to_rhai(
                crate::core::error::TorchError::not_implemented(
                    "The `+` operator, on a bool tensor is not supported.",
                ),
            ));
        }
        Ok(Dynamic::from(x.clone()))
    });
    type Product = fn(&Tensor, &Tensor) -> crate::core::error::Result<Tensor>;
    let products: [(&str, &str, Product); 3] = [
        ("mm", "mat2", crate::core::linalg::mm),
        ("mv", "vec", crate::core::linalg::mv),
        ("bmm", "mat2", crate::core::linalg::bmm),
    ];
    for (name, other, f) in products {
        r.method_and_function(name, 2, move |x, a| {
            if a.pos.len() > 1 {
                return Err(crate::ops::errors::to_rhai(
                    crate::core::error::TorchError::not_implemented(format!(
                        "tensh does not implement {name}'s out_dtype yet"
                    )),
                ));
            }
            let y = to_tensor(a.req(0, other, name)?, other)?;
            Ok(Dynamic::from(f(x, &y).rhai()?))
        });
    }
    r.method_and_function("matmul", 1, |x, a| {
        let y = to_tensor(a.req(0, "other", "matmul")?, "other")?;
        Ok(Dynamic::from(crate::core::linalg::matmul(x, &y).rhai()?))
    });
    r.method_and_function("dot", 1, |x, a| {
        let y = to_tensor(a.req(0, "tensor", "dot")?, "tensor")?;
        Ok(Dynamic::from(crate::core::linalg::dot(x, &y).rhai()?))
    });
    r.function("equal", 2, |a| {
        let x = to_tensor(a.req(0, "input", "equal")?, "input")?;
        let y = to_tensor(a.req(1, "other", "equal")?, "other")?;
        Ok(Dynamic::from(ops::equal(&x, &y).rhai()?))
    });
    r.method("equal", 1, |x, a| {
        let y = to_tensor(a.req(0, "other", "equal")?, "other")?;
        Ok(Dynamic::from(ops::equal(x, &y).rhai()?))
    });
}
