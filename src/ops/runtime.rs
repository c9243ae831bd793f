//! The runtime both fronts call: the op table with the engine it registers into, and
//! direct calls of its entries (tensor methods, `torch` functions, other values' methods,
//! properties, operators), each with no program. The Rhai front's session runs programs
//! on one (`script::session`); the Python front calls it from its interpreter.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};

use rhai::{Dynamic, Engine, EvalAltResult, Position};

use super::args::Args;
use super::engine::new_lazy_engine;
use super::errors::RhaiResult;
use super::op_table::OpTable;
use super::registration::Method;
use super::rhai_errors::{Failure, Names, python_words};
use super::value_methods::ValueMethod;
use crate::core::error::{ErrorKind, TorchError};
use crate::core::operand::Arg;
use crate::core::tensor::Tensor;

/// The op table and its engine, called directly.
pub struct Runtime {
    engine: Engine,
    /// Tensor methods and `torch` functions: each is registered with the engine before the
    /// first program that names it runs (`register_mentioned`), and called directly by the
    /// Python front (`call_method`, `call_function`).
    ops: Rc<RefCell<OpTable>>,
    /// The names of the `torch` functions the engine registered itself (not from the op
    /// table), listed the first time a name is asked about (`torch_has`).
    engine_torch_names: std::cell::OnceCell<std::collections::HashSet<String>>,
}

/// A value as an operator's operand: a tensor, or a number of the kinds the operators are
/// registered for (`convert::as_scalar`'s: int, float, bool, complex); `None` for anything
/// else.
fn operand(v: &Dynamic) -> Option<Arg> {
    match v.read_lock::<Tensor>() {
        Some(t) => Some(Arg::Tensor(t.clone())),
        None => crate::ops::convert::as_scalar(v).map(Arg::Number),
    }
}

/// What an interrupted run reports.
const INTERRUPTED: &str = "KeyboardInterrupt";

/// The check Rhai runs between operations: a Ctrl-C seen on `flag`, or a heap over budget.
fn progress_check(flag: Option<&'static AtomicBool>) -> impl Fn(u64) -> Option<Dynamic> {
    move |_| {
        if flag.is_some_and(|f| f.swap(false, Ordering::Relaxed)) {
            return Some(Dynamic::from(INTERRUPTED));
        }
        crate::platform::heap::over_budget().then(|| {
            Dynamic::from(format!(
                "MemoryError: {}",
                crate::core::interrupt::OUT_OF_MEMORY
            ))
        })
    }
}

/// Resets the state PyTorch keeps per process to a fresh start.
pub fn reset_process_state() {
    crate::core::random::generator::manual_seed(0);
    crate::print::options::reset();
    crate::core::defaults::reset();
    crate::ops::warnings::reset();
    crate::ops::settings_api::reset();
    crate::core::tensor::grad_mode::reset();
    crate::core::tensor::hooks::reset_ids();
    crate::core::kernels::pair::set_threads(crate::core::kernels::pair::DEFAULT_THREADS);
}

/// An error that stopped a piece of code, with where it happened.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptError {
    /// `Kind: message` for PyTorch's errors, Rhai's words otherwise.
    pub message: String,
    /// 1-based line, if known.
    pub line: Option<usize>,
    /// 1-based column, if known.
    pub column: Option<usize>,
    /// True for an exception a PyTorch call raised (`Kind: message`); false for an error in
    /// the script itself (syntax, unknown function or variable, wrong types), which the REPL
    /// shows with a caret under its place.
    pub raised: bool,
    /// `Some(status)` when the code called `exit()` or `quit()`: not an error, the end of
    /// the script (or of the prompt) with this exit status.
    pub exit: Option<i32>,
    /// The script function the error happened in (innermost), if any.
    pub function: Option<String>,
    /// The kind of the core error a tensh function raised (`errors::torch_error`), carried
    /// beside `message`: what a front turns into its own exception (`ScriptError::torch_error`).
    pub kind: Option<ErrorKind>,
    /// For an error inside a script function: the line and column, in the code that was
    /// run, of the call that led there (the outermost one).
    pub call_site: Option<(usize, usize)>,
}

