//! `tril(diagonal)` and `triu(diagonal)`: a contiguous copy of the input with the elements
//! above (`tril`) or below (`triu`) the `diagonal`-th diagonal of each matrix (the last two
//! dims) set to zero. Element `[.., i, j]` is kept by `tril` when `j - i <= diagonal`, by
//! `triu` when `j - i >= diagonal`.

use super::copy::contiguous_copy;
use super::error::{Result, TorchError};
use super::tensor::Tensor;
use super::tensor::graph::{BackwardOp, detached, record};
use super::views::conj::resolve_conj;

/// `t.tril(diagonal)` (`upper` false) or `t.triu(diagonal)` (`upper` true).
pub fn triangle(t: &Tensor, upper: bool, diagonal: i64) -> Result<Tensor> {
    let name = if upper { "triu" } else { "tril" };
    let sizes = t.sizes();
    if sizes.len() < 2 {
        return Err(TorchError::runtime(format!(
            "{name}: input tensor must have at least 2 dimensions"
        )));
    }
    let out = contiguous_copy(&resolve_conj(&detached(t))?)?;
    let (rows, cols) = (sizes[sizes.len() - 2], sizes[sizes.len() - 1]);
    let item = t.dtype().itemsize();
    // `rows * cols` can overflow only when a leading dim is 0 (the sizes' product fits),
    // and then there is no matrix.
    let matrices = rows
        .checked_mul(cols)
        .and_then(|per| out.numel().checked_div(per))
        .unwrap_or(0);
    out.storage().with_bytes_mut(|bytes| {
        for m in 0..matrices {
            super::interrupt::check_every(m as usize);
            for i in 0..rows {
                // Columns `lo..hi` of row `i` are zeroed (all-zero bytes are 0 in every dtype).
                let edge = i.saturating_add(diagonal);
                let (lo, hi) = if upper {
                    (0, edge.clamp(0, cols))
                } else {
                    (edge.saturating_add(1).clamp(0, cols), cols)
                };
                let row = ((m * rows + i) * cols) as usize;
                bytes[(row + lo as usize) * item..(row + hi as usize) * item].fill(0);
            }
        }
    });
    let name = if upper {
        "TriuBackward0"
    } else {
        "TrilBackward0"
    };
    record(
        &[&out],
        name,
        &[t],
        BackwardOp::Triangle { upper, diagonal },
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::dtype::DType;

    fn ones(rows: i64, cols: i64) -> Tensor {
        let t = Tensor::zeros(vec![rows, cols], DType::Int8).unwrap();
        t.storage().with_bytes_mut(|b| b.fill(1));
        t
    }

    fn kept(t: &Tensor) -> Vec<i64> {
        crate::core::copy::int_values(t)
    }

    #[test]
    fn lower_and_upper_triangles_around_a_diagonal() {
        assert_eq!(
            kept(&triangle(&ones(2, 3), false, 0).unwrap()),
            [1, 0, 0, 1, 1, 0]
        );
        assert_eq!(
            kept(&triangle(&ones(2, 3), true, 1).unwrap()),
            [0, 1, 1, 0, 0, 1]
        );
        assert_eq!(kept(&triangle(&ones(2, 3), false, -5).unwrap()), [0; 6]);
        assert_eq!(
            kept(&triangle(&ones(2, 3), true, i64::MIN).unwrap()),
            [1; 6]
        );
        assert_eq!(
            kept(&triangle(&ones(2, 3), false, i64::MAX).unwrap()),
            [1; 6]
        );
        assert!(triangle(&ones(1, 0), false, 0).unwrap().sizes() == [1, 0]);
    }
}
