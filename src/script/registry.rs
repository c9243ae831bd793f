//! Registering one tensor op as both a method (`x.view(2, 8)`) and a `torch` function
//! (`torch::transpose(x, 0, 1)`), from a single body.

use std::rc::Rc;

use rhai::{Dynamic, Engine, Module};

use super::args::Args;
use super::convert;
use super::errors::RhaiResult;
use super::registration;
use super::signature;
use crate::core::tensor::Tensor;

/// A tensor op's body: the tensor and the remaining arguments.
pub type TensorOp = Rc<TensorOpBody>;

/// The function behind a [`TensorOp`].
pub type TensorOpBody = dyn Fn(&Tensor, Args) -> RhaiResult<Dynamic>;

/// Where the engine's registrations go: the global namespace (methods, operators) and the
/// `torch` module (functions, constants).
pub struct Registry<'a> {
    /// The engine (methods are global functions whose first argument is the receiver).
    pub engine: &'a mut Engine,
    /// The `torch` static module under construction.
    pub torch: &'a mut Module,
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
    "deg2rad_",
    "rad2deg_",
    "erf_",
    "erfc_",
    "sinc_",
];

/// `name` followed by its aliases.
fn names_of(name: &str) -> Vec<&str> {
    let mut names = vec![name];
    names.extend(ALIASES.iter().filter(|(_, n)| *n == name).map(|(a, _)| *a));
    names
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
            let m = op.clone();
            registration::method::<Tensor>(self.engine, n, max, move |t, a| m(t, a));
            if TORCH_IN_PLACE.contains(&n) {
                self.function_of_tensor(n, max, op.clone());
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
            let m = op.clone();
            registration::method::<Tensor>(self.engine, n, max, move |t, a| m(t, a));
            self.function_of_tensor(n, max, op.clone());
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
        self.function_of_tensor(name, max, tracked(name, Box::new(body)));
    }

    fn function_of_tensor(&mut self, name: &str, max: usize, op: TensorOp) {
        // Checked as a whole (input first), against `torch.name`.
        let numbers_as_input = signature::lookup("torch", name).is_some_and(|d| d.numbers());
        registration::function(self.torch, name, max + 1, move |mut a| {
            let input = a.take_first("input");
            let t = if numbers_as_input && !input.is::<Tensor>() && !input.is_unit() {
                // `torch.add(1, 2)`: PyTorch's arithmetic takes a number as its input too.
                let s = convert::to_scalar(&input, "input")?;
                let dtype = crate::core::creation::scalar_dtype(s);
                crate::core::creation::full(&[], s, dtype).map_err(super::errors::to_rhai)?
            } else {
                convert::to_tensor(&input, "input")?
            };
            op(&t, a)
        });
    }

    /// A `torch` function only.
    pub fn function(
        &mut self,
        name: &str,
        max: usize,
        body: impl Fn(Args) -> RhaiResult<Dynamic> + 'static,
    ) {
        registration::function(self.torch, name, max, body);
    }
}
