//! Tensor metadata, properties, conversions and copies: `size`, `stride`, `shape`, `dtype`,
//! `item`, `tolist`, `contiguous`, `clone`, `to`, the cast methods, `untyped_storage`.

use crate::ops::direct::Properties;
use rhai::{Dynamic, Engine};

use crate::core::copy::{copy_in_format, to_scalars};
use crate::core::dtype::DType;
use crate::core::error::{TorchError, wrap_dim};
use crate::core::memory_format::MemoryFormat;
use crate::core::tensor::Tensor;
use crate::core::views;
use crate::core::views::dtype::{imag, real};
use crate::ops::args::Args;
use crate::ops::convert::{int_array, scalar_to_dynamic, tensor_to_list, to_dtype};
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::ops::formats::memory_format;
use crate::ops::registry::Registry;
use crate::ops::tensor::views::adjoint;
use crate::ops::values::{Device, Size};

/// `d` as an index into `x`'s dims (`size(d)`, `stride(d)`): a 0-dim tensor has none,
/// in PyTorch's words.
fn existing_dim(x: &Tensor, d: i64) -> RhaiResult<usize> {
    if x.ndim() == 0 {
        return Err(to_rhai(TorchError::index(format!(
            "Dimension specified as {d} but tensor has no dimensions"
        ))));
    }
    wrap_dim(d, x.ndim()).rhai()
}

fn warn_t_deprecated(x: &Tensor) {
    if x.ndim() != 2 {
        crate::ops::warnings::warn_once(
            "tensor_T",
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.",
        );
    }
}

/// The dtype of a tensor type name (`x.type("torch.DoubleTensor")`): `torch.<Name>Tensor`
/// with a scalar type's name (`Double`, `Long`, `ComplexFloat`); a CUDA type raises what
/// PyTorch raises without a GPU; anything else is PyTorch's `ValueError`.
pub fn tensor_type(name: &str) -> RhaiResult<DType> {
    let dtype_of = |class: &str| {
        let scalar = class.strip_suffix("Tensor")?;
        crate::core::dtype::ALL_DTYPES
            .into_iter()
            .find(|d| d.cpp_name() == scalar)
    };
    if let Some(class) = name.strip_prefix("torch.cuda.")
        && dtype_of(class).is_some()
    {
        return Err(to_rhai(TorchError::runtime(
            crate::ops::placement::NO_NVIDIA_DRIVER,
        )));
    }
    name.strip_prefix("torch.")
        .and_then(dtype_of)
        .ok_or_else(|| to_rhai(TorchError::value(format!("invalid type: '{name}'"))))
}

/// Registers the tensor properties (getters without parentheses).
pub fn register_properties(p: &mut Properties) {
    p.get("shape", |x: &Tensor| Size(x.sizes()));
    p.get("dtype", |x: &Tensor| x.dtype());
    p.get("ndim", |x: &Tensor| x.ndim() as i64);
    p.get("device", |_: &Tensor| Device::CPU);
    p.get("is_cuda", |_: &Tensor| false);
    p.get("itemsize", |x: &Tensor| x.dtype().itemsize() as i64);
    p.get("nbytes", |x: &Tensor| {
        x.numel() * x.dtype().itemsize() as i64
    });
    p.fallible("T", |x: &Tensor| {
        warn_t_deprecated(x);
        views::reverse_dims(x).rhai()
    });
    p.fallible("mT", |x: &Tensor| {
        if x.ndim() == 0 {
            crate::ops::warnings::warn_once(
                "tensor_mT_0d",
                "Tensor.mT is deprecated on 0-D tensors. This function is the identity in these cases.",
            );
            return Ok(x.clone());
        }
        views::matrix_transpose(x).rhai()
    });
    p.fallible("H", |x: &Tensor| {
        if x.ndim() > 2 {
            return Err(to_rhai(TorchError::runtime(format!(
                "tensor.H is only supported on matrices (2-D tensors). Got {}-D tensor. For batches of matrices, consider using tensor.mH",
                x.ndim()
            ))));
        }
        match x.ndim() {
            0 => Ok(Dynamic::from(views::conj::conj(x))),
            1 => Err(to_rhai(TorchError::runtime(
                "tensor.H is only supported on matrices (2-D tensors). Got 1-D tensor.",
            ))),
            _ => adjoint(x),
        }
    });
    p.fallible("mH", |x: &Tensor| {
        if x.ndim() == 0 {
            crate::ops::warnings::warn_once(
                "tensor_mH_0d",
                "Tensor.mH is deprecated on 0-D tensors. Consider using x.conj().",
            );
        }
        Ok::<_, Box<rhai::EvalAltResult>>(Dynamic::from(
            views::conj::adjoint(x, "tensor.mH").rhai()?,
        ))
    });
    p.fallible("real", |x: &Tensor| real(x).rhai());
    p.fallible("imag", |x: &Tensor| imag(x).rhai());
    p.get("data", |x: &Tensor| {
        let data = x.alias(x.layout());
        data.detach_version();
        data
    });
    p.get("_version", |x: &Tensor| i64::from(x.version().get()));
    p.get("requires_grad", |x: &Tensor| x.requires_grad());
    p.get("is_leaf", |x: &Tensor| x.grad_state().grad_fn.is_none());
    p.get("retains_grad", |x: &Tensor| x.grad_state().retains_grad);
    p.get("is_cpu", |_: &Tensor| true);
    p.get("_base", |x: &Tensor| {
        x.with(|i| i.grad.base.clone())
            .map_or(Dynamic::UNIT, Dynamic::from)
    });
    p.get("grad", |x: &Tensor| match x.grad_state().grad {
        Some(g) => Dynamic::from(g),
        None => Dynamic::UNIT,
    });
}

