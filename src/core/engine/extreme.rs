//! The extreme-value reduction: for each output, the first maximum (or minimum) of its
//! elements and its index among them (row-major over the reduced dims), with PyTorch's
//! rule that a NaN is the extreme and the first NaN wins. Serves `max`/`min` with and
//! without `dim`, `argmax`/`argmin`, `amax`/`amin`.
//!
//! A contiguous run is scanned in two passes: eight independent lanes find the extreme
//! value and whether a NaN is present (a loop the compiler vectorises), then the first
//! element equal to it (or the first NaN) gives the index and the value's exact bits.

use super::along::Plan;
use super::ordered::Ordered;
use crate::core::interrupt;
use crate::core::kernels::{PARALLEL_MIN, pair};

const LANES: usize = 8;

#[inline(always)]
fn better<T: Ordered, const MAX: bool>(x: T, than: T) -> bool {
    if MAX { x > than } else { x < than }
}

/// The extreme of a contiguous run (`bytes` holds exactly its elements) and its index.
fn contiguous_run<T: Ordered, const MAX: bool>(bytes: &[u8]) -> (T, usize) {
    let n = bytes.len() / T::SIZE;
    let first = T::load(bytes);
    let mut acc = [first; LANES];
    let mut nan = [false; LANES];
    let mut blocks = bytes.chunks_exact(LANES * T::SIZE);
    for block in &mut blocks {
        for l in 0..LANES {
            let x = T::load(&block[l * T::SIZE..]);
            nan[l] |= x.is_nan();
            acc[l] = if better::<T, MAX>(x, acc[l]) {
                x
            } else {
                acc[l]
            };
        }
    }
    let mut best = acc[0];
    let mut any_nan = nan.iter().any(|&b| b);
    for &a in &acc[1..] {
        if better::<T, MAX>(a, best) {
            best = a;
        }
    }
    for x in blocks.remainder().chunks_exact(T::SIZE).map(T::load) {
        any_nan |= x.is_nan();
        if better::<T, MAX>(x, best) {
            best = x;
        }
    }
    let found = bytes
        .chunks_exact(T::SIZE)
        .map(T::load)
        .position(|x| if any_nan { x.is_nan() } else { x == best });
    let i = found.unwrap_or(0).min(n.saturating_sub(1));
    (T::load(&bytes[i * T::SIZE..]), i)
}

/// The extreme of one output's elements: its value and index along.
fn one_output<T: Ordered, const MAX: bool>(bytes: &[u8], plan: &Plan, start: i64) -> (T, usize) {
    let mut best: Option<(T, usize)> = None;
    let mut nan_found = false;
    let mut seen = 0usize;
    plan.for_each_along_run(start, |[s], len, [step]| {
        let base = seen;
        seen += len;
        if nan_found || len == 0 {
            return;
        }
        let s = s as usize;
        let (v, i) = if step == 1 {
            contiguous_run::<T, MAX>(&bytes[s * T::SIZE..(s + len) * T::SIZE])
        } else {
            let step = step as usize;
            let mut b = (T::load(&bytes[s * T::SIZE..]), 0);
            for k in 0..len {
                let x = T::load(&bytes[(s + k * step) * T::SIZE..]);
                if b.0.is_nan() {
                    break;
                }
                if x.is_nan() || better::<T, MAX>(x, b.0) {
                    b = (x, k);
                }
            }
            b
        };
        if v.is_nan() {
            nan_found = true;
            best = Some((v, base + i));
        } else if best.is_none_or(|(b, _)| better::<T, MAX>(v, b)) {
            best = Some((v, base + i));
        }
    });
    best.unwrap_or((T::load(&bytes[start as usize * T::SIZE..]), 0))
}

/// Fills `values` (elements of `T`, little-endian) and `indices` for outputs
/// `first..first + count`.
fn outputs<T: Ordered, const MAX: bool>(
    bytes: &[u8],
    plan: &Plan,
    first: usize,
    values: &mut [u8],
    indices: &mut [i64],
) {
    let count = indices.len();
    let along = plan.along_len().max(1);
    let mut o = 0;
    plan.for_each_start(first, count, |start| {
        if (o * along) & 0xffff < along {
            interrupt::check();
        }
        let (v, i) = one_output::<T, MAX>(bytes, plan, start);
        v.store(&mut values[o * T::SIZE..]);
        indices[o] = i as i64;
        o += 1;
    });
}

