//! Walking a script's tokens with Rhai's own tokenizer, each with its byte offset in the
//! text. Source rewrites (`catch (e)` bindings, the prompt's `_`) and the prompt's questions
//! about its input (brace depth, where a `//` comment starts) all need to see code the way
//! Rhai does: strings, comments and `${...}` interpolations left alone.

use rhai::{Engine, Token};

/// Start of each line of `code`, as byte offsets.
fn line_starts(code: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(code.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// Byte offset of a 1-based (line, column in characters) position in `code`.
fn byte_offset(starts: &[usize], code: &str, line: usize, col: usize) -> Option<usize> {
    let start = *starts.get(line.checked_sub(1)?)?;
    let within = code[start..]
        .char_indices()
        .nth(col.checked_sub(1)?)
        .map(|(i, _)| i)?;
    Some(start + within)
}

/// Calls `visit` with every token of `code` (up to, not including, the end) and the byte
/// offset where it starts. A lexing error is passed on as its `Token::LexError`, and the
/// walk goes on as Rhai's tokenizer does.
pub fn each_token(engine: &Engine, code: &str, mut visit: impl FnMut(&Token, usize)) {
    let inputs = [code];
    let (tokens, control) = engine.lex(&inputs);
    let starts = line_starts(code);
    // Brace depth of each interpolation `${ ... }` being read, innermost last: after its
    // closing brace the tokenizer must be told to read text again (as Rhai's parser does).
    let mut interpolations: Vec<usize> = Vec::new();
    for (token, pos) in tokens {
        match &token {
            Token::EOF => break,
            Token::InterpolatedString(..) => interpolations.push(0),
            Token::LeftBrace => {
                if let Some(depth) = interpolations.last_mut() {
                    *depth += 1;
                }
            }
            Token::RightBrace => {
                if let Some(depth) = interpolations.last_mut() {
                    *depth = depth.saturating_sub(1);
                    if *depth == 0 {
                        interpolations.pop();
                        control.borrow_mut().is_within_text = true;
                    }
                }
            }
            _ => {}
        }
        if let (Some(line), Some(col)) = (pos.line(), pos.position())
            && let Some(at) = byte_offset(&starts, code, line, col)
        {
            visit(&token, at);
        }
    }
}

/// `code` with each `(at, removed, text)` edit applied: `removed` bytes at byte offset `at`
/// replaced by `text`. Edits are in increasing order of `at` and do not overlap.
pub fn splice(code: &str, edits: &[(usize, usize, String)]) -> String {
    let mut out =
        String::with_capacity(code.len() + edits.iter().map(|e| e.2.len()).sum::<usize>());
    let mut from = 0;
    for (at, removed, text) in edits {
        out.push_str(&code[from..*at]);
        out.push_str(text);
        from = at + removed;
    }
    out.push_str(&code[from..]);
    out
}

/// How deeply the end of `code` is nested in `{`, `(` and `[` (never below zero).
pub fn open_depth(engine: &Engine, code: &str) -> usize {
    let mut depth: usize = 0;
    each_token(engine, code, |token, _| match token {
        Token::LeftBrace | Token::MapStart | Token::LeftParen | Token::LeftBracket => depth += 1,
        Token::RightBrace | Token::RightParen | Token::RightBracket => {
            depth = depth.saturating_sub(1)
        }
        _ => {}
    });
    depth
}

/// Whether the text `code[..at]` ends outside any string or comment, so that code placed at
/// `at` would be read as code.
pub fn is_code_at(engine: &Engine, code: &str, at: usize) -> bool {
    const PROBE: &str = "tensh_probe_identifier";
    let probe = format!("{} {PROBE}", &code[..at]);
    let mut last = None;
    each_token(engine, &probe, |token, offset| {
        last = Some((
            matches!(token, Token::Identifier(n) if n.as_str() == PROBE),
            offset,
        ));
    });
    matches!(last, Some((true, offset)) if offset > at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_bytes_and_interpolations_are_followed() {
        let engine = Engine::new();
        let mut seen = Vec::new();
        each_token(&engine, "let é = `a${1}b`;\nx", |t, at| {
            seen.push((matches!(t, Token::Let | Token::Identifier(_)), at))
        });
        assert_eq!(seen.first(), Some(&(true, 0)));
        // `x` after the two-byte `é`, the interpolation and the new line.
        assert_eq!(seen.last(), Some(&(true, 19)));
    }

    #[test]
    fn depth_counts_open_brackets_outside_strings() {
        let engine = Engine::new();
        assert_eq!(open_depth(&engine, "fn f(x) {\n  let a = [1,"), 2);
        assert_eq!(open_depth(&engine, "let s = \"{[(\";"), 0);
        assert_eq!(open_depth(&engine, "let m = #{a: 1"), 1);
        assert_eq!(open_depth(&engine, "}}"), 0);
    }

    #[test]
    fn code_positions_exclude_strings_and_comments() {
        let engine = Engine::new();
        let code = "a // b; \"x // y\"";
        assert!(is_code_at(&engine, code, 2));
        let code = "let s = \"x // y\";";
        assert!(!is_code_at(&engine, code, 11));
        let code = "/* a // b */";
        assert!(!is_code_at(&engine, code, 5));
    }
}
