//! The Python front end's interpreter: walks the parsed program, keeps Python's scopes,
//! control flow and exceptions, and hands every operation on a tensh value to the engine
//! through [`Host`]. Its parts are `impl Interpreter` blocks, one concern per file:
//! statements, expressions, operators, calls, builtins, methods of Python's values, modules,
//! subscripts and text.

mod builtins;
mod call;
mod classes;
mod dicts;
mod dunders;
mod evaluate;
mod expr;
mod files;
mod generators;
mod hooks;
mod iterate;
mod matching;
mod method_sites;
mod methods;
mod modules;
mod name_hints;
mod names;
mod number_dunders;
mod operators;
mod os_module;
mod random_module;
mod regex_module;
mod size_arithmetic;
mod stmt;
mod subscript;
mod teaching;
mod tensor_attributes;
mod text;
mod warning_filters;

use std::rc::Rc;

use ruff_text_size::Ranged;

use super::exception::{PyException, TraceFrame};
use super::function::Scope;
use super::host::Host;
use super::source::SourceText;
use super::value::Value;

pub use super::value::flow::Unwind;
pub use names::builtin_names;
pub use teaching::Known;

/// A result that may unwind.
pub type Flow<T> = Result<T, Unwind>;

/// One running function (or the module), for tracebacks.
pub struct Frame {
    /// The function's name, or `<module>`.
    pub function: Rc<str>,
    /// The function's qualified name (what functions and classes defined in it prefix
    /// theirs with).
    pub qualname: Rc<str>,
    /// Its file.
    pub source: Rc<SourceText>,
    /// Where the statement running now starts (none before the first): its line is found
    /// only when a traceback or a warning asks (`line`), not at every statement.
    pub at: Option<ruff_text_size::TextSize>,
    /// For a method of a class of a statement: that class and the method's first argument
    /// (what `super()` reads).
    pub owner: Option<(Rc<crate::python::value::class::Class>, Value)>,
}

impl Frame {
    /// The line running now (0 before the first statement).
    pub fn line(&self) -> usize {
        self.at.map_or(0, |at| self.source.line_of(at))
    }
}

/// How deep calls of Python functions may nest (Python's default recursion limit).
const RECURSION_LIMIT: usize = 1000;

/// The interpreter: the module's globals, the running frames and tensh's engine.
pub struct Interpreter {
    host: Host,
    globals: Rc<Scope>,
    frames: Vec<Frame>,
    argv: Vec<String>,
    /// Exceptions being handled by `except` blocks, innermost last (a bare `raise`
    /// re-raises the last).
    handling: Vec<Rc<PyException>>,
    /// The lists and dicts whose repr is being made, innermost last (one met again inside
    /// itself is `[...]` / `{...}`, as in CPython).
    repr_active: Vec<usize>,
    /// How deep comparisons of containers nest now.
    comparing: usize,
    /// How deep iterators' calls of each other nest now.
    iterating: usize,
    /// The modules written in Python that were imported (`functools`, `itertools`, ...):
    /// their globals, by name.
    source_modules: std::collections::HashMap<Rc<str>, Rc<Scope>>,
    /// The attributes the program set on tensors (`t.name = "w"`).
    tensor_attributes: tensor_attributes::TensorAttributes,
    /// The method each call site on a tensh value last called.
    method_sites: method_sites::MethodSites,
    /// The lists of the `warnings.catch_warnings(record=True)` blocks running, innermost
    /// last: a warning goes to the last instead of standard error.
    warning_records: Vec<Value>,
    /// The warnings filters in force (`warnings.simplefilter` and kin).
    warning_filters: warning_filters::WarningFilters,
    /// The filters each open `catch_warnings` block puts back when it ends.
    saved_warning_filters: Vec<warning_filters::WarningFilters>,
    /// The source text of the receiver whose call or subscript raised one of the errors
    /// `:why` explains (`x.t()` in `x.t().view(6)`), the first since `forget_failure`.
    failed_receiver: Option<String>,
}

impl Interpreter {
    /// A fresh interpreter; `argv` is `sys.argv`.
    pub fn new(argv: Vec<String>) -> Interpreter {
        let globals = Scope::module();
        globals
            .vars
            .borrow_mut()
            .insert("__name__".into(), Value::str("__main__"));
        Interpreter {
            host: Host::new(),
            globals,
            frames: Vec::new(),
            argv,
            handling: Vec::new(),
            repr_active: Vec::new(),
            comparing: 0,
            iterating: 0,
            source_modules: Default::default(),
            tensor_attributes: Default::default(),
            method_sites: Default::default(),
            warning_records: Vec::new(),
            warning_filters: warning_filters::WarningFilters::python_defaults(),
            saved_warning_filters: Vec::new(),
            failed_receiver: None,
        }
    }

