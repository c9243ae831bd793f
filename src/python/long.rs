//! Python's ints past 64 bits: arbitrary precision, as CPython's (`num-bigint` holds the
//! digits). An int that fits 64 bits is always a `Value::Int`; only the others are
//! `Value::BigInt` (`Value::long` keeps that invariant), so everyday arithmetic never
//! allocates.
//!
//! Two limits keep a program from stalling or exhausting memory where CPython would grind:
//! an int holds at most [`MAX_BITS`] bits (a result past it is a `MemoryError` in words, said
//! before it is computed), and decimal text has CPython's own default limit of 4,300 digits
//! both ways (`int(s)`, `str(n)`: a `ValueError` with CPython's words).

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{FromPrimitive, Signed, ToPrimitive, Zero};

use super::exception::PyException;

/// The most bits an int may hold (a 2 MiB number, about 5 million decimal digits).
pub const MAX_BITS: u64 = 1 << 24;

/// CPython's default limit on decimal digits converted to or from text
/// (`sys.get_int_max_str_digits()`).
pub const MAX_STR_DIGITS: usize = 4300;

/// A `MemoryError` for a result of about `bits` bits (`u64::MAX`: more than can be said).
pub fn too_big(bits: u64) -> PyException {
    PyException::new(
        "MemoryError",
        format!(
            "the result would need about {bits} bits: tensh's Python ints hold at most {MAX_BITS} bits"
        ),
    )
}

/// Checks that a result of about `bits` bits may be computed.
pub fn check_bits(bits: u64) -> Result<(), PyException> {
    if bits > MAX_BITS {
        Err(too_big(bits))
    } else {
        Ok(())
    }
}

/// `float(n)`, correctly rounded (half to even) as CPython's, or CPython's `OverflowError`.
pub fn to_f64(n: &BigInt) -> Result<f64, PyException> {
    // num-bigint rounds to odd on the way to 64 bits, then to nearest: correctly rounded.
    n.to_f64()
        .filter(|x| x.is_finite())
        .ok_or_else(|| PyException::new("OverflowError", "int too large to convert to float"))
}

/// `n` compared with the float `x` exactly, as CPython compares them (`None`: `x` is NaN).
pub fn compare_with_float(n: &BigInt, x: f64) -> Option<Ordering> {
    if x.is_nan() {
        return None;
    }
    if x.is_infinite() {
        return Some(if x > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        });
    }
    let floor = x.floor();
    let whole = BigInt::from_f64(floor)?;
    Some(match n.cmp(&whole) {
        // Equal to the whole part of a float with a fraction: below it.
        Ordering::Equal if x > floor => Ordering::Less,
        other => other,
    })
}

/// `a // b` and `a % b` with Python's signs (the remainder takes the divisor's), or
/// CPython's `ZeroDivisionError` (`modulo`: the `%` message).
pub fn div_mod(a: &BigInt, b: &BigInt, modulo: bool) -> Result<(BigInt, BigInt), PyException> {
    if b.is_zero() {
        return Err(PyException::new(
            "ZeroDivisionError",
            if modulo {
                "integer modulo by zero"
            } else {
                "integer division or modulo by zero"
            },
        ));
    }
    Ok(a.div_mod_floor(b))
}

/// `a / b` of two ints, correctly rounded as CPython's true division is.
pub fn true_divide(a: &BigInt, b: &BigInt) -> Result<f64, PyException> {
    if b.is_zero() {
        return Err(PyException::new("ZeroDivisionError", "division by zero"));
    }
    // Both exact as floats: one correctly rounded division.
    if a.bits() <= 53 && b.bits() <= 53 {
        return Ok(to_f64(a)? / to_f64(b)?);
    }
    let negative = a.is_negative() != b.is_negative();
    let (a, b) = (a.abs(), b.abs());
    // Scale so that the quotient has 55 to 56 bits, then round that integer with the
    // remainder as a sticky bit, then scale back.
    let shift = b.bits() as i64 - a.bits() as i64 + 55;
    let (num, den) = if shift >= 0 {
        (&a << shift as u64, b)
    } else {
        (a, &b << (-shift) as u64)
    };
    let (q, r) = num.div_rem(&den);
    let q = if r.is_zero() { q } else { q | BigInt::from(1) };
    let mantissa = q.to_u64().unwrap_or(u64::MAX) as f64;
    let exponent = -shift;
    let x = scale(mantissa, exponent);
    if x.is_infinite() {
        return Err(PyException::new(
            "OverflowError",
            "integer division result too large for a float",
        ));
    }
    Ok(if negative { -x } else { x })
}

