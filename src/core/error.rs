//! One error type for the whole core: PyTorch's exception kind plus its message, byte for byte.

use std::fmt;

/// The Python exception class PyTorch raises for an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// `RuntimeError`, the default for C++ `TORCH_CHECK` failures.
    Runtime,
    /// `IndexError`: dimension or index out of range.
    Index,
    /// `ValueError`: bad values, such as `frombuffer`'s counts.
    Value,
    /// `TypeError`: an argument of the wrong type.
    Type,
    /// `NotImplementedError`: something PyTorch (or tensh) does not do.
    NotImplemented,
    /// `AssertionError`: PyTorch's Python-level assertions (missing device modules).
    Assertion,
    /// `AttributeError`: PyTorch's Python code reaching for an attribute a value lacks.
    Attribute,
    /// `ZeroDivisionError`: Python's own arithmetic dividing by zero.
    ZeroDivision,
    /// `RecursionError`: Python's recursion limit, met by PyTorch's recursive printers.
    Recursion,
    /// `MemoryError`: a value larger than tensh lets a script's lists and strings grow.
    Memory,
    /// `NameError`: a function no module or script defines.
    Name,
    /// `UnpicklingError`: a file `torch.load` refuses or cannot read.
    Unpickling,
    /// `KeyError`: a missing key (a pickle's memo).
    Key,
    /// `EOFError`: input ended before a pickle did.
    Eof,
    /// `UnicodeDecodeError`: text that is not UTF-8.
    UnicodeDecode,
    /// `FileNotFoundError`: a path that does not exist.
    FileNotFound,
    /// `OverflowError`: a Python integer too large for a C `long`.
    Overflow,
    /// `SafetensorError`: a safetensors file the package cannot read.
    Safetensor,
    /// `PermissionError`: a file the user may not open.
    Permission,
    /// `IsADirectoryError`: a folder opened as a file.
    IsADirectory,
    /// `OSError`: any other failure of the operating system.
    Os,
    /// `ModuleNotFoundError`: a dotted name whose module Python cannot import.
    ModuleNotFound,
    /// `struct.error`, printed `error`: a fixed-size field of a pickle cut short.
    Struct,
}

impl ErrorKind {
    /// The Python class name, as printed before the message.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Runtime => "RuntimeError",
            ErrorKind::Index => "IndexError",
            ErrorKind::Value => "ValueError",
            ErrorKind::Type => "TypeError",
            ErrorKind::NotImplemented => "NotImplementedError",
            ErrorKind::Assertion => "AssertionError",
            ErrorKind::Attribute => "AttributeError",
            ErrorKind::ZeroDivision => "ZeroDivisionError",
            ErrorKind::Recursion => "RecursionError",
            ErrorKind::Memory => "MemoryError",
            ErrorKind::Name => "NameError",
            ErrorKind::Unpickling => "UnpicklingError",
            ErrorKind::Key => "KeyError",
            ErrorKind::Eof => "EOFError",
            ErrorKind::UnicodeDecode => "UnicodeDecodeError",
            ErrorKind::FileNotFound => "FileNotFoundError",
            ErrorKind::Overflow => "OverflowError",
            ErrorKind::Safetensor => "SafetensorError",
            ErrorKind::Permission => "PermissionError",
            ErrorKind::IsADirectory => "IsADirectoryError",
            ErrorKind::ModuleNotFound => "ModuleNotFoundError",
            ErrorKind::Os => "OSError",
            ErrorKind::Struct => "error",
        }
    }

    /// Every kind, in the order of their codes.
    const ALL: [ErrorKind; 23] = [
        ErrorKind::Runtime,
        ErrorKind::Index,
        ErrorKind::Value,
        ErrorKind::Type,
        ErrorKind::NotImplemented,
        ErrorKind::Assertion,
        ErrorKind::Attribute,
        ErrorKind::ZeroDivision,
        ErrorKind::Recursion,
        ErrorKind::Memory,
        ErrorKind::Name,
        ErrorKind::Unpickling,
        ErrorKind::Key,
        ErrorKind::Eof,
        ErrorKind::UnicodeDecode,
        ErrorKind::FileNotFound,
        ErrorKind::Overflow,
        ErrorKind::Safetensor,
        ErrorKind::Permission,
        ErrorKind::IsADirectory,
        ErrorKind::Os,
        ErrorKind::ModuleNotFound,
        ErrorKind::Struct,
    ];

    /// A small number standing for this kind (1 and up): how the kind travels beside an
    /// error's text where only a number fits (a Rhai value's tag), so no front reads the
    /// kind back out of the text.
    pub fn code(self) -> u8 {
        match self {
            ErrorKind::Runtime => 1,
            ErrorKind::Index => 2,
            ErrorKind::Value => 3,
            ErrorKind::Type => 4,
            ErrorKind::NotImplemented => 5,
            ErrorKind::Assertion => 6,
            ErrorKind::Attribute => 7,
            ErrorKind::ZeroDivision => 8,
            ErrorKind::Recursion => 9,
            ErrorKind::Memory => 10,
            ErrorKind::Name => 11,
            ErrorKind::Unpickling => 12,
            ErrorKind::Key => 13,
            ErrorKind::Eof => 14,
            ErrorKind::UnicodeDecode => 15,
            ErrorKind::FileNotFound => 16,
            ErrorKind::Overflow => 17,
            ErrorKind::Safetensor => 18,
            ErrorKind::Permission => 19,
            ErrorKind::IsADirectory => 20,
            ErrorKind::Os => 21,
            ErrorKind::ModuleNotFound => 22,
            ErrorKind::Struct => 23,
        }
    }

    /// The kind `code` stands for (`None` for 0, a value that carries no kind).
    pub fn from_code(code: i64) -> Option<ErrorKind> {
        let i = usize::try_from(code.checked_sub(1)?).ok()?;
        Self::ALL.get(i).copied()
    }
}

