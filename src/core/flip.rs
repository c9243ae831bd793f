//! `torch.flip(t, dims)`: the elements in reverse order along `dims`, as a fresh contiguous
//! tensor. PyTorch has no negative strides, so unlike NumPy's reversed view this is always a
//! copy. The gather walks the output in row-major order, copying whole rows when the last
//! dimension is not flipped.

use super::error::{Result, TorchError, wrap_dim};
use super::tensor::Tensor;
use super::tensor::graph::{BackwardOp, detached, record};

/// `t.flip(dims)`; `dims` may be negative, and may not repeat.
pub fn flip(t: &Tensor, dims: &[i64]) -> Result<Tensor> {
    let ndim = t.ndim();
    let mut flipped = vec![false; ndim];
    for &d in dims {
        // A 0-d tensor flips along dim 0 or -1, as PyTorch allows.
        let d = wrap_dim(d, ndim.max(1))?;
        if ndim == 0 {
            continue;
        }
        if flipped[d] {
            return Err(TorchError::runtime(format!(
                "dim {d} appears multiple times in the list of dims"
            )));
        }
        flipped[d] = true;
    }
    super::unbuilt_kernels::require_complex_half_kernel("flip_cpu", t.dtype())?;
    // `gather` reads storage bytes: a conjugate or negative view's values first.
    let src = crate::core::copy::resolved(&detached(t))?;
    let out = Tensor::zeros(t.sizes(), t.dtype())?;
    gather(&src, &out, &flipped)?;
    // Laid out as `empty_like(t)`, as PyTorch allocates it.
    let out = super::result_layout::like_input(out, t)?;
    let op = BackwardOp::Flip {
        dims: (0..ndim)
            .filter(|&d| flipped[d])
            .map(|d| d as i64)
            .collect(),
    };
    record(&[&out], "FlipBackward0", &[t], op);
    Ok(out)
}

/// Copies `src` into the contiguous `out` (same sizes), reversing the `flipped` dims.
fn gather(src: &Tensor, out: &Tensor, flipped: &[bool]) -> Result<()> {
    let l = src.layout();
    let item = src.dtype().itemsize();
    let numel = usize::try_from(l.numel()).unwrap_or(0);
    if numel == 0 {
        return Ok(());
    }
    let ndim = l.sizes.len();
    let (row, row_stride, row_flipped) = match ndim {
        0 => (1usize, 1i64, false),
        _ => (
            l.sizes[ndim - 1] as usize,
            l.strides[ndim - 1],
            flipped[ndim - 1],
        ),
    };
    let outer = ndim.saturating_sub(1);
    let bytes = src.storage().copy_bytes()?;
    // The storage may have shrunk since the layout was made (`resize_` of a storage under a
    // view): every index below stays inside `bytes` only once this holds.
    l.check_in_bounds(item, bytes.len())?;
    out.storage().with_bytes_mut(|dst| {
        let mut index = vec![0i64; outer];
        for r in 0..numel / row {
            super::interrupt::check_every(r);
            // The source element at the start of this output row: flipped dims count back.
            let start = (0..outer).fold(l.offset, |acc, d| {
                let i = if flipped[d] {
                    l.sizes[d] - 1 - index[d]
                } else {
                    index[d]
                };
                acc + i * l.strides[d]
            });
            let out_row = &mut dst[r * row * item..(r + 1) * row * item];
            if !row_flipped && row_stride == 1 {
                // In bounds: checked against these bytes above.
                let at = start as usize * item;
                out_row.copy_from_slice(&bytes[at..at + row * item]);
            } else {
                for j in 0..row {
                    let k = if row_flipped { row - 1 - j } else { j } as i64;
                    let at = (start + k * row_stride) as usize * item;
                    out_row[j * item..(j + 1) * item].copy_from_slice(&bytes[at..at + item]);
                }
            }
            for d in (0..outer).rev() {
                index[d] += 1;
                if index[d] < l.sizes[d] {
                    break;
                }
                index[d] = 0;
            }
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::creation::arange;
    use crate::core::scalar::Scalar;
    use crate::core::views::{transpose, view};

    fn grid() -> Tensor {
        let t = arange(Scalar::Int(0), Scalar::Int(6), Scalar::Int(1), None).unwrap();
        view(&t, &[2, 3]).unwrap()
    }

    /// The values in row-major order.
    fn values(t: &Tensor) -> Vec<u8> {
        let c = crate::core::copy::contiguous_copy(t).unwrap();
        c.storage().to_vec().chunks(8).map(|c| c[0]).collect()
    }

    #[test]
    fn flips_rows_columns_and_transposes() {
        assert_eq!(values(&flip(&grid(), &[0]).unwrap()), [3, 4, 5, 0, 1, 2]);
        assert_eq!(values(&flip(&grid(), &[-1]).unwrap()), [2, 1, 0, 5, 4, 3]);
        assert_eq!(values(&flip(&grid(), &[0, 1]).unwrap()), [5, 4, 3, 2, 1, 0]);
        let tr = transpose(&grid(), 0, 1).unwrap();
        let flipped = flip(&tr, &[0]).unwrap();
        assert_eq!(values(&flipped), [2, 5, 1, 4, 0, 3]);
        // Laid out as the transpose it flips, as `empty_like` lays it out.
        assert_eq!(flipped.strides().to_vec(), vec![1, 3]);
        assert_eq!(values(&flip(&grid(), &[]).unwrap()), [0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn repeated_or_bad_dims_raise() {
        let e = flip(&grid(), &[0, 0]).unwrap_err();
        assert_eq!(
            e.message,
            "dim 0 appears multiple times in the list of dims"
        );
        assert!(flip(&grid(), &[2]).is_err());
    }
}
