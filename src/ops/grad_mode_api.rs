//! Grad mode in Rhai's closure form (the spec's rewriting of Python's `with` blocks):
//! `torch::no_grad(|| { ... })`, `torch::enable_grad(|| ...)`, `torch::inference_mode(|| ...)`,
//! `torch::set_grad_enabled(false, || ...)` run the closure in that mode and return its
//! value, putting the previous mode back afterwards (also when the closure raises);
//! `torch::set_grad_enabled(b)` sets the mode; `torch::is_grad_enabled()` and
//! `torch::is_inference_mode_enabled()` read it.

use rhai::{Dynamic, FnPtr, FuncRegistration, Module, NativeCallContext};

use crate::core::tensor::grad_mode;
use crate::ops::errors::RhaiResult;

/// Runs `f` with grad mode `grad` (and inference mode `inference`, when given), then
/// restores both.
fn within(
    ctx: &NativeCallContext,
    f: &FnPtr,
    grad: bool,
    inference: Option<bool>,
) -> RhaiResult<Dynamic> {
    let (old_grad, old_inference) = (grad_mode::is_enabled(), grad_mode::is_inference());
    match inference {
        Some(on) => {
            grad_mode::set_inference(on);
        }
        None => {
            grad_mode::set_enabled(grad);
        }
    }
    let out = f.call_within_context::<Dynamic>(ctx, ());
    grad_mode::restore(old_grad, old_inference);
    out
}

/// Registers the grad-mode functions into the `torch` module.
pub fn register(torch: &mut Module) {
    FuncRegistration::new("no_grad").set_into_module(torch, |ctx: NativeCallContext, f: FnPtr| {
        within(&ctx, &f, false, None)
    });
    FuncRegistration::new("enable_grad")
        .set_into_module(torch, |ctx: NativeCallContext, f: FnPtr| {
            within(&ctx, &f, true, None)
        });
    FuncRegistration::new("inference_mode")
        .set_into_module(torch, |ctx: NativeCallContext, f: FnPtr| {
            within(&ctx, &f, false, Some(true))
        });
    FuncRegistration::new("inference_mode").set_into_module(
        torch,
        |ctx: NativeCallContext, mode: bool, f: FnPtr| {
            if mode {
                within(&ctx, &f, false, Some(true))
            } else {
                within(&ctx, &f, grad_mode::is_enabled(), Some(false))
            }
        },
    );
    FuncRegistration::new("set_grad_enabled")
        .set_into_module(torch, |ctx: NativeCallContext, mode: bool, f: FnPtr| {
            within(&ctx, &f, mode, None)
        });
    FuncRegistration::new("set_grad_enabled").set_into_module(torch, |mode: bool| {
        grad_mode::set_enabled(mode);
    });
    FuncRegistration::new("is_grad_enabled").set_into_module(torch, grad_mode::is_enabled);
    FuncRegistration::new("is_inference_mode_enabled")
        .set_into_module(torch, grad_mode::is_inference);
}
