//! Searches in sorted boundaries: `searchsorted` (each value's insertion point in the
//! innermost rows of a sorted tensor, optionally through a `sorter` permutation),
//! `bucketize` (the same over 1-d boundaries), and `isin` (membership). Values are compared
//! as `i64` when both operands are integers, else as `f64`; the boundaries and test
//! elements are read once, and each value costs a binary search.

use super::creation::scalar_dtype;
use super::dtype::DType;
use super::engine::elements;
use super::error::{Result, TorchError};
use super::memory::alloc;
use super::operand::Arg;
use super::ops::operand;
use super::promotion::result_type;
use super::tensor::Tensor;
use super::unbuilt_kernels::not_built;

/// The first of `len` positions whose value (`at(i)`, ascending) is `>= v` (`right`: `> v`), NaN sorting last.
fn insertion<T: PartialOrd + Copy>(
    len: usize,
    at: impl Fn(usize) -> T,
    v: T,
    right: bool,
) -> usize {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let m = at(mid);
        // NaN compares false both ways, so it sorts last: "not after v" goes right.
        let after = if right {
            m.partial_cmp(&v) == Some(std::cmp::Ordering::Greater)
        } else {
            matches!(
                m.partial_cmp(&v),
                Some(std::cmp::Ordering::Greater | std::cmp::Ordering::Equal)
            )
        };
        let go_right = !after;
        if go_right {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// How values find their rows of boundaries.
struct Rows<'a> {
    /// Boundaries per row.
    row: usize,
    /// Values per row (`usize::MAX`: one row for all).
    per_row: usize,
    /// The sorter: each row's positions in ascending order.
    order: Option<&'a [i64]>,
    /// Insert after equal boundaries.
    right: bool,
}

impl Rows<'_> {
    /// Pushes each value's insertion point into `found`.
    fn search<T: PartialOrd + Copy>(&self, b: &[T], v: &[T], found: &mut Vec<i64>) {
        for (k, &x) in v.iter().enumerate() {
            crate::core::interrupt::check_every(k);
            let start = if self.per_row == usize::MAX || self.per_row == 0 {
                0
            } else {
                (k / self.per_row) * self.row
            };
            let at = |i: usize| b[start + self.order.map_or(i, |o| o[start + i] as usize)];
            found.push(insertion(self.row, at, x, self.right) as i64);
        }
    }
}

/// Whether the operands' dtypes compare as integers.
fn both_integers(a: DType, b: DType) -> bool {
    a.is_integral() && b.is_integral()
}

/// PyTorch's checks of `searchsorted`'s boundaries, values and sorter.
fn check_search(boundaries: &Tensor, values: &[i64], sorter: Option<&Tensor>) -> Result<()> {
    if boundaries.ndim() == 0 {
        return Err(TorchError::runtime(
            "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension",
        ));
    }
    let b = boundaries.sizes();
    let matches =
        b.len() == 1 || (b.len() == values.len() && b[..b.len() - 1] == values[..values.len() - 1]);
    if !matches {
        return Err(TorchError::runtime(format!(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor {b:?} and input value tensor {values:?}"
        )));
    }
    if let Some(s) = sorter {
        if s.dtype() != DType::Int64 {
            return Err(TorchError::runtime(format!(
                "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype {}",
                s.dtype().cpp_name()
            )));
        }
        if s.sizes() != b {
            return Err(TorchError::runtime(format!(
                "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor {b:?}and got sorter tensor {:?}",
                s.sizes()
            )));
        }
    }
    Ok(())
}