/// Registers the properties of dtypes.
pub fn register_dtype_properties(engine: &mut Engine) {
    engine.register_get("itemsize", |d: &mut DType| d.itemsize() as i64);
    engine.register_get("is_floating_point", |d: &mut DType| d.is_floating_point());
    engine.register_get("is_complex", |d: &mut DType| d.is_complex());
    engine.register_get("is_signed", |d: &mut DType| d.is_signed());
}

fn t(x: Tensor) -> RhaiResult<Dynamic> {
    Ok(Dynamic::from(x))
}

/// `x.to(...)`: a dtype (positional or `dtype=`), a device `"cpu"`, or another tensor.
fn to(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let mut dtype = a.dtype()?;
    // Every overload ends its positionals with `non_blocking` and `copy`: the trailing bools
    // (or `()`, a slot skipped when a later one was given by keyword and bound into place).
    let flag_count = a
        .pos
        .iter()
        .rev()
        .take(2)
        .take_while(|v| v.is_unit() || v.is_bool())
        .count();
    let (leading, flags) = a.pos.split_at(a.pos.len() - flag_count);
    for v in leading {
        if v.is::<DType>() {
            dtype = Some(to_dtype(v)?);
        } else if let Some(other) = v.clone().try_cast::<Tensor>() {
            dtype = Some(other.dtype());
        } else if !v.is_unit() {
            crate::ops::placement::device("to", v)?;
        }
    }
    let _non_blocking = a.kw("non_blocking");
    let copy = match flags.get(1) {
        Some(c) => c.as_bool().unwrap_or(false),
        None => a.bool_or(usize::MAX, "copy", false)?,
    };
    let format = memory_format("to", a, MemoryFormat::Preserve)?;
    convert(x, dtype.unwrap_or(x.dtype()), format, copy)
}

/// `to()` and the cast methods: `x` itself when nothing changes (same dtype, no `copy`, and
/// a format that is `preserve_format` or the one `x`'s strides suggest), else a copy in
/// `dtype` laid out as `format` asks.
fn convert(x: &Tensor, d: DType, format: MemoryFormat, copy: bool) -> RhaiResult<Dynamic> {
    let same_format =
        format == MemoryFormat::Preserve || MemoryFormat::suggested_by(&x.layout()) == format;
    if d == x.dtype() && !copy && same_format {
        return t(x.clone());
    }
    t(copy_in_format(x, d, format).rhai()?)
}

/// A cast method (`float()`, `x.type(dtype)`) with its `memory_format=`.
fn cast_method(x: &Tensor, d: DType, op: &str, a: &Args) -> RhaiResult<Dynamic> {
    convert(x, d, memory_format(op, a, MemoryFormat::Preserve)?, false)
}

/// `contiguous(memory_format=...)`: `x` itself when its strides are already that format's,
/// else a copy in it (`preserve_format` is refused then, as in PyTorch).
fn contiguous(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let format = memory_format("contiguous", a, MemoryFormat::Contiguous)?;
    if format.is_contiguous(&x.layout()) {
        return t(x.clone());
    }
    if format == MemoryFormat::Preserve {
        return Err(crate::ops::formats::preserve_unsupported());
    }
    t(copy_in_format(x, x.dtype(), format).rhai()?)
}

