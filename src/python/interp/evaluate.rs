//! `eval(source)` and `exec(source)`: Python text a program hands over at run time, parsed
//! as a source of its own (`<string>`) and run in the caller's scope or in the dicts given.
//! The text runs as Python, as the program asked: nothing here is ever written into a Rhai
//! program.

use std::rc::Rc;

use ruff_python_ast::Stmt;

use super::{Flow, Interpreter};
use crate::python::function::{Scope, ScopeKind};
use crate::python::source::{self, SourceText};
use crate::python::value::{DictEntries, PyException, Value};

/// Which of the two builtins runs the text.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// `eval`: one expression, its value returned.
    Eval,
    /// `exec`: statements, `None` returned.
    Exec,
}

/// Where the text's names live: a scope, and the dicts it came from (written back after).
struct Namespace {
    scope: Rc<Scope>,
    globals: Option<(DictEntries, Rc<Scope>)>,
    locals: Option<DictEntries>,
}

impl Interpreter {
    /// Whether `function` is the builtin `eval` or `exec`, which read the caller's scope.
    pub(super) fn is_source_runner(function: &Value) -> bool {
        matches!(function, Value::Builtin(name) if matches!(&**name, "eval" | "exec"))
    }

    /// Calls `eval` or `exec` (`name`) with `args` and `keywords`; `caller` is the scope of
    /// the call when it is a plain call in source (else the module's globals are read).
    pub(super) fn run_given_source(
        &mut self,
        name: &str,
        args: Vec<Value>,
        keywords: Vec<(Rc<str>, Value)>,
        caller: Option<&Rc<Scope>>,
    ) -> Flow<Value> {
        let mode = if name == "eval" {
            Mode::Eval
        } else {
            Mode::Exec
        };
        // CPython 3.11's argument checks: both take up to three positionally; `exec` also
        // takes `closure=None`.
        for (key, value) in &keywords {
            match (mode, &**key, value) {
                (Mode::Exec, "closure", Value::None) => {}
                (Mode::Eval, ..) => {
                    return self.raise("TypeError", "eval() takes no keyword arguments");
                }
                (Mode::Exec, "closure", _) => {
                    return self.raise(
                        "NotImplementedError",
                        "tensh's Python does not run exec() with a closure",
                    );
                }
                (Mode::Exec, other, _) => {
                    return self.raise(
                        "TypeError",
                        format!("'{other}' is an invalid keyword argument for exec()"),
                    );
                }
            }
        }
        let count = args.len();
        let wrong = match (mode, count) {
            (Mode::Eval, 0) => Some("eval expected at least 1 argument, got 0".to_string()),
            (Mode::Eval, 4..) => Some(format!("eval expected at most 3 arguments, got {count}")),
            (Mode::Exec, 0) => Some("exec() takes at least 1 positional argument (0 given)".into()),
            (Mode::Exec, 4..) => Some(format!(
                "exec() takes at most 3 positional arguments ({count} given)"
            )),
            _ => None,
        };
        if let Some(message) = wrong {
            return self.raise("TypeError", message);
        }
        let mut given = args.into_iter();
        let (text, globals, locals) = (given.next(), given.next(), given.next());
        let Some(Value::Str(text)) = text else {
            return self.raise(
                "TypeError",
                format!("{name}() arg 1 must be a string, bytes or code object"),
            );
        };
        let namespace = self.namespace(mode, globals, locals, caller)?;
        // `eval` forgives the spaces and tabs an expression starts with.
        let text: &str = match mode {
            Mode::Eval => text.trim_start_matches([' ', '\t']),
            Mode::Exec => &text,
        };
        // Its own source, alive while this runs and while a function defined in it lives
        // (`Function::source`).
        let source = SourceText::new("<string>", text);
        let body = match source::parse(&source) {
            Ok(body) => body,
            Err(refusal) => {
                let column = refusal.column;
                return self.syntax_error(&source, &refusal.message, refusal.line, column);
            }
        };
        let expression = match (mode, body) {
            (Mode::Eval, [Stmt::Expr(e)]) => Some(&*e.value),
            (Mode::Eval, []) => return self.syntax_error(&source, "invalid syntax", 0, 0),
            (Mode::Eval, [first, ..]) => {
                let at = ruff_text_size::Ranged::start(first);
                let (line, column) = (source.line_of(at), source.column_of(at));
                return self.syntax_error(&source, "invalid syntax", line, column);
            }
            (Mode::Exec, _) => None,
        };
        self.push_frame("<module>".into(), source.clone())?;
        let result = match expression {
            Some(e) => {
                self.set_line(e);
                self.eval(e, &namespace.scope)
            }
            None => self
                .exec_block(body, &namespace.scope)
                .map(|()| Value::None),
        };
        self.frames.pop();
        self.write_back(&namespace);
        result
    }

