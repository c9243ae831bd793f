//! A session: one engine, one scope of variables and the functions defined so far. Scripts run
//! in one; the REPL feeds it line by line. Testable without a terminal.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};

use rhai::{AST, Dynamic, Engine, EvalAltResult, LexError, ParseErrorType, Position, Scope};

use super::args::Args;
use super::caught::{Shifts, bind_caught_errors};
use super::engine::new_lazy_engine;
use super::errors::RhaiResult;
use super::op_table::OpTable;
use super::registration::Method;
use super::rhai_errors::{Failure, Names, python_words};
use super::value_methods::ValueMethod;
use crate::core::error::{ErrorKind, TorchError};
use crate::core::operand::Arg;
use crate::core::tensor::Tensor;

/// A script or REPL session.
pub struct Session {
    engine: Engine,
    /// Tensor methods and `torch` functions: each is registered with the engine before the
    /// first program that names it runs (`register_mentioned`), and called directly by the
    /// Python front (`call_method`, `call_function`).
    ops: Rc<RefCell<OpTable>>,
    scope: Scope<'static>,
    functions: AST,
    interrupt: Option<&'static AtomicBool>,
    /// Where the code being run had text inserted (`caught`), to report the user's columns.
    shifts: Shifts,
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
        None => super::convert::as_scalar(v).map(Arg::Number),
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
    super::warnings::reset();
    super::settings_api::reset();
    crate::core::tensor::grad_mode::reset();
    crate::core::tensor::hooks::reset_ids();
    crate::core::kernels::pair::set_threads(crate::core::kernels::pair::DEFAULT_THREADS);
}

/// The character at `pos` in `code`.
fn char_at(code: &str, pos: Position) -> Option<char> {
    let line = code.lines().nth(pos.line()?.checked_sub(1)?)?;
    line.chars().nth(pos.position()?.checked_sub(1)?)
}

/// True when `pos` is at or past the last non-blank character of `code` (or unknown).
fn at_end(code: &str, pos: Position) -> bool {
    let (Some(line), Some(col)) = (pos.line(), pos.position()) else {
        return true;
    };
    let trimmed = code.trim_end();
    let last_line = trimmed.lines().count().max(1);
    let last_col = trimmed.lines().last().map_or(0, |l| l.chars().count());
    line > last_line || (line == last_line && col >= last_col)
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
    fn from_rhai(e: &EvalAltResult, names: &Names) -> ScriptError {
        let pos = innermost_position(e);
        let message = if is_raised(e) {
            super::errors::error_text(e)
        } else {
            python_words(&Failure::from_error(e), names)
        };
        ScriptError {
            message,
            line: pos.line(),
            column: pos.position(),
            raised: is_raised(e),
            exit: super::exit::requested(e),
            function: innermost_function(e),
            kind: super::errors::torch_error(e).map(|t| t.kind),
            call_site: match e {
                EvalAltResult::ErrorInFunctionCall(_, _, _, pos) => pos.line().zip(pos.position()),
                _ => None,
            },
        }
    }
}

/// `code` without a `#!` first line (an executable script's interpreter line), which is
/// blanked rather than removed so line numbers stay.
fn without_shebang(code: &str) -> &str {
    match code.strip_prefix("#!") {
        Some(rest) => rest.find('\n').map_or("", |i| &rest[i..]),
        None => code,
    }
}

