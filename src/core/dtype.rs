//! Every PyTorch dtype tensh knows: its Python name, the C++ name PyTorch uses in messages,
//! its item size and its kind. Element encoding lives in `element`; promotion in `promotion`.

use std::fmt;

/// What family a dtype belongs to; decides printing, promotion and casting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// `torch.bool`.
    Bool,
    /// Unsigned integers.
    Unsigned,
    /// Signed integers.
    Signed,
    /// Real floating point, including float8, half and bfloat16.
    Float,
    /// Complex floating point.
    Complex,
}

/// A tensor element type, named as PyTorch names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum DType {
    Bool,
    UInt8,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt16,
    UInt32,
    UInt64,
    Float16,
    BFloat16,
    Float32,
    Float64,
    Complex32,
    Complex64,
    Complex128,
    Float8E4M3FN,
    Float8E4M3FNUZ,
    Float8E5M2,
    Float8E5M2FNUZ,
}

/// Every dtype, in the order the `torch` module lists them.
pub const ALL_DTYPES: [DType; 20] = [
    DType::Bool,
    DType::UInt8,
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
    DType::UInt16,
    DType::UInt32,
    DType::UInt64,
    DType::Float16,
    DType::BFloat16,
    DType::Float32,
    DType::Float64,
    DType::Complex32,
    DType::Complex64,
    DType::Complex128,
    DType::Float8E4M3FN,
    DType::Float8E4M3FNUZ,
    DType::Float8E5M2,
    DType::Float8E5M2FNUZ,
];

/// Names that the `torch` module also binds to a dtype (`torch.float` is `torch.float32`).
pub const DTYPE_ALIASES: [(&str, DType); 9] = [
    ("float", DType::Float32),
    ("double", DType::Float64),
    ("half", DType::Float16),
    ("cfloat", DType::Complex64),
    ("cdouble", DType::Complex128),
    ("chalf", DType::Complex32),
    ("int", DType::Int32),
    ("long", DType::Int64),
    ("short", DType::Int16),
];

