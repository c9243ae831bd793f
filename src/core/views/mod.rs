//! View ops: each computes a new layout from the old one and returns an alias of the same
//! storage, never copying. Errors are PyTorch's, word for word. `dtype` has the views that
//! reinterpret the bytes as another dtype, `split` the ops that cut a tensor into pieces.

pub mod conj;
pub mod dtype;
pub mod in_place;
pub mod split;

pub use super::broadcast::{broadcast_layout, broadcast_shapes};
use super::error::{Result, TorchError, wrap_dim};
use super::layout::{Layout, fmt_list, infer_size, view_strides};
use super::tensor::Tensor;
use super::tensor::graph::ViewReplay;
use super::tensor::record::{record_copy, record_marked_view, record_view};
use crate::core::layout::Dims;

/// `t`'s storage under `layout`, recorded for autograd as the view op `name` (PyTorch's
/// node name). Every view op makes its result here, so every view keeps its gradient; an
/// op built on another (`t` on `transpose`) records again under its own name, which
/// replaces the inner record.
///
/// `replay` makes the op itself with its arguments, for the gradient (see [`ViewReplay`]);
/// it is called only when autograd tracks `t`.
///
/// The layout is checked here (`Layout::checked`), so no view op can make a tensor whose
/// span or element count overflows, whatever numbers a script passed.
fn derived<R: Fn(&Tensor) -> Result<Tensor> + 'static>(
    t: &Tensor,
    layout: Layout,
    name: &str,
    replay: impl FnOnce() -> R,
) -> Result<Tensor> {
    let out = t.view_alias(layout.checked(t.dtype().itemsize())?);
    if t.requires_grad() {
        record_marked_view(&out, t, name, Some(ViewReplay::one(replay())));
    }
    Ok(out)
}

/// Records `out`, made by an op named `name` (replayed by `replay`) from `t` through
/// other view ops, under that name.
fn renamed<R: Fn(&Tensor) -> Result<Tensor> + 'static>(
    out: Tensor,
    t: &Tensor,
    name: &str,
    replay: impl FnOnce() -> R,
) -> Tensor {
    record_view(&out, t, name, || ViewReplay::one(replay()));
    out
}

/// `t.view(shape)`: no copy, or PyTorch's error when the strides don't allow it.
pub fn view(t: &Tensor, shape: &[i64]) -> Result<Tensor> {
    let l = t.layout();
    let sizes = infer_size(shape, l.numel())?;
    let strides = view_strides(&l.sizes, &l.strides, &sizes).ok_or_else(|| {
        super::why::note(
            TorchError::runtime(
                "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
            ),
            super::why::Case::View {
                tensor: t.clone(),
                shape: shape.to_vec(),
            },
        )
    })?;
    derived(
        t,
        Layout {
            sizes: sizes.into(),
            strides: strides.into(),
            offset: l.offset,
        },
        "ViewBackward0",
        || {
            let shape = shape.to_vec();
            move |p: &Tensor| view(p, &shape)
        },
    )
}

/// `t.reshape(shape)`: a view when possible, else a contiguous copy.
pub fn reshape(t: &Tensor, shape: &[i64]) -> Result<Tensor> {
    let l = t.layout();
    let sizes = infer_size(shape, l.numel())?;
    match view_strides(&l.sizes, &l.strides, &sizes) {
        Some(strides) => derived(
            t,
            Layout {
                sizes: sizes.into(),
                strides: strides.into(),
                offset: l.offset,
            },
            "ViewBackward0",
            || {
                let shape = shape.to_vec();
                move |p: &Tensor| reshape(p, &shape)
            },
        ),
        None => {
            // PyTorch's `_unsafe_view` of a contiguous copy: a new tensor, no view of the
            // copy (its `_base` is `None`).
            let c = super::copy::contiguous_copy(t)?;
            let out = c.alias(Layout::contiguous(sizes));
            record_copy(&out, t, "UnsafeViewBackward0");
            Ok(out)
        }
    }
}

