//! Errors crossing into Rhai: a core `TorchError` becomes a Rhai runtime error whose value is
//! the string `Kind: message`, which is what `catch (e)` binds and what gets printed.

use std::cell::Cell;

use rhai::{Dynamic, EvalAltResult, Position};

use crate::core::error::TorchError;

/// The result type of every registered function.
pub type RhaiResult<T> = Result<T, Box<EvalAltResult>>;

thread_local! {
    /// Set when a tensh function raised and not yet read: Rhai calls the missing-function
    /// hook after a native call failed, with a receiver taken by value already moved out (so
    /// it reads `()`), and this tells that case from a script calling a method on `()`.
    /// Cleared by the hook, by every `catch` block and before each run.
    static RAISED: Cell<bool> = const { Cell::new(false) };
}

/// Whether a tensh function raised since the last call; clears the mark.
pub(crate) fn take_raised() -> bool {
    RAISED.with(|r| r.replace(false))
}

/// Forgets a raise that no missing-function hook followed (an operator's or indexer's).
pub(crate) fn forget_raised() {
    RAISED.with(|r| r.set(false));
}

/// Marks a raise of an error that did not come through `to_rhai` (a script function's own,
/// passed on by a tensh function that called it).
pub(crate) fn mark_raised() {
    RAISED.with(|r| r.set(true));
}

/// Converts a core error into the Rhai error a script sees.
pub fn to_rhai(e: TorchError) -> Box<EvalAltResult> {
    RAISED.with(|r| r.set(true));
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

/// Rhai reads a property it has no getter for (`s.dtype`, `t.foo`) through the type's
/// indexer, with the property's name as a string index. A name is never one of Python's
/// subscripts (`None`, `True`, `False` and `Ellipsis` aside), so such an index is refused as
/// "no such indexer": Rhai then reports the missing property, which reaches the script as
/// Python's `AttributeError` naming `type_name`'s Python class.
pub fn refuse_attribute_as_index(text: &str, type_name: &str) -> RhaiResult<()> {
    if rhai::is_valid_identifier(text) && !matches!(text, "None" | "True" | "False" | "Ellipsis") {
        return Err(EvalAltResult::ErrorIndexingType(
            format!("{type_name} has no property '{text}'"),
            Position::NONE,
        )
        .into());
    }
    Ok(())
}
