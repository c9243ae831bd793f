//! `scatter`, `scatter_add` and `scatter_reduce`: the inverse of `gather`. Each index
//! element names, along `dim`, where the source element at its own position lands in the
//! result: for `dim = 0`, `out[index[i][j]][j] = src[i][j]`. PyTorch's checks and messages;
//! the placing is the engine's (`engine::place`), in the index's row-major order, so a
//! place named twice ends as PyTorch's does.

use super::copy;
use super::dtype::DType;
use super::element;
use super::engine::elements;
use super::engine::place::{self, Combine};
use super::error::{Result, TorchError, wrap_dim};
use super::scalar::Scalar;
use super::tensor::Tensor;

/// What is scattered: a tensor's elements, or one value everywhere.
#[derive(Clone, Copy)]
pub enum Source<'a> {
    /// `src=`: the element at the index element's own position.
    Tensor(&'a Tensor),
    /// `value=`: the same number at every place.
    Value(Scalar),
}

/// Row-major element strides of `sizes`.
pub(crate) fn row_major_strides(sizes: &[i64]) -> Vec<usize> {
    let mut strides = vec![1usize; sizes.len()];
    for k in (0..sizes.len().saturating_sub(1)).rev() {
        strides[k] = strides[k + 1] * sizes[k + 1].max(0) as usize;
    }
    strides
}

/// The sizes of `t`, a 0-d tensor counted as one element of one dimension.
pub(crate) fn sizes_at_least_1d(t: &Tensor) -> Vec<i64> {
    let s = t.sizes();
    if s.is_empty() { vec![1] } else { s }
}

/// The values of an int32 or int64 index tensor, in row-major order.
pub(crate) fn index_values(index: &Tensor) -> Result<Vec<i64>> {
    super::engine::gather_rows::index_values(index)
}

/// Checks a scatter's operands as PyTorch does, returning the wrapped `dim`.
fn check(t: &Tensor, dim: i64, index: &Tensor, src: Source) -> Result<usize> {
    let d = wrap_dim(dim, t.ndim().max(1))?;
    if !matches!(index.dtype(), DType::Int64 | DType::Int32) {
        return Err(TorchError::runtime(
            "scatter(): Expected dtype int32/int64 for index",
        ));
    }
    if let Source::Tensor(s) = src
        && s.dtype() != t.dtype()
    {
        return Err(TorchError::runtime(
            "scatter(): Expected self.dtype to be equal to src.dtype",
        ));
    }
    if index.numel() == 0 {
        return Ok(d);
    }
    if index.ndim().max(1) != t.ndim().max(1) {
        return Err(TorchError::runtime(
            "Index tensor must have the same number of dimensions as self tensor",
        ));
    }
    let (sizes, isizes) = (sizes_at_least_1d(t), sizes_at_least_1d(index));
    match src {
        Source::Tensor(s) => {
            // PyTorch's order: index against self in every dim but `d`, then (if that
            // fits) against src in every dim, asking src for each size (a src of fewer
            // dims fails there, with the dim-wrapping error); then src's rank; then the
            // sizes' verdict.
            let ssizes = sizes_at_least_1d(s);
            let mut too_big = (0..isizes.len()).any(|k| k != d && isizes[k] > sizes[k]);
            if !too_big {
                for (k, &size) in isizes.iter().enumerate() {
                    let Some(&along) = ssizes.get(k) else {
                        wrap_dim(k as i64, s.ndim().max(1))?;
                        break;
                    };
                    if size > along {
                        too_big = true;
                        break;
                    }
                }
            }
            if s.ndim().max(1) != index.ndim().max(1) {
                return Err(TorchError::runtime(
                    "Index tensor must have the same number of dimensions as src tensor",
                ));
            }
            if too_big {
                return Err(TorchError::runtime(format!(
                    "Expected index {} to be no larger than self {} apart from dimension {d} and to be no larger size than src {}",
                    list(&index.sizes()),
                    list(&t.sizes()),
                    list(&s.sizes())
                )));
            }
        }
        Source::Value(_) => {
            if (0..isizes.len()).any(|k| k != d && isizes[k] > sizes[k]) {
                return Err(TorchError::runtime(format!(
                    "Expected index {} to be no larger than self {} apart from dimension {d}",
                    list(&index.sizes()),
                    list(&t.sizes())
                )));
            }
        }
    }
    Ok(d)
}

/// `[3, 4]`, as PyTorch prints sizes in these messages.
fn list(sizes: &[i64]) -> String {
    format!("{sizes:?}")
}

