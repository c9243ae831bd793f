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
///
/// The value is the text `Kind: message` (what a Rhai script's `catch` binds and prints),
/// tagged with the kind's code, so a front that wants the kind reads it from the tag
/// (`torch_error`) rather than out of the text.
pub fn to_rhai(e: TorchError) -> Box<EvalAltResult> {
    RAISED.with(|r| r.set(true));
    let mut value = Dynamic::from(e.to_string());
    // The tag is an `i32`, or an `i16` in the page's 32-bit build: a code fits either.
    value.set_tag(e.kind.code().into());
    EvalAltResult::ErrorRuntime(value, Position::NONE).into()
}

/// The core error a tensh function raised (`to_rhai`) that `e` carries, through the script
/// functions it passed: the kind from the value's tag, the message the text after the
/// kind's name that `to_rhai` put first. `None` for Rhai's own errors and for what a script
/// threw itself.
pub fn torch_error(e: &EvalAltResult) -> Option<TorchError> {
    match e {
        EvalAltResult::ErrorInFunctionCall(_, _, inner, _) => torch_error(inner),
        EvalAltResult::ErrorRuntime(value, _) => {
            let kind = crate::core::error::ErrorKind::from_code(i64::from(value.tag()))?;
            let text = value.read_lock::<rhai::ImmutableString>()?;
            let message = text.strip_prefix(kind.name())?.strip_prefix(": ")?;
            Some(TorchError::new(kind, message))
        }
        _ => None,
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::ErrorKind;

    /// The kind travels in the tag: a message that reads like another kind's text stays the
    /// message, through script functions too; what a script threw carries no kind.
    #[test]
    fn a_raised_error_keeps_its_kind_beside_its_text() {
        let e = to_rhai(TorchError::new(
            ErrorKind::Value,
            "KeyError: not a key error",
        ));
        take_raised();
        assert_eq!(error_text(&e), "ValueError: KeyError: not a key error");
        let found = torch_error(&e).expect("a core error");
        assert_eq!(found.kind, ErrorKind::Value);
        assert_eq!(found.message, "KeyError: not a key error");
        let wrapped =
            EvalAltResult::ErrorInFunctionCall("f".into(), String::new(), e, Position::NONE);
        assert_eq!(torch_error(&wrapped), Some(found));
        let engine = rhai::Engine::new();
        let thrown = engine
            .run(r#"throw "IndexError: thrown by a script""#)
            .unwrap_err();
        assert_eq!(torch_error(&thrown), None);
        let empty = to_rhai(TorchError::new(ErrorKind::Struct, ""));
        take_raised();
        assert_eq!(
            torch_error(&empty),
            Some(TorchError::new(ErrorKind::Struct, ""))
        );
    }
}
