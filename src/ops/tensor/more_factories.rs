//! Factories beside `arange` and `linspace`: `torch.scalar_tensor`, `torch.range` (the
//! deprecated inclusive range), `torch.logspace`, `torch.as_tensor` and `torch.asarray`;
//! `torch.empty_permuted` (uninitialized memory laid out in a given dim order); and
//! `torch.fill` (a filled copy).

use num_complex::Complex64;
use rhai::Dynamic;

use crate::core::creation;
use crate::core::defaults::{default_complex_dtype, default_dtype};
use crate::core::dtype::DType;
use crate::core::error::{Result, TorchError};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::detached;
use crate::core::tensor::record::record_formula;
use crate::ops::args::Args;
use crate::ops::convert::to_scalar;
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::ops::registry::Registry;
use crate::ops::tensor::autograd::finish;
use crate::ops::warnings::warn_once;

/// `torch.empty_permuted(sizes, order)`: uninitialized memory whose dims, outermost to
/// innermost in memory, are `order` (a permutation of the dims), seen in `sizes`' order.
fn empty_permuted(sizes: &[i64], order: &[i64], dtype: DType) -> Result<Tensor> {
    if sizes.len() != order.len() {
        return Err(TorchError::runtime(format!(
            "Number of dimensions in size does not match the length of the physical_layout; i.e. len(size) = {} is not equal to len(physical_layout) = {}",
            sizes.len(),
            order.len()
        )));
    }
    let n = sizes.len();
    let mut seen = vec![false; n];
    for (i, &d) in order.iter().enumerate() {
        let Some(slot) = usize::try_from(d).ok().and_then(|d| seen.get_mut(d)) else {
            return Err(TorchError::runtime(format!(
                "Dimension out of range (expected to be between 0 and {}, but got {d} at index {i}).  NB: negative dims not currently supported; file an issue if you want it.",
                n as i64 - 1
            )));
        };
        if *slot {
            return Err(TorchError::runtime("Duplicate dim not allowed"));
        }
        *slot = true;
    }
    // Strides of the dims in memory order, then given back to each dim (a negative size
    // gets PyTorch's error from the allocation).
    let physical: Vec<i64> = order.iter().map(|&d| sizes[d as usize]).collect();
    let physical_strides = crate::core::layout::contiguous_strides(&physical);
    let mut strides = vec![0; n];
    for (k, &d) in order.iter().enumerate() {
        strides[d as usize] = physical_strides[k];
    }
    creation::uninitialized_dense(sizes, &strides, &physical, dtype)
}

/// A number argument, or the number in a 0-d tensor (`logspace`'s tensor overloads).
pub fn number(a: &Args, i: usize, name: &str, func: &str) -> RhaiResult<Scalar> {
    let v = a.req(i, name, func)?;
    match v.clone().try_cast::<Tensor>() {
        Some(t) if t.ndim() == 0 => Ok(crate::core::copy::to_scalars(&t).rhai()?[0]),
        Some(t) => Err(to_rhai(TorchError::runtime(format!(
            "{func} only supports 0-dimensional start and end tensors, but got {name} with {} dimension(s).",
            t.ndim()
        )))),
        None => to_scalar(v, name),
    }
}

/// `torch.range(start, end, step=1)`: `start + i * step` up to and including `end`, in
/// the default float dtype unless `dtype=` says otherwise.
fn range(start: f64, end: f64, step: f64, dtype: DType) -> Result<Tensor> {
    if step == 0.0 {
        return Err(TorchError::runtime("step must be nonzero"));
    }
    if (step > 0.0 && end < start) || (step < 0.0 && end > start) {
        return Err(TorchError::runtime(
            "upper bound and lower bound inconsistent with step sign",
        ));
    }
    let count = ((end - start) / step).floor() + 1.0;
    if !count.is_finite() || count > i64::MAX as f64 {
        return Err(TorchError::runtime("invalid size, possible overflow?"));
    }
    let n = count as i64;
    crate::core::memory::alloc::contiguous_nbytes(&[n], dtype.itemsize())?;
    let mut values = crate::core::memory::alloc::vec_with_capacity(n as usize)?;
    values.extend((0..n).map(|i| Scalar::Float(start + i as f64 * step)));
    creation::from_scalars(&values, vec![n], dtype)
}

