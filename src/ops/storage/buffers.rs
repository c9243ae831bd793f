//! Python's buffer objects for `frombuffer`: `array.array`, `bytearray` and `bytes`. Each
//! holds a storage, so tensors made from it share its memory both ways.

use rhai::{Array, Dynamic, Engine, INT};

use crate::core::dtype::DType;
use crate::core::element;
use crate::core::error::TorchError;
use crate::core::index_parse::{SequenceIndex, sequence_index};
use crate::core::memory::storage::Storage;
use crate::core::scalar::Scalar;
use crate::ops::convert::{py_type_name, scalar_to_dynamic, to_int, to_scalar};
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai, type_error};
use crate::print::storage_repr::python_scalar;

/// Which Python type a buffer is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BufferKind {
    /// `array.array(typecode)` with its element type.
    Array(char, DType),
    /// `bytearray`: writable bytes.
    ByteArray,
    /// `bytes`: read-only bytes (writes through a tensor still land, as in PyTorch).
    Bytes,
}

/// A Python buffer object over shared bytes.
#[derive(Debug, Clone)]
pub struct PyBuffer {
    /// The Python type.
    pub kind: BufferKind,
    /// The bytes, shared with every tensor made from this buffer.
    pub storage: Storage,
}

/// The element type of an `array.array` typecode (x86-64 Linux sizes).
pub fn typecode_dtype(code: &str) -> Option<(char, DType)> {
    let d = match code {
        "b" => DType::Int8,
        "B" => DType::UInt8,
        "h" => DType::Int16,
        "H" => DType::UInt16,
        "i" => DType::Int32,
        "I" => DType::UInt32,
        "l" | "q" => DType::Int64,
        "L" | "Q" => DType::UInt64,
        "f" => DType::Float32,
        "d" => DType::Float64,
        _ => return None,
    };
    Some((code.chars().next()?, d))
}

impl crate::ops::signature::Owner for PyBuffer {
    const OWNER: &'static str = "buffer";
}

impl PyBuffer {
    fn element(&self) -> DType {
        match self.kind {
            BufferKind::Array(_, d) => d,
            _ => DType::UInt8,
        }
    }

    /// Number of items (`len(b)`).
    pub fn len(&self) -> i64 {
        (self.storage.nbytes() / self.element().itemsize()) as i64
    }