impl ScriptError {
    /// The core error a tensh function raised, kind and message apart: `message` is
    /// `Kind: message` for it (`errors::to_rhai`), so the message is what follows the kind's
    /// name. `None` for an error of Rhai's own or of the script.
    pub fn torch_error(&self) -> Option<TorchError> {
        let kind = self.kind?;
        let message = self.message.strip_prefix(kind.name())?.strip_prefix(": ")?;
        Some(TorchError::new(kind, message))
    }

    /// The error `e` reports; Rhai's own errors are put in Python's words, asking `names`
    /// about the program.
    pub fn from_rhai(e: &EvalAltResult, names: &Names) -> ScriptError {
        let pos = innermost_position(e);
        let message = if is_raised(e) {
            crate::ops::errors::error_text(e)
        } else {
            python_words(&Failure::from_error(e), names)
        };
        ScriptError {
            message,
            line: pos.line(),
            column: pos.position(),
            raised: is_raised(e),
            exit: crate::ops::exit::requested(e),
            function: innermost_function(e),
            kind: crate::ops::errors::torch_error(e).map(|t| t.kind),
            call_site: match e {
                EvalAltResult::ErrorInFunctionCall(_, _, _, pos) => pos.line().zip(pos.position()),
                _ => None,
            },
        }
    }
}

/// Runs `f`, turning an unwinding into an error: Ctrl-C inside a long operation
/// (`core::interrupt`) is `KeyboardInterrupt`, a heap past its budget `MemoryError`; any
/// other is a bug, reported rather than aborting (no input should panic, but the tensor state
/// a panic interrupted is only ever bytes within bounds, so going on is safe).
pub fn guarded<T>(f: impl FnOnce() -> Result<T, ScriptError>) -> Result<T, ScriptError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let message = crate::core::interrupt::unwound_line(&*payload);
        Err(ScriptError {
            message,
            line: None,
            column: None,
            raised: true,
            exit: None,
            function: None,
            kind: None,
            call_site: None,
        })
    })
}

fn is_raised(e: &EvalAltResult) -> bool {
    match e {
        EvalAltResult::ErrorInFunctionCall(_, _, inner, _) => is_raised(inner),
        EvalAltResult::ErrorRuntime(..) | EvalAltResult::ErrorTerminated(..) => true,
        _ => false,
    }
}

/// The innermost script function `e` passed through.
fn innermost_function(e: &EvalAltResult) -> Option<String> {
    match e {
        EvalAltResult::ErrorInFunctionCall(name, _, inner, _) => {
            innermost_function(inner).or_else(|| Some(name.to_string()))
        }
        _ => None,
    }
}

fn innermost_position(e: &EvalAltResult) -> Position {
    match e {
        EvalAltResult::ErrorInFunctionCall(_, _, inner, pos) => {
            let p = innermost_position(inner);
            if p.is_none() { *pos } else { p }
        }
        other => other.position(),
    }
}

impl Default for Runtime {
    fn default() -> Self {
        Runtime::new()
    }
}

impl Runtime {
    /// A fresh runtime: the engine with its eager registrations, the table holding the rest.
    pub fn new() -> Runtime {
        let (mut engine, ops) = new_lazy_engine();
        engine.on_progress(progress_check(None));
        Runtime {
            engine,
            ops,
            engine_torch_names: Default::default(),
        }
    }

    /// The engine (for completion, help and running programs).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, to register more with it (the Rhai front's own functions).
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// Whether the table still holds `name` back from the engine (not yet registered).
    pub fn is_pending(&self, name: &str) -> bool {
        self.ops.borrow().is_pending(name)
    }

    /// Makes the engine's checks between operations stop a run with `KeyboardInterrupt`
    /// soon after `flag` becomes true (the flag is cleared when it is seen).
    pub fn stop_when(&mut self, flag: &'static AtomicBool) {
        crate::core::interrupt::check_on_this_thread();
        self.engine.on_progress(progress_check(Some(flag)));
    }

