//! Gradients of ops whose outputs are input elements: extremes and order statistics (the
//! gradient goes to the element chosen, or is shared among the tied ones), and indexing
//! (each output element's gradient is added to the input element it was read from).

use super::grad_ops::{cmp, div, isnan, keep, mul, t, unreduce};
use crate::core::dtype::DType;
use crate::core::engine::place::Combine;
use crate::core::error::Result;
use crate::core::ops::BinaryOp;
use crate::core::reduce::{Reduction, reduce};
use crate::core::scatter::{Source, scatter};
use crate::core::tensor::Tensor;
use crate::core::views::{expand, unsqueeze};

/// The gradient of a whole reduction that picked one value (`max()`, `min()`,
/// `median()`): shared evenly among the input elements equal to it (NaN counting as
/// equal to a NaN result).
pub fn evenly_distributed(g: &Tensor, input: &Tensor, value: &Tensor) -> Result<Tensor> {
    let both_nan = super::grad_ops::and(&isnan(input)?, &isnan(value)?)?;
    let mask = super::grad_ops::or(&cmp(BinaryOp::Eq, t(input), t(value))?, &both_nan)?;
    let count = reduce(&mask, Reduction::Sum, None, false)?;
    let share = div(t(g), t(&count))?;
    keep(&mask, &expand(&share, &input.sizes())?)
}

/// The gradient of `amax`/`amin`/`aminmax` over `dims`: each row's gradient shared evenly among
/// the elements equal to its extreme (`result`).
pub fn shared_among_ties(
    g: &Tensor,
    input: &Tensor,
    result: &Tensor,
    dims: &[usize],
    keepdim: bool,
) -> Result<Tensor> {
    let ndim = input.ndim();
    let g = unreduce(g, ndim, dims, keepdim)?;
    let result = unreduce(result, ndim, dims, keepdim)?;
    let mask = cmp(BinaryOp::Eq, t(input), t(&result))?;
    let reduced: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
    let count = if ndim == 0 {
        crate::core::copy::cast_copy(&mask, DType::Int64)?
    } else {
        reduce(&mask, Reduction::Sum, Some(&reduced), true)?
    };
    let share = div(t(&g), t(&count))?;
    // Multiplied by the mask, as PyTorch's `scale_grad_by_count` does: a NaN gradient
    // reaches the other elements too (`NaN * 0`).
    mul(t(&expand(&share, &input.sizes())?), t(&mask))
}

/// The gradient of an op that picked, along `dim`, the input elements `indices` names
/// (`max(dim)`, `sort`, `topk`, `kthvalue`, `median(dim)`, `mode`): each output's
/// gradient placed at its element, zeros elsewhere. `keepdim` false: the outputs lost
/// `dim`. `accumulate`: an element picked twice (`cummax`) receives both gradients.
pub fn to_picked(
    g: &Tensor,
    sizes: &[i64],
    dim: i64,
    indices: &Tensor,
    keepdim: bool,
    accumulate: bool,
) -> Result<Tensor> {
    if sizes.is_empty() {
        return Ok(g.clone());
    }
    let (g, indices) = if keepdim {
        (g.clone(), indices.clone())
    } else {
        (unsqueeze(g, dim)?, unsqueeze(indices, dim)?)
    };
    let zeros = Tensor::zeros(sizes.to_vec(), g.dtype())?;
    let how = if accumulate {
        Combine::Sum
    } else {
        Combine::Replace
    };
    scatter(&zeros, dim, &indices, Source::Tensor(&g), how, true)
}

/// The gradient of an op that read each output element from the input element at a flat
/// row-major position (`positions`, one per output element in row-major order) of a
/// tensor of `sizes`: the output's gradients added there.
pub fn to_positions(g: &Tensor, sizes: &[i64], positions: &[i64]) -> Result<Tensor> {
    crate::core::index_ops::add_at_positions(sizes, g.dtype(), positions, g)
}