/// Registers metadata, conversion and copy methods.
pub fn register(r: &mut Registry) {
    r.method("size", 1, |x, a| match a.opt_int(0, "dim")? {
        None => Ok(Dynamic::from(Size(x.sizes()))),
        Some(d) => Ok(Dynamic::from(x.sizes()[existing_dim(x, d)?])),
    });
    r.method("stride", 1, |x, a| match a.opt_int(0, "dim")? {
        None => Ok(Dynamic::from(int_array(&x.strides()))),
        Some(d) => Ok(Dynamic::from(x.strides()[existing_dim(x, d)?])),
    });
    r.method("storage_offset", 0, |x, _| Ok(Dynamic::from(x.offset())));
    r.method("dim", 0, |x, _| Ok(Dynamic::from(x.ndim() as i64)));
    r.method("ndimension", 0, |x, _| Ok(Dynamic::from(x.ndim() as i64)));
    r.method_and_function("numel", 0, |x, _| Ok(Dynamic::from(x.numel())));
    r.method("nelement", 0, |x, _| Ok(Dynamic::from(x.numel())));
    r.method("element_size", 0, |x, _| {
        Ok(Dynamic::from(x.dtype().itemsize() as i64))
    });
    r.method("is_contiguous", 0, |x, a| {
        Ok(Dynamic::from(match a.kw.is_empty() {
            true => x.is_contiguous(),
            false => memory_format("is_contiguous", &a, MemoryFormat::Contiguous)?
                .is_contiguous(&x.layout()),
        }))
    });
    r.method("data_ptr", 0, |x, _| {
        crate::platform::varies::note();
        Ok(Dynamic::from(x.data_ptr() as i64))
    });
    r.method("untyped_storage", 0, |x, _| Ok(Dynamic::from(x.storage())));
    r.method_and_function("is_floating_point", 0, |x, _| {
        Ok(Dynamic::from(x.dtype().is_floating_point()))
    });
    r.method_and_function("is_complex", 0, |x, _| {
        Ok(Dynamic::from(x.dtype().is_complex()))
    });
    r.method_and_function("is_signed", 0, |x, _| {
        Ok(Dynamic::from(x.dtype().is_signed()))
    });
    r.method_and_function("get_device", 0, |_, _| Ok(Dynamic::from(-1_i64)));
    r.method("is_set_to", 1, |x, a| {
        let other = a.tensor(0, "tensor", "is_set_to")?;
        let same = x.storage().is_same(&other.storage()) && x.layout() == other.layout();
        Ok(Dynamic::from(same))
    });
    r.method("_is_view", 0, |x, _| {
        Ok(Dynamic::from(x.with(|i| i.grad.base.is_some())))
    });
    r.method("len", 0, |x, _| {
        if x.ndim() == 0 {
            return Err(crate::ops::errors::type_error("len() of a 0-d tensor"));
        }
        Ok(Dynamic::from(x.sizes()[0]))
    });
    r.method("item", 0, |x, _| {
        if x.numel() != 1 {
            return Err(to_rhai(TorchError::runtime(format!(
                "a Tensor with {} elements cannot be converted to Scalar",
                x.numel()
            ))));
        }
        Ok(scalar_to_dynamic(to_scalars(x).rhai()?[0]))
    });
    r.method("tolist", 0, |x, _| tensor_to_list(x));
    r.method("contiguous", 0, |x, a| contiguous(x, &a));
    r.method_and_function("clone", 0, |x, a| {
        let format = memory_format("clone", &a, MemoryFormat::Preserve)?;
        t(copy_in_format(x, x.dtype(), format).rhai()?)
    });
    r.method("to", 3, |x, a| to(x, &a));
    r.method("type_as", 1, |x, a| {
        let other = a.tensor(0, "other", "type_as")?;
        convert(x, other.dtype(), MemoryFormat::Preserve, false)
    });
    r.method("type", 1, |x, a| match a.get(0, "dtype") {
        None => Ok(Dynamic::from(x.dtype().legacy_tensor_type())),
        Some(d) if d.is_string() => cast_method(x, tensor_type(&d.to_string())?, "type", &a),
        Some(d) => cast_method(x, to_dtype(d)?, "type", &a),
    });
    let casts = [
        ("float", DType::Float32),
        ("double", DType::Float64),
        ("half", DType::Float16),
        ("bfloat16", DType::BFloat16),
        ("int", DType::Int32),
        ("long", DType::Int64),
        ("short", DType::Int16),
        ("char", DType::Int8),
        ("byte", DType::UInt8),
        ("bool", DType::Bool),
        ("cfloat", DType::Complex64),
        ("cdouble", DType::Complex128),
        ("chalf", DType::Complex32),
    ];
    for (name, d) in casts {
        r.method(name, 0, move |x, a| cast_method(x, d, name, &a));
    }
}
