//! `torch.searchsorted`, `torch.bucketize`, `torch.isin` (`core::search`) and
//! `torch.unravel_index`.

use rhai::Dynamic;

use crate::core::error::TorchError;
use crate::core::operand::Arg;
use crate::core::search;
use crate::core::tensor::Tensor;
use crate::ops::args::Args;
use crate::ops::convert::{py_type_name, to_scalar};
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::ops::registry::Registry;
use crate::ops::warnings::warn_once;

/// A tensor or number operand.
fn operand(v: &Dynamic, name: &str) -> RhaiResult<Arg> {
    Ok(match v.clone().try_cast::<Tensor>() {
        Some(t) => Arg::Tensor(t),
        None => Arg::Number(to_scalar(v, name)?),
    })
}

/// PyTorch's one-time warning for a non-contiguous operand of a search (`key` names the
/// warning, `what` the operand).
fn warn_non_contiguous(t: &Tensor, key: &'static str, what: &str) {
    if !t.is_contiguous() {
        warn_once(
            key,
            &format!(
                "torch.searchsorted(): {what} tensor is non-contiguous, this will lower the performance due to extra data copy when converting non-contiguous tensor to contiguous, please use contiguous {what} tensor if possible. This message will only appear once per program."
            ),
        );
    }
}

/// `right` from `right=` and `side=` (which must agree).
fn right_side(a: &Args) -> RhaiResult<bool> {
    let right = a.bool_or(usize::MAX, "right", false)?;
    let Some(side) = a.kw("side").filter(|v| !v.is_unit()) else {
        return Ok(right);
    };
    let side = side.clone().into_string().unwrap_or_default();
    match side.as_str() {
        "left" if right => Err(to_rhai(TorchError::runtime(
            "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True",
        ))),
        "left" => Ok(false),
        "right" => Ok(true),
        other => Err(to_rhai(TorchError::runtime(format!(
            "torch.searchsorted(): side can only be 'left' or 'right' but got {other}"
        )))),
    }
}

fn searchsorted(a: &Args) -> RhaiResult<Dynamic> {
    let boundaries = a.tensor(0, "sorted_sequence", "searchsorted")?;
    let values = operand(a.req(1, "input", "searchsorted")?, "input")?;
    let right = right_side(a)?;
    let out_int32 = a.bool_or(usize::MAX, "out_int32", false)?;
    let sorter = match a.kw("sorter").filter(|v| !v.is_unit()) {
        Some(v) => Some(v.clone().try_cast::<Tensor>().ok_or_else(|| {
            to_rhai(TorchError::type_error(format!(
                "searchsorted(): argument 'sorter' must be Tensor, not {}",
                py_type_name(v)
            )))
        })?),
        None => None,
    };
    if let Arg::Tensor(v) = &values {
        warn_non_contiguous(v, "searchsorted_non_contiguous_values", "input value");
    }
    warn_non_contiguous(
        &boundaries,
        "searchsorted_non_contiguous_boundaries",
        "boundary",
    );
    let out =
        search::searchsorted(&boundaries, &values, right, out_int32, sorter.as_ref()).rhai()?;
    Ok(Dynamic::from(out))
}

fn bucketize(a: &Args) -> RhaiResult<Dynamic> {
    let values = operand(a.req(0, "input", "bucketize")?, "input")?;
    let boundaries = a.tensor(1, "boundaries", "bucketize")?;
    if boundaries.ndim() != 1 {
        return Err(to_rhai(TorchError::runtime(format!(
            "boundaries tensor must be 1 dimension, but got dim({})",
            boundaries.ndim()
        ))));
    }
    let right = a.bool_or(usize::MAX, "right", false)?;
    let out_int32 = a.bool_or(usize::MAX, "out_int32", false)?;
    let out = search::searchsorted(&boundaries, &values, right, out_int32, None).rhai()?;
    Ok(Dynamic::from(out))
}

fn isin(a: &Args) -> RhaiResult<Dynamic> {
    let elements = operand(a.req(0, "elements", "isin")?, "elements")?;
    let test = operand(a.req(1, "test_elements", "isin")?, "test_elements")?;
    let invert = a.bool_or(usize::MAX, "invert", false)?;
    // A hint for PyTorch's algorithm choice; the answer is the same either way.
    a.bool_or(usize::MAX, "assume_unique", false)?;
    Ok(Dynamic::from(
        search::isin(&elements, &test, invert).rhai()?,
    ))
}

/// `torch.unravel_index(indices, shape)`: a tuple of coordinate tensors, one per dim of
/// `shape` (Python's floor division and modulo, so indices out of range wrap).
fn unravel_index(a: &Args) -> RhaiResult<Dynamic> {
    let v = a.req(0, "indices", "unravel_index")?;
    let indices = match v.clone().try_cast::<Tensor>() {
        Some(t) => t,
        None => {
            return Err(to_rhai(TorchError::attribute(format!(
                "'{}' object has no attribute 'is_complex'",
                py_type_name(v)
            ))));
        }
    };
    if !indices.dtype().is_integral() || indices.dtype() == crate::core::dtype::DType::Bool {
        return Err(to_rhai(TorchError::type_error(format!(
            "expected 'indices' to be integer dtype, but got {}",
            indices.dtype()
        ))));
    }
    let s = a.req(1, "shape", "unravel_index")?;
    let shape: Vec<i64> = match s.as_int() {
        Ok(n) => vec![n],
        Err(_) => crate::ops::convert::to_int_list(s, "shape")?,
    };
    if shape.iter().any(|&d| d < 0) {
        let text: Vec<String> = shape.iter().map(i64::to_string).collect();
        let tuple = if text.len() == 1 {
            format!("({},)", text[0])
        } else {
            format!("({})", text.join(", "))
        };
        return Err(to_rhai(TorchError::value(format!(
            "'shape' cannot have negative values, but got {tuple}"
        ))));
    }
    let flat = crate::core::engine::elements::int64_values(&indices).rhai()?;
    let mut coords = Vec::with_capacity(shape.len());
    let mut stride: i64 = 1;
    let mut strides = vec![0i64; shape.len()];
    for (i, &d) in shape.iter().enumerate().rev() {
        strides[i] = stride;
        stride = stride.saturating_mul(d);
    }
    for (i, &d) in shape.iter().enumerate() {
        let values: Vec<i64> = flat
            .iter()
            .map(|&x| {
                let q = x.div_euclid(strides[i].max(1));
                if d == 0 { 0 } else { q.rem_euclid(d) }
            })
            .collect();
        let t = crate::core::engine::elements::from_i64s(&values, indices.sizes()).rhai()?;
        coords.push(Dynamic::from(t));
    }
    Ok(Dynamic::from(coords))
}

/// Registers the searches.
pub fn register(r: &mut Registry) {
    r.function("searchsorted", 2, |a| searchsorted(&a));
    r.function("bucketize", 2, |a| bucketize(&a));
    r.function("isin", 2, |a| isin(&a));
    r.function("unravel_index", 2, |a| unravel_index(&a));
}
