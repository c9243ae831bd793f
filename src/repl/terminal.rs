//! The interactive session on a terminal (native only): rustyline's editor around a
//! `Console`, Ctrl-C as a signal while code runs, history kept in a file.

use crate::ops::output;
use std::cell::RefCell;
use std::rc::Rc;

use owo_colors::OwoColorize;
use rustyline::error::ReadlineError;
use rustyline::{
    Cmd, CompletionType, ConditionalEventHandler, Config, Editor, Event, EventContext,
    EventHandler, KeyCode, KeyEvent, Modifiers, RepeatCount, history::DefaultHistory,
};

use super::console::{Console, Step};
use super::helper::TenshHelper;
use super::paste_extent::PasteExtent;
use super::{console, history, lines, meta, paste_extent};

/// History entries kept (the file and the session).
const HISTORY_SIZE: usize = 10_000;

/// Runs the interactive session until Ctrl-D, `:quit` or `exit()`; returns the exit status.
/// With `script` (`tensh -i FILE ARGS`), the file runs first, into the session.
pub fn run(color: bool, script: Option<(&str, &[String])>, python: bool) -> i32 {
    let banner = console::banner(python, "Ctrl-D to exit");
    output::stdout_text(&format!(
        "{}\n",
        if color {
            banner.bold().to_string()
        } else {
            banner
        }
    ));
    let mut console = Console::new();
    // While the editor reads a line the terminal is raw and Ctrl-C is a key; while code runs
    // it is a signal, which only sets the flag the running session polls.
    if ctrlc::set_handler(crate::core::interrupt::request).is_ok() {
        console.stop_when(crate::core::interrupt::flag());
    }
    console.set_python(python);
    if let Some((path, args)) = script {
        console.session_mut().set_args(args);
        meta::load(&mut console, path);
        if let Some(status) = console.exit_requested() {
            return status;
        }
    }
    let names = Rc::new(RefCell::new(console.names()));
    let config = editor_config();
    let mut editor: Editor<TenshHelper, DefaultHistory> = match Editor::with_config(config) {
        Ok(e) => e,
        Err(e) => {
            output::stderr_text(&format!("tensh: cannot start the line editor: {e}\n"));
            return 1;
        }
    };
    editor.set_helper(Some(TenshHelper {
        catalog: console.catalog(),
        names: names.clone(),
        color,
        files: rustyline::completion::FilenameCompleter::new(),
    }));
    // Ctrl-D on a line holding only the automatic indentation is Ctrl-D on an empty line.
    editor.bind_sequence(
        KeyEvent(KeyCode::Char('D'), Modifiers::CTRL),
        EventHandler::Conditional(Box::new(EndOnBlankLine)),
    );
    let history = history::path();
    if let Some(path) = &history {
        let _ = editor.load_history(path);
    }
    // The lines of the input being read: once it is complete, they are one history entry,
    // recalled and edited whole.
    let mut block: Vec<String> = Vec::new();
    let mut paste = PasteExtent::default();
    let waiting = |editor: &Editor<TenshHelper, DefaultHistory>| {
        editor.pending_input() + paste_extent::queued_in_terminal()
    };
    loop {
        let indent = console.indent();
        let before = waiting(&editor);
        let read = editor.readline_with_initial(console.prompt(), (&indent, ""));
        // A line that came in the same burst as the line before it (a paste without
        // bracketed paste) may be a pasted transcript's output; a line typed by a person
        // never is, however soon after the paste it arrives.
        let in_paste = read.is_ok() && paste.line_read(before, waiting(&editor));
        match read {
            Ok(text) => {
                let step = lines::feed_text(&mut console, &text, in_paste);
                if !text.trim().is_empty() {
                    block.push(text.trim_end_matches('\n').to_string());
                }
                if step != Step::More && !block.is_empty() {
                    let _ = editor.add_history_entry(block.join("\n"));
                    block.clear();
                    if let Some(path) = &history {
                        save(&mut editor, path);
                    }
                }
                if step == Step::Quit {
                    return console.exit_status();
                }
                *names.borrow_mut() = console.names();
            }
            Err(ReadlineError::Interrupted) => {
                paste.end();
                console.cancel();
                block.clear();
            }
            // Ctrl-D inside a block drops the block, as Ctrl-C does; on an empty `>>> ` line
            // it ends the session.
            Err(ReadlineError::Eof) if console.prompt() != console::PROMPT => {
                paste.end();
                console.cancel();
                block.clear();
            }
            Err(ReadlineError::Eof) => return 0,
            Err(e) => {
                output::stderr_text(&format!("tensh: {e}\n"));
                return 1;
            }
        }
    }
}

/// Ctrl-D on a line holding only blanks (the automatic indentation of a `... ` line) drops
/// the unfinished block, as Ctrl-C does (rustyline's Ctrl-D ends input only on an empty
/// line); elsewhere it keeps its usual meaning.
struct EndOnBlankLine;

impl ConditionalEventHandler for EndOnBlankLine {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        let line = ctx.line();
        (!line.is_empty() && line.trim().is_empty()).then_some(Cmd::Interrupt)
    }
}

/// The editor's settings: completion as a list shown on the first Tab when it is ambiguous
/// (as IPython shows it), history kept by hand (one entry per complete input), 10,000
/// entries.
fn editor_config() -> Config {
    let base = || {
        Config::builder()
            .auto_add_history(false)
            .completion_type(CompletionType::List)
            .completion_show_all_if_ambiguous(true)
    };
    // Only a size of 0 is refused; the constant is not 0.
    match base().max_history_size(HISTORY_SIZE) {
        Ok(builder) => builder.build(),
        Err(_) => base().build(),
    }
}

/// Appends the newest entry to the history file, creating its folder the first time.
fn save(editor: &mut Editor<TenshHelper, DefaultHistory>, path: &std::path::Path) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = editor.append_history(path);
}
