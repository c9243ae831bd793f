//! The layout of a new elementwise result, as PyTorch's TensorIterator gives it. PyTorch's
//! elementwise ops do not always return row-major tensors:
//! - when every operand has the result's shape (no broadcasting, no number taking a
//!   tensor's place) and all are contiguous, the result is row-major; all channels-last,
//!   channels-last; all dense with one set of strides, those strides;
//! - otherwise the result's dimensions are laid out in the order of the operands' strides
//!   (`(x.t() + 1).stride()` is `(1, 3)`), the first operand deciding where they disagree,
//!   equal strides putting the smaller dim inside, dims of stride 0 (broadcast, and a
//!   number's) not deciding; strides are then the sizes' running product (a 0-size dim
//!   makes the outer strides 0: `(torch.empty(0, 2).mT == 1).stride()` is `(1, 0)`), unless
//!   the order is row-major, which gives the contiguous strides.
//!
//! A number counts as an operand where PyTorch wraps it in a 0-d tensor (`x + 1`,
//! `x == 1`, `x.remainder(2)`, `torch.where(m, x, 0.)`), not where it is a parameter of
//! the kernel (`x.pow(2)`, `x.clamp(0, 1)`, `lerp`'s weight).
//!
//! tensh's kernels write row-major results; `in_inputs_order` and `in_operands_order`
//! move one into PyTorch's layout when it differs (one copy, only then).

use super::copy::copy_;
use super::dtype::DType;
use super::error::Result;
use super::layout::Layout;
use super::memory_format::{MemoryFormat, order};
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

/// The result of an elementwise op on `input` from its row-major image `bytes` (one
/// element of `dtype` for each of `input`'s, in row-major order), laid out as
/// `in_inputs_order` lays it out.
pub fn elementwise_image(bytes: Vec<u8>, input: &Tensor, dtype: DType) -> Result<Tensor> {
    let out = Tensor::from_parts(
        super::memory::storage::Storage::from_vec(bytes),
        dtype,
        Layout::contiguous(input.sizes()),
    );
    in_inputs_order(out, &[input])
}

/// `out` (a fresh dense result of an elementwise op on the tensors `inputs`, with no
/// number as an operand) in the layout PyTorch gives that result: unchanged when it has
/// that layout already (a row-major result, most often), else one copy.
pub fn in_inputs_order(out: Tensor, inputs: &[&Tensor]) -> Result<Tensor> {
    in_operands_order(out, inputs, false)
}

/// `in_inputs_order` for an op whose operands are `inputs` and, when `wrapped_numbers`,
/// numbers PyTorch wraps in 0-d tensors.
pub fn in_operands_order(out: Tensor, inputs: &[&Tensor], wrapped_numbers: bool) -> Result<Tensor> {
    let sizes = out.sizes();
    match iterator_strides(&sizes, inputs, wrapped_numbers) {
        Some(strides) => relaid(out, strides),
        // Most results are row-major already: nothing to make or compare.
        None if has_row_major_strides(&out.layout()) => Ok(out),
        None => relaid(out, super::layout::contiguous_strides(&sizes)),
    }
}

/// Whether `l`'s strides are exactly the row-major ones of its sizes (size-1 dims
/// included, as `contiguous_strides` gives them).
fn has_row_major_strides(l: &Layout) -> bool {
    let mut expected = 1i64;
    for (&size, &stride) in l.sizes.iter().zip(l.strides.iter()).rev() {
        if stride != expected {
            return false;
        }
        expected = expected.saturating_mul(size.max(1));
    }
    true
}

/// A new zero-filled tensor of `shape` and `dtype`, laid out as `in_inputs_order` would lay
/// out an elementwise result of `inputs` (dense, from offset 0): for kernels that write
/// their result in place in that layout, with no copy afterwards.
pub fn zeros_in_inputs_order(
    shape: &[i64],
    dtype: super::dtype::DType,
    inputs: &[&Tensor],
) -> Result<Tensor> {
    let out = Tensor::zeros(shape.to_vec(), dtype)?;
    if let Some(strides) = iterator_strides(shape, inputs, false) {
        out.set_layout(Layout {
            sizes: shape.into(),
            strides: strides.into(),
            offset: 0,
        });
    }
    Ok(out)
}