    /// Whether it holds no items.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The Python type's name (`bytes`, `bytearray`, `array.array`).
    pub fn python_type(&self) -> &'static str {
        match self.kind {
            BufferKind::Array(..) => "array.array",
            BufferKind::ByteArray => "bytearray",
            BufferKind::Bytes => "bytes",
        }
    }

    /// Every item as a Python number.
    pub fn values(&self) -> Vec<Scalar> {
        let d = self.element();
        self.storage.with_bytes(|b| {
            b.chunks_exact(d.itemsize())
                .map(|c| element::read(d, c))
                .collect()
        })
    }

    /// Python's repr.
    pub fn repr(&self) -> String {
        match self.kind {
            BufferKind::Array(code, _) => {
                let vals = self.values();
                if vals.is_empty() {
                    format!("array('{code}')")
                } else {
                    let items: Vec<String> = vals.into_iter().map(python_scalar).collect();
                    format!("array('{code}', [{}])", items.join(", "))
                }
            }
            BufferKind::ByteArray => {
                format!("bytearray({})", bytearray_literal(&self.storage.to_vec()))
            }
            BufferKind::Bytes => bytes_repr(&self.storage.to_vec()),
        }
    }

    fn wrap_index(&self, i: i64) -> RhaiResult<usize> {
        let n = self.len();
        let j = if i < 0 { i + n } else { i };
        if j < 0 || j >= n {
            let what = match self.kind {
                BufferKind::Array(..) => "array",
                BufferKind::ByteArray => "bytearray",
                BufferKind::Bytes => "index",
            };
            return Err(to_rhai(TorchError::index(format!(
                "{what} index out of range"
            ))));
        }
        Ok(j as usize)
    }

    /// `b[i]`.
    pub fn get(&self, i: i64) -> RhaiResult<Dynamic> {
        let j = self.wrap_index(i)?;
        Ok(scalar_to_dynamic(self.values()[j]))
    }

    /// `b["start:stop:step"]` (Python's `b[start:stop:step]`): a new buffer of the same type
    /// holding the selected elements (a Python slice copies); `b["i"]` is `b[i]`.
    pub fn slice(&self, text: &str) -> RhaiResult<Dynamic> {
        let positions = match sequence_index(text, self.len() as usize).rhai()? {
            SequenceIndex::At(i) => return self.get(i),
            SequenceIndex::Slice(positions) => positions,
            SequenceIndex::Tuple => {
                let message = match self.kind {
                    BufferKind::ByteArray => {
                        "bytearray indices must be integers or slices, not tuple"
                    }
                    BufferKind::Bytes => "byte indices must be integers or slices, not tuple",
                    BufferKind::Array(..) => "array indices must be integers",
                };
                return Err(type_error(message));
            }
        };
        let w = self.element().itemsize();
        let bytes = self.storage.to_vec();
        let picked: Vec<u8> = positions
            .into_iter()
            .flat_map(|j| bytes[j * w..(j + 1) * w].iter().copied())
            .collect();
        Ok(Dynamic::from(PyBuffer {
            kind: self.kind,
            storage: Storage::external(picked),
        }))
    }

    /// `b[i] = v`.
    pub fn set(&self, i: i64, v: &Dynamic) -> RhaiResult<()> {
        if self.kind == BufferKind::Bytes {
            return Err(type_error(
                "'bytes' object does not support item assignment",
            ));
        }
        let j = self.wrap_index(i)?;
        let d = self.element();
        let value = to_scalar(v, "value")?;
        if self.kind == BufferKind::ByteArray && !(0..256).contains(&value.to_i64()) {
            return Err(to_rhai(TorchError::value("byte must be in range(0, 256)")));
        }
        let w = d.itemsize();
        self.storage
            .with_bytes_mut(|b| element::write(d, &mut b[j * w..(j + 1) * w], value));
        Ok(())
    }
}

/// Python's `repr(bytes)`: `b'...'`, double quotes when that avoids escaping a `'`.
pub fn bytes_repr(bytes: &[u8]) -> String {
    literal_repr(bytes, false)
}

/// The literal inside Python's `bytearray` repr: as `bytes`, except that CPython escapes
/// every `'`, even inside double quotes (`bytearray(b"it\'s")`).
pub fn bytearray_literal(bytes: &[u8]) -> String {
    literal_repr(bytes, true)
}

