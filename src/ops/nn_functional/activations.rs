//! `torch.nn.functional`'s activations and softmaxes. Each computes through the op it is
//! in ATen: `core::activation` for the functions with kernels of their own, the table's
//! tensor ops for the ones PyTorch composes (`tanhshrink` is `x - x.tanh()`, so its node
//! is `SubBackward0` as PyTorch's is).

use std::rc::Rc;

use rhai::Dynamic;

use super::{Functions, call, number, tensor};
use crate::core::activation::{Activation, activation};
use crate::core::autograd::tracked;
use crate::core::dtype::DType;
use crate::core::error::TorchError;
use crate::core::tensor::Tensor;
use crate::ops::args::Args;
use crate::ops::convert::{py_type_name, to_dtype};
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai, type_error};
use crate::ops::op_table::TensorOp;
use crate::ops::registration::FunctionBody;
use crate::ops::tensor::in_place_writes;

/// `SELU`'s constants (Klambauer et al.), as PyTorch's `selu` passes them to `elu`.
const SELU_ALPHA: f64 = 1.673_263_242_354_377_3;
const SELU_SCALE: f64 = 1.050_700_987_355_480_5;

/// `inplace=` at position `i`.
fn inplace(a: &Args, i: usize) -> RhaiResult<bool> {
    match a.get(i, "inplace") {
        None => Ok(false),
        Some(v) => Ok(v.as_bool().unwrap_or_else(|_| !v.is_unit())),
    }
}

/// `f(x)`, written into `x` when `in_place` (recorded under `f`'s node).
fn apply(x: &Tensor, f: Activation, in_place: bool) -> RhaiResult<Dynamic> {
    if !in_place {
        return Ok(Dynamic::from(activation(x, f).rhai()?));
    }
    // A leaf that requires grad takes no in-place write (PyTorch's check comes first).
    crate::core::tensor::record::check_inplace(x).rhai()?;
    let source = in_place_writes::source(x, &[]).rhai()?;
    let out = activation(&source, f).rhai()?;
    in_place_writes::write_back_named(x, &[], &out, Some(f.in_place_node()))?;
    Ok(Dynamic::from(x.clone()))
}

/// The activations that take `(input, inplace=False)` with no parameters of their own.
const PLAIN: &[(&str, Activation)] = &[
    ("silu", Activation::Silu),
    ("mish", Activation::Mish),
    ("hardsigmoid", Activation::Hardsigmoid),
    ("hardswish", Activation::Hardswish),
    ("relu6", Activation::Hardtanh { min: 0.0, max: 6.0 }),
    (
        "selu",
        Activation::Elu {
            alpha: SELU_ALPHA,
            scale: SELU_SCALE,
            input_scale: 1.0,
            celu: false,
        },
    ),
];

