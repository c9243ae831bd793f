//! View ops on tensors, each a method and a `torch` function: no copies, PyTorch's errors.

use rhai::{Array, Dynamic};

use crate::core::copy;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::ViewReplay;
use crate::core::views::dtype::{imag, real, view_dtype};
use crate::core::views::split::{self as split, DirectionalSplit, SplitBy};
use crate::core::views::{self, as_strided, diagonal, expand, narrow, select, transpose, unfold};
use crate::ops::args::Args;
use crate::ops::convert::{tensor_array, to_dtype, to_int, to_int_list};
use crate::ops::errors::{IntoRhai, RhaiResult};
use crate::ops::registry::Registry;

fn t(x: Tensor) -> RhaiResult<Dynamic> {
    Ok(Dynamic::from(x))
}

fn list(v: Vec<Tensor>) -> RhaiResult<Dynamic> {
    Ok(Dynamic::from(tensor_array(v)))
}

fn dims_arg(a: &Args, i: usize, name: &str) -> RhaiResult<Vec<i64>> {
    match a.get(i, name) {
        Some(v) => to_int_list(v, name),
        None => Ok(vec![]),
    }
}

fn split_by(v: &Dynamic, name: &str) -> RhaiResult<SplitBy> {
    if v.is::<Array>() {
        Ok(SplitBy::Indices(to_int_list(v, name)?))
    } else {
        Ok(SplitBy::Sections(to_int(v, name)?))
    }
}

/// The sections or indices of `tensor_split` and `hsplit`/`vsplit`/`dsplit`: the first
/// positional, or the keyword of whichever overload was used (the declared signatures have
/// already refused any other keyword).
fn split_arg<'a>(a: &'a Args, func: &str) -> RhaiResult<&'a Dynamic> {
    a.pos
        .first()
        .or_else(|| a.kw("sections"))
        .or_else(|| a.kw("indices"))
        .or_else(|| a.kw("tensor_indices_or_sections"))
        .ok_or_else(|| {
            crate::ops::errors::type_error(format!(
                "{func}() missing 1 required positional arguments: \"sections\""
            ))
        })
}