/// `t.ravel()`: a flat view of `t` when it is contiguous, else a flat view of a
/// contiguous copy (`CloneBackward0` then `ViewBackward0`, as PyTorch records it).
pub fn ravel(t: &Tensor) -> Result<Tensor> {
    if t.layout().is_contiguous() {
        return view(t, &[-1]);
    }
    let c = super::copy::contiguous_copy(t)?;
    record_copy(&c, t, "CloneBackward0");
    view(&c, &[-1])
}

/// `t.narrow_copy(dim, start, length)`: the entries `narrow` would view, in a new
/// contiguous tensor.
pub fn narrow_copy(t: &Tensor, dim: i64, start: i64, length: i64) -> Result<Tensor> {
    let v = narrow(t, dim, start, length)?;
    let out = super::copy::contiguous_copy(&v)?;
    record_copy(&out, &v, "NarrowCopyBackward0");
    Ok(out)
}

/// `t.expand(sizes)`, where -1 keeps a dimension.
pub fn expand(t: &Tensor, sizes: &[i64]) -> Result<Tensor> {
    let l = t.layout();
    let (n, m) = (sizes.len(), l.ndim());
    if n < m {
        return Err(TorchError::runtime(format!(
            "expand({}{{{}}}, size={}): the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
            t.dtype().legacy_type_name(),
            fmt_list(&l.sizes),
            fmt_list(sizes),
            n,
            m
        )));
    }
    // A 0-d tensor is expanded by a strided view of the sizes as given, whose element
    // count PyTorch computes first: a negative size with no 0 beside it overflows it.
    if m == 0 && sizes.iter().any(|&s| s < 0) && !sizes.contains(&0) {
        return Err(TorchError::runtime(
            "numel: integer multiplication overflow",
        ));
    }
    let mut new_sizes = vec![0; n];
    let mut new_strides = vec![0; n];
    for i in (0..n).rev() {
        let offset = n - 1 - i;
        let dim = m as i64 - 1 - offset as i64;
        let target = sizes[i];
        if dim < 0 {
            if target < 0 {
                return Err(TorchError::runtime(format!(
                    "The expanded size of the tensor ({target}) isn't allowed in a leading, non-existing dimension {i}"
                )));
            }
            // A new dim of size 1 continues the next dim's stride, as PyTorch's geometry
            // gives it; one that repeats has stride 0, and so has every dim expanded from
            // a 0-dim tensor.
            new_sizes[i] = target;
            new_strides[i] = match (target, new_sizes.get(i + 1)) {
                _ if m == 0 => 0,
                (1, Some(&size)) => size * new_strides[i + 1],
                (1, None) => 1,
                _ => 0,
            };
            continue;
        }
        let (size, stride) = (l.sizes[dim as usize], l.strides[dim as usize]);
        let target = if target == -1 { size } else { target };
        if size != target {
            if size != 1 {
                return Err(TorchError::runtime(format!(
                    "The expanded size of the tensor ({}) must match the existing size ({}) at non-singleton dimension {}.  Target sizes: {}.  Tensor sizes: {}",
                    target,
                    size,
                    i,
                    fmt_list(sizes),
                    fmt_list(&l.sizes)
                )));
            }
            new_sizes[i] = target;
            new_strides[i] = 0;
        } else {
            new_sizes[i] = size;
            new_strides[i] = stride;
        }
    }
    super::memory::alloc::checked_numel(&new_sizes)?;
    derived(
        t,
        Layout {
            sizes: new_sizes.into(),
            strides: new_strides.into(),
            offset: l.offset,
        },
        "ExpandBackward0",
        || {
            let sizes = sizes.to_vec();
            move |p: &Tensor| expand(p, &sizes)
        },
    )
}

/// The `torch.LongTensor`-style name PyTorch prints in some messages (`Long` for int64),
/// without its `Tensor` ending.
pub fn legacy_type_prefix(t: &Tensor) -> String {
    format!("torch.{}", t.dtype().cpp_name())
}

/// `t.transpose(d0, d1)`.
pub fn transpose(t: &Tensor, d0: i64, d1: i64) -> Result<Tensor> {
    let mut l = t.layout();
    let n = l.ndim();
    let (a, b) = (wrap_dim(d0, n)?, wrap_dim(d1, n)?);
    let replay = || move |p: &Tensor| transpose(p, d0, d1);
    if n == 0 {
        return derived(t, l, "TransposeBackward0", replay);
    }
    l.sizes.swap(a, b);
    l.strides.swap(a, b);
    derived(t, l, "TransposeBackward0", replay)
}

