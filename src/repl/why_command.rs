//! `:why`: after one of the classic layout errors (or `frombuffer`'s warning), explains it
//! from the layouts involved (`print::why`); `:why > fig.svg` also draws the tensor involved.

use crate::core::why;
use crate::ops::output;
use crate::print::explain::svg;

/// What `:why` says when the last input raised nothing it can explain.
const NOTHING: &str = "`:why` explains the last input's error when it is one of the classic \
layout errors: view after transpose or slicing, view(dtype) with a last stride other than 1, \
an in-place write into an expanded tensor, set_ or as_strided out of bounds, a negative slice \
step, or frombuffer's warning on a bytes buffer. The last input raised none of them.";

/// Runs `:why REST`; `receiver` is what the last input called the tensor the explanation
/// is about (`x.t()`), else it is `t`. A complaint (nothing to explain, a wrong argument, a
/// picture that cannot be written) is returned.
pub fn run(rest: &str, receiver: Option<String>) -> Result<(), String> {
    let Some(noted) = why::last() else {
        return Err(NOTHING.to_string());
    };
    let name = receiver.unwrap_or_else(|| "t".to_string());
    for line in crate::print::why::explain_noted(&noted, &name, output::color()).lines() {
        output::print_line(line);
    }
    let Some(path) = rest.strip_prefix('>').map(str::trim) else {
        if !rest.is_empty() {
            return Err(
                "`:why` takes nothing, or `> FILE.svg` to draw the tensor involved".to_string(),
            );
        }
        return Ok(());
    };
    let Some(tensor) = crate::print::why::subject(&noted) else {
        return Err(
            "this error has no tensor to draw: its explanation above is the picture".to_string(),
        );
    };
    match svg::picture(&[(name, tensor)]) {
        Ok(picture) => match crate::ops::explain_api::write_file(path, &picture.svg) {
            Ok(()) => {
                output::print_line(&format!("picture written to {path}"));
                Ok(())
            }
            Err(e) => Err(crate::ops::errors::error_text(&e)),
        },
        Err(e) => Err(format!("{}: {}", e.kind.name(), e.message)),
    }
}

/// The text of the receiver of the call or index at `line`, `column` (1-based) of `code`:
/// `x.t()` for an error at `view` in `x.t().view(6)`, `y` for `y["::-1"]`. Scans back from
/// the `.` or `[` before the place over names, calls and brackets; `None` when there is no
/// receiver there or it is longer than a name should be.
pub fn receiver_text(code: &str, line: usize, column: usize) -> Option<String> {
    let text: Vec<char> = code.lines().nth(line.checked_sub(1)?)?.chars().collect();
    // A place past the line's end (an error reported there) is its end.
    let place = column.checked_sub(1)?.min(text.len());
    let mut end = if text.get(place) == Some(&'[') {
        place
    } else {
        let mut i = place;
        while i > 0 && text[i - 1].is_whitespace() {
            i -= 1;
        }
        if i == 0 || text[i - 1] != '.' {
            return None;
        }
        i - 1
    };
    while end > 0 && text[end - 1].is_whitespace() {
        end -= 1;
    }
    let start = super::chain::chain_start(&text, end);
    let receiver: String = text[start..end].iter().collect();
    let receiver = receiver.trim_start_matches(':').to_string();
    is_short_receiver(&receiver).then_some(receiver)
}

/// Whether `receiver` reads well as the name of a tensor in a sentence: a name, a chain or
/// a bracketed expression, at most 60 characters long.
pub fn is_short_receiver(receiver: &str) -> bool {
    !receiver.is_empty()
        && !receiver.contains('\n')
        && receiver.chars().count() <= 60
        && receiver.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '(')
}

#[cfg(test)]
mod tests {
    use super::receiver_text;

    #[test]
    fn the_receiver_is_named_as_written() {
        let at = |code: &str, word: &str| {
            let column = code.find(word).unwrap() + 1;
            receiver_text(code, 1, column)
        };
        assert_eq!(at("x.t().view(6)", "view").as_deref(), Some("x.t()"));
        assert_eq!(
            at(
                "let y = torch::arange(6).view(2, 3).t().view(6);",
                "view(6)"
            )
            .as_deref(),
            Some("torch::arange(6).view(2, 3).t()")
        );
        assert_eq!(at("a + b.view(torch::int32)", "view").as_deref(), Some("b"));
        assert_eq!(at("(a + b).view(3)", "view").as_deref(), Some("(a + b)"));
        assert_eq!(
            at("f(x[\"1:\"].view(3))", "view").as_deref(),
            Some("x[\"1:\"]")
        );
        assert_eq!(at("y[\"::-1\"]", "[").as_deref(), Some("y"));
        assert_eq!(at("view(3)", "view"), None);
        assert_eq!(receiver_text("x.view(3)", 2, 1), None);
        assert_eq!(
            receiver_text("x.t().", 1, 40).as_deref(),
            Some("x.t()"),
            "past the end"
        );
        assert_eq!(receiver_text("x.t().view", 1, 7).as_deref(), Some("x.t()"));
    }
}
