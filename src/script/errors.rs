//! Errors crossing into Rhai: a core `TorchError` becomes a Rhai runtime error whose value is
//! the string `Kind: message`, which is what `catch (e)` binds and what gets printed.

use rhai::{Dynamic, EvalAltResult, Position};

use crate::core::error::TorchError;

/// The result type of every registered function.
pub type RhaiResult<T> = Result<T, Box<EvalAltResult>>;

/// Converts a core error into the Rhai error a script sees.
pub fn to_rhai(e: TorchError) -> Box<EvalAltResult> {
    EvalAltResult::ErrorRuntime(Dynamic::from(e.to_string()), Position::NONE).into()
}

/// A `TypeError` raised by argument conversion.
pub fn type_error(msg: impl Into<String>) -> Box<EvalAltResult> {
    to_rhai(TorchError::type_error(msg))
}

/// Lifts a core result into a Rhai result.
pub trait IntoRhai<T> {
    /// Maps the error with `to_rhai`.
    fn rhai(self) -> RhaiResult<T>;
}

impl<T> IntoRhai<T> for Result<T, TorchError> {
    fn rhai(self) -> RhaiResult<T> {
        self.map_err(to_rhai)
    }
}

/// The text of a Rhai error as a script's user should see it: our own errors as
/// `Kind: message`, Rhai's own errors in Rhai's words.
pub fn error_text(e: &EvalAltResult) -> String {
    match e {
        EvalAltResult::ErrorRuntime(v, _) => v.to_string(),
        EvalAltResult::ErrorInFunctionCall(_, _, inner, _) => error_text(inner),
        EvalAltResult::ErrorTerminated(v, _) => v.to_string(),
        other => {
            let s = other.to_string();
            match s.rfind(" (line ") {
                Some(i) if s.ends_with(')') => s[..i].to_string(),
                _ => s,
            }
        }
    }
}
