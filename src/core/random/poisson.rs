//! `torch.poisson(rates)`: one Poisson draw per element on PyTorch's stream, in row-major
//! order of the result. Small rates multiply uniform doubles until the product falls to
//! `exp(-rate)`; rates of 10 and more use Hörmann's transformed rejection (PTRS, 1993),
//! whose constants come from the paper. Drawn in double, rounded once to the dtype.

use super::distributions::unit_double;
use super::generator::{Generator, with_global};
use crate::core::engine::elements::f64_values;
use crate::core::error::Result;
use crate::core::tensor::Tensor;

/// A double converted to int64 as the CPU's conversion does it: a NaN or a value out of
/// range gives the smallest int64 (an infinite rate draws it, as in PyTorch).
fn c_int64(x: f64) -> i64 {
    let limit = 2f64.powi(63);
    if !(-limit..limit).contains(&x) {
        i64::MIN
    } else {
        x as i64
    }
}

/// One Poisson draw of rate `rate` (non-negative).
fn sample(g: &mut Generator, rate: f64) -> f64 {
    if rate >= 10.0 {
        let slam = rate.sqrt();
        let loglam = rate.ln();
        let b = 0.931 + 2.53 * slam;
        let a = -0.059 + 0.02483 * b;
        let inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
        let vr = 0.9277 - 3.6224 / (b - 2.0);
        loop {
            crate::core::interrupt::check_every(0);
            let u = unit_double(g) - 0.5;
            let v = unit_double(g);
            let us = 0.5 - u.abs();
            let k = c_int64(((2.0 * a / us + b) * u + rate + 0.43).floor());
            if us >= 0.07 && v <= vr {
                return k as f64;
            }
            if k < 0 || (us < 0.013 && v > us) {
                continue;
            }
            let accept = v.ln() + inv_alpha.ln() - (a / (us * us) + b).ln();
            if accept <= -rate + k as f64 * loglam - libm::lgamma(k as f64 + 1.0) {
                return k as f64;
            }
        }
    }
    if rate == 0.0 {
        return 0.0;
    }
    let limit = (-rate).exp();
    let (mut count, mut product) = (0_i64, 1.0_f64);
    loop {
        product *= unit_double(g);
        if product > limit {
            count += 1;
        } else {
            return count as f64;
        }
    }
}

/// `torch.poisson(rates)`: a tensor like `rates` of draws, with PyTorch's refusals of a
/// non-floating dtype and of a negative or NaN rate (checked before any draw).
pub fn poisson(rates: &Tensor) -> Result<Tensor> {
    let d = rates.dtype();
    if !d.is_floating_point() {
        return Err(crate::core::unbuilt_kernels::not_built("poisson_cpu", d));
    }
    crate::core::unbuilt_kernels::require_random_kernel("poisson_cpu", d)?;
    let values = f64_values(rates)?;
    if values.iter().any(|v| v.is_nan() || *v < 0.0) {
        return Err(crate::core::error::TorchError::runtime(
            "invalid Poisson rate, expected rate to be non-negative",
        ));
    }
    let mut out = crate::core::memory::alloc::vec_with_capacity::<f64>(values.len())?;
    with_global(|g| {
        for (i, &rate) in values.iter().enumerate() {
            crate::core::interrupt::check_every(i);
            out.push(sample(g, rate));
        }
    });
    let drawn = crate::core::engine::elements::from_f64s(&out, rates.sizes().to_vec())?;
    crate::core::copy::cast_copy(&drawn, rates.dtype())
}
