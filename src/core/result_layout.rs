//! The layout of a new elementwise result. PyTorch's elementwise ops do not always return
//! row-major tensors: the result's dimensions are laid out in the order of the inputs'
//! strides (`(x.t() + 1).stride()` is `(1, 3)`, and the result is not contiguous), the
//! first input deciding where they disagree, dims of stride 0 (broadcast) not deciding.
//! tensh's kernels write row-major results; `in_inputs_order` moves one into that order
//! when it differs (one copy, only then).

use super::copy::copy_;
use super::error::Result;
use super::layout::Layout;
use super::tensor::Tensor;

/// Strides of `t` viewed at `shape` (broadcast from the right; broadcast dims stride 0).
fn broadcast_strides(t: &Tensor, shape: &[i64]) -> Vec<i64> {
    let (sizes, strides) = (t.sizes(), t.strides());
    let lead = shape.len() - sizes.len().min(shape.len());
    (0..shape.len())
        .map(|d| {
            if d < lead {
                0
            } else {
                let k = d - lead;
                if sizes[k] == 1 && shape[d] != 1 {
                    0
                } else {
                    strides[k]
                }
            }
        })
        .collect()
}

/// The dims of `shape`, innermost first, in the order the inputs' strides give: an
/// insertion sort whose comparison asks each input in turn and skips those that cannot
/// tell (a stride of 0); equal strides put the smaller dim inside. With no input able to
/// tell, row-major order stays.
fn order(shape: &[i64], inputs: &[Vec<i64>]) -> Vec<usize> {
    let n = shape.len();
    let mut perm: Vec<usize> = (0..n).rev().collect();
    let swap = |d0: usize, d1: usize| -> i32 {
        for strides in inputs {
            let (s0, s1) = (strides[d0], strides[d1]);
            if s0 == 0 || s1 == 0 {
                continue;
            }
            if s0 != s1 {
                return if s0 < s1 { -1 } else { 1 };
            }
            if shape[d0] > shape[d1] {
                return 1;
            }
        }
        0
    };
    for i in 1..n {
        let mut d1 = i;
        for d0 in (0..i).rev() {
            match swap(perm[d0], perm[d1]) {
                c if c > 0 => {
                    perm.swap(d0, d1);
                    d1 = d0;
                }
                c if c < 0 => break,
                _ => {}
            }
        }
    }
    perm
}

/// `out` (a fresh row-major result of an elementwise op on `inputs`) in the layout PyTorch
/// gives that result: unchanged when that layout is row-major.
pub fn in_inputs_order(out: Tensor, inputs: &[&Tensor]) -> Result<Tensor> {
    let shape = out.sizes();
    if shape.len() < 2 || inputs.iter().all(|t| t.is_contiguous()) {
        return Ok(out);
    }
    let strides: Vec<Vec<i64>> = inputs
        .iter()
        .map(|t| broadcast_strides(t, &shape))
        .collect();
    let perm = order(&shape, &strides);
    if perm.iter().copied().eq((0..shape.len()).rev()) {
        return Ok(out);
    }
    let mut dense = vec![0i64; shape.len()];
    let mut step = 1i64;
    for &d in &perm {
        dense[d] = step;
        step = step.saturating_mul(shape[d].max(1));
    }
    let target = Tensor::zeros(shape.clone(), out.dtype())?;
    target.set_layout(Layout {
        sizes: shape,
        strides: dense,
        offset: 0,
    });
    copy_(&target, &out)?;
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::order;

    #[test]
    fn the_first_input_that_can_tell_decides() {
        // A transpose of a 2x3 (strides 1, 3 at shape 3x2) against a row-major 3x2.
        assert_eq!(order(&[3, 2], &[vec![1, 3], vec![2, 1]]), vec![0, 1]);
        assert_eq!(order(&[3, 2], &[vec![2, 1], vec![1, 3]]), vec![1, 0]);
        // A broadcast input cannot tell; the next one does.
        assert_eq!(order(&[3, 2], &[vec![0, 1], vec![1, 3]]), vec![0, 1]);
        assert_eq!(order(&[2, 3], &[vec![0, 1]]), vec![1, 0]);
    }
}
