//! The source line an error happened on, with a caret under the place: the lines a script's
//! error and a multi-line cell's error show after the message.

use super::session::ScriptError;

/// The numbered lines that place `e` in `code`: the line and carets where it happened, when
/// `code` holds that place (`at_place`: false for an error inside a function defined in
/// another input), then, for an error inside a script function, the call in `code` that
/// led there.
pub fn placed(code: &str, e: &ScriptError, at_place: bool) -> Vec<String> {
    let mut lines = Vec::new();
    if at_place && let (Some(line), Some(column)) = (e.line, e.column) {
        lines.extend(excerpt(code, line, column, true));
    }
    if let (Some(_), Some((line, column))) = (&e.function, e.call_site) {
        lines.push(format!("  called from line {line}:"));
        lines.extend(excerpt(code, line, column, true));
    }
    lines
}

/// `line`'s text from `code` and a caret line under `column` (both 1-based), with the line
/// number in a gutter when `numbered`: `"    4 |    .view(5));"`, `"      |     ^^^^"`.
/// The carets cover the name that starts at the column (a method, a function, a
/// `torch::` path), else one character. Empty when the line is not in `code`.
pub fn excerpt(code: &str, line: usize, column: usize, numbered: bool) -> Vec<String> {
    let Some(text) = line.checked_sub(1).and_then(|i| code.lines().nth(i)) else {
        return Vec::new();
    };
    let text = text.trim_end();
    let before: String = text
        .chars()
        .take(column.saturating_sub(1))
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let width = name_width(text.chars().skip(column.saturating_sub(1))).max(1);
    let carets = "^".repeat(width);
    if numbered {
        let number = line.to_string();
        let blank = " ".repeat(number.len());
        vec![
            format!("  {number} | {text}"),
            format!("  {blank} | {before}{carets}"),
        ]
    } else {
        vec![format!("  {text}"), format!("  {before}{carets}")]
    }
}

/// How many characters of `rest` make a name: letters, digits, `_` and `::` between them.
fn name_width(rest: impl Iterator<Item = char>) -> usize {
    let chars: Vec<char> = rest.take(200).collect();
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut n = 0;
    while n < chars.len() {
        if word(chars[n]) {
            n += 1;
        } else if n > 0
            && chars[n] == ':'
            && chars.get(n + 1) == Some(&':')
            && chars.get(n + 2).is_some_and(|&c| word(c))
        {
            n += 2;
        } else {
            break;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carets_cover_the_name_at_the_column() {
        let code = "let a = 1;\n   .view(5));";
        assert_eq!(
            excerpt(code, 2, 5, true),
            ["  2 |    .view(5));", "    |     ^^^^"]
        );
        assert_eq!(
            excerpt("let b = torch::ones(4) + a;", 1, 9, false),
            ["  let b = torch::ones(4) + a;", "          ^^^^^^^^^^^"]
        );
        assert_eq!(
            excerpt("a + b", 1, 3, false),
            ["  a + b", "    ^"],
            "an operator gets one caret"
        );
        assert!(excerpt("a", 3, 1, true).is_empty());
        assert!(excerpt("a", 0, 1, true).is_empty());
    }

    #[test]
    fn tabs_keep_the_caret_under_the_place() {
        assert_eq!(excerpt("\tx.t()", 1, 4, false), ["  \tx.t()", "  \t  ^"]);
    }
}