    /// `SyntaxError` for text given to `eval`/`exec`, made as CPython makes it: its
    /// arguments are the message and `(filename, lineno, offset, text, end_lineno,
    /// end_offset)`, which its attributes read; `str(e)` names the place.
    fn syntax_error<T>(
        &self,
        source: &SourceText,
        message: &str,
        line: usize,
        column: usize,
    ) -> Flow<T> {
        // The line as written, with its line break (none for an empty text: line 0).
        let written = source
            .text()
            .split_inclusive('\n')
            .nth(line.wrapping_sub(1))
            .unwrap_or("");
        let mut e = PyException::new("SyntaxError", message);
        e.text = Some(format!("{message} (<string>, line {line})"));
        let (line, column) = (Value::Int(line as i64), Value::Int(column as i64));
        e.args.borrow_mut().push(Value::tuple(vec![
            Value::str("<string>"),
            line.clone(),
            column.clone(),
            Value::str(written),
            line,
            column,
        ]));
        Err(self.throw(e))
    }

    /// The scope the text runs in: the caller's (a function's own names are read, and what
    /// `exec` binds there stays with the text, as Python 3.13's snapshot of `locals()`), or
    /// scopes made from the `globals` and `locals` dicts.
    fn namespace(
        &self,
        mode: Mode,
        globals: Option<Value>,
        locals: Option<Value>,
        caller: Option<&Rc<Scope>>,
    ) -> Flow<Namespace> {
        let globals = match globals {
            None | Some(Value::None) => None,
            Some(Value::Dict(d)) => Some(d),
            Some(other) => {
                let what = if mode == Mode::Eval {
                    "globals must be a real dict; try eval(expr, {}, mapping)".to_string()
                } else {
                    format!("exec() globals must be a dict, not {}", other.type_name())
                };
                return self.raise("TypeError", what);
            }
        };
        let locals = match locals {
            None | Some(Value::None) => None,
            Some(Value::Dict(d)) => Some(d),
            Some(other) => {
                let what = match mode {
                    Mode::Eval => "locals must be a mapping".to_string(),
                    Mode::Exec => {
                        format!(
                            "locals must be a mapping or None, not {}",
                            other.type_name()
                        )
                    }
                };
                return self.raise("TypeError", what);
            }
        };
        let Some(globals) = globals else {
            let caller = caller.cloned().unwrap_or_else(|| self.globals.clone());
            let scope = match (&caller.kind, &locals) {
                (_, Some(l)) => Self::scope_of(l, Some(&caller)),
                (ScopeKind::Module | ScopeKind::Class, None) => caller,
                _ => Scope::inside(&caller, ScopeKind::Comprehension),
            };
            return Ok(Namespace {
                scope,
                globals: None,
                locals,
            });
        };
        let module = Self::scope_of(&globals, None);
        let scope = match &locals {
            Some(l) => Self::scope_of(l, Some(&module)),
            None => module.clone(),
        };
        Ok(Namespace {
            scope,
            globals: Some((globals, module)),
            locals,
        })
    }

    /// A scope holding a dict's string keys: a module scope, or one inside `parent`.
    fn scope_of(d: &DictEntries, parent: Option<&Rc<Scope>>) -> Rc<Scope> {
        let scope = match parent {
            None => Scope::module(),
            Some(p) => Scope::inside(p, ScopeKind::Comprehension),
        };
        {
            let mut vars = scope.vars.borrow_mut();
            for (k, v) in d.borrow().iter() {
                if let Value::Str(k) = k {
                    vars.insert(k.clone(), v.clone());
                }
            }
        }
        scope
    }

    /// Writes what the text bound back into the dicts it was given.
    fn write_back(&self, namespace: &Namespace) {
        let copy = |d: &DictEntries, scope: &Rc<Scope>| {
            let vars = scope.vars.borrow();
            let mut d = d.borrow_mut();
            for (k, v) in vars.iter() {
                d.set_str(k, v.clone());
            }
        };
        if let Some(l) = &namespace.locals {
            copy(l, &namespace.scope);
        }
        if let Some((g, module)) = &namespace.globals {
            copy(g, module);
        }
    }
}
