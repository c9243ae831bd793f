//! Autograd, honestly minimal. Ops with a gradient formula record a node on their output
//! (`grad_fn`); `backward` walks the nodes from a scalar to the leaves and accumulates
//! `.grad` there. Formulas: sum and mean (all or over dims), add, sub, mul, div, neg, pow by
//! a number, clone, and every view op (one rule, below). An op recorded without a formula
//! raises a clear error if a gradient has to pass through it; nothing ever yields a wrong
//! gradient silently.
//!
//! The view rule: a view and its input are two layouts over one storage. The output's
//! gradient is added, element by element, into a zeroed storage of the same size at the
//! output's layout (adding, so stride-0 and overlapping views accumulate); reading that
//! storage at the input's layout gives the input's gradient.
//!
//! Formulas compute with untracked ops, so gradients never carry a graph of their own.

use std::rc::Rc;

use super::copy::{contiguous_copy, to_scalars};
use super::creation::full;
use super::dtype::DType;
use super::element;
use super::error::{Result, TorchError};
use super::ops::{Arg, BinaryOp, binary_untracked as binary};
use super::reduce::{Reduction, reduce};
use super::scalar::Scalar;
use super::storage::Storage;
use super::strided::for_each_run;
use super::tensor::Tensor;
use super::views::{expand, view};

/// Turns an output's gradient into one gradient per input (`None`: no gradient flows).
pub type BackwardFn = Rc<dyn Fn(&[Tensor], &Tensor) -> Result<Vec<Option<Tensor>>>>;

/// A recorded op: its PyTorch name (shown as `grad_fn=<…>`), inputs and formula.
pub struct GradNode {
    /// `SumBackward0`, ...
    pub name: String,
    /// The op's tensor inputs.
    pub inputs: Vec<Tensor>,
    /// The gradient formula.
    pub backward: BackwardFn,
}

impl std::fmt::Debug for GradNode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<{}>", self.name)
    }
}

/// True when any of `inputs` requires grad (so an op on them must record).
pub fn any_requires_grad(inputs: &[Tensor]) -> bool {
    inputs.iter().any(|t| t.requires_grad())
}

/// Marks `out` as produced by `name` from `inputs` when any input requires grad.
pub fn record(out: &Tensor, name: &str, inputs: &[Tensor], backward: BackwardFn) {
    if any_requires_grad(inputs) {
        let node = Rc::new(GradNode {
            name: name.to_string(),
            inputs: inputs.to_vec(),
            backward,
        });
        out.with_grad_mut(|g| {
            g.requires_grad = true;
            g.grad_fn = Some(node);
        });
    }
}

/// Records a one-input op whose formula maps (input, output gradient) to the input's
/// gradient.
fn record_one(
    out: &Tensor,
    name: &str,
    x: &Tensor,
    formula: impl Fn(&Tensor, &Tensor) -> Result<Tensor> + 'static,
) {
    record(
        out,
        name,
        std::slice::from_ref(x),
        Rc::new(move |inputs, g| Ok(vec![Some(formula(&inputs[0], g)?)])),
    );
}

/// Records an op tensh has no formula for: its output requires grad as in PyTorch, and
/// `backward` through it raises instead of guessing.
pub fn record_without_formula(out: &Tensor, name: &str, op: &str, inputs: &[Tensor]) {
    let op = op.to_string();
    record(
        out,
        name,
        inputs,
        Rc::new(move |_, _| {
            Err(TorchError::not_implemented(format!(
                "tensh has no gradient formula for {op}() yet, so backward() cannot pass through it"
            )))
        }),
    );
}

/// `grad` summed down to `sizes` (undoing broadcasting).
pub fn sum_to(grad: &Tensor, sizes: &[i64]) -> Result<Tensor> {
    let g = grad.sizes();
    if g == sizes {
        return Ok(grad.clone());
    }
    let lead = g.len() - sizes.len();
    let mut dims: Vec<i64> = (0..lead as i64).collect();
    for (i, &s) in sizes.iter().enumerate() {
        if s == 1 && g[lead + i] != 1 {
            dims.push((lead + i) as i64);
        }
    }
    let summed = if dims.is_empty() {
        grad.clone()
    } else {
        reduce(grad, Reduction::Sum, Some(&dims), true)?
    };
    let summed = if lead > 0 {
        let squeezed: Vec<i64> = summed.sizes()[lead..].to_vec();
        view(&contiguous_copy(&summed)?, &squeezed)?
    } else {
        summed
    };
    view(&contiguous_copy(&summed)?, sizes)
}

fn t(x: &Tensor) -> Arg {
    Arg::Tensor(x.clone())
}

