//! Conversions between Rhai's `Dynamic` values and core values, with PyTorch's `TypeError`s.

use rhai::{Array, Dynamic, FLOAT, INT, Map};

use super::errors::{RhaiResult, type_error};
use super::values::{PyComplex, Size};
use crate::core::copy::to_scalars;
use crate::core::creation::Data;
use crate::core::dtype::DType;
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;

/// The tag (`Dynamic::tag`) of an array that a Python front passed for a tuple: ops read
/// it as any array, messages name it `tuple` as Python does.
pub const TUPLE_TAG: u8 = 1;

/// Whether `v` is an array passed for a Python tuple (`TUPLE_TAG`).
pub fn is_tuple(v: &Dynamic) -> bool {
    v.is::<Array>() && i64::from(v.tag()) == i64::from(TUPLE_TAG)
}

/// A short name of a value's type, as Python would name it in a message.
pub fn py_type_name(v: &Dynamic) -> String {
    if v.is::<INT>() {
        "int".into()
    } else if v.is::<FLOAT>() {
        "float".into()
    } else if v.is::<bool>() {
        "bool".into()
    } else if is_tuple(v) {
        "tuple".into()
    } else if v.is::<Array>() {
        "list".into()
    } else if v.is::<Tensor>() {
        "Tensor".into()
    } else if v.is::<Map>() {
        "dict".into()
    } else if v.is_unit() {
        "NoneType".into()
    } else if v.is_string() {
        "str".into()
    } else if v.is::<crate::core::dtype::DType>() {
        "torch.dtype".into()
    } else if let Some(r) = v.read_lock::<super::return_tuple::ReturnTuple>() {
        format!("torch.return_types.{}", r.kind)
    } else {
        v.type_name()
            .rsplit("::")
            .next()
            .unwrap_or("object")
            .to_string()
    }
}

/// A Python number (bool, int, float, complex, or a one-element tensor), if `v` is one.
pub fn as_scalar(v: &Dynamic) -> Option<Scalar> {
    if let Some(i) = v.clone().try_cast::<INT>() {
        Some(Scalar::Int(i))
    } else if let Some(f) = v.clone().try_cast::<FLOAT>() {
        Some(Scalar::Float(f))
    } else if let Some(b) = v.clone().try_cast::<bool>() {
        Some(Scalar::Bool(b))
    } else {
        v.clone()
            .try_cast::<PyComplex>()
            .map(|c| Scalar::Complex(c.0))
    }
}

/// A number argument, or a `TypeError` naming the argument.
pub fn to_scalar(v: &Dynamic, what: &str) -> RhaiResult<Scalar> {
    if let Some(s) = as_scalar(v) {
        return Ok(s);
    }
    if let Some(t) = v.clone().try_cast::<Tensor>().filter(|t| t.numel() == 1) {
        return Ok(to_scalars(&t).map_err(super::errors::to_rhai)?[0]);
    }
    Err(type_error(format!(
        "{what} must be a number, not {}",
        py_type_name(v)
    )))
}

/// An integer argument (`bool` counts, as in Python).
pub fn to_int(v: &Dynamic, what: &str) -> RhaiResult<i64> {
    // Read in place: these run for every size of every view call.
    if let Ok(i) = v.as_int() {
        return Ok(i);
    }
    if let Ok(b) = v.as_bool() {
        return Ok(b as i64);
    }
    if let Some(t) = v
        .clone()
        .try_cast::<Tensor>()
        .filter(|t| t.numel() == 1 && t.dtype().is_integral())
    {
        return Ok(to_scalars(&t).map_err(super::errors::to_rhai)?[0].to_i64());
    }
    Err(type_error(format!(
        "{what} must be int, not {}",
        py_type_name(v)
    )))
}

/// A float argument (ints convert).
pub fn to_float(v: &Dynamic, what: &str) -> RhaiResult<f64> {
    match as_scalar(v) {
        Some(Scalar::Complex(_)) | None => Err(type_error(format!(
            "{what} must be a real number, not {}",
            py_type_name(v)
        ))),
        Some(s) => Ok(s.to_f64()),
    }
}

/// A list of ints: an array, a `Size`, or (for variadic calls) the ints themselves.
pub fn to_int_list(v: &Dynamic, what: &str) -> RhaiResult<Vec<i64>> {
    if let Ok(i) = v.as_int() {
        return Ok(vec![i]);
    }
    if let Some(s) = v.read_lock::<Size>() {
        return Ok(s.0.clone());
    }
    if let Some(a) = v.read_lock::<Array>() {
        return a.iter().map(|x| to_int(x, what)).collect();
    }
    Ok(vec![to_int(v, what)?])
}

/// Sizes given either as one list/`Size` or as several ints (`view(2, 8)`, `view([2, 8])`).
pub fn sizes_from(args: &[Dynamic], what: &str) -> RhaiResult<Vec<i64>> {
    match args {
        [one] => to_int_list(one, what),
        many => many.iter().map(|x| to_int(x, what)).collect(),
    }
}

/// A dtype argument.
pub fn to_dtype(v: &Dynamic) -> RhaiResult<DType> {
    v.clone().try_cast::<DType>().ok_or_else(|| {
        type_error(format!(
            "dtype must be torch.dtype, not {}",
            py_type_name(v)
        ))
    })
}