/// `t.permute(dims)`.
pub fn permute(t: &Tensor, dims: &[i64]) -> Result<Tensor> {
    let l = t.layout();
    let n = l.ndim();
    if dims.len() != n {
        return Err(TorchError::runtime(format!(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = {} is not equal to len(dims) = {}",
            n,
            dims.len()
        )));
    }
    let mut seen = vec![false; n];
    let mut sizes = Vec::with_capacity(n);
    let mut strides = Vec::with_capacity(n);
    for &d in dims {
        let d = wrap_dim(d, n)?;
        if seen[d] {
            return Err(TorchError::runtime(
                "permute(): duplicate dims are not allowed.",
            ));
        }
        seen[d] = true;
        sizes.push(l.sizes[d]);
        strides.push(l.strides[d]);
    }
    derived(
        t,
        Layout {
            sizes: sizes.into(),
            strides: strides.into(),
            offset: l.offset,
        },
        "PermuteBackward0",
        || {
            let dims = dims.to_vec();
            move |p: &Tensor| permute(p, &dims)
        },
    )
}

/// `t.t()`: transpose of a matrix; vectors and scalars are returned as views unchanged.
pub fn t(t: &Tensor) -> Result<Tensor> {
    t_named(t, "t")
}

/// `t()` under the op name `op` (`t`, `t_`) that its error for more than 2 dims names.
pub fn t_named(t: &Tensor, op: &str) -> Result<Tensor> {
    let n = t.ndim();
    if n > 2 {
        return Err(TorchError::runtime(format!(
            "{op}() expects a tensor with <= 2 dimensions, but self is {n}D"
        )));
    }
    let replay = || {
        let op = op.to_string();
        move |p: &Tensor| t_named(p, &op)
    };
    if n < 2 {
        derived(t, t.layout(), "TBackward0", replay)
    } else {
        Ok(renamed(transpose(t, 0, 1)?, t, "TBackward0", replay))
    }
}

/// `t.T`: all dims reversed.
pub fn reverse_dims(t: &Tensor) -> Result<Tensor> {
    let n = t.ndim() as i64;
    let dims: Vec<i64> = (0..n).rev().collect();
    permute(t, &dims)
}

/// `t.mT`: the last two dims swapped.
pub fn matrix_transpose(t: &Tensor) -> Result<Tensor> {
    let n = t.ndim();
    if n < 2 {
        return Err(TorchError::runtime(format!(
            "tensor.mT is only supported on matrices or batches of matrices. Got {n}-D tensor."
        )));
    }
    transpose(t, -2, -1)
}

/// `t.movedim(source, destination)`.
pub fn movedim(t: &Tensor, src: &[i64], dst: &[i64]) -> Result<Tensor> {
    let n = t.ndim();
    if src.len() != dst.len() {
        return Err(TorchError::runtime(format!(
            "movedim: Invalid source or destination dims: source ({} dims) should contain the same number of dims as destination ({} dims)",
            fmt_list(src),
            fmt_list(dst)
        )));
    }
    let src_w: Vec<usize> = src.iter().map(|&d| wrap_dim(d, n)).collect::<Result<_>>()?;
    let dst_w: Vec<usize> = dst.iter().map(|&d| wrap_dim(d, n)).collect::<Result<_>>()?;
    for (name, list, raw) in [("source", &src_w, src), ("destination", &dst_w, dst)] {
        let mut seen = vec![false; n.max(1)];
        for &d in list.iter() {
            if seen[d] {
                return Err(TorchError::runtime(format!(
                    "movedim: repeated dim in `{name}` ({})",
                    fmt_list(raw)
                )));
            }
            seen[d] = true;
        }
    }
    if n == 0 {
        // A 0-d tensor has nothing to move; dims 0 and -1 were accepted above.
        return derived(t, t.layout(), "PermuteBackward0", || {
            |p: &Tensor| Ok(p.alias(p.layout()))
        });
    }
    let mut order: Vec<i64> = vec![-1; n];
    let mut used = vec![false; n];
    for (&s, &d) in src_w.iter().zip(&dst_w) {
        order[d] = s as i64;
        used[s] = true;
    }
    let mut rest = (0..n).filter(|&d| !used[d]);
    for slot in order.iter_mut() {
        if *slot == -1 {
            *slot = rest.next().unwrap_or(0) as i64;
        }
    }
    permute(t, &order)
}

