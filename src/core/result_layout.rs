//! The layout of a new elementwise result. PyTorch's elementwise ops do not always return
//! row-major tensors: the result's dimensions are laid out in the order of the inputs'
//! strides (`(x.t() + 1).stride()` is `(1, 3)`, and the result is not contiguous), the
//! first input deciding where they disagree, dims of stride 0 (broadcast) not deciding.
//! tensh's kernels write row-major results; `in_inputs_order` moves one into that order
//! when it differs (one copy, only then).

use super::copy::copy_;
use super::dtype::DType;
use super::error::Result;
use super::layout::Layout;
use super::memory_format::{MemoryFormat, dense_strides_in_order};
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
    relaid(out, dense_strides_in_order(&shape, &strides))
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
    if shape.len() < 2 || inputs.iter().all(|t| t.is_contiguous()) {
        return Ok(out);
    }
    let strides: Vec<Vec<i64>> = inputs.iter().map(|t| broadcast_strides(t, shape)).collect();
    out.set_layout(Layout {
        sizes: shape.into(),
        strides: dense_strides_in_order(shape, &strides).into(),
        offset: 0,
    });
    Ok(out)
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
/// `argsort`, `msort`): `input`'s own strides when it is non-overlapping and dense, else
/// the memory format its strides suggest (channels-last, or row-major). One copy, only
/// when that layout is not row-major.
pub fn like_input(out: Tensor, input: &Tensor) -> Result<Tensor> {
    let l = input.layout();
    let strides: Vec<i64> = if l.is_non_overlapping_and_dense() {
        l.strides.to_vec()
    } else {
        MemoryFormat::suggested_by(&l).strides(&l.sizes)?
    };
    relaid(out, strides)
}

#[cfg(test)]
mod tests {
    use crate::core::memory_format::order;

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
