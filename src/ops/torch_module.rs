//! The `torch` module: creation functions, dtype constants, numbers, print options and
//! default dtype.

use rhai::{Dynamic, FLOAT, Module};

use super::args::Args;
use super::convert::{factory_data, to_dtype, to_float, to_int, to_int_list, to_scalar};
use super::errors::{IntoRhai, RhaiResult, to_rhai, type_error};
use super::formats;
use super::registry::Registry;
use super::storage::buffers::{BufferKind, PyBuffer};
use super::storage::typed::TypedStorage;
use super::values::PyComplex;
use crate::core::copy;
use crate::core::creation::{self, scalar_dtype};
use crate::core::defaults::{default_dtype, set_default_dtype};
use crate::core::dtype::{ALL_DTYPES, DTYPE_ALIASES, DType};
use crate::core::error::TorchError;
use crate::core::memory::storage::Storage;
use crate::core::memory_format::MemoryFormat;
use crate::core::promotion::{Operand, promote_types, result_type};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::print::options::{PrintOptionsUpdate, apply};

pub use super::tensor::autograd::finish;

fn filled(name: &str, a: &Args, value: Scalar) -> RhaiResult<Dynamic> {
    let sizes = a.sizes("size")?;
    if name == "zeros" && sizes.iter().any(|&s| s < 0) {
        return Err(to_rhai(TorchError::runtime(
            "zeros: Dimension size must be non-negative.",
        )));
    }
    let dtype = a.dtype()?.unwrap_or_else(default_dtype);
    if name == "empty" {
        let format = formats::memory_format(name, a, MemoryFormat::Contiguous)?;
        if format != MemoryFormat::Contiguous {
            crate::core::memory::alloc::check_sizes(&sizes).rhai()?;
            let strides = format.strides(&sizes).rhai()?;
            let t = creation::uninitialized_dense(&sizes, &strides, &sizes, dtype).rhai()?;
            return finish(t, a);
        }
        return finish(creation::uninitialized_contiguous(&sizes, dtype).rhai()?, a);
    }
    finish(creation::full(&sizes, value, dtype).rhai()?, a)
}

/// `*_like`: same sizes, and the same strides when the input is dense (preserve format).
fn like(name: &str, a: &Args, value: Option<Scalar>) -> RhaiResult<Dynamic> {
    let x = a.tensor(0, "input", name)?;
    let value = match value {
        Some(v) => v,
        None => a.scalar(1, "fill_value", name)?,
    };
    let t = empty_like(name, &x, a)?;
    if name == "empty_like" {
        creation::fill_uninitialized(&t.storage(), 0, t.dtype()).rhai()?;
    } else {
        copy::fill_(&t, value).rhai()?;
    }
    finish(t, a)
}

/// A new zeroed tensor shaped like `x` for the `*_like` factories of `op`, in the dtype and
/// `memory_format=` the call gives (by default `x`'s dtype, and PyTorch's preserve format:
/// `x`'s strides when it is dense, else dense in the order of its strides).
pub fn empty_like(op: &str, x: &Tensor, a: &Args) -> RhaiResult<Tensor> {
    let dtype = a.dtype()?.unwrap_or(x.dtype());
    let format = formats::memory_format(op, a, MemoryFormat::Preserve)?;
    let l = format.layout_from(&x.layout()).rhai()?;
    creation::empty_strided(&l.sizes, &l.strides, dtype).rhai()
}

fn arange(a: &Args) -> RhaiResult<Dynamic> {
    let (start, end, step) = match a.pos.len() {
        0 => (
            Scalar::Int(0),
            a.scalar(usize::MAX, "end", "arange")?,
            Scalar::Int(1),
        ),
        1 => (
            Scalar::Int(0),
            a.scalar(0, "end", "arange")?,
            Scalar::Int(1),
        ),
        _ => (
            a.scalar(0, "start", "arange")?,
            a.scalar(1, "end", "arange")?,
            a.get(2, "step")
                .map(|v| to_scalar(v, "step"))
                .transpose()?
                .unwrap_or(Scalar::Int(1)),
        ),
    };
    finish(creation::arange(start, end, step, a.dtype()?).rhai()?, a)
}

