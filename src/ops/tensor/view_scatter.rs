//! The view companions that write through a view of a copy: `slice_scatter`,
//! `select_scatter`, `diagonal_scatter`, `as_strided_scatter` (a copy of the tensor with
//! `src` copied into the view the others' arguments name, PyTorch's size check first), and
//! the in-place `fill_diagonal_`.

use rhai::Dynamic;

use crate::core::autograd::cast_grad;
use crate::core::copy::{clone_tensor, copy_};
use crate::core::copy::{contiguous_copy, fill_};
use crate::core::error::{Result, TorchError};
use crate::core::layout::Layout;
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::{BackwardOp, detached};
use crate::core::tensor::record::{record_formula, record_write};
use crate::core::views;
use crate::ops::args::Args;
use crate::ops::convert::{to_int_list, to_scalar};
use crate::ops::errors::{IntoRhai, RhaiResult};
use crate::ops::registry::Registry;

/// Which part of the gradient `x` gets from a view scatter.
#[derive(Clone, Copy)]
enum Region {
    /// All but the view's region (which `src` replaced).
    Outside,
    /// The view's region alone: PyTorch's `as_strided_scatter` gives `x` this.
    Inside,
}

/// A copy of `x` with `src` written into the view `view_of` makes of it.
fn scatter_through(
    x: &Tensor,
    src: &Tensor,
    node: &str,
    input_keeps: Region,
    view_of: impl Fn(&Tensor) -> Result<Tensor> + 'static,
) -> RhaiResult<Dynamic> {
    let out = clone_tensor(&detached(x)).rhai()?;
    let view = view_of(&out).rhai()?;
    if view.sizes() != src.sizes() {
        return Err(crate::ops::errors::to_rhai(TorchError::runtime(format!(
            "expected src to have a size equal to the slice of self. src size = {:?}, slice size = {:?}",
            src.sizes(),
            view.sizes()
        ))));
    }
    copy_(&view, &detached(src)).rhai()?;
    let float = out.dtype().is_floating_point() || out.dtype().is_complex();
    if float && (x.requires_grad() || src.requires_grad()) {
        let (like, src_dtype) = (detached(&out), src.dtype());
        let formula = move |g: &Tensor| {
            // The gradient laid out as the result was, the view's region taken out for
            // `src` and zeroed for `x`.
            let grad = clone_tensor(&like)?;
            copy_(&grad, g)?;
            let region = view_of(&grad)?;
            let to_src = cast_grad(&contiguous_copy(&region)?, src_dtype)?;
            let to_input = match input_keeps {
                Region::Outside => {
                    fill_(&region, Scalar::Int(0))?;
                    grad
                }
                Region::Inside => {
                    let only = Tensor::zeros(grad.sizes(), grad.dtype())?;
                    copy_(&view_of(&only)?, &region)?;
                    only
                }
            };
            Ok(vec![Some(to_input), Some(to_src)])
        };
        record_formula(&out, node, &[x, src], &[], formula);
    }
    Ok(Dynamic::from(out))
}

fn slice_scatter(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let src = a.tensor(0, "src", "slice_scatter")?;
    let dim = a.int_or(1, "dim", 0)?;
    let start = a.opt_int(2, "start")?;
    let end = a.opt_int(3, "end")?;
    let step = a.int_or(4, "step", 1)?;
    scatter_through(
        x,
        &src,
        "SliceScatterBackward0",
        Region::Outside,
        move |o| crate::core::index::slice_along(o, dim, start, end, step),
    )
}

fn select_scatter(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let src = a.tensor(0, "src", "select_scatter")?;
    let dim = a.int(1, "dim", "select_scatter")?;
    let index = a.int(2, "index", "select_scatter")?;
    scatter_through(
        x,
        &src,
        "SelectScatterBackward0",
        Region::Outside,
        move |o| views::select(o, dim, index),
    )
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
        Region::Outside,
        move |o| views::diagonal(o, offset, dim1, dim2),
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
        Region::Inside,
        move |o| views::as_strided(o, &size, &stride, offset),
    )
}

/// `x.fill_diagonal_(value, wrap=False)`.
fn fill_diagonal_(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let value = to_scalar(a.req(0, "fill_value", "fill_diagonal_")?, "fill_value")?;
    let wrap = a.bool_or(1, "wrap", false)?;
    crate::core::index_ops::fill_diagonal_(x, value, wrap).rhai()?;
    // As in PyTorch, a fill of the diagonal view, then (`wrap`, a tall matrix) of the
    // diagonal that starts again below it: the filled values' gradient is zero.
    let layout = x.layout();
    let step: i64 = layout.strides.iter().sum();
    let sizes = x.sizes();
    let n = sizes.iter().copied().min().unwrap_or(0);
    let region = |len: i64, offset: i64| Layout {
        sizes: vec![len].into(),
        strides: vec![step].into(),
        offset,
    };
    if x.dtype().is_floating_point() || x.dtype().is_complex() {
        record_write(
            x,
            &region(n, layout.offset),
            "FillBackward0",
            &[],
            BackwardOp::Overwritten,
        );
        let (rows, cols) = (sizes[0], sizes.get(1).copied().unwrap_or(0));
        if wrap && sizes.len() == 2 && rows > cols + 1 {
            let numel = rows * cols;
            let more = (numel + cols) / (cols + 1) - n;
            let start = layout.offset + layout.strides[0] * (cols + 1);
            record_write(
                x,
                &region(more, start),
                "FillBackward0",
                &[],
                BackwardOp::Overwritten,
            );
        }
    }
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
