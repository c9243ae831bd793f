//! Line diffs in the unified format (`--- old`, `+++ new`, `@@ -a,b +c,d @@` hunks), as
//! `tensh test` and `tensh jupyter check` show a session that printed something else.
//!
//! The line matching is `similar`'s Myers diff, called once with one hook type; only the
//! unified layout is written here. (`similar`'s own `TextDiff` compiles every algorithm and
//! hook it offers for each use, an eighth of this crate's generated code for two call sites.)

use std::fmt::Write as _;

use similar::algorithms::{Capture, Compact, Replace, myers};
use similar::{DiffOp, DiffTag};

/// The unified diff from `old` to `new`, with `context` unchanged lines around each change
/// and the `---`/`+++` header naming them; empty when the texts have the same lines.
pub fn unified_diff(
    old: &str,
    new: &str,
    old_name: &str,
    new_name: &str,
    context: usize,
) -> String {
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    // Compaction slides each change to where it reads best (as `similar`'s text diffs do);
    // `Replace` pairs a deletion with the insertion after it.
    let mut hook = Compact::new(Replace::new(Capture::new()), &old_lines, &new_lines);
    // The hooks only record: their error type is `Infallible`.
    let ops = match myers::diff(
        &mut hook,
        &old_lines,
        0..old_lines.len(),
        &new_lines,
        0..new_lines.len(),
    ) {
        Ok(()) => hook.into_inner().into_inner().into_ops(),
        Err(never) => match never {},
    };
    let mut out = String::new();
    for (n, hunk) in similar::group_diff_ops(ops, context).iter().enumerate() {
        if n == 0 {
            let _ = write!(out, "--- {old_name}\n+++ {new_name}\n");
        }
        write_hunk(&mut out, hunk, &old_lines, &new_lines);
    }
    out
}

/// One hunk: its `@@` header, then each line with its mark.
fn write_hunk(out: &mut String, hunk: &[DiffOp], old: &[&str], new: &[&str]) {
    let (Some(first), Some(last)) = (hunk.first(), hunk.last()) else {
        return;
    };
    let _ = writeln!(
        out,
        "@@ -{} +{} @@",
        HunkRange(first.old_range().start, last.old_range().end),
        HunkRange(first.new_range().start, last.new_range().end)
    );
    for op in hunk {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        match tag {
            DiffTag::Equal => write_lines(out, ' ', &old[old_range]),
            DiffTag::Delete => write_lines(out, '-', &old[old_range]),
            DiffTag::Insert => write_lines(out, '+', &new[new_range]),
            DiffTag::Replace => {
                write_lines(out, '-', &old[old_range]);
                write_lines(out, '+', &new[new_range]);
            }
        }
    }
}

/// Lines after `mark`; a last line without a newline gets one and diff's marker line.
fn write_lines(out: &mut String, mark: char, lines: &[&str]) {
    for line in lines {
        out.push(mark);
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    }
}

/// A unified diff with colours, as `git diff` shows one: the file names bold, hunk headers
/// cyan, removed lines red, added lines green.
pub fn coloured(diff: &str) -> String {
    use owo_colors::OwoColorize;
    let mut out = String::with_capacity(diff.len() + diff.len() / 4);
    for line in diff.split_inclusive('\n') {
        let (text, end) = match line.strip_suffix('\n') {
            Some(text) => (text, "\n"),
            None => (line, ""),
        };
        let painted = if text.starts_with("---") || text.starts_with("+++") {
            text.bold().to_string()
        } else if text.starts_with("@@") {
            text.cyan().to_string()
        } else if text.starts_with('-') {
            text.red().to_string()
        } else if text.starts_with('+') {
            text.green().to_string()
        } else {
            text.to_string()
        };
        out.push_str(&painted);
        out.push_str(end);
    }
    out
}

/// A hunk's line range as diff writes it: 1-based start and length, the length left out
/// when it is 1, and the start of an empty range being the line before it.
struct HunkRange(usize, usize);

impl std::fmt::Display for HunkRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let len = self.1.saturating_sub(self.0);
        match len {
            1 => write!(f, "{}", self.0 + 1),
            0 => write!(f, "{},0", self.0),
            _ => write!(f, "{},{}", self.0 + 1, len),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn coloured_diffs_paint_each_kind_of_line() {
        let diff = super::unified_diff("a\nb\n", "a\nc\n", "x", "y", 3);
        let painted = super::coloured(&diff);
        assert!(painted.contains("\x1b[31m-b\x1b[39m\n"), "{painted:?}");
        assert!(painted.contains("\x1b[32m+c\x1b[39m\n"), "{painted:?}");
        assert!(
            painted.contains("\x1b[36m@@ -1,2 +1,2 @@\x1b[39m"),
            "{painted:?}"
        );
        assert!(painted.contains(" a\n"));
    }

    use super::*;

    #[test]
    fn one_changed_line_has_three_lines_of_context() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let new = "a\nb\nc\nd\nE\nf\ng\nh\n";
        assert_eq!(
            unified_diff(old, new, "x", "y", 3),
            "--- x\n+++ y\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n"
        );
    }

    #[test]
    fn same_lines_are_no_diff() {
        assert_eq!(unified_diff("a\nb\n", "a\nb\n", "x", "y", 3), "");
    }

    #[test]
    fn far_apart_changes_are_two_hunks_and_ranges_follow_diff() {
        let old: String = (0..20).map(|i| format!("{i}\n")).collect();
        let mut new: String = (0..20)
            .filter(|&i| i != 17)
            .map(|i| match i {
                2 => "two\n".to_string(),
                _ => format!("{i}\n"),
            })
            .collect();
        new.pop();
        let diff = unified_diff(&old, &new, "x", "y", 1);
        assert_eq!(
            diff,
            "--- x\n+++ y\n@@ -2,3 +2,3 @@\n 1\n-2\n+two\n 3\n\
             @@ -17,4 +17,3 @@\n 16\n-17\n 18\n-19\n+19\n\\ No newline at end of file\n"
        );
        assert_eq!(
            unified_diff("", "a\n", "x", "y", 3),
            "--- x\n+++ y\n@@ -0,0 +1 @@\n+a\n"
        );
    }
}
