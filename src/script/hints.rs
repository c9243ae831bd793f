//! Python habits met halfway: after an error that a Python spelling caused (`torch.zeros`,
//! `True`, `x.sum(dim=1)`, `x[0, 1]`, `a @ b`, `x.shape()`, ...), one `hint:` line with the
//! tensh form, built from the line the user wrote. The prompt also warns when `//` (a
//! comment in Rhai) silently dropped the rest of a line that reads as floor division.

use super::session::ScriptError;
use crate::ops::signature::{self, Kind};

/// The line the error points at (the whole code when it has no position).
fn error_line<'a>(code: &'a str, e: &ScriptError) -> &'a str {
    e.line
        .and_then(|l| code.lines().nth(l.checked_sub(1)?))
        .unwrap_or(code)
        .trim()
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The `name` of a `NameError: name 'name' is not defined`.
fn undefined_name(message: &str) -> Option<&str> {
    message
        .strip_prefix("NameError: name '")?
        .strip_suffix("' is not defined")
}

/// Whether `line` assigns to `name` (`name = ...`, not `==`, not after `let`).
fn assigns(line: &str, name: &str) -> bool {
    line.match_indices(name).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let rest = line[at + name.len()..].trim_start();
        before.is_none_or(|c| !is_ident_char(c) && c != '.')
            && rest.starts_with('=')
            && !rest.starts_with("==")
            && !line[..at].trim_end().ends_with("let")
    })
}

/// `line` with its first Python keyword argument list (`f(a, k=v, j=w)`) written as a
/// trailing map (`f(a, #{k: v, j: w})`).
fn keywords_as_map(line: &str) -> Option<String> {
    let chars: Vec<char> = line.chars().collect();
    // The first `name=` (not `==`, `<=`, ...) right after `(` or `,`.
    let mut start = None;
    for (i, &c) in chars.iter().enumerate() {
        if c != '=' || chars.get(i + 1) == Some(&'=') {
            continue;
        }
        let mut j = i;
        while j > 0 && chars[j - 1] == ' ' {
            j -= 1;
        }
        let end_name = j;
        while j > 0 && is_ident_char(chars[j - 1]) {
            j -= 1;
        }
        let mut k = j;
        while k > 0 && chars[k - 1] == ' ' {
            k -= 1;
        }
        if end_name > j && k > 0 && matches!(chars[k - 1], '(' | ',') {
            start = Some(j);
            break;
        }
    }
    let start = start?;
    // The closing parenthesis of the call, and the top-level commas before it.
    let mut depth = 0usize;
    let mut close = None;
    let mut parts = Vec::new();
    let mut from = start;
    for (i, &c) in chars.iter().enumerate().skip(start) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth > 0 => depth -= 1,
            ')' => {
                close = Some(i);
                break;
            }
            ',' if depth == 0 => {
                parts.push(chars[from..i].iter().collect::<String>());
                from = i + 1;
            }
            _ => {}
        }
    }
    let close = close?;
    parts.push(chars[from..close].iter().collect::<String>());
    let entries: Vec<String> = parts
        .iter()
        .map(|p| match p.split_once('=') {
            Some((k, v)) => format!("{}: {}", k.trim(), v.trim()),
            None => p.trim().to_string(),
        })
        .collect();
    let head: String = chars[..start].iter().collect();
    let tail: String = chars[close..].iter().collect();
    Some(format!("{head}#{{{}}}{tail}", entries.join(", ")))
}

/// `line` with its first `x[a, b]` index written as a string index `x["a, b"]`.
fn index_as_string(line: &str) -> Option<String> {
    let open = line.find('[')?;
    let close = open + line[open..].find(']')?;
    let inside = &line[open + 1..close];
    let before = line[..open].chars().next_back()?;
    if !(is_ident_char(before) || before == ')' || before == ']')
        || inside.starts_with('"')
        || !(inside.contains(',') || inside.contains(':'))
    {
        return None;
    }
    Some(format!(
        "{}[\"{inside}\"]{}",
        &line[..open],
        &line[close + 1..]
    ))
}

