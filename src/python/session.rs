//! A Python session at a prompt, in a notebook or in a transcript test: inputs run one after
//! another in the same globals; an expression's value is echoed as Python's REPL echoes it
//! (its `repr`, nothing for `None`) and kept as `_`.

use std::sync::atomic::AtomicBool;

use super::interp::Interpreter;
use super::source::{self, SourceText};
use super::value::Value;

/// What running one input came to.
#[derive(Debug, Clone, PartialEq)]
pub enum PyOutcome {
    /// Statements, or an expression whose value is `None`.
    Nothing,
    /// An expression's value, as the prompt echoes it.
    Value(String),
    /// An exception ended it.
    Raised {
        /// Python's whole report (traceback and `Kind: message`).
        report: String,
        /// The exception class's name.
        kind: String,
        /// `str(e)`.
        message: String,
    },
    /// It raised `SystemExit` (`exit()`, `sys.exit(n)`) with this status.
    Exit(i32),
}

/// A Python session.
pub struct PythonSession {
    interp: Interpreter,
    /// The name inputs are reported under (`<stdin>`).
    name: String,
}

impl Default for PythonSession {
    fn default() -> Self {
        PythonSession::new("<stdin>")
    }
}

impl PythonSession {
    /// A fresh session whose inputs are reported as coming from `name`.
    pub fn new(name: &str) -> PythonSession {
        PythonSession {
            interp: Interpreter::new(vec![String::new()]),
            name: name.to_string(),
        }
    }

    /// Makes a running input stop with `KeyboardInterrupt` soon after `flag` is set.
    pub fn stop_when(&mut self, flag: &'static AtomicBool) {
        self.interp.host_mut().session_mut().stop_when(flag);
    }

    /// Whether `code` needs more lines, as Python's prompt decides: a compound statement
    /// (its first line ends with `:`) ends with a blank line; anything else is complete
    /// unless it ends inside brackets, a triple-quoted string or after a backslash.
    pub fn is_incomplete(&self, code: &str) -> bool {
        if code.len() > 1 << 16 && super::source::too_deep(code) {
            // Complete: running it reports the refusal.
            return false;
        }
        let lines: Vec<&str> = code.lines().collect();
        let Some(first) = lines.iter().find(|l| !l.trim().is_empty()) else {
            return false;
        };
        // A compound statement (even on one line: `while True: pass`) ends with a blank line.
        let opens_block = |l: &str| {
            let l = l.split('#').next().unwrap_or(l).trim();
            let word: String = l
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            l.ends_with(':')
                || l.starts_with('@')
                || (matches!(
                    word.as_str(),
                    "if" | "for" | "while" | "try" | "with" | "def" | "class" | "async" | "match"
                ) && l.contains(':'))
        };
        if opens_block(first)
            || (lines.len() > 1 && lines.iter().skip(1).any(|l| l.starts_with([' ', '\t'])))
        {
            // Complete once a blank line (blanks only: the prompt's indentation) ends it.
            let last_blank =
                code.ends_with('\n') && code.lines().last().is_some_and(|l| l.trim().is_empty());
            return !last_blank;
        }
        if code.trim_end().ends_with('\\')
            || code.matches("\"\"\"").count() % 2 == 1
            || code.matches("'''").count() % 2 == 1
        {
            return true;
        }
        match ruff_python_parser::parse_module(code) {
            Ok(_) => false,
            Err(e) => {
                let at = usize::from(e.location.start());
                at >= code.trim_end().len() && open_brackets(code) > 0
            }
        }
    }

    /// The session's global variables, by name (in no particular order).
    pub fn variables(&self) -> Vec<(String, Value)> {
        self.interp.globals()
    }

    /// The name of `value`'s type, as `type(value).__name__` gives it.
    pub fn type_name_of(&self, value: &Value) -> String {
        value.type_name().to_string()
    }

    /// `repr(value)`, if it has one without an error.
    pub fn repr(&mut self, value: &Value) -> Option<String> {
        self.interp.repr_of(value).ok()
    }

