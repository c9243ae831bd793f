//! Gradients of writing values at indexed places (`t[idx] = v`, `index_put`): the places
//! written lose the old values' gradient (unless the values were added), and the values
//! get the gradient of the places they went to.

use super::formulas::{cast_grad, sum_to};
use crate::core::engine::elements::from_i64s;
use crate::core::error::Result;
use crate::core::take_put::{put, take};
use crate::core::tensor::Tensor;
use crate::core::views::reshape;

/// What was written: values of `sizes` and `dtype` (`None`: a number).
#[derive(Clone)]
pub struct Written {
    /// The values' sizes and dtype, when they were a tensor.
    pub values: Option<(Vec<i64>, crate::core::dtype::DType)>,
    /// Whether they were added to what was there (`accumulate=True`).
    pub accumulate: bool,
}

/// The gradients of `t` (before the write) and of the values (when a tensor) from the
/// result's `g`, the write having gone to the row-major `positions` forming `shape`.
pub fn put_grads(
    g: &Tensor,
    shape: &[i64],
    positions: &[i64],
    written: &Written,
) -> Result<Vec<Option<Tensor>>> {
    let at = from_i64s(positions, vec![positions.len() as i64])?;
    let kept = if written.accumulate {
        g.clone()
    } else {
        let zeros = Tensor::zeros(vec![positions.len() as i64], g.dtype())?;
        put(g, &at, &zeros, false)?
    };
    let mut grads = vec![Some(kept)];
    if let Some((sizes, dtype)) = &written.values {
        let got = reshape(&take(g, &at)?, shape)?;
        grads.push(Some(cast_grad(&sum_to(&got, sizes)?, *dtype)?));
    }
    Ok(grads)
}
