//! The rustyline helper: completion from the session's catalog and variables, and input
//! highlighting when colour is on.

use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

use rustyline::completion::{Completer, FilenameCompleter};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};

use super::catalog::Catalog;
use super::completion::{SessionNames, complete_in};
use super::highlight::highlight;

/// What the line editor asks about the session.
pub struct TenshHelper {
    /// Names the engine offers.
    pub catalog: Rc<Catalog>,
    /// The session's names in the language it reads, refreshed after each input.
    pub names: Rc<RefCell<SessionNames>>,
    /// Whether to colour the input.
    pub color: bool,
    /// File names, after `:load` and `:save`.
    pub files: FilenameCompleter,
}

impl Completer for TenshHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        // A file name after the commands that take one.
        let command = line.trim_start();
        if [":load ", ":save "].iter().any(|c| command.starts_with(c)) {
            let (from, pairs) = self.files.complete_path(line, pos)?;
            return Ok((from, pairs.into_iter().map(|p| p.replacement).collect()));
        }
        Ok(complete_in(line, pos, &self.catalog, &self.names.borrow()))
    }
}

impl Highlighter for TenshHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        if self.color {
            Cow::Owned(highlight(line, self.names.borrow().is_python()))
        } else {
            Cow::Borrowed(line)
        }
    }

    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        self.color
    }
}

impl Hinter for TenshHelper {
    type Hint = String;
}

impl Validator for TenshHelper {}

impl Helper for TenshHelper {}
