//! Whether what an entry printed is what its transcript expects, by the rules of `tensh test`
//! and of doctest as PyTorch's documentation uses it:
//!
//! - `[..]` matches any text within a line;
//! - `...` matches any text, across lines too (doctest's `ELLIPSIS`, which PyTorch's doctests
//!   run with), so `tensor([0, 1, ..., 9])` matches a summary and a line `...` any lines;
//! - an expected traceback (`Traceback (most recent call last):`, then anything indented or
//!   `...`, then the exception) matches any traceback that ends in that exception: as doctest
//!   compares them, the stack is not compared, the exception's lines are.

/// The header line of a Python traceback.
pub const TRACEBACK: &str = "Traceback (most recent call last):";

/// Doctest's ellipsis: any text, across lines.
const ELLIPSIS: &str = "...";
/// tensh's wildcard: any text within one line.
const IN_LINE: &str = "[..]";

/// True when `actual` matches the expected line `pattern` (both wildcards within the line).
pub fn line_matches(pattern: &str, actual: &str) -> bool {
    text_matches(pattern, actual)
}

/// True when the lines `actual` printed match the `expected` lines.
pub fn output_matches(expected: &[String], actual: &[String]) -> bool {
    if let Some(at) = expected.iter().position(|l| l == TRACEBACK) {
        return traceback_matches(expected, at, actual);
    }
    text_matches(&expected.join("\n"), &actual.join("\n"))
}

/// Doctest's rule for an expected traceback at `at`: what comes before it matches as text,
/// the actual output has a traceback too, and their exceptions (the lines after the stack)
/// match as text.
fn traceback_matches(expected: &[String], at: usize, actual: &[String]) -> bool {
    let Some(actual_at) = actual.iter().position(|l| l == TRACEBACK) else {
        return false;
    };
    let before = text_matches(&expected[..at].join("\n"), &actual[..actual_at].join("\n"));
    let exception = |lines: &[String]| -> String {
        let start = lines
            .iter()
            .position(|l| !l.starts_with([' ', '\t']) && !l.starts_with(ELLIPSIS))
            .unwrap_or(lines.len());
        lines[start..].join("\n")
    };
    before
        && text_matches(
            &exception(&expected[at + 1..]),
            &exception(&actual[actual_at + 1..]),
        )
}

/// A piece of a pattern: literal text, or one of the two wildcards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece<'a> {
    Text(&'a str),
    AnyText,
    AnyInLine,
}

/// The pattern's pieces, in order.
fn pieces(pattern: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = pattern;
    loop {
        let next = [(ELLIPSIS, Piece::AnyText), (IN_LINE, Piece::AnyInLine)]
            .into_iter()
            .filter_map(|(mark, piece)| rest.find(mark).map(|at| (at, mark, piece)))
            .min_by_key(|(at, _, _)| *at);
        let Some((at, mark, piece)) = next else {
            out.push(Piece::Text(rest));
            return out;
        };
        out.push(Piece::Text(&rest[..at]));
        out.push(piece);
        rest = &rest[at + mark.len()..];
    }
}

/// Whether `actual` matches `pattern` whole. Each literal piece is taken at its first place
/// after the one before (leftmost, as doctest's ellipsis matching takes it); a piece after
/// `[..]` must be on the same line.
fn text_matches(pattern: &str, actual: &str) -> bool {
    let pieces = pieces(pattern);
    let [Piece::Text(first), middle @ .., Piece::Text(last)] = pieces.as_slice() else {
        // One literal piece: no wildcard.
        return pattern == actual;
    };
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let end = actual.len() - last.len();
    if !actual[end..].starts_with(last) {
        return false;
    }
    let mut at = first.len();
    let mut gap = Piece::AnyText;
    for piece in middle {
        match piece {
            Piece::Text(text) => {
                let Some(found) = actual[at..end].find(text) else {
                    return false;
                };
                if gap == Piece::AnyInLine && actual[at..at + found].contains('\n') {
                    return false;
                }
                at += found + text.len();
            }
            wildcard => gap = *wildcard,
        }
    }
    gap == Piece::AnyText || !actual[at..end].contains('\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn in_line_wildcards_match_any_text_within_a_line() {
        assert!(line_matches("ptr [..] end", "ptr 0x1234 end"));
        assert!(line_matches("[..]", "anything"));
        assert!(line_matches("a[..]b[..]c", "a1b2c"));
        assert!(line_matches("a[..]", "a"));
        assert!(!line_matches("a[..]b", "ab-"));
        assert!(!line_matches("ab[..]ba", "aba"));
        assert!(!line_matches("exact", "exact "));
        assert!(!output_matches(&lines("a[..]b"), &lines("a\nb")));
    }

    #[test]
    fn an_ellipsis_matches_across_lines_as_doctest_reads_it() {
        assert!(line_matches(
            "tensor([0, 1, ..., 9])",
            "tensor([0, 1, 2, 3, 9])"
        ));
        assert!(line_matches(
            "Use .reshape(...) instead.",
            "Use .reshape(...) instead."
        ));
        assert!(output_matches(
            &lines("tensor([[0, 1],\n...\n        [6, 7]])"),
            &lines("tensor([[0, 1],\n        [2, 3],\n        [4, 5],\n        [6, 7]])")
        ));
        assert!(output_matches(
            &lines("first\n..."),
            &lines("first\nmore\nlines")
        ));
        assert!(!output_matches(
            &lines("first\n...\nlast"),
            &lines("first\nmiddle")
        ));
        assert!(!output_matches(&lines("a...b"), &lines("a1")));
    }

    #[test]
    fn an_elided_traceback_matches_any_stack_ending_in_the_exception() {
        let actual = lines(
            "Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n\
             RuntimeError: shape '[3]' is invalid for input of size 4",
        );
        for expected in [
            "Traceback (most recent call last):\n  ...\nRuntimeError: shape '[3]' is invalid for input of size 4",
            "Traceback (most recent call last):\n...\nRuntimeError: shape '[3]' is invalid for input of size 4",
            "Traceback (most recent call last):\nRuntimeError: shape '[3]' is invalid for input of size 4",
            "Traceback (most recent call last):\n  ...\nRuntimeError: shape '[3]' is invalid ...",
        ] {
            assert!(output_matches(&lines(expected), &actual), "{expected}");
        }
        assert!(!output_matches(
            &lines("Traceback (most recent call last):\n  ...\nValueError: shape"),
            &actual
        ));
        assert!(!output_matches(
            &lines(
                "Traceback (most recent call last):\n  ...\nRuntimeError: shape '[3]' is invalid for input of size 4"
            ),
            &lines("RuntimeError: shape '[3]' is invalid for input of size 4")
        ));
    }
}
