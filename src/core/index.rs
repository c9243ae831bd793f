//! Indexing as Python's `t[...]`: basic items (ints, slices, `None`, `...`) make views;
//! tensors and lists (advanced indices) make copies; assignment writes through either.

use super::checked_scalar::check_converts;
use super::copy;
use super::dtype::DType;
use super::element;
use super::engine::elements;
use super::error::{Result, TorchError};
use super::layout::{Layout, fmt_list};
use super::memory::storage::Storage;
use super::scalar::Scalar;
use super::tensor::Tensor;
use super::tensor::graph::ViewReplay;
use super::tensor::record::{record_formula, record_view};
use super::views::{broadcast_layout, broadcast_shapes};
use crate::core::layout::Dims;

/// One item of a subscript.
#[derive(Debug, Clone)]
pub enum IndexItem {
    /// `t[i]`: selects, dropping the dim.
    Int(i64),
    /// `t[a:b:c]`.
    Slice {
        /// First index (default 0).
        start: Option<i64>,
        /// End, exclusive (default the size).
        stop: Option<i64>,
        /// Step (default 1, must be positive).
        step: Option<i64>,
    },
    /// `None`: a new dim of size 1.
    NewAxis,
    /// `...`: as many full slices as needed.
    Ellipsis,
    /// `True`/`False`: a new dim of size 1 or 0.
    Bool(bool),
    /// An advanced index: an integer or bool tensor.
    Tensor(Tensor),
}

/// What a value to assign is.
#[derive(Debug, Clone)]
pub enum Value {
    /// A number, filled in.
    Scalar(Scalar),
    /// A tensor, broadcast and copied in.
    Tensor(Tensor),
}

/// Whether an index tensor is a mask (bool, or uint8 as PyTorch still allows).
fn is_mask(t: &Tensor) -> bool {
    matches!(t.dtype(), DType::Bool | DType::UInt8)
}

/// Whether an index tensor selects as an integer does (a 0-dim integer tensor, not a mask):
/// a view, as PyTorch indexes with it.
fn selects_like_an_int(x: &Tensor) -> bool {
    x.ndim() == 0 && x.dtype().is_integral() && !is_mask(x)
}

/// The advanced index a bool stands for on its new dim of size 1: `[0]` or `[]`.
fn bool_index(b: bool) -> Result<Tensor> {
    let values: &[Scalar] = if b { &[Scalar::Int(0)] } else { &[] };
    super::creation::from_scalars(values, vec![values.len() as i64], DType::Int64)
}

fn consumed_dims(item: &IndexItem) -> usize {
    match item {
        IndexItem::Int(_) | IndexItem::Slice { .. } => 1,
        IndexItem::Tensor(t) if is_mask(t) => t.ndim(),
        IndexItem::Tensor(_) => 1,
        IndexItem::NewAxis | IndexItem::Ellipsis | IndexItem::Bool(_) => 0,
    }
}

/// Python's slice clamping: the (start, length) a slice selects from `size`.
fn slice_range(start: Option<i64>, stop: Option<i64>, step: i64, size: i64) -> (i64, i64) {
    let clamp = |v: i64| {
        let v = if v < 0 { v + size } else { v };
        v.clamp(0, size)
    };
    let s = start.map(clamp).unwrap_or(0);
    let e = stop.map(clamp).unwrap_or(size);
    // PyTorch's formula in wrapping arithmetic: a step near i64::MAX gives a negative
    // length here, as there, and the layout check then raises PyTorch's overflow error.
    let len = if e > s {
        (e - s).wrapping_add(step - 1) / step
    } else {
        0
    };
    (s, len)
}

