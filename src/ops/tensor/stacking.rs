//! `torch` functions that shape or combine lists of tensors, composed as PyTorch composes
//! them of views and `cat` (so values, layouts and nodes follow): `atleast_1d/2d/3d`,
//! `hstack`, `vstack`/`row_stack`, `dstack`, `column_stack`, `broadcast_tensors`,
//! `meshgrid`, `cartesian_prod`, `block_diag`; and `tril_indices`/`triu_indices`.

use rhai::{Array, Dynamic};

use crate::core::broadcast::broadcast_shapes;
use crate::core::error::{Result, TorchError};
use crate::core::join;
use crate::core::tensor::Tensor;
use crate::core::views;
use crate::ops::args::Args;
use crate::ops::convert::{py_type_name, tensor_array};
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai, type_error};
use crate::ops::registry::Registry;

/// The tensors of a `*tensors` call: loose arguments, or one list (or tuple) of them.
fn tensors_of(a: &Args) -> RhaiResult<Vec<Tensor>> {
    let items: Vec<Dynamic> = match a.pos.first().and_then(|v| v.clone().try_cast::<Array>()) {
        Some(list) if a.pos.len() == 1 => list,
        _ => a.pos.iter().cloned().collect(),
    };
    items
        .into_iter()
        .enumerate()
        .map(|(k, v)| {
            v.clone().try_cast::<Tensor>().ok_or_else(|| {
                type_error(format!(
                    "expected Tensor as element {k} in argument 0, but got {}",
                    py_type_name(&v)
                ))
            })
        })
        .collect()
}

/// The list argument of `hstack` and friends (`cat`'s reading, with its errors).
fn tensor_list(a: &Args, func: &str) -> RhaiResult<Vec<Tensor>> {
    super::join::tensor_list(a.req(0, "tensors", func)?, func)
}

/// `atleast_Nd` of one tensor: unchanged when it has `n` dims or more.
fn at_least(t: &Tensor, n: usize) -> Result<Tensor> {
    let sizes = t.sizes();
    match (n, sizes.len()) {
        (_, d) if d >= n => Ok(t.clone()),
        (1, 0) => views::reshape(t, &[1]),
        (2, 0) => views::reshape(t, &[1, 1]),
        (2, 1) => views::unsqueeze(t, 0),
        (3, 0) => views::reshape(t, &[1, 1, 1]),
        (3, 1) => views::unsqueeze(&views::unsqueeze(t, 0)?, 2),
        (_, _) => views::unsqueeze(t, 2),
    }
}

/// One tensor for one argument, a tuple for several (or for a list).
fn one_or_tuple(a: &Args, outs: Vec<Tensor>) -> Dynamic {
    let listed = a.pos.len() == 1 && a.pos[0].is::<Array>();
    match outs.as_slice() {
        [one] if !listed => Dynamic::from(one.clone()),
        _ => Dynamic::from(tensor_array(outs)),
    }
}

fn refuse_empty(func: &str, tensors: &[Tensor]) -> RhaiResult<()> {
    if tensors.is_empty() {
        return Err(to_rhai(TorchError::runtime(format!(
            "{func} expects a non-empty TensorList"
        ))));
    }
    Ok(())
}

/// `cat` of each tensor made at least `n`-d, along `dim`.
fn stacked(a: &Args, func: &str, n: usize, dim: impl Fn(&[Tensor]) -> i64) -> RhaiResult<Dynamic> {
    let tensors = tensor_list(a, func)?;
    refuse_empty(func, &tensors)?;
    let shaped: Vec<Tensor> = tensors
        .iter()
        .map(|t| at_least(t, n))
        .collect::<Result<_>>()
        .rhai()?;
    let d = dim(&shaped);
    Ok(Dynamic::from(join::cat(&shaped, d).rhai()?))
}

