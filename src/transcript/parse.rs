//! Reading transcripts: a Markdown file's ```` ```tensh ```` blocks, or a whole `.tensh` file,
//! as sessions of entries (input after `>>> ` and `... `, then the expected output).

/// One input and the output it should print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The input lines, prompts removed.
    pub input: Vec<String>,
    /// The expected output lines, trailing blank lines removed.
    pub expected: Vec<String>,
    /// 0-based index of the entry's first (`>>> `) line in the file.
    pub first_line: usize,
    /// 0-based index one past the entry's last expected line (before trailing blank lines).
    pub end_line: usize,
}

/// A session (a Markdown code block, or a whole `.tensh` file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The session is Python (a ```` ```pycon ```` block, a `.pycon` file), not Rhai.
    pub python: bool,
    /// Starts a fresh session instead of continuing the file's (```` ```tensh fresh ````).
    pub fresh: bool,
    /// The entries in order.
    pub entries: Vec<Entry>,
}

use crate::repl::paste::{CONTINUATION, PRIMARY as PROMPT, after_prompt};

/// Parses the lines `lines[from..to]` (indices into the file) as one session.
fn parse_session(lines: &[&str], from: usize, to: usize) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut i = from;
    while i < to {
        let Some(first) = after_prompt(lines[i], PROMPT) else {
            // Text before the first prompt (or stray text) belongs to no entry.
            if let Some(e) = entries.last_mut() {
                e.expected.push(lines[i].to_string());
                e.end_line = i + 1;
            }
            i += 1;
            continue;
        };
        let mut entry = Entry {
            input: vec![first.to_string()],
            expected: Vec::new(),
            first_line: i,
            end_line: i + 1,
        };
        i += 1;
        while i < to {
            match after_prompt(lines[i], CONTINUATION) {
                Some(more) => {
                    entry.input.push(more.to_string());
                    entry.end_line = i + 1;
                    i += 1;
                }
                None => break,
            }
        }
        entries.push(entry);
    }
    for e in &mut entries {
        while e.expected.last().is_some_and(|l| l.trim().is_empty()) {
            e.expected.pop();
        }
        e.end_line = e.first_line + e.input.len() + e.expected.len();
    }
    entries
}

/// The sessions of a Markdown file: each ```` ```tensh ```` block (info string `tensh`,
/// optionally followed by `fresh`).
pub fn parse_markdown(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let info = lines[i].trim_start().strip_prefix("```").map(str::trim);
        let mut words = info.unwrap_or("").split_whitespace();
        let language = words.next();
        if info.is_some() && matches!(language, Some("tensh" | "pycon")) {
            let python = language == Some("pycon");
            let fresh = words.any(|w| w == "fresh");
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && !lines[end].trim_start().starts_with("```") {
                end += 1;
            }
            blocks.push(Block {
                python,
                fresh,
                entries: parse_session(&lines, start, end),
            });
            i = end + 1;
        } else if info.is_some() {
            // Skip any other fenced block whole, so its contents are never read as a fence.
            i += 1;
            while i < lines.len() && !lines[i].trim_start().starts_with("```") {
                i += 1;
            }
            i += 1;
        } else {
            i += 1;
        }
    }
    blocks
}

/// A piece of a Markdown page: prose (any fenced block that is not a session included), or
/// one of its sessions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Section<'a> {
    /// Lines of prose, in order.
    Prose(Vec<&'a str>),
    /// A ```` ```tensh ```` or ```` ```pycon ```` session, as `parse_markdown` reads it.
    Session(Block),
}

/// A Markdown page cut into prose and sessions, in order (what a notebook's cells and the
/// page's lessons are made of). The sessions are `parse_markdown`'s.
pub fn sections(text: &str) -> Vec<Section<'_>> {
    let mut sessions = parse_markdown(text).into_iter();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut prose: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(info) = lines[i].trim_start().strip_prefix("```").map(str::trim) else {
            prose.push(lines[i]);
            i += 1;
            continue;
        };
        // The closing fence of the block opened here (the rule `parse_markdown` uses).
        let mut end = i + 1;
        while end < lines.len() && !lines[end].trim_start().starts_with("```") {
            end += 1;
        }
        if matches!(info.split_whitespace().next(), Some("tensh" | "pycon")) {
            if !prose.is_empty() {
                out.push(Section::Prose(std::mem::take(&mut prose)));
            }
            if let Some(block) = sessions.next() {
                out.push(Section::Session(block));
            }
        } else {
            prose.extend(&lines[i..(end + 1).min(lines.len())]);
        }
        i = end + 1;
    }
    if !prose.is_empty() {
        out.push(Section::Prose(prose));
    }
    out
}

/// A `.tensh` file: one session.
pub fn parse_tensh(text: &str, python: bool) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    vec![Block {
        python,
        fresh: false,
        entries: parse_session(&lines, 0, lines.len()),
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_tensh_rhai(text: &str) -> Vec<Block> {
        parse_tensh(text, false)
    }

    #[test]
    fn pycon_blocks_are_python_sessions() {
        let blocks = parse_markdown("```pycon\n>>> x = [1]\n>>> x\n[1]\n```\n");
        assert!(blocks[0].python);
        assert_eq!(blocks[0].entries[1].expected, ["[1]"]);
        assert!(!parse_markdown("```tensh\n>>> 1\n```\n")[0].python);
    }

    #[test]
    fn markdown_blocks_hold_entries() {
        let md = "# Title\n\n```tensh\n>>> let a = 1;\n>>> fn f() {\n...   2\n... }\n>>> a + f()\n3\n\n```\n\ntext\n\n```rhai\n>>> not a transcript\n```\n\n```tensh fresh\n>>> 1\n1\n```\n";
        let blocks = parse_markdown(md);
        assert_eq!(blocks.len(), 2);
        assert!(!blocks[0].fresh && blocks[1].fresh);
        let e = &blocks[0].entries;
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].input, ["let a = 1;"]);
        assert!(e[0].expected.is_empty());
        assert_eq!(e[1].input, ["fn f() {", "  2", "}"]);
        assert_eq!(e[2].expected, ["3"]);
        assert_eq!((e[2].first_line, e[2].end_line), (7, 9));
    }

    #[test]
    fn blank_lines_inside_output_are_kept() {
        let blocks = parse_tensh_rhai(">>> x\na\n\nb\n\n>>> y\n");
        let e = &blocks[0].entries;
        assert_eq!(e[0].expected, ["a", "", "b"]);
        assert_eq!(e[1].input, ["y"]);
    }

    #[test]
    fn bare_prompts_are_empty_inputs() {
        let e = &parse_tensh_rhai(">>>\n...\n")[0].entries;
        assert_eq!(e[0].input, ["", ""]);
    }
}