/// The storage offset that selecting index `i` (negative counts from the end) of dim `d`
/// adds, or PyTorch's IndexError. PyTorch's message names the item's place in the index
/// (`position`), not the dim; a dim past the end (several ellipses) has size 0.
fn select_offset(src: &Layout, d: usize, i: i64, position: usize) -> Result<i64> {
    let size = src.sizes.get(d).copied().unwrap_or(0);
    if i < -size || i >= size {
        return Err(TorchError::index(format!(
            "index {i} is out of bounds for dimension {position} with size {size}"
        )));
    }
    let i = if i < 0 { i + size } else { i };
    Ok(i * src.strides[d])
}

/// The result of applying the basic items: a view, plus the advanced indices found, each with
/// the dim of the view it applies to.
struct Sliced {
    view: Layout,
    advanced: Vec<(usize, Tensor)>,
}

/// Whether items are applied to read (`t[items]`) or to write (`t[items] = v`): PyTorch words
/// an advanced index past the last dim differently for each.
#[derive(Clone, Copy, PartialEq)]
enum Access {
    Read,
    Write,
}

fn apply_basic(t: &Tensor, items: &[IndexItem], access: Access) -> Result<Sliced> {
    // Borrowed, not cloned: this runs on every `t[i]`. Nothing below writes to `t` (index
    // tensors are only read, even when one of them is `t` itself).
    t.with(|inner| apply_basic_to(&inner.layout, items, access))
}

fn apply_basic_to(src: &Layout, items: &[IndexItem], access: Access) -> Result<Sliced> {
    let ndim = src.ndim();
    let consumed: usize = items.iter().map(consumed_dims).sum();
    if consumed > ndim {
        return Err(TorchError::index(format!(
            "too many indices for tensor of dimension {ndim}"
        )));
    }
    // Every ellipsis stands for the dims the other items leave, as in PyTorch: a second one
    // moves PyTorch's place past the last dim (`overshoot` dims past it), where an item that
    // needs a dim raises PyTorch's error and a full slice is passed over.
    let mut overshoot = 0usize;
    let capacity = ndim + items.len();
    let mut out = Layout {
        sizes: Dims::with_capacity(capacity),
        strides: Dims::with_capacity(capacity),
        offset: src.offset,
    };
    let mut advanced = vec![];
    let mut d = 0usize;
    for (position, item) in items.iter().enumerate() {
        // Past the last dim: `past_end` for an item that adds a dim (PyTorch's `unsqueeze`
        // may still append one at the end), `beyond` for one that needs a dim.
        let past_end = overshoot > 0;
        let beyond = past_end || d >= ndim;
        // PyTorch's place among the result's dims, and how many the result has so far.
        let place = out.sizes.len() + overshoot;
        let result_dims = (out.sizes.len() + (ndim - d)) as i64;
        let out_of_range = |extra: i64| {
            TorchError::index(format!(
                "Dimension out of range (expected to be in range of [{}, {}], but got {place})",
                -(result_dims + extra),
                result_dims + extra - 1
            ))
        };
        match item {
            IndexItem::Int(i) => {
                out.offset += select_offset(src, if beyond { ndim } else { d }, *i, position)?;
                d += 1;
            }
            IndexItem::Slice { start, stop, step }
                if beyond && start.is_none() && stop.is_none() && step.is_none_or(|s| s == 1) =>
            {
                overshoot += 1;
            }
            IndexItem::Slice { .. } if beyond => return Err(out_of_range(0)),
            IndexItem::Slice { start, stop, step } => {
                let step = step.unwrap_or(1);
                if step == 0 {
                    return Err(TorchError::value("slice step cannot be zero"));
                }
                if step < 0 {
                    return Err(super::why::note(
                        TorchError::value("step must be greater than zero"),
                        super::why::Case::NegativeStep { step },
                    ));
                }
                let (s, len) = slice_range(*start, *stop, step, src.sizes[d]);
                out.offset += s * src.strides[d];
                out.sizes.push(len);
                out.strides.push(src.strides[d].wrapping_mul(step));
                d += 1;
            }
            IndexItem::NewAxis | IndexItem::Bool(_) if past_end => return Err(out_of_range(1)),
            IndexItem::Tensor(idx) if past_end && idx.ndim() == 0 && is_mask(idx) => {
                return Err(out_of_range(1));
            }
            IndexItem::NewAxis => {
                let stride = if d < ndim {
                    src.sizes[d] * src.strides[d]
                } else {
                    1
                };
                out.sizes.push(1);
                out.strides.push(stride.max(1));
            }
            IndexItem::Bool(b) => {
                // PyTorch's rule: a new dim of size 1, indexed by the advanced index `[0]`
                // (`True`) or `[]` (`False`), so the result is a copy.
                advanced.push((out.sizes.len(), bool_index(*b)?));
                out.sizes.push(1);
                out.strides.push(0);
            }
            IndexItem::Tensor(idx) if idx.ndim() == 0 && is_mask(idx) => {
                let b = elements::truth(idx)?.first().is_some_and(|&v| v != 0);
                advanced.push((out.sizes.len(), bool_index(b)?));
                out.sizes.push(1);
                out.strides.push(0);
            }
            IndexItem::Tensor(idx) if idx.ndim() == 0 && idx.dtype().is_integral() => {
                // A 0-dim integer tensor selects, as an integer does: a view.
                let i = elements::int64_values(idx)?.first().copied().unwrap_or(0);
                out.offset += select_offset(src, if beyond { ndim } else { d }, i, position)?;
                d += 1;
            }
            IndexItem::Ellipsis => {
                let expands = ndim - consumed;
                let here = expands.min(ndim - d);
                overshoot += expands - here;
                for _ in 0..here {
                    out.sizes.push(src.sizes[d]);
                    out.strides.push(src.strides[d]);
                    d += 1;
                }
            }
            IndexItem::Tensor(idx) => {
                let k = consumed_dims(item);
                if (beyond || d + k > ndim) && access == Access::Write {
                    return Err(out_of_range(0));
                }
                if beyond || d + k > ndim {
                    return Err(TorchError::index(format!(
                        "too many indices for tensor of dimension {result_dims} (got {})",
                        place + 1
                    )));
                }
                advanced.push((out.sizes.len(), idx.clone()));
                for _ in 0..k {
                    out.sizes.push(src.sizes[d]);
                    out.strides.push(src.strides[d]);
                    d += 1;
                }
            }
        }
    }
    while d < ndim {
        out.sizes.push(src.sizes[d]);
        out.strides.push(src.strides[d]);
        d += 1;
    }
    Ok(Sliced {
        view: out,
        advanced,
    })
}

