//! `I₀`, the modified Bessel function of the first kind of order 0, computed as PyTorch's CPU
//! kernel computes it, so results agree bit for bit: two Chebyshev expansions from the Cephes
//! library — of `e^-x I₀(x)` on `[0, 8]` and of `e^-x √x I₀(x)` above 8 — summed by Clenshaw's
//! recurrence in the arithmetic of the element type (`f32` for `float32` and narrower, with the
//! coefficients rounded to it, `f64` for `float64`).
//!
//! PyTorch's build contracts the recurrence's `x·b₁ − b₂` into one fused multiply-add, so the
//! step here is `x.mul_add(b₁, −b₂) + c`: one rounding where the written formula has two.

use num_traits::Float;

/// Chebyshev coefficients of `e^-x I₀(x)` in `(x/2 − 2)` on `[0, 8]` (Cephes), highest
/// order first.
// The published decimals, rounded by the compiler as PyTorch's are.
#[allow(clippy::excessive_precision)]
const ON_0_8: [f64; 30] = [
    -4.41534164647933937950E-18,
    3.33079451882223809783E-17,
    -2.43127984654795469359E-16,
    1.71539128555513303061E-15,
    -1.16853328779934516808E-14,
    7.67618549860493561688E-14,
    -4.85644678311192946090E-13,
    2.95505266312963983461E-12,
    -1.72682629144155570723E-11,
    9.67580903537323691224E-11,
    -5.18979560163526290666E-10,
    2.65982372468238665035E-9,
    -1.30002500998624804212E-8,
    6.04699502254191894932E-8,
    -2.67079385394061173391E-7,
    1.11738753912010371815E-6,
    -4.41673835845875056359E-6,
    1.64484480707288970893E-5,
    -5.75419501008210370398E-5,
    1.88502885095841655729E-4,
    -5.76375574538582365885E-4,
    1.63947561694133579842E-3,
    -4.32430999505057594430E-3,
    1.05464603945949983183E-2,
    -2.37374148058994688156E-2,
    4.93052842396707084878E-2,
    -9.49010970480476444210E-2,
    1.71620901522208775349E-1,
    -3.04682672343198398683E-1,
    6.76795274409476084995E-1,
];

/// Chebyshev coefficients of `e^-x √x I₀(x)` in `(32/x − 2)` above 8 (Cephes), highest
/// order first.
#[allow(clippy::excessive_precision)]
const ABOVE_8: [f64; 25] = [
    -7.23318048787475395456E-18,
    -4.83050448594418207126E-18,
    4.46562142029675999901E-17,
    3.46122286769746109310E-17,
    -2.82762398051658348494E-16,
    -3.42548561967721913462E-16,
    1.77256013305652638360E-15,
    3.81168066935262242075E-15,
    -9.55484669882830764870E-15,
    -4.15056934728722208663E-14,
    1.54008621752140982691E-14,
    3.85277838274214270114E-13,
    7.18012445138366623367E-13,
    -1.79417853150680611778E-12,
    -1.32158118404477131188E-11,
    -3.14991652796324136454E-11,
    1.18891471078464383424E-11,
    4.94060238822496958910E-10,
    3.39623202570838634515E-9,
    2.26666899049817806459E-8,
    2.04891858946906374183E-7,
    2.89137052083475648297E-6,
    6.88975834691682398426E-5,
    3.36911647825569408990E-3,
    8.04490411014108831608E-1,
];

/// `F` from an `f64` constant (rounded once, as a C++ `static const float` initialised
/// from a double literal is).
fn c<F: Float>(v: f64) -> F {
    F::from(v).unwrap_or_else(F::nan)
}

/// The Chebyshev series with `coefficients` (highest order first) at `x`, by Clenshaw's
/// recurrence: `½ (b₀ − b₂)`.
fn chebyshev<F: Float>(x: F, coefficients: &[f64]) -> F {
    let mut b0: F = c(coefficients[0]);
    let mut b1 = F::zero();
    let mut b2 = F::zero();
    for &k in &coefficients[1..] {
        b2 = b1;
        b1 = b0;
        b0 = x.mul_add(b1, -b2) + c(k);
    }
    c::<F>(0.5) * (b0 - b2)
}

/// `I₀(x)` in `F`'s arithmetic. Even in `x`; NaN stays NaN, and `±inf` gives NaN as
/// PyTorch's kernel does (`e^∞ · finite / √∞`).
pub fn i0<F: Float>(x: F) -> F {
    let x = x.abs();
    if x <= c(8.0) {
        let y = x / c(2.0) - c(2.0);
        return x.exp() * chebyshev(y, &ON_0_8);
    }
    x.exp() * chebyshev(c::<F>(32.0) / x - c(2.0), &ABOVE_8) / x.sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_pytorch_bit_for_bit() {
        // torch.i0 in float32 and float64 (PyTorch 2.15, CPU).
        assert_eq!(i0(0.0_f32).to_bits(), 0.999_999_94_f32.to_bits());
        assert_eq!(i0(6.265_404_7_f32), 85.700_63_f32);
        assert_eq!(i0(1.0_f64), 1.2660658777520082);
        assert_eq!(i0(-3.5_f64), 7.3782034322254795);
        assert!(i0(f32::INFINITY).is_nan() && i0(f64::NAN).is_nan());
    }
}
