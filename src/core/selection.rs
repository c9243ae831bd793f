//! Ops that pick or move elements by index or mask, always into a new contiguous tensor:
//! `index_select`, `gather`, `masked_fill`, `masked_select`, `nonzero`, `roll`, `diag`,
//! `signbit` and `logical_not`, with PyTorch's checks and messages. Each reads its input
//! through the engine: by index (`gather_rows`), or as a row-major image of element bytes
//! with its conjugate bit resolved (`elements`), so any layout and dtype works and nothing
//! outside the storage is read.

use super::broadcast::{broadcast_layout, broadcast_shapes};
use super::copy;
use super::dtype::DType;
use super::element;
use super::engine::elements;
use super::error::{Result, TorchError, wrap_dim};
use super::memory::alloc::vec_with_capacity;
use super::scalar::Scalar;
use super::tensor::Tensor;

/// The product of `sizes` (already checked by the tensor that has them).
fn product(sizes: &[i64]) -> usize {
    sizes.iter().map(|&s| s.max(0) as usize).product()
}

/// `(outer, size, inner)`: the row-major element at `[o, i, j]` of a tensor split around
/// `dim` is at `(o * size + i) * inner + j`.
fn split_at(sizes: &[i64], dim: usize) -> (usize, usize, usize) {
    (
        product(&sizes[..dim]),
        sizes[dim].max(0) as usize,
        product(&sizes[dim + 1..]),
    )
}

/// The integer values of an index tensor.
fn index_values(index: &Tensor) -> Result<Vec<i64>> {
    if matches!(index.dtype(), DType::Int64 | DType::Int32) {
        return super::engine::gather_rows::index_values(index);
    }
    let as_int64 = copy::cast_copy(index, DType::Int64)?;
    super::engine::gather_rows::index_values(&as_int64)
}

/// `t.index_select(dim, index)`: the entries `index` names along `dim`, in its order.
pub fn index_select(t: &Tensor, dim: i64, index: &Tensor) -> Result<Tensor> {
    let ndim = t.ndim();
    let d = wrap_dim(dim, ndim.max(1))?;
    if index.ndim() > 1 {
        return Err(TorchError::index(
            "index_select(): Index is supposed to be a vector",
        ));
    }
    if !matches!(index.dtype(), DType::Int64 | DType::Int32) {
        return Err(TorchError::runtime(
            "index_select(): Expected dtype int32 or int64 for index",
        ));
    }
    let idx = index_values(index)?;
    if ndim == 0 {
        if idx.len() != 1 {
            return Err(TorchError::runtime(format!(
                "index_select(): Index to scalar can have only 1 value, got {} value(s)",
                idx.len()
            )));
        }
        if idx[0] != 0 {
            return Err(TorchError::index("index out of range in self"));
        }
        return copy::contiguous_copy(t);
    }
    let sizes = t.sizes();
    let size = sizes[d].max(0) as usize;
    let out_of_range = idx.iter().find(|&&i| i < 0 || i as usize >= size);
    // PyTorch checks an empty input of several dims apart (in its own words); a vector's
    // indices are checked as any vector's.
    if ndim > 1 && t.numel() == 0 && !idx.is_empty() {
        if size == 0 {
            return Err(TorchError::runtime(
                "index_select(): self indexing axis dim should be positive",
            ));
        }
        if let Some(&bad) = out_of_range {
            return Err(TorchError::runtime(format!(
                "INDICES element is out of DATA bounds, id={bad} axis_dim={size}"
            )));
        }
    }
    if let Some(&bad) = out_of_range {
        return Err(if d == 0 {
            TorchError::index("index out of range in self")
        } else {
            TorchError::runtime(format!(
                "INDICES element is out of DATA bounds, id={bad} axis_dim={size}"
            ))
        });
    }
    super::engine::gather_rows::index_select(t, d, &idx)
}

/// `t.gather(dim, index)`: `out[i][j] = t[index[i][j]][j]` for `dim = 0`, and so on.
pub fn gather(t: &Tensor, dim: i64, index: &Tensor) -> Result<Tensor> {
    let ndim = t.ndim();
    let d = wrap_dim(dim, ndim.max(1))?;
    if !matches!(index.dtype(), DType::Int64 | DType::Int32) {
        return Err(TorchError::runtime(
            "gather(): Expected dtype int32/int64 for index",
        ));
    }
    if index.ndim().max(1) != ndim.max(1) {
        return Err(TorchError::runtime(
            "Index tensor must have the same number of dimensions as input tensor",
        ));
    }
    let (sizes, isizes) = (t.sizes(), index.sizes());
    if ndim > 0 {
        for k in (0..ndim).filter(|&k| k != d) {
            if isizes[k] > sizes[k] {
                return Err(TorchError::runtime(format!(
                    "Size does not match at dimension {k} expected index {isizes:?} to be no larger than self {sizes:?} apart from dimension {d}"
                )));
            }
        }
    }
    if ndim == 0 {
        let one = |x: &Tensor| super::views::reshape(x, &[x.numel()]);
        let r = super::engine::gather_rows::gather(&one(t)?, 0, &one(index)?)?;
        return super::views::reshape(&r, &index.sizes());
    }
    super::engine::gather_rows::gather(t, d, index)
}

