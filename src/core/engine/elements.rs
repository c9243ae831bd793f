//! The element-moving mode of the engine, for ops that pick, place or reorder elements
//! without computing on them (masked ops, `roll`, `diag`, `nonzero`): a tensor's values as
//! one contiguous row-major *image* of element bytes (conjugate bit resolved), moved a
//! whole element at a time, whatever the dtype; truth values as bytes of 0 and 1 (one cast
//! to `bool`, as PyTorch's nonzero test: NaN and any non-zero part count).

use crate::core::broadcast::broadcast_layout;
use crate::core::copy::{cast_copy, to_contiguous_bytes};
use crate::core::dtype::DType;
use crate::core::element;
use crate::core::error::Result;
use crate::core::layout::Layout;
use crate::core::memory::storage::Storage;
use crate::core::operand::Arg;
use crate::core::tensor::Tensor;

/// `t`'s values in row-major order: its bytes, one element after another.
pub fn image(t: &Tensor) -> Result<Vec<u8>> {
    to_contiguous_bytes(t)
}

/// Whether each element of `t` is non-zero, in row-major order (0 or 1).
pub fn truth(t: &Tensor) -> Result<Vec<u8>> {
    let copy = cast_copy(t, DType::Bool)?;
    copy.storage().copy_bytes()
}

/// `t`'s values converted to int64 (as `t.long()` converts), in row-major order.
pub fn int64_values(t: &Tensor) -> Result<Vec<i64>> {
    let copy = cast_copy(t, DType::Int64)?;
    Ok(copy.storage().with_bytes(|b| {
        b.chunks_exact(8)
            .map(|v| i64::from_le_bytes(v.try_into().unwrap_or([0; 8])))
            .collect()
    }))
}

/// `t`'s values converted to float64, in row-major order (the vector asked of the heap
/// budget).
pub fn f64_values(t: &Tensor) -> Result<Vec<f64>> {
    values_as(t, DType::Float64, f64::from_le_bytes)
}

/// `t`'s values converted to int64, in row-major order (the vector asked of the heap
/// budget).
pub fn i64_values(t: &Tensor) -> Result<Vec<i64>> {
    values_as(t, DType::Int64, i64::from_le_bytes)
}

/// `t`'s values cast to the 8-byte `dtype`, each read by `read`.
fn values_as<T>(t: &Tensor, dtype: DType, read: fn([u8; 8]) -> T) -> Result<Vec<T>> {
    let copy = cast_copy(t, dtype)?;
    copy.storage().with_bytes(|b| {
        let mut out = crate::core::memory::alloc::vec_with_capacity::<T>(b.len() / 8)?;
        out.extend(
            b.chunks_exact(8)
                .map(|v| read(v.try_into().unwrap_or([0; 8]))),
        );
        Ok(out)
    })
}

/// An operand of an elementwise op as element bytes of `dtype` at the broadcast `sizes`,
/// with the step between elements: a tensor's broadcast image (step: the item size), or a
/// number's one element (step 0: the same for every position).
pub fn operand_image(a: &Arg, sizes: &[i64], dtype: DType) -> Result<(Vec<u8>, usize)> {
    let item = dtype.itemsize();
    Ok(match a {
        Arg::Number(s) => (element::encode(dtype, *s).0[..item].to_vec(), 0),
        Arg::Tensor(t) => {
            let view = t.alias(broadcast_layout(&t.layout(), sizes)?);
            // In its own dtype, the image is one copy of the bytes (bits resolved).
            let bytes = if view.dtype() == dtype {
                to_contiguous_bytes(&view)?
            } else {
                cast_copy(&view, dtype)?.storage().copy_bytes()?
            };
            (bytes, item)
        }
    })
}

/// A new contiguous tensor of `sizes` and `dtype` holding `bytes` (its row-major image).
pub fn from_image(bytes: Vec<u8>, sizes: Vec<i64>, dtype: DType) -> Tensor {
    Tensor::from_parts(Storage::from_vec(bytes), dtype, Layout::contiguous(sizes))
}

/// A new contiguous int64 tensor of `sizes` holding `values`.
pub fn from_i64s(values: &[i64], sizes: Vec<i64>) -> Result<Tensor> {
    let mut bytes = crate::core::memory::alloc::zeroed_bytes(values.len() * 8)?;
    for (v, out) in values.iter().zip(bytes.chunks_exact_mut(8)) {
        out.copy_from_slice(&v.to_le_bytes());
    }
    Ok(from_image(bytes, sizes, DType::Int64))
}

/// A float64 tensor of `sizes` holding `values` (row-major).
pub fn from_f64s(values: &[f64], sizes: Vec<i64>) -> Result<Tensor> {
    let mut bytes = crate::core::memory::alloc::zeroed_bytes(values.len() * 8)?;
    for (v, out) in values.iter().zip(bytes.chunks_exact_mut(8)) {
        out.copy_from_slice(&v.to_le_bytes());
    }
    Ok(from_image(bytes, sizes, DType::Float64))
}

/// Whether any element of `t` is non-zero.
pub fn any_nonzero(t: &Tensor) -> Result<bool> {
    Ok(truth(t)?.iter().any(|&b| b != 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::creation::arange;
    use crate::core::scalar::Scalar;

    #[test]
    fn an_image_is_the_values_in_row_major_order() {
        let t = arange(Scalar::Int(0), Scalar::Int(6), Scalar::Int(1), None).unwrap();
        let t = crate::core::views::view(&t, &[2, 3]).unwrap();
        let tt = crate::core::views::transpose(&t, 0, 1).unwrap();
        let bytes = image(&tt).unwrap();
        let values: Vec<i64> = bytes
            .chunks_exact(8)
            .map(|b| i64::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(values, vec![0, 3, 1, 4, 2, 5]);
        assert_eq!(truth(&tt).unwrap(), vec![0, 1, 1, 1, 1, 1]);
        let back = from_i64s(&values, vec![3, 2]).unwrap();
        assert_eq!(crate::core::copy::int_values(&back), values);
    }
}
