//! `math`'s functions of ints, exact at any size as CPython's: `gcd`, `lcm`, `factorial`,
//! `comb`, `perm`, `isqrt`, a float's `floor`/`ceil`/`trunc` as an int, and the logarithm
//! of an int too large for a float. Results past `long::MAX_BITS` are refused before they
//! are computed.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{FromPrimitive, One, Signed, ToPrimitive, Zero};

use super::exception::PyException;
use super::long;

fn value_error(message: &str) -> PyException {
    PyException::new("ValueError", message)
}

/// `math.gcd(*ns)` (0 for none).
pub fn gcd(ns: &[BigInt]) -> BigInt {
    ns.iter().fold(BigInt::zero(), |acc, n| acc.gcd(n))
}

/// `math.lcm(*ns)` (1 for none).
pub fn lcm(ns: &[BigInt]) -> Result<BigInt, PyException> {
    let mut acc = BigInt::one();
    for n in ns {
        if n.is_zero() || acc.is_zero() {
            acc = BigInt::zero();
            continue;
        }
        long::check_bits(acc.bits() + n.bits())?;
        acc = acc.lcm(n);
    }
    Ok(acc)
}

/// A non-negative argument (`negative`: the `ValueError` for a negative one).
fn non_negative(n: &BigInt, negative: &str) -> Result<(), PyException> {
    if n.is_negative() {
        Err(value_error(negative))
    } else {
        Ok(())
    }
}

/// The product of `count` consecutive ints counting down from `high` (1 when none), with
/// its size checked first (at most `high.bits()` bits a factor).
fn falling_product(high: &BigInt, count: u64) -> Result<BigInt, PyException> {
    if count == 0 {
        return Ok(BigInt::one());
    }
    long::check_bits(count.saturating_mul(high.bits()))?;
    // Halves multiplied together keep the operands balanced (fast for big products).
    fn product(high: &BigInt, count: u64) -> BigInt {
        if count <= 16 {
            (0..count).fold(BigInt::one(), |acc, i| acc * (high - i))
        } else {
            let half = count / 2;
            product(high, half) * product(&(high - half), count - half)
        }
    }
    Ok(product(high, count))
}

/// `math.factorial(n)`.
pub fn factorial(n: &BigInt) -> Result<BigInt, PyException> {
    non_negative(n, "factorial() not defined for negative values")?;
    let Some(n) = n.to_i64() else {
        return Err(PyException::new(
            "OverflowError",
            format!("factorial() argument should not exceed {}", i64::MAX),
        ));
    };
    // n! = n·(n-1)···1: n factors (none for 0).
    falling_product(&BigInt::from(n), n as u64)
}

/// `k` as a count of factors no larger than `n` (`None`: `k > n`, so the answer is 0).
fn factors(n: &BigInt, k: &BigInt) -> Result<Option<u64>, PyException> {
    non_negative(n, "n must be a non-negative integer")?;
    non_negative(k, "k must be a non-negative integer")?;
    if k > n {
        return Ok(None);
    }
    // k bits or more a factor, k factors: past any limit long before k leaves 64 bits.
    k.to_u64().map(Some).ok_or_else(|| long::too_big(u64::MAX))
}

/// `math.perm(n, k)` (`k` absent: `n!`).
pub fn perm(n: &BigInt, k: Option<&BigInt>) -> Result<BigInt, PyException> {
    let Some(k) = factors(n, k.unwrap_or(n))? else {
        return Ok(BigInt::zero());
    };
    falling_product(n, k)
}

/// `math.comb(n, k)`.
pub fn comb(n: &BigInt, k: &BigInt) -> Result<BigInt, PyException> {
    let Some(k) = factors(n, k)? else {
        return Ok(BigInt::zero());
    };
    // C(n, k) = C(n, n - k): the fewer factors.
    let k = match (n - k).to_u64() {
        Some(other) if other < k => other,
        _ => k,
    };
    Ok(falling_product(n, k)? / falling_product(&BigInt::from(k), k)?)
}

/// `math.isqrt(n)`.
pub fn isqrt(n: &BigInt) -> Result<BigInt, PyException> {
    if n.is_negative() {
        return Err(value_error("isqrt() argument must be nonnegative"));
    }
    Ok(n.sqrt())
}

/// A float's `floor`, `ceil` or `trunc` (`rounded`, a whole float) as an exact int, with
/// CPython's errors for NaN and infinities.
pub fn whole_float(rounded: f64) -> Result<BigInt, PyException> {
    if rounded.is_nan() {
        return Err(value_error("cannot convert float NaN to integer"));
    }
    if rounded.is_infinite() {
        return Err(PyException::new(
            "OverflowError",
            "cannot convert float infinity to integer",
        ));
    }
    Ok(BigInt::from_f64(rounded).unwrap_or_default())
}