/// Rounds a value to the precision `logspace` steps in for `dtype`.
fn step_rounding(dtype: DType) -> fn(f64) -> f64 {
    match dtype {
        DType::Float32 => |v| v as f32 as f64,
        DType::Float16 => |v| half::f16::from_f64(v).to_f64(),
        DType::BFloat16 => |v| half::bf16::from_f64(v).to_f64(),
        _ => |v| v,
    }
}

/// `torch.logspace(start, end, steps, base=10.0)`: `base ** e` for `steps` exponents from
/// `start` to `end`, stepped as PyTorch's kernel steps them (from the nearer end, in the
/// dtype's precision; integers step in `f64` from their integer ends).
fn logspace(start: Scalar, end: Scalar, steps: i64, base: f64, dtype: DType) -> Result<Tensor> {
    if steps < 0 {
        return Err(TorchError::runtime("number of steps must be non-negative"));
    }
    crate::core::memory::alloc::contiguous_nbytes(&[steps], dtype.itemsize())?;
    let mut values = crate::core::memory::alloc::vec_with_capacity(steps as usize)?;
    let half = steps / 2;
    if steps == 1 {
        // One step is `start` itself.
        let x = match start {
            Scalar::Complex(c) => Scalar::Complex(Complex64::new(base, 0.0).powc(c)),
            s => Scalar::Float(base.powf(s.to_f64())),
        };
        return creation::from_scalars(&[x], vec![1], dtype);
    }
    if dtype.is_complex() {
        let c = |s: Scalar| match s {
            Scalar::Complex(c) => c,
            other => Complex64::new(other.to_f64(), 0.0),
        };
        let (s, e) = (c(start), c(end));
        let step = if steps > 1 {
            (e - s) / (steps - 1) as f64
        } else {
            Complex64::new(0.0, 0.0)
        };
        values.extend((0..steps).map(|i| {
            let x = if i < half {
                s + step * i as f64
            } else {
                e - step * (steps - i - 1) as f64
            };
            Scalar::Complex(Complex64::new(base, 0.0).powc(x))
        }));
    } else {
        let r = step_rounding(dtype);
        let ends = |s: Scalar| {
            if dtype.is_integral() {
                s.to_f64().trunc()
            } else {
                r(s.to_f64())
            }
        };
        let (s, e) = (ends(start), ends(end));
        let step = if steps > 1 {
            r((e - s) / (steps - 1) as f64)
        } else {
            0.0
        };
        values.extend((0..steps).map(|i| {
            let x = if i < half {
                r(s + r(step * i as f64))
            } else {
                r(e - r(step * (steps - i - 1) as f64))
            };
            Scalar::Float(base.powf(x))
        }));
    }
    creation::from_scalars(&values, vec![steps], dtype)
}

/// `torch.fill(input, value)`: a copy of `input` with every element `value` (a number or a
/// 0-d tensor), recorded as `FillBackward`.
fn fill(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let v = a.req(0, "value", "fill")?;
    let (value, node) = match v.clone().try_cast::<Tensor>() {
        Some(t) if t.ndim() != 0 => {
            return Err(to_rhai(TorchError::runtime(format!(
                "fill_ only supports 0-dimension value tensor but got tensor with {} dimensions.",
                t.ndim()
            ))));
        }
        Some(t) => (
            crate::core::copy::to_scalars(&t).rhai()?[0],
            "FillBackward1",
        ),
        None => (to_scalar(v, "value")?, "FillBackward0"),
    };
    if node == "FillBackward0" {
        // A number is converted with PyTorch's check; a 0-d tensor's value is copied.
        crate::core::checked_scalar::check_converts(x.dtype(), value, x.numel() != 1).rhai()?;
    }
    let out = creation::full(&x.sizes(), value, x.dtype()).rhai()?;
    if x.requires_grad() {
        let input = detached(x);
        record_formula(&out, node, &[x], &[], move |_| {
            Ok(vec![Some(Tensor::zeros(input.sizes(), input.dtype())?)])
        });
    }
    Ok(Dynamic::from(out))
}