/// Registers every view op.
pub fn register(r: &mut Registry) {
    r.method("view", 8, |x, a| {
        if let Some(d) = a
            .pos
            .first()
            .filter(|v| v.is::<crate::core::dtype::DType>())
        {
            return t(view_dtype(x, to_dtype(d)?).rhai()?);
        }
        if let Some(d) = a.kw("dtype") {
            return t(view_dtype(x, to_dtype(d)?).rhai()?);
        }
        t(views::view(x, &a.sizes("size")?).rhai()?)
    });
    r.method("view_as", 1, |x, a| {
        t(views::view(x, &a.tensor(0, "other", "view_as")?.sizes()).rhai()?)
    });
    r.method_and_function("reshape", 8, |x, a| {
        t(views::reshape(x, &a.sizes("shape")?).rhai()?)
    });
    r.method("reshape_as", 1, |x, a| {
        t(views::reshape(x, &a.tensor(0, "other", "reshape_as")?.sizes()).rhai()?)
    });
    r.method("expand", 8, |x, a| {
        // `implicit=` only marks an expansion PyTorch made for broadcasting; nothing a
        // script can see depends on it.
        let _implicit = a.kw("implicit");
        t(expand(x, &a.sizes("size")?).rhai()?)
    });
    r.method("expand_as", 1, |x, a| {
        t(expand(x, &a.tensor(0, "other", "expand_as")?.sizes()).rhai()?)
    });
    for name in ["transpose", "swapaxes", "swapdims"] {
        r.method_and_function(name, 2, move |x, a| {
            let d0 = a.int(0, "dim0", name)?;
            let d1 = a.int(1, "dim1", name)?;
            t(transpose(x, d0, d1).rhai()?)
        });
    }
    r.method_and_function("permute", 8, |x, a| {
        t(views::permute(x, &a.sizes("dims")?).rhai()?)
    });
    r.method_and_function("flip", 8, |x, a| {
        if a.pos.is_empty() && a.kw("dims").is_none() {
            return Err(crate::ops::errors::type_error(
                "flip() missing 1 required positional arguments: \"dims\"",
            ));
        }
        t(crate::core::flip::flip(x, &a.sizes("dims")?).rhai()?)
    });
    r.method("repeat", 8, |x, a| {
        if a.pos.is_empty() && a.kw("repeats").is_none() {
            return Err(crate::ops::errors::type_error(
                "repeat() missing 1 required positional arguments: \"repeats\"",
            ));
        }
        t(crate::core::repeat::repeat(x, &a.sizes("repeats")?).rhai()?)
    });
    r.method_and_function("tile", 8, |x, a| {
        t(crate::core::repeat::tile(x, &a.sizes("dims")?).rhai()?)
    });
    for (name, upper) in [("tril", false), ("triu", true)] {
        r.method_and_function(name, 1, move |x, a| {
            let diagonal = a.int_or(0, "diagonal", 0)?;
            t(crate::core::triangle::triangle(x, upper, diagonal).rhai()?)
        });
    }
    r.method_and_function("t", 0, |x, _| t(views::t(x).rhai()?));
    r.method_and_function("adjoint", 0, |x, _| adjoint(x));
    r.method_and_function("conj", 0, |x, _| t(views::conj::conj(x)));
    r.method_and_function("resolve_conj", 0, |x, _| {
        t(views::conj::resolve_conj(x).rhai()?)
    });
    r.method_and_function("conj_physical", 0, |x, _| {
        t(views::conj::conj_physical(x).rhai()?)
    });
    r.method_and_function("is_conj", 0, |x, _| Ok(Dynamic::from(x.is_conj())));
    r.method_and_function("resolve_neg", 0, |x, _| {
        t(views::conj::resolve_neg(x).rhai()?)
    });
    r.method_and_function("is_neg", 0, |x, _| Ok(Dynamic::from(x.is_neg())));
    for name in ["movedim", "moveaxis"] {
        r.method_and_function(name, 2, move |x, a| {
            let src = to_int_list(a.req(0, "source", name)?, "source")?;
            let dst = to_int_list(a.req(1, "destination", name)?, "destination")?;
            t(views::movedim(x, &src, &dst).rhai()?)
        });
    }
    r.method_and_function("narrow", 3, |x, a| {
        let (d, s, l) = (
            a.int(0, "dim", "narrow")?,
            a.int(1, "start", "narrow")?,
            a.int(2, "length", "narrow")?,
        );
        t(narrow(x, d, s, l).rhai()?)
    });
    r.method_and_function("narrow_copy", 3, |x, a| {
        let (d, s, l) = (
            a.int(0, "dim", "narrow_copy")?,
            a.int(1, "start", "narrow_copy")?,
            a.int(2, "length", "narrow_copy")?,
        );
        t(views::narrow_copy(x, d, s, l).rhai()?)
    });
    r.method_and_function("ravel", 0, |x, _| t(views::ravel(x).rhai()?));
    r.method_and_function("select", 2, |x, a| {
        t(select(x, a.int(0, "dim", "select")?, a.int(1, "index", "select")?).rhai()?)
    });
    r.method_and_function("squeeze", 8, |x, a| {
        if a.pos.is_empty() && a.kw("dim").is_none() {
            return t(views::squeeze(x, None).rhai()?);
        }
        let dims = if a.pos.is_empty() {
            dims_arg(&a, 0, "dim")?
        } else {
            a.sizes("dim")?
        };
        let out = views::squeeze(x, Some(&dims)).rhai()?;
        if a.get(0, "dim").is_some_and(|d| d.is::<Array>()) {
            // A tuple of dims is PyTorch's third squeeze overload.
            crate::core::tensor::record::record_view(&out, x, "SqueezeBackward2", || {
                ViewReplay::one(move |p| views::squeeze(p, Some(&dims)))
            });
        }
        t(out)
    });
    r.method_and_function("unsqueeze", 1, |x, a| {
        t(views::unsqueeze(x, a.int(0, "dim", "unsqueeze")?).rhai()?)
    });
    r.method_and_function("diagonal", 3, |x, a| {
        let (o, d1, d2) = (
            a.int_or(0, "offset", 0)?,
            a.int_or(1, "dim1", 0)?,
            a.int_or(2, "dim2", 1)?,
        );
        t(diagonal(x, o, d1, d2).rhai()?)
    });
    r.method("unfold", 3, |x, a| {
        let (d, s, st) = (
            a.int(0, "dimension", "unfold")?,
            a.int(1, "size", "unfold")?,
            a.int(2, "step", "unfold")?,
        );
        t(unfold(x, d, s, st).rhai()?)
    });
    r.method_and_function("as_strided", 3, |x, a| {
        let size = to_int_list(a.req(0, "size", "as_strided")?, "size")?;
        let stride = to_int_list(a.req(1, "stride", "as_strided")?, "stride")?;
        let offset = a.opt_int(2, "storage_offset")?;
        t(as_strided(x, &size, &stride, offset).rhai()?)
    });
    r.method_and_function("unflatten", 2, |x, a| {
        let d = a.int(0, "dim", "unflatten")?;
        let sizes = to_int_list(a.req(1, "sizes", "unflatten")?, "sizes")?;
        t(views::unflatten(x, d, &sizes).rhai()?)
    });
    r.method_and_function("flatten", 2, |x, a| {
        t(views::flatten(x, a.int_or(0, "start_dim", 0)?, a.int_or(1, "end_dim", -1)?).rhai()?)
    });
    r.method_and_function("split", 2, |x, a| {
        let by = a.req(0, "split_size_or_sections", "split")?;
        let dim = a.int_or(1, "dim", 0)?;
        // A `torch.Size` is a tuple of ints in PyTorch: sizes, as a list is.
        if by.is::<Array>() || by.is::<crate::ops::values::Size>() {
            list(split::split_with_sizes(x, &to_int_list(by, "split_size")?, dim).rhai()?)
        } else {
            list(split::split(x, to_int(by, "split_size")?, dim).rhai()?)
        }
    });
    r.method_and_function("split_with_sizes", 2, |x, a| {
        let sizes = to_int_list(a.req(0, "split_sizes", "split_with_sizes")?, "split_sizes")?;
        list(split::split_with_sizes(x, &sizes, a.int_or(1, "dim", 0)?).rhai()?)
    });
    r.method_and_function("chunk", 2, |x, a| {
        list(split::chunk(x, a.int(0, "chunks", "chunk")?, a.int_or(1, "dim", 0)?).rhai()?)
    });
    r.method_and_function("unbind", 1, |x, a| {
        list(split::unbind(x, a.int_or(0, "dim", 0)?).rhai()?)
    });
    r.method_and_function("tensor_split", 2, |x, a| {
        let by = split_arg(&a, "tensor_split")?;
        let dim = a.int_or(1, "dim", 0)?;
        if let Some(idx) = by.clone().try_cast::<Tensor>() {
            if !idx.dtype().is_integral() || idx.dtype() == crate::core::dtype::DType::Bool {
                return Err(crate::ops::errors::to_rhai(crate::core::error::TorchError::runtime(format!(
                    "tensor_split expected tensor_indices_or_sections to have dtype of long, but got {}",
                    idx.dtype().cpp_name()
                ))));
            }
            let values: Vec<i64> = copy::to_scalars(&idx).rhai()?.iter().map(|s| s.to_i64()).collect();
            return if idx.ndim() == 0 {
                list(split::tensor_split_sections(x, values[0], dim).rhai()?)
            } else {
                list(split::tensor_split_indices(x, &values, dim).rhai()?)
            };
        }
        match split_by(by, "indices_or_sections")? {
            SplitBy::Sections(n) => list(split::tensor_split_sections(x, n, dim).rhai()?),
            SplitBy::Indices(i) => list(split::tensor_split_indices(x, &i, dim).rhai()?),
        }
    });
    for (name, which) in [
        ("hsplit", DirectionalSplit::H),
        ("vsplit", DirectionalSplit::V),
        ("dsplit", DirectionalSplit::D),
    ] {
        r.method_and_function(name, 1, move |x, a| {
            let by = split_by(split_arg(&a, name)?, "indices_or_sections")?;
            list(split::directional_split(x, which, by).rhai()?)
        });
    }
    r.tensor_function("real", 0, |x, _| t(real(x).rhai()?));
    r.tensor_function("imag", 0, |x, _| t(imag(x).rhai()?));
    r.function("view_as_real", 1, |a| {
        t(
            crate::core::views::dtype::view_as_real(&a.tensor(0, "input", "view_as_real")?)
                .rhai()?,
        )
    });
    r.function("view_as_complex", 1, |a| {
        t(
            crate::core::views::dtype::view_as_complex(&a.tensor(0, "input", "view_as_complex")?)
                .rhai()?,
        )
    });
    r.method_and_function("detach", 0, |x, _| t(x.alias(x.layout())));
    // `x.detach_()`: the tensor itself leaves the graph (a leaf that needs no gradient).
    // PyTorch refuses it on views (every view op marks its result with its base).
    r.method("detach_", 0, |x, _| {
        if x.grad_state().base.is_some() {
            return Err(crate::ops::errors::to_rhai(crate::core::error::TorchError::runtime(
                "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence detach_() cannot be called on these gradients. To fix this error, please refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.",
            )));
        }
        x.with_grad_mut(|g| {
            g.grad_fn = None;
            g.output_nr = 0;
            g.requires_grad = false;
        });
        t(x.clone())
    });
}

/// `x.adjoint()` / `x.mH`: the conjugate transpose (a plain transpose for real tensors).
pub fn adjoint(x: &Tensor) -> RhaiResult<Dynamic> {
    t(views::conj::adjoint(x, "tensor.adjoint()").rhai()?)
}
