//! The REPL's session without a terminal: lines of Rhai go in and run once Rhai can parse
//! the input whole; output goes through `script::output`. Reading a line that may be a
//! meta-command or part of a pasted transcript is `lines`'s, above this.

use std::any::TypeId;
use std::rc::Rc;

use super::catalog::Catalog;
use crate::ops::output;
use crate::python::session::{PyOutcome, PythonSession};
use crate::script::session::{ScriptError, Session};
use crate::script::source_excerpt::{excerpt, placed};
use crate::script::tokens::{each_token, open_depth, splice};

/// The first line a session shows: tensh's version, the language, where help is and how to
/// leave (`leave`: "Ctrl-D to exit" at a terminal).
pub fn banner(python: bool, leave: &str) -> String {
    format!(
        "{} — PyTorch's memory model in {}. :help for help, {leave}.",
        crate::version(),
        languages(python)
    )
}

/// The language a session reads, and how to switch to the other: `Rhai (:python for
/// Python)`.
pub fn languages(python: bool) -> &'static str {
    if python {
        "Python (:rhai for Rhai)"
    } else {
        "Rhai (:python for Python)"
    }
}

/// A first thing to try at a fresh prompt, one input a line.
pub fn first_steps(python: bool) -> &'static [&'static str] {
    if python {
        &[
            "import torch",
            "x = torch.arange(6).view(2, 3)",
            "x.t().stride()",
            "x.t().is_contiguous()",
        ]
    } else {
        &[
            "let x = torch::arange(6).view(2, 3);",
            "x.t().stride()",
            "explain(x.t())",
        ]
    }
}

/// The primary prompt, as in PyTorch's documentation sessions.
pub const PROMPT: &str = ">>> ";
/// The prompt for a continuation line.
pub const CONTINUATION: &str = "... ";

/// The variable that holds the last echoed value; the prompt's `_` is rewritten to it (Rhai
/// does not allow `_` as a name).
pub const LAST_VALUE: &str = "__tensh_last"; // starts with script::hidden::PREFIX

/// What feeding a line did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The input is incomplete; the next line continues it.
    More,
    /// The input ran (or failed); the next line starts a new one.
    Done,
    /// The user asked to leave.
    Quit,
}

/// One input the session ran and what it printed, for `:save`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logged {
    /// The input's lines, as typed (without prompts).
    pub input: Vec<String>,
    /// What it printed, both streams, one `\n` after each line (cut at
    /// `output::RECORD_LIMIT` bytes).
    pub output: String,
    /// Whether `output` was cut.
    pub cut: bool,
    /// Whether it printed something that differs from run to run (a clock, an address:
    /// `platform::varies`).
    pub varies: bool,
    /// Whether Ctrl-C (or a kernel's interrupt) stopped it.
    pub interrupted: bool,
}

/// An error an input or a meta-command reported, as an exception: its name (`RuntimeError`;
/// IPython's `UsageError` for a meta-command used wrongly) and its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The exception's name.
    pub kind: String,
    /// Its message (empty for `KeyboardInterrupt`).
    pub message: String,
}

/// A session at a prompt.
pub struct Console {
    session: Session,
    pending: String,
    /// The lines of the input being read, as typed.
    pending_lines: Vec<String>,
    /// Lines are arriving from a pasted transcript: output lines between its prompts are
    /// skipped while the lines keep arriving faster than anyone types.
    in_transcript: bool,
    log: Vec<Logged>,
    /// The status `exit()` asked for; the prompt ends after the input.
    exit: Option<i32>,
    /// The last input, with its error if it failed (for `:why` to name what the user wrote).
    last_failure: Option<(String, ScriptError)>,
    /// The Python session, once `:python` (or `--python`) asked for one; inputs go to it
    /// while `python_mode` is on.
    python: Option<PythonSession>,
    python_mode: bool,
    /// What the last switch to Rhai handed over from Python (`shared_names`).
    crossed: super::shared_names::Crossed,
    /// The flag Ctrl-C sets, for a Python session made later.
    interrupt: Option<&'static std::sync::atomic::AtomicBool>,
    /// The first error reported since `take_failure` (a notebook cell's status).
    failure: Option<Failure>,
    /// The input being run was stopped by an interrupt (kept in its log entry).
    interrupted: bool,
}

impl Default for Console {
    fn default() -> Self {
        Console::new()
    }
}

impl Console {
    /// A fresh console.
    pub fn new() -> Console {
        let session = Session::new();
        output::start_recording();
        super::help::provide_to_python();
        // A console starts in Rhai, whatever the thread's last console spoke.
        crate::print::spelling::set_python(false);
        Console {
            session,
            pending: String::new(),
            pending_lines: Vec::new(),
            in_transcript: false,
            log: Vec::new(),
            exit: None,
            last_failure: None,
            python: None,
            python_mode: false,
            crossed: Default::default(),
            interrupt: None,
            failure: None,
            interrupted: false,
        }
    }

