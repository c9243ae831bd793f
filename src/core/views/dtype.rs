//! Views that reinterpret bytes: `view(dtype)`, `real`/`imag`, `view_as_real`,
//! `view_as_complex`. The storage is untouched; only dtype and layout change.

use crate::core::dtype::DType;
use crate::core::error::{Result, TorchError};
use crate::core::layout::Layout;
use crate::core::tensor::Tensor;

/// `t.view(dtype)`: same bytes, another element type. Element sizes that differ scale the last
/// dimension, with PyTorch's conditions on dims, strides and offset.
pub fn view_dtype(t: &Tensor, dtype: DType) -> Result<Tensor> {
    let old = t.dtype();
    if t.is_conj() {
        // Even to its own dtype, as PyTorch words it.
        return Err(TorchError::runtime(
            "torch.Tensor.view is not supported for conjugate view tensors when converting to a different dtype.",
        ));
    }
    if t.is_neg() {
        return Err(TorchError::runtime(
            "torch.Tensor.view is not supported for tensors with negative bit set when converting to a different dtype.",
        ));
    }
    let l = t.layout();
    let (a, b) = (old.itemsize() as i64, dtype.itemsize() as i64);
    if a == b {
        return Ok(t.alias_as(dtype, l));
    }
    let why = format!(
        "to view {} as {} (different element sizes)",
        old.cpp_name(),
        dtype.cpp_name()
    );
    let n = l.ndim();
    if n == 0 {
        return Err(TorchError::runtime(format!("self.dim() cannot be 0 {why}")));
    }
    let last = n - 1;
    let stride_check = || {
        if l.strides[last] != 1 {
            return Err(super::super::why::note(
                TorchError::runtime(format!(
                    "self.stride(-1) must be 1 {why}, but got {}",
                    l.strides[last]
                )),
                super::super::why::Case::ViewDtype {
                    tensor: t.clone(),
                    dtype,
                },
            ));
        }
        Ok(())
    };
    let mut sizes = l.sizes.clone();
    let mut strides = l.strides.clone();
    let offset = if b > a {
        let ratio = b / a;
        // Widening checks the last size before the last stride, as PyTorch does.
        if sizes[last] % ratio != 0 {
            return Err(TorchError::runtime(format!(
                "self.size(-1) must be divisible by {ratio} {why}, but got {}",
                sizes[last]
            )));
        }
        stride_check()?;
        if l.offset % ratio != 0 {
            return Err(TorchError::runtime(format!(
                "self.storage_offset() must be divisible by {ratio} {why}, but got {}",
                l.offset
            )));
        }
        for (d, stride) in strides.iter_mut().enumerate().take(last) {
            if *stride % ratio != 0 {
                return Err(TorchError::runtime(format!(
                    "self.stride({d}) must be divisible by {ratio} {why}, but got {stride}"
                )));
            }
            *stride /= ratio;
        }
        sizes[last] /= ratio;
        l.offset / ratio
    } else {
        stride_check()?;
        let ratio = a / b;
        for s in strides.iter_mut().take(last) {
            *s *= ratio;
        }
        sizes[last] *= ratio;
        l.offset * ratio
    };
    Ok(t.alias_as(
        dtype,
        Layout {
            sizes,
            strides,
            offset,
        },
    ))
}

/// `t`'s storage read as `dtype` under `layout`, recorded for autograd as the view `name`
/// made again by `replay` (a function of the tensor alone).
fn typed_view(
    t: &Tensor,
    dtype: DType,
    layout: Layout,
    name: &str,
    replay: fn(&Tensor) -> Result<Tensor>,
) -> Tensor {
    let out = t.alias_as(dtype, layout);
    crate::core::tensor::record::record_view(&out, t, name, || {
        crate::core::tensor::graph::ViewReplay::one(replay)
    });
    out
}

