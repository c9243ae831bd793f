//! The view companions that write through a view of a copy: `slice_scatter`,
//! `select_scatter`, `diagonal_scatter`, `as_strided_scatter` (a copy of the tensor with
//! `src` copied into the view the others' arguments name, PyTorch's size check first), and
//! the in-place `fill_diagonal_`.

use rhai::Dynamic;

use crate::core::copy::{clone_tensor, copy_};
use crate::core::error::{Result, TorchError};
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::{BackwardOp, detached};
use crate::core::tensor::record::{record_in_place, record_without_formula};
use crate::core::views;
use crate::script::args::Args;
use crate::script::convert::{to_int_list, to_scalar};
use crate::script::errors::{IntoRhai, RhaiResult};
use crate::script::registry::Registry;

/// A copy of `x` with `src` written into the view `view_of` makes of it.
fn scatter_through(
    x: &Tensor,
    src: &Tensor,
    node: &str,
    op: &str,
    view_of: impl Fn(&Tensor) -> Result<Tensor>,
) -> RhaiResult<Dynamic> {
    let out = clone_tensor(&detached(x)).rhai()?;
    let view = view_of(&out).rhai()?;
    if view.sizes() != src.sizes() {
        return Err(crate::script::errors::to_rhai(TorchError::runtime(
            format!(
                "expected src to have a size equal to the slice of self. src size = {:?}, slice size = {:?}",
                src.sizes(),
                view.sizes()
            ),
        )));
    }
    copy_(&view, &detached(src)).rhai()?;
    if x.requires_grad() || src.requires_grad() {
        record_without_formula(&out, node, op, &[x, src]);
    }
    Ok(Dynamic::from(out))
}

fn slice_scatter(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let src = a.tensor(0, "src", "slice_scatter")?;
    let dim = a.int_or(1, "dim", 0)?;
    let start = a.opt_int(2, "start")?;
    let end = a.opt_int(3, "end")?;
    let step = a.int_or(4, "step", 1)?;
    scatter_through(x, &src, "SliceScatterBackward0", "slice_scatter", |o| {
        crate::core::index::slice_along(o, dim, start, end, step)
    })
}

fn select_scatter(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let src = a.tensor(0, "src", "select_scatter")?;
    let dim = a.int(1, "dim", "select_scatter")?;
    let index = a.int(2, "index", "select_scatter")?;
    scatter_through(x, &src, "SelectScatterBackward0", "select_scatter", |o| {
        views::select(o, dim, index)
    })
}

fn diagonal_scatter(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let src = a.tensor(0, "src", "diagonal_scatter")?;
    let offset = a.int_or(1, "offset", 0)?;
    let dim1 = a.int_or(2, "dim1", 0)?;
    let dim2 = a.int_or(3, "dim2", 1)?;
    scatter_through(
        x,
        &src,
        "DiagonalScatterBackward0",
        "diagonal_scatter",
        |o| views::diagonal(o, offset, dim1, dim2),
    )
}

fn as_strided_scatter(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let src = a.tensor(0, "src", "as_strided_scatter")?;
    let size = to_int_list(a.req(1, "size", "as_strided_scatter")?, "size")?;
    let stride = to_int_list(a.req(2, "stride", "as_strided_scatter")?, "stride")?;
    let offset = a.opt_int(3, "storage_offset")?;
    scatter_through(
        x,
        &src,
        "AsStridedScatterBackward0",
        "as_strided_scatter",
        |o| views::as_strided(o, &size, &stride, offset),
    )
}

/// `x.fill_diagonal_(value, wrap=False)`.
fn fill_diagonal_(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let value = to_scalar(a.req(0, "fill_value", "fill_diagonal_")?, "fill_value")?;
    let wrap = a.bool_or(1, "wrap", false)?;
    crate::core::index_ops::fill_diagonal_(x, value, wrap).rhai()?;
    record_in_place(x, "FillBackward1", &[], BackwardOp::Overwritten);
    Ok(Dynamic::from(x.clone()))
}

/// Registers the view companions.
pub fn register(r: &mut Registry) {
    r.method_and_function("slice_scatter", 5, |x, a| slice_scatter(x, &a));
    r.method_and_function("select_scatter", 3, |x, a| select_scatter(x, &a));
    r.method_and_function("diagonal_scatter", 4, |x, a| diagonal_scatter(x, &a));
    r.method_and_function("as_strided_scatter", 4, |x, a| as_strided_scatter(x, &a));
    r.method("fill_diagonal_", 2, |x, a| fill_diagonal_(x, &a));
}