/// `torch.as_tensor(data, dtype=None)` and `torch.asarray(obj, dtype=None, copy=None,
/// requires_grad=False)`: a tensor is returned itself when nothing asks for a change
/// (`asarray`'s `copy=True` copies; `copy=False` refuses a dtype change), else converted;
/// other data is made into a new tensor as `torch.tensor` makes it.
fn as_tensor(a: &Args, name: &str, asarray: bool) -> RhaiResult<Dynamic> {
    let data = a.req(0, if asarray { "obj" } else { "data" }, name)?;
    let dtype = a.dtype()?;
    let copy = if asarray {
        match a.kw("copy") {
            Some(v) => Some(v.as_bool().map_err(|_| {
                to_rhai(TorchError::type_error(format!(
                    "{name}(): argument 'copy' must be bool, not {}",
                    crate::ops::convert::py_type_name(v)
                )))
            })?),
            None => None,
        }
    } else {
        None
    };
    let requires_grad = asarray && a.bool_or(usize::MAX, "requires_grad", false)?;
    let Some(x) = data.clone().try_cast::<Tensor>() else {
        let t =
            creation::tensor_from_data(&crate::ops::convert::factory_data(data)?, dtype).rhai()?;
        if requires_grad {
            t.with_grad_mut(|g| g.requires_grad = true);
        }
        return Ok(Dynamic::from(t));
    };
    let target = dtype.unwrap_or(x.dtype());
    if copy == Some(false) && target != x.dtype() {
        return Err(to_rhai(TorchError::value(format!(
            "can't alias tensor with dtype '{}' into dtype '{}'.",
            x.dtype().cpp_name(),
            target.cpp_name()
        ))));
    }
    if target == x.dtype() && copy != Some(true) {
        return Ok(Dynamic::from(x));
    }
    let out = crate::core::copy::cast_copy(&detached(&x), target).rhai()?;
    if x.requires_grad() {
        crate::core::tensor::record::record_copy(&out, &x, "ToCopyBackward0");
    }
    Ok(Dynamic::from(out))
}

/// Registers the factories and `torch.fill`.
pub fn register(r: &mut Registry) {
    r.function("empty_permuted", 2, |a| {
        let sizes = crate::ops::convert::to_int_list(a.req(0, "size", "empty_permuted")?, "size")?;
        let order = crate::ops::convert::to_int_list(
            a.req(1, "physical_layout", "empty_permuted")?,
            "physical_layout",
        )?;
        let dtype = a.dtype()?.unwrap_or_else(default_dtype);
        finish(empty_permuted(&sizes, &order, dtype).rhai()?, &a)
    });
    r.function("as_tensor", 2, |a| as_tensor(&a, "as_tensor", false));
    r.function("asarray", 1, |a| as_tensor(&a, "asarray", true));
    r.function("scalar_tensor", 1, |a| {
        let s = to_scalar(a.req(0, "s", "scalar_tensor")?, "s")?;
        let dtype = a.dtype()?.unwrap_or_else(default_dtype);
        if let Scalar::Complex(c) = s
            && !dtype.is_complex()
            && c.im != 0.0
        {
            return Err(to_rhai(TorchError::runtime(format!(
                "value cannot be converted to type {} without overflow",
                crate::core::checked_scalar::cpp_type(dtype)
            ))));
        }
        finish(creation::full(&[], s, dtype).rhai()?, &a)
    });
    r.function("range", 3, |a| {
        warn_once(
            "range_deprecated",
            "torch.range is deprecated and will be removed in a future release because its behavior is inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in [start, end).",
        );
        let start = to_scalar(a.req(0, "start", "range")?, "start")?.to_f64();
        let end = to_scalar(a.req(1, "end", "range")?, "end")?.to_f64();
        let step = match a.get(2, "step") {
            Some(v) if !v.is_unit() => to_scalar(v, "step")?.to_f64(),
            _ => 1.0,
        };
        let dtype = a.dtype()?.unwrap_or_else(default_dtype);
        finish(range(start, end, step, dtype).rhai()?, &a)
    });
    r.function("logspace", 4, |a| {
        let start = number(&a, 0, "start", "logspace")?;
        let end = number(&a, 1, "end", "logspace")?;
        let steps = a.int(2, "steps", "logspace")?;
        let base = match a.get(3, "base") {
            Some(v) if !v.is_unit() => to_scalar(v, "base")?.to_f64(),
            _ => 10.0,
        };
        let complex = matches!(start, Scalar::Complex(_)) || matches!(end, Scalar::Complex(_));
        let dtype = a.dtype()?.unwrap_or_else(|| {
            if complex {
                default_complex_dtype()
            } else {
                default_dtype()
            }
        });
        finish(logspace(start, end, steps, base, dtype).rhai()?, &a)
    });
    r.tensor_function("fill", 1, |x, a| fill(x, &a));
}