/// An error raised by a tensor operation: what Python would see as an exception.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TorchError {
    /// The exception class.
    pub kind: ErrorKind,
    /// The message, exactly as PyTorch words it.
    pub message: String,
}

impl TorchError {
    /// An error of `kind` with this message.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        TorchError {
            kind,
            message: message.into(),
        }
    }

    /// A `RuntimeError` with this message.
    pub fn runtime(message: impl Into<String>) -> Self {
        TorchError {
            kind: ErrorKind::Runtime,
            message: message.into(),
        }
    }
    /// An `IndexError` with this message.
    pub fn index(message: impl Into<String>) -> Self {
        TorchError {
            kind: ErrorKind::Index,
            message: message.into(),
        }
    }
    /// A `ValueError` with this message.
    pub fn value(message: impl Into<String>) -> Self {
        TorchError {
            kind: ErrorKind::Value,
            message: message.into(),
        }
    }
    /// A `TypeError` with this message.
    pub fn type_error(message: impl Into<String>) -> Self {
        TorchError {
            kind: ErrorKind::Type,
            message: message.into(),
        }
    }
    /// A `NotImplementedError`: used for what tensh has not built, so a script gets a clear
    /// error rather than a wrong answer.
    pub fn not_implemented(message: impl Into<String>) -> Self {
        TorchError {
            kind: ErrorKind::NotImplemented,
            message: message.into(),
        }
    }
    /// A `ZeroDivisionError`.
    pub fn zero_division(message: impl Into<String>) -> Self {
        TorchError {
            kind: ErrorKind::ZeroDivision,
            message: message.into(),
        }
    }
    /// An `AttributeError`.
    pub fn attribute(message: impl Into<String>) -> Self {
        TorchError {
            kind: ErrorKind::Attribute,
            message: message.into(),
        }
    }
}

impl fmt::Display for TorchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for TorchError {}

/// The result of a core operation.
pub type Result<T> = std::result::Result<T, TorchError>;

/// PyTorch's `IndexError` for a reduction along a dim of size 0, the op named as its
/// message names it (`max():`, `aminmax:`).
pub fn empty_reduction_dim(op: &str, dim: impl std::fmt::Display) -> TorchError {
    TorchError::index(format!(
        "{op} Expected reduction dim {dim} to have non-zero size."
    ))
}

/// Wraps a possibly negative dimension into `0..ndim`, with PyTorch's `IndexError`.
///
/// A 0-d tensor accepts dims `-1` and `0` as if it had one dimension, as PyTorch does.
pub fn wrap_dim(dim: i64, ndim: usize) -> Result<usize> {
    let n = ndim.max(1) as i64;
    if dim < -n || dim >= n {
        return Err(TorchError::index(format!(
            "Dimension out of range (expected to be in range of [{}, {}], but got {})",
            -n,
            n - 1,
            dim
        )));
    }
    Ok(if dim < 0 {
        (dim + n) as usize
    } else {
        dim as usize
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_own_code_and_comes_back_from_it() {
        let codes: Vec<u8> = ErrorKind::ALL.iter().map(|k| k.code()).collect();
        assert_eq!(codes, (1..=ErrorKind::ALL.len() as u8).collect::<Vec<_>>());
        for k in ErrorKind::ALL {
            assert_eq!(ErrorKind::from_code(i64::from(k.code())), Some(k));
        }
        assert_eq!(ErrorKind::from_code(0), None);
        assert_eq!(ErrorKind::from_code(-7), None);
        assert_eq!(ErrorKind::from_code(1000), None);
    }

    #[test]
    fn wraps_dims_like_pytorch() {
        assert_eq!(wrap_dim(-1, 3).unwrap(), 2);
        assert_eq!(wrap_dim(0, 0).unwrap(), 0);
        assert_eq!(wrap_dim(-1, 0).unwrap(), 0);
        let e = wrap_dim(2, 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 2)"
        );
    }
}