/// `torch.meshgrid(*tensors, indexing=)`: grids of the 1-d (or 0-d) inputs, each an
/// expanded view; `xy` swaps the first two dims of every grid.
fn meshgrid(tensors: &[Tensor], xy: bool) -> Result<Vec<Tensor>> {
    for t in tensors {
        if t.ndim() > 1 {
            return Err(TorchError::runtime(format!(
                "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a tensor of {} dimensions",
                t.ndim()
            )));
        }
    }
    if let Some(first) = tensors.first()
        && tensors.iter().any(|t| t.dtype() != first.dtype())
    {
        return Err(TorchError::runtime(
            "torch.meshgrid: Expected all tensors in the tensor list to have the same dtype",
        ));
    }
    let swap = xy && tensors.len() >= 2;
    let mut order: Vec<usize> = (0..tensors.len()).collect();
    if swap {
        order.swap(0, 1);
    }
    let shape: Vec<i64> = order.iter().map(|&i| tensors[i].numel()).collect();
    let mut grids = Vec::with_capacity(tensors.len());
    for (i, t) in tensors.iter().enumerate() {
        let at = order.iter().position(|&k| k == i).unwrap_or(i);
        let mut view_shape = vec![1i64; shape.len()];
        view_shape[at] = -1;
        let v = views::view(t, &view_shape)?;
        grids.push(views::expand(&v, &shape)?);
    }
    Ok(grids)
}

/// `torch.tril_indices(row, col, offset)` (`upper`: `triu_indices`): the coordinates of
/// the lower (upper) triangle, row by row, as a `[2, n]` tensor.
fn triangle_indices(a: &Args, upper: bool) -> RhaiResult<Dynamic> {
    let func = if upper {
        "triu_indices"
    } else {
        "tril_indices"
    };
    let row = a.int(0, "row", func)?;
    let col = a.int(1, "col", func)?;
    let offset = a.int_or(2, "offset", 0)?;
    if row < 0 {
        return Err(to_rhai(TorchError::runtime(format!(
            "row must be non-negative, got{row}"
        ))));
    }
    if col < 0 {
        return Err(to_rhai(TorchError::runtime(format!(
            "col must be non-negative, got{col}"
        ))));
    }
    // Row `i` keeps the columns `[from, to)`; only rows that keep some are visited, so
    // the work is bounded by the result, whose size is checked before it is allocated.
    let span = |i: i64| -> (i64, i64) {
        let (i, col, offset) = (i as i128, col as i128, offset as i128);
        let (from, to) = if upper {
            ((i + offset).clamp(0, col), col)
        } else {
            (0, (i + offset + 1).clamp(0, col))
        };
        (from as i64, to.max(from) as i64)
    };
    let first = if upper {
        0
    } else {
        (-(offset as i128)).clamp(0, row as i128) as i64
    };
    let last = if upper {
        (col as i128 - offset as i128).clamp(0, row as i128) as i64
    } else {
        row
    };
    // The count in closed form (the rows may be many): sums of arithmetic series.
    let series = |a: i128, b: i128, c: i128| -> i128 {
        // The sum of `i + c` for `i` in `[a, b)`.
        if b <= a {
            0
        } else {
            (b - a) * (a + b - 1) / 2 + (b - a) * c
        }
    };
    let (first_w, last_w, col_w, off) = (first as i128, last as i128, col as i128, offset as i128);
    let count: i128 = if upper {
        let full = (-off).clamp(0, last_w);
        full * col_w + (last_w - full) * (col_w - off) - series(full, last_w, 0)
    } else {
        let k = (col_w - off - 1).clamp(first_w, last_w);
        series(first_w, k, off + 1) + (last_w - k) * col_w
    };
    let n = usize::try_from(count)
        .map_err(|_| to_rhai(TorchError::runtime(format!("{func}: too many indices"))))?;
    let mut coords =
        crate::core::memory::alloc::vec_with_capacity::<i64>(n.saturating_mul(2)).rhai()?;
    // With no columns every row keeps none (and the rows may be many): nothing to visit.
    let last = if n == 0 { first } else { last };
    for i in first..last {
        let (f, t) = span(i);
        coords.extend(std::iter::repeat_n(i, (t - f) as usize));
    }
    for i in first..last {
        let (f, t) = span(i);
        coords.extend(f..t);
    }
    let out = crate::core::engine::elements::from_i64s(&coords, vec![2, n as i64]).rhai()?;
    if a.bool_or(usize::MAX, "requires_grad", false)? {
        return Err(to_rhai(TorchError::runtime(
            "Only Tensors of floating point and complex dtype can require gradients",
        )));
    }
    let dtype = a.dtype()?.unwrap_or(crate::core::dtype::DType::Int64);
    if !dtype.is_integral() || dtype == crate::core::dtype::DType::Bool {
        return Err(to_rhai(TorchError::not_implemented(format!(
            "\"{func}\" not implemented for '{}'",
            dtype.cpp_name()
        ))));
    }
    if dtype == crate::core::dtype::DType::Int64 {
        return Ok(Dynamic::from(out));
    }
    Ok(Dynamic::from(
        crate::core::copy::cast_copy(&out, dtype).rhai()?,
    ))
}