/// `t.narrow(dim, start, length)`.
pub fn narrow(t: &Tensor, dim: i64, start: i64, length: i64) -> Result<Tensor> {
    let mut l = t.layout();
    if l.ndim() == 0 {
        return Err(TorchError::runtime(
            "narrow() cannot be applied to a 0-dim tensor.",
        ));
    }
    let d = wrap_dim(dim, l.ndim())?;
    let size = l.sizes[d];
    if start < -size || start > size {
        return Err(TorchError::index(format!(
            "start out of range (expected to be in range of [{}, {}], but got {})",
            -size, size, start
        )));
    }
    let start = if start < 0 { start + size } else { start };
    if length < 0 {
        return Err(TorchError::runtime(
            "narrow(): length must be non-negative.",
        ));
    }
    if length > size - start {
        return Err(TorchError::runtime(format!(
            "start ({start}) + length ({length}) exceeds dimension size ({size})."
        )));
    }
    l.offset += start * l.strides[d];
    l.sizes[d] = length;
    derived(t, l, "SliceBackward0", || {
        move |p: &Tensor| narrow(p, dim, start, length)
    })
}

/// `t.select(dim, index)`: drops a dimension.
pub fn select(t: &Tensor, dim: i64, index: i64) -> Result<Tensor> {
    let mut l = t.layout();
    if l.ndim() == 0 {
        return Err(TorchError::index(
            "select() cannot be applied to a 0-dim tensor.",
        ));
    }
    let d = wrap_dim(dim, l.ndim())?;
    let size = l.sizes[d];
    if index < -size || index >= size {
        return Err(TorchError::index(format!(
            "select(): index {} out of range for tensor of size {} at dimension {}",
            index,
            fmt_list(&l.sizes),
            d
        )));
    }
    let index = if index < 0 { index + size } else { index };
    l.offset += index * l.strides[d];
    l.sizes.remove(d);
    l.strides.remove(d);
    derived(t, l, "SelectBackward0", || {
        move |p: &Tensor| select(p, dim, index)
    })
}

/// `t.squeeze()` (all size-1 dims) or `t.squeeze(dims)`.
pub fn squeeze(t: &Tensor, dims: Option<&[i64]>) -> Result<Tensor> {
    let l = t.layout();
    let n = l.ndim();
    let mut drop = vec![false; n];
    match dims {
        None => {
            for (flag, &size) in drop.iter_mut().zip(&l.sizes) {
                *flag = size == 1;
            }
        }
        Some(ds) => {
            let mut seen = vec![false; n.max(1)];
            for &d in ds {
                let w = wrap_dim(d, n)?;
                if std::mem::replace(&mut seen[w], true) {
                    return Err(TorchError::runtime(format!(
                        "dim {w} appears multiple times in the list of dims"
                    )));
                }
                if n > 0 && l.sizes[w] == 1 {
                    drop[w] = true;
                }
            }
        }
    }
    let keep: Vec<usize> = (0..n).filter(|&d| !drop[d]).collect();
    derived(
        t,
        Layout {
            sizes: keep.iter().map(|&d| l.sizes[d]).collect(),
            strides: keep.iter().map(|&d| l.strides[d]).collect(),
            offset: l.offset,
        },
        if dims.is_none() {
            "SqueezeBackward0"
        } else {
            "SqueezeBackward1"
        },
        || {
            let dims = dims.map(<[i64]>::to_vec);
            move |p: &Tensor| squeeze(p, dims.as_deref())
        },
    )
}

/// `t.unsqueeze(dim)`: inserts a size-1 dim whose stride continues the next dim's.
pub fn unsqueeze(t: &Tensor, dim: i64) -> Result<Tensor> {
    let mut l = t.layout();
    let d = wrap_dim(dim, l.ndim() + 1)?;
    let stride = if d >= l.ndim() {
        1
    } else {
        l.sizes[d] * l.strides[d]
    };
    l.sizes.insert(d, 1);
    l.strides.insert(d, stride);
    derived(t, l, "UnsqueezeBackward0", || {
        move |p: &Tensor| unsqueeze(p, dim)
    })
}