/// The mask's values broadcast to `sizes` (0 or 1 per element, row-major), refusing a mask
/// that is not bool.
fn mask_values(mask: &Tensor, sizes: &[i64], op: &str) -> Result<Vec<u8>> {
    if mask.dtype() != DType::Bool {
        return Err(TorchError::runtime(match op {
            "masked_select" => "masked_select: expected BoolTensor for mask".to_string(),
            _ => format!(
                "masked_fill_ only supports boolean masks, but got mask with dtype {}",
                mask.dtype().c_type_name()
            ),
        }));
    }
    let view = mask.alias(broadcast_layout(&mask.layout(), sizes)?);
    elements::image(&view)
}

/// `t.masked_fill_(mask, value)`: writes `value` where the mask (broadcast to `t`) is true.
pub fn masked_fill_(t: &Tensor, mask: &Tensor, value: Scalar) -> Result<()> {
    let sizes = t.sizes();
    let shape = broadcast_shapes(&sizes, &mask.sizes())?;
    if shape != sizes {
        return Err(TorchError::runtime(format!(
            "output with shape {sizes:?} doesn't match the broadcast shape {shape:?}"
        )));
    }
    if t.layout().has_internal_overlap() {
        // Elements that share memory: the value written where the mask is true only.
        mask_values(mask, &sizes, "masked_fill")?;
        return super::index::masked_fill_through(t, mask, value);
    }
    let filled = masked_fill(t, mask, value)?;
    copy::copy_(t, &filled)
}

/// `t.masked_fill(mask, value)`: a copy of `t` broadcast with the mask, filled where true.
pub fn masked_fill(t: &Tensor, mask: &Tensor, value: Scalar) -> Result<Tensor> {
    let shape = broadcast_shapes(&mask.sizes(), &t.sizes())?;
    let keep = mask_values(mask, &shape, "masked_fill")?;
    let view = t.alias(broadcast_layout(&t.layout(), &shape)?);
    let d = t.dtype();
    let mut values = elements::image(&view)?;
    let (pattern, item) = element::encode(d, value);
    for (v, _) in values
        .chunks_exact_mut(item)
        .zip(&keep)
        .filter(|(_, m)| **m != 0)
    {
        v.copy_from_slice(&pattern[..item]);
    }
    Ok(elements::from_image(values, shape, d))
}

/// `t.masked_select(mask)`: the elements where the mask is true, after broadcasting both,
/// as a 1-d tensor.
pub fn masked_select(t: &Tensor, mask: &Tensor) -> Result<Tensor> {
    if mask.dtype() != DType::Bool {
        return Err(TorchError::runtime(
            "masked_select: expected BoolTensor for mask",
        ));
    }
    let shape = broadcast_shapes(&mask.sizes(), &t.sizes())?;
    let keep = mask_values(mask, &shape, "masked_select")?;
    let view = t.alias(broadcast_layout(&t.layout(), &shape)?);
    let d = t.dtype();
    let item = d.itemsize();
    let values = elements::image(&view)?;
    let chosen = keep.iter().filter(|&&k| k != 0).count();
    let mut out = vec_with_capacity(chosen * item)?;
    for (v, _) in values
        .chunks_exact(item)
        .zip(&keep)
        .filter(|(_, k)| **k != 0)
    {
        out.extend_from_slice(v);
    }
    Ok(elements::from_image(out, vec![chosen as i64], d))
}

/// The coordinates of the non-zero elements, one row each: `nonzero()`'s `[n, ndim]`.
pub fn nonzero_coordinates(t: &Tensor) -> Result<(Vec<i64>, usize)> {
    let sizes = t.sizes();
    let mut coords = Vec::new();
    let mut at = vec![0i64; sizes.len()];
    let mut count = 0;
    let truth = elements::truth(t)?;
    for (i, &v) in truth.iter().enumerate() {
        super::interrupt::check_every(i);
        if v != 0 {
            if coords.try_reserve(at.len()).is_err() {
                return Err(TorchError::runtime("nonzero(): not enough memory"));
            }
            coords.extend_from_slice(&at);
            count += 1;
        }
        for k in (0..at.len()).rev() {
            at[k] += 1;
            if at[k] < sizes[k] {
                break;
            }
            at[k] = 0;
        }
    }
    Ok((coords, count))
}

