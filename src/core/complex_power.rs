//! `z ** w` for complex numbers as PyTorch computes it, in the precision of the complex
//! dtype (`complex64` in single precision, exactly: its elements are single-precision
//! numbers, so computing in `f32` and widening loses nothing).
//!
//! - A number exponent PyTorch's kernel treats on its own: `0` gives `1`, `1` the base,
//!   `2` and `3` repeated products, `0.5` the square root, `-0.5` its reciprocal, `-1` the
//!   reciprocal, `-2` the reciprocal of the square (products and quotients in the dtype's
//!   arithmetic; quotients by Smith's method, `complex_division`).
//! - Any other exponent, and every tensor exponent: the C library's `cpow`.

use num_complex::{Complex, Complex64};

use super::complex_division::quotient;
use super::operand::Arg;
use crate::platform::cmath::{ComplexFunction, ComplexLibm};

/// How a number exponent is computed.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Rule {
    One,
    Base,
    Square,
    Cube,
    Sqrt,
    RecipSqrt,
    Reciprocal,
    RecipSquare,
    General,
}

impl Rule {
    /// The rule for the exponent `e` (a tensor's exponents are always `General`).
    fn of(e: Option<Complex64>) -> Rule {
        let Some(e) = e.filter(|e| e.im == 0.0) else {
            return Rule::General;
        };
        match e.re {
            0.0 => Rule::One,
            1.0 => Rule::Base,
            2.0 => Rule::Square,
            3.0 => Rule::Cube,
            0.5 => Rule::Sqrt,
            -0.5 => Rule::RecipSqrt,
            -1.0 => Rule::Reciprocal,
            -2.0 => Rule::RecipSquare,
            _ => Rule::General,
        }
    }

    fn apply<T: num_traits::Float + ComplexLibm>(self, z: Complex<T>, w: Complex<T>) -> Complex<T> {
        let one = Complex::new(T::one(), T::zero());
        match self {
            Rule::One => one,
            Rule::Base => z,
            Rule::Square => z * z,
            Rule::Cube => z * z * z,
            Rule::Sqrt => T::apply(ComplexFunction::Sqrt, z),
            Rule::RecipSqrt => quotient(one, T::apply(ComplexFunction::Sqrt, z)),
            Rule::Reciprocal => quotient(one, z),
            Rule::RecipSquare => quotient(one, z * z),
            Rule::General => T::pow(z, w),
        }
    }
}

/// The power function for a complex result with the exponent `exponent` (a number or a
/// tensor): `single` for `complex64` (and narrower).
pub fn power(single: bool, exponent: &Arg) -> impl Fn(Complex64, Complex64) -> Complex64 + Sync {
    let rule = Rule::of(match exponent {
        Arg::Number(e) => Some(e.to_complex()),
        _ => None,
    });
    move |z, w| {
        if single {
            let narrow = |v: Complex64| Complex::new(v.re as f32, v.im as f32);
            let r = rule.apply(narrow(z), narrow(w));
            Complex64::new(r.re.into(), r.im.into())
        } else {
            rule.apply(z, w)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_exponents_are_products_and_quotients() {
        use crate::core::scalar::Scalar;
        let z = Complex64::new(-10.0, -10.0);
        let number = |v: f64| Arg::Number(Scalar::Float(v));
        assert_eq!(power(false, &number(2.0))(z, z), z * z);
        assert_eq!(power(true, &number(1.0))(z, z), z);
        let one = power(false, &number(0.0))(Complex64::new(f64::NAN, 0.0), z);
        assert_eq!(one, Complex64::new(1.0, 0.0));
    }
}