/// `t.diagonal(offset, dim1, dim2)`.
pub fn diagonal(t: &Tensor, offset: i64, dim1: i64, dim2: i64) -> Result<Tensor> {
    let l = t.layout();
    let n = l.ndim();
    let (a, b) = (wrap_dim(dim1, n)?, wrap_dim(dim2, n)?);
    if a == b {
        return Err(TorchError::runtime(format!(
            "diagonal dimensions cannot be identical {dim1}, {dim2}"
        )));
    }
    let mut start = l.offset;
    let len = if offset >= 0 {
        let len = l.sizes[a].min(l.sizes[b] - offset).max(0);
        if len > 0 {
            start += offset * l.strides[b];
        }
        len
    } else {
        let len = (l.sizes[a] + offset).min(l.sizes[b]).max(0);
        if len > 0 {
            start -= offset * l.strides[a];
        }
        len
    };
    let mut sizes = vec![];
    let mut strides = vec![];
    for d in 0..n {
        if d != a && d != b {
            sizes.push(l.sizes[d]);
            strides.push(l.strides[d]);
        }
    }
    sizes.push(len);
    strides.push(l.strides[a] + l.strides[b]);
    derived(
        t,
        Layout {
            sizes: sizes.into(),
            strides: strides.into(),
            offset: start,
        },
        "DiagonalBackward0",
        || move |p: &Tensor| diagonal(p, offset, dim1, dim2),
    )
}

/// `t.unfold(dim, size, step)`: windows of `size` every `step` along `dim`, as a new last dim.
pub fn unfold(t: &Tensor, dim: i64, size: i64, step: i64) -> Result<Tensor> {
    let l = t.layout();
    let n = l.ndim();
    let d = wrap_dim(dim, n)?;
    let dim_size = if n == 0 { 1 } else { l.sizes[d] };
    if size > dim_size {
        return Err(TorchError::runtime(format!(
            "maximum size for tensor at dimension {d} is {dim_size} but size is {size}"
        )));
    }
    if step <= 0 {
        return Err(TorchError::runtime(format!(
            "step is {step} but must be > 0"
        )));
    }
    if size < 0 {
        return Err(TorchError::runtime(format!(
            "size is {size} but must be >= 0"
        )));
    }
    let mut sizes = l.sizes.clone();
    let mut strides = l.strides.clone();
    if n == 0 {
        sizes.push(size);
        strides.push(1);
    } else {
        let stride = l.strides[d];
        sizes[d] = (dim_size - size) / step + 1;
        strides[d] = step * stride;
        sizes.push(size);
        strides.push(stride);
    }
    derived(
        t,
        Layout {
            sizes,
            strides,
            offset: l.offset,
        },
        "UnfoldBackward0",
        || move |p: &Tensor| unfold(p, dim, size, step),
    )
}

/// `t.as_strided(size, stride, storage_offset)`: any layout within the storage.
pub fn as_strided(
    t: &Tensor,
    sizes: &[i64],
    strides: &[i64],
    offset: Option<i64>,
) -> Result<Tensor> {
    let layout = checked_strided_layout(t, sizes, strides, offset)?;
    let out = t.view_alias(layout.checked(t.dtype().itemsize())?);
    record_marked_view(&out, t, "AsStridedBackward0", None);
    Ok(out)
}

/// Validates a user-given layout against `t`'s storage (shared by `as_strided` and
/// `as_strided_`).
pub fn checked_strided_layout(
    t: &Tensor,
    sizes: &[i64],
    strides: &[i64],
    offset: Option<i64>,
) -> Result<Layout> {
    if sizes.len() != strides.len() {
        return Err(TorchError::runtime(
            "mismatch in length of strides and shape",
        ));
    }
    if strides.iter().any(|&s| s < 0) {
        return Err(TorchError::runtime(format!(
            "as_strided: Negative strides are not supported at the moment, got strides: {}",
            fmt_list(strides)
        )));
    }
    let offset = offset.unwrap_or_else(|| t.offset());
    if offset < 0 {
        return Err(TorchError::runtime(format!(
            "Tensor: invalid storage offset {offset}"
        )));
    }
    let layout = Layout {
        sizes: Dims::from_slice(sizes),
        strides: Dims::from_slice(strides),
        offset,
    }
    .checked(t.dtype().itemsize())?;
    let (itemsize, nbytes) = (t.dtype().itemsize(), t.storage().nbytes());
    layout.check_in_bounds(itemsize, nbytes).map_err(|e| {
        super::why::note(
            e,
            super::why::Case::OutOfBounds {
                layout: layout.clone(),
                itemsize,
                nbytes,
            },
        )
    })?;
    Ok(layout)
}