/// Runs `f`, turning an unwinding into an error: Ctrl-C inside a long operation
/// (`core::interrupt`) is `KeyboardInterrupt`, a heap past its budget `MemoryError`; any
/// other is a bug, reported rather than aborting (no input should panic, but the tensor state
/// a panic interrupted is only ever bytes within bounds, so going on is safe).
fn guarded<T>(f: impl FnOnce() -> Result<T, ScriptError>) -> Result<T, ScriptError> {
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

/// A parse error as the prompt and scripts report it.
fn syntax_error(e: rhai::ParseError) -> ScriptError {
    let pos = e.1;
    ScriptError {
        message: format!("SyntaxError: {}", e.0),
        line: pos.line(),
        column: pos.position(),
        raised: false,
        exit: None,
        function: None,
        kind: None,
        call_site: None,
    }
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

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A fresh session.
    pub fn new() -> Session {
        let (mut engine, ops) = new_lazy_engine();
        engine.on_progress(progress_check(None));
        Session {
            engine,
            ops,
            scope: Scope::new(),
            functions: AST::empty(),
            interrupt: None,
            shifts: Shifts::default(),
            engine_torch_names: Default::default(),
        }
    }

    /// The engine (for completion and help).
    pub fn engine(&self) -> &Engine {
        &self.engine
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
        let Some(method) = super::value_methods::method_for(receiver, name, args.given()) else {
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
        self.run_direct(|| super::registered_call::call(&self.engine, name, args, method))
    }

    /// `receiver.name` as a program reads it (`registered_call::get_property`), with no
    /// program.
    pub fn get_registered(&self, receiver: &Dynamic, name: &str) -> Result<Dynamic, ScriptError> {
        self.run_direct(|| super::registered_call::get_property(&self.engine, receiver, name))
    }

    /// `receiver.name = value` as a program runs it, with no program.
    pub fn set_registered(
        &self,
        receiver: &Dynamic,
        name: &str,
        value: Dynamic,
    ) -> Result<(), ScriptError> {
        self.run_direct(|| {
            super::registered_call::set_property(&self.engine, receiver, name, value)
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
        super::pytorch_names::contains("torch", name)
            || super::pytorch_names::contains("torch_attribute", name)
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
            || super::pytorch_names::contains("Tensor", name)
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
        super::errors::forget_raised();
        guarded(|| call().map_err(|e| ScriptError::from_rhai(&e, &self.names())))
    }

    /// The names of the script functions defined so far, each once, sorted.
    pub fn function_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .functions
            .iter_functions()
            .map(|f| f.name.to_string())
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// The script functions defined so far as they are called: `name(a, b)`, sorted.
    pub fn function_signatures(&self) -> Vec<String> {
        let mut found: Vec<String> = self
            .functions
            .iter_functions()
            .filter(|f| !super::hidden::is_hidden_name(f.name))
            .map(|f| format!("{}({})", f.name, f.params.join(", ")))
            .collect();
        found.sort();
        found.dedup();
        found
    }

    /// The variables defined so far.
    pub fn scope(&self) -> &Scope<'static> {
        &self.scope
    }

    /// The variables, to change (the prompt keeps its last value in one).
    pub fn scope_mut(&mut self) -> &mut Scope<'static> {
        &mut self.scope
    }

    /// Runs `code` `loops` times (compiled once; variables it defines are dropped after each
    /// run) and returns the time all runs took. Its value is not kept.
    pub fn time(&mut self, code: &str, loops: usize) -> Result<std::time::Duration, ScriptError> {
        guarded(|| self.time_inner(code, loops))
    }

    fn time_inner(&mut self, code: &str, loops: usize) -> Result<std::time::Duration, ScriptError> {
        let merged = self.prepare(code)?;
        let keep = self.scope.len();
        let start = crate::platform::clock::Instant::now();
        for _ in 0..loops {
            let run = self
                .engine
                .eval_ast_with_scope::<Dynamic>(&mut self.scope, &merged);
            self.scope.rewind(keep);
            let _value =
                run.map_err(|e| self.in_users_columns(ScriptError::from_rhai(&e, &self.names())))?;
        }
        Ok(start.elapsed())
    }

    /// Starts over: no variables or functions, and the session-wide state PyTorch keeps
    /// globally back to a fresh process's (seed 0, print options, default dtype, warnings
    /// already shown). Interrupt checking stays installed.
    pub fn reset(&mut self) {
        self.scope.clear();
        self.functions = AST::empty();
        reset_process_state();
    }

    /// Makes running code stop with `KeyboardInterrupt` soon after `flag` becomes true (it is
    /// checked between Rhai operations, so even `loop {}` stops); the flag is cleared when it
    /// is seen and before each run.
    pub fn stop_when(&mut self, flag: &'static AtomicBool) {
        self.interrupt = Some(flag);
        crate::core::interrupt::check_on_this_thread();
        self.engine.on_progress(progress_check(Some(flag)));
    }

    /// True when `code` is a prefix of a valid script rather than a wrong one: it ends inside
    /// a block, bracket or string, or in the middle of an expression. The REPL keeps reading
    /// lines while this holds.
    pub fn is_incomplete(&self, code: &str) -> bool {
        let Err(e) = self.engine.compile_with_scope(&self.scope, code) else {
            return false;
        };
        match &*e.0 {
            // A backtick string may span lines; a quoted one may not.
            ParseErrorType::BadInput(LexError::UnterminatedString) => {
                char_at(code, e.1) == Some('`')
            }
            ParseErrorType::UnexpectedEOF
            | ParseErrorType::MissingToken(..)
            | ParseErrorType::ExprExpected(..)
            | ParseErrorType::FnMissingBody(..) => at_end(code, e.1),
            _ => false,
        }
    }

    /// Defines `ARGS` as an array of strings.
    pub fn set_args(&mut self, args: &[String]) {
        let a: rhai::Array = args.iter().map(|s| Dynamic::from(s.clone())).collect();
        self.scope.push("ARGS", a);
    }

    /// The repr a prompt echoes for `value` (PyTorch's for tensors, Python's for numbers).
    pub fn repr(&self, value: &Dynamic) -> Result<String, ScriptError> {
        guarded(|| {
            let mut scope = Scope::new();
            scope.push_dynamic("value", value.clone());
            self.engine
                .eval_expression_with_scope::<String>(&mut scope, "to_debug(value)")
                .map_err(|e| ScriptError::from_rhai(&e, &self.names()))
        })
    }

    /// Runs `code`, keeping its variables and functions, and returns the value of its last
    /// expression statement (unit for `let` and other statements).
    pub fn eval(&mut self, code: &str) -> Result<Dynamic, ScriptError> {
        guarded(|| self.eval_inner(code))
    }

    /// Readies `code` to run: a stale interrupt and raise mark cleared, a `#!` line blanked, `catch`
    /// bindings translated, compiled against the session's variables and merged with the
    /// functions defined so far.
    fn prepare(&mut self, code: &str) -> Result<AST, ScriptError> {
        if let Some(flag) = self.interrupt {
            flag.store(false, Ordering::Relaxed);
        }
        super::errors::forget_raised();
        let code = without_shebang(code);
        self.register_mentioned(code);
        let (code, shifts) = bind_caught_errors(&self.engine, code);
        self.shifts = shifts;
        let ast = self
            .engine
            .compile_with_scope(&self.scope, &code)
            .map_err(|e| self.in_users_columns(syntax_error(e)))?;
        Ok(self.functions.merge(&ast))
    }

    fn eval_inner(&mut self, code: &str) -> Result<Dynamic, ScriptError> {
        let merged = self.prepare(code)?;
        let result = self
            .engine
            .eval_ast_with_scope::<Dynamic>(&mut self.scope, &merged);
        self.functions = merged.clone_functions_only();
        result.map_err(|e| self.in_users_columns(ScriptError::from_rhai(&e, &self.names())))
    }

    /// `e` with its column in the code as the user wrote it (not as `prepare` rewrote it).
    /// An error inside a function keeps its place: the function may come from an earlier
    /// input, rewritten in its own way.
    fn in_users_columns(&self, mut e: ScriptError) -> ScriptError {
        if e.function.is_none()
            && let (Some(line), Some(column)) = (e.line, e.column)
        {
            e.column = Some(self.shifts.original_column(line, column));
        }
        if let Some((line, column)) = e.call_site {
            e.call_site = Some((line, self.shifts.original_column(line, column)));
        }
        e
    }

    /// What error translation may ask about this session's program.
    fn names(&self) -> Names<'_> {
        Names {
            engine: &self.engine,
            script_params: Box::new(|name| {
                self.functions
                    .iter_functions()
                    .find(|f| f.name == name)
                    .map(|f| f.params.iter().map(|p| p.to_string()).collect())
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_registered_when_a_program_names_them() {
        let mut s = Session::new();
        assert!(s.ops.borrow().is_pending("cumsum"));
        assert!(s.ops.borrow().is_pending("logsumexp"));
        let _ = s
            .eval("let x = torch::ones(3); let y = x.cumsum(0);")
            .expect("runs");
        assert!(!s.ops.borrow().is_pending("cumsum"));
        assert!(s.ops.borrow().is_pending("logsumexp"));
    }

    /// A direct call of a storage's (or another value's) method finds the form a program's
    /// call would: for each kept method, the engine's forms of that name for that receiver
    /// type are exactly the kept ones (one an arity, every argument untyped).
    #[test]
    fn the_kept_value_methods_are_the_engines_only_forms_of_their_names() {
        let s = Session::new();
        let kept = super::super::value_methods::kept();
        assert!(kept.iter().any(|(owner, name, _)| *owner
            == std::any::TypeId::of::<crate::core::memory::storage::Storage>()
            && name == "nbytes"));
        let dynamic = std::any::TypeId::of::<Dynamic>();
        let registered = s.engine.collect_fn_metadata(
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
        let s = Session::new();
        let ops = s.ops.borrow();
        let tensor = std::any::TypeId::of::<Tensor>();
        let registered = s.engine.collect_fn_metadata(
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
