//! Running a transcript file: each entry's input goes to a console, and what it prints is
//! compared with the expected lines (`matching`). A failing file gets a unified diff against
//! the text it would have with the actual output, which is also what `--bless` writes.

use super::parse::{Block, Entry};
use crate::ops::output;
use crate::repl::console::{Console, Step};

pub use super::matching::{line_matches, output_matches};

/// A time limit for each entry: armed before an entry runs, disarmed after it; it stops an
/// entry whose time is up as Ctrl-C would (`deadline::Watchdog` natively; the page has none).
pub trait EntryLimit {
    /// Starts the entry's time.
    fn arm(&self);
    /// Ends it; true when the time ran out and the entry was stopped.
    fn disarm(&self) -> bool;
    /// The limit, for the message.
    fn seconds(&self) -> u64;
}

/// The outcome of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileOutcome {
    /// Entries whose output matched.
    pub passed: usize,
    /// Entries whose output differed.
    pub failed: usize,
    /// The file's text with each failing entry's expected lines replaced by the actual ones
    /// (the same as the input when nothing failed). Expected lines with `[..]` that still
    /// match are kept; entries whose input is incomplete are left as they are.
    pub blessed: String,
    /// 1-based lines of entries whose input never completed (a block, bracket or string left
    /// open, often continuation lines written without `... `): they fail, and blessing
    /// leaves them alone rather than replacing code with output.
    pub incomplete: Vec<usize>,
    /// 1-based lines of entries stopped by the time limit: they fail, and blessing leaves
    /// them alone.
    pub timed_out: Vec<usize>,
    /// Entries marked `doctest: +SKIP`, not run.
    pub skipped: usize,
}

/// Runs one entry in `console` and returns the lines it printed, and whether its input was
/// complete. The entry's lines are one input, as doctest reads an example's `...` lines (a
/// prompt would ask whether the input is complete after each of them: a cost growing with
/// the square of the lines); an entry that is a prompt command (`:explain x`) runs as the
/// prompt runs it.
pub fn run_entry(console: &mut Console, entry: &Entry) -> (Vec<String>, bool) {
    output::start_capture();
    let mut step = match entry.input.as_slice() {
        [line] => crate::repl::lines::feed(console, line),
        [first, ..] if crate::repl::lines::is_command(first) => {
            let mut step = Step::Done;
            for line in &entry.input {
                step = crate::repl::lines::feed(console, line);
            }
            step
        }
        lines => crate::repl::lines::feed_input(console, lines),
    };
    if step == Step::More && console.is_python() {
        // A Python block ends at the entry's end, as a blank `... ` line would end it.
        step = crate::repl::lines::feed(console, "");
    }
    if step == Step::More {
        console.cancel();
        output::error("(incomplete input: the transcript ends inside a block, bracket or string)");
    }
    let mut lines: Vec<String> = output::take_capture().lines().map(str::to_string).collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    (lines, step != Step::More)
}

/// The lines blessing writes: the actual ones, except expected lines with a wildcard
/// (`[..]`, `...`) that still match theirs.
fn blessed_lines(expected: &[String], actual: Vec<String>) -> Vec<String> {
    actual
        .into_iter()
        .enumerate()
        .map(|(i, a)| match expected.get(i) {
            Some(e) if (e.contains("[..]") || e.contains("...")) && line_matches(e, &a) => {
                e.clone()
            }
            _ => a,
        })
        .collect()
}

/// A console in a fresh session (variables and process-wide state alike).
pub fn fresh_console() -> Console {
    let mut c = Console::new();
    c.session_mut().reset();
    c
}

/// Runs the blocks of the file whose text is `text`, each entry within `limit` when given.
pub fn check_file(text: &str, blocks: &[Block], limit: Option<&dyn EntryLimit>) -> FileOutcome {
    let lines: Vec<&str> = text.lines().collect();
    // Replacements: (first line, end line, new lines), put in file order at the end.
    let mut replacements: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    let mut incomplete = Vec::new();
    let mut timed_out = Vec::new();
    let new_console = || {
        let mut c = fresh_console();
        if limit.is_some() {
            c.stop_when(crate::core::interrupt::flag());
        }
        c
    };
    // The file's blocks, then its twins (the same steps in the other language) in a
    // session of their own.
    let mut console = new_console();
    for (block, fresh) in super::parse::run_order(blocks) {
        if fresh {
            console = new_console();
        }
        if console.is_python() != block.python {
            console.set_python(block.python);
        }
        for entry in &block.entries {
            if entry.skip {
                skipped += 1;
                continue;
            }
            if let Some(l) = limit {
                l.arm();
            }
            let (actual, complete) = run_entry(&mut console, entry);
            if limit.is_some_and(|l| l.disarm()) {
                failed += 1;
                timed_out.push(entry.first_line + 1);
            } else if output_matches(&entry.expected, &actual) {
                passed += 1;
            } else if !complete {
                failed += 1;
                incomplete.push(entry.first_line + 1);
            } else {
                failed += 1;
                let from = entry.first_line + entry.input.len();
                let lines = blessed_lines(&entry.expected, actual);
                replacements.push((from, entry.end_line, lines));
            }
        }
    }
    replacements.sort_by_key(|r| r.0);
    incomplete.sort_unstable();
    timed_out.sort_unstable();
    FileOutcome {
        passed,
        failed,
        blessed: apply(text, &lines, &replacements),
        incomplete,
        timed_out,
        skipped,
    }
}