/// `torch.searchsorted(boundaries, values, right=, sorter=)`: for each value, the index
/// where it would be inserted into its row of `boundaries` (the innermost dim; a 1-d
/// `boundaries` serves every value), as int64 (`out_int32`: int32). A number value gives a
/// 0-d result.
pub fn searchsorted(
    boundaries: &Tensor,
    values_arg: &Arg,
    right: bool,
    out_int32: bool,
    sorter: Option<&Tensor>,
) -> Result<Tensor> {
    let value_tensor = match values_arg {
        Arg::Tensor(t) => t.clone(),
        Arg::Number(s) => crate::core::creation::full(&[], *s, scalar_dtype(*s))?,
    };
    let vsizes = value_tensor.sizes();
    check_search(boundaries, &vsizes, sorter)?;
    let common = result_type(&[
        operand(&Arg::Tensor(boundaries.clone())),
        operand(values_arg),
    ])?;
    if value_tensor.numel() == 0 {
        // No value to search for: an empty result, before the kernel's dtypes are asked.
        let dtype = if out_int32 {
            DType::Int32
        } else {
            DType::Int64
        };
        return Tensor::zeros(vsizes, dtype);
    }
    if common == DType::Bool || boundaries.dtype() == DType::Bool {
        return Err(not_built("searchsorted_out_cpu", DType::Bool));
    }
    // PyTorch's kernel has no complex form: the promoted type names the refusal.
    if common.is_complex() {
        return Err(not_built("searchsorted_out_cpu", common));
    }
    let int = both_integers(boundaries.dtype(), value_tensor.dtype());
    let row = *boundaries.sizes().last().unwrap_or(&1) as usize;
    let order = match sorter {
        Some(s) => Some(elements::int64_values(s)?),
        None => None,
    };
    if let Some(order) = &order
        && order.iter().any(|&i| i < 0 || i as usize >= row)
    {
        return Err(TorchError::runtime(
            "torch.searchsorted(): sorter index out of range",
        ));
    }
    let per_row = if boundaries.ndim() == 1 {
        usize::MAX
    } else {
        *vsizes.last().unwrap_or(&1) as usize
    };
    let count = value_tensor.numel().max(0) as usize;
    let mut found = alloc::vec_with_capacity::<i64>(count)?;
    let rows = Rows {
        row,
        per_row,
        order: order.as_deref(),
        right,
    };
    if int {
        let b = elements::int64_values(boundaries)?;
        rows.search(&b, &elements::int64_values(&value_tensor)?, &mut found);
    } else {
        rows.search(
            &elements::f64_values(boundaries)?,
            &elements::f64_values(&value_tensor)?,
            &mut found,
        );
    }
    let out = elements::from_i64s(&found, vsizes)?;
    if out_int32 {
        crate::core::copy::cast_copy(&out, DType::Int32)
    } else {
        Ok(out)
    }
}

/// The dtype of an operand (a number's as `torch.tensor` would give it).
fn operand_dtype(a: &Arg) -> DType {
    match a {
        Arg::Tensor(t) => t.dtype(),
        Arg::Number(s) => scalar_dtype(*s),
    }
}

/// `torch.isin(elements, test_elements, invert=)`: whether each element equals one of the
/// test elements (compared in their promoted dtype; NaN equals nothing), as bools of the
/// elements' shape.
pub fn isin(elements_arg: &Arg, test: &Arg, invert: bool) -> Result<Tensor> {
    let common = result_type(&[operand(elements_arg), operand(test)])?;
    for d in [operand_dtype(elements_arg), operand_dtype(test), common] {
        if d == DType::Bool || d.is_complex() {
            return Err(TorchError::not_implemented(format!(
                "Unsupported input type encountered for isin(): {}",
                d.cpp_name()
            )));
        }
    }
    let as_tensor = |a: &Arg| match a {
        Arg::Tensor(t) => Ok(t.clone()),
        Arg::Number(s) => crate::core::creation::full(&[], *s, common),
    };
    let (e, t) = (as_tensor(elements_arg)?, as_tensor(test)?);
    let int = both_integers(e.dtype(), t.dtype()) && common.is_integral();
    let mut hits = alloc::vec_with_capacity::<u8>(e.numel().max(0) as usize)?;
    if int {
        let mut pool = elements::int64_values(&t)?;
        pool.sort_unstable();
        for x in elements::int64_values(&e)? {
            hits.push(u8::from(pool.binary_search(&x).is_ok() != invert));
        }
    } else {
        let mut pool: Vec<f64> = elements::f64_values(&t)?
            .into_iter()
            .filter(|p| !p.is_nan())
            .collect();
        pool.sort_unstable_by(f64::total_cmp);
        for x in elements::f64_values(&e)? {
            let i = insertion(pool.len(), |i| pool[i], x, false);
            let present = pool.get(i).is_some_and(|&p| p == x);
            hits.push(u8::from(present != invert));
        }
    }
    Ok(elements::from_image(hits, e.sizes(), DType::Bool))
}