fn frombuffer(a: &Args) -> RhaiResult<Dynamic> {
    let buf = a.req(0, "buffer", "frombuffer")?;
    let Some(buffer) = buf.clone().try_cast::<PyBuffer>() else {
        return Err(to_rhai(TorchError::value(
            "object does not implement Python buffer protocol.",
        )));
    };
    let dtype = a
        .dtype()?
        .ok_or_else(|| type_error("frombuffer() missing required keyword argument 'dtype'"))?;
    if buffer.kind == BufferKind::Bytes {
        crate::core::why::note_text(
            "The given buffer is not writable",
            crate::core::why::Case::ReadOnlyBuffer,
        );
        super::warnings::warn_once(
            "frombuffer_readonly",
            "The given buffer is not writable, and PyTorch does not support non-writable tensors. This means you can write to the underlying (supposedly non-writable) buffer using the tensor. You may want to copy the buffer to protect its data or make it writable before converting it to a tensor. This type of warning will be suppressed for the rest of this program.",
        );
    }
    let count = a.int_or(usize::MAX, "count", -1)?;
    let offset = a.int_or(usize::MAX, "offset", 0)?;
    finish(
        creation::frombuffer(&buffer.storage, dtype, count, offset).rhai()?,
        a,
    )
}

fn set_printoptions(a: &Args) -> RhaiResult<Dynamic> {
    let int = |name: &str| -> RhaiResult<Option<i64>> {
        match a.kw(name) {
            None => Ok(None),
            Some(v) if v.is::<FLOAT>() => {
                Ok(Some(if v.as_float().unwrap_or(0.0) == f64::INFINITY {
                    i64::MAX
                } else {
                    v.as_float().unwrap_or(0.0) as i64
                }))
            }
            Some(v) => to_int(v, name).map(Some),
        }
    };
    let update = PrintOptionsUpdate {
        precision: int("precision")?,
        threshold: int("threshold")?,
        edgeitems: int("edgeitems")?,
        linewidth: int("linewidth")?,
        profile: a.kw("profile").map(|v| v.to_string()),
        sci_mode: a.kw("sci_mode").map(|v| v.as_bool().unwrap_or(false)),
    };
    apply(&update).map_err(|m| to_rhai(TorchError::runtime(m)))?;
    Ok(Dynamic::UNIT)
}

/// `torch.tensor(storage)`: a one-dimensional tensor over the storage's own bytes (no copy,
/// as PyTorch). A typed storage must hold `dtype` (default: the default dtype); an untyped
/// one is read as `dtype` (default: int64), as many whole elements as its bytes hold.
/// `None` when `data` is not a storage.
fn tensor_over_storage(data: &Dynamic, dtype: Option<DType>) -> RhaiResult<Option<Tensor>> {
    let (storage, dtype) = if let Some(typed) = data.read_lock::<TypedStorage>() {
        let wanted = dtype.unwrap_or_else(crate::core::defaults::default_dtype);
        if typed.dtype != wanted {
            return Err(to_rhai(TorchError::runtime(format!(
                "Expected a Storage of type {} or an UntypedStorage, but got {}",
                wanted.cpp_name(),
                typed.dtype.cpp_name()
            ))));
        }
        (typed.storage.clone(), wanted)
    } else if let Some(untyped) = data.read_lock::<Storage>() {
        (untyped.clone(), dtype.unwrap_or(DType::Int64))
    } else {
        return Ok(None);
    };
    let n = (storage.nbytes() / dtype.itemsize()) as i64;
    let layout = crate::core::layout::Layout::contiguous(vec![n]);
    Ok(Some(Tensor::from_parts(storage, dtype, layout)))
}

