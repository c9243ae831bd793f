//! How the prompt reads what arrives: a help request (`?name`) or a meta-command (`:vars`)
//! goes to `meta`, anything else to the console's pending input; text that arrived at once
//! (a paste, a block from history) is split into lines, and a pasted transcript's prompts
//! are stripped and its output skipped. The terminal front end, notebooks, transcript tests
//! and the unit tests all feed lines through here.

use super::console::{Console, Step};
use super::{meta, paste};

/// Whether `line` is one the prompt answers itself rather than Rhai: a meta-command
/// (`:vars`) or a request for help (`?name`, `help(name)`).
pub fn is_command(line: &str) -> bool {
    help_request(line).is_some() || line.trim_start().starts_with(':')
}

/// Feeds text that arrived at once: a line typed at the prompt, or several lines (a
/// bracketed paste, a block recalled from history). Several lines run as if typed one
/// by one; a transcript's prompts are stripped and its output lines skipped.
/// `in_paste` says the line arrived in one burst with the line before it (a paste without
/// bracketed paste, `paste_extent`): output lines of a transcript pasted that way are
/// skipped too; a line a person typed is always fed.
pub fn feed_text(console: &mut Console, text: &str, in_paste: bool) -> Step {
    let single = text.strip_suffix('\n').unwrap_or(text);
    if !single.contains('\n') {
        return feed_transcript_line(console, single, in_paste);
    }
    console.set_in_transcript(false);
    let mut step = console.now();
    for line in paste::lines_to_run(text) {
        step = feed(console, line);
        if step == Step::Quit {
            break;
        }
    }
    step
}

/// A single line that may belong to a transcript pasted without brackets.
fn feed_transcript_line(console: &mut Console, line: &str, in_paste: bool) -> Step {
    let trimmed = line.trim_start();
    if console.at_start()
        && let Some(input) = paste::after_prompt(trimmed, paste::PRIMARY)
    {
        console.set_in_transcript(true);
        return feed(console, input);
    }
    if (console.in_transcript() || !console.at_start())
        && let Some(input) = paste::after_prompt(trimmed, paste::CONTINUATION)
    {
        return feed(console, input);
    }
    if console.in_transcript() && in_paste {
        // Output of the pasted transcript.
        return console.now();
    }
    console.set_in_transcript(false);
    feed(console, line)
}

/// Feeds one line: a help request or meta-command when it starts an input, else a line
/// of the console's pending input.
pub fn feed(console: &mut Console, line: &str) -> Step {
    if console.at_start() {
        console.start_input();
        if let Some(command) = help_request(line) {
            let step = meta::run(console, &command);
            console.keep(vec![line.to_string()]);
            return step;
        }
        if line.trim_start().starts_with(':') {
            let line = line.trim();
            let step = meta::run(console, line);
            if meta::is_logged(line) {
                console.keep(vec![line.to_string()]);
            }
            return step;
        }
        if line.trim().is_empty() {
            return Step::Done;
        }
    }
    console.input_line(line)
}

/// Feeds the lines of one input at once (a transcript entry's `>>> ` and `... ` lines):
/// completeness is asked once, for the whole.
pub fn feed_input(console: &mut Console, lines: &[String]) -> Step {
    if console.at_start() {
        console.start_input();
    }
    console.input_lines(lines)
}

/// `?name`, `name?`, `help(name)` or `help("name")` as the `:help` command it asks for.
fn help_request(line: &str) -> Option<String> {
    let line = line.trim();
    let is_name = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ':' || c == '.')
    };
    let name = if let Some(n) = line.strip_prefix('?') {
        n
    } else if let Some(n) = line.strip_suffix('?') {
        n
    } else if let Some(inner) = line
        .strip_prefix("help(")
        .and_then(|r| r.trim_end_matches(';').strip_suffix(')'))
    {
        let inner = inner.trim();
        if inner.is_empty() {
            return Some(":help".to_string());
        }
        inner.trim_matches('"')
    } else {
        return None;
    };
    let name = name.trim();
    (is_name(name) || name == "_").then(|| format!(":help {name}"))
}
