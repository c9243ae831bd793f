//! In-place tensor methods: `set_`, `resize_`, `as_strided_`, `fill_`, `zero_`, `copy_`,
//! `requires_grad_`. Each changes the tensor object, seen through every name bound to it.

use rhai::Dynamic;

use crate::core::checked_scalar::check_converts;
use crate::core::copy;
use crate::core::error::{Result, TorchError};
use crate::core::layout::{Layout, contiguous_strides};
use crate::core::memory::storage::Storage;
use crate::core::resize::{grow_to_fit, resize};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::BackwardOp;
use crate::core::tensor::record::record_in_place;
use crate::core::views::checked_strided_layout;
use crate::ops::args::Args;
use crate::ops::convert::{to_int_list, to_scalar};
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai, type_error};
use crate::ops::registry::Registry;
use crate::ops::storage::typed::TypedStorage;

/// `t.set_(storage, offset, size, stride)` as PyTorch does it: when the sizes and strides are
/// the tensor's current ones the storage is only bounds-checked; otherwise a too-small
/// storage is grown to fit (or the resize error raised for a non-resizable one).
pub fn set_storage(
    t: &Tensor,
    storage: Storage,
    offset: i64,
    size: Vec<i64>,
    stride: Option<Vec<i64>>,
) -> Result<()> {
    if offset < 0 {
        return Err(TorchError::runtime(format!(
            "Tensor: invalid storage offset {offset}"
        )));
    }
    if stride.as_ref().is_some_and(|st| st.len() != size.len()) {
        return Err(TorchError::runtime(
            "mismatch in length of strides and shape",
        ));
    }
    crate::core::memory::alloc::checked_numel(&size)?;
    if let Some(st) = &stride {
        crate::core::memory::alloc::strided_nbytes(&size, st, t.dtype().itemsize())?;
    }
    let current = t.layout();
    let unchanged =
        current.sizes[..] == size[..] && stride.as_ref().is_none_or(|s| **s == *current.strides);
    let strides = stride.unwrap_or_else(|| contiguous_strides(&size));
    let layout = Layout {
        sizes: size.into(),
        strides: strides.into(),
        offset,
    };
    let itemsize = t.dtype().itemsize();
    if unchanged {
        let nbytes = storage.nbytes();
        layout.check_in_bounds(itemsize, nbytes).map_err(|e| {
            crate::core::why::note(
                e,
                crate::core::why::Case::OutOfBounds {
                    layout: layout.clone(),
                    itemsize,
                    nbytes,
                },
            )
        })?;
    } else {
        grow_to_fit(&storage, &layout, itemsize)?;
    }
    t.replace(storage, layout);
    Ok(())
}

fn set_(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let source = a.get(0, "source");
    match source {
        None => {
            x.replace(
                Storage::zeroed(0).rhai()?,
                Layout {
                    sizes: smallvec::smallvec![0],
                    strides: smallvec::smallvec![1],
                    offset: 0,
                },
            );
        }
        Some(src) if src.is::<Tensor>() => {
            let s = src.clone().cast::<Tensor>();
            if s.dtype() != x.dtype() {
                return Err(to_rhai(TorchError::runtime(format!(
                    "Could not set tensor of type {} to a tensor of type {}",
                    s.dtype().c_type_name(),
                    x.dtype().c_type_name()
                ))));
            }
            let l = s.layout();
            set_storage(
                x,
                s.storage(),
                l.offset,
                l.sizes.to_vec(),
                Some(l.strides.to_vec()),
            )
            .rhai()?;
        }
        Some(src) if src.is::<Storage>() || src.is::<TypedStorage>() => {
            let storage = match src.clone().try_cast::<TypedStorage>() {
                // A typed storage must hold this tensor's dtype; its bytes are what is set.
                Some(typed) if typed.dtype != x.dtype() => {
                    return Err(to_rhai(TorchError::runtime(format!(
                        "Expected a Storage of type {} or an UntypedStorage, but got type {} for argument 1 'storage'",
                        x.dtype().c_type_name(),
                        typed.dtype.cpp_name()
                    ))));
                }
                Some(typed) => typed.storage,
                None => src.clone().cast::<Storage>(),
            };
            let offset = a.int_or(1, "storage_offset", 0)?;
            let itemsize = x.dtype().itemsize();
            let size = match a.get(2, "size") {
                Some(v) => to_int_list(v, "size")?,
                None => vec![(storage.nbytes() / itemsize) as i64],
            };
            let stride = a
                .get(3, "stride")
                .map(|v| to_int_list(v, "stride"))
                .transpose()?;
            set_storage(x, storage, offset, size, stride).rhai()?;
        }
        Some(other) => {
            return Err(type_error(format!(
                "set_() received an invalid combination of arguments - got ({})",
                crate::ops::convert::py_type_name(other)
            )));
        }
    }
    Ok(Dynamic::from(x.clone()))
}

fn fill_value(a: &Args, func: &str) -> RhaiResult<Scalar> {
    let v = a.req(0, "value", func)?;
    if let Some(t) = v.clone().try_cast::<Tensor>().filter(|t| t.ndim() != 0) {
        return Err(to_rhai(TorchError::runtime(format!(
            "fill_ only supports 0-dimension value tensor but got tensor with {} dimensions.",
            t.ndim()
        ))));
    }
    to_scalar(v, "value")
}

