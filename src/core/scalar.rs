//! One element's value, independent of its storage type: what Python sees as a number.

use num_complex::Complex64;

/// A Python number (or bool) as it flows into and out of tensors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    /// A Python `bool`.
    Bool(bool),
    /// A Python `int` that fits in `i64`.
    Int(i64),
    /// A Python `int` read from a `uint64` element above `i64::MAX`.
    UInt(u64),
    /// A Python `float`.
    Float(f64),
    /// A Python `complex`.
    Complex(Complex64),
}

/// The value negated, for the negative bit (which only floating and complex elements carry
/// in practice): floats and complex numbers exactly; integers wrap; a bool is itself.
impl std::ops::Neg for Scalar {
    type Output = Scalar;

    fn neg(self) -> Scalar {
        match self {
            Scalar::Float(f) => Scalar::Float(-f),
            Scalar::Complex(c) => Scalar::Complex(-c),
            Scalar::Int(i) => Scalar::Int(i.wrapping_neg()),
            Scalar::UInt(u) => Scalar::UInt(u.wrapping_neg()),
            Scalar::Bool(b) => Scalar::Bool(b),
        }
    }
}

impl Scalar {
    /// The complex conjugate (real values are their own).
    pub fn conj(self) -> Scalar {
        match self {
            Scalar::Complex(c) => Scalar::Complex(c.conj()),
            other => other,
        }
    }

    /// The value as `f64` (complex: the real part; bool: 0 or 1).
    pub fn to_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => b as u8 as f64,
            Scalar::Int(i) => i as f64,
            Scalar::UInt(u) => u as f64,
            Scalar::Float(f) => f,
            Scalar::Complex(c) => c.re,
        }
    }

    /// The value as `i64`, truncating floats toward zero as a C cast does.
    pub fn to_i64(self) -> i64 {
        match self {
            Scalar::Bool(b) => b as i64,
            Scalar::Int(i) => i,
            Scalar::UInt(u) => u as i64,
            Scalar::Float(f) => float_to_i64(f),
            Scalar::Complex(c) => float_to_i64(c.re),
        }
    }

    /// The value as a complex number.
    pub fn to_complex(self) -> Complex64 {
        match self {
            Scalar::Complex(c) => c,
            other => Complex64::new(other.to_f64(), 0.0),
        }
    }

    /// Python truthiness: non-zero (NaN is true).
    pub fn to_bool(self) -> bool {
        match self {
            Scalar::Bool(b) => b,
            Scalar::Int(i) => i != 0,
            Scalar::UInt(u) => u != 0,
            Scalar::Float(f) => f != 0.0,
            Scalar::Complex(c) => c.re != 0.0 || c.im != 0.0,
        }
    }

    /// Whether the value is a float or complex (decides the dtype Python numbers infer).
    pub fn is_floating(self) -> bool {
        matches!(self, Scalar::Float(_) | Scalar::Complex(_))
    }
}

/// A C-style float to integer cast: truncation toward zero; NaN gives the x86 "integer
/// indefinite" value and out-of-range values saturate to it as the hardware does.
pub fn float_to_i64(f: f64) -> i64 {
    if f.is_nan() || !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f) {
        i64::MIN
    } else {
        f as i64
    }
}