/// Turns each advanced index into int64 index tensors (a k-dim mask becomes k of them), paired
/// with the first view dim each applies to.
/// One advanced index after mask expansion: the view dim it applies to, its shape, and its
/// values in row-major order.
type IndexTensor = (usize, Vec<i64>, Vec<i64>);

fn expand_masks(view: &Layout, advanced: Vec<(usize, Tensor)>) -> Result<Vec<IndexTensor>> {
    let mut out = vec![];
    for (dim, idx) in advanced {
        match idx.dtype() {
            DType::Bool | DType::UInt8 => {
                let shape = idx.sizes();
                for (k, &s) in shape.iter().enumerate() {
                    if view.sizes[dim + k] != s {
                        return Err(TorchError::index(format!(
                            "The shape of the mask {} at index {} does not match the shape of the indexed tensor {} at index {}",
                            fmt_list(&shape),
                            k,
                            fmt_list(&view.sizes),
                            dim + k
                        )));
                    }
                }
                let values = elements::truth(&idx)?;
                let mut coords: Vec<Vec<i64>> = vec![vec![]; shape.len()];
                let mut counter = vec![0i64; shape.len()];
                for v in values {
                    if v != 0 {
                        for (k, c) in counter.iter().enumerate() {
                            coords[k].push(*c);
                        }
                    }
                    for k in (0..shape.len()).rev() {
                        counter[k] += 1;
                        if counter[k] < shape[k] {
                            break;
                        }
                        counter[k] = 0;
                    }
                }
                for (k, c) in coords.into_iter().enumerate() {
                    let n = c.len() as i64;
                    out.push((dim + k, vec![n], c));
                }
            }
            d if d.is_integral() => {
                out.push((dim, idx.sizes(), elements::int64_values(&idx)?));
            }
            _ => {
                return Err(TorchError::index(
                    "tensors used as indices must be long, int, byte or bool tensors",
                ));
            }
        }
    }
    Ok(out)
}

