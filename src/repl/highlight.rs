//! Colouring typed input: keywords, strings, numbers and comments. Only colours are added,
//! so the text's width is unchanged.

use owo_colors::OwoColorize;

/// Rhai's keywords.
const KEYWORDS: &[&str] = &[
    "let", "const", "fn", "if", "else", "for", "in", "while", "loop", "do", "until", "return",
    "break", "continue", "true", "false", "try", "catch", "throw", "switch", "import", "export",
    "as", "private", "this",
];

/// Python's keywords (soft ones included).
pub const PYTHON_KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "case", "class",
    "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if",
    "import", "in", "is", "lambda", "match", "nonlocal", "not", "or", "pass", "raise", "return",
    "try", "while", "with", "yield",
];

/// `line` with ANSI colours, read as Python (`python`) or Rhai.
pub fn highlight(line: &str, python: bool) -> String {
    let keywords = if python { PYTHON_KEYWORDS } else { KEYWORDS };
    let mut out = String::with_capacity(line.len() * 2);
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let end_of = |k: usize| chars.get(k).map_or(line.len(), |(i, _)| *i);
    let mut k = 0;
    while k < chars.len() {
        let (i, c) = chars[k];
        let comment = if python {
            c == '#'
        } else {
            c == '/' && chars.get(k + 1).is_some_and(|(_, n)| *n == '/')
        };
        if comment {
            out += &(&line[i..]).dimmed().to_string();
            break;
        } else if c == '"' || c == '`' || c == '\'' {
            let mut j = k + 1;
            while j < chars.len() && chars[j].1 != c {
                j += if chars[j].1 == '\\' { 2 } else { 1 };
            }
            let stop = end_of((j + 1).min(chars.len()));
            out += &(&line[i..stop]).green().to_string();
            k = j + 1;
        } else if c.is_ascii_digit() {
            let mut j = k;
            while j < chars.len()
                && (chars[j].1.is_ascii_alphanumeric() || chars[j].1 == '.' || chars[j].1 == '_')
            {
                j += 1;
            }
            out += &(&line[i..end_of(j)]).cyan().to_string();
            k = j;
        } else if c.is_alphabetic() || c == '_' {
            let mut j = k;
            while j < chars.len() && (chars[j].1.is_alphanumeric() || chars[j].1 == '_') {
                j += 1;
            }
            let word = &line[i..end_of(j)];
            if keywords.contains(&word) {
                out += &word.magenta().bold().to_string();
            } else {
                out += word;
            }
            k = j;
        } else {
            out.push(c);
            k += 1;
        }
    }
    out
}

/// `text` without ANSI escape sequences.
#[cfg(test)]
pub fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut in_escape = false;
    for c in text.chars() {
        match (in_escape, c) {
            (false, '\u{1b}') => in_escape = true,
            (true, 'm') => in_escape = false,
            (true, _) => {}
            (false, c) => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_only_add_escapes() {
        for line in [
            "let x = torch::zeros(2, 3); // note",
            "fn f(a) { a * 2.5e3 }",
            "print(\"a \\\" b\"); `unterminated",
            "héllo + 1_000",
        ] {
            assert_eq!(strip_ansi(&highlight(line, false)), line);
        }
    }

    #[test]
    fn keywords_strings_and_numbers_are_coloured() {
        let h = highlight("let s = \"x\"; 42", false);
        assert!(h.contains(&"let".magenta().bold().to_string()));
        assert!(h.contains(&"\"x\"".green().to_string()));
        assert!(h.contains(&"42".cyan().to_string()));
        assert!(!highlight("letter", false).contains('\u{1b}'));
        let python = highlight("def f(x): return x  # let", true);
        assert!(python.contains("def") && strip_ansi(&python) == "def f(x): return x  # let");
        assert_eq!(highlight("let x", true), "let x");
    }
}
