//! `x.new_zeros(...)`, `new_ones`, `new_empty`, `new_full`, `new_empty_strided` and
//! `new_tensor`: the factories as methods, whose dtype (when not given) is the receiver's.
//! The result is a new contiguous tensor that shares nothing with the receiver and is not
//! recorded by autograd (`requires_grad=` alone decides whether it requires grad).

use crate::core::creation;
use crate::core::dtype::DType;
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::ops::args::Args;
use crate::ops::convert::{factory_data, to_int_list};
use crate::ops::errors::{IntoRhai, RhaiResult};
use crate::ops::registry::Registry;
use crate::ops::tensor::autograd::finish;

/// The dtype of a `new_*` result: `dtype=`, or else the receiver's.
fn dtype_of(x: &Tensor, a: &Args) -> RhaiResult<DType> {
    Ok(a.dtype()?.unwrap_or_else(|| x.dtype()))
}

/// Registers the `new_*` methods.
pub fn register(r: &mut Registry) {
    for (name, value) in [
        ("new_zeros", Scalar::Int(0)),
        ("new_ones", Scalar::Int(1)),
        ("new_empty", Scalar::Int(0)),
    ] {
        r.method(name, 8, move |x, a| {
            let sizes = a.sizes("size")?;
            let dtype = dtype_of(x, &a)?;
            if name == "new_empty" {
                return finish(
                    creation::uninitialized_contiguous(&sizes, dtype).rhai()?,
                    &a,
                );
            }
            finish(creation::full(&sizes, value, dtype).rhai()?, &a)
        });
    }
    r.method("new_full", 2, |x, a| {
        let sizes = to_int_list(a.req(0, "size", "new_full")?, "size")?;
        let value = a.scalar(1, "fill_value", "new_full")?;
        finish(creation::full(&sizes, value, dtype_of(x, &a)?).rhai()?, &a)
    });
    r.method("new_empty_strided", 2, |x, a| {
        let size = to_int_list(a.req(0, "size", "new_empty_strided")?, "size")?;
        let stride = to_int_list(a.req(1, "stride", "new_empty_strided")?, "stride")?;
        finish(
            creation::uninitialized(&size, &stride, dtype_of(x, &a)?).rhai()?,
            &a,
        )
    });
    r.method("new_tensor", 1, |x, a| {
        let data = factory_data(a.req(0, "data", "new_tensor")?)?;
        let dtype = dtype_of(x, &a)?;
        finish(creation::tensor_from_data(&data, Some(dtype)).rhai()?, &a)
    });
}