/// `round(n, digits)` of an int: unchanged for `digits >= 0`, else rounded half to even
/// to a multiple of `10**-digits`, as CPython's.
pub fn round_to_power_of_ten(n: &BigInt, digits: i64) -> BigInt {
    if digits >= 0 {
        return n.clone();
    }
    // A power of ten with more digits than `n` (plus one) rounds every such `n` to 0.
    let decimal_digits = (n.bits() as f64 * std::f64::consts::LOG10_2) as u64 + 1;
    let places = digits.unsigned_abs();
    if places > decimal_digits + 1 {
        return BigInt::zero();
    }
    let m = num_traits::pow(BigInt::from(10), places as usize);
    let (q, r) = n.div_mod_floor(&m);
    let twice: BigInt = &r * 2;
    let up = match twice.cmp(&m) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => q.is_odd(),
        std::cmp::Ordering::Less => false,
    };
    (if up { q + 1 } else { q }) * m
}

/// `n` as `m * 2**e` with `m` in [0.5, 1), `m` correctly rounded (CPython's
/// `_PyLong_Frexp`, which its `math.log` family uses for ints too large for a float).
/// `None` for 0.
pub fn frexp(n: &BigInt) -> Option<(f64, i64)> {
    let bits = n.bits();
    if bits == 0 {
        return None;
    }
    let magnitude = n.magnitude();
    let shift = bits.saturating_sub(64);
    let top = (magnitude >> shift).to_u64().unwrap_or(0);
    let sticky = magnitude.trailing_zeros().is_some_and(|z| z < shift);
    // 64 bits (with every lower bit folded into the last) round to 53 as all would.
    let x = (top | sticky as u64) as f64;
    let used = bits - shift;
    let mut m = x / 2f64.powi(used as i32);
    let mut e = bits as i64;
    if m >= 1.0 {
        m /= 2.0;
        e += 1;
    }
    Some((if n.is_negative() { -m } else { m }, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(n: i64) -> BigInt {
        BigInt::from(n)
    }

    #[test]
    fn counting_functions_are_exact() {
        assert_eq!(
            factorial(&big(30)).unwrap().to_string(),
            "265252859812191058636308480000000"
        );
        assert_eq!(factorial(&big(0)).unwrap(), big(1));
        assert_eq!(
            comb(&big(100), &big(50)).unwrap().to_string(),
            "100891344545564193334812497256"
        );
        assert_eq!(
            perm(&big(40), Some(&big(20))).unwrap().to_string(),
            "335367096786357081410764800000"
        );
        assert_eq!(perm(&big(3), Some(&big(5))).unwrap(), big(0));
        assert!(factorial(&big(-1)).is_err());
        let too_big = factorial(&big(10_000_000)).unwrap_err();
        assert_eq!(&*too_big.class.name, "MemoryError");
        assert_eq!(
            gcd(&[big(i64::MIN), big(0)]).to_string(),
            "9223372036854775808"
        );
        assert_eq!(
            lcm(&[big(1 << 62), big(3)]).unwrap().to_string(),
            "13835058055282163712"
        );
        assert_eq!(
            isqrt(&BigInt::from(10).pow(40u32)).unwrap(),
            BigInt::from(10).pow(20u32)
        );
        assert_eq!(round_to_power_of_ten(&big(25), -1), big(20));
        assert_eq!(round_to_power_of_ten(&big(35), -1), big(40));
        assert_eq!(round_to_power_of_ten(&big(-35), -1), big(-40));
        assert_eq!(round_to_power_of_ten(&big(5), -30), big(0));
        assert_eq!(whole_float(1e300).unwrap().to_string().len(), 301);
        assert_eq!(frexp(&(BigInt::from(1) << 2000u32)), Some((0.5, 2001)));
        assert_eq!(frexp(&big(-3)), Some((-0.75, 2)));
        assert_eq!(frexp(&big(0)), None);
        assert_eq!(
            comb(&(BigInt::from(1) << 70u32), &big(2))
                .unwrap()
                .to_string(),
            "696898287454081973172400900209902591410176"
        );
        let e = factorial(&(BigInt::from(1) << 70u32)).unwrap_err();
        assert!(
            matches!(&e.args.borrow()[0], crate::python::value::Value::Str(m) if m.contains("should not exceed"))
        );
    }
}
