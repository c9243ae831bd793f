//! A session: one runtime (the op table and its engine), one scope of variables and the
//! functions defined so far. Scripts run in one; the REPL feeds it line by line. Testable
//! without a terminal.

use std::sync::atomic::{AtomicBool, Ordering};

use rhai::{AST, Dynamic, Engine, LexError, ParseErrorType, Position, Scope};

use super::caught::{Shifts, bind_caught_errors};
use crate::ops::rhai_errors::Names;
use crate::ops::runtime::guarded;
pub use crate::ops::runtime::{Runtime, ScriptError, reset_process_state};

/// A script or REPL session.
pub struct Session {
    runtime: Runtime,
    scope: Scope<'static>,
    functions: AST,
    interrupt: Option<&'static AtomicBool>,
    /// Where the code being run had text inserted (`caught`), to report the user's columns.
    shifts: Shifts,
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

/// `code` without a `#!` first line (an executable script's interpreter line), which is
/// blanked rather than removed so line numbers stay.
fn without_shebang(code: &str) -> &str {
    match code.strip_prefix("#!") {
        Some(rest) => rest.find('\n').map_or("", |i| &rest[i..]),
        None => code,
    }
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

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A fresh session.
    pub fn new() -> Session {
        let mut runtime = Runtime::new();
        super::caught::register(runtime.engine_mut());
        Session {
            runtime,
            scope: Scope::new(),
            functions: AST::empty(),
            interrupt: None,
            shifts: Shifts::default(),
        }
    }

    /// The runtime programs run on (the op table and its engine).
    pub fn runtime(&self) -> &Runtime {
        &self.runtime
    }

    /// The engine (for completion and help).
    pub fn engine(&self) -> &Engine {
        self.runtime.engine()
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
            .filter(|f| !crate::ops::hidden::is_hidden_name(f.name))
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
                .runtime
                .engine()
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
        self.runtime.stop_when(flag);
    }

    /// True when `code` is a prefix of a valid script rather than a wrong one: it ends inside
    /// a block, bracket or string, or in the middle of an expression. The REPL keeps reading
    /// lines while this holds.
    pub fn is_incomplete(&self, code: &str) -> bool {
        let Err(e) = self.runtime.engine().compile_with_scope(&self.scope, code) else {
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
            self.runtime
                .engine()
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
        crate::ops::errors::forget_raised();
        let code = without_shebang(code);
        self.runtime.register_mentioned(code);
        let (code, shifts) = bind_caught_errors(self.runtime.engine(), code);
        self.shifts = shifts;
        let ast = self
            .runtime
            .engine()
            .compile_with_scope(&self.scope, &code)
            .map_err(|e| self.in_users_columns(syntax_error(e)))?;
        Ok(self.functions.merge(&ast))
    }

    fn eval_inner(&mut self, code: &str) -> Result<Dynamic, ScriptError> {
        let merged = self.prepare(code)?;
        let result = self
            .runtime
            .engine()
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
            engine: self.runtime.engine(),
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
        assert!(s.runtime.is_pending("cumsum"));
        assert!(s.runtime.is_pending("logsumexp"));
        let _ = s
            .eval("let x = torch::ones(3); let y = x.cumsum(0);")
            .expect("runs");
        assert!(!s.runtime.is_pending("cumsum"));
        assert!(s.runtime.is_pending("logsumexp"));
    }
}