/// A Python number as PyTorch wraps it into a tensor: 0-d, in int64, float64, bool or
/// complex128 by its type.
fn wrapped_number(n: Scalar) -> Result<Tensor> {
    let dtype = match n {
        Scalar::Bool(_) => crate::core::dtype::DType::Bool,
        Scalar::Int(_) | Scalar::UInt(_) => crate::core::dtype::DType::Int64,
        Scalar::Float(_) => crate::core::dtype::DType::Float64,
        Scalar::Complex(_) => crate::core::dtype::DType::Complex128,
    };
    crate::core::creation::full(&[], n, dtype)
}

/// Registers the in-place methods.
pub fn register(r: &mut Registry) {
    r.method("set_", 4, |x, a| set_(x, &a));
    // A resize is counted as a write when it changed the tensor (the declaration's
    // `mutates: resize` counts nothing itself).
    r.method("resize_", 8, |x, a| {
        if resize(x, a.sizes("size")?).rhai()? {
            crate::core::tensor::record::count_write(x);
        }
        Ok(Dynamic::from(x.clone()))
    });
    r.method("resize_as_", 1, |x, a| {
        let template = a.tensor(0, "the_template", "resize_as_")?;
        if resize(x, template.sizes().to_vec()).rhai()? {
            crate::core::tensor::record::count_write(x);
        }
        Ok(Dynamic::from(x.clone()))
    });
    r.method_and_function("as_strided_", 3, |x, a| {
        let size = to_int_list(a.req(0, "size", "as_strided_")?, "size")?;
        let stride = to_int_list(a.req(1, "stride", "as_strided_")?, "stride")?;
        let layout =
            checked_strided_layout(x, &size, &stride, a.opt_int(2, "storage_offset")?).rhai()?;
        crate::core::views::in_place::set_recorded(x, layout, "AsStridedBackward1", None);
        Ok(Dynamic::from(x.clone()))
    });
    r.method("fill_", 1, |x, a| {
        let value = fill_value(&a, "fill_")?;
        // A number is converted with PyTorch's check (float16 and bfloat16 are not checked
        // for one element, which PyTorch fills on a path of its own); a 0-d tensor's value
        // is copied, as `copy_` converts (wrapping, or discarding an imaginary part).
        if !a.req(0, "value", "fill_")?.is::<Tensor>() {
            check_converts(x.dtype(), value, x.numel() != 1).rhai()?;
        }
        copy::fill_(x, value).rhai()?;
        match a.pos[0].clone().try_cast::<Tensor>() {
            Some(v) if v.requires_grad() => {
                // The old values get nothing; the value gets every element's gradient.
                let dtype = v.dtype();
                let formula = move |g: &Tensor| {
                    let zeros = Tensor::zeros(g.sizes(), g.dtype())?;
                    let total = crate::core::ops::sum_all(g)?;
                    Ok(vec![
                        Some(zeros),
                        Some(crate::core::autograd::cast_grad(&total, dtype)?),
                    ])
                };
                record_in_place(x, "FillBackward3", &[&v], BackwardOp::formula(2, formula))
            }
            Some(_) => record_in_place(x, "FillBackward3", &[], BackwardOp::Overwritten),
            None => record_in_place(x, "FillBackward2", &[], BackwardOp::Overwritten),
        }
        Ok(Dynamic::from(x.clone()))
    });
    r.method("zero_", 0, |x, _| {
        copy::fill_(x, Scalar::Int(0)).rhai()?;
        record_in_place(x, "ZeroBackward0", &[], BackwardOp::Overwritten);
        Ok(Dynamic::from(x.clone()))
    });
    r.method("copy_", 2, |x, a| {
        let src = a.req(0, "src", "copy_")?;
        // A Python number is copied as PyTorch wraps it: a 0-d tensor of its own type
        // (int64, float64, bool or complex128), converted by the copy.
        let src = match src.clone().try_cast::<Tensor>() {
            Some(_) => src.clone(),
            None => match crate::ops::convert::as_scalar(src) {
                Some(n) => Dynamic::from(wrapped_number(n).rhai()?),
                None => src.clone(),
            },
        };
        match src.clone().try_cast::<Tensor>() {
            Some(s) => {
                copy::copy_(x, &s).rhai()?;
                let from = BackwardOp::CopyFrom {
                    sizes: s.sizes(),
                    dtype: s.dtype(),
                };
                record_in_place(x, "CopyBackwards", &[&s], from);
            }
            None => {
                return Err(type_error(format!(
                    "copy_(): argument 'src' (position 1) must be Tensor, not {}",
                    crate::ops::convert::py_type_name(&src)
                )));
            }
        }
        Ok(Dynamic::from(x.clone()))
    });
    r.method("requires_grad_", 1, |x, a| {
        let flag = a.bool_or(0, "requires_grad", true)?;
        crate::ops::tensor::autograd::set_requires_grad(
            x,
            flag,
            crate::ops::tensor::autograd::GradRequest::Method,
        )?;
        Ok(Dynamic::from(x.clone()))
    });
}
