//! Making Python exceptions (the type is `value::PyException`): by class name, from a class
//! and arguments, or from the `Kind: message` text of an op's error.

use std::cell::RefCell;
use std::rc::Rc;

use super::types::{self, TypeObject};
use super::value::Value;
pub use super::value::{PyException, TraceFrame};

impl PyException {
    /// An exception of the builtin class `kind` with one message argument.
    pub fn new(kind: &str, message: impl Into<String>) -> PyException {
        PyException {
            class: types::builtin(kind),
            args: RefCell::new(vec![Value::str(message.into())]),
            instance: None,
            links: Default::default(),
            text: None,
            traceback: RefCell::new(Vec::new()),
        }
    }

    /// An exception of `class` made by calling it with `args`.
    pub fn of_class(class: Rc<TypeObject>, args: Vec<Value>) -> PyException {
        PyException {
            class,
            args: RefCell::new(args),
            instance: None,
            links: Default::default(),
            text: None,
            traceback: RefCell::new(Vec::new()),
        }
    }

    /// The exception an op's error text (`Kind: message`) stands for.
    pub fn from_host_text(text: &str) -> PyException {
        let (kind, message) = split_kind(text);
        PyException::raised_as(kind, message)
    }

    /// The exception a core error stands for: its kind's class, its message.
    pub fn from_torch(e: &crate::core::error::TorchError) -> PyException {
        PyException::raised_as(e.kind.name(), &e.message)
    }

    /// An exception of the class named `kind` (a dotted path allowed) with the message an
    /// op raised, which is also its text.
    fn raised_as(kind: &str, message: &str) -> PyException {
        PyException {
            class: types::exception_class(kind),
            args: RefCell::new(vec![Value::str(message)]),
            instance: None,
            links: Default::default(),
            text: Some(message.to_string()),
            traceback: RefCell::new(Vec::new()),
        }
    }

    /// The exception a tensh function's Rhai error stands for (called without a session:
    /// an index item's conversion, a hook's argument check): the core error it carries,
    /// else Rhai's own error read as text.
    pub fn from_rhai(e: &rhai::EvalAltResult) -> PyException {
        match crate::ops::errors::torch_error(e) {
            Some(t) => PyException::from_torch(&t),
            None => PyException::from_host_text(&crate::ops::errors::error_text(e)),
        }
    }

    /// Whether this exception is an instance of `class`.
    pub fn is_instance(&self, class: &TypeObject) -> bool {
        self.class.is_subclass_of(class)
    }
}

/// `Kind: message` split at the kind, when the text starts with an exception class's name
/// (a dotted path allowed); else the whole text as a `RuntimeError`'s message.
pub fn split_kind(text: &str) -> (&str, &str) {
    if let Some((kind, message)) = text.split_once(": ")
        && !kind.is_empty()
        && kind
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && kind
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
    {
        return (kind, message);
    }
    if let Some(kind) = text.strip_suffix(':').filter(|k| !k.contains(' ')) {
        return (kind, "");
    }
    if !text.contains(' ') && text.ends_with("Interrupt") {
        return (text, "");
    }
    ("RuntimeError", text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ops_error_text_splits_into_class_and_message() {
        assert_eq!(
            split_kind("RuntimeError: shape '[3, 5]' is invalid"),
            ("RuntimeError", "shape '[3, 5]' is invalid")
        );
        assert_eq!(
            split_kind("_pickle.UnpicklingError: bad"),
            ("_pickle.UnpicklingError", "bad")
        );
        assert_eq!(split_kind("KeyboardInterrupt"), ("KeyboardInterrupt", ""));
        assert_eq!(
            split_kind("no kind here: x"),
            ("RuntimeError", "no kind here: x")
        );
        let e = PyException::from_host_text("IndexError: index 5 is out of bounds");
        assert!(e.is_instance(&types::builtin("LookupError")));
        assert_eq!(e.text.as_deref(), Some("index 5 is out of bounds"));
    }
}
