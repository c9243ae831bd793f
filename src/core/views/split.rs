//! The split family: `split`, `split_with_sizes`, `chunk`, `unbind`, `tensor_split` and
//! `hsplit`/`vsplit`/`dsplit`. Every piece is a `narrow` or `select` view of the input.

use super::{narrow, select};
use crate::core::error::{Result, TorchError, wrap_dim};
use crate::core::layout::fmt_list;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::ViewReplay;
use crate::core::tensor::record::record_views;

/// The pieces of `t` one op made, recorded for autograd as outputs of one node named `name`
/// (PyTorch's `SplitBackward0`, ...), replacing the records of the views they were cut with;
/// `replay` makes the op with its arguments, called only when autograd tracks `t`.
fn one_node<R: Fn(&Tensor) -> Result<Vec<Tensor>> + 'static>(
    t: &Tensor,
    pieces: Result<Vec<Tensor>>,
    name: &str,
    replay: impl FnOnce() -> R,
) -> Result<Vec<Tensor>> {
    let pieces = pieces?;
    record_views(&pieces, t, name, || ViewReplay::many(replay()));
    Ok(pieces)
}

fn dim_size(t: &Tensor, dim: i64) -> Result<(usize, i64)> {
    if t.ndim() == 0 {
        return Err(TorchError::runtime(
            "split expects at least a 1-dimensional tensor",
        ));
    }
    let d = wrap_dim(dim, t.ndim())?;
    Ok((d, t.sizes()[d]))
}

/// `t.split(split_size, dim)`: pieces of `split_size`, the last possibly shorter.
pub fn split(t: &Tensor, split_size: i64, dim: i64) -> Result<Vec<Tensor>> {
    let (d, size) = dim_size(t, dim)?;
    if split_size < 0 {
        return Err(TorchError::runtime(format!(
            "split expects split_size be non-negative, but got split_size={split_size}"
        )));
    }
    if split_size == 0 && size != 0 {
        return Err(TorchError::runtime(format!(
            "split_size can only be 0 if dimension size is 0, but got dimension size of {size}"
        )));
    }
    let pieces = if split_size == 0 {
        1
    } else {
        ((size + split_size - 1) / split_size).max(1)
    };
    let pieces = make_pieces(pieces, |i| {
        let start = i * split_size;
        narrow(t, d as i64, start, split_size.min(size - start))
    });
    one_node(t, pieces, "SplitBackward0", || {
        move |p: &Tensor| split(p, split_size, dim)
    })
}

/// `t.split([sizes], dim)` / `t.split_with_sizes(sizes, dim)`.
pub fn split_with_sizes(t: &Tensor, sizes: &[i64], dim: i64) -> Result<Vec<Tensor>> {
    let (d, size) = dim_size(t, dim)?;
    if sizes.iter().any(|&s| s < 0) {
        return Err(TorchError::runtime(format!(
            "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes={}",
            fmt_list(sizes)
        )));
    }
    if sizes.iter().sum::<i64>() != size {
        return Err(TorchError::runtime(format!(
            "split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at dimension {}), but got split_sizes={}",
            size,
            dim,
            fmt_list(sizes)
        )));
    }
    let mut start = 0;
    let pieces = sizes
        .iter()
        .map(|&len| {
            let piece = narrow(t, d as i64, start, len);
            start += len;
            piece
        })
        .collect();
    one_node(t, pieces, "SplitWithSizesBackward0", || {
        let sizes = sizes.to_vec();
        move |p: &Tensor| split_with_sizes(p, &sizes, dim)
    })
}

/// `t.chunk(chunks, dim)`: at most `chunks` pieces of equal size rounded up.
pub fn chunk(t: &Tensor, chunks: i64, dim: i64) -> Result<Vec<Tensor>> {
    if t.ndim() == 0 {
        return Err(TorchError::runtime(
            "chunk expects at least a 1-dimensional tensor",
        ));
    }
    if chunks <= 0 {
        return Err(TorchError::runtime(format!(
            "chunk expects `chunks` to be greater than 0, got: {chunks}"
        )));
    }
    let (d, size) = dim_size(t, dim)?;
    let split_size = (size + chunks - 1) / chunks;
    if split_size == 0 && size == 0 {
        // One empty piece per chunk, as PyTorch gives; it refuses counts no vector can hold.
        if chunks > i64::MAX / 16 {
            return Err(TorchError::runtime(
                "cannot create std::vector larger than max_size()",
            ));
        }
        let mut sizes = crate::core::memory::alloc::vec_with_capacity(chunks as usize)?;
        sizes.resize(chunks as usize, 0);
        return split_with_sizes(t, &sizes, d as i64);
    }
    split(t, split_size, d as i64)
}

/// The bytes one view takes beyond its handle, to the right order: its record (autograd
/// state, storage handle, flags) and its sizes and strides (room for 8 dimensions).
const VIEW_BYTES: u128 = 256 + 16 * 8;