    /// The globals as completion knows them.
    pub fn known_globals(&mut self) -> Vec<super::interp::Known> {
        self.interp.known_globals()
    }

    /// The type of the tensh value (a tensor, a storage) the global `name` holds, if it
    /// holds one.
    pub fn host_type_of(&self, name: &str) -> Option<std::any::TypeId> {
        match self.interp.global(name)? {
            Value::Tensor(_) => Some(std::any::TypeId::of::<crate::core::tensor::Tensor>()),
            Value::Host(d) => Some(d.type_id()),
            _ => None,
        }
    }

    /// Binds the global `name` to `value`.
    pub fn set_variable(&mut self, name: &str, value: Value) {
        self.interp.set_global(name, value);
    }

    /// Runs `code` `loops` times in the session's globals (as IPython's `%timeit` runs it),
    /// parsed once; the time taken, or what the first failing run raised.
    pub fn time(&mut self, code: &str, loops: usize) -> Result<std::time::Duration, PyOutcome> {
        let source = SourceText::new(&self.name, code);
        let body = match source::parse(&source) {
            Ok(body) => body,
            // The refusal as `run` reports it.
            Err(_) => return Err(self.run(code)),
        };
        let start = crate::platform::clock::Instant::now();
        for _ in 0..loops {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.interp.run_module(source.clone(), body)
            }));
            match outcome {
                Ok(Ok(())) => {}
                Ok(Err(e)) => return Err(self.raised(&e)),
                Err(payload) => return Err(unwound(&*payload)),
            }
        }
        Ok(start.elapsed())
    }

    /// Runs one input.
    pub fn run(&mut self, code: &str) -> PyOutcome {
        let source = SourceText::new(&self.name, code);
        let body = match source::parse(&source) {
            Ok(body) => body,
            Err(refusal) => {
                let line = source.line_text(refusal.line);
                let report = format!(
                    "  File \"{}\", line {}\n    {}\n{}^\n{}: {}\n",
                    self.name,
                    refusal.line,
                    line.trim_start(),
                    " ".repeat(
                        4 + refusal
                            .column
                            .saturating_sub(1)
                            .saturating_sub(line.len() - line.trim_start().len())
                    ),
                    refusal.kind,
                    refusal.message
                );
                return PyOutcome::Raised {
                    report,
                    kind: refusal.kind.to_string(),
                    message: refusal.message,
                };
            }
        };
        self.interp.forget_failure();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.interp.run_module_value(source.clone(), body)
        }));
        let result = match outcome {
            Ok(r) => r,
            Err(payload) => return unwound(&*payload),
        };
        match result {
            Ok(None) => PyOutcome::Nothing,
            Ok(Some((v, text))) => {
                self.interp.set_global("_", v);
                PyOutcome::Value(text)
            }
            Err(e) if &*e.class.name == "SystemExit" => {
                PyOutcome::Exit(match e.args.borrow().first() {
                    None | Some(Value::None) => 0,
                    Some(Value::Int(i)) => *i as i32,
                    Some(_) => 1,
                })
            }
            Err(e) => self.raised(&e),
        }
    }

    /// The text of the receiver whose call or subscript raised the error `:why` explains
    /// in the last input (`x.t()` for `x.t().view(6)`).
    pub fn failed_receiver(&self) -> Option<&str> {
        self.interp.failed_receiver()
    }

    fn raised(&mut self, e: &super::exception::PyException) -> PyOutcome {
        let report = super::traceback_text(&mut self.interp, e);
        let line = super::exception_line(&mut self.interp, e);
        let message = line
            .split_once(": ")
            .map_or(String::new(), |(_, m)| m.to_string());
        PyOutcome::Raised {
            report,
            kind: e.class.name.to_string(),
            message,
        }
    }
}

/// What an input that unwound (an interrupt or a limit stopping it) raised.
fn unwound(payload: &(dyn std::any::Any + Send)) -> PyOutcome {
    let (kind, message) = crate::core::interrupt::unwound_exception(payload);
    let kind = kind.to_string();
    let line = if message.is_empty() {
        kind.clone()
    } else {
        format!("{kind}: {message}")
    };
    PyOutcome::Raised {
        report: format!("{line}\n"),
        kind,
        message,
    }
}