/// Registers the module's functions.
pub fn register(r: &mut Registry) {
    // `torch.from_file`: a tensor over a file map (`UntypedStorage::from_file`'s machinery).
    r.function("from_file", 4, |a| {
        let name = a.req(0, "filename", "from_file")?.to_string();
        let shared = a.bool_or(1, "shared", false)?;
        let size = a.int_or(2, "size", 0)?;
        let dtype = a
            .dtype()?
            .unwrap_or_else(crate::core::defaults::default_dtype);
        let nbytes =
            crate::core::memory::alloc::contiguous_nbytes(&[size.max(0)], dtype.itemsize())
                .rhai()?;
        let storage = crate::core::memory::mapped::from_file(&name, shared, nbytes).rhai()?;
        let n = (storage.nbytes() / dtype.itemsize()) as i64;
        let t = crate::core::tensor::Tensor::from_parts(
            storage,
            dtype,
            crate::core::layout::Layout::contiguous(vec![n]),
        );
        finish(t, &a)
    });
    r.function("set_num_threads", 1, |a| {
        let v = a.pos.first().cloned().unwrap_or(Dynamic::UNIT);
        let n = super::settings_api::thread_count(&v, "set_num_threads")?;
        crate::core::kernels::pair::set_threads(usize::try_from(n).unwrap_or(usize::MAX));
        Ok(Dynamic::UNIT)
    });
    r.function("get_num_threads", 0, |_| {
        Ok(Dynamic::from(crate::core::kernels::pair::threads() as i64))
    });
    r.function("tensor", 2, |a| {
        let data = a.req(0, "data", "tensor")?;
        if data.is::<Tensor>() {
            super::warnings::warn_each_time(
                "tensor-copy-construct",
                "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
            );
        }
        if let Some(t) = tensor_over_storage(data, a.dtype()?)? {
            return finish(t, &a);
        }
        finish(
            creation::tensor_from_data(&factory_data(data)?, a.dtype()?).rhai()?,
            &a,
        )
    });
    r.function("zeros", 8, |a| filled("zeros", &a, Scalar::Int(0)));
    r.function("ones", 8, |a| filled("ones", &a, Scalar::Int(1)));
    r.function("empty", 8, |a| filled("empty", &a, Scalar::Int(0)));
    r.function("full", 3, |a| {
        let sizes = to_int_list(a.req(0, "size", "full")?, "size")?;
        let value = a.scalar(1, "fill_value", "full")?;
        let dtype = a.dtype()?.unwrap_or_else(|| scalar_dtype(value));
        finish(creation::full(&sizes, value, dtype).rhai()?, &a)
    });
    r.function("zeros_like", 2, |a| {
        like("zeros_like", &a, Some(Scalar::Int(0)))
    });
    r.function("ones_like", 2, |a| {
        like("ones_like", &a, Some(Scalar::Int(1)))
    });
    r.function("empty_like", 2, |a| {
        like("empty_like", &a, Some(Scalar::Int(0)))
    });
    r.function("full_like", 3, |a| like("full_like", &a, None));
    r.function("empty_strided", 3, |a| {
        let size = to_int_list(a.req(0, "size", "empty_strided")?, "size")?;
        let stride = to_int_list(a.req(1, "stride", "empty_strided")?, "stride")?;
        let dtype = a.dtype()?.unwrap_or_else(default_dtype);
        finish(creation::uninitialized(&size, &stride, dtype).rhai()?, &a)
    });
    r.function("arange", 4, |a| arange(&a));
    r.function("linspace", 4, |a| {
        // Numbers or 0-d tensors.
        let endpoint = |i: usize, name: &str| match super::tensor::more_factories::number(
            &a, i, name, "linspace",
        )? {
            Scalar::Complex(_) => Err(to_rhai(TorchError::not_implemented(
                "tensh does not implement linspace with complex endpoints yet (PyTorch has it)",
            ))),
            s => Ok(s.to_f64()),
        };
        let start = endpoint(0, "start")?;
        let end = endpoint(1, "end")?;
        let steps = a.int(2, "steps", "linspace")?;
        let dtype = a.dtype()?.unwrap_or_else(default_dtype);
        finish(creation::linspace(start, end, steps, dtype).rhai()?, &a)
    });
    r.function("eye", 3, |a| {
        let n = a.int(0, "n", "eye")?;
        let m = a.opt_int(1, "m")?.unwrap_or(n);
        let dtype = a.dtype()?.unwrap_or_else(default_dtype);
        finish(creation::eye(n, m, dtype).rhai()?, &a)
    });
    r.function("frombuffer", 2, |a| frombuffer(&a));
    r.function("complex", 2, |a| {
        let (re, im) = (a.req(0, "real", "complex")?, a.req(1, "imag", "complex")?);
        if let (Some(x), Some(y)) = (
            re.clone().try_cast::<Tensor>(),
            im.clone().try_cast::<Tensor>(),
        ) {
            return Ok(Dynamic::from(complex_tensor(&x, &y)?));
        }
        Ok(Dynamic::from(PyComplex(num_complex::Complex64::new(
            to_float(re, "real")?,
            to_float(im, "imag")?,
        ))))
    });
    r.function("set_printoptions", 1, |a| set_printoptions(&a));
    r.function("set_default_dtype", 1, |a| {
        set_default_dtype(to_dtype(a.req(0, "d", "set_default_dtype")?)?).rhai()?;
        Ok(Dynamic::UNIT)
    });
    r.function("get_default_dtype", 0, |_| {
        Ok(Dynamic::from(default_dtype()))
    });
    r.function("result_type", 2, |a| {
        let operand = |i: usize, name: &str| -> RhaiResult<Operand> {
            let v = a.req(i, name, "result_type")?;
            Ok(match v.clone().try_cast::<Tensor>() {
                Some(t) if t.ndim() == 0 => Operand::ZeroDim(t.dtype()),
                Some(t) => Operand::Dimensioned(t.dtype()),
                None => Operand::Number(to_scalar(v, name)?),
            })
        };
        let operands = [operand(0, "tensor")?, operand(1, "other")?];
        Ok(Dynamic::from(result_type(&operands).rhai()?))
    });
    r.function("promote_types", 2, |a| {
        let x = to_dtype(a.req(0, "type1", "promote_types")?)?;
        let y = to_dtype(a.req(1, "type2", "promote_types")?)?;
        Ok(Dynamic::from(promote_types(x, y).rhai()?))
    });
    r.function("broadcast_shapes", 8, |a| {
        let mut shapes = Vec::with_capacity(a.pos.len());
        for v in &a.pos {
            shapes.push(to_int_list(v, "shape")?);
        }
        let out = crate::core::broadcast::broadcast_shapes_of(&shapes).rhai()?;
        Ok(Dynamic::from(super::values::Size(out)))
    });
    r.function("Size", 1, |a| {
        let sizes = match a.get(0, "sizes") {
            Some(v) => to_int_list(v, "sizes")?,
            None => vec![],
        };
        Ok(Dynamic::from(super::values::Size(sizes)))
    });
    r.function("device", 2, |a| {
        Ok(Dynamic::from(super::placement::make(&a)?))
    });
    r.function("is_tensor", 1, |a| {
        Ok(Dynamic::from(a.req(0, "obj", "is_tensor")?.is::<Tensor>()))
    });
    r.function("is_storage", 1, |a| {
        Ok(Dynamic::from(
            a.req(0, "obj", "is_storage")?
                .is::<crate::core::memory::storage::Storage>(),
        ))
    });
}

