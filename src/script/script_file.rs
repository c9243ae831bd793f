//! Running a Rhai script as a file: `tensh FILE.rhai`, `-e CODE`, standard input, and the
//! page's scripts. An error ends the script with its report on standard error: `FILE:LINE:COLUMN:
//! message`, the line with a caret, and a hint when one applies.

use super::session::{ScriptError, Session};
use super::source_excerpt::placed;
use crate::ops::output;

/// Reports a script's error on standard error: `FILE:LINE:COLUMN: message` (with the script
/// function it happened in), the source line with a caret under the call that failed, and for
/// an error inside a function, the call that led there; then a hint when one applies.
fn report(name: &str, code: &str, e: &ScriptError) {
    let place = match (e.line, e.column) {
        (Some(l), Some(c)) => format!("{name}:{l}:{c}: "),
        (Some(l), None) => format!("{name}:{l}: "),
        _ => format!("{name}: "),
    };
    let within = e
        .function
        .as_ref()
        .map_or(String::new(), |f| format!("in {f}(): "));
    output::error(&format!("{place}{within}{}", e.message));
    // A script's functions are defined in the script, so the place is always in `code`.
    for text in placed(code, e, true) {
        output::error(&text);
    }
    if e.function.is_none()
        && let Some(hint) = super::hints::python_hint(code, e)
    {
        output::error(&hint);
    }
}

/// Runs `code` as the script `name` with `ARGS`; its exit status (0, 1 after an error, or the
/// status `exit(N)` gave) and the session it ran in (the caller decides whether to free it).
pub fn run(name: &str, code: &str, args: &[String]) -> (i32, Session) {
    let mut session = Session::new();
    session.set_args(args);
    let status = match session.eval(code) {
        Ok(_) => 0,
        Err(ScriptError {
            exit: Some(status), ..
        }) => status,
        Err(e) => {
            report(name, code, &e);
            1
        }
    };
    (status, session)
}
