//! `torch.gradient` (`core::numeric_gradient`): its `spacing` read as one number, a list
//! of numbers (one step per dim) or a list of coordinate tensors, and `dim` as one dim or
//! a list.

use rhai::{Array, Dynamic};

use crate::core::numeric_gradient::{Spacing, gradient};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::ops::args::Args;
use crate::ops::convert::{tensor_array, to_int_list, to_scalar, to_tensor};
use crate::ops::errors::{IntoRhai, RhaiResult};
use crate::ops::registry::Registry;

/// The `spacing` argument (`None`: unit steps).
fn spacing(a: &Args) -> RhaiResult<Spacing> {
    let Some(v) = a.kw("spacing").filter(|v| !v.is_unit()) else {
        return Ok(Spacing::Step(Scalar::Int(1)));
    };
    let Some(items) = v.read_lock::<Array>().map(|items| items.clone()) else {
        return Ok(Spacing::Step(to_scalar(v, "spacing")?));
    };
    if items.first().is_some_and(|i| i.is::<Tensor>()) {
        let coordinates = items
            .iter()
            .map(|c| to_tensor(c, "spacing"))
            .collect::<RhaiResult<Vec<Tensor>>>()?;
        return Ok(Spacing::Coordinates(coordinates));
    }
    let steps = items
        .iter()
        .map(|s| to_scalar(s, "spacing"))
        .collect::<RhaiResult<Vec<Scalar>>>()?;
    Ok(Spacing::Steps(steps))
}

/// Registers `torch.gradient`.
pub fn register(r: &mut Registry) {
    r.tensor_function("gradient", 0, |x, a| {
        let spacing = spacing(&a)?;
        let dims = match a.kw("dim").filter(|v| !v.is_unit()) {
            Some(d) => Some(to_int_list(d, "dim")?),
            None => None,
        };
        let edge_order = a
            .kw("edge_order")
            .map_or(Ok(1), |e| crate::ops::convert::to_int(e, "edge_order"))?;
        let parts = gradient(x, &spacing, dims.as_deref(), edge_order).rhai()?;
        Ok(Dynamic::from(tensor_array(parts)))
    });
}