    /// Registers the held-back tensor methods and `torch` functions that `text` names, so
    /// that a program compiled from it finds them registered (`prepare` does this for the
    /// code it runs; the Python front end for its calls).
    pub fn register_mentioned(&mut self, text: &str) {
        self.ops
            .borrow_mut()
            .register_mentioned(&mut self.engine, text);
    }

    /// Calls the op table's tensor method `name` on `t` with `args`, as a program's
    /// `t.name(...)` would call it, with no program and no limit on the number of
    /// arguments: `Err` with the arguments given back when the table has no such method
    /// (the engine may still have one of its own).
    pub fn call_method(
        &self,
        name: &str,
        t: &Tensor,
        args: Args,
    ) -> Result<Result<Dynamic, ScriptError>, Args> {
        // The entry is taken out of the table before the call: the op may run code that
        // registers names (a hook's program).
        let Some(method) = self.tensor_method(name, args.given()) else {
            return Err(args);
        };
        Ok(self.call_tensor_entry(&method, t, args))
    }

    /// The op table's tensor method `name` for a direct call of `given` arguments (as
    /// `Args::given` counts them), the entry `call_method` would call. It stays the entry
    /// for such a call while the registration generation (`generation`) stays
    /// the same.
    pub fn tensor_method(&self, name: &str, given: usize) -> Option<Rc<Method<Tensor>>> {
        self.ops.borrow().method_for_direct(name, given)
    }

    /// Calls a tensor method found by `tensor_method` on `t` with `args`.
    pub fn call_tensor_entry(
        &self,
        method: &Method<Tensor>,
        t: &Tensor,
        args: Args,
    ) -> Result<Dynamic, ScriptError> {
        self.run_direct(|| method.call(t, args))
    }

    /// Calls the op table's `torch` function `name` with `args`, as `call_method`.
    pub fn call_function(
        &self,
        name: &str,
        args: Args,
    ) -> Result<Result<Dynamic, ScriptError>, Args> {
        let Some(function) = self.ops.borrow().function_for_direct(name, args.given()) else {
            return Err(args);
        };
        Ok(self.run_direct(|| function.call(args)))
    }

    /// Calls the method `name` of `receiver`, a value other than a tensor (a storage, a
    /// buffer, a named tuple), from the table of such methods (`value_methods`), as a
    /// program's call would: `Err` with the arguments given back when no kept method takes
    /// the call (the engine may still have one).
    pub fn call_value_method(
        &self,
        receiver: &Dynamic,
        name: &str,
        args: Args,
    ) -> Result<Result<Dynamic, ScriptError>, Args> {
        let Some(method) = crate::ops::value_methods::method_for(receiver, name, args.given())
        else {
            return Err(args);
        };
        Ok(self.call_value_entry(&*method, receiver, args))
    }

    /// Calls a method of values other than tensors, found by `value_methods::method_for`
    /// for `receiver`'s type, with `args`.
    pub fn call_value_entry(
        &self,
        method: &ValueMethod,
        receiver: &Dynamic,
        args: Args,
    ) -> Result<Dynamic, ScriptError> {
        self.run_direct(|| method(receiver, args))
    }

    /// Calls the function of another module at `path` (`torch::UntypedStorage::from_file`,
    /// `safetensors::load_file`) with `args`, as `call_function`.
    pub fn call_path(&self, path: &str, args: Args) -> Result<Result<Dynamic, ScriptError>, Args> {
        let Some(function) = self.ops.borrow().path_function(path) else {
            return Err(args);
        };
        Ok(self.run_direct(|| function.call(args)))
    }

    /// Whether the table has a function at `path` (`torch::nn::functional::relu`,
    /// `torch::UntypedStorage::from_file`).
    pub fn has_path_function(&self, path: &str) -> bool {
        self.ops.borrow().path_function(path).is_some()
    }

    /// The constant at `path` (`torch::float32`, `torch::pi`), read from the `torch` module
    /// with no program: `None` when the module has no constant there.
    pub fn constant(&self, path: &str) -> Option<Dynamic> {
        self.ops.borrow().constant(path)
    }