/// `x * 2**e` without overflowing or underflowing on the way.
fn scale(mut x: f64, mut e: i64) -> f64 {
    while e > 1000 {
        x *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 {
        x *= 2f64.powi(-1000);
        e += 1000;
    }
    x * 2f64.powi(e as i32)
}

/// `a ** e` for `e >= 0`, refused past [`MAX_BITS`] before it is computed.
pub fn pow(a: &BigInt, e: &BigInt) -> Result<BigInt, PyException> {
    if a.is_zero() || a.magnitude().bits() == 1 {
        // 0, 1 and -1: any exponent.
        let odd = e.is_odd();
        return Ok(if e.is_zero() || (a.is_negative() && !odd) {
            BigInt::from(1)
        } else {
            a.clone()
        });
    }
    let e = e.to_u64().ok_or_else(|| too_big(u64::MAX))?;
    let bits = (a.bits() - 1).saturating_mul(e);
    check_bits(bits)?;
    Ok(num_traits::pow::Pow::pow(a, e))
}

/// `pow(a, e, m)`: modular power with Python's signs; a negative `e` takes the inverse of
/// `a` modulo `m` first, as CPython 3.8 and later do.
pub fn pow_mod(a: &BigInt, e: &BigInt, m: &BigInt) -> Result<BigInt, PyException> {
    if m.is_zero() {
        return Err(PyException::new(
            "ValueError",
            "pow() 3rd argument cannot be 0",
        ));
    }
    let (base, e) = if e.is_negative() {
        let inverse = a.mod_floor(m).modinv(m).ok_or_else(|| {
            PyException::new("ValueError", "base is not invertible for the given modulus")
        })?;
        (inverse, -e)
    } else {
        (a.clone(), e.clone())
    };
    Ok(base.modpow(&e, m))
}

/// `a << s`, refused past [`MAX_BITS`].
pub fn shift_left(a: &BigInt, s: &BigInt) -> Result<BigInt, PyException> {
    if s.is_negative() {
        return Err(PyException::new("ValueError", "negative shift count"));
    }
    if a.is_zero() {
        return Ok(BigInt::zero());
    }
    // CPython's words where the digit count itself would overflow.
    let digits = || PyException::new("OverflowError", "too many digits in integer");
    let s = s.to_u64().filter(|&s| s < 1 << 62).ok_or_else(digits)?;
    check_bits(a.bits() + s)?;
    Ok(a << s)
}

/// `a >> s` (rounding toward minus infinity, as Python's).
pub fn shift_right(a: &BigInt, s: &BigInt) -> Result<BigInt, PyException> {
    if s.is_negative() {
        return Err(PyException::new("ValueError", "negative shift count"));
    }
    match s.to_u64().filter(|&s| s < a.bits() + 1) {
        Some(s) => Ok(a >> s),
        None => Ok(if a.is_negative() {
            BigInt::from(-1)
        } else {
            BigInt::zero()
        }),
    }
}

/// The `ValueError` CPython raises for decimal text past its digit limit.
fn digit_limit(reading: Option<usize>) -> PyException {
    PyException::new(
        "ValueError",
        match reading {
            Some(digits) => format!(
                "Exceeds the limit ({MAX_STR_DIGITS} digits) for integer string conversion: value has {digits} digits; use sys.set_int_max_str_digits() to increase the limit"
            ),
            None => format!(
                "Exceeds the limit ({MAX_STR_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"
            ),
        },
    )
}

/// `str(n)`: decimal text, refused past CPython's digit limit.
pub fn to_decimal(n: &BigInt) -> Result<String, PyException> {
    // log10(2) < 0.30103: a number of b bits has at most ceil(b * 0.30103) digits, at
    // least one fewer.
    let bits = n.bits() as f64;
    if (bits - 1.0) * std::f64::consts::LOG10_2 >= MAX_STR_DIGITS as f64 {
        return Err(digit_limit(None));
    }
    let text = n.to_string();
    let digits = text.trim_start_matches('-').len();
    if digits > MAX_STR_DIGITS {
        return Err(digit_limit(None));
    }
    Ok(text)
}

/// The int written by `digits` (ASCII digits of `radix`, nothing else), refusing more than
/// CPython's limit of decimal digits.
pub fn parse_digits(digits: &str, radix: u32) -> Result<Option<BigInt>, PyException> {
    if radix == 10 && digits.len() > MAX_STR_DIGITS {
        return Err(digit_limit(Some(digits.len())));
    }
    if radix.is_power_of_two() {
        check_bits(digits.len() as u64 * radix.trailing_zeros() as u64)?;
    }
    Ok(BigInt::parse_bytes(digits.as_bytes(), radix))
}

/// `n` as a non-negative magnitude in `radix` 2, 8 or 16 with its sign (`hex`, `oct`,
/// `bin` and the `x`, `o`, `b` formats).
pub fn to_radix(n: &BigInt, radix: u32) -> (bool, String) {
    (n.is_negative(), n.magnitude().to_str_radix(radix))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(text: &str) -> BigInt {
        text.parse().expect("an int")
    }

    #[test]
    fn floats_round_half_to_even_and_overflow_in_words() {
        // 2**64 + 1: exactly 2**64 as a float (CPython: 1.8446744073709552e+19).
        assert_eq!(
            to_f64(&(big("18446744073709551617"))).unwrap(),
            18446744073709551616.0
        );
        // 2**53 + 1 rounds to even (down); 2**53 + 3 rounds to even (up).
        let two53 = BigInt::from(1u64 << 53);
        assert_eq!(to_f64(&(&two53 + 1)).unwrap(), 9007199254740992.0);
        assert_eq!(to_f64(&(&two53 + 3)).unwrap(), 9007199254740996.0);
        // Past 2**64, a sticky bit far below decides an exact half upward.
        let x = (BigInt::from(1) << 200u32) + (BigInt::from(1) << 147u32) + 1;
        assert_eq!(to_f64(&x).unwrap(), 2f64.powi(200) * (1.0 + 2f64.powi(-52)));
        assert_eq!(
            to_f64(&-(BigInt::from(1) << 1023u32)).unwrap(),
            -(2f64.powi(1023))
        );
        assert!(to_f64(&(BigInt::from(1) << 1024u32)).is_err());
    }

    #[test]
    fn division_is_correctly_rounded() {
        let a = big("1000000000000000000000000000000");
        assert_eq!(true_divide(&a, &big("3")).unwrap(), 3.333333333333333e29);
        assert_eq!(true_divide(&big("-7"), &big("2")).unwrap(), -3.5);
        let huge = BigInt::from(1) << 2000u32;
        assert_eq!(true_divide(&BigInt::from(1), &huge).unwrap(), 0.0);
        assert!(true_divide(&huge, &BigInt::from(1)).is_err());
        assert_eq!(
            true_divide(
                &(BigInt::from(10).pow(400u32)),
                &(BigInt::from(10).pow(399u32))
            )
            .unwrap(),
            10.0
        );
    }

    #[test]
    fn comparisons_with_floats_are_exact() {
        let two53 = BigInt::from(1u64 << 53);
        assert_eq!(
            compare_with_float(&(&two53 + 1), 9007199254740992.0),
            Some(Ordering::Greater)
        );
        assert_eq!(
            compare_with_float(&two53, 9007199254740992.0),
            Some(Ordering::Equal)
        );
        assert_eq!(
            compare_with_float(&BigInt::from(2), 2.5),
            Some(Ordering::Less)
        );
        assert_eq!(
            compare_with_float(&BigInt::from(-3), -2.5),
            Some(Ordering::Less)
        );
        assert_eq!(compare_with_float(&BigInt::from(3), f64::NAN), None);
        assert_eq!(
            compare_with_float(&BigInt::from(3), f64::INFINITY),
            Some(Ordering::Less)
        );
    }

    #[test]
    fn limits_are_said_before_the_work() {
        let class = |e: PyException| e.class.name.to_string();
        assert_eq!(
            class(pow(&BigInt::from(2), &BigInt::from(1u64 << 30)).unwrap_err()),
            "MemoryError"
        );
        assert_eq!(
            pow(&BigInt::from(-1), &BigInt::from(1u64 << 40)).unwrap(),
            BigInt::from(1)
        );
        assert!(shift_left(&BigInt::from(1), &BigInt::from(1u64 << 40)).is_err());
        assert_eq!(
            class(shift_left(&BigInt::from(1), &(BigInt::from(1) << 70u32)).unwrap_err()),
            "OverflowError"
        );
        assert_eq!(
            shift_right(&BigInt::from(-5), &BigInt::from(1u64 << 40)).unwrap(),
            BigInt::from(-1)
        );
        let ten = BigInt::from(10);
        assert!(to_decimal(&ten.pow(4299u32)).is_ok());
        assert!(to_decimal(&ten.pow(4300u32)).is_err());
        assert!(parse_digits(&"1".repeat(4301), 10).is_err());
        assert_eq!(
            pow_mod(&BigInt::from(3), &BigInt::from(-1), &BigInt::from(7)).unwrap(),
            BigInt::from(5)
        );
    }
}