    /// Makes running code stop with `KeyboardInterrupt` soon after `flag` is set, in either
    /// language.
    pub fn stop_when(&mut self, flag: &'static std::sync::atomic::AtomicBool) {
        self.session.stop_when(flag);
        if let Some(p) = &mut self.python {
            p.stop_when(flag);
        }
        self.interrupt = Some(flag);
    }

    /// Reads inputs as Python (`true`) or Rhai (`false`) from now on. The variables of the
    /// language left are handed to the one entered (`shared_names`); tensors, seeds and
    /// print options are the process's.
    pub fn set_python(&mut self, on: bool) {
        self.cancel();
        let was = self.python_mode;
        self.python_mode = on;
        crate::print::spelling::set_python(on);
        if on && self.python.is_none() {
            let mut p = PythonSession::default();
            if let Some(flag) = self.interrupt {
                p.stop_when(flag);
            }
            self.python = Some(p);
        }
        if let Some(p) = &mut self.python {
            match (was, on) {
                (false, true) => self.crossed.into_python(&self.session, p),
                (true, false) => self.crossed.into_rhai(p, &mut self.session),
                _ => {}
            }
        }
    }

    /// At a Python prompt, whether `code` needs more lines; `None` at a Rhai prompt.
    pub fn python_incomplete(&self, code: &str) -> Option<bool> {
        match (&self.python, self.python_mode) {
            (Some(p), true) => Some(p.is_incomplete(code)),
            _ => None,
        }
    }

    /// The Python session, once there is one.
    pub fn python_session(&mut self) -> Option<&mut PythonSession> {
        self.python.as_mut()
    }

    /// Whether inputs are read as Python.
    pub fn is_python(&self) -> bool {
        self.python_mode
    }

    /// The last input and its error, when it failed.
    pub fn last_failure(&self) -> Option<&(String, ScriptError)> {
        self.last_failure.as_ref()
    }

    /// What the last input called the tensor its failed call or subscript was on (`x.t()`
    /// for `x.t().view(6)`), in the language it was written in; `None` when not known.
    pub fn failed_receiver(&self) -> Option<String> {
        match (&self.python, self.python_mode) {
            (Some(p), true) => p
                .failed_receiver()
                .filter(|r| crate::repl::why_command::is_short_receiver(r))
                .map(str::to_string),
            _ => {
                let (code, e) = self.last_failure.as_ref()?;
                crate::repl::why_command::receiver_text(code, e.line?, e.column?)
            }
        }
    }

    /// The session (to install interrupt handling, or inspect variables).
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// The session, to read.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The catalog of every name a session can call (read once per thread from an engine
    /// with every name registered: a session registers its names only when a program
    /// names them).
    pub fn catalog(&self) -> Rc<Catalog> {
        Catalog::shared()
    }

