//! Special functions of one real variable: the digamma and trigamma functions in the element
//! type's arithmetic as PyTorch's kernels compute them, and, in `f64` from their textbook
//! definitions (series, recurrences, asymptotic expansions, Newton's method), the Hurwitz
//! zeta function (behind `polygamma`), the inverse error function and the modified Bessel
//! function `I₁` (`i0`'s derivative; `I₀` itself is `bessel_i`'s). A `float32` result of an
//! `f64` function rounds the `f64` value once.

use std::f64::consts::PI;

use num_traits::Float;

/// `ψ(x)`, the logarithmic derivative of the gamma function, computed as PyTorch's CPU
/// kernel computes it (the Cephes rule), in `F`'s arithmetic: `∓inf` at `±0`, NaN at the
/// negative integers and `-inf`; a negative `x` reflects (`ψ(1 − x) − π / tan(πr)`, `r` its
/// fractional part, the quotient taken in `f64`); the recurrence `ψ(x) = ψ(x + 1) − 1/x`
/// up to 10; `ψ(10)` exactly; above, the asymptotic series
/// `ln x − 1/(2x) − Σ B₂ₖ / (2k x²ᵏ)` (seven terms, its polynomial's steps fused
/// multiply-adds as PyTorch's build makes them).
pub fn digamma<F: Float>(x: F) -> F {
    let c = |v: f64| F::from(v).unwrap_or_else(F::nan);
    if x == F::zero() {
        return if x.is_sign_negative() {
            F::infinity()
        } else {
            F::neg_infinity()
        };
    }
    if x < F::zero() {
        if x == x.trunc() {
            return F::nan();
        }
        let r = (x - x.trunc()).to_f64().unwrap_or(f64::NAN);
        return digamma(F::one() - x) - c(PI / (PI * r).tan());
    }
    let mut x = x;
    let mut result = F::zero();
    while x < c(10.0) {
        result = result - F::one() / x;
        x = x + F::one();
    }
    if x == c(10.0) {
        return result + c(PSI_10);
    }
    // B₂ₖ / 2k for k = 7 down to 1.
    #[allow(clippy::excessive_precision)]
    const SERIES: [f64; 7] = [
        8.33333333333333333333E-2,
        -2.10927960927960927961E-2,
        7.57575757575757575758E-3,
        -4.16666666666666666667E-3,
        3.96825396825396825397E-3,
        -8.33333333333333333333E-3,
        8.33333333333333333333E-2,
    ];
    let mut y = F::zero();
    if x < c(1.0e17) {
        let z = F::one() / (x * x);
        let polynomial = SERIES.iter().fold(F::zero(), |p, &k| p.mul_add(z, c(k)));
        y = z * polynomial;
    }
    result + x.ln() - c(0.5) / x - y
}

/// `ψ(10)`.
#[allow(clippy::excessive_precision)]
const PSI_10: f64 = 2.25175258906672110764;

/// `ψ'(x)`, the trigamma function (`digamma`'s derivative), in the arithmetic of `F`
/// (`f32` for `float32`, as PyTorch's kernel computes): the reflection
/// `ψ'(x) = π²/sin²(πx) − ψ'(1 − x)` below 1/2 (so a negative integer gives the huge
/// finite value the rounded `sin` gives, as in PyTorch), six steps of the recurrence, then
/// the asymptotic series.
pub fn trigamma<F: Float + num_traits::FloatConst>(mut x: F) -> F {
    let c = |v: f64| F::from(v).unwrap_or(F::nan());
    let one = F::one();
    let mut sign = one;
    let mut result = F::zero();
    if x < c(0.5) {
        sign = -one;
        let s = (F::PI() * x).sin();
        result = result - F::PI() * F::PI() / (s * s);
        x = one - x;
    }
    for _ in 0..6 {
        result = result + one / (x * x);
        x = x + one;
    }
    let ixx = one / (x * x);
    result = result
        + (one
            + one / (c(2.0) * x)
            + ixx * (c(1.0 / 6.0) - ixx * (c(1.0 / 30.0) - ixx * c(1.0 / 42.0))))
            / x;
    sign * result
}

/// The Hurwitz zeta function `ζ(s, q) = Σ (q + k)^-s` for `s > 1`, by Euler–Maclaurin
/// summation (PyTorch's `zeta`): `inf` at a pole (`q` a non-positive integer), NaN where
/// the sum does not converge.
pub fn hurwitz_zeta(s: f64, q: f64) -> f64 {
    if s == 1.0 {
        return f64::INFINITY;
    }
    if s < 1.0 || q.is_nan() || s.is_nan() {
        return f64::NAN;
    }
    if q <= 0.0 {
        if q == q.floor() {
            return f64::INFINITY;
        }
        // Not defined for a non-integer negative q with a non-integer s.
        if s != s.floor() {
            return f64::NAN;
        }
    }
    const TERMS: usize = 12;
    // B_2k / (2k)!.
    const BERNOULLI: [f64; 6] = [
        1.0 / 12.0,
        -1.0 / 720.0,
        1.0 / 30240.0,
        -1.0 / 1209600.0,
        1.0 / 47900160.0,
        -691.0 / 1307674368000.0,
    ];
    let mut sum = 0.0;
    for k in 0..TERMS {
        sum += (q + k as f64).powf(-s);
    }
    let a = q + TERMS as f64;
    sum += a.powf(1.0 - s) / (s - 1.0) + 0.5 * a.powf(-s);
    // Σ B_2k/(2k)! · s(s+1)…(s+2k−2) · a^(−s−2k+1).
    let mut rising = s;
    let mut power = a.powf(-s - 1.0);
    for (j, b) in BERNOULLI.iter().enumerate() {
        sum += b * rising * power;
        let k = 2 * j as i32 + 1;
        rising *= (s + k as f64) * (s + k as f64 + 1.0);
        power /= a * a;
    }
    sum
}

