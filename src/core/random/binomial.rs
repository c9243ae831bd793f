//! `torch.binomial(count, prob)`: one binomial draw per element of the broadcast shape, on
//! PyTorch's stream, in row-major order. With `n·min(p, 1−p) < 10` the draw counts
//! geometric waiting times (inversion); above, Hörmann's BTRS rejection sampler (1993,
//! "The generation of binomial random variates"), whose constants come from the paper.
//! A `p` above one half draws `n − X` with `1 − p`. Drawn in double, stored in the dtype.

use super::distributions::unit_double;
use super::generator::{Generator, with_global};
use crate::core::dtype::DType;
use crate::core::engine::elements::f64_values;
use crate::core::error::{Result, TorchError};
use crate::core::tensor::Tensor;

/// `ln k! − (Stirling's approximation of it)`: `(k + ½) ln(k + 1) − (k + 1) + ½ ln 2π`.
fn stirling_tail(k: f64) -> f64 {
    if k <= 9.0 {
        let half_log_two_pi = 0.5 * (2.0 * std::f64::consts::PI).ln();
        return libm::lgamma(k + 1.0) - ((k + 0.5) * (k + 1.0).ln() - (k + 1.0) + half_log_two_pi);
    }
    let k1 = k + 1.0;
    let k1_squared = k1 * k1;
    (1.0 / 12.0 - (1.0 / 360.0 - 1.0 / 1260.0 / k1_squared) / k1_squared) / k1
}

/// Counts geometric waiting times until they pass `count` (for `count·prob < 10`).
fn inversion(g: &mut Generator, count: f64, prob: f64) -> f64 {
    let log_q = (-prob).ln_1p();
    let (mut waited, mut successes) = (0.0, 0.0);
    loop {
        crate::core::interrupt::check_every(0);
        waited += (unit_double(g).ln() / log_q).ceil();
        if waited > count {
            return successes;
        }
        successes += 1.0;
    }
}

/// BTRS: transformed rejection with squeeze (for `count·prob ≥ 10`, `prob ≤ ½`).
fn btrs(g: &mut Generator, count: f64, prob: f64) -> f64 {
    let spread = (count * prob * (1.0 - prob)).sqrt();
    let b = 1.15 + 2.53 * spread;
    let a = -0.0873 + 0.0248 * b + 0.01 * prob;
    let c = count * prob + 0.5;
    let v_r = 0.92 - 4.2 / b;
    let r = prob / (1.0 - prob);
    let alpha = (2.83 + 5.1 / b) * spread;
    let m = ((count + 1.0) * prob).floor();
    loop {
        crate::core::interrupt::check_every(0);
        let u = unit_double(g) - 0.5;
        let v = unit_double(g);
        let us = 0.5 - u.abs();
        let k = ((2.0 * a / us + b) * u + c).floor();
        if k < 0.0 || k > count {
            continue;
        }
        if us >= 0.07 && v <= v_r {
            return k;
        }
        let v = (v * alpha / (a / (us * us) + b)).ln();
        let bound = (m + 0.5) * ((m + 1.0) / (r * (count - m + 1.0))).ln()
            + (count + 1.0) * ((count - m + 1.0) / (count - k + 1.0)).ln()
            + (k + 0.5) * (r * (count - k + 1.0) / (k + 1.0)).ln()
            + stirling_tail(m)
            + stirling_tail(count - m)
            - stirling_tail(k)
            - stirling_tail(count - k);
        if v <= bound {
            return k;
        }
    }
}

/// One draw: 0 for no trials or `prob ≤ 0`, `count` for `prob ≥ 1`, NaN for a NaN `prob`,
/// and NaN for a NaN `count` with `0 < prob < 1` (PyTorch's sampler never ends there: its
/// waiting times never pass a NaN; tensh answers NaN, drawing nothing).
fn sample(g: &mut Generator, count: f64, prob: f64) -> f64 {
    if count <= 0.0 || prob <= 0.0 {
        0.0
    } else if prob >= 1.0 {
        count
    } else if count.is_nan() {
        f64::NAN
    } else if prob <= 0.5 {
        if count * prob >= 10.0 {
            btrs(g, count, prob)
        } else {
            inversion(g, count, prob)
        }
    } else if prob > 0.5 {
        let q = 1.0 - prob;
        if count * q >= 10.0 {
            count - btrs(g, count, q)
        } else {
            count - inversion(g, count, q)
        }
    } else {
        f64::NAN
    }
}

/// `torch.binomial(count, prob)`, broadcast, with PyTorch's refusals (checked before any
/// draw).
pub fn binomial(count: &Tensor, prob: &Tensor) -> Result<Tensor> {
    let d = count.dtype();
    if !d.is_floating_point() {
        return Err(TorchError::value(format!(
            "binomial only supports floating-point dtypes for count, got: {}",
            d.cpp_name()
        )));
    }
    if prob.dtype() != d {
        return Err(TorchError::runtime(format!(
            "Found dtype {} but expected {}",
            prob.dtype().cpp_name(),
            d.cpp_name()
        )));
    }
    if !matches!(d, DType::Float32 | DType::Float64) {
        return Err(crate::core::unbuilt_kernels::not_built("binomial_cpu", d));
    }
    let sizes = crate::core::broadcast::broadcast_shapes(&count.sizes(), &prob.sizes())?;
    let spread = |t: &Tensor| {
        crate::core::views::expand(&crate::core::tensor::graph::detached(t), &sizes)
            .and_then(|e| f64_values(&e))
    };
    let (counts, probs) = (spread(count)?, spread(prob)?);
    let mut out = crate::core::memory::alloc::vec_with_capacity::<f64>(counts.len())?;
    with_global(|g| {
        for (i, (&n, &p)) in counts.iter().zip(&probs).enumerate() {
            crate::core::interrupt::check_every(i);
            out.push(sample(g, n, p));
        }
    });
    let drawn = crate::core::engine::elements::from_f64s(&out, sizes)?;
    crate::core::copy::cast_copy(&drawn, d)
}
