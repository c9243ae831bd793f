//! The autograd surface the script sees: `requires_grad` flags and `backward()` (see
//! `core::autograd` for which ops record gradients).

use rhai::Dynamic;

use crate::core::error::TorchError;
use crate::core::layout::fmt_list;
use crate::core::tensor::Tensor;
use crate::ops::errors::{RhaiResult, to_rhai};

/// Where a `requires_grad` request comes from: PyTorch words the dtype error differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GradRequest {
    /// `requires_grad=True` when creating a tensor.
    Creation,
    /// `t.requires_grad_()`.
    Method,
    /// `t.requires_grad = flag`.
    Attribute,
}

/// Sets `requires_grad` on a leaf, with PyTorch's dtype rule and wording.
pub fn set_requires_grad(t: &Tensor, flag: bool, from: GradRequest) -> RhaiResult<()> {
    let d = t.dtype();
    if flag && !(d.is_floating_point() || d.is_complex()) {
        return Err(to_rhai(TorchError::runtime(match from {
            GradRequest::Creation => {
                "Only Tensors of floating point and complex dtype can require gradients"
            }
            GradRequest::Attribute => {
                "only Tensors of floating point and complex dtype can require gradients"
            }
            GradRequest::Method => "only Tensors of floating point dtype can require gradients",
        })));
    }
    let leaf = t.grad_state().grad_fn.is_none();
    if !leaf && flag && from == GradRequest::Attribute {
        return Err(to_rhai(TorchError::runtime(
            "you can only change requires_grad flags of leaf variables.",
        )));
    }
    if !leaf && !flag {
        return Err(to_rhai(TorchError::runtime(
            "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().",
        )));
    }
    t.with_grad_mut(|g| g.requires_grad = flag);
    Ok(())
}

/// `t.data = d`: `t` views `d`'s storage, dtype and layout from now on (its autograd
/// fields and version counter its own), with PyTorch's checks and words.
fn assign_data(t: &mut Tensor, d: Dynamic) -> RhaiResult<()> {
    let Some(d) = d.clone().try_cast::<Tensor>() else {
        return Err(crate::ops::errors::type_error(format!(
            "Variable data has to be a tensor, but got {}",
            crate::ops::convert::py_type_name(&d)
        )));
    };
    let dtype = d.dtype();
    if t.requires_grad() && !(dtype.is_floating_point() || dtype.is_complex()) {
        return Err(to_rhai(TorchError::runtime(
            "data set to a tensor that requires gradients must be floating point or complex dtype",
        )));
    }
    t.set_data(&d);
    Ok(())
}

/// `t.grad = g` (`()` clears it): PyTorch's checks of type, size and dtype; the tensor
/// itself becomes the gradient, so later backward passes add into it.
fn assign_grad(t: &Tensor, g: Dynamic) -> RhaiResult<()> {
    if g.is_unit() {
        t.with_grad_mut(|s| s.grad = None);
        return Ok(());
    }
    let Some(g) = g.clone().try_cast::<Tensor>() else {
        return Err(crate::ops::errors::type_error(format!(
            "assigned grad expected to be a Tensor or None but got grad of type {}",
            crate::ops::convert::py_type_name(&g)
        )));
    };
    if g.sizes() != t.sizes() {
        return Err(to_rhai(TorchError::runtime(format!(
            "attempting to assign a gradient of size '{}' to a tensor of size '{}'. Please ensure that the gradient and the tensor are the same size",
            fmt_list(&g.sizes()),
            fmt_list(&t.sizes())
        ))));
    }
    if g.dtype() != t.dtype() && (t.dtype().is_floating_point() || t.dtype().is_complex()) {
        return Err(to_rhai(TorchError::runtime(format!(
            "attempting to assign a gradient with dtype '{}' to a tensor with grad_dtype '{}'. The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its gradient may break downstream systems that assume they match.",
            g.dtype().c_type_name(),
            t.dtype().cpp_name()
        ))));
    }
    t.with_grad_mut(|s| s.grad = Some(g));
    Ok(())
}

/// Applies the creation keyword every factory takes: `requires_grad`.
pub fn finish(t: Tensor, a: &crate::ops::args::Args) -> RhaiResult<Dynamic> {
    if a.kw("requires_grad")
        .is_some_and(|v| v.as_bool().unwrap_or(false))
    {
        set_requires_grad(&t, true, GradRequest::Creation)?;
    }
    Ok(Dynamic::from(t))
}

