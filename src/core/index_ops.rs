//! `index_add`, `index_copy`, `index_fill` and `index_reduce`: whole slices along `dim`
//! chosen by a vector of indices, `out.select(dim, index[j])` meeting
//! `source.select(dim, j)`. PyTorch's checks (each op words them its own way) and messages;
//! the placing is the engine's (`engine::place`), slice after slice in the index's order.

use super::copy;
use super::dtype::DType;
use super::element;
use super::engine::elements;
use super::engine::place::{self, Combine};
use super::error::{Result, TorchError, wrap_dim};
use super::layout::Layout;
use super::operand::{Arg, BinaryOp};
use super::scalar::Scalar;
use super::scatter::{index_values, sizes_at_least_1d};
use super::tensor::Tensor;

/// `(outer, size, inner)` of `sizes` split around `d`.
fn split_at(sizes: &[i64], d: usize) -> (usize, usize, usize) {
    let p = |s: &[i64]| s.iter().map(|&x| x.max(0) as usize).product::<usize>();
    (p(&sizes[..d]), sizes[d].max(0) as usize, p(&sizes[d + 1..]))
}

/// The `(result, source)` pairs of an index op: slice `j` of the source lands on slice
/// `idx[j]` of the result, in `j`'s order.
fn slice_pairs(sizes: &[i64], d: usize, idx: &[i64]) -> Result<Vec<(usize, usize)>> {
    let (outer, size, inner) = split_at(sizes, d);
    let n = idx.len();
    let total = outer
        .checked_mul(n)
        .and_then(|x| x.checked_mul(inner))
        .ok_or_else(|| TorchError::runtime("index op: too many elements"))?;
    let mut out = super::memory::alloc::vec_with_capacity(total)?;
    for o in 0..outer {
        for (j, &v) in idx.iter().enumerate() {
            let dst = (o * size + v as usize) * inner;
            let src = (o * n + j) * inner;
            out.extend((0..inner).map(|i| (dst + i, src + i)));
        }
    }
    Ok(out)
}

/// Refuses an index of more than one dim, as `op` words it.
fn require_vector(op: &str, index: &Tensor) -> Result<()> {
    if index.ndim() > 1 {
        return Err(TorchError::index(format!(
            "{op}: Index is supposed to be a vector, but got dim: {} with type: {} and size: {:?}",
            index.ndim(),
            index.dtype().cpp_name(),
            index.sizes()
        )));
    }
    Ok(())
}

/// Which op is checking, for its wording.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Add,
    Copy,
    Reduce,
}

/// Checks an index op with a source as PyTorch does; returns the wrapped dim and the index
/// values.
fn check_with_source(
    op: Op,
    t: &Tensor,
    dim: i64,
    index: &Tensor,
    source: &Tensor,
) -> Result<(usize, Vec<i64>)> {
    let d = wrap_dim(dim, t.ndim().max(1))?;
    let name = match op {
        Op::Add => "index_add_()",
        Op::Copy => "index_copy_()",
        Op::Reduce => "index_reduce_()",
    };
    require_vector(name, index)?;
    if op == Op::Copy && index.dtype() != DType::Int64 {
        return Err(TorchError::runtime(format!(
            "{name}: Expected a long tensor for index, but got {}",
            index.dtype().cpp_name()
        )));
    }
    if !matches!(index.dtype(), DType::Int64 | DType::Int32) {
        return Err(TorchError::runtime(format!(
            "{name}: Expected dtype int32/int64 for index but got: {}",
            index.dtype().cpp_name()
        )));
    }
    if source.dtype() != t.dtype() {
        return Err(TorchError::runtime(match op {
            Op::Copy => format!(
                "{name}: self and source expected to have the same dtype, but got (self) {} and (source) {}",
                t.dtype().cpp_name(),
                source.dtype().cpp_name()
            ),
            _ => format!(
                "{name}: self ({}) and source ({}) must have the same scalar type",
                t.dtype().cpp_name(),
                source.dtype().cpp_name()
            ),
        }));
    }
    let ssizes = sizes_at_least_1d(source);
    let n = index.numel();
    let source_along = if source.ndim() == 0 {
        1
    } else {
        ssizes.get(d).copied().unwrap_or(1)
    };
    if n != source_along {
        return Err(match op {
            Op::Copy => TorchError::index(format!(
                "{name}: Number of indices ({n}) should be equal to source.size(dim) ({source_along})"
            )),
            _ => TorchError::runtime(format!(
                "{name}: Number of indices ({n}) should be equal to source.size(dim): ({source_along}), for dim: {d}"
            )),
        });
    }
    let sizes = sizes_at_least_1d(t);
    let same_elsewhere =
        ssizes.len() == sizes.len() && (0..sizes.len()).all(|k| k == d || sizes[k] == ssizes[k]);
    if !(same_elsewhere || (t.ndim() <= 1 && source.ndim() <= 1)) {
        return Err(TorchError::runtime(format!(
            "source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = {:?} source.shape = {:?}",
            t.sizes(),
            source.sizes()
        )));
    }
    let idx = index_values(index)?;
    let size = sizes[d];
    if let Some(&bad) = idx.iter().find(|&&v| v < 0 || v >= size) {
        return Err(match op {
            Op::Copy => TorchError::index(format!(
                "{name}: index {bad} is out of bounds for dimension {d} with size {size}"
            )),
            _ => TorchError::runtime(format!(
                "index {bad} is out of bounds for dimension {d} with size {size}"
            )),
        });
    }
    Ok((d, idx))
}

