//! `t.register_hook(f)` and `t.register_post_accumulate_grad_hook(f)` with Rhai functions
//! (`core::tensor::hooks`), their `torch.utils.hooks.RemovableHandle`, and the runner that
//! calls them during a `backward()` started from Rhai.

use std::rc::Rc;

use rhai::{Dynamic, EvalAltResult, FnPtr, NativeCallContext};

use crate::core::error::{Result, TorchError};
use crate::core::tensor::Tensor;
use crate::core::tensor::hooks::{self, Hook, HookHandle, HookRunner, Returned};
use crate::ops::convert::py_type_name;
use crate::ops::errors::{RhaiResult, to_rhai};

/// `torch.utils.hooks.RemovableHandle`, as a script value.
#[derive(Debug, Clone)]
pub struct RemovableHandle(pub HookHandle);

impl RemovableHandle {
    /// Python's default repr, the address being the handle's switch (stable while it lives,
    /// like CPython's `id`).
    pub fn repr(&self) -> String {
        crate::platform::varies::note();
        format!(
            "<torch.utils.hooks.RemovableHandle object at {:#x}>",
            self.0.address()
        )
    }
}

/// Calls Rhai hooks during a walk, with the context of the `backward()` call; the first
/// error a hook raises is kept, to be raised as it is (`finish`).
pub struct RhaiHooks<'a> {
    ctx: &'a NativeCallContext<'a>,
    failure: Option<Box<EvalAltResult>>,
}

impl<'a> RhaiHooks<'a> {
    /// A runner calling hooks in `ctx`.
    pub fn new(ctx: &'a NativeCallContext<'a>) -> RhaiHooks<'a> {
        RhaiHooks { ctx, failure: None }
    }

    /// The walk's outcome as the script sees it: a hook's own error as it was raised.
    pub fn finish(mut self, walked: Result<()>) -> RhaiResult<()> {
        match (walked, self.failure.take()) {
            (Ok(()), _) => Ok(()),
            (Err(_), Some(failure)) => {
                crate::ops::errors::mark_raised();
                Err(failure)
            }
            (Err(e), None) => Err(to_rhai(e)),
        }
    }
}

impl HookRunner for RhaiHooks<'_> {
    fn name(&self, hook: &Hook) -> String {
        match hook
            .downcast_ref::<Dynamic>()
            .and_then(|d| d.read_lock::<FnPtr>().map(|f| f.clone()))
        {
            Some(f) if f.is_anonymous() => "<lambda>".into(),
            Some(f) => f.fn_name().to_string(),
            None => "hook".into(),
        }
    }

    fn call(&mut self, hook: &Hook, arg: Option<&Tensor>) -> Result<Returned> {
        let value = hook.downcast_ref::<Dynamic>().cloned().unwrap_or_default();
        let Some(f) = value.clone().try_cast::<FnPtr>() else {
            return Err(TorchError::type_error(format!(
                "'{}' object is not callable",
                py_type_name(&value)
            )));
        };
        let arg = arg.map_or(Dynamic::UNIT, |t| Dynamic::from(t.clone()));
        let out: Dynamic = f.call_raw(self.ctx, None, [arg]).map_err(|e| {
            self.failure.get_or_insert(e);
            hooks::script_failed()
        })?;
        Ok(if out.is_unit() {
            Returned::Nothing
        } else if let Some(t) = out.read_lock::<Tensor>() {
            Returned::Tensor(t.clone())
        } else {
            Returned::Other(py_type_name(&out))
        })
    }
}

/// The hook argument of a registration, as the core keeps it: any value (PyTorch takes any
/// object, and refuses one that is not callable when backward calls it).
fn hook_of(a: &crate::ops::args::Args) -> Hook {
    Rc::new(a.get(0, "hook").cloned().unwrap_or_default())
}

/// Python's refusal of arguments to `RemovableHandle.remove()`, which takes none.
fn refuse_arguments(args: &[Dynamic]) -> RhaiResult<()> {
    let (keywords, positionals) = match args.split_last() {
        Some((last, rest)) if last.is_map() => (last.clone().cast::<rhai::Map>(), rest),
        _ => (rhai::Map::new(), args),
    };
    if !positionals.is_empty() {
        return Err(crate::ops::errors::type_error(format!(
            "RemovableHandle.remove() takes 1 positional argument but {} were given",
            positionals.len() + 1
        )));
    }
    match keywords.keys().next() {
        Some(k) => Err(crate::ops::errors::type_error(format!(
            "RemovableHandle.remove() got an unexpected keyword argument '{k}'"
        ))),
        None => Ok(()),
    }
}

/// Registers the two methods and the handle type.
pub fn register(r: &mut crate::ops::registry::Registry) {
    r.engine
        .register_type_with_name::<RemovableHandle>("RemovableHandle");
    for name in ["to_string", "to_debug"] {
        r.engine
            .register_fn(name, |h: &mut RemovableHandle| h.repr());
    }
    r.engine
        .register_get("id", |h: &mut RemovableHandle| h.0.id as i64);
    r.engine
        .register_fn("remove", |h: &mut RemovableHandle| h.0.remove());
    // `remove` takes nothing; what is given is refused in Python's words.
    r.engine
        .register_fn("remove", |_: &mut RemovableHandle, a: Dynamic| {
            refuse_arguments(&[a])
        });
    r.engine.register_fn(
        "remove",
        |_: &mut RemovableHandle, a: Dynamic, b: Dynamic| refuse_arguments(&[a, b]),
    );
    r.method("register_hook", 1, |x, a| {
        let handle = hooks::register_hook(x, hook_of(&a)).map_err(to_rhai)?;
        Ok(Dynamic::from(RemovableHandle(handle)))
    });
    r.method("register_post_accumulate_grad_hook", 1, |x, a| {
        let handle = hooks::register_post_accumulate_hook(x, hook_of(&a)).map_err(to_rhai)?;
        Ok(Dynamic::from(RemovableHandle(handle)))
    });
}