impl DType {
    /// The attribute name in the `torch` module: `float32` for `torch.float32`.
    pub fn short_name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::UInt8 => "uint8",
            DType::Int8 => "int8",
            DType::Int16 => "int16",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::UInt16 => "uint16",
            DType::UInt32 => "uint32",
            DType::UInt64 => "uint64",
            DType::Float16 => "float16",
            DType::BFloat16 => "bfloat16",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
            DType::Complex32 => "complex32",
            DType::Complex64 => "complex64",
            DType::Complex128 => "complex128",
            DType::Float8E4M3FN => "float8_e4m3fn",
            DType::Float8E4M3FNUZ => "float8_e4m3fnuz",
            DType::Float8E5M2 => "float8_e5m2",
            DType::Float8E5M2FNUZ => "float8_e5m2fnuz",
        }
    }

    /// The C++ element type's name, as PyTorch's messages print it (`float`, `long int`).
    pub fn c_type_name(self) -> &'static str {
        match self {
            DType::Float32 => "float",
            DType::Float64 => "double",
            DType::Int64 => "long int",
            DType::Int32 => "int",
            DType::Int16 => "short int",
            DType::Int8 => "signed char",
            DType::UInt8 => "unsigned char",
            DType::Bool => "bool",
            DType::Float16 => "c10::Half",
            DType::BFloat16 => "c10::BFloat16",
            DType::Complex64 => "c10::complex<float>",
            DType::Complex128 => "c10::complex<double>",
            DType::Complex32 => "c10::complex<c10::Half>",
            other => other.cpp_name(),
        }
    }

    /// The legacy tensor type name, as `Tensor.type()` gives it (`torch.FloatTensor`).
    pub fn legacy_tensor_type(self) -> String {
        format!("torch.{}Tensor", self.cpp_name())
    }

    /// The type PyTorch names in some messages (`expand`'s, a hook's type error): the
    /// legacy tensor class of the eight dtypes that have one (`torch.FloatTensor`),
    /// `CPU<Name>Type` for the others (`CPUBFloat16Type`).
    pub fn legacy_type_name(self) -> String {
        match self {
            DType::UInt8
            | DType::Int8
            | DType::Int16
            | DType::Int32
            | DType::Int64
            | DType::Float16
            | DType::Float32
            | DType::Float64 => format!("torch.{}Tensor", self.cpp_name()),
            _ => format!("CPU{}Type", self.cpp_name()),
        }
    }

    /// The C++ scalar type name PyTorch uses in error messages (`Short`, `Float`).
    pub fn cpp_name(self) -> &'static str {
        match self {
            DType::Bool => "Bool",
            DType::UInt8 => "Byte",
            DType::Int8 => "Char",
            DType::Int16 => "Short",
            DType::Int32 => "Int",
            DType::Int64 => "Long",
            DType::UInt16 => "UInt16",
            DType::UInt32 => "UInt32",
            DType::UInt64 => "UInt64",
            DType::Float16 => "Half",
            DType::BFloat16 => "BFloat16",
            DType::Float32 => "Float",
            DType::Float64 => "Double",
            DType::Complex32 => "ComplexHalf",
            DType::Complex64 => "ComplexFloat",
            DType::Complex128 => "ComplexDouble",
            DType::Float8E4M3FN => "Float8_e4m3fn",
            DType::Float8E4M3FNUZ => "Float8_e4m3fnuz",
            DType::Float8E5M2 => "Float8_e5m2",
            DType::Float8E5M2FNUZ => "Float8_e5m2fnuz",
        }
    }

    /// Bytes per element.
    pub fn itemsize(self) -> usize {
        match self {
            DType::Bool
            | DType::UInt8
            | DType::Int8
            | DType::Float8E4M3FN
            | DType::Float8E4M3FNUZ
            | DType::Float8E5M2
            | DType::Float8E5M2FNUZ => 1,
            DType::Int16 | DType::UInt16 | DType::Float16 | DType::BFloat16 => 2,
            DType::Int32 | DType::UInt32 | DType::Float32 | DType::Complex32 => 4,
            DType::Int64 | DType::UInt64 | DType::Float64 | DType::Complex64 => 8,
            DType::Complex128 => 16,
        }
    }

    /// The dtype's family.
    pub fn kind(self) -> Kind {
        match self {
            DType::Bool => Kind::Bool,
            DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => Kind::Unsigned,
            DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => Kind::Signed,
            DType::Complex32 | DType::Complex64 | DType::Complex128 => Kind::Complex,
            _ => Kind::Float,
        }
    }

    /// `dtype.is_floating_point`: real floating types only.
    pub fn is_floating_point(self) -> bool {
        self.kind() == Kind::Float
    }

    /// `dtype.is_complex`.
    pub fn is_complex(self) -> bool {
        self.kind() == Kind::Complex
    }

    /// `dtype.is_signed`: every type that can hold a negative value.
    pub fn is_signed(self) -> bool {
        !matches!(self.kind(), Kind::Bool | Kind::Unsigned)
    }

    /// Integer or bool: the types whose elements are whole numbers.
    pub fn is_integral(self) -> bool {
        matches!(self.kind(), Kind::Bool | Kind::Unsigned | Kind::Signed)
    }

    /// The real type of a complex type's parts (`complex64` → `float32`); itself otherwise.
    pub fn to_real(self) -> DType {
        match self {
            DType::Complex32 => DType::Float16,
            DType::Complex64 => DType::Float32,
            DType::Complex128 => DType::Float64,
            other => other,
        }
    }

    /// The complex type whose parts are this real type (`float32` → `complex64`).
    pub fn to_complex(self) -> Option<DType> {
        match self {
            DType::Float16 => Some(DType::Complex32),
            DType::Float32 => Some(DType::Complex64),
            DType::Float64 => Some(DType::Complex128),
            DType::Complex32 | DType::Complex64 | DType::Complex128 => Some(self),
            _ => None,
        }
    }

    /// Looks a dtype up by its `torch` attribute name, aliases included.
    pub fn from_name(name: &str) -> Option<DType> {
        ALL_DTYPES
            .iter()
            .copied()
            .find(|d| d.short_name() == name)
            .or_else(|| {
                DTYPE_ALIASES
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, d)| *d)
            })
    }
}

impl fmt::Display for DType {
    /// PyTorch's repr: `torch.float32`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "torch.{}", self.short_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_type_names_are_pytorchs() {
        assert_eq!(DType::Float32.legacy_type_name(), "torch.FloatTensor");
        assert_eq!(DType::Int8.legacy_type_name(), "torch.CharTensor");
        assert_eq!(DType::BFloat16.legacy_type_name(), "CPUBFloat16Type");
        assert_eq!(DType::Bool.legacy_type_name(), "CPUBoolType");
        assert_eq!(DType::Complex64.legacy_type_name(), "CPUComplexFloatType");
    }

    #[test]
    fn names_sizes_and_kinds() {
        assert_eq!(DType::Float32.to_string(), "torch.float32");
        assert_eq!(DType::Int16.cpp_name(), "Short");
        assert_eq!(DType::Complex128.itemsize(), 16);
        assert_eq!(DType::from_name("cfloat"), Some(DType::Complex64));
        assert!(DType::Int8.is_signed() && !DType::UInt8.is_signed());
        assert!(DType::BFloat16.is_floating_point() && !DType::Complex64.is_floating_point());
        for d in ALL_DTYPES {
            assert_eq!(DType::from_name(d.short_name()), Some(d));
        }
    }
}
