//! A session: one engine, one scope of variables and the functions defined so far. Scripts run
//! in one; the REPL feeds it line by line. Testable without a terminal.

use rhai::{AST, Dynamic, Engine, EvalAltResult, Position, Scope};

use super::engine::new_engine;
use super::errors::error_text;

/// A script or REPL session.
pub struct Session {
    engine: Engine,
    scope: Scope<'static>,
    functions: AST,
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
}

impl ScriptError {
    fn from_rhai(e: &EvalAltResult) -> ScriptError {
        let pos = innermost_position(e);
        ScriptError {
            message: error_text(e),
            line: pos.line(),
            column: pos.position(),
        }
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
        Session {
            engine: new_engine(),
            scope: Scope::new(),
            functions: AST::empty(),
        }
    }

    /// The engine (for completion and help).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The variables defined so far.
    pub fn scope(&self) -> &Scope<'static> {
        &self.scope
    }

    /// Defines `ARGS` as an array of strings.
    pub fn set_args(&mut self, args: &[String]) {
        let a: rhai::Array = args.iter().map(|s| Dynamic::from(s.clone())).collect();
        self.scope.push("ARGS", a);
    }

    /// Runs `code`, keeping its variables and functions, and returns the value of its last
    /// expression statement (unit for `let` and other statements).
    pub fn eval(&mut self, code: &str) -> Result<Dynamic, ScriptError> {
        // Last line of defence: no input should panic, but if a bug does, the session reports
        // it as an error instead of aborting (the tensor state a panic interrupted is only
        // ever bytes within bounds, so going on is safe).
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.eval_inner(code)));
        run.unwrap_or_else(|payload| {
            let what = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(ScriptError {
                message: format!("InternalError: tensh hit a bug ({what}); please report it"),
                line: None,
                column: None,
            })
        })
    }

    fn eval_inner(&mut self, code: &str) -> Result<Dynamic, ScriptError> {
        let ast = self
            .engine
            .compile_with_scope(&self.scope, code)
            .map_err(|e| {
                let pos = e.1;
                ScriptError {
                    message: format!("SyntaxError: {}", e.0),
                    line: pos.line(),
                    column: pos.position(),
                }
            })?;
        let merged = self.functions.merge(&ast);
        let result = self
            .engine
            .eval_ast_with_scope::<Dynamic>(&mut self.scope, &merged);
        self.functions = merged.clone_functions_only();
        result.map_err(|e| ScriptError::from_rhai(&e))
    }
}