/// `torch.block_diag(*tensors)`: the tensors (as matrices) along the diagonal of a zero
/// matrix of their promoted dtype.
fn block_diag(tensors: &[Tensor]) -> Result<Tensor> {
    let mut mats = Vec::with_capacity(tensors.len());
    for (i, t) in tensors.iter().enumerate() {
        mats.push(match t.ndim() {
            0 => views::reshape(t, &[1, 1])?,
            1 => views::reshape(t, &[1, t.numel()])?,
            2 => t.clone(),
            n => {
                return Err(TorchError::runtime(format!(
                    "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has {n} dimensions"
                )));
            }
        });
    }
    let mut dtype = match mats.first() {
        Some(m) => m.dtype(),
        None => crate::core::defaults::default_dtype(),
    };
    for m in &mats {
        dtype = crate::core::promotion::promote_types(dtype, m.dtype())?;
    }
    // No tensors: PyTorch's empty result has one row.
    let rows: i64 = if mats.is_empty() {
        1
    } else {
        mats.iter().map(|m| m.sizes()[0]).sum()
    };
    let cols: i64 = mats.iter().map(|m| m.sizes()[1]).sum();
    let out = Tensor::zeros(vec![rows, cols], dtype)?;
    let (mut r, mut c) = (0, 0);
    for m in &mats {
        let (h, w) = (m.sizes()[0], m.sizes()[1]);
        let block = views::narrow(&views::narrow(&out, 0, r, h)?, 1, c, w)?;
        crate::core::copy::copy_(&block, &crate::core::tensor::graph::detached(m))?;
        r += h;
        c += w;
    }
    Ok(out)
}

