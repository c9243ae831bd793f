//! `t.repeat(*repeats)` and `t.tile(dims)`: the tensor copied `repeats[i]` times along each
//! dimension, as a fresh contiguous tensor (unlike `expand`, which repeats by stride 0 and
//! copies nothing). `repeats` may be longer than `t.dim()`: `t` is then read as if it had
//! leading dimensions of size 1.
//!
//! The copy is one gather: `t` read through a layout of sizes `[r0, d0, r1, d1, ...]` whose
//! `r` dimensions have stride 0 is, in row-major order, exactly the repeated tensor.

use super::copy::contiguous_copy;
use super::error::{Result, TorchError};
use super::layout::{Layout, fmt_list};
use super::memory::alloc::contiguous_nbytes;
use super::tensor::Tensor;
use super::tensor::graph::{BackwardOp, detached, record};
use super::views::conj::resolve_conj;

/// `t.repeat(repeats)`.
pub fn repeat(t: &Tensor, repeats: &[i64]) -> Result<Tensor> {
    let sizes = t.sizes();
    if repeats.len() < sizes.len() {
        return Err(TorchError::runtime(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor",
        ));
    }
    let padded = padded_sizes(&sizes, repeats.len());
    let out_sizes: Vec<i64> = padded
        .iter()
        .zip(repeats)
        .map(|(&d, &r)| d.saturating_mul(r))
        .collect();
    if let Some(&negative) = out_sizes.iter().find(|&&s| s < 0) {
        return Err(TorchError::runtime(format!(
            "Trying to create tensor with negative dimension {negative}: {}",
            fmt_list(&out_sizes)
        )));
    }
    // The size check (and its overflow error) before any bytes are read.
    contiguous_nbytes(&out_sizes, t.dtype().itemsize())?;
    let src = resolve_conj(&detached(t))?;
    let l = src.layout();
    let pad = repeats.len() - sizes.len();
    let mut read = Layout {
        sizes: Vec::with_capacity(2 * repeats.len()).into(),
        strides: Vec::with_capacity(2 * repeats.len()).into(),
        offset: l.offset,
    };
    for (i, &r) in repeats.iter().enumerate() {
        let (d, s) = match i.checked_sub(pad) {
            Some(j) => (l.sizes[j], l.strides[j]),
            None => (1, 0),
        };
        read.sizes.extend([r, d]);
        read.strides.extend([0, s]);
    }
    // In bounds: every element it reads is an element of `src`'s own layout.
    let gathered = contiguous_copy(&src.alias(read))?;
    let out = Tensor::from_parts(gathered.storage(), t.dtype(), Layout::contiguous(out_sizes));
    let op = BackwardOp::Repeat {
        sizes,
        repeats: repeats.to_vec(),
    };
    record(&[&out], "RepeatBackward0", &[t], op);
    Ok(out)
}

/// `t.tile(dims)`: `repeat`, with `dims` padded by leading 1s to `t.dim()` when shorter.
pub fn tile(t: &Tensor, dims: &[i64]) -> Result<Tensor> {
    let ndim = t.ndim();
    if dims.len() >= ndim {
        return repeat(t, dims);
    }
    let mut full = vec![1; ndim - dims.len()];
    full.extend_from_slice(dims);
    repeat(t, &full)
}

/// `sizes` with leading 1s up to `ndim` dimensions.
fn padded_sizes(sizes: &[i64], ndim: usize) -> Vec<i64> {
    let mut padded = vec![1; ndim - sizes.len()];
    padded.extend_from_slice(sizes);
    padded
}

/// The gradient of `repeat`: each input element's gradient is the sum of the output's at
/// every copy of it. `g` read as `[r0, d0, r1, d1, ...]` is summed over the `r` dims.
pub fn repeat_backward(g: &Tensor, sizes: &[i64], repeats: &[i64]) -> Result<Tensor> {
    let padded = padded_sizes(sizes, repeats.len());
    let split: Vec<i64> = repeats
        .iter()
        .zip(&padded)
        .flat_map(|(&r, &d)| [r, d])
        .collect();
    let g = super::views::view(&contiguous_copy(g)?, &split)?;
    let dims: Vec<i64> = (0..repeats.len()).map(|i| 2 * i as i64).collect();
    let summed = super::reduce::reduce(&g, super::reduce::Reduction::Sum, Some(&dims), false)?;
    super::views::view(&contiguous_copy(&summed)?, sizes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::dtype::DType;

    fn ints(t: &Tensor) -> Vec<i64> {
        crate::core::copy::int_values(t)
    }

    fn arange(n: i64) -> Tensor {
        let t = Tensor::zeros(vec![n], DType::Int64).unwrap();
        t.storage().with_bytes_mut(|b| {
            for i in 0..n as usize {
                b[i * 8..i * 8 + 8].copy_from_slice(&(i as i64).to_le_bytes());
            }
        });
        t
    }

    #[test]
    fn repeats_tile_the_values_of_a_strided_input() {
        let x = crate::core::views::view(&arange(6), &[2, 3]).unwrap();
        let xt = crate::core::views::t(&x).unwrap();
        let r = repeat(&xt, &[1, 2]).unwrap();
        assert_eq!(r.sizes(), [3, 4]);
        assert_eq!(ints(&r), [0, 3, 0, 3, 1, 4, 1, 4, 2, 5, 2, 5]);
        let r = repeat(&x, &[2, 1, 1]).unwrap();
        assert_eq!(r.sizes(), [2, 2, 3]);
        assert_eq!(ints(&r), [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5]);
        assert_eq!(tile(&arange(2), &[2, 2]).unwrap().sizes(), [2, 4]);
    }

    #[test]
    fn the_gradient_sums_every_copy() {
        let g = arange(12);
        let grad = repeat_backward(
            &crate::core::views::view(&g, &[2, 6]).unwrap(),
            &[3],
            &[2, 2],
        )
        .unwrap();
        // Element j is read at columns j and j + 3 of both rows.
        assert_eq!(ints(&grad), [18, 22, 26]);
    }

    #[test]
    fn bad_repeats_are_refused() {
        let x = crate::core::views::view(&arange(6), &[2, 3]).unwrap();
        assert!(repeat(&x, &[2]).is_err());
        let e = repeat(&x, &[-1, 2]).unwrap_err().to_string();
        assert!(e.contains("negative dimension -2: [-2, 6]"), "{e}");
    }
}
