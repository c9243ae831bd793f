//! The `torch::autograd` module's functions, as op-table paths both fronts call:
//! `grad(outputs, inputs, ...)` (the gradients returned, no `.grad` touched) and
//! `backward(tensors, grad_tensors, ..., inputs=)` (several outputs in one walk, or only
//! some inputs), over `core::autograd`'s walks.

use std::rc::Rc;

use rhai::Dynamic;

use crate::core::error::TorchError;
use crate::core::tensor::Tensor;
use crate::core::tensor::hooks::{HookRunner, NoHooks};
use crate::ops::args::Args;
use crate::ops::convert::py_type_name;
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai, type_error};
use crate::ops::op_table::OpTable;

/// A tensor or a sequence of tensors (`outputs`, `inputs`), in PyTorch's words when it is
/// neither.
fn tensors(v: &Dynamic, what: &str) -> RhaiResult<Vec<Tensor>> {
    if let Some(t) = v.clone().try_cast::<Tensor>() {
        return Ok(vec![t]);
    }
    let Some(items) = v.clone().try_cast::<rhai::Array>() else {
        return Err(type_error(format!(
            "'{}' object is not iterable",
            py_type_name(v)
        )));
    };
    items
        .into_iter()
        .map(|item| {
            item.clone().try_cast::<Tensor>().ok_or_else(|| {
                type_error(format!(
                    "{what} must be Tensors, not {}",
                    py_type_name(&item)
                ))
            })
        })
        .collect()
}

/// The gradients the outputs start from: one per output, `None` where none is given.
fn output_gradients(v: Option<&Dynamic>, count: usize) -> RhaiResult<Vec<Option<Tensor>>> {
    let Some(v) = v else {
        return Ok(vec![None; count]);
    };
    let given: Vec<Option<Tensor>> = if let Some(t) = v.clone().try_cast::<Tensor>() {
        vec![Some(t)]
    } else if let Some(items) = v.clone().try_cast::<rhai::Array>() {
        items
            .into_iter()
            .map(|item| {
                if item.is_unit() {
                    Ok(None)
                } else {
                    item.clone().try_cast::<Tensor>().map(Some).ok_or_else(|| {
                        type_error(format!(
                            "gradients can be either Tensors or None, but got {}",
                            py_type_name(&item)
                        ))
                    })
                }
            })
            .collect::<RhaiResult<_>>()?
    } else {
        return Err(type_error(format!(
            "gradients can be either Tensors or None, but got {}",
            py_type_name(v)
        )));
    };
    if given.len() != count {
        return Err(to_rhai(TorchError::runtime(format!(
            "grad requires one grad_output per output: got {} tensors and {} gradients",
            count,
            given.len()
        ))));
    }
    Ok(given)
}

/// A flag argument (`retain_graph=`, `allow_unused=`): Python's truth of a bool or `None`.
fn flag(a: &Args, i: usize, name: &str) -> Option<bool> {
    a.get(i, name).map(|v| v.as_bool().unwrap_or(true))
}

/// `create_graph=True` is refused in words: tensh's gradient formulas are not recorded.
fn refuse_create_graph(a: &Args, i: usize) -> RhaiResult<()> {
    if flag(a, i, "create_graph") == Some(true) {
        return Err(to_rhai(TorchError::not_implemented(
            "tensh's autograd does not record the backward pass yet (create_graph=True): higher-order gradients are not built",
        )));
    }
    Ok(())
}

/// A call of `torch.autograd.grad` or `torch.autograd.backward`, read and checked, to be
/// run with the calling front's hooks (Python's front runs Python hooks met on the way).
#[derive(Clone)]
pub enum AutogradRequest {
    /// `grad(...)`.
    Grad {
        /// Each output with the gradient it starts from.
        pairs: Vec<(Tensor, Option<Tensor>)>,
        /// The tensors whose gradients are returned.
        inputs: Vec<Tensor>,
        /// `retain_graph=`.
        retain: bool,
        /// `materialize_grads=`: zeros for an input no path reaches.
        materialize: bool,
        /// `allow_unused=`: `None` for an input no path reaches.
        allow_unused: bool,
    },
    /// `backward(...)`.
    Backward {
        /// Each output with the gradient it starts from.
        pairs: Vec<(Tensor, Option<Tensor>)>,
        /// `inputs=`: the only tensors whose `.grad` is added to.
        inputs: Option<Vec<Tensor>>,
        /// `retain_graph=`.
        retain: bool,
    },
}

impl AutogradRequest {
    /// The function's name under `torch` (its declaration's) and how many arguments it
    /// reads, for a request of `grad` (`true`) or `backward`.
    pub fn declared(grad: bool) -> (&'static str, usize) {
        if grad {
            ("autograd::grad", 9)
        } else {
            ("autograd::backward", 6)
        }
    }

