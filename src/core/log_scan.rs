//! `logcumsumexp(dim)`: running `log(Σ exp(x))` along one dimension, as a fresh contiguous
//! tensor. Each step combines the running value `r` with the next `x` as PyTorch's CPU
//! kernel does: `max + log1p(exp(min - max))`, infinities of one sign passed through and
//! NaN propagated, in PyTorch's accumulating type (`f64` for `float32`/`float64`, `f32`
//! for the 16-bit floats, complex `f64` for complex numbers, compared by their real
//! parts), each running value rounded to the dtype as it is written.

use num_complex::Complex64;

use super::copy::{cast_copy, contiguous_copy};
use super::dtype::DType;
use super::error::{Result, wrap_dim};
use super::tensor::Tensor;
use super::tensor::graph::detached;
use super::unbuilt_kernels::not_built;
use super::views::movedim;

/// One step for real values: `log(exp(x) + exp(y))`.
fn log_add_exp(x: f64, y: f64) -> f64 {
    let (min, max) = if y.is_nan() {
        (y, y)
    } else {
        (x.min(y), x.max(y))
    };
    if x.is_nan() {
        return x;
    }
    if min != max || min.is_finite() {
        max + (min - max).exp().ln_1p()
    } else {
        x
    }
}

/// One step for complex values, ordered by real parts.
fn log_add_exp_complex(x: Complex64, y: Complex64) -> Complex64 {
    let (min, max) = if y.re < x.re || y.re.is_nan() {
        (y, x)
    } else {
        (x, y)
    };
    if min.re.is_nan() || min.im.is_nan() || max.re.is_nan() || max.im.is_nan() {
        return Complex64::new(f64::NAN, f64::NAN);
    }
    if !min.re.is_finite() && min.re == max.re {
        if min.re < 0.0 {
            min
        } else {
            (min.exp() + max.exp()).ln()
        }
    } else {
        let d = (min - max).exp();
        // log1p of a complex number.
        (Complex64::new(1.0, 0.0) + d).ln() + max
    }
}

/// `t.logcumsumexp(dim)`.
pub fn logcumsumexp(t: &Tensor, dim: i64) -> Result<Tensor> {
    let dtype = t.dtype();
    if !(dtype.is_floating_point() || matches!(dtype, DType::Complex64 | DType::Complex128)) {
        return Err(not_built("logcumsumexp_out_cpu", dtype));
    }
    let ndim = t.ndim();
    let d = wrap_dim(dim, ndim.max(1))?;
    let sizes = t.sizes();
    if ndim == 0 || t.numel() == 0 {
        return contiguous_copy(&detached(t));
    }
    let last = ndim as i64 - 1;
    let moved = movedim(&detached(t), &[d as i64], &[last])?;
    let n = sizes[d].max(1) as usize;
    let half = matches!(dtype, DType::Float16 | DType::BFloat16);
    let round = move |v: f64| if half { v as f32 as f64 } else { v };
    let scanned = if dtype.is_complex() {
        let work = cast_copy(&moved, DType::Complex128)?;
        let mut bytes = super::engine::elements::image(&work)?;
        for (r, row) in bytes.chunks_exact_mut(16 * n).enumerate() {
            super::interrupt::check_every(r);
            let mut acc: Option<Complex64> = None;
            for cell in row.chunks_exact_mut(16) {
                let re = f64::from_le_bytes(cell[..8].try_into().unwrap_or([0; 8]));
                let im = f64::from_le_bytes(cell[8..].try_into().unwrap_or([0; 8]));
                let v = Complex64::new(re, im);
                let next = acc.map_or(v, |a| log_add_exp_complex(a, v));
                acc = Some(next);
                cell[..8].copy_from_slice(&next.re.to_le_bytes());
                cell[8..].copy_from_slice(&next.im.to_le_bytes());
            }
        }
        super::engine::elements::from_image(bytes, work.sizes(), DType::Complex128)
    } else {
        let work = cast_copy(&moved, DType::Float64)?;
        let mut bytes = super::engine::elements::image(&work)?;
        for (r, row) in bytes.chunks_exact_mut(8 * n).enumerate() {
            super::interrupt::check_every(r);
            let mut acc: Option<f64> = None;
            for cell in row.chunks_exact_mut(8) {
                let v = f64::from_le_bytes(cell.try_into().unwrap_or([0; 8]));
                let next = round(acc.map_or(v, |a| log_add_exp(a, v)));
                acc = Some(next);
                cell.copy_from_slice(&next.to_le_bytes());
            }
        }
        super::engine::elements::from_image(bytes, work.sizes(), DType::Float64)
    };
    let back = movedim(&scanned, &[last], &[d as i64])?;
    let out = cast_copy(&back, dtype)?;
    // `cast_copy` of a same-dtype view would keep its layout; the result is row-major.
    if out.is_contiguous() {
        Ok(out)
    } else {
        contiguous_copy(&out)
    }
}