/// `torch.complex(real, imag)` for two real tensors of the same float dtype.
fn complex_tensor(re: &Tensor, im: &Tensor) -> RhaiResult<Tensor> {
    let d = re.dtype();
    if d != im.dtype() {
        return Err(to_rhai(TorchError::runtime(format!(
            "Expected object of scalar type {} but got scalar type {} for second argument",
            d.cpp_name(),
            im.dtype().cpp_name()
        ))));
    }
    let Some(c) = d.to_complex().filter(|_| d.is_floating_point()) else {
        return Err(to_rhai(TorchError::not_implemented(format!(
            "Expected both inputs to be Half, Float or Double tensors but got {} and {}",
            d.cpp_name(),
            im.dtype().cpp_name()
        ))));
    };
    let shape = crate::core::views::broadcast_shapes(&re.sizes(), &im.sizes()).rhai()?;
    let out = creation::full(&shape, Scalar::Int(0), c).rhai()?;
    let parts = crate::core::views::dtype::view_as_real(&out).rhai()?;
    copy::copy_(&crate::core::views::select(&parts, -1, 0).rhai()?, re).rhai()?;
    copy::copy_(&crate::core::views::select(&parts, -1, 1).rhai()?, im).rhai()?;
    Ok(out)
}

/// Adds the dtype constants and numbers to the module.
pub fn register_constants(torch: &mut Module) {
    for d in ALL_DTYPES {
        torch.set_var(d.short_name(), d);
    }
    for (name, d) in DTYPE_ALIASES {
        torch.set_var(name, d);
    }
    torch.set_var("nan", f64::NAN);
    torch.set_var("inf", f64::INFINITY);
    torch.set_var("pi", std::f64::consts::PI);
    torch.set_var("e", std::f64::consts::E);
}
