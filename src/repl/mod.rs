//! The interactive session on a terminal: rustyline editing, completion, highlighting and
//! history around a `Console`, which holds the terminal-free logic.

pub mod catalog;
pub mod color;
pub mod complete;
pub mod console;
pub mod help;
pub mod helper;
pub mod highlight;
pub mod history;
pub mod meta;

use crate::script::output;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};

use owo_colors::OwoColorize;
use rustyline::error::ReadlineError;
use rustyline::{CompletionType, Config, Editor, history::DefaultHistory};

use console::{Console, Step};
use helper::TenshHelper;

/// Set by Ctrl-C while a script runs; the session's progress hook sees it and stops.
static INTERRUPT: AtomicBool = AtomicBool::new(false);

/// Runs the interactive session until Ctrl-D or `:quit`; returns the exit status.
pub fn run(color: bool) -> i32 {
    output::set_color(color);
    let banner = format!(
        "{} — PyTorch's memory model in Rhai. :help for help, Ctrl-D to exit.",
        crate::version()
    );
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
    if ctrlc::set_handler(|| INTERRUPT.store(true, Ordering::Relaxed)).is_ok() {
        console.session_mut().stop_when(&INTERRUPT);
    }
    let variables = Rc::new(RefCell::new(Vec::new()));
    let config = Config::builder()
        .auto_add_history(false)
        .completion_type(CompletionType::List)
        .build();
    let mut editor: Editor<TenshHelper, DefaultHistory> = match Editor::with_config(config) {
        Ok(e) => e,
        Err(e) => {
            output::stderr_text(&format!("tensh: cannot start the line editor: {e}\n"));
            return 1;
        }
    };
    editor.set_helper(Some(TenshHelper {
        catalog: console.catalog(),
        variables: variables.clone(),
        color,
    }));
    let history = history::path();
    if let Some(path) = &history {
        let _ = editor.load_history(path);
    }
    loop {
        match editor.readline(console.prompt()) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                    if let Some(path) = &history {
                        save(&mut editor, path);
                    }
                }
                if console.feed(&line) == Step::Quit {
                    return 0;
                }
                *variables.borrow_mut() = console.variables();
            }
            Err(ReadlineError::Interrupted) => console.cancel(),
            // Ctrl-D inside a block drops the block, as Ctrl-C does; on an empty `>>> ` line
            // it ends the session.
            Err(ReadlineError::Eof) if console.prompt() != console::PROMPT => console.cancel(),
            Err(ReadlineError::Eof) => return 0,
            Err(e) => {
                output::stderr_text(&format!("tensh: {e}\n"));
                return 1;
            }
        }
    }
}

/// Appends the newest entry to the history file, creating its folder the first time.
fn save(editor: &mut Editor<TenshHelper, DefaultHistory>, path: &std::path::Path) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = editor.append_history(path);
}
