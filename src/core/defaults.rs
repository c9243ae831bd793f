//! Session-wide settings PyTorch keeps globally: the default floating dtype, deterministic
//! algorithms (which make new uninitialized memory hold NaN or the largest integer, as
//! PyTorch's `fill_uninitialized_memory` does), the float32 matmul precision and
//! `set_warn_always`.

use std::cell::Cell;

use super::dtype::DType;
use super::error::{Result, TorchError};
use super::scalar::Scalar;

thread_local! {
    static DEFAULT_DTYPE: Cell<DType> = const { Cell::new(DType::Float32) };
    static DETERMINISTIC: Cell<Determinism> = const { Cell::new(Determinism::DEFAULT) };
    static MATMUL_PRECISION: Cell<&'static str> = const { Cell::new("highest") };
    static WARN_ALWAYS: Cell<bool> = const { Cell::new(false) };
}

/// `torch.use_deterministic_algorithms(enabled, warn_only=...)`'s two flags, kept apart as
/// PyTorch keeps them (warn-only may be set while the mode is off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Determinism {
    /// Deterministic algorithms are required.
    pub enabled: bool,
    /// A nondeterministic algorithm warns instead of raising.
    pub warn_only: bool,
}

impl Determinism {
    /// A fresh process's setting: off.
    pub const DEFAULT: Determinism = Determinism {
        enabled: false,
        warn_only: false,
    };

    /// `torch.get_deterministic_debug_mode()`: 0 when off, 1 when warning only, else 2.
    pub fn debug_mode(self) -> i64 {
        match (self.enabled, self.warn_only) {
            (false, _) => 0,
            (true, true) => 1,
            (true, false) => 2,
        }
    }

    /// The setting `torch.set_deterministic_debug_mode(mode)` makes (`mode` in 0..=2).
    pub fn from_debug_mode(mode: i64) -> Determinism {
        Determinism {
            enabled: mode != 0,
            warn_only: mode == 1,
        }
    }
}

/// The deterministic-algorithms setting.
pub fn determinism() -> Determinism {
    DETERMINISTIC.with(Cell::get)
}

/// Sets the deterministic-algorithms setting.
pub fn set_determinism(d: Determinism) {
    DETERMINISTIC.with(|c| c.set(d));
}

/// What new uninitialized memory of `dtype` is filled with under deterministic algorithms
/// (NaN for floating and complex elements, the largest value for integers, `True` for
/// bools); `None` when they are off (tensh's new memory is zeroed).
pub fn uninitialized_value(dtype: DType) -> Option<Scalar> {
    if !determinism().enabled {
        return None;
    }
    Some(match dtype {
        DType::Bool => Scalar::Bool(true),
        DType::UInt8 => Scalar::Int(u8::MAX as i64),
        DType::Int8 => Scalar::Int(i8::MAX as i64),
        DType::Int16 => Scalar::Int(i16::MAX as i64),
        DType::Int32 => Scalar::Int(i32::MAX as i64),
        DType::Int64 => Scalar::Int(i64::MAX),
        DType::UInt16 => Scalar::Int(u16::MAX as i64),
        DType::UInt32 => Scalar::Int(u32::MAX as i64),
        DType::UInt64 => Scalar::UInt(u64::MAX),
        d if d.is_complex() => Scalar::Complex(num_complex::Complex64::new(f64::NAN, 0.0)),
        _ => Scalar::Float(f64::NAN),
    })
}

/// `torch.get_float32_matmul_precision()`.
pub fn matmul_precision() -> &'static str {
    MATMUL_PRECISION.with(Cell::get)
}

/// `torch.set_float32_matmul_precision(p)`: one of `highest`, `high`, `medium`; returns
/// whether `p` was one of them (PyTorch warns and changes nothing otherwise). tensh
/// computes float32 products in full precision whatever the setting.
pub fn set_matmul_precision(p: &str) -> bool {
    let known = ["highest", "high", "medium"].into_iter().find(|k| *k == p);
    if let Some(k) = known {
        MATMUL_PRECISION.with(|c| c.set(k));
    }
    known.is_some()
}

/// `torch.is_warn_always_enabled()`.
pub fn warn_always() -> bool {
    WARN_ALWAYS.with(Cell::get)
}

/// `torch.set_warn_always(on)`.
pub fn set_warn_always(on: bool) {
    WARN_ALWAYS.with(|c| c.set(on));
}

/// `torch.get_default_dtype()`.
pub fn default_dtype() -> DType {
    DEFAULT_DTYPE.with(|d| d.get())
}

/// The complex dtype a Python complex number gets: the one that pairs with the default
/// float (`complex32` for `float16`, `complex64` for `float32`, `complex128` for
/// `float64`). PyTorch has none for a `bfloat16` default and refuses; tensh gives
/// `complex64` there.
pub fn default_complex_dtype() -> DType {
    match default_dtype() {
        DType::Float64 => DType::Complex128,
        DType::Float16 => DType::Complex32,
        _ => DType::Complex64,
    }
}

/// The complex dtype the tensor repr leaves unnamed (no `dtype=` suffix): PyTorch's printer
/// decides it in Python, `complex128` under a `float64` default, else `complex64`.
pub fn repr_default_complex_dtype() -> DType {
    if default_dtype() == DType::Float64 {
        DType::Complex128
    } else {
        DType::Complex64
    }
}

/// `torch.set_default_dtype(d)`: only floating types are allowed.
pub fn set_default_dtype(d: DType) -> Result<()> {
    if !matches!(
        d,
        DType::Float32 | DType::Float64 | DType::Float16 | DType::BFloat16
    ) {
        return Err(TorchError::type_error(
            "only floating-point types are supported as the default type",
        ));
    }
    DEFAULT_DTYPE.with(|c| c.set(d));
    Ok(())
}

/// Back to a fresh process's settings (a `float32` default dtype, ...).
pub fn reset() {
    DEFAULT_DTYPE.with(|c| c.set(DType::Float32));
    set_determinism(Determinism::DEFAULT);
    MATMUL_PRECISION.with(|c| c.set("highest"));
    set_warn_always(false);
}