/// How PyTorch's kernels name the dim of an out-of-bounds advanced index: reading and
/// writing a tensor count among the indices; filling with a number names the dim of the
/// view when there is one index (PyTorch fills through another kernel then).
#[derive(Clone, Copy)]
enum Purpose {
    Read,
    WriteTensor,
    FillScalar,
}

/// The result shape of an advanced index, and the storage element offset of each of its
/// elements in row-major order.
fn advanced_offsets(
    view: &Layout,
    advanced: Vec<(usize, Tensor)>,
    purpose: Purpose,
) -> Result<(Vec<i64>, Vec<i64>)> {
    let indices = expand_masks(view, advanced)?;
    let mut bshape: Vec<i64> = vec![];
    for (_, shape, _) in &indices {
        bshape = broadcast_shapes(&bshape, shape).map_err(|_| {
            let shapes: Vec<String> = indices.iter().map(|(_, s, _)| fmt_list(s)).collect();
            TorchError::index(format!(
                "shape mismatch: indexing tensors could not be broadcast together with shapes {}",
                shapes.join(", ")
            ))
        })?;
    }
    let dims: Vec<usize> = indices.iter().map(|(d, _, _)| *d).collect();
    let adjacent = dims.windows(2).all(|w| w[1] == w[0] + 1);
    let rest: Vec<usize> = (0..view.ndim()).filter(|d| !dims.contains(d)).collect();
    let Some(&first) = dims.first() else {
        return Err(TorchError::index(
            "advanced indexing needs at least one index tensor",
        ));
    };
    let before: Vec<usize> = if adjacent {
        rest.iter().copied().filter(|&d| d < first).collect()
    } else {
        vec![]
    };
    let after: Vec<usize> = rest
        .iter()
        .copied()
        .filter(|d| !before.contains(d))
        .collect();
    let mut out_shape: Vec<i64> = before.iter().map(|&d| view.sizes[d]).collect();
    out_shape.extend(&bshape);
    out_shape.extend(after.iter().map(|&d| view.sizes[d]));
    // Bounds-check every index and wrap negatives.
    let mut wrapped = Vec::with_capacity(indices.len());
    for (k, (d, shape, values)) in indices.iter().enumerate() {
        let size = view.sizes[*d];
        let reported = match purpose {
            Purpose::FillScalar if indices.len() == 1 => *d,
            _ => k,
        };
        let mut w = Vec::with_capacity(values.len());
        for &i in values {
            if i < -size || i >= size {
                return Err(TorchError::index(format!(
                    "index {i} is out of bounds for dimension {reported} with size {size}"
                )));
            }
            w.push(if i < 0 { i + size } else { i });
        }
        let src = Layout::contiguous(shape.clone());
        let b = broadcast_layout(&src, &bshape)?;
        wrapped.push((*d, b, w));
    }

    let total = super::memory::alloc::checked_numel(&out_shape)?;
    let mut offsets = super::memory::alloc::vec_with_capacity(total.max(0) as usize)?;
    let nb = before.len();
    let nbs = bshape.len();
    let mut counter = vec![0i64; out_shape.len()];
    for _ in 0..total {
        let mut off = view.offset;
        for (k, &d) in before.iter().enumerate() {
            off += counter[k] * view.strides[d];
        }
        let bpos = &counter[nb..nb + nbs];
        for (d, bl, vals) in &wrapped {
            let flat: i64 = bpos.iter().zip(&bl.strides).map(|(c, s)| c * s).sum();
            off += vals[flat as usize] * view.strides[*d];
        }
        for (k, &d) in after.iter().enumerate() {
            off += counter[nb + nbs + k] * view.strides[d];
        }
        offsets.push(off);
        for k in (0..counter.len()).rev() {
            counter[k] += 1;
            if counter[k] < out_shape[k] {
                break;
            }
            counter[k] = 0;
        }
    }
    Ok((out_shape, offsets))
}

