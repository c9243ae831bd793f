//! `apply_`, `map_` and `map2_` with a Rhai function (`core::element_visit`): the function
//! gets each element (and the other tensors' elements at the same place) as a number and
//! returns the new one.

use rhai::{Dynamic, FnPtr, NativeCallContext};

use crate::core::element_visit::{Visit, refused_call, refused_result};
use crate::core::tensor::Tensor;
use crate::ops::convert::{as_scalar, py_type_name, scalar_to_dynamic};
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai};

/// Calls `f` on each element of the visit, writing its result back at once.
fn run(ctx: &NativeCallContext, visit: &Visit, f: &FnPtr) -> RhaiResult<()> {
    for k in 0..visit.len() {
        crate::core::interrupt::check_every(k);
        let args: Vec<Dynamic> = visit
            .values(k)
            .rhai()?
            .into_iter()
            .map(scalar_to_dynamic)
            .collect();
        let out: Dynamic = f.call_raw(ctx, None, args)?;
        let value = as_scalar(&out)
            .ok_or_else(|| to_rhai(refused_result(visit.dtype(), &py_type_name(&out))))?;
        visit.write(k, value).rhai()?;
    }
    Ok(())
}

/// PyTorch's refusal of a call whose arguments do not fit (`None`: they fit).
fn refusal(method: &str, args: &[Dynamic]) -> RhaiResult<()> {
    let keywords = args.last().is_some_and(|a| a.is_map());
    let positional = if keywords {
        &args[..args.len() - 1]
    } else {
        args
    };
    let given: Vec<String> = positional
        .iter()
        .map(|a| {
            if a.is::<Tensor>() {
                "Tensor".into()
            } else if a.is_fnptr() {
                "function".into()
            } else {
                py_type_name(a)
            }
        })
        .collect();
    let given: Vec<&str> = given.iter().map(String::as_str).collect();
    match refused_call(method, &given, keywords) {
        Some(e) => Err(to_rhai(e)),
        None => Ok(()),
    }
}

/// Registers the three methods, and for calls whose arguments do not fit them, PyTorch's
/// refusals (Rhai tries the typed forms first).
pub fn register(engine: &mut rhai::Engine) {
    for method in ["apply_", "map_", "map2_"] {
        engine.register_fn(method, move |_: &mut Tensor| refusal(method, &[]));
        engine.register_fn(method, move |_: &mut Tensor, a: Dynamic| {
            refusal(method, &[a])
        });
        engine.register_fn(method, move |_: &mut Tensor, a: Dynamic, b: Dynamic| {
            refusal(method, &[a, b])
        });
        engine.register_fn(
            method,
            move |_: &mut Tensor, a: Dynamic, b: Dynamic, c: Dynamic| refusal(method, &[a, b, c]),
        );
    }
    engine.register_fn(
        "apply_",
        |ctx: NativeCallContext, t: &mut Tensor, f: FnPtr| -> RhaiResult<Tensor> {
            let visit = Visit::new(t, &[], "apply_").rhai()?;
            run(&ctx, &visit, &f)?;
            Ok(t.clone())
        },
    );
    engine.register_fn(
        "map_",
        |ctx: NativeCallContext, t: &mut Tensor, other: Tensor, f: FnPtr| -> RhaiResult<Tensor> {
            let visit = Visit::new(t, &[(&other, "'other'")], "map_").rhai()?;
            run(&ctx, &visit, &f)?;
            Ok(t.clone())
        },
    );
    engine.register_fn(
        "map2_",
        |ctx: NativeCallContext,
         t: &mut Tensor,
         x: Tensor,
         y: Tensor,
         f: FnPtr|
         -> RhaiResult<Tensor> {
            let visit =
                Visit::new(t, &[(&x, "argument 'x'"), (&y, "argument 'y'")], "map2_").rhai()?;
            run(&ctx, &visit, &f)?;
            Ok(t.clone())
        },
    );
}
