//! The REPL's logic without a terminal: lines go in, output goes through `script::output`.
//! A line is either a meta-command (`:help`), or part of an input that runs once Rhai can
//! parse it whole. The terminal front end (`repl::run`) and the unit tests drive it alike.

use std::any::TypeId;
use std::rc::Rc;

use super::catalog::Catalog;
use super::meta;
use crate::script::output;
use crate::script::session::{ScriptError, Session};

/// The primary prompt, as in PyTorch's documentation sessions.
pub const PROMPT: &str = ">>> ";
/// The prompt for a continuation line.
pub const CONTINUATION: &str = "... ";

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

/// A session at a prompt.
pub struct Console {
    session: Session,
    pending: String,
    catalog: Rc<Catalog>,
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
        let catalog = Rc::new(Catalog::from_engine(
            session.engine(),
            &crate::script::engine::receiver_types(),
        ));
        Console {
            session,
            pending: String::new(),
            catalog,
        }
    }

    /// The session (to install interrupt handling, or inspect variables).
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// The engine's catalog of names.
    pub fn catalog(&self) -> Rc<Catalog> {
        self.catalog.clone()
    }

    /// The prompt for the next line.
    pub fn prompt(&self) -> &'static str {
        if self.pending.is_empty() {
            PROMPT
        } else {
            CONTINUATION
        }
    }

    /// Drops a partly typed input (Ctrl-C at the prompt).
    pub fn cancel(&mut self) {
        self.pending.clear();
    }

    /// The session's variables and the type of each value, for completion.
    pub fn variables(&self) -> Vec<(String, TypeId)> {
        self.session
            .scope()
            .iter_raw()
            .map(|(name, _, value)| (name.to_string(), value.type_id()))
            .collect()
    }

    /// Feeds one line of input.
    pub fn feed(&mut self, line: &str) -> Step {
        if self.pending.is_empty() && line.trim_start().starts_with(':') {
            return meta::run(self, line.trim());
        }
        if self.pending.is_empty() && line.trim().is_empty() {
            return Step::Done;
        }
        self.pending.push_str(line);
        self.pending.push('\n');
        if self.session.is_incomplete(&self.pending) {
            return Step::More;
        }
        let code = std::mem::take(&mut self.pending);
        self.run(&code);
        Step::Done
    }

    /// Runs a whole input: echoes an expression's value, reports an error.
    pub fn run(&mut self, code: &str) {
        match self.session.eval(code) {
            Ok(v) if v.is_unit() => {}
            Ok(v) => match self.session.repr(&v) {
                Ok(text) => output::print_line(&text),
                Err(e) => report(code, &e),
            },
            Err(e) => report(code, &e),
        }
    }
}

/// Shows an error: for a mistake in the script, the line and a caret under the place, then
/// the message.
pub fn report(code: &str, e: &ScriptError) {
    if !e.raised
        && let (Some(line), Some(column)) = (e.line, e.column)
        && let Some(text) = code.lines().nth(line - 1)
    {
        output::error(&format!("  {text}"));
        output::error(&format!("  {}^", " ".repeat(column.saturating_sub(1))));
    }
    output::error(&e.message);
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn variables_report_their_types() {
        let mut c = Console::new();
        c.feed("let t = torch::ones(2);");
        let vars = c.variables();
        assert_eq!(
            vars,
            [("t".to_string(), TypeId::of::<crate::core::tensor::Tensor>())]
        );
    }
}
