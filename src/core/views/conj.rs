//! PyTorch's conjugate views: `conj()` flips the conjugate bit of a complex tensor (a view
//! over the same storage), `resolve_conj()` materializes it, `conj_physical()` computes the
//! conjugates into a new tensor; `resolve_neg()` materializes a negative view (`.imag` of a
//! conjugate view); `adjoint()`, `.H` and `.mH` are a transpose and a `conj()`.

use crate::core::copy::{clone_tensor, conjugate_in_place};
use crate::core::error::{Result, TorchError};
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::{BackwardOp, record};

/// `t.conj()`: for a complex tensor a view with the conjugate bit flipped (its gradient is
/// the conjugate of the output's); a real tensor itself.
pub fn conj(t: &Tensor) -> Tensor {
    if !t.dtype().is_complex() {
        return t.clone();
    }
    let out = t.conj_view();
    record(&[&out], "ConjBackward0", &[t], BackwardOp::Conj);
    crate::core::tensor::record::mark_views(std::slice::from_ref(&out), t);
    out
}

/// `t.resolve_conj()`: a tensor without the bit holding the same values (when the bit is
/// set a copy, keeping a dense layout's strides; otherwise the tensor itself).
pub fn resolve_conj(t: &Tensor) -> Result<Tensor> {
    resolved_when(t, t.is_conj())
}

/// `t.resolve_neg()`: a tensor without the negative bit holding the same values (when the
/// bit is set a copy, keeping a dense layout's strides; otherwise the tensor itself).
pub fn resolve_neg(t: &Tensor) -> Result<Tensor> {
    resolved_when(t, t.is_neg())
}

/// `t` itself, or when `bit_set` a clone holding its values (the clone resolves every
/// bit), recorded as PyTorch records its resolving clone.
fn resolved_when(t: &Tensor, bit_set: bool) -> Result<Tensor> {
    if !bit_set {
        return Ok(t.clone());
    }
    let out = clone_tensor(t)?;
    crate::core::tensor::record::record_copy(&out, t, "CloneBackward0");
    Ok(out)
}

/// `t.conj_physical()`: the conjugates, computed into a new tensor (a real tensor is
/// returned as it is).
pub fn conj_physical(t: &Tensor) -> Result<Tensor> {
    if !t.dtype().is_complex() {
        return Ok(t.clone());
    }
    let out = clone_tensor(t)?;
    out.storage()
        .with_bytes_mut(|b| conjugate_in_place(out.dtype(), b));
    record(&[&out], "ConjPhysicalBackward0", &[t], BackwardOp::Conj);
    Ok(out)
}

/// `adjoint()` / `.mH` (`what` names it in the message): the last two dims transposed and
/// conjugated; a 0-dim tensor is conjugated, a 1-dim one refused.
pub fn adjoint(t: &Tensor, what: &str) -> Result<Tensor> {
    match t.ndim() {
        0 => Ok(conj(t)),
        1 => Err(TorchError::runtime(format!(
            "{what} is only supported on matrices or batches of matrices. Got 1-D tensor."
        ))),
        _ => Ok(conj(&super::matrix_transpose(t)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::copy::to_scalars;
    use crate::core::creation::from_scalars;
    use crate::core::dtype::DType;
    use crate::core::scalar::Scalar;
    use num_complex::Complex64;

    #[test]
    fn a_conjugate_view_reads_conjugates_and_shares_storage() {
        let z = from_scalars(
            &[Scalar::Complex(Complex64::new(1.0, 2.0))],
            vec![1],
            DType::Complex64,
        )
        .unwrap();
        let c = conj(&z);
        assert!(c.is_conj() && !z.is_conj());
        assert_eq!(c.data_ptr(), z.data_ptr());
        let Scalar::Complex(v) = to_scalars(&c).unwrap()[0] else {
            panic!("complex")
        };
        assert_eq!((v.re, v.im), (1.0, -2.0));
        assert!(!conj(&c).is_conj());
        assert!(!resolve_conj(&c).unwrap().is_conj());
    }
}
