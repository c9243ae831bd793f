//! `torch.constant_pad_nd(t, pad, value)`: `pad` gives (before, after) counts for the last
//! dims, last dim first; positive counts add elements holding `value`, negative ones cut
//! elements off. The result is new memory: `value` everywhere, then the part of `t` that
//! survives copied into its place.

use crate::core::error::{Result, TorchError};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::views::narrow;

/// `torch.constant_pad_nd(t, pad, value)`, untracked.
pub fn constant_pad_nd(t: &Tensor, pad: &[i64], value: Scalar) -> Result<Tensor> {
    if !pad.len().is_multiple_of(2) {
        return Err(TorchError::runtime(format!(
            "Length of pad must be even but instead it equals {}",
            pad.len()
        )));
    }
    let ndim = t.ndim();
    if pad.len() / 2 > ndim {
        return Err(TorchError::runtime(format!(
            "Length of pad should be no more than twice the number of dimensions of the input. Pad length is {}while the input has {}dimensions.",
            pad.len(),
            ndim
        )));
    }
    let mut sizes = t.sizes().to_vec();
    // The part of `t` kept, and where it lands in the result, per padded dim.
    let mut kept = t.clone();
    let mut places: Vec<(usize, i64, i64)> = Vec::new();
    for (k, pair) in pad.chunks_exact(2).enumerate() {
        let dim = ndim - 1 - k;
        let (before, after) = (pair[0], pair[1]);
        let size = sizes[dim];
        let cut_front = (-before).max(0);
        let cut_back = (-after).max(0);
        let length = size - cut_front - cut_back;
        if length < 0 {
            return Err(TorchError::runtime(
                "narrow(): length must be non-negative.",
            ));
        }
        kept = narrow(&kept, dim as i64, cut_front, length)?;
        let new_size = size + before + after;
        if new_size < 0 {
            return Err(TorchError::runtime(format!(
                "The input size {size}, plus negative padding {before} and {after} resulted in a negative output size, which is invalid. Check dimension {dim} of your input."
            )));
        }
        places.push((dim, before.max(0), length));
        sizes[dim] = new_size;
    }
    let out = crate::core::creation::full(&sizes, value, t.dtype())?;
    let mut target = out.clone();
    for (dim, start, length) in places {
        target = narrow(&target, dim as i64, start, length)?;
    }
    crate::core::copy::copy_(&target, &kept)?;
    Ok(out)
}
