//! Registering one tensor op as both a method (`x.view(2, 8)`) and a `torch` function
//! (`torch::transpose(x, 0, 1)`), from a single body.

use std::rc::Rc;

use rhai::{Dynamic, Engine, Module};

use super::args::{self, Args};
use super::convert;
use super::errors::RhaiResult;
use super::signature::{self, Form};
use crate::core::tensor::Tensor;

/// A tensor op's body: the tensor and the remaining arguments.
pub type TensorOp = Rc<dyn Fn(&Tensor, Args) -> RhaiResult<Dynamic>>;

/// Where the engine's registrations go: the global namespace (methods, operators) and the
/// `torch` module (functions, constants).
pub struct Registry<'a> {
    /// The engine (methods are global functions whose first argument is the receiver).
    pub engine: &'a mut Engine,
    /// The `torch` static module under construction.
    pub torch: &'a mut Module,
}

/// The argument check of `name` in one form: its declared signature, or else no more
/// positionals than the registration reads.
fn argument_check(
    name: &str,
    form: Form,
    max: usize,
) -> impl Fn(&Args) -> RhaiResult<()> + 'static {
    let signature = signature::lookup(name, form);
    let name = name.to_string();
    move |a| match signature {
        Some(sig) => signature::check(sig, a),
        None => a.at_most(&name, max),
    }
}

/// `body` followed by autograd recording of its tensor result (`grad_hook::track`).
fn tracked(
    name: &str,
    body: impl Fn(&Tensor, Args) -> RhaiResult<Dynamic> + 'static,
) -> impl Fn(&Tensor, Args) -> RhaiResult<Dynamic> + 'static {
    let name = name.to_string();
    move |t, a| {
        let had_args = !a.pos.is_empty() || !a.kw.is_empty();
        let out = body(t, a)?;
        if t.requires_grad()
            && let Some(result) = out.read_lock::<Tensor>()
        {
            super::grad_hook::track(&name, t, had_args, &result);
        }
        Ok(out)
    }
}

impl Registry<'_> {
    /// A tensor method only.
    pub fn method(
        &mut self,
        name: &str,
        max: usize,
        body: impl Fn(&Tensor, Args) -> RhaiResult<Dynamic> + 'static,
    ) {
        let check = argument_check(name, Form::Method, max);
        let op = tracked(name, body);
        args::method::<Tensor>(self.engine, name, max, move |t, a| {
            check(&a)?;
            op(t, a)
        });
    }

    /// A tensor method that is also `torch::name(tensor, ...)`.
    pub fn method_and_function(
        &mut self,
        name: &str,
        max: usize,
        body: impl Fn(&Tensor, Args) -> RhaiResult<Dynamic> + 'static,
    ) {
        let op: TensorOp = Rc::new(tracked(name, body));
        let m = op.clone();
        let check = argument_check(name, Form::Method, max);
        args::method::<Tensor>(self.engine, name, max, move |t, a| {
            check(&a)?;
            m(t, a)
        });
        // The function form is checked as a whole (input first), once.
        let check = argument_check(name, Form::Function, max + 1);
        args::function(self.torch, name, max + 1, move |mut a| {
            check(&a)?;
            let input = if a.pos.is_empty() {
                a.kw.remove("input").unwrap_or_default()
            } else {
                a.pos.remove(0)
            };
            let t = convert::to_tensor(&input, "input")?;
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
        args::function(self.torch, name, max, body);
    }
}