    /// Calls what the engine has registered under `name` with `args`, found as a program's
    /// call of that name with such arguments would find it (by the name and the arguments'
    /// types; Rhai's own operators and functions included), but with no program: for the
    /// methods, properties (`get$name`, `set$name`), indexers (`index$get$`, `index$set$`)
    /// and operators of values other than tensors (storages, sizes, dtypes, ...). With
    /// `method`, the first argument is the receiver and is changed in place, as a method
    /// call's is. Its errors are a program's.
    pub fn call_registered(
        &self,
        name: &str,
        args: &mut [Dynamic],
        method: bool,
    ) -> Result<Dynamic, ScriptError> {
        self.run_direct(|| crate::ops::registered_call::call(&self.engine, name, args, method))
    }

    /// `receiver.name` as a program reads it (`registered_call::get_property`), with no
    /// program.
    pub fn get_registered(&self, receiver: &Dynamic, name: &str) -> Result<Dynamic, ScriptError> {
        self.run_direct(|| crate::ops::registered_call::get_property(&self.engine, receiver, name))
    }

    /// `receiver.name = value` as a program runs it, with no program.
    pub fn set_registered(
        &self,
        receiver: &Dynamic,
        name: &str,
        value: Dynamic,
    ) -> Result<(), ScriptError> {
        self.run_direct(|| {
            crate::ops::registered_call::set_property(&self.engine, receiver, name, value)
        })
        .map(|_| ())
    }

    /// Reads the tensor property `name` of `t` from the op table, as a program's `t.name`
    /// would: `None` when tensors have no such property.
    pub fn read_property(&self, name: &str, t: &Tensor) -> Option<Result<Dynamic, ScriptError>> {
        let getter = self.ops.borrow().direct.property(name)?;
        Some(self.run_direct(|| getter(t)))
    }

    /// Whether the `torch` module has `name` (`torch.add`, `torch.float32`, `torch.nn`):
    /// an op of the table, a constant or sub-module of the engine's module, a function the
    /// engine registered itself, or a name PyTorch has that tensh has not built (which a call
    /// answers with `NotImplementedError`). Anything else is no attribute of the module.
    pub fn torch_has(&self, name: &str) -> bool {
        {
            let ops = self.ops.borrow();
            if ops.has_function(name) || ops.has_torch_member(name) {
                return true;
            }
        }
        crate::ops::pytorch_names::contains("torch", name)
            || crate::ops::pytorch_names::contains("torch_attribute", name)
            || self
                .engine_torch_names
                .get_or_init(|| {
                    self.engine
                        .collect_fn_metadata(
                            None,
                            |info| {
                                (info.namespace == "torch").then(|| info.metadata.name.to_string())
                            },
                            true,
                        )
                        .into_iter()
                        .collect()
                })
                .contains(name)
    }

    /// Whether tensors have `name`: a method or property of the op table, or a name
    /// PyTorch's `Tensor` has that tensh has not built.
    pub fn tensor_has(&self, name: &str) -> bool {
        let ops = self.ops.borrow();
        ops.contains(name)
            || ops.direct.property(name).is_some()
            || crate::ops::pytorch_names::contains("Tensor", name)
    }

    /// Whether tensors have the property `name` in the op table.
    pub fn has_tensor_property(&self, name: &str) -> bool {
        self.ops.borrow().direct.property(name).is_some()
    }

    /// Applies the operator `symbol` (`+`, `==`) between `a` and `b` from the op table, as a
    /// program's `a + b` would: `None` unless one side is a tensor and the other a tensor
    /// or a number, with an operator of that symbol between them.
    pub fn apply_operator(
        &self,
        symbol: &str,
        a: &Dynamic,
        b: &Dynamic,
    ) -> Option<Result<Dynamic, ScriptError>> {
        if !a.is::<Tensor>() && !b.is::<Tensor>() {
            return None;
        }
        let (x, y) = (operand(a)?, operand(b)?);
        let operator = self.ops.borrow().direct.operator(symbol)?;
        Some(self.run_direct(|| operator(x, y).map(Dynamic::from)))
    }