/// The reduction `index_reduce` names (`prod`, `mean`, `amax`, `amin`).
pub fn index_reduction(name: &str) -> Result<Combine> {
    Ok(match name {
        "prod" => Combine::Prod,
        "mean" => Combine::Mean,
        "amax" => Combine::Amax,
        "amin" => Combine::Amin,
        other => {
            return Err(TorchError::runtime(format!(
                "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {other}."
            )));
        }
    })
}

/// `t.index_add(dim, index, source, alpha=)`: each source slice, times `alpha` (rounded to
/// the dtype first, as PyTorch multiplies), added to the slice its index names.
pub fn index_add(
    t: &Tensor,
    dim: i64,
    index: &Tensor,
    source: &Tensor,
    alpha: Scalar,
) -> Result<Tensor> {
    let (d, idx) = check_with_source(Op::Add, t, dim, index, source)?;
    let dtype = t.dtype();
    let mut src = elements::image(source)?;
    let one = matches!(alpha, Scalar::Int(1)) || matches!(alpha, Scalar::Float(x) if x == 1.0);
    if !one {
        // PyTorch's alpha is a number of the dtype (2.5 adds twice to an integer tensor).
        let alpha = element::cast(dtype, alpha);
        let scaled = super::ops::binary_untracked(
            BinaryOp::Mul,
            &Arg::Tensor(elements::from_image(src, source.sizes(), dtype)),
            &Arg::Number(alpha),
        )?;
        src = elements::image(&copy::cast_copy(&scaled, dtype)?)?;
    }
    apply(t, d, &idx, &src, Combine::Sum, true)
}

/// `t.index_copy(dim, index, source)`: each source slice replaces the slice its index
/// names (the last one wins where an index repeats).
pub fn index_copy(t: &Tensor, dim: i64, index: &Tensor, source: &Tensor) -> Result<Tensor> {
    let (d, idx) = check_with_source(Op::Copy, t, dim, index, source)?;
    let src = elements::image(source)?;
    apply(t, d, &idx, &src, Combine::Replace, true)
}

/// `t.index_reduce(dim, index, source, reduce, include_self=)`.
pub fn index_reduce(
    t: &Tensor,
    dim: i64,
    index: &Tensor,
    source: &Tensor,
    how: Combine,
    include_self: bool,
) -> Result<Tensor> {
    let (d, idx) = check_with_source(Op::Reduce, t, dim, index, source)?;
    if t.dtype().is_complex() || t.dtype() == DType::Bool {
        return Err(TorchError::not_implemented(format!(
            "\"index_func_\" not implemented for '{}'",
            t.dtype().cpp_name()
        )));
    }
    let src = elements::image(source)?;
    apply(t, d, &idx, &src, how, include_self)
}

/// `index_fill`'s index: an `int64` vector (or scalar).
fn check_fill_index(index: &Tensor) -> Result<()> {
    if index.dtype() != DType::Int64 {
        return Err(TorchError::index(
            "index_fill_(): Expected dtype int64 for index.",
        ));
    }
    require_vector("index_fill_()", index)
}

/// PyTorch's `index_fill_` writes through `t` restrided to `index`'s length along `dim`
/// with stride 0 there (one kernel step per index and element): that view must lie in the
/// storage written (`t`'s own in place, else a fresh copy of `t`'s), with PyTorch's
/// `setStorage` error, and only a view with elements reads the indices. Whether it has
/// elements (with none, `index_fill` checks no index and writes nothing).
pub fn index_fill_writes(t: &Tensor, dim: i64, index: &Tensor, in_place: bool) -> Result<bool> {
    let d = wrap_dim(dim, t.ndim().max(1))?;
    check_fill_index(index)?;
    let item = t.dtype().itemsize();
    let (mut layout, nbytes) = if in_place {
        (t.layout(), t.storage().nbytes())
    } else {
        let n = t.numel().max(0) as usize;
        (Layout::contiguous(t.sizes()), n * item)
    };
    if layout.sizes.is_empty() {
        // A 0-d tensor is written as its one-element 1-d view.
        layout.sizes.push(1);
        layout.strides.push(1);
    }
    layout.sizes[d] = index.numel();
    layout.strides[d] = 0;
    layout.check_in_bounds(item, nbytes)?;
    Ok(!layout.sizes.contains(&0))
}