    /// `torch.autograd.grad(outputs, inputs, grad_outputs=None, retain_graph=None,
    /// create_graph=False, only_inputs=True, allow_unused=None, is_grads_batched=False,
    /// materialize_grads=False)`.
    pub fn read_grad(a: &Args) -> RhaiResult<AutogradRequest> {
        let outputs = tensors(a.req(0, "outputs", "grad")?, "outputs")?;
        let inputs = tensors(a.req(1, "inputs", "grad")?, "inputs")?;
        let gradients = output_gradients(a.get(2, "grad_outputs"), outputs.len())?;
        refuse_create_graph(a, 4)?;
        if flag(a, 7, "is_grads_batched") == Some(true) {
            return Err(to_rhai(TorchError::not_implemented(
                "tensh's autograd.grad does not take is_grads_batched=True yet",
            )));
        }
        let materialize = flag(a, 8, "materialize_grads") == Some(true);
        if materialize && flag(a, 6, "allow_unused") == Some(false) {
            return Err(to_rhai(TorchError::value(
                "Expected allow_unused to be True or not passed when materialize_grads=True, but got: allow_unused=False.",
            )));
        }
        Ok(AutogradRequest::Grad {
            pairs: outputs.into_iter().zip(gradients).collect(),
            inputs,
            retain: flag(a, 3, "retain_graph").unwrap_or(false),
            materialize,
            allow_unused: flag(a, 6, "allow_unused").unwrap_or(materialize),
        })
    }

    /// `torch.autograd.backward(tensors, grad_tensors=None, retain_graph=None,
    /// create_graph=False, grad_variables=None, inputs=None)`.
    pub fn read_backward(a: &Args) -> RhaiResult<AutogradRequest> {
        let outputs = tensors(a.req(0, "tensors", "backward")?, "tensors")?;
        let gradients = output_gradients(a.get(1, "grad_tensors"), outputs.len())?;
        refuse_create_graph(a, 3)?;
        let inputs = match a.get(5, "inputs") {
            None => None,
            Some(v) => {
                let given = tensors(v, "inputs")?;
                if given.is_empty() {
                    return Err(to_rhai(TorchError::runtime(
                        "'inputs' argument to backward() cannot be empty.",
                    )));
                }
                Some(given)
            }
        };
        Ok(AutogradRequest::Backward {
            pairs: outputs.into_iter().zip(gradients).collect(),
            inputs,
            retain: flag(a, 2, "retain_graph").unwrap_or(false),
        })
    }

    /// Runs the walk, calling hooks met through `runner`: `grad`'s tuple of gradients,
    /// or `()` for `backward`.
    pub fn run(&self, runner: &mut dyn HookRunner) -> RhaiResult<Dynamic> {
        match self {
            AutogradRequest::Backward {
                pairs,
                inputs,
                retain,
            } => {
                crate::core::autograd::backward_many(pairs, inputs.as_deref(), *retain, runner)
                    .rhai()?;
                Ok(Dynamic::UNIT)
            }
            AutogradRequest::Grad {
                pairs,
                inputs,
                retain,
                materialize,
                allow_unused,
            } => {
                let found = crate::core::autograd::grad(pairs, inputs, *retain, runner).rhai()?;
                let mut result = rhai::Array::with_capacity(found.len());
                for (i, (g, x)) in found.into_iter().zip(inputs).enumerate() {
                    result.push(match g {
                        Some(g) => Dynamic::from(g),
                        None if *materialize => Dynamic::from(
                            crate::core::creation::full(
                                &x.sizes(),
                                crate::core::scalar::Scalar::Int(0),
                                x.dtype(),
                            )
                            .rhai()?,
                        ),
                        None if *allow_unused => Dynamic::UNIT,
                        None => {
                            return Err(to_rhai(TorchError::runtime(format!(
                                "The differentiated Tensor at index {i} appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior."
                            ))));
                        }
                    });
                }
                Ok(Dynamic::from(result))
            }
        }
    }
}

/// Adds the `torch::autograd` sub-module's functions to `ops`.
pub fn add_autograd(ops: &mut OpTable) {
    for grad in [true, false] {
        let (path, max) = AutogradRequest::declared(grad);
        let read = if grad {
            AutogradRequest::read_grad
        } else {
            AutogradRequest::read_backward
        };
        let name = path.trim_start_matches("autograd::");
        ops.submodule_function(
            "autograd",
            name,
            max,
            Rc::new(move |a| read(&a)?.run(&mut NoHooks)),
        );
    }
}