    /// The prompt for the next line.
    pub fn prompt(&self) -> &'static str {
        if self.pending.is_empty() {
            PROMPT
        } else {
            CONTINUATION
        }
    }

    /// The indentation a continuation line starts with: four spaces per bracket or block
    /// still open.
    pub fn indent(&self) -> String {
        if self.pending.is_empty() {
            return String::new();
        }
        if self.python_mode {
            return python_indent_after(self.pending_lines.last().map_or("", String::as_str));
        }
        "    ".repeat(open_depth(self.session.engine(), &self.pending).min(16))
    }

    /// Drops a partly typed input (Ctrl-C at the prompt).
    pub fn cancel(&mut self) {
        self.pending.clear();
        self.pending_lines.clear();
    }

    /// The inputs run so far, with what each printed (`:reset` starts the log again).
    pub fn log(&self) -> &[Logged] {
        &self.log
    }

    /// The exit status `exit()` or `quit()` asked for (0 when the prompt ended otherwise).
    pub fn exit_status(&self) -> i32 {
        self.exit.unwrap_or(0)
    }

    /// The exit status `exit()` asked for, if it was called.
    pub fn exit_requested(&self) -> Option<i32> {
        self.exit
    }

    /// Ends the prompt after the current input with `status` (a loaded file called `exit()`).
    pub fn request_exit(&mut self, status: i32) {
        self.exit = Some(status);
    }

    /// Forgets the log (the session starts again).
    pub fn clear_log(&mut self) {
        self.log.clear();
        let _ = output::take_recorded();
    }

    /// The session's variables and the type of each value, for completion.
    ///
    /// The script functions defined so far come last, each as `name(` with the type of a
    /// function pointer, so that completion offers them where a variable could be.
    pub fn variables(&self) -> Vec<(String, TypeId)> {
        let mut found: Vec<(String, TypeId)> = self
            .session
            .scope()
            .iter_raw()
            .filter(|(name, _, _)| !is_hidden(name))
            .map(|(name, _, value)| (name.to_string(), value.type_id()))
            .collect();
        found.extend(
            self.session
                .function_names()
                .into_iter()
                .map(|f| (format!("{f}("), TypeId::of::<rhai::FnPtr>())),
        );
        found
    }

    /// What completion knows of the names of the language read now.
    pub fn names(&mut self) -> super::completion::SessionNames {
        match (&mut self.python, self.python_mode) {
            (Some(p), true) => super::completion::SessionNames::Python(p.known_globals()),
            _ => super::completion::SessionNames::Rhai(self.variables()),
        }
    }

    /// Completions for the text of `line` before `pos`, in the language read now: where the
    /// replaced word starts, and the candidates.
    pub fn completions(&mut self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let names = self.names();
        super::completion::complete_in(line, pos, &self.catalog(), &names)
    }

    /// The type name of the variable `name`, if there is one.
    pub fn type_of_variable(&self, name: &str) -> Option<String> {
        if let (Some(p), true) = (&self.python, self.python_mode) {
            let id = p.host_type_of(name)?;
            return self.catalog().type_names.get(&id).cloned();
        }
        let value = self.session.scope().get(name)?;
        Some(
            self.session
                .engine()
                .map_type_name(value.type_name())
                .to_string(),
        )
    }

    /// Whether no input is pending: the next line starts a new one.
    pub fn at_start(&self) -> bool {
        self.pending.is_empty()
    }

    /// Whether lines are arriving from a pasted transcript (`lines::feed_text` keeps it).
    pub fn in_transcript(&self) -> bool {
        self.in_transcript
    }

    /// Records whether lines are arriving from a pasted transcript.
    pub fn set_in_transcript(&mut self, on: bool) {
        self.in_transcript = on;
    }

    /// What the next line would continue: `More` inside an input, else `Done`.
    pub fn now(&self) -> Step {
        if self.pending.is_empty() {
            Step::Done
        } else {
            Step::More
        }
    }

    /// Adds one line of Rhai to the pending input, and runs the input once Rhai can parse
    /// it whole (meta-commands and help requests are `lines::feed`'s).
    pub fn input_line(&mut self, line: &str) -> Step {
        self.pending.push_str(line);
        self.pending.push('\n');
        self.pending_lines.push(line.to_string());
        self.run_if_complete()
    }

    /// Adds the lines of one input at once (a transcript entry's), asking once whether the
    /// input is complete, and runs it if it is.
    pub fn input_lines(&mut self, lines: &[String]) -> Step {
        for line in lines {
            self.pending.push_str(line);
            self.pending.push('\n');
            self.pending_lines.push(line.clone());
        }
        self.run_if_complete()
    }

    /// Runs the pending input once its language can parse it whole.
    fn run_if_complete(&mut self) -> Step {
        let incomplete = match (&self.python, self.python_mode) {
            (Some(p), true) => p.is_incomplete(&self.pending),
            _ => self.session.is_incomplete(&self.pending),
        };
        if incomplete {
            return Step::More;
        }
        let code = std::mem::take(&mut self.pending);
        let lines = std::mem::take(&mut self.pending_lines);
        self.run(&code);
        self.keep(lines);
        if self.exit.is_some() {
            return Step::Quit;
        }
        Step::Done
    }

    /// Logs an input with what it printed.
    pub fn keep(&mut self, input: Vec<String>) {
        let (output, cut) = output::take_recorded();
        self.log.push(Logged {
            input,
            output,
            cut,
            varies: crate::platform::varies::take(),
            interrupted: std::mem::take(&mut self.interrupted),
        });
    }

    /// Forgets what the log would say of the input about to run (its output, its notes).
    pub fn start_input(&mut self) {
        let _ = output::take_recorded();
        let _ = crate::platform::varies::take();
        self.interrupted = false;
    }

    /// Runs a whole input: echoes an expression's value (and keeps it as `_`), reports an
    /// error.
    pub fn run(&mut self, code: &str) {
        match self.evaluate(code) {
            Outcome::Nothing => {}
            Outcome::Value(text) => output::print_line(&text),
            Outcome::Failed(e) => self.report(code, &e),
            Outcome::Raised {
                report,
                kind,
                message,
            } => self.report_raised(&report, Failure { kind, message }),
            Outcome::Exit(status) => self.exit = Some(status),
        }
    }

    /// Shows a Python exception's report and notes it as the input's failure.
    pub fn report_raised(&mut self, report: &str, failure: Failure) {
        output::stderr_raw(report);
        self.note_failure(failure);
    }

    /// Shows the error `code` raised (`report`) and notes it as the input's failure.
    pub fn report(&mut self, code: &str, e: &ScriptError) {
        report(code, e);
        self.note_failure(failure_of(e));
    }

    /// Shows a meta-command's complaint on standard error and notes it as a failure
    /// (IPython's `UsageError`).
    pub fn usage_error(&mut self, text: &str) {
        output::error(text);
        self.note_failure(Failure {
            kind: "UsageError".to_string(),
            message: text.to_string(),
        });
    }

    /// Keeps `failure` unless an earlier one since `take_failure` is kept already.
    pub fn note_failure(&mut self, failure: Failure) {
        if failure.kind == "KeyboardInterrupt" {
            self.interrupted = true;
        }
        self.failure.get_or_insert(failure);
    }

    /// The first error reported since the last call, if any (shown already when it was
    /// reported).
    pub fn take_failure(&mut self) -> Option<Failure> {
        self.failure.take()
    }

    /// Draws again the picture an earlier input drew (`explain(x)`, `:explain x`), showing
    /// what it prints, as no input of the user's: nothing is logged, `_` and the failure
    /// `:why` explains stay those of the last input, and nothing counts as a failure.
    pub fn redraw(&mut self, code: &str) {
        let code = match code.trim().strip_prefix(":explain") {
            Some(rest) if rest.starts_with(char::is_whitespace) => {
                super::explain_command::call_in(rest, self.python_mode)
            }
            _ => code.to_string(),
        };
        let why = crate::core::why::last();
        let last_failure = self.last_failure.take();
        let failure = self.failure.take();
        let last_value = self.session.scope().get_value::<rhai::Dynamic>(LAST_VALUE);
        let _ = self.evaluate(&code);
        crate::core::why::restore(why);
        self.last_failure = last_failure;
        self.failure = failure;
        if let Some(v) = last_value {
            self.session.scope_mut().set_value(LAST_VALUE, v);
        }
    }

    /// Runs a whole input as `run` does, and returns what the prompt would show instead of
    /// showing it (a notebook cell's result). A value's repr is kept as `_`; `exit()` is
    /// returned, not acted on. What the code printed while it ran has been shown already.
    pub fn evaluate(&mut self, code: &str) -> Outcome {
        crate::core::why::next_input();
        if let (Some(p), true) = (&mut self.python, self.python_mode) {
            return match p.run(code) {
                PyOutcome::Nothing => Outcome::Nothing,
                PyOutcome::Value(text) => Outcome::Value(text),
                PyOutcome::Exit(status) => Outcome::Exit(status),
                PyOutcome::Raised {
                    report,
                    kind,
                    message,
                } => Outcome::Raised {
                    report,
                    kind,
                    message,
                },
            };
        }
        let renamed = last_value_named(self.session.engine(), code);
        let result = self.session.eval(&renamed);
        self.last_failure = result.as_ref().err().map(|e| (code.to_string(), e.clone()));
        if let Some(hint) = crate::script::hints::floor_division_hint(self.session.engine(), code) {
            output::error(&hint);
        }
        match result {
            Err(ScriptError {
                exit: Some(status), ..
            }) => Outcome::Exit(status),
            Ok(v) if v.is_unit() => Outcome::Nothing,
            Ok(v) => match self.session.repr(&v) {
                Ok(text) => {
                    self.session.scope_mut().set_value(LAST_VALUE, v);
                    Outcome::Value(text)
                }
                Err(e) => Outcome::Failed(e),
            },
            Err(e) => Outcome::Failed(e),
        }
    }
}