/// A bytes literal: single quotes unless the bytes hold `'` and no `"`.
fn literal_repr(bytes: &[u8], always_escape_single: bool) -> String {
    let quote = if bytes.contains(&b'\'') && !bytes.contains(&b'"') {
        '"'
    } else {
        '\''
    };
    let mut s = format!("b{quote}");
    for &b in bytes {
        match b {
            b'\\' => s.push_str("\\\\"),
            b'\t' => s.push_str("\\t"),
            b'\n' => s.push_str("\\n"),
            b'\r' => s.push_str("\\r"),
            b'\'' if always_escape_single => s.push_str("\\'"),
            _ if b as char == quote => {
                s.push('\\');
                s.push(quote);
            }
            32..=126 => s.push(b as char),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    s.push(quote);
    s
}

fn byte_list(v: &Dynamic, func: &str) -> RhaiResult<Vec<u8>> {
    if let Ok(n) = v.as_int() {
        if n < 0 {
            return Err(to_rhai(TorchError::value("negative count")));
        }
        let n = crate::core::memory::alloc::byte_count(n).map_err(to_rhai)?;
        return crate::core::memory::alloc::zeroed_bytes(n).map_err(to_rhai);
    }
    // Python words the range error by the type being made.
    let byte = |i: INT| {
        u8::try_from(i).map_err(|_| {
            let noun = if func == "bytearray" { "byte" } else { "bytes" };
            to_rhai(TorchError::value(format!(
                "{noun} must be in range(0, 256)"
            )))
        })
    };
    // Python's `bytearray(range(16))`: a Rhai range is an iterable of ints (one past 255
    // stops it, so a huge range costs nothing).
    let range = if let Some(r) = v.read_lock::<std::ops::Range<INT>>() {
        Some(r.clone())
    } else {
        v.read_lock::<std::ops::RangeInclusive<INT>>()
            .map(|r| *r.start()..r.end().saturating_add(1))
    };
    if let Some(r) = range {
        return r.map(byte).collect();
    }
    let Some(items) = v.clone().try_cast::<Array>() else {
        return Err(type_error(format!(
            "cannot convert '{}' object to {func}",
            py_type_name(v)
        )));
    };
    items.iter().map(|x| byte(to_int(x, "byte")?)).collect()
}

/// Registers `array`, `bytearray`, `bytes` and their methods.
pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<PyBuffer>("buffer");
    let make_array = |code: &str, items: Array| -> RhaiResult<PyBuffer> {
        let (c, d) = typecode_dtype(code).ok_or_else(|| {
            to_rhai(TorchError::value(
                "bad typecode (must be b, B, u, w, h, H, i, I, l, L, q, Q, f or d)",
            ))
        })?;
        let w = d.itemsize();
        let mut bytes = vec![0u8; items.len() * w];
        for (chunk, v) in bytes.chunks_exact_mut(w).zip(&items) {
            let s = to_scalar(v, "array item")?;
            if d.is_integral() && s.is_floating() {
                return Err(type_error(format!(
                    "'{}' object cannot be interpreted as an integer",
                    py_type_name(v)
                )));
            }
            element::write(d, chunk, s);
        }
        Ok(PyBuffer {
            kind: BufferKind::Array(c, d),
            storage: Storage::external(bytes),
        })
    };
    engine.register_fn("array", make_array);
    engine.register_fn("array", move |code: &str| make_array(code, Array::new()));
    engine.register_fn("bytearray", |v: Dynamic| -> RhaiResult<PyBuffer> {
        Ok(PyBuffer {
            kind: BufferKind::ByteArray,
            storage: Storage::external(byte_list(&v, "bytearray")?),
        })
    });
    engine.register_fn("bytearray", || PyBuffer {
        kind: BufferKind::ByteArray,
        storage: Storage::external(vec![]),
    });
    engine.register_fn("bytes", |v: Dynamic| -> RhaiResult<PyBuffer> {
        Ok(PyBuffer {
            kind: BufferKind::Bytes,
            storage: Storage::external(byte_list(&v, "bytes")?),
        })
    });
    crate::ops::registration::method::<PyBuffer>(engine, "len", 0, |b, _| {
        Ok(Dynamic::from(b.len()))
    });
    crate::ops::registration::method::<PyBuffer>(engine, "tolist", 0, |b, _| {
        crate::ops::limits::check_list("tolist()", b.len() as usize)?;
        Ok(Dynamic::from_array(
            b.values().into_iter().map(scalar_to_dynamic).collect(),
        ))
    });
    engine.register_indexer_get(|b: &mut PyBuffer, i: i64| b.get(i));
    engine.register_indexer_get(|b: &mut PyBuffer, text: &str| -> RhaiResult<Dynamic> {
        crate::ops::errors::refuse_attribute_as_index(text, "buffer")?;
        b.slice(text)
    });
    engine.register_indexer_set(|b: &mut PyBuffer, i: i64, v: Dynamic| b.set(i, &v));
    engine.register_fn("to_string", |b: &mut PyBuffer| b.repr());
    engine.register_fn("to_debug", |b: &mut PyBuffer| b.repr());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reprs_like_python() {
        assert_eq!(bytes_repr(b"a'b\"\t\x7f"), "b'a\\'b\"\\t\\x7f'");
        assert_eq!(bytes_repr(&[1, 65, 39]), "b\"\\x01A'\"");
        assert_eq!(bytearray_literal(b"it's"), "b\"it\\'s\"");
        assert_eq!(bytearray_literal(b"a'\""), "b'a\\'\"'");
    }
}