/// For Rhai's "Expecting ';'" at the start of a line (two statements written on two lines
/// with nothing between them, as Python allows), the line that needs the `;`: the last
/// non-blank line before it, numbered from 1, and that line with the `;` added.
fn missing_semicolon_before(code: &str, e: &ScriptError) -> Option<(usize, String)> {
    if !e.message.starts_with("SyntaxError: Expecting ';'") {
        return None;
    }
    let at = e.line?;
    let here = code.lines().nth(at.checked_sub(1)?)?;
    let indent = here.len() - here.trim_start().len();
    if e.column.is_some_and(|c| c > indent + 1) {
        return None;
    }
    let (i, previous) = code
        .lines()
        .take(at - 1)
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .last()?;
    Some((i + 1, format!("{};", previous.trim_end())))
}

/// The hint for error `e` of `code`, if a Python habit explains it.
pub fn python_hint(code: &str, e: &ScriptError) -> Option<String> {
    let line = error_line(code, e);
    let message = e.message.as_str();
    let hint = if let Some(name) = undefined_name(message) {
        match name {
            "torch" if line.contains("import") => {
                "there is nothing to import in Rhai: torch:: functions and constants are always \
                 there (to run Python as it is written, `:python` at the prompt or `tensh FILE.py`)"
                    .to_string()
            }
            "torch" | "np" | "nn" => {
                format!("torch functions are called with `::`: {}", {
                    let fixed = line.replace("torch.", "torch::");
                    if fixed == line {
                        "torch::zeros(3)".to_string()
                    } else {
                        fixed
                    }
                })
            }
            "True" | "False" | "None" => {
                "Rhai spells True, False and None as true, false and ()".to_string()
            }
            "math" => {
                "the constants are torch::pi, torch::e, torch::inf and torch::nan".to_string()
            }
            _ if assigns(line, name) => format!("a new variable needs `let`: let {name} = ..."),
            _ => return None,
        }
    } else if message.starts_with("TypeError: range()") {
        "Rhai's ranges are 0..3 and 0..=3 (`for i in 0..3`), or range(0, 3)".to_string()
    } else if let Some(name) = message
        .strip_prefix("TypeError: ")
        .and_then(|m| m.split_once("() got arguments of types ("))
        .map(|(n, _)| n)
        && signature::lookup("Tensor", name).is_some_and(|d| matches!(d.kind(), Kind::Property))
    {
        format!("{name} is a property, read without parentheses: x.{name}")
    } else if message.contains("Unknown operator: '@'") {
        "the matrix product is torch::matmul(a, b) or a.matmul(b)".to_string()
    } else if let Some(previous) = missing_semicolon_before(code, e) {
        format!("line {} needs a `;` at its end: {}", previous.0, previous.1)
    } else if message.starts_with("SyntaxError: ") {
        if let Some(fixed) = keywords_as_map(line) {
            format!("in tensh, keyword arguments go in a map: {fixed}")
        } else if let Some(fixed) = index_as_string(line) {
            format!("an index of several parts is written as a string: {fixed}")
        } else {
            return None;
        }
    } else {
        return None;
    };
    Some(format!("hint: {hint}"))
}