/// `backward`'s `gradient`: a tensor, `None`, or a sequence of them (one per output, so
/// its first), with PyTorch's errors for anything else.
fn backward_gradient(g: Option<&Dynamic>) -> RhaiResult<Option<Tensor>> {
    let Some(g) = g.filter(|g| !g.is_unit()) else {
        return Ok(None);
    };
    if let Some(t) = g.clone().try_cast::<Tensor>() {
        return Ok(Some(t));
    }
    let Some(items) = g.clone().try_cast::<rhai::Array>() else {
        return Err(crate::ops::errors::type_error(format!(
            "'{}' object is not iterable",
            crate::ops::convert::py_type_name(g)
        )));
    };
    for item in &items {
        if !item.is_unit() && !item.is::<Tensor>() {
            return Err(crate::ops::errors::type_error(format!(
                "gradients can be either Tensors or None, but got {}",
                crate::ops::convert::py_type_name(item)
            )));
        }
    }
    match items.first() {
        None => Err(to_rhai(TorchError::runtime(
            "got 1 tensors and 0 gradients",
        ))),
        Some(first) => Ok(first.clone().try_cast::<Tensor>()),
    }
}

/// What a `backward(...)` call asks for, read from its arguments.
#[derive(Debug, Clone)]
pub struct BackwardRequest {
    /// The gradient to start from (`None`: ones, for a one-element tensor).
    pub gradient: Option<Tensor>,
    /// `retain_graph`.
    pub retain: bool,
}

impl BackwardRequest {
    /// Reads `backward`'s arguments. PyTorch's keywords are declared; what tensh has not
    /// built is refused, not ignored.
    pub fn read(a: &crate::ops::args::Args) -> RhaiResult<BackwardRequest> {
        let gradient = backward_gradient(a.get(0, "gradient"))?;
        let asked = |i: usize, name: &str| {
            a.get(i, name)
                .is_some_and(|v| !v.is_unit() && v.as_bool().unwrap_or(true))
        };
        if let Some(name) = [(2, "create_graph"), (3, "inputs")]
            .into_iter()
            .find_map(|(i, n)| asked(i, n).then_some(n))
        {
            return Err(to_rhai(TorchError::not_implemented(format!(
                "tensh does not implement the {name}= argument of backward()"
            ))));
        }
        // PyTorch reads the flag as C++ reads an integer: any int is true unless zero.
        let retain = match a.get(1, "retain_graph") {
            None => false,
            Some(v) if v.is_bool() => v.as_bool().unwrap_or(false),
            Some(v) if v.is_int() => v.as_int().unwrap_or(0) != 0,
            Some(v) => {
                return Err(crate::ops::errors::type_error(format!(
                    "'{}' object cannot be interpreted as an integer",
                    crate::ops::convert::py_type_name(v)
                )));
            }
        };
        Ok(BackwardRequest { gradient, retain })
    }

    /// Runs the walk from `x`, its hooks called by `runner`.
    pub fn run(
        &self,
        x: &Tensor,
        runner: &mut dyn crate::core::tensor::hooks::HookRunner,
    ) -> crate::core::error::Result<()> {
        crate::core::autograd::backward_with_hooks(x, self.gradient.as_ref(), self.retain, runner)
    }
}

/// Registers `backward` and the attribute assignments `t.requires_grad = flag`, `t.grad = g`.
pub fn register(r: &mut crate::ops::registry::Registry) {
    r.engine.register_set(
        "requires_grad",
        |t: &mut Tensor, flag: Dynamic| -> RhaiResult<()> {
            let flag = flag
                .as_bool()
                .map_err(|_| to_rhai(TorchError::runtime("requires_grad must be a bool")))?;
            set_requires_grad(t, flag, GradRequest::Attribute)
        },
    );
    r.engine
        .register_set("grad", |t: &mut Tensor, g: Dynamic| assign_grad(t, g));
    r.engine
        .register_set("data", |t: &mut Tensor, d: Dynamic| assign_data(t, d));
    crate::ops::registration::method_with_context::<Tensor>(
        r.engine,
        "backward",
        3,
        |ctx, x, a| {
            let request = BackwardRequest::read(&a)?;
            let mut runner = super::hooks::RhaiHooks::new(ctx);
            let walked = request.run(x, &mut runner);
            runner.finish(walked)?;
            Ok(Dynamic::UNIT)
        },
    );
}
