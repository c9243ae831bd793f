//! The typed storage as a value, below the code that registers its methods (`typed`) and the
//! conversions between storage classes (`type_conversion`), which both use it: a dtype over
//! an untyped storage's bytes, and the legacy classes that name a dtype.

use crate::core::dtype::DType;
use crate::core::memory::storage::Storage;

/// A dtype viewing an untyped storage's bytes as elements.
#[derive(Debug, Clone)]
pub struct TypedStorage {
    /// The bytes.
    pub storage: Storage,
    /// The element type.
    pub dtype: DType,
}

/// The legacy classes and their dtypes.
pub const LEGACY_CLASSES: [(&str, DType); 12] = [
    ("FloatStorage", DType::Float32),
    ("DoubleStorage", DType::Float64),
    ("HalfStorage", DType::Float16),
    ("BFloat16Storage", DType::BFloat16),
    ("LongStorage", DType::Int64),
    ("IntStorage", DType::Int32),
    ("ShortStorage", DType::Int16),
    ("CharStorage", DType::Int8),
    ("ByteStorage", DType::UInt8),
    ("BoolStorage", DType::Bool),
    ("ComplexFloatStorage", DType::Complex64),
    ("ComplexDoubleStorage", DType::Complex128),
];