    /// The text of the receiver whose call or subscript raised an error `:why` explains,
    /// since the last `forget_failure`.
    pub fn failed_receiver(&self) -> Option<&str> {
        self.failed_receiver.as_deref()
    }

    /// Forgets the failed receiver (a new input starts).
    pub fn forget_failure(&mut self) {
        self.failed_receiver = None;
    }

    /// Remembers `receiver`'s text when an error `:why` explains was just noted and none
    /// was remembered yet (the innermost failing call is the first to return).
    fn note_failed_receiver(&mut self, receiver: &ruff_python_ast::Expr) {
        if self.failed_receiver.is_some() || !crate::core::why::noted() {
            return;
        }
        let Some(frame) = self.frames.last() else {
            return;
        };
        let range = receiver.range();
        let text = frame
            .source
            .text()
            .get(range.start().to_usize()..range.end().to_usize());
        self.failed_receiver = text.map(str::to_string);
    }

    /// The engine, for what a session needs of it (Ctrl-C).
    pub fn host_mut(&mut self) -> &mut Host {
        &mut self.host
    }

    /// Runs a module's statements in the globals; an exception that escapes is returned.
    pub fn run_module(
        &mut self,
        source: Rc<SourceText>,
        body: &'static [ruff_python_ast::Stmt],
    ) -> Result<(), Rc<PyException>> {
        self.frames.push(Frame {
            function: "<module>".into(),
            qualname: "<module>".into(),
            source,
            at: None,
            owner: None,
        });
        let globals = self.globals.clone();
        let spelled_as_python = crate::print::spelling::python();
        crate::print::spelling::set_python(true);
        let collecting = crate::ops::warnings::set_collecting(true);
        let result = self.exec_block(body, &globals);
        crate::ops::warnings::set_collecting(collecting);
        crate::print::spelling::set_python(spelled_as_python);
        self.frames.pop();
        match result {
            Ok(()) => Ok(()),
            Err(Unwind::Raise(e)) => Err(e),
            Err(Unwind::Return(_)) => Err(Rc::new(PyException::new(
                "SyntaxError",
                "'return' outside function",
            ))),
            Err(Unwind::Break | Unwind::Continue) => Err(Rc::new(PyException::new(
                "SyntaxError",
                "'break' or 'continue' outside loop",
            ))),
        }
    }

    /// Runs a module's statements and returns the value of the last one, with its repr, if
    /// it is an expression statement whose value is not `None` (the prompt echoes it).
    pub fn run_module_value(
        &mut self,
        source: Rc<SourceText>,
        body: &'static [ruff_python_ast::Stmt],
    ) -> Result<Option<(Value, String)>, Rc<PyException>> {
        let (last, rest) = match body.split_last() {
            Some((ruff_python_ast::Stmt::Expr(e), rest)) => (Some(e), rest),
            _ => (None, body),
        };
        self.run_module(source.clone(), rest)?;
        let Some(last) = last else {
            return Ok(None);
        };
        self.frames.push(Frame {
            function: "<module>".into(),
            qualname: "<module>".into(),
            source,
            at: None,
            owner: None,
        });
        self.set_line(last);
        let globals = self.globals.clone();
        let spelled_as_python = crate::print::spelling::python();
        crate::print::spelling::set_python(true);
        let collecting = crate::ops::warnings::set_collecting(true);
        let value = self
            .eval(&last.value, &globals)
            .and_then(|v| self.issue_torch_warnings().map(|()| v));
        crate::print::spelling::set_python(spelled_as_python);
        // The echo is part of the statement, as CPython's display hook is: an error in a
        // repr has the `<module>` frame in its traceback.
        let shown = match value {
            Ok(Value::None) => Ok(None),
            Ok(v) => self.repr_text(&v).map(|text| Some((v, text))),
            Err(e) => Err(e),
        }
        .and_then(|shown| self.issue_torch_warnings().map(|()| shown));
        crate::ops::warnings::set_collecting(collecting);
        self.frames.pop();
        match shown {
            Ok(shown) => Ok(shown),
            Err(Unwind::Raise(e)) => Err(e),
            Err(_) => Ok(None),
        }
    }

