//! Registering one tensor op as both a method (`x.view(2, 8)`) and a `torch` function
//! (`torch::transpose(x, 0, 1)`), from a single body.

use std::rc::Rc;

use rhai::{Dynamic, Engine, Module};

use super::args::Args;
use super::errors::RhaiResult;
use super::op_table::OpTable;
use crate::core::tensor::Tensor;

pub use super::op_table::{TensorOp, TensorOpBody};

/// Where the engine's registrations go: the global namespace (operators, the methods of
/// other receivers), the `torch` module (constants and a few functions), and the op table
/// (tensor methods and `torch` functions, which the engine registers when a program names
/// them and the Python front calls directly: `op_table`).
pub struct Registry<'a> {
    /// The engine (methods are global functions whose first argument is the receiver).
    pub engine: &'a mut Engine,
    /// The `torch` static module under construction.
    pub torch: &'a mut Module,
    /// Tensor methods and `torch` functions.
    pub ops: &'a mut OpTable,
}

/// `body` followed by autograd recording of its tensor result (`grad_hook::track`).
/// The body is boxed first, so this wrapper is compiled once, not once per op.
fn tracked(name: &str, body: Box<TensorOpBody>) -> TensorOp {
    let name = name.to_string();
    Rc::new(move |t, a| {
        let had_args = !a.pos.is_empty() || !a.kw.is_empty();
        let out = body(t, a)?;
        if t.requires_grad()
            && let Some(result) = out.read_lock::<Tensor>()
        {
            super::grad_hook::track(&name, t, had_args, &result);
        }
        Ok(out)
    })
}

/// PyTorch's other names for ops (`alias`, `name`): registering `name` registers `alias`
/// with the same body (so the same checks, results and autograd nodes), as a method and,
/// where `name` is also a `torch` function or listed in `TORCH_IN_PLACE`, as one.
const ALIASES: &[(&str, &str)] = &[
    ("absolute", "abs"),
    ("absolute_", "abs_"),
    ("arccos", "acos"),
    ("arccos_", "acos_"),
    ("arcsin", "asin"),
    ("arcsin_", "asin_"),
    ("arctan", "atan"),
    ("arctan_", "atan_"),
    ("arccosh", "acosh"),
    ("arccosh_", "acosh_"),
    ("arcsinh", "asinh"),
    ("arcsinh_", "asinh_"),
    ("arctanh", "atanh"),
    ("arctanh_", "atanh_"),
    ("divide", "div"),
    ("divide_", "div_"),
    ("true_divide", "div"),
    ("true_divide_", "div_"),
    ("multiply", "mul"),
    ("multiply_", "mul_"),
    ("subtract", "sub"),
    ("subtract_", "sub_"),
    ("greater", "gt"),
    ("greater_", "gt_"),
    ("greater_equal", "ge"),
    ("greater_equal_", "ge_"),
    ("less", "lt"),
    ("less_", "lt_"),
    ("less_equal", "le"),
    ("less_equal_", "le_"),
    ("not_equal", "ne"),
    ("not_equal_", "ne_"),
    ("fix", "trunc"),
    ("fix_", "trunc_"),
];

/// In-place methods PyTorch also has as `torch` functions (`torch.exp_(x)`).
const TORCH_IN_PLACE: &[&str] = &[
    "abs_",
    "acos_",
    "arccos_",
    "acosh_",
    "arccosh_",
    "asin_",
    "arcsin_",
    "asinh_",
    "arcsinh_",
    "atan_",
    "arctan_",
    "atanh_",
    "arctanh_",
    "ceil_",
    "cos_",
    "cosh_",
    "exp_",
    "exp2_",
    "expm1_",
    "fix_",
    "floor_",
    "frac_",
    "log_",
    "log10_",
    "log1p_",
    "log2_",
    "reciprocal_",
    "relu_",
    "round_",
    "rsqrt_",
    "sigmoid_",
    "sin_",
    "sinh_",
    "sqrt_",
    "square_",
    "tan_",
    "tanh_",
    "trunc_",
    "resize_as_",
    "conj_physical_",
    "nan_to_num_",
    "logit_",
    "addmv_",
    "deg2rad_",
    "rad2deg_",
    "erf_",
    "erfc_",
    "sinc_",
    "i0_",
    "fill_",
    "zero_",
    "detach_",
];

/// `name` followed by its aliases.
fn names_of(name: &str) -> impl Iterator<Item = &str> {
    std::iter::once(name).chain(
        ALIASES
            .iter()
            .filter(move |(_, n)| *n == name)
            .map(|(a, _)| *a),
    )
}

impl Registry<'_> {
    /// A tensor method only (and a `torch` function for the in-place forms PyTorch has
    /// there), with its aliases.
    pub fn method(
        &mut self,
        name: &str,
        max: usize,
        body: impl Fn(&Tensor, Args) -> RhaiResult<Dynamic> + 'static,
    ) {
        let op = tracked(name, Box::new(body));
        for n in names_of(name) {
            self.ops.method(n, max, op.clone());
            if TORCH_IN_PLACE.contains(&n) {
                self.ops.tensor_function(n, max, op.clone());
            }
        }
    }

    /// A tensor method that is also `torch::name(tensor, ...)`, with its aliases.
    pub fn method_and_function(
        &mut self,
        name: &str,
        max: usize,
        body: impl Fn(&Tensor, Args) -> RhaiResult<Dynamic> + 'static,
    ) {
        let op = tracked(name, Box::new(body));
        for n in names_of(name) {
            self.ops.method(n, max, op.clone());
            self.ops.tensor_function(n, max, op.clone());
        }
    }

    /// `torch::name(tensor, ...)` only: for what PyTorch has as a function but not as a
    /// method (`torch.real(x)`, where `x.real` is a property).
    pub fn tensor_function(
        &mut self,
        name: &str,
        max: usize,
        body: impl Fn(&Tensor, Args) -> RhaiResult<Dynamic> + 'static,
    ) {
        self.ops
            .tensor_function(name, max, tracked(name, Box::new(body)));
    }

    /// A `torch` function only.
    pub fn function(
        &mut self,
        name: &str,
        max: usize,
        body: impl Fn(Args) -> RhaiResult<Dynamic> + 'static,
    ) {
        self.ops.function(name, max, Rc::new(body));
    }
}
