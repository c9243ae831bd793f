//! Gradient hooks (`t.register_hook(f)`, `t.register_post_accumulate_grad_hook(f)`): script
//! functions the backward walk calls. The core never looks inside a hook: it is the value
//! the script front registered (a Rhai function pointer, a Python function), and the front
//! that runs `backward()` calls it through a [`HookRunner`].
//!
//! Where a hook lives follows PyTorch: on a leaf, in the tensor's own autograd state (run
//! on the summed gradient before it is accumulated, or on the tensor after); on a non-leaf,
//! in the node that made it at the time of registering, against the tensor's output number
//! (an in-place op that later gives the tensor a new node leaves it with the old one).
//! Each hook has a [`HookHandle`] whose `remove()` switches it off wherever it lives.

use std::any::Any;
use std::cell::Cell;
use std::rc::Rc;

use super::Tensor;
use crate::core::error::{Result, TorchError};

/// A script function, as the front that registered it stored it.
pub type Hook = Rc<dyn Any>;

/// `torch.utils.hooks.RemovableHandle`: the id PyTorch gives it (one counter for every
/// handle of the session) and the switch `remove()` turns off.
#[derive(Debug, Clone)]
pub struct HookHandle {
    /// The handle's `id`.
    pub id: u64,
    removed: Rc<Cell<bool>>,
}

impl HookHandle {
    /// `handle.remove()`: the hook is not called again (removing twice is allowed).
    pub fn remove(&self) {
        self.removed.set(true);
    }

    /// An address for the handle's repr: its switch's (stable while the handle lives).
    pub fn address(&self) -> usize {
        Rc::as_ptr(&self.removed) as usize
    }
}

/// A registered hook and its switch.
#[derive(Clone)]
pub struct TensorHook {
    /// The script function.
    pub hook: Hook,
    removed: Rc<Cell<bool>>,
}

impl TensorHook {
    /// Whether its handle removed it.
    pub fn is_removed(&self) -> bool {
        self.removed.get()
    }
}

impl std::fmt::Debug for TensorHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TensorHook")
    }
}

thread_local! {
    static NEXT_ID: Cell<u64> = const { Cell::new(0) };
}

/// Back to the first id, as a fresh process starts.
pub fn reset_ids() {
    NEXT_ID.with(|n| n.set(0));
}

fn new_hook(hook: Hook) -> (TensorHook, HookHandle) {
    let id = NEXT_ID.with(|n| n.replace(n.get() + 1));
    let removed = Rc::new(Cell::new(false));
    (
        TensorHook {
            hook,
            removed: removed.clone(),
        },
        HookHandle { id, removed },
    )
}

fn refuse_without_grad(t: &Tensor) -> Result<()> {
    if t.requires_grad() {
        Ok(())
    } else {
        Err(TorchError::runtime(
            "cannot register a hook on a tensor that doesn't require gradient",
        ))
    }
}

/// `t.register_hook(hook)`: called on `t`'s gradient each time backward computes it; what
/// it returns (if anything) replaces the gradient.
pub fn register_hook(t: &Tensor, hook: Hook) -> Result<HookHandle> {
    refuse_without_grad(t)?;
    let (entry, handle) = new_hook(hook);
    let state = t.grad_state();
    match state.grad_fn {
        Some(node) => {
            let mut hooks = node.hooks.borrow_mut();
            hooks.retain(|(_, h)| !h.is_removed());
            hooks.push((state.output_nr, entry));
        }
        None => t.with_grad_mut(|g| {
            g.hooks.retain(|h| !h.is_removed());
            g.hooks.push(entry);
        }),
    }
    Ok(handle)
}

/// `t.register_post_accumulate_grad_hook(hook)`: called on the leaf `t` after backward has
/// accumulated into its `.grad`.
pub fn register_post_accumulate_hook(t: &Tensor, hook: Hook) -> Result<HookHandle> {
    refuse_without_grad(t)?;
    if t.grad_state().grad_fn.is_some() {
        return Err(TorchError::runtime(
            "post accumulate grad hooks cannot be registered on non-leaf tensors",
        ));
    }
    let (entry, handle) = new_hook(hook);
    t.with_grad_mut(|g| {
        g.post_accumulate_hooks.retain(|h| !h.is_removed());
        g.post_accumulate_hooks.push(entry);
    });
    Ok(handle)
}