/// The text with line ranges replaced, keeping the text's final newline.
fn apply(text: &str, lines: &[&str], replacements: &[(usize, usize, Vec<String>)]) -> String {
    if replacements.is_empty() {
        return text.to_string();
    }
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut next = 0;
    for (from, to, new) in replacements {
        out.extend(lines[next..*from].iter().map(|l| l.to_string()));
        out.extend(new.iter().cloned());
        next = *to;
    }
    out.extend(lines[next..].iter().map(|l| l.to_string()));
    let mut s = out.join("\n");
    if text.ends_with('\n') {
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::parse::{parse_markdown, parse_tensh};

    #[test]
    fn matching_transcript_passes_unchanged() {
        let text = ">>> let t = torch::arange(4);\n>>> t.view(2, 2)\ntensor([[0, 1],\n        [2, 3]])\n>>> t.data_ptr()\n[..]\n";
        let out = check_file(text, &parse_tensh(text, false), None);
        assert_eq!((out.passed, out.failed), (3, 0));
        assert_eq!(out.blessed, text);
    }

    #[test]
    fn wrong_expectation_fails_and_blesses_to_actual() {
        let text = "```tensh\n>>> torch::ones(2)\ntensor([9., 9.])\n>>> 1 + 1\n2\n```\n";
        let out = check_file(text, &parse_markdown(text), None);
        assert_eq!((out.passed, out.failed), (1, 1));
        assert_eq!(
            out.blessed,
            "```tensh\n>>> torch::ones(2)\ntensor([1., 1.])\n>>> 1 + 1\n2\n```\n"
        );
    }

    #[test]
    fn blocks_share_a_session_unless_fresh() {
        let text = "```tensh\n>>> let a = 2;\n```\n```tensh\n>>> a\n2\n```\n```tensh fresh\n>>> a\n  a\n  ^\nNameError: name 'a' is not defined\n```\n";
        let out = check_file(text, &parse_markdown(text), None);
        assert_eq!((out.passed, out.failed), (3, 0), "{}", out.blessed);
    }

    #[test]
    fn twins_run_as_a_stream_of_their_own() {
        // The Python twin does not see the Rhai block's `a` (nor adds to it), a twin of a
        // fresh block starts afresh, and blessing fixes a twin where it stands.
        let text = "```tensh\n>>> let a = torch::zeros(2); a.add_(1); a\ntensor([1., 1.])\n```\n```pycon twin\n>>> import torch\n>>> a = torch.zeros(2); a.add_(1)\ntensor([1., 1.])\n```\n```tensh\n>>> a.add_(1)\ntensor([2., 2.])\n```\n```pycon twin\n>>> a.add_(1)\ntensor([9., 9.])\n```\n```tensh fresh\n>>> let b = 1;\n```\n```pycon twin\n>>> a\nTraceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\nNameError: name 'a' is not defined\n```\n";
        let out = check_file(text, &parse_markdown(text), None);
        assert_eq!((out.passed, out.failed), (6, 1), "{}", out.blessed);
        assert_eq!(out.blessed, text.replace("[9., 9.]", "[2., 2.]"));
    }

    #[test]
    fn incomplete_input_fails_and_blessing_leaves_it_alone() {
        // Continuation lines written without `... ` read as expected output: blessing must
        // not replace the code with the actual output.
        let text = ">>> torch::zeros(2).view(3)\nRuntimeError: shape '[3]' is invalid for input of size 2\n>>> fn f() {\n  1\n}\n>>> 2\n2\n";
        let out = check_file(text, &parse_tensh(text, false), None);
        assert_eq!((out.passed, out.failed), (2, 1));
        assert_eq!(out.incomplete, [3]);
        assert_eq!(out.blessed, text);
    }

    #[test]
    fn blessing_keeps_wildcard_lines_that_still_match() {
        let text =
            ">>> let t = torch::arange(2);\n>>> print(t.data_ptr()); t\n[..]\ntensor([0, 9])\n";
        let out = check_file(text, &parse_tensh(text, false), None);
        assert_eq!((out.passed, out.failed), (1, 1));
        assert_eq!(out.blessed, text.replace("[0, 9]", "[0, 1]"));
    }

    #[test]
    fn python_transcripts_run_as_pythons_prompt_does() {
        let text = ">>> import torch\n>>> x = torch.arange(4)\n>>> for i in range(2):\n...     print(i)\n0\n1\n>>> x.view(2, 2).stride()\n(2, 1)\n>>> x.view(3)\nTraceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\nRuntimeError: shape '[3]' is invalid for input of size 4\n";
        let out = check_file(text, &parse_tensh(text, true), None);
        assert_eq!((out.passed, out.failed), (5, 0), "{}", out.blessed);
    }
}