/// How many brackets are open at the end of `code` (strings and comments skipped roughly).
fn open_brackets(code: &str) -> i64 {
    let mut depth = 0i64;
    let mut quote: Option<char> = None;
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                if c == '\\' {
                    chars.next();
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '\'' | '"' => quote = Some(c),
                '#' => {
                    for n in chars.by_ref() {
                        if n == '\n' {
                            break;
                        }
                    }
                }
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                _ => {}
            },
        }
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_complete_as_at_pythons_prompt() {
        let s = PythonSession::default();
        assert!(!s.is_incomplete("x = 1\n"));
        assert!(s.is_incomplete("x = (1,\n"));
        assert!(s.is_incomplete("for i in range(3):\n"));
        assert!(s.is_incomplete("for i in range(3):\n    print(i)\n"));
        assert!(!s.is_incomplete("for i in range(3):\n    print(i)\n\n"));
        assert!(!s.is_incomplete("for i in range(3):\n    print(i)\n    \n"));
        assert!(!s.is_incomplete("x = = 1\n"));
        assert!(s.is_incomplete("while True: pass\n"));
        assert!(!s.is_incomplete("iffy = {1: 2}\n"));
        assert!(s.is_incomplete("s = '''abc\n"));
    }

    #[test]
    fn values_echo_and_errors_report() {
        let mut s = PythonSession::default();
        assert_eq!(s.run("x = 2\n"), PyOutcome::Nothing);
        assert_eq!(s.run("x * 3\n"), PyOutcome::Value("6".into()));
        assert_eq!(s.run("_ + 1\n"), PyOutcome::Value("7".into()));
        assert_eq!(s.run("None\n"), PyOutcome::Nothing);
        let PyOutcome::Raised { report, kind, .. } = s.run("1 / 0\n") else {
            panic!("expected a raise")
        };
        assert_eq!(kind, "ZeroDivisionError");
        assert!(
            report.starts_with("Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\nZeroDivisionError"),
            "{report}"
        );
        assert!(report.ends_with("ZeroDivisionError: division by zero\n"));
        assert_eq!(s.run("exit(3)\n"), PyOutcome::Exit(3));
    }

    /// A function keeps the input it was defined in: called after that input has run, and
    /// after many other inputs have come and gone, it still runs its body, its defaults,
    /// its closures and its f-string's text from there.
    #[test]
    fn functions_outlive_the_inputs_that_defined_them() {
        let mut s = PythonSession::default();
        let defined = [
            "def scale(x, k=3):\n    return x * k\n",
            "fs = [lambda y: y + 1, lambda y: y - 1]\n",
            "def make(n):\n    def add(v):\n        return v + n\n    return add\nadd5 = make(5)\n",
            "def show(v):\n    return f'{v=}'\n",
        ];
        for code in defined {
            assert_eq!(s.run(code), PyOutcome::Nothing, "{code}");
        }
        for i in 0..2000 {
            let code = format!("z{} = [{i}] * {}\ndel z{}\n", i % 7, i % 5, i % 7);
            assert_eq!(s.run(&code), PyOutcome::Nothing, "{code}");
        }
        assert_eq!(s.run("scale(2)\n"), PyOutcome::Value("6".into()));
        assert_eq!(
            s.run("[f(10) for f in fs]\n"),
            PyOutcome::Value("[11, 9]".into())
        );
        assert_eq!(s.run("add5(1)\n"), PyOutcome::Value("6".into()));
        assert_eq!(s.run("make(2)(2)\n"), PyOutcome::Value("4".into()));
        assert_eq!(s.run("show(7)\n"), PyOutcome::Value("'v=7'".into()));
        // A name rebound frees the old function, and with it its input; the new one runs.
        assert_eq!(s.run("def scale(x):\n    return -x\n"), PyOutcome::Nothing);
        assert_eq!(s.run("scale(2)\n"), PyOutcome::Value("-2".into()));
    }
}
