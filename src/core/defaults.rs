//! Session-wide settings PyTorch keeps globally: the default floating dtype.

use std::cell::Cell;

use super::dtype::DType;
use super::error::{Result, TorchError};

thread_local! {
    static DEFAULT_DTYPE: Cell<DType> = const { Cell::new(DType::Float32) };
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

/// Back to a fresh process's default dtype (`float32`).
pub fn reset() {
    DEFAULT_DTYPE.with(|c| c.set(DType::Float32));
}