    /// `a symbol= b` (`symbol` is `+` for `+=`) into the tensor `a` from the op table, as
    /// `apply_operator`.
    pub fn assign_operator(
        &self,
        symbol: &str,
        a: &Tensor,
        b: &Dynamic,
    ) -> Option<Result<Dynamic, ScriptError>> {
        let y = operand(b)?;
        let operator = self.ops.borrow().direct.in_place_operator(symbol)?;
        Some(self.run_direct(|| operator(a, y).map(|()| Dynamic::UNIT)))
    }

    /// Runs a body the engine registers (an op, an indexer, a property), called without a
    /// program: its errors in Python's words and an unwinding turned into an error, as
    /// `run_compiled` does.
    pub fn run_direct(
        &self,
        call: impl FnOnce() -> RhaiResult<Dynamic>,
    ) -> Result<Dynamic, ScriptError> {
        crate::ops::errors::forget_raised();
        guarded(|| call().map_err(|e| ScriptError::from_rhai(&e, &self.names())))
    }

    /// What error translation may ask: the engine, and no program's functions.
    fn names(&self) -> Names<'_> {
        Names {
            engine: &self.engine,
            script_params: Box::new(|_| None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A direct call of a storage's (or another value's) method finds the form a program's
    /// call would: for each kept method, the engine's forms of that name for that receiver
    /// type are exactly the kept ones (one an arity, every argument untyped).
    #[test]
    fn the_kept_value_methods_are_the_engines_only_forms_of_their_names() {
        let s = Runtime::new();
        let kept = super::super::value_methods::kept();
        assert!(kept.iter().any(|(owner, name, _)| *owner
            == std::any::TypeId::of::<crate::core::memory::storage::Storage>()
            && name == "nbytes"));
        let dynamic = std::any::TypeId::of::<Dynamic>();
        let registered = s.engine().collect_fn_metadata(
            None,
            |info| {
                let m = info.metadata;
                Some((
                    m.name.to_string(),
                    m.param_types.first().copied(),
                    m.param_types.iter().skip(1).all(|t| *t == dynamic),
                    m.num_params,
                ))
            },
            true,
        );
        for (owner, name, arities) in &kept {
            let mut engine_arities: Vec<usize> = registered
                .iter()
                .filter(|(n, first, _, _)| n == name && *first == Some(*owner))
                .map(|(_, _, untyped, params)| {
                    assert!(untyped, "{name} has a typed form the table does not keep");
                    params - 1
                })
                .collect();
            engine_arities.sort();
            let most = arities.iter().copied().max().unwrap_or(0);
            assert_eq!(engine_arities, (0..=most).collect::<Vec<_>>(), "{name}");
        }
    }

    /// A direct call (the Python front's) finds the form a program's call would: the engine
    /// registers no tensor method or `torch` function of the table's names by itself, so the
    /// only forms of those names are the table's.
    #[test]
    fn the_engine_has_no_forms_of_its_own_for_the_tables_names() {
        let s = Runtime::new();
        let ops = s.ops.borrow();
        let tensor = std::any::TypeId::of::<Tensor>();
        let registered = s.engine().collect_fn_metadata(
            None,
            |info| {
                let m = info.metadata;
                let tensor_first = m.param_types.first() == Some(&tensor);
                Some((info.namespace.to_string(), m.name.to_string(), tensor_first))
            },
            true,
        );
        // What is looked through is there: the engine's own tensor methods and `torch`
        // functions (properties, indexers, `torch::manual_seed`).
        assert!(registered.iter().any(|(ns, _, t)| ns.is_empty() && *t));
        assert!(registered.iter().any(|(ns, _, _)| ns == "torch"));
        let doubled: Vec<String> = registered
            .iter()
            .filter(|(ns, name, tensor_first)| match ns.as_str() {
                "" => *tensor_first && ops.contains(name),
                "torch" => ops.has_function(name),
                _ => false,
            })
            .map(|(ns, name, _)| format!("{ns}::{name}"))
            .collect();
        assert!(doubled.is_empty(), "{doubled:?}");
    }
}
