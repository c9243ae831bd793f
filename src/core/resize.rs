//! Growing a tensor's storage to fit a layout, and `resize_`: the shared steps of
//! `resize_`, `set_` and writing a result into an `out=` tensor of another shape.

use crate::core::error::{Result, TorchError};
use crate::core::layout::{Layout, contiguous_strides};
use crate::core::memory::storage::Storage;
use crate::core::tensor::Tensor;

/// Grows `storage` (when resizable) until `layout` fits, with checked arithmetic.
pub fn grow_to_fit(storage: &Storage, layout: &Layout, itemsize: usize) -> Result<()> {
    let span =
        crate::core::memory::alloc::strided_nbytes(&layout.sizes, &layout.strides, itemsize)?;
    if span == 0 {
        return Ok(());
    }
    let offset_bytes = (layout.offset as usize).checked_mul(itemsize);
    let needed = offset_bytes
        .and_then(|o| o.checked_add(span))
        .ok_or_else(|| {
            TorchError::runtime(format!(
                "Storage size calculation overflowed with sizes={} and strides={}",
                crate::core::layout::fmt_list(&layout.sizes),
                crate::core::layout::fmt_list(&layout.strides)
            ))
        })?;
    if needed > storage.nbytes() {
        storage.resize(needed)?;
    }
    Ok(())
}

/// `t.resize_(sizes)`: contiguous strides, growing the storage when needed; to the sizes it
/// already has, nothing changes (a transpose keeps its strides), as in PyTorch. Returns
/// whether the tensor changed (PyTorch counts a version only then).
pub fn resize(t: &Tensor, sizes: Vec<i64>) -> Result<bool> {
    if sizes.iter().any(|&s| s < 0) {
        return Err(TorchError::runtime(
            "numel: integer multiplication overflow",
        ));
    }
    crate::core::memory::alloc::checked_numel(&sizes)?;
    if sizes == t.sizes() {
        return Ok(false);
    }
    // Contiguous: PyTorch counts the bytes from the sizes alone (an overflow names no
    // strides).
    crate::core::memory::alloc::contiguous_nbytes(&sizes, t.dtype().itemsize())?;
    let layout = Layout {
        strides: contiguous_strides(&sizes).into(),
        sizes: sizes.into(),
        offset: t.offset(),
    };
    let (storage, before) = (t.storage(), t.storage().nbytes());
    grow_to_fit(&storage, &layout, t.dtype().itemsize())?;
    if storage.nbytes() > before {
        crate::core::creation::fill_uninitialized(&storage, before, t.dtype())?;
    }
    t.set_layout(layout);
    Ok(true)
}
