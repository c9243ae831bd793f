//! `softmax`, `log_softmax` and `logsumexp` as methods and `torch` functions.

use rhai::Dynamic;

use crate::core::softmax;
use crate::ops::convert::{to_dtype, to_int, to_int_list};
use crate::ops::errors::IntoRhai;
use crate::ops::registry::Registry;

/// Registers the three.
pub fn register(r: &mut Registry) {
    for (name, log) in [("softmax", false), ("log_softmax", true)] {
        r.method_and_function(name, 2, move |x, a| {
            let dim = a.int(0, "dim", name)?;
            let dtype = match a.get(1, "dtype") {
                Some(v) if !v.is_unit() => Some(to_dtype(v)?),
                _ => None,
            };
            let out = softmax::softmax(x, dim, dtype, log).rhai()?;
            Ok(Dynamic::from(out))
        });
    }
    r.method_and_function("logsumexp", 2, |x, a| {
        let dim = a.req(0, "dim", "logsumexp")?;
        let dims = if dim.is_array() {
            to_int_list(dim, "dim")?
        } else {
            vec![to_int(dim, "dim")?]
        };
        let keepdim = a.bool_or(1, "keepdim", false)?;
        Ok(Dynamic::from(softmax::logsumexp(x, &dims, keepdim).rhai()?))
    });
}
