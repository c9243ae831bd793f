//! Running a transcript file: each entry's input goes to a console, and what it prints is
//! compared with the expected lines. A failing file gets a unified diff against the text it
//! would have with the actual output, which is also what `--bless` writes.

use super::parse::{Block, Entry};
use crate::repl::console::{Console, Step};
use crate::script::output;

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
}

/// True when `actual` matches the expected line `pattern`, where each `[..]` matches any
/// text.
pub fn line_matches(pattern: &str, actual: &str) -> bool {
    let pieces: Vec<&str> = pattern.split("[..]").collect();
    if pieces.len() == 1 {
        return pattern == actual;
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    if !actual.ends_with(last) {
        return false;
    }
    let mut rest = &actual[first.len()..actual.len() - last.len()];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(i) => rest = &rest[i + piece.len()..],
            None => return false,
        }
    }
    true
}

/// True when every expected line matches the actual line at its place.
pub fn output_matches(expected: &[String], actual: &[String]) -> bool {
    expected.len() == actual.len() && expected.iter().zip(actual).all(|(e, a)| line_matches(e, a))
}

/// Runs one entry in `console` and returns the lines it printed, and whether its input was
/// complete.
pub fn run_entry(console: &mut Console, entry: &Entry) -> (Vec<String>, bool) {
    output::start_capture();
    let mut step = Step::Done;
    for line in &entry.input {
        step = crate::repl::lines::feed(console, line);
    }
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

/// The lines blessing writes: the actual ones, except expected `[..]` lines that still match
/// theirs.
fn blessed_lines(expected: &[String], actual: Vec<String>) -> Vec<String> {
    actual
        .into_iter()
        .enumerate()
        .map(|(i, a)| match expected.get(i) {
            Some(e) if e.contains("[..]") && line_matches(e, &a) => e.clone(),
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

/// Runs the blocks of the file whose text is `text`.
pub fn check_file(text: &str, blocks: &[Block]) -> FileOutcome {
    let lines: Vec<&str> = text.lines().collect();
    // Replacements: (first line, end line, new lines), in file order.
    let mut replacements: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let (mut passed, mut failed) = (0, 0);
    let mut incomplete = Vec::new();
    let mut console = fresh_console();
    for (i, block) in blocks.iter().enumerate() {
        if block.fresh && i > 0 {
            console = fresh_console();
        }
        if console.is_python() != block.python {
            console.set_python(block.python);
        }
        for entry in &block.entries {
            let (actual, complete) = run_entry(&mut console, entry);
            if output_matches(&entry.expected, &actual) {
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
    FileOutcome {
        passed,
        failed,
        blessed: apply(text, &lines, &replacements),
        incomplete,
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
    fn wildcards_match_any_text() {
        assert!(line_matches("ptr [..] end", "ptr 0x1234 end"));
        assert!(line_matches("[..]", "anything"));
        assert!(line_matches("a[..]b[..]c", "a1b2c"));
        assert!(line_matches("a[..]", "a"));
        assert!(!line_matches("a[..]b", "ab-"));
        assert!(!line_matches("ab[..]ba", "aba"));
        assert!(!line_matches("exact", "exact "));
    }

    #[test]
    fn matching_transcript_passes_unchanged() {
        let text = ">>> let t = torch::arange(4);\n>>> t.view(2, 2)\ntensor([[0, 1],\n        [2, 3]])\n>>> t.data_ptr()\n[..]\n";
        let out = check_file(text, &parse_tensh(text, false));
        assert_eq!((out.passed, out.failed), (3, 0));
        assert_eq!(out.blessed, text);
    }

    #[test]
    fn wrong_expectation_fails_and_blesses_to_actual() {
        let text = "```tensh\n>>> torch::ones(2)\ntensor([9., 9.])\n>>> 1 + 1\n2\n```\n";
        let out = check_file(text, &parse_markdown(text));
        assert_eq!((out.passed, out.failed), (1, 1));
        assert_eq!(
            out.blessed,
            "```tensh\n>>> torch::ones(2)\ntensor([1., 1.])\n>>> 1 + 1\n2\n```\n"
        );
    }

    #[test]
    fn blocks_share_a_session_unless_fresh() {
        let text = "```tensh\n>>> let a = 2;\n```\n```tensh\n>>> a\n2\n```\n```tensh fresh\n>>> a\n  a\n  ^\nNameError: name 'a' is not defined\n```\n";
        let out = check_file(text, &parse_markdown(text));
        assert_eq!((out.passed, out.failed), (3, 0), "{}", out.blessed);
    }

    #[test]
    fn incomplete_input_fails_and_blessing_leaves_it_alone() {
        // Continuation lines written without `... ` read as expected output: blessing must
        // not replace the code with the actual output.
        let text = ">>> torch::zeros(2).view(3)\nRuntimeError: shape '[3]' is invalid for input of size 2\n>>> fn f() {\n  1\n}\n>>> 2\n2\n";
        let out = check_file(text, &parse_tensh(text, false));
        assert_eq!((out.passed, out.failed), (2, 1));
        assert_eq!(out.incomplete, [3]);
        assert_eq!(out.blessed, text);
    }

    #[test]
    fn blessing_keeps_wildcard_lines_that_still_match() {
        let text =
            ">>> let t = torch::arange(2);\n>>> print(t.data_ptr()); t\n[..]\ntensor([0, 9])\n";
        let out = check_file(text, &parse_tensh(text, false));
        assert_eq!((out.passed, out.failed), (1, 1));
        assert_eq!(out.blessed, text.replace("[0, 9]", "[0, 1]"));
    }

    #[test]
    fn python_transcripts_run_as_pythons_prompt_does() {
        let text = ">>> import torch\n>>> x = torch.arange(4)\n>>> for i in range(2):\n...     print(i)\n0\n1\n>>> x.view(2, 2).stride()\n(2, 1)\n>>> x.view(3)\nTraceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\nRuntimeError: shape '[3]' is invalid for input of size 4\n";
        let out = check_file(text, &parse_tensh(text, true));
        assert_eq!((out.passed, out.failed), (5, 0), "{}", out.blessed);
    }
}