/// The strides PyTorch's TensorIterator gives a new result of `shape` from the tensor
/// operands `inputs` (and numbers wrapped as operands, when `wrapped_numbers`): `None`
/// when they are the row-major ones.
pub fn iterator_strides(
    shape: &[i64],
    inputs: &[&Tensor],
    wrapped_numbers: bool,
) -> Option<Vec<i64>> {
    if inputs.is_empty() || shape.len() < 2 {
        return None;
    }
    let layouts: smallvec::SmallVec<[Layout; 3]> = inputs.iter().map(|t| t.layout()).collect();
    if !wrapped_numbers && layouts.iter().all(|l| *l.sizes == *shape) {
        if layouts.iter().all(Layout::is_contiguous) {
            return None;
        }
        if layouts
            .iter()
            .all(|l| MemoryFormat::ChannelsLast.is_contiguous(l))
        {
            return MemoryFormat::ChannelsLast.strides(shape).ok();
        }
        let first = &layouts[0].strides;
        if layouts
            .iter()
            .all(|l| l.is_non_overlapping_and_dense() && l.strides == *first)
        {
            return Some(first.to_vec());
        }
    }
    let strides: Vec<Vec<i64>> = inputs.iter().map(|t| broadcast_strides(t, shape)).collect();
    let perm = order(shape, &strides);
    let n = shape.len();
    if perm.iter().enumerate().all(|(i, &d)| d == n - 1 - i) {
        return None;
    }
    // The sizes' running product in that order (no 0-size dim counted as 1 here).
    let mut dense = vec![0i64; n];
    let mut step = 1i64;
    for d in perm {
        dense[d] = step;
        step = step.saturating_mul(shape[d]);
    }
    Some(dense)
}

/// `out` laid out row-major (PyTorch's "legacy contiguous" results: `softmax`): itself
/// when it is, else one copy.
pub fn row_major(out: Tensor) -> Result<Tensor> {
    let strides = super::layout::contiguous_strides(&out.sizes());
    relaid(out, strides)
}

/// `out` (a fresh row-major result) with `strides` (dense, from offset 0): `out` itself when
/// they are its own, else one copy into a new tensor laid out that way.
fn relaid(out: Tensor, strides: Vec<i64>) -> Result<Tensor> {
    if strides == out.strides() {
        return Ok(out);
    }
    let target = Tensor::zeros(out.sizes(), out.dtype())?;
    target.set_layout(Layout {
        sizes: out.sizes().into(),
        strides: strides.into(),
        offset: 0,
    });
    copy_(&target, &out)?;
    Ok(target)
}

/// `out` (a fresh row-major result with `input`'s sizes) in the layout PyTorch's
/// `empty_like(input)` gives it, as ops that allocate their result that way do (`sort`,
/// `argsort`, `msort`, `flip`, `nan_to_num`): `input`'s own strides when it is
/// non-overlapping and dense, else its dims laid out densely in the order of its strides
/// (as `clone()` lays them out). One copy, only when that layout is not row-major.
pub fn like_input(out: Tensor, input: &Tensor) -> Result<Tensor> {
    let strides = MemoryFormat::Preserve
        .layout_from(&input.layout())?
        .strides
        .to_vec();
    relaid(out, strides)
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn numbers_and_odd_size_one_strides_follow_the_iterators_order() {
        // A [2, 1] view with strides (1, 4) is contiguous: alone it keeps a row-major
        // result; with a number beside it, its strides order the result's dims.
        let t = Tensor::zeros(vec![8], DType::Float32).unwrap();
        let v = t.alias(Layout {
            sizes: [2, 1].as_slice().into(),
            strides: [1, 4].as_slice().into(),
            offset: 0,
        });
        assert_eq!(iterator_strides(&[2, 1], &[&v], false), None);
        assert_eq!(iterator_strides(&[2, 1], &[&v], true), Some(vec![1, 2]));
        // A 0-size dim makes the outer strides 0 when the order is not row-major.
        let e = Tensor::zeros(vec![0], DType::Float32)
            .unwrap()
            .alias(Layout {
                sizes: [0, 2].as_slice().into(),
                strides: [1, 1].as_slice().into(),
                offset: 0,
            });
        assert_eq!(iterator_strides(&[0, 2], &[&e], true), Some(vec![1, 0]));
        assert!(has_row_major_strides(&Layout::contiguous(
            [2, 0, 3].as_slice()
        )));
        assert!(!has_row_major_strides(&v.layout()));
    }

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