/// Records `out = a op b` for `+ - * /`, where either side may be a number.
pub fn record_binary(out: &Tensor, op: BinaryOp, a: &Arg, b: &Arg) {
    let inputs: Vec<Tensor> = [a, b]
        .iter()
        .filter_map(|x| match x {
            Arg::Tensor(t) => Some(t.clone()),
            Arg::Number(_) => None,
        })
        .collect();
    if !any_requires_grad(&inputs) {
        return;
    }
    let (a, b) = (a.clone(), b.clone());
    let a_number = matches!(a, Arg::Number(_));
    let name = match op {
        BinaryOp::Add => "AddBackward0",
        BinaryOp::Sub if a_number => "RsubBackward1",
        BinaryOp::Sub => "SubBackward0",
        BinaryOp::Mul => "MulBackward0",
        // `1 / x` is a reciprocal times a number in PyTorch.
        BinaryOp::Div if a_number => "MulBackward0",
        BinaryOp::Div => "DivBackward0",
        _ => return,
    };
    let backward: BackwardFn = Rc::new(move |_, g| {
        let mut grads = Vec::new();
        let minus = Arg::Number(Scalar::Int(-1));
        let (ga, gb) = match op {
            BinaryOp::Add => (g.clone(), g.clone()),
            BinaryOp::Sub => (g.clone(), binary(BinaryOp::Mul, &t(g), &minus)?),
            BinaryOp::Mul => (
                binary(BinaryOp::Mul, &t(g), &b)?,
                binary(BinaryOp::Mul, &t(g), &a)?,
            ),
            _ => {
                let ga = binary(BinaryOp::Div, &t(g), &b)?;
                let b2 = binary(BinaryOp::Mul, &b, &b)?;
                let num = binary(BinaryOp::Mul, &t(g), &a)?;
                let gb = binary(
                    BinaryOp::Mul,
                    &t(&binary(BinaryOp::Div, &t(&num), &t(&b2))?),
                    &minus,
                )?;
                (ga, gb)
            }
        };
        for (side, grad) in [(&a, ga), (&b, gb)] {
            if let Arg::Tensor(x) = side {
                let reduced = sum_to(&grad, &x.sizes())?;
                grads.push(Some(cast_grad(&reduced, x.dtype())?));
            }
        }
        Ok(grads)
    });
    record(out, name, &inputs, backward);
}

/// A gradient in its input's dtype (gradients of float32 inputs stay float32).
fn cast_grad(g: &Tensor, d: DType) -> Result<Tensor> {
    if g.dtype() == d {
        Ok(g.clone())
    } else {
        super::copy::cast_copy(g, d)
    }
}

/// Records `out = -x`.
pub fn record_neg(out: &Tensor, x: &Tensor) {
    record_one(out, "NegBackward0", x, |_, g| {
        binary(BinaryOp::Mul, &t(g), &Arg::Number(Scalar::Int(-1)))
    });
}

/// Records `out = x ** e` for a number `e`.
pub fn record_pow(out: &Tensor, x: &Tensor, e: f64) {
    record_one(out, "PowBackward0", x, move |input, g| {
        let powered = super::pointwise::pow(&t(input), &Arg::Number(Scalar::Float(e - 1.0)))?;
        let scaled = binary(BinaryOp::Mul, &t(&powered), &Arg::Number(Scalar::Float(e)))?;
        let grad = binary(BinaryOp::Mul, &t(g), &t(&scaled))?;
        cast_grad(&grad, input.dtype())
    });
}

/// The output gradient expanded back over reduced dims (`keepdim` restored first).
fn expand_reduced(
    g: &Tensor,
    input: &[i64],
    dims: Option<&[i64]>,
    keepdim: bool,
) -> Result<Tensor> {
    let mut kept = input.to_vec();
    if let Some(d) = dims.filter(|d| !d.is_empty()) {
        for &dim in d {
            let w = super::error::wrap_dim(dim, input.len())?;
            kept[w] = 1;
        }
    } else {
        kept.iter_mut().for_each(|s| *s = 1);
    }
    let shaped = if keepdim || g.sizes() == kept {
        g.clone()
    } else {
        view(&contiguous_copy(g)?, &kept)?
    };
    contiguous_copy(&expand(&shaped, input)?)
}