/// A value assigned through an index is expanded to the indexed shape (after dropping
/// leading size-1 dims it has beyond that shape), with `expand`'s errors.
fn expand_value(v: &Tensor, sizes: &[i64]) -> Result<Tensor> {
    let mut v = v.clone();
    while v.ndim() > sizes.len() && v.sizes()[0] == 1 {
        v = super::views::select(&v, 0, 0)?;
    }
    super::views::expand(&v, sizes)
}

/// PyTorch's errors for one index of a 0-dim tensor: an integer has its own message, a
/// slice its own. Several items are counted against the dims as for any tensor ("too
/// many indices for tensor of dimension 0").
fn check_zero_dim(t: &Tensor, items: &[IndexItem]) -> Result<()> {
    if t.ndim() != 0 {
        return Ok(());
    }
    let integer = |i: &IndexItem| match i {
        IndexItem::Int(_) => true,
        IndexItem::Tensor(x) => selects_like_an_int(x),
        _ => false,
    };
    match items {
        [i] if integer(i) => Err(TorchError::index(
            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number",
        )),
        [IndexItem::Slice { .. }] => Err(TorchError::index(
            "slice() cannot be applied to a 0-dim tensor.",
        )),
        _ => Ok(()),
    }
}

/// The view `t[:, ..., start:end:step]` along `dim` (Python's slice rules for the
/// bounds).
pub fn slice_along(
    t: &Tensor,
    dim: i64,
    start: Option<i64>,
    end: Option<i64>,
    step: i64,
) -> Result<Tensor> {
    let d = super::error::wrap_dim(dim, t.ndim().max(1))?;
    let all = IndexItem::Slice {
        start: None,
        stop: None,
        step: None,
    };
    let mut items = vec![all; d];
    items.push(IndexItem::Slice {
        start,
        stop: end,
        step: Some(step),
    });
    index(t, &items)
}

/// `t[items]`: a view for basic indices, a new tensor for advanced ones.
pub fn index(t: &Tensor, items: &[IndexItem]) -> Result<Tensor> {
    check_zero_dim(t, items)?;
    let Sliced { view, advanced } = apply_basic(t, items, Access::Read)?;
    if advanced.is_empty() {
        let out = t.alias(view.checked(t.dtype().itemsize())?);
        record_view(&out, t, basic_node_name(items), || {
            let items = items.to_vec();
            ViewReplay::one(move |p| index(p, &items))
        });
        return Ok(out);
    }
    let out = gather(t, &view, advanced)?;
    if t.requires_grad() && (t.dtype().is_floating_point() || t.dtype().is_complex()) {
        // The gradient: each output element's added at the element it was read from
        // (found again from the indices, which are what PyTorch's node saves).
        let (sizes, dtype, items) = (t.sizes(), t.dtype(), items.to_vec());
        record_formula(&out, "IndexBackward0", &[t], &[], move |g| {
            let positions = read_positions(&sizes, &items)?;
            let grad = super::index_ops::add_at_positions(&sizes, dtype, &positions, g)?;
            Ok(vec![Some(grad)])
        });
    }
    Ok(out)
}

