//! `torch.multinomial`: indices drawn from rows of (unnormalized) probabilities, on
//! PyTorch's stream. Without replacement, or for one sample, PyTorch's exponential trick:
//! `argmax`/`topk` of `p / q` with `q` an `exponential_(1)` fill like `p`. With
//! replacement, each row's cumulative distribution (summed in the row's type, float for
//! the half types, then divided by its total) is searched for one uniform double per sample.

use super::distributions::uniform;
use super::generator::with_global;
use crate::core::dtype::DType;
use crate::core::engine::elements::{f64_values, from_i64s};
use crate::core::error::{Result, TorchError};
use crate::core::tensor::Tensor;

/// `torch.multinomial(p, n, replacement)`.
pub fn multinomial(p: &Tensor, n: i64, replacement: bool) -> Result<Tensor> {
    let d = p.dtype();
    if !d.is_floating_point() {
        return Err(TorchError::runtime(format!(
            "multinomial only supports floating-point dtypes for input, got: {}",
            d.cpp_name()
        )));
    }
    if !(1..=2).contains(&p.ndim()) {
        return Err(TorchError::runtime("prob_dist must be 1 or 2 dim"));
    }
    if n <= 0 {
        return Err(TorchError::runtime("cannot sample n_sample <= 0 samples"));
    }
    let sizes = p.sizes();
    let categories = *sizes.last().unwrap_or(&0);
    if !replacement && n > categories {
        return Err(TorchError::runtime(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement",
        ));
    }
    if categories > 1 << 24 {
        return Err(TorchError::runtime(
            "number of categories cannot exceed 2^24",
        ));
    }
    let rows = if p.ndim() == 2 { sizes[0] } else { 1 };
    let out_sizes = if p.ndim() == 2 {
        vec![rows, n]
    } else {
        vec![n]
    };
    if rows == 0 {
        return from_i64s(&[], out_sizes);
    }
    let values = f64_values(p)?;
    if categories == 0 {
        return Err(TorchError::runtime(
            "invalid multinomial distribution (sum of probabilities <= 0)",
        ));
    }
    if !replacement || n == 1 {
        return exponential_trick(p, &values, categories as usize, n);
    }
    with_replacement(
        &values,
        rows as usize,
        categories as usize,
        n as usize,
        d,
        out_sizes,
    )
}

/// PyTorch's checks before the exponential trick: no negative, infinite or NaN entry, and
/// no row summing to zero or less.
fn check_rows(values: &[f64], categories: usize) -> Result<()> {
    if values.iter().any(|v| !v.is_finite() || *v < 0.0) {
        return Err(TorchError::runtime(
            "probability tensor contains either `inf`, `nan` or element < 0",
        ));
    }
    if values
        .chunks(categories)
        .any(|row| row.iter().sum::<f64>() <= 0.0)
    {
        return Err(TorchError::runtime(
            "invalid multinomial distribution (sum of probabilities <= 0)",
        ));
    }
    Ok(())
}

/// `argmax(p / q)` (one sample) or the indices of `topk(p / q, n)`, `q ~ Exp(1)` filled like
/// `p` (its strides, so drawn in `p`'s memory order).
fn exponential_trick(p: &Tensor, values: &[f64], categories: usize, n: i64) -> Result<Tensor> {
    check_rows(values, categories)?;
    let l = crate::core::memory_format::MemoryFormat::Preserve.layout_from(&p.layout())?;
    let q = crate::core::creation::empty_strided(&l.sizes, &l.strides, p.dtype())?;
    super::fills::exponential_(&q, 1.0)?;
    let ratio = crate::core::ops::binary_untracked(
        crate::core::operand::BinaryOp::Div,
        &crate::core::operand::Arg::Tensor(p.clone()),
        &crate::core::operand::Arg::Tensor(q),
    )?;
    if n == 1 {
        return crate::core::reduce::reduce(
            &ratio,
            crate::core::reduce::Reduction::ArgMax,
            Some(&[-1]),
            true,
        );
    }
    Ok(crate::core::order_stats::topk(&ratio, n, -1, true, true)?.1)
}

/// Sampling with replacement: per row, the normalized cumulative distribution, searched
/// for the first entry not below each uniform double.
fn with_replacement(
    values: &[f64],
    rows: usize,
    categories: usize,
    n: usize,
    dtype: DType,
    out_sizes: Vec<i64>,
) -> Result<Tensor> {
    let mut out = crate::core::memory::alloc::vec_with_capacity::<i64>(rows * n)?;
    let mut cumulative = crate::core::memory::alloc::vec_with_capacity::<f64>(categories)?;
    let single = dtype != DType::Float64;
    for row in values.chunks(categories) {
        cumulative.clear();
        // Summed in the row's type (float for float32 and the half types).
        let (mut sum32, mut sum64) = (0.0_f32, 0.0_f64);
        for &v in row {
            // NaN fails the first test, as in PyTorch.
            if v.is_nan() || v < 0.0 {
                return Err(TorchError::runtime(
                    "invalid multinomial distribution (encountering probability entry < 0)",
                ));
            }
            if v.is_infinite() {
                return Err(TorchError::runtime(
                    "invalid multinomial distribution (encountering probability entry = infinity or NaN)",
                ));
            }
            if single {
                sum32 += v as f32;
                cumulative.push(sum32 as f64);
            } else {
                sum64 += v;
                cumulative.push(sum64);
            }
        }
        let sum = if single { sum32 as f64 } else { sum64 };
        if sum <= 0.0 {
            return Err(TorchError::runtime(
                "invalid multinomial distribution (sum of probabilities <= 0)",
            ));
        }
        // Normalized so the last entry is 1 (the row need not sum to one).
        for c in cumulative.iter_mut() {
            *c = if single {
                (*c as f32 / sum as f32) as f64
            } else {
                *c / sum
            };
        }
        with_global(|g| {
            for _ in 0..n {
                let u = uniform(g, DType::Float64, 0.0, 1.0);
                let (mut lo, mut hi) = (0, categories);
                while hi > lo {
                    let mid = lo + (hi - lo) / 2;
                    if cumulative[mid] < u {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                out.push(lo.min(categories - 1) as i64);
            }
        });
    }
    from_i64s(&out, out_sizes)
}
