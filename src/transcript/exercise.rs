//! `tensh test answer.rhai` (or `answer.py`): the exercises of `docs/exercises`. An answer
//! file starts with `// exercise: NAME` and defines `fn answer(...)` in Rhai, or starts with
//! `# exercise: NAME` and defines `def answer(...)` in Python; the exercise's check in the
//! same language (kept out of the learner's sight in `docs/exercises/checks`, built into the
//! binary) calls it on its own inputs and tests the result: its values, and whether it is a
//! view or a copy.

use crate::python::session::{PyOutcome, PythonSession};
use crate::script::session::Session;

/// Functions every check uses (`expect`, `shares`).
const PRELUDE: &str = include_str!("../../docs/exercises/checks/prelude.rhai");

/// Functions every Python check uses (`expect`, `shares`).
const PYTHON_PRELUDE: &str = include_str!("../../docs/exercises/checks/prelude.py");

/// Each exercise's check, by name: in Rhai, and in Python for answers written in Python.
pub const CHECKS: &[(&str, &str, &str)] = &[
    (
        "diagonal",
        include_str!("../../docs/exercises/checks/diagonal.rhai"),
        include_str!("../../docs/exercises/checks/diagonal.py"),
    ),
    (
        "repeat_row",
        include_str!("../../docs/exercises/checks/repeat_row.rhai"),
        include_str!("../../docs/exercises/checks/repeat_row.py"),
    ),
    (
        "transpose_by_strides",
        include_str!("../../docs/exercises/checks/transpose_by_strides.rhai"),
        include_str!("../../docs/exercises/checks/transpose_by_strides.py"),
    ),
    (
        "every_other",
        include_str!("../../docs/exercises/checks/every_other.rhai"),
        include_str!("../../docs/exercises/checks/every_other.py"),
    ),
    (
        "last_column",
        include_str!("../../docs/exercises/checks/last_column.rhai"),
        include_str!("../../docs/exercises/checks/last_column.py"),
    ),
    (
        "windows",
        include_str!("../../docs/exercises/checks/windows.rhai"),
        include_str!("../../docs/exercises/checks/windows.py"),
    ),
    (
        "float_bytes",
        include_str!("../../docs/exercises/checks/float_bytes.rhai"),
        include_str!("../../docs/exercises/checks/float_bytes.py"),
    ),
    (
        "flatten_transpose",
        include_str!("../../docs/exercises/checks/flatten_transpose.rhai"),
        include_str!("../../docs/exercises/checks/flatten_transpose.py"),
    ),
    (
        "reverse",
        include_str!("../../docs/exercises/checks/reverse.rhai"),
        include_str!("../../docs/exercises/checks/reverse.py"),
    ),
    (
        "same_memory",
        include_str!("../../docs/exercises/checks/same_memory.rhai"),
        include_str!("../../docs/exercises/checks/same_memory.py"),
    ),
    (
        "byte_offset",
        include_str!("../../docs/exercises/checks/byte_offset.rhai"),
        include_str!("../../docs/exercises/checks/byte_offset.py"),
    ),
    (
        "zero_row",
        include_str!("../../docs/exercises/checks/zero_row.rhai"),
        include_str!("../../docs/exercises/checks/zero_row.py"),
    ),
];

/// The exercise an answer names on its first line (`// exercise: NAME` in Rhai,
/// `# exercise: NAME` in Python).
pub fn named_in(text: &str) -> Option<&str> {
    let first = text.lines().next()?.trim();
    first
        .strip_prefix("//")
        .or_else(|| first.strip_prefix('#'))?
        .trim()
        .strip_prefix("exercise:")
        .map(str::trim)
}

/// Whether an answer is written in Python: it names its exercise in a `#` comment.
pub fn is_python(text: &str) -> bool {
    text.trim_start().starts_with('#')
}

/// Runs exercise `name`'s check on `answer` (the answer file's text, in Rhai or in Python as
/// `is_python` tells): `Ok` when it passes, else what is not right yet.
pub fn check(name: &str, answer: &str) -> Result<(), String> {
    let Some((_, rhai_check, python_check)) = CHECKS.iter().find(|(n, _, _)| *n == name) else {
        let names: Vec<&str> = CHECKS.iter().map(|(n, _, _)| *n).collect();
        return Err(format!(
            "there is no exercise named {name:?}; the exercises are {}",
            names.join(", ")
        ));
    };
    if is_python(answer) {
        check_python(python_check, answer)
    } else {
        check_rhai(rhai_check, answer)
    }
}

/// A Rhai answer: run it, then the check with the prelude in the same engine.
fn check_rhai(check: &str, answer: &str) -> Result<(), String> {
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

/// A Python answer: run it as a module, then the prelude and the check in its globals. A
/// failed expectation is the prelude's `AssertionError("not yet: ...")`.
fn check_python(check: &str, answer: &str) -> Result<(), String> {
    let mut session = PythonSession::new("answer.py");
    if let PyOutcome::Raised { report, .. } = session.run(answer) {
        return Err(format!("the answer file fails: {}", last_line(&report)));
    }
    match session.run(&format!("{PYTHON_PRELUDE}\n{check}")) {
        PyOutcome::Raised { kind, message, .. }
            if kind == "AssertionError" && message.starts_with("not yet: ") =>
        {
            Err(message)
        }
        PyOutcome::Raised { report, .. } => Err(format!(
            "the check could not run your answer: {}",
            last_line(&report)
        )),
        PyOutcome::Exit(status) => Err(format!("the answer called exit({status})")),
        PyOutcome::Nothing | PyOutcome::Value(_) => Ok(()),
    }
}

/// The last line of a traceback: `Kind: message`.
fn last_line(report: &str) -> &str {
    report.trim_end().lines().last().unwrap_or("")
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

    #[test]
    fn a_python_answer_is_checked_by_the_python_check() {
        let right = "# exercise: every_other\ndef answer(x):\n    return x[::2]\n";
        assert_eq!(named_in(right), Some("every_other"));
        assert!(check("every_other", right).is_ok());
        let copy = right.replace("x[::2]", "x[::2].clone()");
        let e = check("every_other", &copy).unwrap_err();
        assert_eq!(e, "not yet: a view stepping 2 elements");
        let broken = "# exercise: every_other\ndef answer(x):\n    return x.nope()\n";
        let e = check("every_other", broken).unwrap_err();
        assert!(
            e.starts_with("the check could not run your answer: AttributeError:"),
            "{e}"
        );
        let e = check("every_other", "# exercise: every_other\n1 / 0\n").unwrap_err();
        assert_eq!(
            e,
            "the answer file fails: ZeroDivisionError: division by zero"
        );
    }

    #[test]
    fn every_exercise_has_its_check_in_both_languages() {
        for (name, rhai, python) in CHECKS {
            assert!(rhai.contains("answer("), "{name}");
            assert!(python.contains("answer("), "{name}");
        }
    }
}