/// Adds the activations and softmaxes.
pub fn add_all(f: &mut Functions) {
    for &(name, function) in PLAIN {
        f.add(
            name,
            2,
            Rc::new(move |a| apply(&tensor(&a, 0, "input", name)?, function, inplace(&a, 1)?)),
        );
    }
    let (relu, relu_) = (f.op("relu"), f.op("relu_"));
    f.add(
        "relu",
        2,
        Rc::new(move |a| {
            let x = tensor(&a, 0, "input", "relu")?;
            if inplace(&a, 1)? {
                crate::core::tensor::record::check_inplace(&x).rhai()?;
                return relu_(&x, Args::default());
            }
            relu(&x, Args::default())
        }),
    );
    f.add(
        "elu",
        3,
        Rc::new(|a| {
            let x = tensor(&a, 0, "input", "elu")?;
            let alpha = number(&a, 1, "alpha", "elu", 1.0)?;
            let f = Activation::Elu {
                alpha,
                scale: 1.0,
                input_scale: 1.0,
                celu: false,
            };
            apply(&x, f, inplace(&a, 2)?)
        }),
    );
    f.add(
        "celu",
        3,
        Rc::new(|a| {
            let x = tensor(&a, 0, "input", "celu")?;
            let alpha = number(&a, 1, "alpha", "celu", 1.0)?;
            if alpha == 0.0 {
                return Err(to_rhai(TorchError::runtime(
                    "ZeroDivisionError: alpha cannot be 0 for CELU",
                )));
            }
            let f = Activation::Elu {
                alpha,
                scale: 1.0,
                input_scale: 1.0 / alpha,
                celu: true,
            };
            apply(&x, f, inplace(&a, 2)?)
        }),
    );
    f.add(
        "gelu",
        2,
        Rc::new(|a| {
            let x = tensor(&a, 0, "input", "gelu")?;
            let tanh = match a.kw("approximate") {
                None => false,
                Some(v) => match v.clone().into_string() {
                    Ok(s) if s == "none" => false,
                    Ok(s) if s == "tanh" => true,
                    Ok(_) => {
                        return Err(to_rhai(TorchError::runtime(
                            "approximate argument must be either none or tanh.",
                        )));
                    }
                    Err(_) => {
                        return Err(type_error(format!(
                            "gelu(): argument 'approximate' must be str, not {}",
                            py_type_name(v)
                        )));
                    }
                },
            };
            Ok(Dynamic::from(
                activation(&x, Activation::Gelu { tanh }).rhai()?,
            ))
        }),
    );
    f.add(
        "hardtanh",
        4,
        Rc::new(|a| {
            let x = tensor(&a, 0, "input", "hardtanh")?;
            let min = number(&a, 1, "min_val", "hardtanh", -1.0)?;
            let max = number(&a, 2, "max_val", "hardtanh", 1.0)?;
            if min > max {
                return Err(to_rhai(TorchError::value(
                    "min_val cannot be greater than max_val",
                )));
            }
            apply(&x, Activation::Hardtanh { min, max }, inplace(&a, 3)?)
        }),
    );
    for (name, soft) in [("hardshrink", false), ("softshrink", true)] {
        f.add(
            name,
            2,
            Rc::new(move |a| {
                let x = tensor(&a, 0, "input", name)?;
                let lambd = number(&a, 1, "lambd", name, 0.5)?;
                if soft && lambd < 0.0 && x.dtype().is_floating_point() {
                    let max = if x.dtype() == DType::Float64 {
                        f64::MAX
                    } else {
                        f64::from(f32::MAX)
                    };
                    return Err(to_rhai(TorchError::runtime(format!(
                        "lambda must be in range [0, {}] for input dtype {}, but found {}",
                        crate::core::cpp_format::stream_double(max),
                        x.dtype().cpp_name(),
                        crate::core::cpp_format::stream_double(lambd)
                    ))));
                }
                let f = if soft {
                    Activation::Softshrink(lambd)
                } else {
                    Activation::Hardshrink(lambd)
                };
                Ok(Dynamic::from(activation(&x, f).rhai()?))
            }),
        );
    }
    f.add(
        "leaky_relu",
        3,
        Rc::new(|a| {
            let x = tensor(&a, 0, "input", "leaky_relu")?;
            let slope = number(&a, 1, "negative_slope", "leaky_relu", 0.01)?;
            apply(&x, Activation::LeakyRelu(slope), inplace(&a, 2)?)
        }),
    );
    f.add(
        "softplus",
        3,
        Rc::new(|a| {
            let x = tensor(&a, 0, "input", "softplus")?;
            let beta = number(&a, 1, "beta", "softplus", 1.0)?;
            let threshold = number(&a, 2, "threshold", "softplus", 20.0)?;
            Ok(Dynamic::from(
                activation(&x, Activation::Softplus { beta, threshold }).rhai()?,
            ))
        }),
    );
    f.add(
        "threshold",
        4,
        Rc::new(|a| {
            let x = tensor(&a, 0, "input", "threshold")?;
            a.req(1, "threshold", "_threshold")?;
            a.req(2, "value", "_threshold")?;
            let threshold = number(&a, 1, "threshold", "threshold", 0.0)?;
            let value = number(&a, 2, "value", "threshold", 0.0)?;
            apply(
                &x,
                Activation::Threshold { threshold, value },
                inplace(&a, 3)?,
            )
        }),
    );
    f.add(
        "logsigmoid",
        1,
        Rc::new(|a| {
            let x = tensor(&a, 0, "input", "log_sigmoid")?;
            Ok(Dynamic::from(
                activation(&x, Activation::LogSigmoid).rhai()?,
            ))
        }),
    );
    for name in ["sigmoid", "tanh"] {
        let op = f.op(name);
        f.add(
            name,
            1,
            Rc::new(move |a| op(&tensor(&a, 0, "input", name)?, Args::default())),
        );
    }
    let (tanh, sub, abs, add_op, div) = (
        f.op("tanh"),
        f.op("sub"),
        f.op("abs"),
        f.op("add"),
        f.op("div"),
    );
    f.add(
        "tanhshrink",
        1,
        Rc::new(move |a| {
            let x = tensor(&a, 0, "input", "tanhshrink")?;
            let t = call(&tanh, &x, vec![])?;
            Ok(Dynamic::from(call(&sub, &x, vec![Dynamic::from(t)])?))
        }),
    );
    f.add(
        "softsign",
        1,
        Rc::new(move |a| {
            let x = tensor(&a, 0, "input", "softsign")?;
            let magnitude = call(&abs, &x, vec![])?;
            let below = call(&add_op, &magnitude, vec![Dynamic::from(1_i64)])?;
            Ok(Dynamic::from(call(&div, &x, vec![Dynamic::from(below)])?))
        }),
    );
    f.add("glu", 2, Rc::new(glu));
    let relu_in_place = f.op("relu_");
    f.add(
        "relu_",
        1,
        Rc::new(move |a| {
            let x = tensor(&a, 0, "input", "relu_")?;
            crate::core::tensor::record::check_inplace(&x).rhai()?;
            relu_in_place(&x, Args::default())
        }),
    );
    f.add("elu_", 4, in_place("elu_", elu_parameters));
    f.add("celu_", 2, in_place("celu_", celu_parameters));
    f.add("selu_", 1, in_place("selu_", |_| Ok(PLAIN[5].1)));
    f.add(
        "leaky_relu_",
        2,
        in_place("leaky_relu_", |a| {
            Ok(Activation::LeakyRelu(number(
                a,
                1,
                "negative_slope",
                "leaky_relu_",
                0.01,
            )?))
        }),
    );
    f.add(
        "hardtanh_",
        3,
        in_place("hardtanh_", |a| {
            Ok(Activation::Hardtanh {
                min: number(a, 1, "min_val", "hardtanh_", -1.0)?,
                max: number(a, 2, "max_val", "hardtanh_", 1.0)?,
            })
        }),
    );
    f.add(
        "threshold_",
        3,
        in_place("threshold_", |a| {
            Ok(Activation::Threshold {
                threshold: number(a, 1, "threshold", "threshold_", 0.0)?,
                value: number(a, 2, "value", "threshold_", 0.0)?,
            })
        }),
    );
    let neg = f.op("neg");
    for (name, log, negate) in [
        ("softmax", false, false),
        ("log_softmax", true, false),
        ("softmin", false, true),
    ] {
        f.add(
            name,
            4,
            Rc::new({
                let neg = neg.clone();
                move |a| softmax(&a, name, log, negate.then_some(&neg))
            }),
        );
    }
}