    /// The `str` of a value (for the prompt and the front end's callers).
    pub fn str_of(&mut self, v: &Value) -> Result<String, Rc<PyException>> {
        self.str_text(v).map_err(|u| match u {
            Unwind::Raise(e) => e,
            _ => Rc::new(PyException::new("RuntimeError", "unexpected control flow")),
        })
    }

    /// The `repr` of a value.
    pub fn repr_of(&mut self, v: &Value) -> Result<String, Rc<PyException>> {
        self.repr_text(v).map_err(|u| match u {
            Unwind::Raise(e) => e,
            _ => Rc::new(PyException::new("RuntimeError", "unexpected control flow")),
        })
    }

    /// The globals, by name.
    pub fn globals(&self) -> Vec<(String, Value)> {
        self.globals
            .vars
            .borrow()
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    /// The global `name`'s value, if it is bound.
    pub fn global(&self, name: &str) -> Option<Value> {
        self.globals.vars.borrow().get(name).cloned()
    }

    /// Binds a global (the prompt's `_`).
    pub fn set_global(&mut self, name: &str, v: Value) {
        self.globals.vars.borrow_mut().insert(name.into(), v);
    }

    /// Marks the statement or expression `node` as the running line of the current frame.
    fn set_line(&mut self, node: &impl Ranged) {
        if let Some(f) = self.frames.last_mut() {
            f.at = Some(node.start());
        }
    }

    /// `e` raised here: its traceback is the running frames, unless it was raised before.
    fn throw(&self, e: PyException) -> Unwind {
        self.throw_rc(Rc::new(e))
    }

    /// `throw` for an exception value.
    fn throw_rc(&self, e: Rc<PyException>) -> Unwind {
        // Raised while another is handled: that one is its context (`__context__`).
        if let Some(handled) = self.handling.last()
            && !Rc::ptr_eq(handled, &e)
            && e.context().is_none()
            && !chains_to(handled, &e)
        {
            e.set_context(handled.clone());
        }
        let mut tb = e.traceback.borrow_mut();
        if tb.is_empty() {
            tb.extend(self.frames.iter().map(|f| TraceFrame {
                file: f.source.name.clone(),
                line: f.line(),
                function: f.function.clone(),
                text: f.source.line_text(f.line()).trim().to_string(),
            }));
        }
        drop(tb);
        Unwind::Raise(e)
    }

    /// Raises a new exception of the builtin class `kind`.
    fn raise<T>(&self, kind: &str, message: impl Into<String>) -> Flow<T> {
        Err(self.throw(PyException::new(kind, message)))
    }

    /// Lifts an error of the front end's helpers (`number`, `format`, `host`) into a raise.
    fn lift<T>(&self, r: Result<T, PyException>) -> Flow<T> {
        r.map_err(|e| self.throw(e))
    }

    /// Stops a long Python loop when Ctrl-C was pressed, or when its values have grown past
    /// the heap budget (`MemoryError`, as Rhai scripts are stopped).
    fn check_interrupt(&self) -> Flow<()> {
        // Read before it is cleared: a plain load costs less than the swap every pass pays.
        let flag = crate::core::interrupt::flag();
        if flag.load(std::sync::atomic::Ordering::Relaxed)
            && flag.swap(false, std::sync::atomic::Ordering::Relaxed)
        {
            return self.raise("KeyboardInterrupt", "");
        }
        if crate::platform::heap::over_budget() {
            return self.raise("MemoryError", crate::core::interrupt::OUT_OF_MEMORY);
        }
        Ok(())
    }

    /// Enters a call of a Python function (a new frame), refusing past the recursion limit.
    fn push_frame(&mut self, function: Rc<str>, source: Rc<SourceText>) -> Flow<()> {
        if self.frames.len() >= RECURSION_LIMIT {
            return self.raise("RecursionError", "maximum recursion depth exceeded");
        }
        self.frames.push(Frame {
            qualname: function.clone(),
            function,
            source,
            at: None,
            owner: None,
        });
        Ok(())
    }
}

/// Whether `e`'s context chain already holds `target` (setting it again would loop).
fn chains_to(e: &Rc<PyException>, target: &Rc<PyException>) -> bool {
    let mut at = Some(e.clone());
    let mut steps = 0;
    while let Some(x) = at {
        if Rc::ptr_eq(&x, target) || steps > 1000 {
            return true;
        }
        steps += 1;
        at = x.context();
    }
    false
}