/// `t.nonzero()`: an int64 tensor of shape `[n, ndim]`.
pub fn nonzero(t: &Tensor) -> Result<Tensor> {
    let (coords, n) = nonzero_coordinates(t)?;
    let ndim = t.ndim();
    // PyTorch lays the `[n, ndim]` result out column by column (strides `(1, n)`): each
    // dim's coordinates are one run in memory.
    let columns: Vec<i64> = (0..ndim)
        .flat_map(|k| coords.iter().skip(k).step_by(ndim.max(1)).copied())
        .collect();
    let out = elements::from_i64s(&columns, vec![ndim as i64, n as i64])?;
    out.set_layout(super::layout::Layout {
        sizes: [n as i64, ndim as i64][..].into(),
        strides: [1, n as i64][..].into(),
        offset: 0,
    });
    Ok(out)
}

/// `t.nonzero(as_tuple=True)`: one int64 tensor of indices per dimension (a 0-d tensor
/// counts as 1-d, as in PyTorch).
pub fn nonzero_tuple(t: &Tensor) -> Result<Vec<Tensor>> {
    let t = if t.ndim() == 0 {
        t.alias(super::layout::Layout::contiguous(vec![1]))
    } else {
        t.clone()
    };
    let (coords, n) = nonzero_coordinates(&t)?;
    let ndim = t.ndim();
    (0..ndim)
        .map(|k| {
            let column: Vec<i64> = (0..n).map(|r| coords[r * ndim + k]).collect();
            elements::from_i64s(&column, vec![n as i64])
        })
        .collect()
}

/// `t.roll(shifts, dims)`: elements shifted along each dim, wrapping around; without dims,
/// along the flattened tensor, keeping the shape.
pub fn roll(t: &Tensor, shifts: &[i64], dims: &[i64]) -> Result<Tensor> {
    if shifts.is_empty() {
        return Err(TorchError::runtime("`shifts` required"));
    }
    let sizes = t.sizes();
    let d = t.dtype();
    let item = d.itemsize();
    let values = elements::image(t)?;
    if dims.is_empty() {
        if shifts.len() != 1 {
            return Err(TorchError::runtime(format!(
                "shifts and dimensions must align. shifts: {}, dims:0",
                shifts.len()
            )));
        }
        let n = values.len() / item;
        let out = rolled(&values, (1, n, item), shifts[0])?;
        return Ok(elements::from_image(out, sizes, d));
    }
    if shifts.len() != dims.len() {
        return Err(TorchError::runtime(format!(
            "shifts and dimensions must align. shifts: {}, dims:{}",
            shifts.len(),
            dims.len()
        )));
    }
    let mut out = values;
    for (&shift, &dim) in shifts.iter().zip(dims) {
        // A 0-d tensor has no dimension to name (PyTorch wraps `dim` without a scalar's
        // allowance here).
        if t.ndim() == 0 {
            return Err(TorchError::index(format!(
                "Dimension specified as {dim} but tensor has no dimensions"
            )));
        }
        let dim_index = wrap_dim(dim, t.ndim())?;
        let (outer, size, inner) = split_at(&sizes, dim_index);
        out = rolled(&out, (outer, size, inner * item), shift)?;
    }
    Ok(elements::from_image(out, sizes, d))
}

/// Rolls a row-major image by `shift` along the middle axis of `(outer, size, inner)`,
/// `inner` counting bytes (the elements after that axis times the item size).
fn rolled(
    values: &[u8],
    (outer, size, inner): (usize, usize, usize),
    shift: i64,
) -> Result<Vec<u8>> {
    let mut out = vec_with_capacity(values.len())?;
    if size == 0 {
        out.extend_from_slice(values);
        return Ok(out);
    }
    let s = shift.rem_euclid(size as i64) as usize;
    for o in 0..outer {
        for i in 0..size {
            let from = (i + size - s) % size;
            let start = (o * size + from) * inner;
            out.extend_from_slice(&values[start..start + inner]);
        }
    }
    Ok(out)
}

/// `torch.diag(t, diagonal)` of a 1-d tensor: a square matrix with `t` on that diagonal.
pub fn diag_embed_1d(t: &Tensor, diagonal: i64) -> Result<Tensor> {
    let d = t.dtype();
    let item = d.itemsize();
    let values = elements::image(t)?;
    let n = (values.len() / item) as i64;
    let side = n
        .checked_add(diagonal.checked_abs().unwrap_or(i64::MAX))
        .ok_or_else(|| TorchError::runtime("diag(): the matrix is too large"))?;
    let total = super::memory::alloc::checked_numel(&[side, side])?;
    let mut out = super::memory::alloc::zeroed_bytes(
        (total as usize)
            .checked_mul(item)
            .ok_or_else(|| TorchError::runtime("diag(): the matrix is too large"))?,
    )?;
    let (row0, col0) = if diagonal >= 0 {
        (0, diagonal)
    } else {
        (-diagonal, 0)
    };
    for (k, v) in values.chunks_exact(item).enumerate() {
        let (r, c) = (row0 + k as i64, col0 + k as i64);
        let at = (r * side + c) as usize * item;
        out[at..at + item].copy_from_slice(v);
    }
    Ok(elements::from_image(out, vec![side, side], d))
}

