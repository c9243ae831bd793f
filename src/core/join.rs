//! `torch.cat` and `torch.stack`: tensors joined along a dimension into one fresh, contiguous
//! tensor (always a copy: the inputs' storages are never shared with the result), its dtype
//! the promotion of theirs. Each input is copied into its slice of the result, so the copy
//! runs in blocks as every strided copy does.

use super::copy::copy_;
use super::dtype::DType;
use super::error::{Result, TorchError, wrap_dim};
use super::promotion::promote_types;
use super::tensor::Tensor;
use super::tensor::graph::{BackwardOp, detached, record};
use super::views::{narrow, unsqueeze};

/// A legacy empty tensor (`torch.empty(0)`), which `cat` skips whatever the others' shape.
fn skipped(t: &Tensor) -> bool {
    t.ndim() == 1 && t.sizes()[0] == 0
}

/// The promoted dtype of `tensors` (not empty).
fn joined_dtype(tensors: &[Tensor]) -> Result<DType> {
    let mut d = tensors[0].dtype();
    for t in &tensors[1..] {
        d = promote_types(d, t.dtype())?;
    }
    Ok(d)
}

/// Copies `parts` one after another along `dim` of a fresh tensor of `sizes` and `dtype`.
fn fill_along(parts: &[Tensor], dim: usize, sizes: Vec<i64>, dtype: DType) -> Result<Tensor> {
    let out = Tensor::zeros(sizes, dtype)?;
    let mut at = 0;
    for p in parts.iter().filter(|p| !skipped(p)) {
        let len = p.sizes()[dim];
        copy_(&narrow(&detached(&out), dim as i64, at, len)?, &detached(p))?;
        at += len;
    }
    Ok(out)
}

/// `torch.cat(tensors, dim)`.
pub fn cat(tensors: &[Tensor], dim: i64) -> Result<Tensor> {
    if tensors.is_empty() {
        return Err(TorchError::value(
            "torch.cat(): expected a non-empty list of Tensors",
        ));
    }
    if let Some(i) = tensors.iter().position(|t| t.ndim() == 0) {
        return Err(TorchError::runtime(format!(
            "zero-dimensional tensor (at position {i}) cannot be concatenated"
        )));
    }
    let dtype = joined_dtype(tensors)?;
    let Some(first) = tensors.iter().find(|t| !skipped(t)) else {
        return Tensor::zeros(vec![0], dtype);
    };
    let dim = wrap_dim(dim, first.ndim())?;
    let mut sizes = first.sizes().to_vec();
    sizes[dim] = 0;
    for (i, t) in tensors.iter().enumerate() {
        if skipped(t) {
            continue;
        }
        if t.ndim() != first.ndim() {
            return Err(TorchError::runtime(format!(
                "Tensors must have same number of dimensions: got {} and {}",
                first.ndim(),
                t.ndim()
            )));
        }
        for (d, (&want, &got)) in first.sizes().iter().zip(t.sizes().iter()).enumerate() {
            if d != dim && want != got {
                return Err(TorchError::runtime(format!(
                    "Sizes of tensors must match except in dimension {dim}. Expected size \
                     {want} but got size {got} for tensor number {i} in the list."
                )));
            }
        }
        sizes[dim] = sizes[dim]
            .checked_add(t.sizes()[dim])
            .ok_or_else(|| TorchError::runtime("cat: the result's size overflows"))?;
    }
    let out = fill_along(tensors, dim, sizes, dtype)?;
    record_join(&out, tensors, dim, false, "CatBackward0");
    Ok(out)
}

/// `torch.stack(tensors, dim)`: each tensor becomes one entry of a new dimension `dim`.
pub fn stack(tensors: &[Tensor], dim: i64) -> Result<Tensor> {
    let Some(first) = tensors.first() else {
        return Err(TorchError::runtime("stack expects a non-empty TensorList"));
    };
    let dim = wrap_dim(dim, first.ndim() + 1)?;
    for (i, t) in tensors.iter().enumerate() {
        if t.sizes() != first.sizes() {
            return Err(TorchError::runtime(format!(
                "stack expects each tensor to be equal size, but got {:?} at entry 0 and {:?} \
                 at entry {i}",
                first.sizes(),
                t.sizes()
            )));
        }
    }
    let parts: Vec<Tensor> = tensors
        .iter()
        .map(|t| unsqueeze(&detached(t), dim as i64))
        .collect::<Result<_>>()?;
    let mut sizes = first.sizes().to_vec();
    sizes.insert(dim, tensors.len() as i64);
    let out = fill_along(&parts, dim, sizes, joined_dtype(tensors)?)?;
    record_join(&out, tensors, dim, true, "StackBackward0");
    Ok(out)
}

/// Records the join for autograd: input `i`'s gradient is its slice of the output's.
fn record_join(out: &Tensor, inputs: &[Tensor], dim: usize, stacked: bool, name: &str) {
    let op = BackwardOp::Join {
        dim,
        stacked,
        parts: inputs
            .iter()
            .map(|t| (t.sizes().to_vec(), t.dtype(), skipped(t) && !stacked))
            .collect(),
    };
    let refs: Vec<&Tensor> = inputs.iter().collect();
    record(&[out], name, &refs, op);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::copy::to_scalars;
    use crate::core::scalar::Scalar;
    use crate::core::views::view;

    fn values(t: &Tensor) -> Vec<i64> {
        to_scalars(t).unwrap().iter().map(|s| s.to_i64()).collect()
    }

    fn arange(n: i64) -> Tensor {
        let v: Vec<Scalar> = (0..n).map(Scalar::Int).collect();
        crate::core::creation::from_scalars(&v, vec![n], DType::Int64).unwrap()
    }

    #[test]
    fn cat_and_stack_place_each_input_in_its_slice() {
        let a = view(&arange(4), &[2, 2]).unwrap();
        let b = view(&arange(2), &[2, 1]).unwrap();
        let c = cat(&[a.clone(), b], 1).unwrap();
        assert_eq!(c.sizes(), [2, 3]);
        assert_eq!(values(&c), [0, 1, 0, 2, 3, 1]);
        let s = stack(&[arange(3), arange(3)], 1).unwrap();
        assert_eq!(s.sizes(), [3, 2]);
        assert_eq!(values(&s), [0, 0, 1, 1, 2, 2]);
        // A legacy empty tensor is skipped.
        let e = Tensor::zeros(vec![0], DType::Float32).unwrap();
        assert_eq!(cat(&[a, e], 0).unwrap().sizes(), [2, 2]);
    }
}
