//! `exit()` and `quit()` as Python has them: the script (or the prompt) ends, with status 0
//! for no argument, the number given, or 1 after printing any other value to standard
//! error. They raise Rhai's uncatchable termination carrying an `ExitRequest`, which the
//! session reports as `ScriptError::exit`.

use rhai::{Dynamic, Engine, EvalAltResult, Position};

use super::output;

/// The status a script asked to exit with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExitRequest(pub i32);

fn leave(status: i32) -> Result<(), Box<EvalAltResult>> {
    Err(EvalAltResult::ErrorTerminated(Dynamic::from(ExitRequest(status)), Position::NONE).into())
}

/// The status for Python's `sys.exit(value)`.
fn status_of(value: &Dynamic) -> i32 {
    if value.is_unit() {
        0
    } else if let Ok(n) = value.as_int() {
        // The system keeps the low byte, as it does for Python.
        (n & 0xff) as i32
    } else if let Ok(b) = value.as_bool() {
        i32::from(b)
    } else {
        output::error(&value.to_string());
        1
    }
}

/// The exit status `e` asks for, when it is an exit rather than an error.
pub fn requested(e: &EvalAltResult) -> Option<i32> {
    match e {
        EvalAltResult::ErrorTerminated(v, _) => v.clone().try_cast::<ExitRequest>().map(|r| r.0),
        EvalAltResult::ErrorInFunctionCall(_, _, inner, _) => requested(inner),
        _ => None,
    }
}

/// Registers `exit`, `quit` (no argument or one).
pub fn register(engine: &mut Engine) {
    for name in ["exit", "quit"] {
        engine.register_fn(name, || leave(0));
        engine.register_fn(name, |v: Dynamic| leave(status_of(&v)));
    }
}