/// What a script function returned to the walk.
pub enum Returned {
    /// `None`.
    Nothing,
    /// A tensor.
    Tensor(Tensor),
    /// Anything else, by its Python type name (refused).
    Other(String),
}

/// The error a runner returns when the script function itself failed (it keeps the
/// script's own error, to be raised as it is).
pub fn script_failed() -> TorchError {
    TorchError::runtime("a gradient hook failed")
}

/// What calls hooks during a backward walk: the script front that runs it.
pub trait HookRunner {
    /// PyTorch's name of the hook in its errors (a function's name, `<lambda>`).
    fn name(&self, hook: &Hook) -> String;

    /// Calls a hook on `arg` (a gradient, `None` where no gradient reached that output, or
    /// the leaf for a post-accumulate hook) and says what it returned. A value that is
    /// not callable is refused with Python's `TypeError`; when the script function itself
    /// fails, the runner keeps its error and returns `script_failed()`.
    fn call(&mut self, hook: &Hook, arg: Option<&Tensor>) -> Result<Returned>;
}

/// A runner for walks started where no script function can be called (the core's own
/// callers): it refuses any hook it meets.
pub struct NoHooks;

impl HookRunner for NoHooks {
    fn name(&self, _: &Hook) -> String {
        "hook".into()
    }

    fn call(&mut self, _: &Hook, _: Option<&Tensor>) -> Result<Returned> {
        Err(TorchError::runtime(
            "tensh cannot call a gradient hook from this backward pass",
        ))
    }
}

/// PyTorch's refusal of a hook's result that is neither `None` nor a tensor.
fn not_a_tensor(type_name: &str) -> TorchError {
    TorchError::type_error(format!(
        "expected Variable, but hook returned '{type_name}'"
    ))
}

/// Runs `hooks` in order on `grad`, each seeing what the one before returned; a result of
/// another size or dtype than the gradient it replaced is refused, as in PyTorch.
pub fn run_gradient_hooks<'a>(
    hooks: impl IntoIterator<Item = &'a TensorHook>,
    mut grad: Option<Tensor>,
    runner: &mut dyn HookRunner,
) -> Result<Option<Tensor>> {
    for h in hooks {
        if h.is_removed() {
            continue;
        }
        let new = match with_grad_mode_off(|| runner.call(&h.hook, grad.as_ref()))? {
            Returned::Nothing => continue,
            Returned::Tensor(t) => t,
            Returned::Other(type_name) => return Err(not_a_tensor(&type_name)),
        };
        if let Some(old) = &grad {
            if new.sizes() != old.sizes() {
                return Err(TorchError::runtime(format!(
                    "hook '{}' has changed the size of value",
                    runner.name(&h.hook)
                )));
            }
            if new.dtype() != old.dtype() {
                return Err(TorchError::runtime(format!(
                    "hook '{}' has changed the type of value (was {} got {})",
                    runner.name(&h.hook),
                    old.dtype().legacy_type_name(),
                    new.dtype().legacy_type_name()
                )));
            }
        }
        grad = Some(new);
    }
    Ok(grad)
}

/// Runs a leaf's post-accumulate hooks in order.
pub fn run_post_accumulate_hooks(
    leaf: &Tensor,
    hooks: &[TensorHook],
    runner: &mut dyn HookRunner,
) -> Result<()> {
    for h in hooks.iter().filter(|h| !h.is_removed()) {
        match with_grad_mode_off(|| runner.call(&h.hook, Some(leaf)))? {
            Returned::Nothing => {}
            Returned::Tensor(_) => {
                return Err(TorchError::runtime(
                    "Tensor post accumulate grad hooks should return None.",
                ));
            }
            Returned::Other(type_name) => return Err(not_a_tensor(&type_name)),
        }
    }
    Ok(())
}

/// Runs `f` with recording off, as PyTorch runs hooks in a backward that does not build a
/// graph of its own.
fn with_grad_mode_off<R>(f: impl FnOnce() -> R) -> R {
    let was = super::grad_mode::set_enabled(false);
    let out = f();
    super::grad_mode::set_enabled(was);
    out
}
