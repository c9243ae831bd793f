//! Autograd, honestly minimal: ops with a gradient formula record a node on their output;
//! `backward` walks the nodes from a scalar to the leaves and accumulates `.grad` there.
//! Today only `sum` has a formula; other ops do not record, so their outputs do not require
//! grad and `backward` through them raises PyTorch's "does not require grad" error rather than
//! ever producing a wrong gradient.

use std::rc::Rc;

use super::copy::{contiguous_copy, copy_};
use super::error::{Result, TorchError};
use super::ops::{Arg, BinaryOp, binary};
use super::scalar::Scalar;
use super::tensor::Tensor;

/// How to turn an output's gradient into its inputs' gradients.
pub type BackwardFn = fn(inputs: &[Tensor], grad_out: &Tensor) -> Result<Vec<Tensor>>;

/// A recorded op: its PyTorch name (shown as `grad_fn=<…>`), inputs and formula.
pub struct GradNode {
    /// `SumBackward0`, ...
    pub name: &'static str,
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

/// Marks `out` as produced by `name` from `inputs` when any input requires grad.
pub fn record(out: &Tensor, name: &'static str, inputs: &[Tensor], backward: BackwardFn) {
    if inputs.iter().any(|t| t.grad_state().requires_grad) {
        let node = Rc::new(GradNode {
            name,
            inputs: inputs.to_vec(),
            backward,
        });
        out.with_grad_mut(|g| {
            g.requires_grad = true;
            g.grad_fn = Some(node);
        });
    }
}

/// `sum`'s formula: the output's gradient, broadcast to the input's shape.
/// (`copy_` broadcasts the one-element gradient.)
pub fn sum_backward(inputs: &[Tensor], grad_out: &Tensor) -> Result<Vec<Tensor>> {
    let input = &inputs[0];
    let grad = Tensor::zeros(input.sizes(), input.dtype())?;
    copy_(&grad, grad_out)?;
    Ok(vec![grad])
}

fn propagate(t: &Tensor, grad: Tensor) -> Result<()> {
    let state = t.grad_state();
    match state.grad_fn {
        Some(node) => {
            let grads = (node.backward)(&node.inputs, &grad)?;
            for (input, g) in node.inputs.iter().zip(grads) {
                if input.grad_state().requires_grad {
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
    if !t.grad_state().requires_grad {
        return Err(TorchError::runtime(
            "element 0 of tensors does not require grad and does not have a grad_fn",
        ));
    }
    let seed = super::creation::full(&t.sizes(), Scalar::Int(1), t.dtype())?;
    propagate(t, seed)
}
