//! `torch.nn.functional`, as entries of the op table under `torch::nn::functional`: both
//! fronts call them (`F.relu(x)` in Python, `torch::nn::functional::relu(x)` in Rhai).
//! Each checks its arguments as PyTorch's Python function and the C function behind it
//! do, in their words. `activations` holds the activations and softmaxes, `losses` the
//! losses, `layers` `linear`, `one_hot` and `normalize`, `dropout` the dropouts (and
//! `torch.dropout` and its kin, which it adds to `torch`).

mod activations;
mod dropout;
mod layers;
mod lookup_and_pad;
mod losses;

use std::rc::Rc;

use crate::core::error::TorchError;
use crate::ops::args::Args;
use crate::ops::convert::{as_scalar, py_type_name};
use crate::ops::errors::{RhaiResult, to_rhai, type_error};
use crate::ops::op_table::{OpTable, TensorOp};
use crate::ops::registration::FunctionBody;

pub(super) use crate::ops::args::parser_tensor as tensor;
pub(super) use crate::ops::op_table::call_tensor_op as call;

/// The module's path under `torch`, as declarations name its functions.
const PATH: &str = "nn::functional";

/// The op table the module's functions are added to.
pub struct Functions<'a> {
    ops: &'a mut OpTable,
}

impl Functions<'_> {
    /// Adds `name` (reading at most `max` arguments).
    fn add(&mut self, name: &str, max: usize, body: FunctionBody) {
        self.ops.submodule_function(PATH, name, max, body);
    }

    /// The table's tensor op `name` (registered before this module is made).
    fn op(&self, name: &str) -> TensorOp {
        match self.ops.tensor_op(name) {
            Some(op) => op,
            None => {
                let name = name.to_string();
                Rc::new(move |_, _| {
                    Err(to_rhai(TorchError::runtime(format!(
                        "torch.nn.functional needs the tensor op {name}, which is not registered"
                    ))))
                })
            }
        }
    }
}

/// Adds the `torch::nn::functional` module's functions to `ops`.
pub fn add_functional(ops: &mut OpTable) {
    let mut f = Functions { ops };
    activations::add_all(&mut f);
    losses::add_all(&mut f);
    dropout::add_all(&mut f);
    layers::add_all(&mut f);
    lookup_and_pad::add_all(&mut f);
}

/// The number argument `name` at position `i` of `func` (`default` when not given), in
/// PyTorch's words when it is no number.
pub(super) fn number(a: &Args, i: usize, name: &str, func: &str, default: f64) -> RhaiResult<f64> {
    let Some(v) = a.get(i, name) else {
        return Ok(default);
    };
    match as_scalar(v) {
        Some(s) if !matches!(s, crate::core::scalar::Scalar::Complex(_)) => Ok(s.to_f64()),
        _ => Err(type_error(format!(
            "{func}(): argument '{name}' (position {}) must be Number, not {}",
            i + 1,
            py_type_name(v)
        ))),
    }
}
