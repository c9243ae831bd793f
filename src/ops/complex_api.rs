//! Python's `complex` numbers in scripts: unary `-`/`+`, `+ - * /` with numbers and each other,
//! `==`/`!=`, `.real`, `.imag`, `.conjugate()`. Python (3.11) first turns a real operand `x`
//! into `complex(x, 0.0)`, which decides the signs of zeros (`(-0-5j) + 0` is `-5j`), and
//! divides by Smith's method; both are followed here.

use num_complex::Complex64;
use rhai::{Dynamic, Engine, FLOAT, INT};

use crate::core::error::TorchError;
use crate::ops::errors::{RhaiResult, to_rhai};
use crate::ops::registration;
use crate::ops::signature::Owner;
use crate::ops::values::PyComplex;

impl Owner for PyComplex {
    const OWNER: &'static str = "complex";
}

/// `a / b` as CPython computes it: Smith's method, scaling by the larger part of `b`.
fn divide(a: Complex64, b: Complex64) -> RhaiResult<Complex64> {
    let (br, bi) = (b.re.abs(), b.im.abs());
    if br >= bi {
        if br == 0.0 {
            return Err(to_rhai(TorchError::zero_division(
                "complex division by zero",
            )));
        }
        let ratio = b.im / b.re;
        let denom = b.re + b.im * ratio;
        Ok(Complex64::new(
            (a.re + a.im * ratio) / denom,
            (a.im - a.re * ratio) / denom,
        ))
    } else if bi >= br {
        let ratio = b.re / b.im;
        let denom = b.re * ratio + b.im;
        Ok(Complex64::new(
            (a.re * ratio + a.im) / denom,
            (a.im * ratio - a.re) / denom,
        ))
    } else {
        // A NaN part compares false both ways.
        Ok(Complex64::new(f64::NAN, f64::NAN))
    }
}

/// `a * b` by the schoolbook formula, as CPython multiplies (no fused operations).
fn multiply(a: Complex64, b: Complex64) -> Complex64 {
    Complex64::new(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
}

/// The four operators on two complex values.
fn apply(op: &str, a: Complex64, b: Complex64) -> RhaiResult<PyComplex> {
    Ok(PyComplex(match op {
        "+" => Complex64::new(a.re + b.re, a.im + b.im),
        "-" => Complex64::new(a.re - b.re, a.im - b.im),
        "*" => multiply(a, b),
        _ => divide(a, b)?,
    }))
}

/// A real operand as Python widens it.
fn widen(x: f64) -> Complex64 {
    Complex64::new(x, 0.0)
}

/// Registers the complex operators and attributes.
pub fn register(engine: &mut Engine) {
    for op in ["+", "-", "*", "/"] {
        engine.register_fn(op, move |a: PyComplex, b: PyComplex| apply(op, a.0, b.0));
        engine.register_fn(op, move |a: PyComplex, b: INT| {
            apply(op, a.0, widen(b as f64))
        });
        engine.register_fn(op, move |a: INT, b: PyComplex| {
            apply(op, widen(a as f64), b.0)
        });
        engine.register_fn(op, move |a: PyComplex, b: FLOAT| apply(op, a.0, widen(b)));
        engine.register_fn(op, move |a: FLOAT, b: PyComplex| apply(op, widen(a), b.0));
        engine.register_fn(op, move |a: PyComplex, b: bool| {
            apply(op, a.0, widen(f64::from(u8::from(b))))
        });
        engine.register_fn(op, move |a: bool, b: PyComplex| {
            apply(op, widen(f64::from(u8::from(a))), b.0)
        });
    }
    engine.register_fn("-", |a: PyComplex| PyComplex(-a.0));
    engine.register_fn("+", |a: PyComplex| a);
    engine.register_fn("==", |a: PyComplex, b: PyComplex| a.0 == b.0);
    engine.register_fn("!=", |a: PyComplex, b: PyComplex| a.0 != b.0);
    engine.register_fn("==", |a: PyComplex, b: INT| a.0 == widen(b as f64));
    engine.register_fn("!=", |a: PyComplex, b: INT| a.0 != widen(b as f64));
    engine.register_fn("==", |a: PyComplex, b: FLOAT| a.0 == widen(b));
    engine.register_fn("!=", |a: PyComplex, b: FLOAT| a.0 != widen(b));
    engine.register_get("real", |a: &mut PyComplex| a.0.re);
    engine.register_get("imag", |a: &mut PyComplex| a.0.im);
    registration::method::<PyComplex>(engine, "conjugate", 0, |a, _| {
        Ok(Dynamic::from(PyComplex(a.0.conj())))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divides_as_cpython() {
        let q = divide(Complex64::new(1.0, 2.0), Complex64::new(-0.0, -5.0)).unwrap();
        assert_eq!((q.re, q.im), (-0.4, 0.2));
        let q = divide(Complex64::new(1.0, 0.0), Complex64::new(1.0, 2.0)).unwrap();
        assert_eq!((q.re, q.im), (0.2, -0.4));
        assert!(divide(Complex64::new(1.0, 2.0), Complex64::new(0.0, 0.0)).is_err());
    }

    #[test]
    fn widening_keeps_python_zero_signs() {
        let d = Complex64::new(-0.0, -5.0);
        let sum = apply("+", d, widen(0.0)).unwrap().0;
        assert!(sum.re.is_sign_positive());
        let difference = apply("-", d, widen(0.0)).unwrap().0;
        assert!(difference.re.is_sign_negative());
        let product = apply("*", d, widen(2.0)).unwrap().0;
        assert_eq!((product.re, product.im), (0.0, -10.0));
        assert!(product.re.is_sign_positive());
    }
}