/// PyTorch's node name for a basic index: that of the last step it applies (an integer
/// selects, a slice slices, `None` unsqueezes). Within a tuple of several items a full
/// slice `:` is no step at all; with none, the result is an alias.
fn basic_node_name(items: &[IndexItem]) -> &'static str {
    let full = |i: &IndexItem| {
        matches!(
            i,
            IndexItem::Slice {
                start: None,
                stop: None,
                step: None
            }
        )
    };
    items
        .iter()
        .rev()
        .find_map(|i| match i {
            IndexItem::Int(_) => Some("SelectBackward0"),
            IndexItem::Tensor(t) if t.ndim() == 0 => Some("SelectBackward0"),
            IndexItem::Slice { .. } if items.len() > 1 && full(i) => None,
            IndexItem::Slice { .. } => Some("SliceBackward0"),
            IndexItem::NewAxis => Some("UnsqueezeBackward0"),
            _ => None,
        })
        .unwrap_or("AliasBackward0")
}

/// The elements an advanced index selects from `view`, copied into a new tensor.
fn gather(t: &Tensor, view: &Layout, advanced: Vec<(usize, Tensor)>) -> Result<Tensor> {
    let (shape, offsets) = advanced_offsets(view, advanced, Purpose::Read)?;
    let dtype = t.dtype();
    let w = dtype.itemsize();
    let storage = t.storage();
    let mut out = super::memory::alloc::zeroed_bytes(offsets.len() * w)?;
    storage.with_bytes(|bytes| {
        // Every offset lies inside the view, so one check of the view covers them all.
        view.check_in_bounds(w, bytes.len())?;
        for (k, &off) in offsets.iter().enumerate() {
            let at = off as usize * w;
            out[k * w..(k + 1) * w].copy_from_slice(&bytes[at..at + w]);
        }
        Ok::<_, TorchError>(())
    })?;
    // A copy holds values, so a conjugate or negative view's are resolved.
    copy::apply_bits_in_place(t, &mut out);
    Ok(Tensor::from_parts(
        Storage::from_vec(out),
        dtype,
        Layout::contiguous(shape),
    ))
}

/// The row-major positions, in a tensor of `sizes`, of the elements `t[items]` reads, in
/// the result's row-major order.
fn read_positions(sizes: &[i64], items: &[IndexItem]) -> Result<Vec<i64>> {
    Ok(indexed_positions(sizes, items)?.1)
}

/// The shape of `t[items]` for a tensor of `sizes` with an advanced index among `items`,
/// and the row-major position in `t` of each of its elements, in row-major order: where
/// `t[items] = v` writes, and where gradients of what it read go back to.
pub fn indexed_positions(sizes: &[i64], items: &[IndexItem]) -> Result<(Vec<i64>, Vec<i64>)> {
    let Sliced { view, advanced } =
        apply_basic_to(&Layout::contiguous(sizes.to_vec()), items, Access::Read)?;
    advanced_offsets(&view, advanced, Purpose::Read)
}

/// The row-major positions in `t` that `t[indices]` selects (one index tensor per leading
/// dim, masks and broadcasting as in indexing), in the selection's order, and the
/// selection's shape: what `index_put(..., accumulate=True)` adds into.
pub fn advanced_positions(t: &Tensor, indices: &[Tensor]) -> Result<(Vec<i64>, Vec<i64>)> {
    let items: Vec<IndexItem> = indices.iter().cloned().map(IndexItem::Tensor).collect();
    let Sliced { view, advanced } =
        apply_basic_to(&Layout::contiguous(t.sizes()), &items, Access::Write)?;
    advanced_offsets(&view, advanced, Purpose::WriteTensor)
}

/// `index_fill_`'s check of its value (a number, or a 0-dim tensor's item) for a tensor of
/// `dtype`: no complex number into a real (or bool) tensor, then the checked conversion.
pub fn check_index_fill_value(dtype: DType, value: Scalar) -> Result<()> {
    if matches!(value, Scalar::Complex(_)) && !dtype.is_complex() {
        return Err(TorchError::runtime(
            "index_fill_(): Converting complex Scalar to non-complex type is not supported",
        ));
    }
    check_converts(dtype, value, true)
}

