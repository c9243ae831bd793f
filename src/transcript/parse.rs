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
    /// Marked `# doctest: +SKIP` (or `// doctest: +SKIP`): not run, as doctest skips it.
    pub skip: bool,
}

/// A session (a Markdown code block, or a whole `.tensh` file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The session is Python (a ```` ```pycon ```` block, a `.pycon` file), not Rhai.
    pub python: bool,
    /// Starts a fresh session instead of continuing the file's (```` ```tensh fresh ````).
    pub fresh: bool,
    /// The session before it again in the other language (```` ```pycon twin ````): a page
    /// that gives its steps in both languages. Twins run as a stream of their own, in a
    /// session of their own, so each language's steps see only their own variables
    /// (`run_order`); a twin is `fresh` where its partner is.
    pub twin: bool,
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
            skip: false,
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
        e.skip = e.input.iter().any(|l| skips(l));
        e.end_line = e.first_line + e.input.len() + e.expected.len();
    }
    entries
}

/// Whether an input line carries doctest's `+SKIP` directive in a comment.
fn skips(line: &str) -> bool {
    let comment = line
        .find('#')
        .or_else(|| line.find("//"))
        .map_or("", |at| &line[at..]);
    comment.contains("doctest:") && comment.contains("+SKIP")
}

/// The language of a fenced block that is a session, by its info string's first word and
/// its lines: `Some(true)` for Python, `Some(false)` for Rhai. ```` ```tensh ```` and
/// ```` ```pycon ```` blocks always are; ```` ```rhai ````, ```` ```python ```` and
/// ```` ```py ```` blocks are when they hold `>>> ` prompts (without, they are scripts).
fn session_language(language: &str, body: &[&str]) -> Option<bool> {
    let prompts = || body.iter().any(|l| after_prompt(l, PROMPT).is_some());
    match language {
        "tensh" => Some(false),
        "pycon" => Some(true),
        "rhai" if prompts() => Some(false),
        "python" | "py" | "python3" if prompts() => Some(true),
        _ => None,
    }
}

/// A fenced block of a Markdown file: where its lines are and its info string's words.
struct Fence<'a> {
    /// The opening fence's line (0-based).
    open: usize,
    /// The closing fence's line (or the end of the file).
    close: usize,
    language: &'a str,
    fresh: bool,
    twin: bool,
}

/// The fenced blocks of `lines`, in order.
fn fences<'a>(lines: &[&'a str]) -> Vec<Fence<'a>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(info) = lines[i].trim_start().strip_prefix("```").map(str::trim) else {
            i += 1;
            continue;
        };
        let mut words = info.split_whitespace();
        let language = words.next().unwrap_or("");
        let words: Vec<&str> = words.collect();
        let fresh = words.contains(&"fresh");
        let twin = words.contains(&"twin");
        let mut close = i + 1;
        while close < lines.len() && !lines[close].trim_start().starts_with("```") {
            close += 1;
        }
        out.push(Fence {
            open: i,
            close,
            language,
            fresh,
            twin,
        });
        i = close + 1;
    }
    out
}

/// The sessions of a Markdown file: each ```` ```tensh ```` or ```` ```pycon ```` block, and
/// each ```` ```rhai ```` or ```` ```python ```` block with prompts (`session_language`); an
/// info string's `fresh` starts a new session.
pub fn parse_markdown(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut partner_fresh = false;
    fences(&lines)
        .into_iter()
        .filter_map(|f| session_of(&lines, &f, &mut partner_fresh))
        .collect()
}

/// The session fenced by `f`, if it is one; `partner_fresh` carries whether the last
/// session that was no twin starts afresh, which its twin inherits.
fn session_of(lines: &[&str], f: &Fence, partner_fresh: &mut bool) -> Option<Block> {
    let python = session_language(f.language, &lines[f.open + 1..f.close])?;
    let fresh = if f.twin {
        f.fresh || *partner_fresh
    } else {
        *partner_fresh = f.fresh;
        f.fresh
    };
    Some(Block {
        python,
        fresh,
        twin: f.twin,
        entries: parse_session(lines, f.open + 1, f.close),
    })
}

/// The order a file's blocks run in: its blocks, then its twins, each with whether it
/// starts a fresh session (a `fresh` block, and the twins' first: they are a session of
/// their own). The first block runs in the session the file starts with.
pub fn run_order(blocks: &[Block]) -> impl Iterator<Item = (&Block, bool)> {
    let mains = blocks.iter().filter(|b| !b.twin);
    let twins = blocks.iter().filter(|b| b.twin);
    let mut first_twin = true;
    let ordered = mains.map(|b| (b, b.fresh)).chain(twins.map(move |b| {
        let fresh = b.fresh || first_twin;
        first_twin = false;
        (b, fresh)
    }));
    ordered
        .enumerate()
        .map(|(i, (b, fresh))| (b, fresh && i > 0))
}

