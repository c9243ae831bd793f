//! The row mode of the engine, for reductions the typed `extreme` and whole-tensor sums do
//! not cover (sums, products, means, `all`/`any` and variances over dims): the tensor is
//! permuted so the reduced dims come last and copied once, contiguous, into the type the
//! reduction reads (`f32`, `f64`, `i64`, complex `f64` or `u8`); each output's values are
//! then one contiguous row of bytes, handed to a typed row function, whose result is
//! stored in the type it computes in and rounded once to the output's dtype.

use crate::core::copy::cast_copy;
use crate::core::dtype::DType;
use crate::core::error::Result;
use crate::core::interrupt;
use crate::core::kernels::lane::Lane;
use crate::core::memory::alloc;
use crate::core::tensor::Tensor;
use crate::core::views::{permute, reshape};

/// What a reduction over rows reads and writes.
pub struct RowPlan<'a> {
    /// The reduced dims (sorted, wrapped).
    pub reduced: &'a [usize],
    /// The sizes of the result (`keepdim` and whole reductions already applied).
    pub out_sizes: Vec<i64>,
    /// The dtype of the result.
    pub out_dtype: DType,
    /// The dtype the rows are read in (the element type of the row function's bytes).
    pub read: DType,
    /// The dtype the row function's results are stored in, before the one rounding to
    /// `out_dtype`.
    pub result: DType,
}

/// One output per row of `t` arranged by `plan`: `row_value(bytes, inner)` gets the row's
/// elements (contiguous, in `plan.read`, in the reduced dims' row-major order) and whether
/// they are the innermost contiguous dim of `t` (where PyTorch's float sums cascade).
pub fn by_rows<R: Lane>(
    t: &Tensor,
    plan: RowPlan,
    mut row_value: impl FnMut(&[u8], bool) -> R,
) -> Result<Tensor> {
    let sizes = t.sizes();
    let ndim = sizes.len();
    let reduced = plan.reduced;
    // Kept dims first, then reduced dims: each output's values are consecutive.
    let kept: Vec<usize> = (0..ndim).filter(|d| !reduced.contains(d)).collect();
    // PyTorch allocates the output first, so an output too large to exist (a reduction over
    // an empty dimension keeps the huge others) fails with its size in bytes.
    let kept_sizes: Vec<i64> = kept.iter().map(|&d| sizes[d]).collect();
    let out_bytes = alloc::contiguous_nbytes(&kept_sizes, plan.out_dtype.itemsize())?;
    drop(alloc::zeroed_bytes(out_bytes)?);
    let order: Vec<i64> = kept.iter().chain(reduced).map(|&d| d as i64).collect();
    let arranged = if ndim == 0 {
        t.clone()
    } else {
        permute(t, &order)?
    };
    // Rows already laid out end to end in the type they are read in are read in place.
    let in_place =
        arranged.dtype() == plan.read && arranged.is_resolved() && arranged.is_contiguous();
    let rows = if in_place {
        arranged
    } else {
        cast_copy(&arranged, plan.read)?
    };
    let first = rows.layout().offset.max(0) as usize * plan.read.itemsize();
    let row: usize = reduced
        .iter()
        .map(|&d| sizes[d].max(0) as usize)
        .product::<usize>()
        .max(if ndim == 0 { 1 } else { 0 });
    let outputs: usize = kept_sizes.iter().map(|&s| s.max(0) as usize).product();
    let layout = t.layout();
    let inner = ndim <= 1
        || (reduced.len() == 1
            && reduced[0] == ndim - 1
            && layout.strides.last().is_none_or(|s| *s == 1));
    let row_bytes = row * plan.read.itemsize();
    let results = Tensor::zeros(vec![outputs as i64], plan.result)?;
    rows.storage().with_bytes(|src| {
        rows.layout()
            .check_in_bounds(plan.read.itemsize(), src.len())?;
        // `results` is a new storage, not `rows`' (nor `t`'s): the borrows are disjoint.
        results.storage().with_bytes_mut(|dst| {
            for (o, out) in dst.chunks_exact_mut(R::SIZE).enumerate() {
                interrupt::check_every(o);
                let start = first + o * row_bytes;
                let values = src.get(start..start + row_bytes).unwrap_or(&[]);
                row_value(values, inner).store(out);
            }
        });
        Ok::<(), crate::core::error::TorchError>(())
    })?;
    let shaped = reshape(&results, &plan.out_sizes)?;
    if plan.result == plan.out_dtype {
        Ok(shaped)
    } else {
        cast_copy(&shaped, plan.out_dtype)
    }
}

/// The values of a row of `T`s.
pub fn values<T: Lane>(row: &[u8]) -> impl Iterator<Item = T> + '_ {
    row.chunks_exact(T::SIZE).map(T::load)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::creation::arange;
    use crate::core::scalar::Scalar;

    #[test]
    fn each_output_reads_its_own_row_in_the_reduced_dims_order() {
        let t = crate::core::views::view(
            &arange(Scalar::Int(0), Scalar::Int(24), Scalar::Int(1), None).unwrap(),
            &[2, 3, 4],
        )
        .unwrap();
        // Reduce dims 0 and 2: each output (one per dim-1 index) sees 8 values.
        let plan = RowPlan {
            reduced: &[0, 2],
            out_sizes: vec![3],
            out_dtype: DType::Int64,
            read: DType::Int64,
            result: DType::Int64,
        };
        let firsts = by_rows(&t, plan, |row, inner| {
            assert!(!inner);
            let v: Vec<i64> = values(row).collect();
            assert_eq!(v.len(), 8);
            v[0] * 100 + v[4]
        })
        .unwrap();
        let got = crate::core::copy::int_values(&firsts);
        assert_eq!(got, vec![12, 416, 820]);
    }
}
