//! What a subscript of a storage means: one element, or a slice of step 1. Storages take
//! integers, ranges and index strings (`s["1:5"]`); anything else is PyTorch's error.

use std::ops::{Range, RangeInclusive};

use rhai::{Dynamic, INT};

use crate::core::error::TorchError;
use crate::core::index::IndexItem;
use crate::core::index_parse::parse_index;
use crate::ops::convert::py_type_name;
use crate::ops::errors::{IntoRhai, RhaiResult, refuse_attribute_as_index, to_rhai};

/// A storage subscript, read from a Rhai index value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StorageIndex {
    /// `s[i]` (negative counts from the end).
    At(i64),
    /// `s[a:b]`, Python's clamping still to apply.
    Slice {
        /// First index, `None` for the start.
        start: Option<i64>,
        /// End (exclusive), `None` for the end.
        stop: Option<i64>,
    },
}

/// Whether an index reads an element or writes one: their messages differ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Access {
    /// `s[i]`.
    Read,
    /// `s[i] = v`.
    Write,
}

/// Which storage class is indexed: their messages differ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StorageClass {
    /// `torch.UntypedStorage`.
    Untyped,
    /// `torch.storage.TypedStorage` (and the legacy classes).
    Typed,
}

impl StorageClass {
    /// PyTorch's error for a subscript of Python type `type_name`.
    fn cannot_index(self, type_name: &str) -> TorchError {
        match self {
            StorageClass::Untyped => TorchError::type_error(format!(
                "can't index a torch.UntypedStorage with {type_name}"
            )),
            // A bool reaches a type check before the typed storage's own message.
            StorageClass::Typed if type_name == "bool" => TorchError::type_error(format!(
                "can't index a <class 'torch.storage.TypedStorage'> with <class '{type_name}'>"
            )),
            StorageClass::Typed => TorchError::runtime(format!(
                "can't index a <class 'torch.storage.TypedStorage'> with <class '{type_name}'>"
            )),
        }
    }
}

impl StorageIndex {
    /// Reads `idx` as a subscript of a storage of `class`.
    pub fn read(idx: &Dynamic, class: StorageClass) -> RhaiResult<StorageIndex> {
        if let Ok(i) = idx.as_int() {
            return Ok(StorageIndex::At(i));
        }
        if let Some(r) = idx.read_lock::<Range<INT>>() {
            return Ok(StorageIndex::Slice {
                start: Some(r.start),
                stop: Some(r.end),
            });
        }
        if let Some(r) = idx.read_lock::<RangeInclusive<INT>>() {
            return Ok(StorageIndex::Slice {
                start: Some(*r.start()),
                stop: Some(r.end().saturating_add(1)),
            });
        }
        if idx.is_string() {
            let text = idx.to_string();
            let registered = match class {
                StorageClass::Untyped => "UntypedStorage",
                StorageClass::Typed => "TypedStorage",
            };
            refuse_attribute_as_index(&text, registered)?;
            return Self::parse(&text, class);
        }
        Err(to_rhai(class.cannot_index(&py_type_name(idx))))
    }

    /// An index string: one integer or one slice whose step is 1.
    fn parse(text: &str, class: StorageClass) -> RhaiResult<StorageIndex> {
        let items = parse_index(text).rhai()?;
        let [item] = items.as_slice() else {
            return Err(to_rhai(class.cannot_index("tuple")));
        };
        match *item {
            IndexItem::Int(i) => Ok(StorageIndex::At(i)),
            IndexItem::Slice { start, stop, step } => {
                let step = step.unwrap_or(1);
                if step != 1 {
                    return Err(to_rhai(TorchError::runtime(format!(
                        "Trying to slice with a step of {step}, but only a step of 1 is supported"
                    ))));
                }
                Ok(StorageIndex::Slice { start, stop })
            }
            IndexItem::NewAxis => Err(to_rhai(class.cannot_index("NoneType"))),
            IndexItem::Ellipsis => Err(to_rhai(class.cannot_index("ellipsis"))),
            IndexItem::Bool(_) => Err(to_rhai(class.cannot_index("bool"))),
            IndexItem::Tensor(_) => Err(to_rhai(class.cannot_index("list"))),
        }
    }

    /// The element `At(i)` names in a storage of `len` elements (negative counts from the
    /// end), or PyTorch's error for an index out of range, which each class words its own
    /// way (checked with the oracle): a typed storage names the index as given when reading
    /// and reports a write as a tensor's index error; an untyped storage names the index
    /// once wrapped when reading and says only "out of bounds" when writing.
    pub fn element(i: i64, len: usize, class: StorageClass, access: Access) -> RhaiResult<usize> {
        let n = len as i64;
        let j = if i < 0 { i.saturating_add(n) } else { i };
        if (0..n).contains(&j) {
            return Ok(j as usize);
        }
        Err(to_rhai(match (class, access) {
            (StorageClass::Typed, Access::Read) => {
                TorchError::index(format!("index {i} out of range for storage of size {n}"))
            }
            (StorageClass::Untyped, Access::Read) => {
                TorchError::index(format!("index {j} out of range for storage of size {n}"))
            }
            (StorageClass::Typed, Access::Write) => TorchError::index(format!(
                "index {i} is out of bounds for dimension 0 with size {n}"
            )),
            (StorageClass::Untyped, Access::Write) => TorchError::runtime("out of bounds"),
        }))
    }

    /// The `(first, count)` a slice selects of `len` elements, clamped as Python clamps.
    pub fn range(start: Option<i64>, stop: Option<i64>, len: usize) -> (usize, usize) {
        let n = len as i64;
        let clamp = |v: i64| (if v < 0 { v.saturating_add(n) } else { v }).clamp(0, n);
        let a = start.map_or(0, clamp);
        let b = stop.map_or(n, clamp);
        (a as usize, (b - a).max(0) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_integers_ranges_and_strings() {
        let read = |v: Dynamic| StorageIndex::read(&v, StorageClass::Untyped);
        assert_eq!(read(Dynamic::from(-1_i64)).unwrap(), StorageIndex::At(-1));
        assert_eq!(
            read(Dynamic::from(1_i64..3)).unwrap(),
            StorageIndex::Slice {
                start: Some(1),
                stop: Some(3)
            }
        );
        assert_eq!(
            read(Dynamic::from("-2:")).unwrap(),
            StorageIndex::Slice {
                start: Some(-2),
                stop: None
            }
        );
        assert_eq!(read(Dynamic::from(" 4 ")).unwrap(), StorageIndex::At(4));
        assert!(read(Dynamic::from("::2")).is_err());
        assert!(read(Dynamic::from("0, 1")).is_err());
        assert!(read(Dynamic::UNIT).is_err());
    }

    #[test]
    fn clamps_slices_as_python() {
        assert_eq!(StorageIndex::range(Some(-2), None, 6), (4, 2));
        assert_eq!(StorageIndex::range(Some(5), Some(1), 6), (5, 0));
        assert_eq!(StorageIndex::range(Some(2), Some(100), 6), (2, 4));
        assert_eq!(
            StorageIndex::range(Some(i64::MIN), Some(i64::MAX), 6),
            (0, 6)
        );
        let at = |i, class, access| StorageIndex::element(i, 6, class, access);
        assert!(at(6, StorageClass::Untyped, Access::Read).is_err());
        assert_eq!(at(-6, StorageClass::Typed, Access::Write).unwrap(), 0);
        assert!(at(i64::MIN, StorageClass::Typed, Access::Read).is_err());
    }
}
