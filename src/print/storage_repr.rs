//! Storage reprs: one element a line, then `[torch.storage.… of size N]`.

use super::number::{complex_repr, float_repr};
use crate::core::interrupt::check_every;
use crate::core::scalar::Scalar;

/// Python's `str()` of one element as a typed storage yields it.
pub fn python_scalar(v: Scalar) -> String {
    match v {
        Scalar::Bool(true) => "True".to_string(),
        Scalar::Bool(false) => "False".to_string(),
        Scalar::Int(i) => i.to_string(),
        Scalar::UInt(u) => u.to_string(),
        Scalar::Float(f) => float_repr(f),
        Scalar::Complex(c) => complex_repr(c.re, c.im),
    }
}

/// `repr(untyped_storage)`: each byte on its own line.
pub fn untyped_storage_repr(bytes: &[u8]) -> String {
    let lines: Vec<String> = bytes
        .iter()
        .enumerate()
        .map(|(i, b)| {
            check_every(i);
            b.to_string()
        })
        .collect();
    format!(
        " {}\n[torch.storage.UntypedStorage(device=cpu) of size {}]",
        lines.join("\n "),
        bytes.len()
    )
}

/// `repr(typed_storage)`: each element in Python's spelling, then the class and dtype.
pub fn typed_storage_repr(values: &[Scalar], dtype_repr: &str) -> String {
    let lines: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            check_every(i);
            python_scalar(*v)
        })
        .collect();
    format!(
        " {}\n[torch.storage.TypedStorage(dtype={dtype_repr}, device=cpu) of size {}]",
        lines.join("\n "),
        values.len()
    )
}