/// `t.unflatten(dim, sizes)`.
pub fn unflatten(t: &Tensor, dim: i64, sizes: &[i64]) -> Result<Tensor> {
    let l = t.layout();
    if l.ndim() == 0 {
        return Err(TorchError::runtime(
            "unflatten got an unexpected error:\nDimension specified as 0 but tensor has no dimensions",
        ));
    }
    let d = wrap_dim(dim, l.ndim())?;
    if sizes.is_empty() {
        return Err(TorchError::runtime("unflatten: sizes must be non-empty"));
    }
    let inferred = infer_size(sizes, l.sizes[d]).map_err(|_| {
        TorchError::runtime(format!(
            "unflatten: Provided sizes {} don't multiply up to the size of dim {} ({}) in the input tensor",
            fmt_list(sizes),
            dim,
            l.sizes[d]
        ))
    })?;
    let mut shape = l.sizes[..d].to_vec();
    shape.extend(inferred);
    shape.extend_from_slice(&l.sizes[d + 1..]);
    view(t, &shape)
}

/// `t.flatten(start_dim, end_dim)`: a view when possible, else a copy (as `reshape`).
pub fn flatten(t: &Tensor, start: i64, end: i64) -> Result<Tensor> {
    let l = t.layout();
    let n = l.ndim();
    let (s, e) = (wrap_dim(start, n)?, wrap_dim(end, n)?);
    if s > e {
        return Err(TorchError::runtime(
            "flatten() has invalid args: start_dim cannot come after end_dim",
        ));
    }
    if n == 0 {
        return reshape(t, &[1]);
    }
    if s == e {
        // Nothing to merge: PyTorch returns the tensor itself, not a view of it.
        return Ok(t.clone());
    }
    let mut shape = l.sizes[..s].to_vec();
    shape.push(l.sizes[s..=e].iter().product());
    shape.extend_from_slice(&l.sizes[e + 1..]);
    reshape(t, &shape)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::dtype::DType;

    fn mat(sizes: &[i64]) -> Tensor {
        Tensor::zeros(sizes.to_vec(), DType::Int64).unwrap()
    }

    #[test]
    fn transposes_and_views() {
        let x = view(&mat(&[24]), &[2, 3, 4]).unwrap();
        let y = transpose(&x, 0, 1).unwrap();
        assert_eq!(y.strides(), vec![4, 12, 1]);
        assert_eq!(
            view(&y, &[3, 2, 2, 2]).unwrap().strides(),
            vec![4, 12, 2, 1]
        );
        assert!(view(&y, &[24]).is_err());
        assert_eq!(movedim(&x, &[0], &[2]).unwrap().strides(), vec![4, 1, 12]);
    }

    #[test]
    fn diagonal_and_unfold() {
        let x = mat(&[3, 3]);
        let d = diagonal(&x, -1, 0, 1).unwrap();
        assert_eq!((d.sizes(), d.strides(), d.offset()), (vec![2], vec![4], 3));
        let u = unfold(&mat(&[7]), 0, 3, 2).unwrap();
        assert_eq!((u.sizes(), u.strides()), (vec![3, 3], vec![2, 1]));
    }

    #[test]
    fn expand_keeps_and_zeroes_strides() {
        let a = mat(&[2, 1]);
        let e = expand(&a, &[2, 3]).unwrap();
        assert_eq!(e.strides(), vec![1, 0]);
        let e = expand(&mat(&[3]), &[2, 3]).unwrap();
        assert_eq!(e.strides(), vec![0, 1]);
    }
}
