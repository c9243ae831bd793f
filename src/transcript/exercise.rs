//! `tensh test answer.rhai`: the exercises of `docs/exercises`. An answer file starts with
//! `// exercise: NAME` and defines `fn answer(...)`; the exercise's check (kept out of the
//! learner's sight in `docs/exercises/checks`, built into the binary) calls it on its own
//! inputs and tests the result: its values, and whether it is a view or a copy.

use crate::script::session::Session;

/// Functions every check uses (`expect`, `shares`).
const PRELUDE: &str = include_str!("../../docs/exercises/checks/prelude.rhai");

/// Each exercise's check, by name.
pub const CHECKS: &[(&str, &str)] = &[
    (
        "diagonal",
        include_str!("../../docs/exercises/checks/diagonal.rhai"),
    ),
    (
        "repeat_row",
        include_str!("../../docs/exercises/checks/repeat_row.rhai"),
    ),
    (
        "transpose_by_strides",
        include_str!("../../docs/exercises/checks/transpose_by_strides.rhai"),
    ),
    (
        "every_other",
        include_str!("../../docs/exercises/checks/every_other.rhai"),
    ),
    (
        "last_column",
        include_str!("../../docs/exercises/checks/last_column.rhai"),
    ),
    (
        "windows",
        include_str!("../../docs/exercises/checks/windows.rhai"),
    ),
    (
        "float_bytes",
        include_str!("../../docs/exercises/checks/float_bytes.rhai"),
    ),
    (
        "flatten_transpose",
        include_str!("../../docs/exercises/checks/flatten_transpose.rhai"),
    ),
    (
        "reverse",
        include_str!("../../docs/exercises/checks/reverse.rhai"),
    ),
    (
        "same_memory",
        include_str!("../../docs/exercises/checks/same_memory.rhai"),
    ),
    (
        "byte_offset",
        include_str!("../../docs/exercises/checks/byte_offset.rhai"),
    ),
    (
        "zero_row",
        include_str!("../../docs/exercises/checks/zero_row.rhai"),
    ),
];

/// The exercise an answer file names on its first line (`// exercise: NAME`).
pub fn named_in(text: &str) -> Option<&str> {
    text.lines()
        .next()?
        .trim()
        .strip_prefix("//")?
        .trim()
        .strip_prefix("exercise:")
        .map(str::trim)
}

/// Runs exercise `name`'s check on `answer` (the answer file's text): `Ok` when it passes,
/// else what is not right yet.
pub fn check(name: &str, answer: &str) -> Result<(), String> {
    let Some((_, check)) = CHECKS.iter().find(|(n, _)| *n == name) else {
        let names: Vec<&str> = CHECKS.iter().map(|(n, _)| *n).collect();
        return Err(format!(
            "there is no exercise named {name:?}; the exercises are {}",
            names.join(", ")
        ));
    };
    let mut session = Session::new();
    // The answer first, so that its errors point at its own lines.
    if let Err(e) = session.eval(answer) {
        let at = e.line.map_or(String::new(), |l| format!(" (line {l})"));
        return Err(format!("the answer file fails{at}: {}", e.message));
    }
    let code = format!("{PRELUDE}\n{answer}\n{check}");
    session.eval(&code).map(|_| ()).map_err(|e| {
        let message = e.message.trim_start_matches("Runtime error: ");
        if message.contains("not yet: ") {
            message[message.find("not yet: ").unwrap_or(0)..].to_string()
        } else {
            format!("the check could not run your answer: {message}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_names_its_exercise() {
        assert_eq!(
            named_in("// exercise: diagonal\nfn answer(x) { x }"),
            Some("diagonal")
        );
        assert_eq!(named_in("fn answer(x) { x }"), None);
    }

    #[test]
    fn a_copy_where_a_view_is_asked_is_not_yet_right() {
        let copy = "// exercise: every_other\nfn answer(x) { x[\"::2\"].clone() }";
        let e = check("every_other", copy).unwrap_err();
        assert!(e.starts_with("not yet: a view stepping 2 elements"), "{e}");
        let right = "// exercise: every_other\nfn answer(x) { x[\"::2\"] }";
        assert!(check("every_other", right).is_ok());
        assert!(check("nope", right).unwrap_err().contains("diagonal"));
    }
}