/// When `code` has a `//` comment that reads as Python's floor division (`a // b` with
/// nothing after `b`), the hint that Rhai ignored the rest of the line.
pub fn floor_division_hint(engine: &rhai::Engine, code: &str) -> Option<String> {
    for (at, _) in code.match_indices("//") {
        let line_start = code[..at].rfind('\n').map_or(0, |i| i + 1);
        let line_end = code[at..].find('\n').map_or(code.len(), |i| at + i);
        let before = code[line_start..at].trim_end();
        let after = code[at + 2..line_end].trim();
        let operand_before = before
            .chars()
            .next_back()
            .is_some_and(|c| is_ident_char(c) || c == ')' || c == ']');
        let operand_after = !after.is_empty()
            && after
                .trim_end_matches(';')
                .trim_end_matches(')')
                .chars()
                .all(|c| is_ident_char(c) || c == '.');
        if operand_before && operand_after && super::tokens::is_code_at(engine, code, at) {
            let left = before
                .rsplit(|c: char| !(is_ident_char(c) || c == '.' || c == ')' || c == ']'))
                .next()
                .unwrap_or(before);
            let right = after.trim_end_matches(';');
            return Some(format!(
                "hint: `//` starts a comment in Rhai, so `// {right}` was ignored; floor \
                 division is torch::floor_divide({left}, {right}) (for two ints, {left} / {right} \
                 rounds toward zero)"
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_semicolon_names_the_line_that_needs_it() {
        let e = ScriptError {
            line: Some(3),
            column: Some(1),
            ..error("SyntaxError: Expecting ';' to terminate this statement")
        };
        let code = "let a = torch::ones(2)\n\nlet b = a + 1;\n";
        assert_eq!(
            python_hint(code, &e).as_deref(),
            Some("hint: line 1 needs a `;` at its end: let a = torch::ones(2);")
        );
        // In the middle of a line, the `;` is missing there, not on the line before.
        let inside = ScriptError {
            column: Some(9),
            ..e
        };
        assert_eq!(python_hint(code, &inside), None);
    }

    fn error(message: &str) -> ScriptError {
        ScriptError {
            message: message.to_string(),
            line: Some(1),
            column: Some(1),
            raised: false,
            exit: None,
            function: None,
            kind: None,
            call_site: None,
        }
    }

    #[test]
    fn python_spellings_get_the_tensh_form() {
        let cases = [
            (
                "import torch",
                "NameError: name 'torch' is not defined",
                "nothing to import",
            ),
            (
                "torch.zeros(3)",
                "NameError: name 'torch' is not defined",
                "torch::zeros(3)",
            ),
            (
                "x = None",
                "NameError: name 'None' is not defined",
                "true, false and ()",
            ),
            ("x = 5", "NameError: name 'x' is not defined", "let x = ..."),
            (
                "range(3)",
                "TypeError: range() got arguments of types (int) that no form of it takes",
                "0..3",
            ),
            (
                "x.shape()",
                "TypeError: shape() got arguments of types (Tensor) that no form of it takes",
                "x.shape",
            ),
            (
                "a @ b",
                "SyntaxError: Unknown operator: '@'",
                "torch::matmul(a, b)",
            ),
            (
                "x.sum(dim=1, keepdim=true)",
                "SyntaxError: Expecting ','",
                "x.sum(#{dim: 1, keepdim: true})",
            ),
            (
                "torch::zeros(2, dtype=torch::int8)",
                "SyntaxError: Expecting ','",
                "torch::zeros(2, #{dtype: torch::int8})",
            ),
            ("x[0, 1]", "SyntaxError: Expecting ']'", "x[\"0, 1\"]"),
            ("x[:, 1:3]", "SyntaxError: Unexpected ':'", "x[\":, 1:3\"]"),
        ];
        for (code, message, wanted) in cases {
            let hint = python_hint(code, &error(message)).unwrap_or_default();
            assert!(
                hint.starts_with("hint: ") && hint.contains(wanted),
                "{code}: {hint}"
            );
        }
        assert_eq!(
            python_hint("x == 5", &error("NameError: name 'x' is not defined")),
            None
        );
        assert_eq!(
            python_hint("f(a == b)", &error("SyntaxError: Expecting ','")),
            None
        );
    }

    #[test]
    fn floor_division_comments_are_noticed() {
        let engine = rhai::Engine::new();
        let hint = floor_division_hint(&engine, "a // b").unwrap_or_default();
        assert!(hint.contains("torch::floor_divide(a, b)"), "{hint}");
        assert!(floor_division_hint(&engine, "let n = 7 // 2;").is_some());
        assert_eq!(
            floor_division_hint(&engine, "let a = 5; // the count"),
            None
        );
        assert_eq!(floor_division_hint(&engine, "// just a note"), None);
        assert_eq!(floor_division_hint(&engine, "print(\"a // b\")"), None);
    }
}