/// Whether `item` is a tensor index PyTorch's `index_put_` receives: not a 0-dim integer
/// tensor (a view, as an integer is).
fn is_tensor_index(item: &IndexItem) -> bool {
    matches!(item, IndexItem::Tensor(x) if !selects_like_an_int(x))
}

/// The mask of a write PyTorch's `index_put_` turns into `masked_fill_`: one value
/// (`value` has one element) through exactly one advanced index, a mask of one or more
/// dims whose sizes are the sizes of the dims of `view` it covers. (A 0-dim bool index is
/// already an integer index here, as PyTorch's indexing makes it.)
fn masked_fill_dispatch(
    view: &Layout,
    advanced: &[(usize, Tensor)],
    value: &Tensor,
) -> Option<Tensor> {
    let [(at, mask)] = advanced else {
        return None;
    };
    let covered = view.sizes.get(*at..*at + mask.ndim())?;
    (value.numel() == 1 && is_mask(mask) && mask.ndim() > 0 && mask.sizes()[..] == *covered)
        .then(|| mask.clone())
}

/// The number `masked_fill_` writes for the one-element `value` through `mask`: PyTorch's
/// error for a `uint8` mask, and its checked conversion to `t`'s dtype.
fn mask_fill_value(t: &Tensor, mask: &Tensor, value: &Tensor) -> Result<Scalar> {
    if mask.dtype() != DType::Bool {
        return Err(TorchError::runtime(format!(
            "masked_fill_ only supports boolean masks, but got mask with dtype {}",
            mask.dtype().c_type_name()
        )));
    }
    let s = copy::to_scalars(value)?[0];
    check_converts(t.dtype(), s, true)?;
    Ok(s)
}

/// The in-place op PyTorch's `t[items] = value` runs when it writes into selected elements
/// of a tensor whose elements share memory (an expanded tensor): `index_fill_` for a number
/// through one `int64` index, `masked_fill_` for one value through one mask, else
/// `index_put_`. `None` when `t` has no shared elements or `items` select nothing
/// advanced (a basic index writes through a view, with no such op). PyTorch warns that
/// the op's use on expanded tensors is deprecated, then writes.
pub fn expanded_write_op(t: &Tensor, items: &[IndexItem], value: &Value) -> Option<&'static str> {
    if !t.layout().has_internal_overlap() || !items.iter().any(is_tensor_index) {
        return None;
    }
    let mut indices = items.iter().filter(|i| is_tensor_index(i));
    let (first, second) = (indices.next(), indices.next());
    let one_value = match value {
        Value::Scalar(_) => true,
        Value::Tensor(v) => v.numel() == 1,
    };
    Some(match (value, first, second) {
        (Value::Scalar(_), Some(IndexItem::Tensor(i)), None) if i.dtype() == DType::Int64 => {
            "index_fill_"
        }
        (_, Some(IndexItem::Tensor(m)), None) if is_mask(m) && m.ndim() > 0 && one_value => {
            "masked_fill_"
        }
        _ => "index_put_",
    })
}

/// `t.index_fill_(dim, index, value)` on a tensor whose elements may share memory: the value
/// written into the selected elements only (through `t[:, ..., index] = value`), so an
/// element shared with one that is not selected is written too, as PyTorch's kernel writes.
pub fn index_fill_through(t: &Tensor, dim: usize, index: &Tensor, value: Scalar) -> Result<()> {
    let mut items = vec![
        IndexItem::Slice {
            start: None,
            stop: None,
            step: None
        };
        dim
    ];
    items.push(IndexItem::Tensor(index.clone()));
    index_put(t, &items, &Value::Scalar(value))
}

/// `t.masked_fill_(mask, value)` on a tensor whose elements may share memory: the value
/// written where the mask (broadcast to `t`) is true, and nowhere else.
pub fn masked_fill_through(t: &Tensor, mask: &Tensor, value: Scalar) -> Result<()> {
    let wide = super::views::expand(mask, &t.sizes())?;
    index_put(t, &[IndexItem::Tensor(wide)], &Value::Scalar(value))
}