/// Registers the list-shaping functions.
pub fn register(r: &mut Registry) {
    for (name, n) in [("atleast_1d", 1), ("atleast_2d", 2), ("atleast_3d", 3)] {
        r.function(name, 8, move |a| {
            let tensors = tensors_of(&a)?;
            let outs: Vec<Tensor> = tensors
                .iter()
                .map(|t| at_least(t, n))
                .collect::<Result<_>>()
                .rhai()?;
            Ok(one_or_tuple(&a, outs))
        });
    }
    r.function("hstack", 1, |a| {
        stacked(&a, "hstack", 1, |ts| if ts[0].ndim() == 1 { 0 } else { 1 })
    });
    for name in ["vstack", "row_stack"] {
        r.function(name, 1, move |a| stacked(&a, name, 2, |_| 0));
    }
    r.function("dstack", 1, |a| stacked(&a, "dstack", 3, |_| 2));
    r.function("column_stack", 1, |a| {
        let tensors = tensor_list(&a, "column_stack")?;
        refuse_empty("column_stack", &tensors)?;
        let cols: Vec<Tensor> = tensors
            .iter()
            .map(|t| {
                if t.ndim() <= 1 {
                    views::reshape(t, &[t.numel(), 1])
                } else {
                    Ok(t.clone())
                }
            })
            .collect::<Result<_>>()
            .rhai()?;
        Ok(Dynamic::from(join::cat(&cols, 1).rhai()?))
    });
    r.function("broadcast_tensors", 8, |a| {
        let tensors = tensors_of(&a)?;
        let mut shape: Vec<i64> = Vec::new();
        for t in &tensors {
            shape = broadcast_shapes(&shape, &t.sizes()).rhai()?;
        }
        let outs: Vec<Tensor> = tensors
            .iter()
            .map(|t| views::expand(t, &shape))
            .collect::<Result<_>>()
            .rhai()?;
        Ok(Dynamic::from(tensor_array(outs)))
    });
    r.function("meshgrid", 8, |a| {
        let tensors = tensors_of(&a)?;
        let indexing = match a.kw("indexing") {
            Some(v) if !v.is_unit() => v.clone().into_string().unwrap_or_default(),
            _ => {
                crate::ops::warnings::warn_once(
                    "meshgrid_indexing",
                    "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                );
                "ij".to_string()
            }
        };
        if indexing != "ij" && indexing != "xy" {
            return Err(to_rhai(TorchError::runtime(format!(
                "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {indexing}"
            ))));
        }
        if tensors.is_empty() {
            return Err(to_rhai(TorchError::runtime(
                "torch.meshgrid expects a non-empty TensorList",
            )));
        }
        Ok(Dynamic::from(tensor_array(meshgrid(&tensors, indexing == "xy").rhai()?)))
    });
    r.function("cartesian_prod", 8, |a| {
        let tensors = tensors_of(&a)?;
        if tensors.len() == 1 {
            return Ok(Dynamic::from(tensors[0].clone()));
        }
        let grids = meshgrid(&tensors, false).rhai()?;
        let flat: Vec<Tensor> = grids
            .iter()
            .map(|g| views::reshape(g, &[g.numel()]))
            .collect::<Result<_>>()
            .rhai()?;
        Ok(Dynamic::from(join::stack(&flat, 1).rhai()?))
    });
    r.function("block_diag", 8, |a| {
        let tensors = tensors_of(&a)?;
        let out = block_diag(&tensors).rhai()?;
        let inputs: Vec<&Tensor> = tensors.iter().collect();
        let float = out.dtype().is_floating_point() || out.dtype().is_complex();
        if float && tensors.iter().any(Tensor::requires_grad) {
            // Each input's gradient is its block of the output's.
            let shapes: Vec<(Vec<i64>, crate::core::dtype::DType)> =
                tensors.iter().map(|t| (t.sizes(), t.dtype())).collect();
            let formula = move |g: &Tensor| {
                let (mut r, mut c) = (0, 0);
                let mut grads = Vec::with_capacity(shapes.len());
                for (sizes, dtype) in &shapes {
                    let (h, w) = match sizes.len() {
                        0 => (1, 1),
                        1 => (1, sizes[0]),
                        _ => (sizes[0], sizes[1]),
                    };
                    let block = views::narrow(&views::narrow(g, 0, r, h)?, 1, c, w)?;
                    let block =
                        views::reshape(&crate::core::copy::contiguous_copy(&block)?, sizes)?;
                    grads.push(Some(crate::core::autograd::cast_grad(&block, *dtype)?));
                    r += h;
                    c += w;
                }
                Ok(grads)
            };
            crate::core::tensor::record::record_formula(
                &out,
                "BlockDiagBackward0",
                &inputs,
                &[],
                formula,
            );
        }
        Ok(Dynamic::from(out))
    });
    r.function("tril_indices", 3, |a| triangle_indices(&a, false));
    r.function("triu_indices", 3, |a| triangle_indices(&a, true));
}