/// `t.index_fill(dim, index, value)`: the value in every slice the index names.
pub fn index_fill(t: &Tensor, dim: i64, index: &Tensor, value: Scalar) -> Result<Tensor> {
    let d = wrap_dim(dim, t.ndim().max(1))?;
    check_fill_index(index)?;
    let sizes = sizes_at_least_1d(t);
    let size = sizes[d];
    let mut idx = index_values(index)?;
    for v in idx.iter_mut() {
        if *v < -size || *v >= size {
            return Err(TorchError::index(format!(
                "index {v} is out of bounds for dimension {d} with size {size}"
            )));
        }
        if *v < 0 {
            *v += size;
        }
    }
    let dtype = t.dtype();
    let one = element::encode(dtype, value).0[..dtype.itemsize()].to_vec();
    let (outer, _, inner) = split_at(&sizes, d);
    let total = outer
        .checked_mul(idx.len())
        .and_then(|x| x.checked_mul(inner))
        .ok_or_else(|| TorchError::runtime("index_fill: too many elements"))?;
    let mut pairs = super::memory::alloc::vec_with_capacity(total)?;
    for o in 0..outer {
        for &v in &idx {
            let dst = (o * size as usize + v as usize) * inner;
            pairs.extend((0..inner).map(|i| (dst + i, 0)));
        }
    }
    place::placed(t, Combine::Replace, true, &one, &pairs)
}

/// `t.fill_diagonal_(value, wrap)`: the main diagonal of a matrix, or of a tensor whose
/// dims all have one length, set to `value`; with `wrap`, a tall matrix's diagonal starts
/// again after one skipped row, as if the rows ran on.
pub fn fill_diagonal_(t: &Tensor, value: Scalar, wrap: bool) -> Result<()> {
    let sizes = t.sizes();
    if sizes.len() < 2 {
        return Err(TorchError::runtime("dimensions must larger than 1"));
    }
    if sizes.len() > 2 && sizes.iter().any(|&s| s != sizes[0]) {
        return Err(TorchError::runtime(
            "all dimensions of input must be of equal length",
        ));
    }
    let numel = sizes.iter().product::<i64>().max(0) as usize;
    // Row-major, one step along every dim at once.
    let step = super::scatter::row_major_strides(&sizes)
        .iter()
        .sum::<usize>();
    let n = sizes.iter().copied().min().unwrap_or(0).max(0) as usize;
    let count = if wrap && sizes.len() == 2 {
        numel.div_ceil(step.max(1))
    } else {
        n
    };
    let pairs: Vec<(usize, usize)> = (0..count).map(|k| (k * step, 0)).collect();
    let dtype = t.dtype();
    let one = element::encode(dtype, value).0[..dtype.itemsize()].to_vec();
    copy::copy_(t, &place::placed(t, Combine::Replace, true, &one, &pairs)?)
}

/// The result of an index op: `t`'s image with the source slices placed.
fn apply(
    t: &Tensor,
    d: usize,
    idx: &[i64],
    src: &[u8],
    how: Combine,
    include_self: bool,
) -> Result<Tensor> {
    let sizes = sizes_at_least_1d(t);
    let pairs = slice_pairs(&sizes, d, idx)?;
    place::placed(t, how, include_self, src, &pairs)
}

/// A tensor of `sizes` holding zeros with `values`' row-major elements added at the flat
/// row-major `positions` (one per element, in order; a position named twice receives
/// both): the gradient of any op that reads each output element from one input element.
pub fn add_at_positions(
    sizes: &[i64],
    dtype: DType,
    positions: &[i64],
    values: &Tensor,
) -> Result<Tensor> {
    let numel: i64 = sizes.iter().product();
    let flat = Tensor::zeros(vec![numel], dtype)?;
    let values = copy::cast_copy(values, dtype)?;
    let values = super::views::reshape(&values, &[-1])?;
    let index = elements::from_i64s(positions, vec![positions.len() as i64])?;
    let summed = index_add(&flat, 0, &index, &values, Scalar::Int(1))?;
    super::views::view(&summed, sizes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn long(values: &[i64], sizes: Vec<i64>) -> Tensor {
        elements::from_i64s(values, sizes).unwrap()
    }

    #[test]
    fn slices_land_where_the_index_says() {
        let t = long(&[0; 6], vec![3, 2]);
        let src = long(&[1, 2, 3, 4], vec![2, 2]);
        let idx = long(&[2, 0], vec![2]);
        let r = index_add(&t, 0, &idx, &src, Scalar::Int(10)).unwrap();
        assert_eq!(copy::int_values(&r), vec![30, 40, 0, 0, 10, 20]);
        let r = index_copy(
            &t,
            1,
            &long(&[1, 0], vec![2]),
            &long(&[1, 2, 3, 4, 5, 6], vec![3, 2]),
        )
        .unwrap();
        assert_eq!(copy::int_values(&r), vec![2, 1, 4, 3, 6, 5]);
        let r = index_fill(&t, 1, &long(&[-1], vec![1]), Scalar::Int(7)).unwrap();
        assert_eq!(copy::int_values(&r), vec![0, 7, 0, 7, 0, 7]);
    }
}
