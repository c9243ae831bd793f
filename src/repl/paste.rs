//! Pasted text at the prompt. A paste runs as if its lines had been typed one by one; a
//! pasted transcript (a documented session, with `>>> ` and `... ` prompts and the output
//! between them) runs its input lines only, as IPython does with pasted doctests.

/// The primary prompt of a transcript, without its space.
pub const PRIMARY: &str = ">>>";
/// The continuation prompt of a transcript, without its space.
pub const CONTINUATION: &str = "...";

/// The input on a line starting with `prompt` (`>>> code`, or a bare `>>>`).
pub fn after_prompt<'a>(line: &'a str, prompt: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(prompt)?;
    if rest.is_empty() {
        Some("")
    } else {
        rest.strip_prefix(' ')
    }
}

/// The input of a transcript line (leading blanks allowed before the prompt), or `None` for
/// an output line.
pub fn transcript_input(line: &str) -> Option<&str> {
    let line = line.trim_start();
    after_prompt(line, PRIMARY).or_else(|| after_prompt(line, CONTINUATION))
}

/// Whether a pasted block is a transcript: its first non-blank line starts with `>>>`.
pub fn is_transcript(text: &str) -> bool {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| after_prompt(l.trim_start(), PRIMARY).is_some())
}

/// The lines to run from a block of text that arrived at once (a bracketed paste, or a
/// multi-line entry recalled from history): every line, or a transcript's input lines.
pub fn lines_to_run(text: &str) -> Vec<&str> {
    let text = text.strip_suffix('\n').unwrap_or(text);
    if is_transcript(text) {
        text.lines().filter_map(transcript_input).collect()
    } else {
        text.split('\n').collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_runs_every_line() {
        assert_eq!(
            lines_to_run("let a = 1\n\na + 1\n"),
            ["let a = 1", "", "a + 1"]
        );
    }

    #[test]
    fn transcripts_keep_inputs_and_drop_output() {
        let text = ">>> let x = torch::arange(3);\n>>> fn f(t) {\n...     t * 2\n... }\n>>> f(x)\ntensor([0, 2, 4])\n>>>\n";
        assert_eq!(
            lines_to_run(text),
            [
                "let x = torch::arange(3);",
                "fn f(t) {",
                "    t * 2",
                "}",
                "f(x)",
                ""
            ]
        );
    }

    #[test]
    fn prompts_need_their_space() {
        assert_eq!(after_prompt(">>>x", PRIMARY), None);
        assert_eq!(after_prompt(">>> x", PRIMARY), Some("x"));
        assert_eq!(transcript_input("   ... }"), Some("}"));
        assert_eq!(transcript_input("tensor([1])"), None);
    }
}