/// `t[items] = value`: writes through the view (basic) or into the selected elements
/// (advanced), broadcasting `value` and converting its dtype.
pub fn index_put(t: &Tensor, items: &[IndexItem], value: &Value) -> Result<()> {
    check_zero_dim(t, items)?;
    // A tensor index writes a number as PyTorch's `index_put_` does, checking float16 and
    // bfloat16 too; a basic index writes it through a view.
    let tensor_index = items.iter().any(is_tensor_index);
    if let Value::Scalar(s) = value {
        let mut indices = items.iter().filter(|i| is_tensor_index(i));
        let one_long_index = matches!(
            (indices.next(), indices.next()),
            (Some(IndexItem::Tensor(i)), None) if i.dtype() == DType::Int64
        );
        if one_long_index {
            // PyTorch writes a number through one int64 index with `index_fill_`.
            check_index_fill_value(t.dtype(), *s)?;
        }
        check_converts(t.dtype(), *s, tensor_index)?;
    }
    let Sliced { view, advanced } = apply_basic(t, items, Access::Write)?;
    let item_value;
    let value = match value {
        Value::Tensor(v) => match masked_fill_dispatch(&view, &advanced, v) {
            Some(mask) => {
                item_value = Value::Scalar(mask_fill_value(t, &mask, v)?);
                &item_value
            }
            None => value,
        },
        Value::Scalar(_) => value,
    };
    if advanced.is_empty() {
        let target = t.alias(view.checked(t.dtype().itemsize())?);
        return match value {
            Value::Scalar(s) => copy::fill_(&target, *s),
            Value::Tensor(v) => copy::copy_(&target, &expand_value(v, &target.sizes())?),
        };
    }
    let purpose = match value {
        Value::Scalar(_) => Purpose::FillScalar,
        Value::Tensor(_) => Purpose::WriteTensor,
    };
    let (shape, offsets) = advanced_offsets(&view, advanced, purpose)?;
    let dtype = t.dtype();
    let w = dtype.itemsize();
    // The values in `t`'s dtype, one element per offset (a number: one pattern for all);
    // a conjugate (negative) view stores the conjugates (negations) of what is written
    // through it.
    let values: Vec<u8> = match value {
        Value::Scalar(s) => {
            let s = if t.is_conj() { s.conj() } else { *s };
            let s = if t.is_neg() { -s } else { s };
            element::encode(dtype, s).0[..w].to_vec()
        }
        Value::Tensor(v) => {
            let layout = broadcast_layout(&v.layout(), &shape).map_err(|_| {
                TorchError::runtime(format!(
                    "shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of shape {}",
                    fmt_list(&v.sizes()),
                    fmt_list(&shape)
                ))
            })?;
            // A tensor index writes only values of the destination's own dtype (a number is
            // converted; a Python `True` or a 0-dim integer index is a view, written by
            // `copy_`, which converts).
            if tensor_index && v.dtype() != dtype {
                return Err(TorchError::runtime(format!(
                    "Index put requires the source and destination dtypes match, got {} for the destination and {} for the source.",
                    dtype.cpp_name(),
                    v.dtype().cpp_name()
                )));
            }
            let mut image = copy::cast_copy(&v.alias(layout), dtype)?
                .storage()
                .copy_bytes()?;
            copy::apply_bits_in_place(t, &mut image);
            image
        }
    };
    let one_value = matches!(value, Value::Scalar(_));
    t.storage().with_bytes_mut(|bytes| {
        view.check_in_bounds(w, bytes.len())?;
        for (k, &off) in offsets.iter().enumerate() {
            let at = off as usize * w;
            let from = if one_value { 0 } else { k * w };
            bytes[at..at + w].copy_from_slice(&values[from..from + w]);
        }
        Ok(())
    })
}
