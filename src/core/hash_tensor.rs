//! `torch.hash_tensor`: a reduction that XORs the bit patterns of the elements (mode 0,
//! PyTorch's only mode). Floating elements are widened to `f64` first and their `f64` bits
//! are XORed; integer and bool elements are widened to `i64` (sign-extended) and their bits
//! XORed. The result is `uint64`.

use crate::core::dtype::DType;
use crate::core::engine::rows::{RowPlan, by_rows, values};
use crate::core::error::{Result, TorchError};
use crate::core::reduce::{out_sizes, reduced_dims};
use crate::core::tensor::Tensor;

/// `torch.hash_tensor(t, dim, keepdim=keepdim, mode=mode)` (`dims` empty reduces all).
pub fn hash_tensor(t: &Tensor, dims: &[i64], keepdim: bool, mode: i64) -> Result<Tensor> {
    if mode != 0 {
        return Err(TorchError::runtime(format!(
            "Unknown hash_tensor mode: {mode}"
        )));
    }
    let dtype = t.dtype();
    let read = match dtype {
        d if d.is_floating_point() && d.itemsize() > 1 => DType::Float64,
        DType::Bool | DType::UInt8 | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => {
            DType::Int64
        }
        d => return Err(crate::core::unbuilt_kernels::not_built("xor_sum_cpu", d)),
    };
    let sizes = t.sizes();
    let all = dims.is_empty();
    if all && t.numel() == 0 {
        return Err(TorchError::runtime(
            "hash_tensor: Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.",
        ));
    }
    let reduced = if sizes.is_empty() {
        reduced_dims(0, Some(dims))?;
        Vec::new()
    } else {
        reduced_dims(sizes.len(), Some(dims))?
    };
    if let Some(&d) = reduced.iter().find(|&&d| sizes[d] == 0) {
        return Err(super::error::empty_reduction_dim("hash_tensor:", d));
    }
    let plan = RowPlan {
        reduced: &reduced,
        out_sizes: out_sizes(&sizes, &reduced, all, keepdim),
        out_dtype: DType::UInt64,
        read,
        result: DType::UInt64,
    };
    // One typed row function, chosen once for the read type.
    match read {
        DType::Float64 => by_rows(t, plan, |row, _| {
            values::<f64>(row).fold(0_u64, |h, v| h ^ v.to_bits())
        }),
        _ => by_rows(t, plan, |row, _| {
            values::<i64>(row).fold(0_u64, |h, v| h ^ v as u64)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xors_the_widened_bit_patterns() {
        let t = crate::core::creation::arange(
            crate::core::scalar::Scalar::Int(0),
            crate::core::scalar::Scalar::Int(5),
            crate::core::scalar::Scalar::Int(1),
            None,
        )
        .unwrap();
        let h = hash_tensor(&t, &[], false, 0).unwrap();
        assert_eq!(h.dtype(), DType::UInt64);
        let v = crate::core::copy::to_scalars(&h).unwrap();
        assert_eq!(v[0].to_f64(), 4.0);
        assert!(hash_tensor(&t, &[], false, 1).is_err());
    }
}
