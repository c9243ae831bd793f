//! Ops that address a tensor as if flattened or by mask: `take` and `put` (indices into
//! the row-major order of its elements, negative ones from the end), `take_along_dim`
//! (`gather` after broadcasting) and `masked_scatter` (the source's elements, in order, at
//! the mask's true places). PyTorch's checks and messages; element moves on row-major images.

use super::broadcast::{broadcast_layout, broadcast_shapes};
use super::copy;
use super::dtype::DType;
use super::engine::elements;
use super::engine::place::{self, Combine};
use super::error::{Result, TorchError, wrap_dim};
use super::scatter::index_values;
use super::tensor::Tensor;

/// The flat indices of `index` resolved against `numel` elements (negative from the end).
fn flat_indices(index: &Tensor, numel: usize) -> Result<Vec<usize>> {
    let n = numel as i64;
    index_values(index)?
        .into_iter()
        .map(|v| {
            if v < -n || v >= n {
                return Err(TorchError::index(format!(
                    "out of range: tried to access index {v} on a tensor of {numel} elements."
                )));
            }
            Ok(if v < 0 { v + n } else { v } as usize)
        })
        .collect()
}

/// Refuses an index that is not int64, as `take()` and `put_()` word it.
fn check_long(op: &str, index: &Tensor) -> Result<()> {
    if index.dtype() != DType::Int64 {
        return Err(TorchError::runtime(format!(
            "{op}: Expected a long tensor for index, but got {}",
            index.dtype().cpp_name()
        )));
    }
    Ok(())
}

/// `t.take(index)`: the elements at `index`'s flat positions, shaped as `index`.
pub fn take(t: &Tensor, index: &Tensor) -> Result<Tensor> {
    check_long("take()", index)?;
    let numel = t.numel().max(0) as usize;
    if numel == 0 && index.numel() > 0 {
        return Err(TorchError::index(
            "take(): tried to take from an empty tensor",
        ));
    }
    let at = flat_indices(index, numel)?;
    let item = t.dtype().itemsize();
    let values = elements::image(t)?;
    let mut out = super::memory::alloc::vec_with_capacity(at.len() * item)?;
    for i in at {
        out.extend_from_slice(&values[i * item..(i + 1) * item]);
    }
    Ok(elements::from_image(out, index.sizes(), t.dtype()))
}

/// `t.put(index, source, accumulate=)`: `source`'s elements written (or added) at
/// `index`'s flat positions of a copy of `t`.
pub fn put(t: &Tensor, index: &Tensor, source: &Tensor, accumulate: bool) -> Result<Tensor> {
    check_long("put_()", index)?;
    if source.dtype() != t.dtype() {
        return Err(TorchError::runtime(format!(
            "put_(): self and source expected to have the same dtype, but got self.dtype = {} and source.dtype = {}",
            t.dtype().cpp_name(),
            source.dtype().cpp_name()
        )));
    }
    if source.numel() != index.numel() {
        return Err(TorchError::index(format!(
            "put_(): Expected source and index to have the same number of elements, but got source.numel() = {}, index.numel() = {}",
            source.numel(),
            index.numel()
        )));
    }
    let numel = t.numel().max(0) as usize;
    if numel == 0 && index.numel() > 0 {
        return Err(TorchError::index(
            "put_(): Tried to put elements into an empty tensor",
        ));
    }
    let at = flat_indices(index, numel)?;
    let pairs: Vec<(usize, usize)> = at.into_iter().enumerate().map(|(j, i)| (i, j)).collect();
    let src = elements::image(source)?;
    let how = if accumulate {
        Combine::Sum
    } else {
        Combine::Replace
    };
    place::placed(t, how, true, &src, &pairs)
}

