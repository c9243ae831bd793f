//! Complex division as PyTorch computes it (C++'s `c10::complex` division): Smith's method,
//! which scales by the larger part of the divisor so no intermediate overflows, and a zero
//! divisor divides each part by a zero, giving infinities (or NaNs for zero parts) instead
//! of the NaNs of the textbook formula.

use num_complex::Complex;
use num_traits::Float;

/// `a / b`, each step rounded to `T` (`f32` for `complex64`, as PyTorch computes it).
pub fn quotient<T: Float>(a: Complex<T>, b: Complex<T>) -> Complex<T> {
    let (c, d) = (b.re, b.im);
    let (abs_c, abs_d) = (c.abs(), d.abs());
    let zero = T::zero();
    if abs_c >= abs_d {
        if abs_c == zero && abs_d == zero {
            return Complex::new(a.re / abs_c, a.im / abs_d);
        }
        let ratio = d / c;
        let scale = T::one() / d.mul_add(ratio, c);
        Complex::new(
            a.im.mul_add(ratio, a.re) * scale,
            (-a.re).mul_add(ratio, a.im) * scale,
        )
    } else {
        let ratio = c / d;
        let scale = T::one() / c.mul_add(ratio, d);
        Complex::new(
            a.re.mul_add(ratio, a.im) * scale,
            a.im.mul_add(ratio, -a.re) * scale,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex64;

    #[test]
    fn zero_divisors_give_infinities_and_nans_part_by_part() {
        let q = quotient(Complex64::new(1.0, -1.0), Complex64::new(0.0, 0.0));
        assert_eq!((q.re, q.im), (f64::INFINITY, f64::NEG_INFINITY));
        let q = quotient(Complex64::new(1.0, 0.0), Complex64::new(0.0, 0.0));
        assert!(q.re.is_infinite() && q.im.is_nan());
    }

    #[test]
    fn ordinary_quotients_are_exact_where_the_textbook_formula_is() {
        let q = quotient(Complex64::new(1.0, 2.0), Complex64::new(3.0, 4.0));
        assert!((q.re - 0.44).abs() < 1e-15 && (q.im - 0.08).abs() < 1e-15);
        let huge = quotient(Complex64::new(1e300, 1e300), Complex64::new(1e300, 1e300));
        assert_eq!((huge.re, huge.im), (1.0, 0.0));
    }
}
