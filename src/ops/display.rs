//! `print`/`to_string`/`to_debug` for every registered type: PyTorch's and Python's reprs.
//! `to_string` and `to_debug` agree, so arrays of tensors print as Python lists do.

use rhai::Engine;

use super::errors::{IntoRhai, RhaiResult};
use super::values::{Device, PyComplex, Size, StorageClass};
use crate::core::dtype::DType;
use crate::core::tensor::Tensor;
use crate::print::tensor_repr::tensor_repr;

/// Registers the reprs.
pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<Tensor>("Tensor");
    engine.register_type_with_name::<DType>("dtype");
    engine.register_type_with_name::<Size>("Size");
    engine.register_type_with_name::<Device>("device");
    engine.register_type_with_name::<PyComplex>("complex");
    engine.register_type_with_name::<StorageClass>("type");
    engine.register_fn("==", |a: StorageClass, b: StorageClass| a == b);
    engine.register_fn("!=", |a: StorageClass, b: StorageClass| a != b);
    // Python's `None` is Rhai's `()`, and prints as `()` (Rhai would print nothing).
    engine.register_fn("to_string", |_: ()| "()".to_string());
    engine.register_fn("print", |_: ()| "()".to_string());
    // Floats print as Python writes them (`1e+20`, `1e-07`, `0.1`), in print, arrays and
    // template strings alike, so lists from `tolist()` read as in a PyTorch session.
    for name in ["print", "to_string", "to_debug"] {
        engine.register_fn(name, |x: rhai::FLOAT| crate::print::number::float_repr(x));
    }
    // `print` and `debug` of a tensor are registered too: Rhai's generic ones would print the
    // type name when the repr fails (a tensor PyTorch cannot print), where Python raises.
    for name in ["to_string", "to_debug", "print", "debug"] {
        engine.register_fn(name, |t: &mut Tensor| -> RhaiResult<String> {
            tensor_repr(t).rhai()
        });
        engine.register_fn(name, |d: &mut DType| d.to_string());
        engine.register_fn(name, |s: &mut Size| s.repr());
        engine.register_fn(name, |d: &mut Device| d.repr());
        engine.register_fn(name, |c: &mut PyComplex| c.repr());
        engine.register_fn(name, |c: &mut StorageClass| c.repr());
    }
    // A string joined to a tensor with `+` (either side) is joined to its repr, and a repr
    // that fails raises: Rhai's own `+` would join the type name instead. (A template
    // string `${t}` goes through Rhai's interpolation, which has no such hook: it still
    // writes `Tensor` when the repr fails.)
    engine.register_fn(
        "+",
        |s: rhai::ImmutableString, t: Tensor| -> RhaiResult<String> {
            Ok(format!("{s}{}", tensor_repr(&t).rhai()?))
        },
    );
    engine.register_fn(
        "+",
        |t: Tensor, s: rhai::ImmutableString| -> RhaiResult<String> {
            Ok(format!("{}{s}", tensor_repr(&t).rhai()?))
        },
    );
}