/// The in-place form `name(input, ...)` of the activation `parameters` reads.
fn in_place(name: &'static str, parameters: fn(&Args) -> RhaiResult<Activation>) -> FunctionBody {
    Rc::new(move |a| apply(&tensor(&a, 0, "input", name)?, parameters(&a)?, true))
}

/// `elu_(input, alpha=1, scale=1, input_scale=1)`'s activation.
fn elu_parameters(a: &Args) -> RhaiResult<Activation> {
    Ok(Activation::Elu {
        alpha: number(a, 1, "alpha", "elu_", 1.0)?,
        scale: number(a, 2, "scale", "elu_", 1.0)?,
        input_scale: number(a, 3, "input_scale", "elu_", 1.0)?,
        celu: false,
    })
}

/// `celu_(input, alpha=1.0)`'s activation.
fn celu_parameters(a: &Args) -> RhaiResult<Activation> {
    let alpha = number(a, 1, "alpha", "celu_", 1.0)?;
    if alpha == 0.0 {
        return Err(to_rhai(TorchError::runtime(
            "ZeroDivisionError: alpha cannot be 0 for CELU",
        )));
    }
    Ok(Activation::Elu {
        alpha,
        scale: 1.0,
        input_scale: 1.0 / alpha,
        celu: true,
    })
}