/// What running one input came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A statement, or an expression of value `()`: nothing to echo.
    Nothing,
    /// An expression's value, as the prompt echoes it (PyTorch's repr).
    Value(String),
    /// An error stopped it.
    Failed(ScriptError),
    /// A Python exception stopped it.
    Raised {
        /// Python's report: the traceback and `Kind: message`.
        report: String,
        /// The exception class's name.
        kind: String,
        /// `str(e)`.
        message: String,
    },
    /// It called `exit()` or `quit()` with this status.
    Exit(i32),
}

/// The indentation of the Python line after `last`: its own, four more after a line
/// opening a block (ending with `:`).
pub fn python_indent_after(last: &str) -> String {
    let base = last.len() - last.trim_start().len();
    let opens = last
        .split('#')
        .next()
        .unwrap_or(last)
        .trim_end()
        .ends_with(':');
    " ".repeat(base + if opens { 4 } else { 0 })
}

/// Names the session keeps for itself, hidden from `:vars` and completion.
pub fn is_hidden(name: &str) -> bool {
    crate::ops::hidden::is_hidden_name(name)
}

/// `code` with each `_` that stands for a value (not a `switch` arm's `_ =>`) renamed to
/// the variable holding the last value.
fn last_value_named<'a>(engine: &rhai::Engine, code: &'a str) -> std::borrow::Cow<'a, str> {
    if !code.contains('_') {
        return code.into();
    }
    let mut tokens: Vec<(rhai::Token, usize)> = Vec::new();
    each_token(engine, code, |t, at| tokens.push((t.clone(), at)));
    let edits: Vec<(usize, usize, String)> = tokens
        .iter()
        .enumerate()
        .filter(|(i, (t, _))| {
            *t == rhai::Token::Underscore
                && tokens
                    .get(i + 1)
                    .is_none_or(|(n, _)| *n != rhai::Token::DoubleArrow)
        })
        .map(|(_, (_, at))| (*at, 1, LAST_VALUE.to_string()))
        .collect();
    if edits.is_empty() {
        return code.into();
    }
    splice(code, &edits).into()
}