/// `t.take_along_dim(indices, dim)`: with a dim, `gather` after broadcasting the two in
/// every other dimension; without one, `take` of the flattened tensor.
pub fn take_along_dim(t: &Tensor, indices: &Tensor, dim: Option<i64>) -> Result<Tensor> {
    if indices.dtype() != DType::Int64 {
        return Err(TorchError::runtime(format!(
            "torch.take_along_dim(): dtype of indices should be Long but got {}",
            indices.dtype().cpp_name()
        )));
    }
    let Some(dim) = dim else {
        let flat = super::views::reshape(t, &[t.numel()])?;
        let idx = super::views::reshape(indices, &[indices.numel()])?;
        return super::selection::gather(&flat, 0, &idx);
    };
    if t.ndim() != indices.ndim() {
        return Err(TorchError::runtime(format!(
            "torch.take_along_dim(): input and indices should have the same number of dimensions, but got {} dimensions for input, and {} dimensions for indices",
            t.ndim(),
            indices.ndim()
        )));
    }
    let d = wrap_dim(dim, t.ndim().max(1))?;
    let (mut ts, mut is) = (t.sizes(), indices.sizes());
    if ts.is_empty() {
        return super::selection::gather(t, dim, indices);
    }
    let (keep_t, keep_i) = (ts[d], is[d]);
    ts[d] = 1;
    is[d] = 1;
    let shape = broadcast_shapes(&ts, &is)?;
    let (mut tshape, mut ishape) = (shape.clone(), shape);
    tshape[d] = keep_t;
    ishape[d] = keep_i;
    let tb = t.alias(broadcast_layout(&t.layout(), &tshape)?);
    let ib = indices.alias(broadcast_layout(&indices.layout(), &ishape)?);
    super::selection::gather(&tb, d as i64, &ib)
}

/// `t.masked_scatter(mask, source)`: a copy of `t` (broadcast with the mask) holding
/// `source`'s first elements, in row-major order, where the mask is true.
pub fn masked_scatter(t: &Tensor, mask: &Tensor, source: &Tensor) -> Result<Tensor> {
    if mask.dtype() != DType::Bool {
        return Err(TorchError::runtime(format!(
            "masked_scatter_ only supports boolean masks, but got mask with dtype {}",
            mask.dtype().cpp_name()
        )));
    }
    if source.dtype() != t.dtype() {
        return Err(TorchError::runtime(format!(
            "masked_scatter: expected self and source to have same dtypes but got{} and {}",
            t.dtype().cpp_name(),
            source.dtype().cpp_name()
        )));
    }
    let shape = broadcast_shapes(&t.sizes(), &mask.sizes())?;
    let view = t.alias(broadcast_layout(&t.layout(), &shape)?);
    let keep = elements::image(&mask.alias(broadcast_layout(&mask.layout(), &shape)?))?;
    let ones = keep.iter().filter(|&&k| k != 0).count();
    if ones as i64 > source.numel() {
        return Err(TorchError::runtime(
            "Number of elements of source < number of ones in mask",
        ));
    }
    let pairs: Vec<(usize, usize)> = keep
        .iter()
        .enumerate()
        .filter(|(_, k)| **k != 0)
        .enumerate()
        .map(|(j, (i, _))| (i, j))
        .collect();
    let src = elements::image(source)?;
    place::placed(&view, Combine::Replace, true, &src, &pairs)
}

/// `t.masked_scatter_(mask, source)`: the mask must broadcast to `t`'s own shape.
pub fn masked_scatter_(t: &Tensor, mask: &Tensor, source: &Tensor) -> Result<()> {
    if mask.ndim() > t.ndim() {
        return Err(TorchError::runtime(format!(
            "expand(CPU{}Type{{{:?}}}, size={:?}): the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
            mask.dtype().cpp_name(),
            mask.sizes(),
            t.sizes(),
            t.ndim(),
            mask.ndim()
        )));
    }
    super::views::expand(mask, &t.sizes())?;
    let out = masked_scatter(t, mask, source)?;
    copy::copy_(t, &out)
}