fn complex_part(t: &Tensor, imag: bool) -> Result<Tensor> {
    let dtype = t.dtype();
    let l = t.layout();
    let strides = l.strides.iter().map(|s| s * 2).collect();
    let offset = l.offset * 2 + imag as i64;
    let layout = Layout {
        sizes: l.sizes,
        strides,
        offset,
    };
    // PyTorch makes `.real`/`.imag` by selecting from `view_as_real`.
    let replay = if imag {
        |p: &Tensor| complex_part(p, true)
    } else {
        |p: &Tensor| complex_part(p, false)
    };
    Ok(typed_view(
        t,
        dtype.to_real(),
        layout,
        "SelectBackward0",
        replay,
    ))
}

/// `t.real`: the real parts of a complex tensor as a view; a real tensor itself.
pub fn real(t: &Tensor) -> Result<Tensor> {
    if t.dtype().is_complex() {
        complex_part(t, false)
    } else {
        // PyTorch returns the tensor itself: same object, same autograd state.
        Ok(t.clone())
    }
}

/// `t.imag`: the imaginary parts as a view; an error for real tensors.
pub fn imag(t: &Tensor) -> Result<Tensor> {
    if !t.dtype().is_complex() {
        return Err(TorchError::type_error(
            "imag is not implemented for tensors with non-complex dtypes.",
        ));
    }
    let out = complex_part(t, true)?;
    // Of a conjugate view: the stored imaginary parts, read negated (PyTorch's negative
    // view; writes through it store negations, so they reach the original as conjugates).
    if t.is_conj() {
        out.set_neg_bit(true);
    }
    Ok(out)
}

/// `torch.view_as_real(t)`: a complex tensor as real pairs in a new last dim of size 2.
pub fn view_as_real(t: &Tensor) -> Result<Tensor> {
    if !t.dtype().is_complex() {
        return Err(TorchError::type_error(
            "view_as_real is only supported for complex tensors",
        ));
    }
    if t.is_conj() {
        return Err(TorchError::runtime(
            "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the conjugate tensor so you can view it as real, use self.resolve_conj(); however, be warned that the resulting tensor will NOT alias the original.",
        ));
    }
    let l = t.layout();
    let mut sizes = l.sizes.clone();
    let mut strides: Vec<i64> = l.strides.iter().map(|s| s * 2).collect();
    sizes.push(2);
    strides.push(1);
    let layout = Layout {
        sizes,
        strides: strides.into(),
        offset: l.offset * 2,
    };
    Ok(typed_view(
        t,
        t.dtype().to_real(),
        layout,
        "ViewAsRealBackward0",
        view_as_real,
    ))
}

/// `torch.view_as_complex(t)`: pairs in the last dim (size 2, stride 1) as complex numbers.
pub fn view_as_complex(t: &Tensor) -> Result<Tensor> {
    let d = t.dtype();
    let Some(complex) = d.to_complex().filter(|_| d.is_floating_point()) else {
        return Err(TorchError::not_implemented(format!(
            "view_as_complex is only supported for half, float and double tensors, but got a tensor of scalar type: {}",
            d.cpp_name()
        )));
    };
    let l = t.layout();
    if l.ndim() == 0 {
        return Err(TorchError::runtime(
            "Input tensor must have one or more dimensions",
        ));
    }
    let last = l.ndim() - 1;
    if l.sizes[last] != 2 {
        return Err(TorchError::runtime(
            "Tensor must have a last dimension of size 2",
        ));
    }
    if l.strides[last] != 1 {
        return Err(TorchError::runtime(
            "Tensor must have a last dimension with stride 1",
        ));
    }
    if l.strides[..last].iter().any(|s| s % 2 != 0) {
        return Err(TorchError::runtime(
            "Tensor must have a stride divisible by 2 for all but last dimension",
        ));
    }
    if l.offset % 2 != 0 {
        return Err(TorchError::runtime(
            "Tensor must have a storage_offset divisible by 2",
        ));
    }
    let sizes = l.sizes[..last].to_vec();
    let strides = l.strides[..last].iter().map(|s| s / 2).collect();
    let layout = Layout {
        sizes: sizes.into(),
        strides,
        offset: l.offset / 2,
    };
    Ok(typed_view(
        t,
        complex,
        layout,
        "ViewAsComplexBackward0",
        view_as_complex,
    ))
}