/// A tensor argument.
pub fn to_tensor(v: &Dynamic, what: &str) -> RhaiResult<Tensor> {
    v.clone()
        .try_cast::<Tensor>()
        .ok_or_else(|| type_error(format!("{what} must be Tensor, not {}", py_type_name(v))))
}

/// Nested data for `torch.tensor`.
pub fn to_data(v: &Dynamic) -> RhaiResult<Data> {
    if let Ok(a) = v.as_array_ref() {
        return Ok(Data::List(
            a.iter().map(to_data).collect::<RhaiResult<_>>()?,
        ));
    }
    if let Some(t) = v.read_lock::<Tensor>() {
        return tensor_to_data(&t);
    }
    match as_scalar(v) {
        Some(s) => Ok(Data::Scalar(s)),
        None => Err(type_error(format!(
            "Could not infer dtype of {}",
            py_type_name(v)
        ))),
    }
}

/// The data of a factory (`torch.tensor`, `as_tensor`, `new_tensor`): as `to_data`, but a
/// tensor inside a list is a Python number, as PyTorch reads it (its one element; more is
/// PyTorch's `ValueError`, so `torch.tensor([t1, t2])` of rows asks for `torch.stack`).
pub fn factory_data(v: &Dynamic) -> RhaiResult<Data> {
    fn element(v: &Dynamic) -> RhaiResult<Data> {
        if let Ok(a) = v.as_array_ref() {
            return Ok(Data::List(
                a.iter().map(element).collect::<RhaiResult<_>>()?,
            ));
        }
        if let Some(t) = v.read_lock::<Tensor>() {
            if t.numel() != 1 {
                return Err(super::errors::to_rhai(
                    crate::core::error::TorchError::value(
                        "only one element tensors can be converted to Python scalars",
                    ),
                ));
            }
            if t.requires_grad() {
                super::warnings::warn(
                    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\nConsider using tensor.detach() first. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:820.)",
                );
            }
            return Ok(Data::Scalar(
                to_scalars(&t).map_err(super::errors::to_rhai)?[0],
            ));
        }
        to_data(v)
    }
    if v.is_array() { element(v) } else { to_data(v) }
}

/// A tensor's values as nested lists, built with `leaf` for each element and `list` for each
/// row (`torch.tensor` data and `tolist()` share this walk). Built from the innermost rows
/// out, one pass per dimension, so a tensor of any number of dimensions needs no recursion.
/// `what` names the caller in the `MemoryError` for more values than a script may hold.
fn nested<T>(
    t: &Tensor,
    what: &str,
    leaf: &dyn Fn(Scalar) -> T,
    list: &dyn Fn(Vec<T>) -> T,
) -> RhaiResult<T> {
    super::limits::check_nested(what, nested_value_count(&t.sizes()))?;
    let values = to_scalars(t).map_err(super::errors::to_rhai)?;
    let sizes = t.sizes();
    // rows[d]: the rows at depth `d`, one per index into the dimensions before it (sizes
    // are non-negative and their product is the element count, which fits).
    let mut rows = Vec::with_capacity(sizes.len());
    let mut count = 1usize;
    for &n in &sizes {
        rows.push(count);
        count *= n as usize;
    }
    let mut items: Vec<T> = values.into_iter().map(leaf).collect();
    for d in (0..sizes.len()).rev() {
        let (rows, width) = (rows[d], sizes[d] as usize);
        let mut rest = items.into_iter();
        items = (0..rows)
            .map(|_| list(rest.by_ref().take(width).collect()))
            .collect();
    }
    Ok(items.pop().expect("one row is left at depth 0"))
}

fn tensor_to_data(t: &Tensor) -> RhaiResult<Data> {
    nested(t, "torch.tensor()", &Data::Scalar, &Data::List)
}

/// A core scalar as the Rhai value Python's `item()`/`tolist()` would give.
pub fn scalar_to_dynamic(s: Scalar) -> Dynamic {
    match s {
        Scalar::Bool(b) => Dynamic::from(b),
        Scalar::Int(i) => Dynamic::from(i),
        Scalar::UInt(u) => Dynamic::from(u as f64),
        Scalar::Float(f) => Dynamic::from(f),
        Scalar::Complex(c) => Dynamic::from(PyComplex(c)),
    }
}

/// How many values `tolist()` makes: the elements, plus one list per index into the dims
/// before each dim (a `(2**40, 0)` tensor has no elements but 2**40 empty lists).
fn nested_value_count(sizes: &[i64]) -> usize {
    let mut rows = 1usize;
    let mut total = 0usize;
    for &n in sizes {
        total = total.saturating_add(rows);
        rows = rows.saturating_mul(usize::try_from(n).unwrap_or(usize::MAX));
    }
    total.saturating_add(rows)
}

/// `tolist()`: nested arrays of Python numbers.
pub fn tensor_to_list(t: &Tensor) -> RhaiResult<Dynamic> {
    nested(t, "tolist()", &scalar_to_dynamic, &|items: Vec<Dynamic>| {
        Dynamic::from(items.into_iter().collect::<Array>())
    })
}

/// Ints as a Rhai array.
pub fn int_array(v: &[i64]) -> Array {
    v.iter().map(|&x| Dynamic::from(x)).collect()
}

/// Tensors as a Rhai array.
pub fn tensor_array(v: Vec<Tensor>) -> Array {
    v.into_iter().map(Dynamic::from).collect()
}