/// `n` pieces made by `piece(i)`, with room for them, and for the views themselves, asked of
/// `core::alloc` first: a count no memory can hold (`unbind` of an `expand(1 << 40)`,
/// `tensor_split` into 10^8 sections) is PyTorch's allocation error, not an abort after the
/// process has grown to fill the machine.
fn make_pieces(n: i64, mut piece: impl FnMut(i64) -> Result<Tensor>) -> Result<Vec<Tensor>> {
    let n = n.max(0) as usize;
    let bytes = n as u128 * VIEW_BYTES;
    let probe: Vec<u8> = crate::core::memory::alloc::vec_with_capacity(
        usize::try_from(bytes).unwrap_or(usize::MAX),
    )?;
    drop(probe);
    let mut out = crate::core::memory::alloc::vec_with_capacity(n)?;
    for i in 0..n as i64 {
        out.push(piece(i)?);
    }
    Ok(out)
}

/// `t.unbind(dim)`: every index along `dim`, as `select` views.
pub fn unbind(t: &Tensor, dim: i64) -> Result<Vec<Tensor>> {
    // A 0-d tensor's dim is wrapped as a vector's first (so `1` is out of range), then
    // refused for having no dimension to take apart.
    wrap_dim(dim, t.ndim().max(1))?;
    if t.ndim() == 0 {
        return Err(TorchError::index(
            "Dimension specified as 0 but tensor has no dimensions",
        ));
    }
    let d = wrap_dim(dim, t.ndim())?;
    let size = t.sizes()[d];
    let pieces = make_pieces(size, |i| select(t, d as i64, i));
    one_node(t, pieces, "UnbindBackward0", || {
        move |p: &Tensor| unbind(p, dim)
    })
}

/// `t.tensor_split(sections, dim)`: `sections` pieces, the first `size % sections` one longer.
pub fn tensor_split_sections(t: &Tensor, sections: i64, dim: i64) -> Result<Vec<Tensor>> {
    if t.ndim() == 0 {
        return Err(TorchError::runtime(
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims",
        ));
    }
    if sections <= 0 {
        return Err(TorchError::runtime(format!(
            "number of sections must be larger than 0, got {sections}"
        )));
    }
    let d = wrap_dim(dim, t.ndim())?;
    let size = t.sizes()[d];
    if sections > i64::MAX / 16 {
        return Err(TorchError::runtime(
            "cannot create std::vector larger than max_size()",
        ));
    }
    let (base, extra) = (size / sections, size % sections);
    // Piece i starts after i pieces of `base` and the longer ones before it.
    make_pieces(sections, |i| {
        let start = i * base + i.min(extra);
        narrow(t, d as i64, start, base + i64::from(i < extra))
    })
}

/// `t.tensor_split(indices, dim)`: pieces between the given indices (clamped to the size).
pub fn tensor_split_indices(t: &Tensor, indices: &[i64], dim: i64) -> Result<Vec<Tensor>> {
    if t.ndim() == 0 {
        return Err(TorchError::runtime(
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims",
        ));
    }
    let d = wrap_dim(dim, t.ndim())?;
    let size = t.sizes()[d];
    let clamp = |i: i64| {
        if i < 0 {
            (i + size).max(0)
        } else {
            i.min(size)
        }
    };
    let mut out = Vec::with_capacity(indices.len() + 1);
    let mut start = 0;
    for &i in indices {
        let end = clamp(i);
        out.push(narrow(t, d as i64, start, (end - start).max(0))?);
        start = end;
    }
    out.push(narrow(t, d as i64, start, size - start)?);
    Ok(out)
}

/// Which of `hsplit`, `vsplit`, `dsplit`.
#[derive(Debug, Clone, Copy)]
pub enum DirectionalSplit {
    /// Columns: dim 1 (dim 0 for vectors).
    H,
    /// Rows: dim 0, needs 2 dims.
    V,
    /// Depth: dim 2, needs 3 dims.
    D,
}

/// What a directional split splits by.
#[derive(Debug, Clone)]
pub enum SplitBy {
    /// Equal sections.
    Sections(i64),
    /// Split points.
    Indices(Vec<i64>),
}

/// `torch.hsplit`/`vsplit`/`dsplit`.
pub fn directional_split(t: &Tensor, which: DirectionalSplit, by: SplitBy) -> Result<Vec<Tensor>> {
    let n = t.ndim();
    let (name, min_dims, dim) = match which {
        DirectionalSplit::H => ("hsplit", 1, if n == 1 { 0 } else { 1 }),
        DirectionalSplit::V => ("vsplit", 2, 0),
        DirectionalSplit::D => ("dsplit", 3, 2),
    };
    if n < min_dims {
        return Err(TorchError::runtime(format!(
            "torch.{name} requires a tensor with at least {min_dims} dimension, but got a tensor with {n} dimensions!"
        )));
    }
    match by {
        SplitBy::Sections(s) => {
            let size = t.sizes()[dim];
            if s == 0 || size % s != 0 {
                return Err(TorchError::runtime(format!(
                    "torch.{name} attempted to split along dimension {dim}, but the size of the dimension {size} is not divisible by the split_size {s}!"
                )));
            }
            tensor_split_sections(t, s, dim as i64)
        }
        SplitBy::Indices(idx) => tensor_split_indices(t, &idx, dim as i64),
    }
}