/// For each output of `plan` (every along-length at least 1, every element inside `bytes`):
/// the first extreme's value into `values` (`T`s, one per output) and its index into
/// `indices`. Large reductions split their outputs between the two threads.
pub fn extremes<T: Ordered>(
    bytes: &[u8],
    plan: &Plan,
    max: bool,
    values: &mut [u8],
    indices: &mut [i64],
) {
    let run = |first: usize, v: &mut [u8], i: &mut [i64]| {
        if max {
            outputs::<T, true>(bytes, plan, first, v, i)
        } else {
            outputs::<T, false>(bytes, plan, first, v, i)
        }
    };
    let n = indices.len();
    if n >= 2 && n * plan.along_len() >= PARALLEL_MIN {
        let half = n / 2;
        let (v1, v2) = values.split_at_mut(half * T::SIZE);
        let (i1, i2) = indices.split_at_mut(half);
        pair::join(|| run(0, v1, i1), || run(half, v2, i2));
    } else {
        run(0, values, indices);
    }
}

/// The values and indices of the extremes of `t` over the dims `reduced` (every reduced dim
/// non-empty), shaped as the kept dims, when the engine covers `t`'s dtype; `None` for
/// complex and float8 tensors.
pub fn reduce_extremes(
    t: &crate::core::tensor::Tensor,
    reduced: &[usize],
    max: bool,
) -> crate::core::error::Result<Option<(crate::core::tensor::Tensor, crate::core::tensor::Tensor)>>
{
    // The kernel reads storage bytes: a conjugate or negative view's values first.
    let t = &crate::core::copy::resolved(t)?;
    let dtype = t.dtype();
    let plan = Plan::new(&t.layout(), reduced);
    super::along::values_and_indices(
        t,
        plan.kept_sizes.clone(),
        |bytes, vb, ix| crate::with_ordered!(dtype, T => extremes::<T>(bytes, &plan, max, vb, ix)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::layout::Layout;

    fn bytes_of(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    fn max_rows(v: &[f32], rows: i64, max: bool) -> (Vec<f32>, Vec<i64>) {
        let cols = v.len() as i64 / rows;
        let plan = Plan::new(&Layout::contiguous(vec![rows, cols]), &[1]);
        let mut values = vec![0u8; rows as usize * 4];
        let mut indices = vec![0; rows as usize];
        extremes::<f32>(&bytes_of(v), &plan, max, &mut values, &mut indices);
        let values = values.chunks_exact(4).map(f32::load).collect();
        (values, indices)
    }

    #[test]
    fn first_extreme_wins_and_nan_is_the_extreme() {
        let mut row: Vec<f32> = (0..37).map(|i| (i % 5) as f32).collect();
        assert_eq!(max_rows(&row, 1, true), (vec![4.0], vec![4]));
        assert_eq!(max_rows(&row, 1, false), (vec![0.0], vec![0]));
        row[20] = f32::NAN;
        row[30] = f32::NAN;
        let (v, i) = max_rows(&row, 1, false);
        assert!(v[0].is_nan() && i == vec![20]);
    }

    #[test]
    fn signed_zeros_keep_the_first_ones_bits() {
        let (v, i) = max_rows(&[-0.0, 0.0, -1.0], 1, true);
        assert!(v[0] == 0.0 && v[0].is_sign_negative() && i == vec![0]);
    }

    #[test]
    fn strided_along_dim_zero() {
        // [[1, 5], [7, 2], [7, 9]] reduced along dim 0.
        let plan = Plan::new(&Layout::contiguous(vec![3, 2]), &[0]);
        let mut values = vec![0u8; 8];
        let mut indices = vec![0; 2];
        extremes::<f32>(
            &bytes_of(&[1., 5., 7., 2., 7., 9.]),
            &plan,
            true,
            &mut values,
            &mut indices,
        );
        assert_eq!(indices, [1, 2]);
    }
}