/// `glu(input, dim=-1)`: the first half along `dim` times the sigmoid of the second,
/// recorded as PyTorch's one node.
fn glu(a: Args) -> RhaiResult<Dynamic> {
    let x = tensor(&a, 0, "input", "glu")?;
    let dim = match a.get(1, "dim") {
        None => -1,
        Some(v) => crate::ops::convert::to_int(v, "dim")?,
    };
    if x.ndim() == 0 {
        return Err(to_rhai(TorchError::runtime(
            "glu does not support scalars because halving size must be even",
        )));
    }
    let d = crate::core::error::wrap_dim(dim, x.ndim()).rhai()?;
    let size = x.sizes()[d];
    if size % 2 != 0 {
        return Err(to_rhai(TorchError::runtime(format!(
            "Halving dimension must be even, but dimension {d} is size {size}"
        ))));
    }
    let half = size / 2;
    let first = crate::core::views::narrow(&x, d as i64, 0, half).rhai()?;
    let second = crate::core::views::narrow(&x, d as i64, half, half).rhai()?;
    let gate =
        crate::core::unary::unary(&second, crate::core::unary_math::Unary::Sigmoid).rhai()?;
    let out = crate::core::autograd::grad_ops::mul(
        crate::core::autograd::grad_ops::t(&first),
        crate::core::autograd::grad_ops::t(&gate),
    )
    .rhai()?;
    let (first, second) = (
        crate::core::tensor::graph::detached(&first),
        crate::core::tensor::graph::detached(&second),
    );
    tracked::single(&out, "GluBackward0", &x, move |g, _| {
        glu_gradient(g, &first, &second, d)
    });
    Ok(Dynamic::from(out))
}

/// `glu`'s gradient: `[g * sigmoid(b), g * a * sigmoid(b) * (1 - sigmoid(b))]` along `d`.
fn glu_gradient(
    g: &Tensor,
    a: &Tensor,
    b: &Tensor,
    d: usize,
) -> crate::core::error::Result<Tensor> {
    use crate::core::autograd::grad_ops::{mul, n, sub, t};
    let s = crate::core::unary::unary(b, crate::core::unary_math::Unary::Sigmoid)?;
    let ga = mul(t(g), t(&s))?;
    let one_minus = sub(n(1.0), t(&s))?;
    let gb = mul(t(&mul(t(&mul(t(g), t(a))?), t(&s))?), t(&one_minus))?;
    crate::core::join::cat(&[ga, gb], d as i64)
}

/// `softmax`, `log_softmax` and `softmin` (`softmax(-input)`): `dim=None` picks PyTorch's
/// legacy dim with its deprecation warning.
fn softmax(a: &Args, name: &str, log: bool, negate: Option<&TensorOp>) -> RhaiResult<Dynamic> {
    let v = a.req(0, "input", name)?;
    let Some(mut x) = v.clone().try_cast::<Tensor>() else {
        return Err(to_rhai(TorchError::new(
            crate::core::error::ErrorKind::Attribute,
            format!("'{}' object has no attribute '{name}'", py_type_name(v)),
        )));
    };
    let dim = match a.get(1, "dim") {
        Some(v) => crate::ops::convert::to_int(v, "dim")?,
        None => {
            crate::ops::warnings::warn(&format!(
                "Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an argument."
            ));
            if matches!(x.ndim(), 0 | 1 | 3) { 0 } else { 1 }
        }
    };
    let dtype = match a.get(3, "dtype") {
        Some(v) => Some(to_dtype(v)?),
        None => None,
    };
    if let Some(neg) = negate {
        x = call(neg, &x, vec![])?;
    }
    Ok(Dynamic::from(
        crate::core::softmax::softmax(&x, dim, dtype, log).rhai()?,
    ))
}