/// The `(result, source)` element pairs of a scatter, in the index's row-major order,
/// refusing an index value outside `[0, size)` along `d`.
fn pairs(t: &Tensor, d: usize, index: &Tensor, src: Source) -> Result<Vec<(usize, usize)>> {
    let sizes = sizes_at_least_1d(t);
    let isizes = sizes_at_least_1d(index);
    let ostrides = row_major_strides(&sizes);
    let sstrides = match src {
        Source::Tensor(s) => row_major_strides(&sizes_at_least_1d(s)),
        Source::Value(_) => vec![0; isizes.len()],
    };
    let values = index_values(index)?;
    let size = sizes[d];
    let mut out = super::memory::alloc::vec_with_capacity(values.len())?;
    let mut coords = vec![0i64; isizes.len()];
    for &v in &values {
        if v < 0 || v >= size {
            return Err(TorchError::runtime(format!(
                "index {v} is out of bounds for dimension {d} with size {size}"
            )));
        }
        let mut o = 0usize;
        let mut s = 0usize;
        for (k, &c) in coords.iter().enumerate() {
            let at = if k == d { v } else { c } as usize;
            o += at * ostrides[k];
            s += c as usize * sstrides[k];
        }
        out.push((o, s));
        for k in (0..coords.len()).rev() {
            coords[k] += 1;
            if coords[k] < isizes[k] {
                break;
            }
            coords[k] = 0;
        }
    }
    Ok(out)
}

/// The source as element bytes in `dtype`: a tensor's row-major image, or one value.
fn source_image(src: Source, dtype: DType) -> Result<Vec<u8>> {
    Ok(match src {
        Source::Tensor(s) => elements::image(s)?,
        Source::Value(v) => element::encode(dtype, v).0[..dtype.itemsize()].to_vec(),
    })
}

/// `t.scatter*(dim, index, src)` into a new tensor: `how` combines each source element with
/// what is at its place (`include_self` false: places that receive one start from the
/// reduction's identity).
pub fn scatter(
    t: &Tensor,
    dim: i64,
    index: &Tensor,
    src: Source,
    how: Combine,
    include_self: bool,
) -> Result<Tensor> {
    let d = check(t, dim, index, src)?;
    if how != Combine::Replace {
        place::check_dtype(how, t.dtype())?;
    }
    if index.numel() == 0 {
        return place::placed(t, how, include_self, &[], &[]);
    }
    let pairs = pairs(t, d, index, src)?;
    let source = source_image(src, t.dtype())?;
    place::placed(t, how, include_self, &source, &pairs)
}

/// `t.scatter*_(...)`: `scatter`, written back into `t`.
pub fn scatter_(
    t: &Tensor,
    dim: i64,
    index: &Tensor,
    src: Source,
    how: Combine,
    include_self: bool,
) -> Result<()> {
    let out = scatter(t, dim, index, src, how, include_self)?;
    copy::copy_(t, &out)
}

/// The reduction `scatter_reduce` names (`sum`, `prod`, `mean`, `amax`, `amin`).
pub fn scatter_reduction(name: &str) -> Result<Combine> {
    Ok(match name {
        "sum" => Combine::Sum,
        "prod" => Combine::Prod,
        "mean" => Combine::Mean,
        "amax" => Combine::Amax,
        "amin" => Combine::Amin,
        other => {
            return Err(TorchError::runtime(format!(
                "reduce argument must be either sum, prod, mean, amax or amin, got {other}"
            )));
        }
    })
}

/// The reduction `scatter(..., reduce=)` names (`add`, `multiply`).
pub fn scatter_legacy_reduction(name: &str) -> Result<Combine> {
    match name {
        "add" => Ok(Combine::Sum),
        "multiply" => Ok(Combine::Prod),
        _ => Err(TorchError::runtime(
            "reduce argument must be either add or multiply.",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::creation::arange;

    fn long(values: &[i64], sizes: Vec<i64>) -> Tensor {
        elements::from_i64s(values, sizes).unwrap()
    }

    #[test]
    fn repeated_places_keep_the_last_and_sums_add() {
        let t = long(&[0, 0, 0], vec![3]);
        let idx = long(&[1, 1, 0], vec![3]);
        let src = long(&[5, 6, 7], vec![3]);
        let r = scatter(&t, 0, &idx, Source::Tensor(&src), Combine::Replace, true).unwrap();
        assert_eq!(copy::int_values(&r), vec![7, 6, 0]);
        let r = scatter(&t, 0, &idx, Source::Tensor(&src), Combine::Sum, true).unwrap();
        assert_eq!(copy::int_values(&r), vec![7, 11, 0]);
    }

    #[test]
    fn an_index_out_of_range_is_refused_before_anything_is_written() {
        let t = arange(Scalar::Int(0), Scalar::Int(3), Scalar::Int(1), None).unwrap();
        let idx = long(&[0, 3], vec![2]);
        let e = scatter_(
            &t,
            0,
            &idx,
            Source::Value(Scalar::Int(9)),
            Combine::Replace,
            true,
        )
        .unwrap_err();
        assert_eq!(
            e.message,
            "index 3 is out of bounds for dimension 0 with size 3"
        );
        assert_eq!(copy::int_values(&t), vec![0, 1, 2]);
    }
}