/// The fenced blocks of a Markdown file that hold `>>> ` prompts but are no session
/// (```` ```text ````, ```` ```console ````, a fence without a language): their 1-based
/// line and info string, for `tensh test` to say it leaves them untested.
pub fn untested_prompt_fences(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    fences(&lines)
        .into_iter()
        .filter(|f| {
            let body = &lines[f.open + 1..f.close];
            session_language(f.language, body).is_none()
                && body.iter().any(|l| after_prompt(l, PROMPT).is_some())
        })
        .map(|f| (f.open + 1, f.language.to_string()))
        .collect()
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
    each_section(text).collect()
}

/// `sections` one at a time, each made when it is asked for (a notebook writes each cell
/// as it is made, so a long page never holds all its sessions at once).
pub fn each_section(text: &str) -> impl Iterator<Item = Section<'_>> {
    let lines: Vec<&str> = text.lines().collect();
    let fences = fences(&lines).into_iter();
    Sections {
        lines,
        fences,
        next: 0,
        waiting: None,
        partner_fresh: false,
        done: false,
    }
}

/// The state of `each_section`.
struct Sections<'a> {
    lines: Vec<&'a str>,
    fences: std::vec::IntoIter<Fence<'a>>,
    /// The first line not yet given out.
    next: usize,
    /// A session found after prose, given out after it.
    waiting: Option<Block>,
    /// Whether the last session that was no twin starts afresh (`session_of`).
    partner_fresh: bool,
    done: bool,
}

impl<'a> Iterator for Sections<'a> {
    type Item = Section<'a>;

    fn next(&mut self) -> Option<Section<'a>> {
        if let Some(block) = self.waiting.take() {
            return Some(Section::Session(block));
        }
        if self.done {
            return None;
        }
        let lines = &self.lines;
        let mut prose: Vec<&'a str> = Vec::new();
        for f in self.fences.by_ref() {
            prose.extend(&lines[self.next..f.open]);
            self.next = (f.close + 1).min(lines.len());
            match session_of(lines, &f, &mut self.partner_fresh) {
                Some(block) => {
                    if prose.is_empty() {
                        return Some(Section::Session(block));
                    }
                    self.waiting = Some(block);
                    return Some(Section::Prose(prose));
                }
                None => prose.extend(&lines[f.open..self.next]),
            }
        }
        prose.extend(&lines[self.next..]);
        self.next = lines.len();
        self.done = true;
        (!prose.is_empty()).then_some(Section::Prose(prose))
    }
}

/// A `.tensh` file: one session.
pub fn parse_tensh(text: &str, python: bool) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    vec![Block {
        python,
        fresh: false,
        twin: false,
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
    fn a_twin_is_marked_in_its_info_string() {
        let blocks = parse_markdown("```tensh fresh\n>>> 1\n```\n```pycon twin\n>>> 1\n```\n");
        assert!(!blocks[0].twin && blocks[0].fresh);
        // A twin starts afresh where its partner does.
        assert!(blocks[1].twin && blocks[1].python && blocks[1].fresh);
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
        let md = "# Title\n\n```tensh\n>>> let a = 1;\n>>> fn f() {\n...   2\n... }\n>>> a + f()\n3\n\n```\n\ntext\n\n```text\n>>> not a transcript\n```\n\n```tensh fresh\n>>> 1\n1\n```\n";
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
    fn rhai_and_python_fences_with_prompts_are_sessions_and_others_are_named() {
        let md = "```rhai\n>>> 1 + 1\n3\n```\n```rhai\nlet a = 1;\n```\n```python\n>>> 1\n1\n```\n```text\n>>> 2\n```\n```\n>>> 3\n```\n";
        let blocks = parse_markdown(md);
        assert_eq!(blocks.len(), 2);
        assert!(!blocks[0].python && blocks[1].python);
        assert_eq!(blocks[0].entries[0].expected, ["3"]);
        assert_eq!(
            untested_prompt_fences(md),
            [(12, "text".to_string()), (15, String::new())]
        );
        let kinds: Vec<bool> = sections(md)
            .iter()
            .map(|s| matches!(s, Section::Session(_)))
            .collect();
        assert_eq!(kinds, [true, false, true, false]);
    }

    #[test]
    fn doctest_skip_marks_an_entry() {
        let e = &parse_tensh(">>> x = f()  # doctest: +SKIP\n>>> 1\n1\n", true)[0].entries;
        assert!(e[0].skip && !e[1].skip);
        assert!(parse_tensh(">>> f() // doctest: +SKIP\n", false)[0].entries[0].skip);
    }

    #[test]
    fn bare_prompts_are_empty_inputs() {
        let e = &parse_tensh_rhai(">>>\n...\n")[0].entries;
        assert_eq!(e[0].input, ["", ""]);
    }
}