/// Shows an error: for a mistake in the script, the line and a caret under the place; for an
/// error inside a script function, the function and the place in its definition; then the
/// message, and a hint when a Python spelling explains it.
pub fn report(code: &str, e: &ScriptError) {
    for line in report_lines(code, e) {
        output::error(&line);
    }
}

/// The lines `report` shows for `e`, raised by `code`. A one-line input shows the line and a
/// caret for a mistake in the script only (a PyTorch exception is its message alone, as
/// PyTorch's prompt prints it in a transcript). An input of several lines shows, for any
/// error, the numbered line and a caret under the call that failed; for an error inside a
/// script function, the call in the input that led there, and the place in the function
/// when the input defines it.
pub fn report_lines(code: &str, e: &ScriptError) -> Vec<String> {
    let several_lines = code.trim().lines().count() > 1;
    let mut lines = Vec::new();
    match (&e.function, e.line, e.column) {
        (Some(function), Some(line), Some(column)) => {
            lines.push(format!(
                "  in {function}(), line {line}, column {column} of its definition"
            ));
            if several_lines {
                lines.extend(placed(code, e, defines_function(code, function)));
            }
        }
        (None, Some(_), Some(_)) if several_lines => lines.extend(placed(code, e, true)),
        (None, Some(line), Some(column)) if !e.raised => {
            lines.extend(excerpt(code, line, column, false));
        }
        _ => {}
    }
    lines.push(message_of(e));
    if e.function.is_none()
        && let Some(hint) = crate::script::hints::python_hint(code, e)
    {
        lines.push(hint);
    }
    if reads_as_python(code, e) && !lines.iter().any(|l| l.contains(":python")) {
        lines.push(
            "hint: this reads as Python: type :python to run Python as it is written (the \
             variables come along)"
                .to_string(),
        );
    }
    lines
}

/// Whether `code`, which Rhai refused as a script (`e` is a mistake in it, not an error an op
/// raised), is Python: it parses as Python and names what Python sessions name
/// (`import`, `torch.`, `def`, `True`/`False`/`None`, an assignment without `let`).
fn reads_as_python(code: &str, e: &ScriptError) -> bool {
    if e.raised || e.function.is_some() || ruff_python_parser::parse_module(code).is_err() {
        return false;
    }
    let pythonic = [
        "import ", "torch.", "def ", "True", "False", "None", "print(",
    ];
    pythonic.iter().any(|w| code.contains(w))
        || code.lines().any(|l| {
            let l = l.trim_start();
            !l.starts_with("let ") && !l.starts_with("const ") && l.contains(" = ")
        })
}

/// Whether `code` has a definition of the script function `name` (`fn name(`).
fn defines_function(code: &str, name: &str) -> bool {
    code.lines().any(|l| {
        l.trim_start()
            .strip_prefix("private ")
            .unwrap_or(l.trim_start())
            .strip_prefix("fn ")
            .is_some_and(|rest| {
                rest.trim_start()
                    .strip_prefix(name)
                    .is_some_and(|after| after.trim_start().starts_with('('))
            })
    })
}

/// The exception `e` is, from its `Kind: message` line.
pub fn failure_of(e: &ScriptError) -> Failure {
    let (kind, message) = exception_names(&message_of(e));
    Failure { kind, message }
}