/// `t.sort(dim, descending)`: the values along `dim` in order and where each came from.
/// Equal elements keep their order (PyTorch's CPU sort is stable either way).
pub fn sort(t: &Tensor, dim: i64, descending: bool) -> Result<(Tensor, Tensor)> {
    let d = wrap_dim(dim, t.ndim().max(1))?;
    if t.dtype().is_complex() {
        return Err(TorchError::type_error(
            " Sort does not support complex dtypes on CPU",
        ));
    }
    let sizes = t.sizes();
    if t.numel() == 0 {
        // Nothing to order, whatever the other dims hold (one may be near 2^63): two
        // empty results shaped and laid out like the input, with no loop over its rows.
        let like =
            |dtype| super::result_layout::like_input(Tensor::zeros(sizes.clone(), dtype)?, t);
        return Ok((like(t.dtype())?, like(DType::Int64)?));
    }
    if let Some(sorted) = super::engine::sort::sort_tensor(t, d, descending)? {
        return Ok(sorted);
    }
    // The dtypes the typed sort does not cover (the float8 ones) sort their exact float64
    // values, which convert back exactly.
    let wide = copy::cast_copy(t, DType::Float64)?;
    let Some((values, indices)) = super::engine::sort::sort_tensor(&wide, d, descending)? else {
        return Err(super::unbuilt_kernels::not_built("sort", t.dtype()));
    };
    let like = |out: Tensor| super::result_layout::like_input(out, t);
    Ok((like(copy::cast_copy(&values, t.dtype())?)?, like(indices)?))
}

/// `t.signbit()`: whether each element's sign bit is set (`-0.0` and `-nan` included).
pub fn signbit(t: &Tensor) -> Result<Tensor> {
    if t.dtype().is_complex() {
        return Err(TorchError::not_implemented(
            "signbit is not implemented for complex tensors.",
        ));
    }
    let d = t.dtype();
    let signed = d.is_signed();
    let item = d.itemsize();
    let values = elements::image(t)?;
    let float8 = matches!(
        d,
        DType::Float8E4M3FN | DType::Float8E4M3FNUZ | DType::Float8E5M2 | DType::Float8E5M2FNUZ
    );
    let out: Vec<u8> = if float8 {
        // A float8 NaN has no sign PyTorch reports: read the value.
        values
            .iter()
            .map(|&b| u8::from(element::read(d, &[b]).to_f64().is_sign_negative()))
            .collect()
    } else if signed {
        // The sign bit is the top bit of an element's last byte (little-endian).
        values
            .chunks_exact(item)
            .map(|b| b[item - 1] >> 7)
            .collect()
    } else {
        super::memory::alloc::zeroed_bytes(values.len() / item)?
    };
    super::result_layout::elementwise_image(out, t, DType::Bool)
}

/// `t.logical_not()` as bools.
pub fn logical_not(t: &Tensor) -> Result<Tensor> {
    let out = elements::truth(t)?.into_iter().map(|b| b ^ 1).collect();
    super::result_layout::elementwise_image(out, t, DType::Bool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::creation::from_scalars;

    fn arange_i64(n: i64) -> Result<Tensor> {
        let values: Vec<Scalar> = (0..n).map(Scalar::Int).collect();
        from_scalars(&values, vec![n], DType::Int64)
    }

    fn ints(t: &Tensor) -> Vec<i64> {
        crate::core::copy::int_values(t)
    }

    #[test]
    fn index_select_reads_any_layout_and_checks_bounds() {
        let x = crate::core::views::view(&arange_i64(6).unwrap(), &[2, 3]).unwrap();
        let xt = crate::core::views::transpose(&x, 0, 1).unwrap();
        let i = from_scalars(&[Scalar::Int(1)], vec![1], DType::Int64).unwrap();
        assert_eq!(ints(&index_select(&xt, 1, &i).unwrap()), vec![3, 4, 5]);
        let bad = from_scalars(&[Scalar::Int(3)], vec![1], DType::Int64).unwrap();
        assert!(index_select(&xt, 0, &bad).is_err());
    }

    #[test]
    fn roll_wraps_both_ways() {
        let x = arange_i64(5).unwrap();
        assert_eq!(ints(&roll(&x, &[2], &[]).unwrap()), vec![3, 4, 0, 1, 2]);
        assert_eq!(ints(&roll(&x, &[-6], &[0]).unwrap()), vec![1, 2, 3, 4, 0]);
    }
}
