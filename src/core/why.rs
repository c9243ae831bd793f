//! The layouts behind the classic errors, kept for `:why`. Where PyTorch raises one of the
//! errors every learner meets (a `view` across non-contiguous dimensions, a `view(dtype)`
//! with a last stride other than 1, a write into an `expand`ed tensor, `set_` past the end
//! of a storage, a negative slice step, `frombuffer` over an immutable buffer), the raising
//! code notes the tensors involved here. The prompt's `:why` reads the note made during the
//! last input and explains the error from those layouts (`print::why`).
//!
//! One note per thread, replaced by the next and cleared when the prompt starts an input, so
//! `:why` never explains an error the last input did not raise.

use std::cell::RefCell;

use super::dtype::DType;
use super::error::TorchError;
use super::layout::Layout;
use super::tensor::Tensor;

/// What a classic error was about.
#[derive(Clone)]
pub enum Case {
    /// `t.view(shape)` where the strides cannot be regrouped into `shape`.
    View {
        /// The tensor viewed.
        tensor: Tensor,
        /// The shape asked for (as given, `-1` included).
        shape: Vec<i64>,
    },
    /// `t.view(dtype)` to a different item size with a last stride other than 1.
    ViewDtype {
        /// The tensor viewed.
        tensor: Tensor,
        /// The dtype asked for.
        dtype: DType,
    },
    /// An in-place write into a layout whose indices share memory (stride 0, as `expand`).
    OverlappingWrite {
        /// The written-to layout.
        layout: Layout,
    },
    /// `set_`/`as_strided` with a layout reaching past the storage's end.
    OutOfBounds {
        /// The layout asked for.
        layout: Layout,
        /// The item size.
        itemsize: usize,
        /// The storage's size in bytes.
        nbytes: usize,
    },
    /// A slice with a negative step.
    NegativeStep {
        /// The step given.
        step: i64,
    },
    /// `frombuffer` over a buffer Python would not let anyone write (`bytes`).
    ReadOnlyBuffer,
}

/// A case and the error (or warning) text it explains.
#[derive(Clone)]
pub struct Noted {
    /// The message as raised, without the exception class.
    pub message: String,
    /// The layouts involved.
    pub case: Case,
}

thread_local! {
    static LAST: RefCell<Option<Noted>> = const { RefCell::new(None) };
}

/// Records `case` as the reason for `error` and returns the error unchanged.
pub fn note(error: TorchError, case: Case) -> TorchError {
    note_text(&error.message, case);
    error
}

/// Records `case` as the reason for a warning or error worded `message`.
pub fn note_text(message: &str, case: Case) {
    LAST.with(|l| {
        *l.borrow_mut() = Some(Noted {
            message: message.to_string(),
            case,
        })
    });
}

/// Marks the start of a new input at the prompt: older notes no longer answer `:why`.
pub fn next_input() {
    LAST.with(|l| *l.borrow_mut() = None);
}

/// Whether a note was made during the last input.
pub fn noted() -> bool {
    LAST.with(|l| l.borrow().is_some())
}

/// The note made during the last input, if any.
pub fn last() -> Option<Noted> {
    LAST.with(|l| l.borrow().clone())
}

/// Puts back a note taken with `last` (something ran that is no input of the user's: a
/// picture drawn again).
pub fn restore(noted: Option<Noted>) {
    LAST.with(|l| *l.borrow_mut() = noted);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_answers_only_for_its_input() {
        next_input();
        assert!(last().is_none());
        let e = note(
            TorchError::value("step must be greater than zero"),
            Case::NegativeStep { step: -1 },
        );
        assert_eq!(e.message, "step must be greater than zero");
        assert_eq!(last().unwrap().message, "step must be greater than zero");
        next_input();
        assert!(last().is_none());
    }
}