/// An error line `Kind: message` as the exception's name and value (`KeyboardInterrupt`
/// alone has no value); a line in no such form is an `Error` with the line as its value.
pub fn exception_names(line: &str) -> (String, String) {
    let is_name = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
            && s.chars().next().is_some_and(char::is_alphabetic)
    };
    if let Some((kind, value)) = line.split_once(": ")
        && is_name(kind)
    {
        return (kind.to_string(), value.to_string());
    }
    if is_name(line) {
        return (line.to_string(), String::new());
    }
    ("Error".to_string(), line.to_string())
}

/// The error's `Kind: message` line, with the prompt's `_` named as typed.
pub fn message_of(e: &ScriptError) -> String {
    e.message.replace(&format!("'{LAST_VALUE}'"), "'_'")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines reach a console through `repl::lines`; these tests feed them the same way.
    trait Feed {
        fn feed(&mut self, line: &str) -> Step;
        fn feed_text(&mut self, text: &str, in_paste: bool) -> Step;
    }

    impl Feed for Console {
        fn feed(&mut self, line: &str) -> Step {
            crate::repl::lines::feed(self, line)
        }
        fn feed_text(&mut self, text: &str, in_paste: bool) -> Step {
            crate::repl::lines::feed_text(self, text, in_paste)
        }
    }

    fn feed_all(c: &mut Console, lines: &[&str]) -> (Vec<Step>, String) {
        output::start_capture();
        let steps = lines.iter().map(|l| c.feed(l)).collect();
        (steps, output::take_capture())
    }

    #[test]
    fn expression_echoes_and_let_is_silent() {
        let mut c = Console::new();
        let (steps, out) = feed_all(&mut c, &["let x = torch::arange(4);", "x.view(2, 2)"]);
        assert_eq!(steps, [Step::Done, Step::Done]);
        assert_eq!(out, "tensor([[0, 1],\n        [2, 3]])\n");
    }

    #[test]
    fn a_new_console_spells_code_as_rhai_after_a_python_one() {
        let mut python = Console::new();
        python.set_python(true);
        assert!(crate::print::spelling::python());
        let mut c = Console::new();
        let (_, out) = feed_all(
            &mut c,
            &[
                "let h = torch::arange(6, #{dtype: torch::int16}).view(2, 3);",
                "explain(h, #{\"as\": torch::int32})",
            ],
        );
        assert!(out.contains("h.view(torch::int32) raises"), "{out}");
    }

    #[test]
    fn unit_prints_nothing() {
        let mut c = Console::new();
        let (_, out) = feed_all(&mut c, &["let x = 1;", "x = 2;", "if x > 5 { 1 }"]);
        assert_eq!(out, "");
    }

    #[test]
    fn multi_line_function_then_call() {
        let mut c = Console::new();
        let (steps, out) = feed_all(&mut c, &["fn double(x) {", "  x * 2", "}", "double(21)"]);
        assert_eq!(steps, [Step::More, Step::More, Step::Done, Step::Done]);
        assert_eq!(out, "42\n");
    }

    #[test]
    fn open_brackets_and_strings_continue() {
        let mut c = Console::new();
        let (steps, out) = feed_all(&mut c, &["let a = [1,", "2];", "a"]);
        assert_eq!(steps, [Step::More, Step::Done, Step::Done]);
        assert_eq!(out, "[1, 2]\n");
        let (steps, _) = feed_all(&mut c, &["let s = `one", "two`;"]);
        assert_eq!(steps, [Step::More, Step::Done]);
        let (steps, _) = feed_all(&mut c, &["torch::zeros(2,", "3)"]);
        assert_eq!(steps, [Step::More, Step::Done]);
    }

    #[test]
    fn syntax_error_is_reported_at_once_with_a_caret() {
        let mut c = Console::new();
        let (steps, out) = feed_all(&mut c, &["let = 3;"]);
        assert_eq!(steps, [Step::Done]);
        assert!(
            out.starts_with("  let = 3;\n      ^\nSyntaxError: "),
            "{out}"
        );
        assert_eq!(c.prompt(), PROMPT);
    }

    #[test]
    fn torch_errors_show_kind_and_message_only() {
        let mut c = Console::new();
        let (_, out) = feed_all(&mut c, &["torch::zeros(4).view(3)"]);
        assert_eq!(
            out,
            "RuntimeError: shape '[3]' is invalid for input of size 4\n"
        );
    }

    #[test]
    fn an_error_in_a_cell_of_several_lines_names_the_line_with_a_caret() {
        let mut c = Console::new();
        let (_, out) = feed_all(
            &mut c,
            &[
                "let a = torch::ones(2, 3);",
                "{",
                "  let b = a.t()",
                "    .view(6);",
                "}",
            ],
        );
        assert_eq!(
            out,
            "  3 |     .view(6);\n    |      ^^^^\nRuntimeError: view size is not compatible with \
             input tensor's size and stride (at least one dimension spans across two contiguous \
             subspaces). Use .reshape(...) instead.\n"
        );
        // A notebook cell: one input of several statements.
        output::start_capture();
        c.run("fn g(x) {\n  x.view(5)\n}\nlet y = 1;\ng(a)");
        let out = output::take_capture();
        assert_eq!(
            out,
            "  in g(), line 2, column 5 of its definition\n  2 |   x.view(5)\n    |     ^^^^\n  \
             called from line 5:\n  5 | g(a)\n    | ^\nRuntimeError: shape '[5]' is invalid \
             for input of size 6\n"
        );
    }

    #[test]
    fn variables_persist_after_an_error() {
        let mut c = Console::new();
        let (_, out) = feed_all(&mut c, &["let a = 5;", "nonsense(", ");", "a + 1"]);
        assert!(out.ends_with("6\n"), "{out}");
    }

    #[test]
    fn cancel_drops_pending_input() {
        let mut c = Console::new();
        assert_eq!(c.feed("fn f() {"), Step::More);
        assert_eq!(c.prompt(), CONTINUATION);
        c.cancel();
        assert_eq!(c.prompt(), PROMPT);
    }

    #[test]
    fn a_pasted_block_runs_line_by_line_as_typed() {
        let mut c = Console::new();
        output::start_capture();
        let step = c.feed_text(
            "let a = 1\nlet b = 2\na + b\nnonsense(\n)\nfn f() {\n  1\n}\nf() * 10\n",
            false,
        );
        let out = output::take_capture();
        assert_eq!(step, Step::Done);
        // The bare expression echoes mid-block, an error does not stop the rest.
        assert!(out.starts_with("3\n"), "{out}");
        assert!(out.ends_with("10\n"), "{out}");
        assert_eq!(c.log().len(), 6);
    }

    #[test]
    fn a_pasted_transcript_runs_its_inputs_only() {
        let mut c = Console::new();
        output::start_capture();
        c.feed_text(
            ">>> let x = torch::arange(4);\n>>> fn g(t) {\n...     t.view(2, 2)\n... }\n>>> g(x)\ntensor([[0, 1],\n        [2, 3]])\n>>> x.stride()\n[1]\n",
            false,
        );
        let out = output::take_capture();
        assert_eq!(out, "tensor([[0, 1],\n        [2, 3]])\n[1]\n");
    }

    #[test]
    fn a_transcript_pasted_without_brackets_skips_output_while_lines_stream_in() {
        let mut c = Console::new();
        output::start_capture();
        c.feed_text(">>> let y = 5;", false);
        c.feed_text(">>> y + 1", true);
        c.feed_text("6", true);
        c.feed_text(">>> fn h() {", true);
        c.feed_text("...   5", true);
        c.feed_text("... }", true);
        // Typed by a person: the transcript is over, and the line runs.
        c.feed_text("h() * 2", false);
        c.feed_text("7", true);
        assert_eq!(output::take_capture(), "6\n10\n7\n");
    }

    #[test]
    fn underscore_is_the_last_echoed_value() {
        let mut c = Console::new();
        let (_, out) = feed_all(&mut c, &["_", "torch::arange(3)", "let n = 1;", "_ * 2"]);
        assert!(
            out.contains("NameError: name '_' is not defined\n"),
            "{out}"
        );
        assert!(
            out.ends_with("tensor([0, 1, 2])\ntensor([0, 2, 4])\n"),
            "{out}"
        );
        let (_, out) = feed_all(&mut c, &["switch 3 { 1 => 10, _ => 20 }", "_ + 1", "\"_\""]);
        assert_eq!(out, "20\n21\n\"_\"\n");
        assert!(c.variables().iter().all(|(n, _)| n != LAST_VALUE));
    }

    #[test]
    fn question_marks_and_help_calls_show_help() {
        let mut c = Console::new();
        for ask in [
            "?narrow",
            "narrow?",
            "help(narrow)",
            "help(\"Tensor.narrow\")",
        ] {
            let (_, out) = feed_all(&mut c, &[ask]);
            assert!(
                out.contains("Tensor.narrow(int dim, int start, int length)"),
                "{ask}: {out}"
            );
            assert!(out.contains("t.narrow(dim, start, length)"), "{ask}: {out}");
        }
        let (_, out) = feed_all(
            &mut c,
            &["let v = torch::ones(1);", "?v.sum", "help()", "?explain"],
        );
        assert!(out.contains("t.sum(#{dtype: ()})"), "{out}");
        assert!(out.contains(":timeit EXPR"), "{out}");
        assert!(out.contains("explain(t)"), "{out}");
    }

    #[test]
    fn continuation_lines_are_indented_by_open_blocks() {
        let mut c = Console::new();
        assert_eq!(c.indent(), "");
        c.feed("fn f(x) {");
        assert_eq!(c.indent(), "    ");
        c.feed("if x {");
        assert_eq!(c.indent(), "        ");
        c.cancel();
        assert_eq!(c.indent(), "");
    }

    #[test]
    fn the_log_keeps_at_most_a_mebibyte_of_one_inputs_output() {
        let mut c = Console::new();
        let (_, out) = feed_all(
            &mut c,
            &[
                "print(torch::zeros(1000000, #{dtype: torch::uint8}).untyped_storage())",
                "1",
            ],
        );
        assert!(out.len() > 2 * output::RECORD_LIMIT, "all of it was shown");
        let log = c.log();
        assert!(log[0].cut && log[0].output.len() <= output::RECORD_LIMIT);
        assert!(!log[1].cut && log[1].output == "1\n");
    }

    #[test]
    fn exception_lines_split_into_name_and_value() {
        assert_eq!(
            exception_names("RuntimeError: view size is not compatible: use .reshape(...)"),
            (
                "RuntimeError".to_string(),
                "view size is not compatible: use .reshape(...)".to_string()
            )
        );
        assert_eq!(
            exception_names("KeyboardInterrupt"),
            ("KeyboardInterrupt".to_string(), String::new())
        );
        assert_eq!(
            exception_names("no such thing here: x"),
            ("Error".to_string(), "no such thing here: x".to_string())
        );
    }

    #[test]
    fn the_first_failure_of_inputs_and_commands_is_kept_until_taken() {
        let mut c = Console::new();
        feed_all(
            &mut c,
            &["let x = torch::ones(2);", "x.view(3)", ":explain y"],
        );
        assert_eq!(
            c.take_failure(),
            Some(Failure {
                kind: "RuntimeError".to_string(),
                message: "shape '[3]' is invalid for input of size 2".to_string()
            })
        );
        assert_eq!(c.take_failure(), None);
        feed_all(&mut c, &[":explain"]);
        assert_eq!(c.take_failure().unwrap().kind, "UsageError");
        feed_all(&mut c, &[":explain x", "x.sum()"]);
        assert_eq!(c.take_failure(), None);
    }

    #[test]
    fn variables_report_their_types() {
        let mut c = Console::new();
        c.feed("let t = torch::ones(2);");
        let vars = c.variables();
        assert_eq!(
            vars,
            [("t".to_string(), TypeId::of::<crate::core::tensor::Tensor>())]
        );
    }

    #[test]
    fn python_at_the_rhai_prompt_is_answered_with_the_way_to_python() {
        let mut c = Console::new();
        let (_, shown) = feed_all(&mut c, &["x = torch.zeros(3)"]);
        assert!(
            shown.contains("type :python to run Python as it is written"),
            "{shown}"
        );
        // A Rhai mistake that is not Python, and an op's error, get no such hint.
        let (_, shown) = feed_all(&mut c, &["let y = ;", "torch::zeros(3).view(5)"]);
        assert!(!shown.contains(":python"), "{shown}");
        // The banner names both languages.
        assert!(banner(false, "").contains("Rhai (:python for Python)"));
    }

    #[test]
    fn help_at_a_python_prompt_is_written_in_python() {
        let mut c = Console::new();
        c.set_python(true);
        let (_, shown) = feed_all(
            &mut c,
            &[
                "import torch",
                "x = torch.zeros(2)",
                "?torch.narrow",
                "x.view?",
                ":help",
            ],
        );
        assert!(
            shown.contains("torch.narrow  (function, 4 arguments)"),
            "{shown}"
        );
        assert!(
            shown.contains("  torch.narrow(Tensor input, int dim, int start, int length)"),
            "{shown}"
        );
        assert!(
            shown.contains("Tensor.view()  (method, 1 argument)"),
            "{shown}"
        );
        assert!(
            shown.contains("scripted in Python (here) and Rhai (:rhai)"),
            "{shown}"
        );
        assert!(
            !shown.contains("torch::") && !shown.contains("#{"),
            "{shown}"
        );
        assert!(!shown.contains("in Rhai:"), "{shown}");
        let (_, shown) = feed_all(&mut c, &["help(torch.Tensor.narrow)", "help(x.view)"]);
        assert!(
            shown.contains("Tensor.narrow()  (method, 3 arguments)"),
            "{shown}"
        );
        assert!(shown.contains("Tensor.view(torch.dtype dtype)"), "{shown}");
    }
}