fn record_reduction(out: &Tensor, x: &Tensor, dims: Option<&[i64]>, keepdim: bool, mean: bool) {
    let all = dims.is_none_or(|d| d.is_empty());
    let name = match (mean, all) {
        (false, true) => "SumBackward0",
        (false, false) => "SumBackward1",
        (true, true) => "MeanBackward0",
        (true, false) => "MeanBackward1",
    };
    let dims = dims.map(<[i64]>::to_vec);
    record_one(out, name, x, move |input, g| {
        let grad = expand_reduced(g, &input.sizes(), dims.as_deref(), keepdim)?;
        let grad = if mean {
            let count = input.numel() / g.numel().max(1);
            binary(BinaryOp::Div, &t(&grad), &Arg::Number(Scalar::Int(count)))?
        } else {
            grad
        };
        cast_grad(&grad, input.dtype())
    });
}

/// Records `out = x.sum(dims, keepdim)` (`None`: all elements).
pub fn record_sum(out: &Tensor, x: &Tensor, dims: Option<&[i64]>, keepdim: bool) {
    record_reduction(out, x, dims, keepdim, false);
}

/// Records `out = x.mean(dims, keepdim)`.
pub fn record_mean(out: &Tensor, x: &Tensor, dims: Option<&[i64]>, keepdim: bool) {
    record_reduction(out, x, dims, keepdim, true);
}

/// Records `out = x.clone()` (or a copying `contiguous`/`reshape`), whose gradient is the
/// output's, reshaped to the input's sizes.
pub fn record_copy(out: &Tensor, x: &Tensor, name: &str) {
    record_one(out, name, x, |input, g| {
        let shaped = view(&contiguous_copy(g)?, &input.sizes())?;
        cast_grad(&shaped, input.dtype())
    });
}

/// Records a view `out` of `x` (sharing its storage) with the view rule.
pub fn record_view(out: &Tensor, x: &Tensor, name: &str) {
    let out_layout = out.layout();
    record_one(out, name, x, move |input, g| {
        let d = input.dtype();
        let item = d.itemsize();
        let nbytes = input.storage().nbytes();
        let scratch = Storage::zeroed(nbytes)?;
        let grads = to_scalars(&cast_grad(g, d)?)?;
        let l = &out_layout;
        l.check_in_bounds(item, nbytes)?;
        // Row-major walk of the output's elements, matching `grads`' order.
        let mut values = grads.iter();
        scratch.with_bytes_mut(|bytes| {
            for_each_run(&l.sizes, [(&l.strides, l.offset)], |[start], n, [step]| {
                for (i, v) in (0..n as i64).zip(values.by_ref()) {
                    let at = &mut bytes[(start + i * step) as usize * item..];
                    let sum = add_scalars(element::read(d, at), *v);
                    element::write(d, at, sum);
                }
            });
        });
        let back = Tensor::from_parts(scratch, d, input.layout());
        contiguous_copy(&back)
    });
}

fn add_scalars(a: Scalar, b: Scalar) -> Scalar {
    match (a, b) {
        (Scalar::Complex(x), y) | (y, Scalar::Complex(x)) => Scalar::Complex(x + y.to_complex()),
        (x, y) => Scalar::Float(x.to_f64() + y.to_f64()),
    }
}

fn propagate(t: &Tensor, grad: Tensor) -> Result<()> {
    let state = t.grad_state();
    match state.grad_fn {
        Some(node) => {
            let grads = (node.backward)(&node.inputs, &grad)?;
            for (input, g) in node.inputs.iter().zip(grads) {
                if let Some(g) = g.filter(|_| input.requires_grad()) {
                    propagate(input, g)?;
                }
            }
            Ok(())
        }
        None if state.requires_grad => {
            let total = match state.grad {
                None => contiguous_copy(&grad)?,
                Some(old) => binary(BinaryOp::Add, &Arg::Tensor(old), &Arg::Tensor(grad))?,
            };
            t.with_grad_mut(|g| g.grad = Some(total));
            Ok(())
        }
        None => Ok(()),
    }
}

/// `t.backward()` from a one-element tensor.
pub fn backward(t: &Tensor) -> Result<()> {
    if t.numel() != 1 {
        return Err(TorchError::runtime(
            "grad can be implicitly created only for scalar outputs",
        ));
    }
    if !t.requires_grad() {
        return Err(TorchError::runtime(
            "element 0 of tensors does not require grad and does not have a grad_fn",
        ));
    }
    let seed = full(&t.sizes(), Scalar::Int(1), t.dtype())?;
    propagate(t, seed)
}

/// PyTorch's error for an in-place op on a leaf that requires grad.
pub fn check_inplace(t: &Tensor) -> Result<()> {
    let s = t.grad_state();
    if s.requires_grad && s.grad_fn.is_none() {
        return Err(TorchError::runtime(
            "a leaf Variable that requires grad is being used in an in-place operation.",
        ));
    }
    Ok(())
}