/// `ψ⁽ⁿ⁾(x)`, the `n`-th derivative of the digamma function.
pub fn polygamma(n: i64, x: f64) -> f64 {
    match n {
        0 => digamma(x),
        1 => trigamma(x),
        n => {
            // n! as PyTorch takes it, `exp(lgamma(n + 1))` (infinite past 170!).
            let factorial = libm::lgamma(n as f64 + 1.0).exp();
            let sign = if n % 2 == 0 { -1.0 } else { 1.0 };
            sign * factorial * hurwitz_zeta(n as f64 + 1.0, x)
        }
    }
}

/// The inverse of `erf` on `[-1, 1]` (`±inf` at `±1`, NaN outside): Winitzki's closed
/// form as a start, then Newton's method on `erf` (or on `erfc` near the ends, where
/// `1 - |x|` is exact).
pub fn erfinv(x: f64) -> f64 {
    if x.is_nan() || x.abs() > 1.0 {
        return f64::NAN;
    }
    if x.abs() == 1.0 {
        return x * f64::INFINITY;
    }
    if x == 0.0 {
        return x;
    }
    const A: f64 = 0.147;
    let ln = (1.0 - x * x).ln();
    let t = 2.0 / (PI * A) + ln / 2.0;
    let mut y = x.signum() * ((t * t - ln / A).sqrt() - t).sqrt();
    let slope = 2.0 / PI.sqrt();
    let far = x.abs() > 0.5;
    let rest = 1.0 - x.abs();
    for _ in 0..4 {
        let error = if far {
            // erfc(|y|) − (1 − |x|), the same sign convention as erf(y) − x.
            x.signum() * (rest - libm::erfc(y.abs()))
        } else {
            libm::erf(y) - x
        };
        let step = error / (slope * (-y * y).exp());
        if !step.is_finite() {
            break;
        }
        y -= step;
    }
    y
}

/// The modified Bessel function `I_ν(x)` for `ν` 0 or 1 (only 1 is asked for now): the power series for small
/// arguments, the asymptotic expansion for large ones (odd in `x` for `ν = 1`).
fn bessel_i(order: u32, x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let sign = if order == 1 && x < 0.0 { -1.0 } else { 1.0 };
    if a <= 20.0 {
        // Σ (x/2)^(2k+ν) / (k! (k+ν)!).
        let q = a * a / 4.0;
        let mut term = if order == 0 { 1.0 } else { a / 2.0 };
        let mut sum = term;
        let mut k = 1.0;
        while term > sum * 1e-17 {
            term *= q / (k * (k + order as f64));
            sum += term;
            k += 1.0;
        }
        return sign * sum;
    }
    // e^a / √(2πa) · Σ (−1)^k Π_{j≤k} (4ν² − (2j−1)²) / (k! (8a)^k).
    let mu = 4.0 * (order * order) as f64;
    let mut term = 1.0;
    let mut sum = 1.0;
    for k in 1..30 {
        let odd = (2 * k - 1) as f64;
        let next = -term * (mu - odd * odd) / (k as f64 * 8.0 * a);
        if next.abs() >= term.abs() {
            break;
        }
        term = next;
        sum += term;
    }
    let half = (a / 2.0).exp();
    sign * (half / (2.0 * PI * a).sqrt() * sum) * half
}

/// `I₁(x)` (`i0`'s derivative).
pub fn i1(x: f64) -> f64 {
    bessel_i(1, x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1.0)
    }

    #[test]
    fn known_values() {
        // torch.digamma in float64 and float32 (PyTorch 2.15, CPU), bit for bit.
        assert_eq!(digamma(1.0_f64), -0.5772156649015328);
        assert_eq!(digamma(-2.5_f64), 1.1031566406452433);
        assert_eq!(digamma(10.0_f64), 2.251752589066721);
        assert_eq!(digamma(1.0_f32), -0.577_215_9_f32);
        assert_eq!(digamma(0.5_f32), -1.963_510_9_f32);
        assert_eq!(digamma(1e20_f32), 46.051_7_f32);
        assert!(digamma(-3.0_f64).is_nan() && digamma(f32::NEG_INFINITY).is_nan());
        assert_eq!(digamma(-0.0_f64), f64::INFINITY);
        // PyTorch's trigamma (six recurrence steps, four series terms) is good to ~1e-8.
        assert!((trigamma(1.0_f64) - PI * PI / 6.0).abs() < 1e-8);
        assert!((trigamma(-1.0_f32) - 1.2914e15).abs() < 1e12);
        assert!(close(hurwitz_zeta(2.0, 1.0), PI * PI / 6.0));
        assert!(close(polygamma(2, 1.0), -2.0 * 1.2020569031595942));
        assert!(close(erfinv(libm::erf(0.3)), 0.3));
        assert!(close(erfinv(libm::erf(2.5)), 2.5));
        assert!(close(erfinv(-libm::erf(1.7)), -1.7));
        assert!(close(i1(1.0), 0.5651591039924851));
        assert!(close(i1(-25.0), -5657865129.878702));
        assert!(erfinv(1.0).is_infinite() && erfinv(1.5).is_nan());
    }
}
