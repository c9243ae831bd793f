//! The in-place view methods (`t_`, `transpose_`, `swapaxes_`, `swapdims_`, `squeeze_`,
//! `unsqueeze_`): each gives the tensor itself the layout of its view op and returns it.

use rhai::{Array, Dynamic};

use crate::core::error::Result;
use crate::core::tensor::Tensor;
use crate::core::views::{self, in_place::relayout};
use crate::ops::args::Args;
use crate::ops::convert::to_int_list;
use crate::ops::errors::{IntoRhai, RhaiResult};
use crate::ops::registry::Registry;

/// `x` relaid out by `view` under the node name `name`, returned as the result.
fn apply(
    x: &Tensor,
    name: &str,
    view: impl Fn(&Tensor) -> Result<Tensor> + 'static,
) -> RhaiResult<Dynamic> {
    relayout(x, name, view).rhai()?;
    Ok(Dynamic::from(x.clone()))
}

/// `squeeze_()`, `squeeze_(dim)` or `squeeze_(dims)`, each PyTorch overload with its node.
fn squeeze_(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let Some(dim) = a.get(0, "dim") else {
        return apply(x, "SqueezeBackward3", |v| views::squeeze(v, None));
    };
    if dim.is::<Array>() || a.pos.len() > 1 {
        // A tuple of dims, or several dims given as varargs: the third overload.
        let dims = if a.pos.len() > 1 {
            a.sizes("dim")?
        } else {
            to_int_list(dim, "dim")?
        };
        apply(x, "SqueezeBackward5", move |v| {
            views::squeeze(v, Some(&dims))
        })
    } else {
        let d = a.int(0, "dim", "squeeze_")?;
        apply(x, "SqueezeBackward4", move |v| {
            views::squeeze(v, Some(&[d]))
        })
    }
}

/// Registers the in-place view methods.
pub fn register(r: &mut Registry) {
    r.method("t_", 0, |x, _| {
        apply(x, "TBackward1", |v| views::t_named(v, "t_"))
    });
    for (name, first, second) in [
        ("transpose_", "dim0", "dim1"),
        ("swapdims_", "dim0", "dim1"),
        ("swapaxes_", "axis0", "axis1"),
    ] {
        r.method(name, 2, move |x, a| {
            let (d0, d1) = (a.int(0, first, name)?, a.int(1, second, name)?);
            apply(x, "TransposeBackward1", move |v| {
                views::transpose(v, d0, d1)
            })
        });
    }
    r.method("squeeze_", 8, |x, a| squeeze_(x, &a));
    r.method("unsqueeze_", 1, |x, a| {
        let d = a.int(0, "dim", "unsqueeze_")?;
        apply(x, "UnsqueezeBackward1", move |v| views::unsqueeze(v, d))
    });
}
