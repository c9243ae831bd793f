//! Complex division as PyTorch computes it (C++'s `c10::complex` division): Smith's method,
//! which scales by the larger part of the divisor so no intermediate overflows, and a zero
//! divisor divides each part by a zero, giving infinities (or NaNs for zero parts) instead
//! of the NaNs of the textbook formula.

use num_complex::Complex64;

/// `a / b`.
pub fn quotient(a: Complex64, b: Complex64) -> Complex64 {
    let (c, d) = (b.re, b.im);
    let (abs_c, abs_d) = (c.abs(), d.abs());
    if abs_c >= abs_d {
        if abs_c == 0.0 && abs_d == 0.0 {
            return Complex64::new(a.re / abs_c, a.im / abs_d);
        }
        let ratio = d / c;
        let scale = 1.0 / (c + d * ratio);
        Complex64::new((a.re + a.im * ratio) * scale, (a.im - a.re * ratio) * scale)
    } else {
        let ratio = c / d;
        let scale = 1.0 / (d + c * ratio);
        Complex64::new((a.re * ratio + a.im) * scale, (a.im * ratio - a.re) * scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
