//! Python's arithmetic on its own numbers: `int` (64 bits in place, wider ones in
//! arbitrary precision: `python::long`), `float`, `complex` and `bool`, with Python's rules for `/`,
//! `//`, `%` and `**` and its `ZeroDivisionError` messages.

use num_complex::Complex64;

use num_bigint::BigInt;
use num_traits::{Signed, Zero};

use super::exception::PyException;
use super::long;
use super::value::Value;

/// A binary operator of Python's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `//`
    FloorDiv,
    /// `%`
    Mod,
    /// `**`
    Pow,
    /// `@`
    MatMul,
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
    /// `<<`
    LShift,
    /// `>>`
    RShift,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::MatMul => "@",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::LShift => "<<",
            BinOp::RShift => ">>",
        }
    }
}

/// `math.fsum`: the exactly rounded sum of `xs` (kept as partial sums that do not overlap,
/// so no bit is lost, then rounded once, half to even); an error's class and message as
/// CPython's for infinities of both signs and for an overflow on the way.
pub fn exact_sum(xs: &[f64]) -> Result<f64, (&'static str, &'static str)> {
    let mut partials: Vec<f64> = Vec::new();
    let mut special = 0.0f64;
    let mut infinities = 0.0f64;
    for &value in xs {
        if !value.is_finite() {
            if value.is_infinite() {
                infinities += value;
            }
            special += value;
            continue;
        }
        let mut x = value;
        let mut kept = 0;
        for j in 0..partials.len() {
            let mut y = partials[j];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                partials[kept] = lo;
                kept += 1;
            }
            x = hi;
        }
        if !x.is_finite() {
            return Err(("OverflowError", "intermediate overflow in fsum"));
        }
        partials.truncate(kept);
        partials.push(x);
    }
    if special != 0.0 || special.is_nan() {
        if infinities.is_nan() {
            return Err(("ValueError", "-inf + inf in fsum"));
        }
        return Ok(special);
    }
    let Some(mut n) = partials.len().checked_sub(1) else {
        return Ok(0.0);
    };
    let mut hi = partials[n];
    let mut lo = 0.0;
    while n > 0 {
        let x = hi;
        n -= 1;
        let y = partials[n];
        hi = x + y;
        lo = y - (hi - x);
        if lo != 0.0 {
            break;
        }
    }
    // Half to even across the partials below: round up when what is left below pushes the
    // same way.
    if n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0)) {
        let y = lo * 2.0;
        let x = hi + y;
        if y == x - hi {
            hi = x;
        }
    }
    Ok(hi)
}

/// A number, as arithmetic reads it: ints within 64 bits as `Int` (room for one
/// operation without overflow), wider ones borrowed.
#[derive(Debug, Clone, Copy)]
enum Num<'a> {
    Int(i128),
    Big(&'a BigInt),
    Float(f64),
    Complex(Complex64),
}

fn num(v: &Value) -> Option<Num<'_>> {
    match v {
        Value::Bool(b) => Some(Num::Int(*b as i128)),
        Value::Int(i) => Some(Num::Int(*i as i128)),
        Value::BigInt(i) => Some(Num::Big(i)),
        Value::Float(f) => Some(Num::Float(*f)),
        Value::Complex(c) => Some(Num::Complex(*c)),
        _ => None,
    }
}

fn zero_division(message: &str) -> PyException {
    PyException::new("ZeroDivisionError", message)
}

/// `a op b` when both are Python numbers; `None` when either is not.
pub fn binary(op: BinOp, a: &Value, b: &Value) -> Option<Result<Value, PyException>> {
    let (x, y) = (num(a)?, num(b)?);
    if let (Value::Bool(p), Value::Bool(q)) = (a, b) {
        match op {
            BinOp::And => return Some(Ok(Value::Bool(*p & *q))),
            BinOp::Or => return Some(Ok(Value::Bool(*p | *q))),
            BinOp::Xor => return Some(Ok(Value::Bool(*p ^ *q))),
            _ => {}
        }
    }
    Some(match (x, y) {
        (Num::Int(p), Num::Int(q)) => match int_op(op, p, q) {
            Some(r) => r,
            None => long_op(op, &BigInt::from(p), &BigInt::from(q)),
        },
        (Num::Complex(_), _) | (_, Num::Complex(_)) => match (complex(x), complex(y)) {
            (Ok(p), Ok(q)) => complex_op(op, p, q),
            (Err(e), _) | (_, Err(e)) => Err(e),
        },
        (Num::Int(_) | Num::Big(_), Num::Int(_) | Num::Big(_)) => long_op(op, &long(x), &long(y)),
        _ => match (float(x), float(y)) {
            (Ok(p), Ok(q)) => float_op(op, p, q),
            (Err(e), _) | (_, Err(e)) => Err(e),
        },
    })
}

/// An int as arbitrary precision.
fn long(n: Num<'_>) -> BigInt {
    match n {
        Num::Int(i) => BigInt::from(i),
        Num::Big(b) => b.clone(),
        _ => BigInt::zero(),
    }
}

/// A real number as a float (an int too large for one: CPython's `OverflowError`).
fn float(n: Num<'_>) -> Result<f64, PyException> {
    Ok(match n {
        Num::Int(i) => i as f64,
        Num::Big(b) => long::to_f64(b)?,
        Num::Float(f) => f,
        Num::Complex(c) => c.re,
    })
}

fn complex(n: Num<'_>) -> Result<Complex64, PyException> {
    Ok(match n {
        Num::Complex(c) => c,
        other => Complex64::new(float(other)?, 0.0),
    })
}

fn unsupported(op: BinOp, a: &str, b: &str) -> PyException {
    PyException::new(
        "TypeError",
        format!(
            "unsupported operand type(s) for {}: '{a}' and '{b}'",
            op.symbol()
        ),
    )
}

/// `p op q` of two ints within 64 bits, in 128-bit arithmetic; `None` where the result
/// leaves it (the caller computes it in arbitrary precision).
fn int_op(op: BinOp, p: i128, q: i128) -> Option<Result<Value, PyException>> {
    let checked = |r: Option<i128>| r.map(|r| Ok(Value::int(r)));
    match op {
        BinOp::Add => checked(p.checked_add(q)),
        BinOp::Sub => checked(p.checked_sub(q)),
        BinOp::Mul => checked(p.checked_mul(q)),
        BinOp::Div => Some(if q == 0 {
            Err(zero_division("division by zero"))
        } else if p.unsigned_abs() <= 1 << 53 && q.unsigned_abs() <= 1 << 53 {
            Ok(Value::Float(p as f64 / q as f64))
        } else {
            long::true_divide(&BigInt::from(p), &BigInt::from(q)).map(Value::Float)
        }),
        BinOp::FloorDiv | BinOp::Mod => {
            if q == 0 {
                return Some(Err(zero_division(if op == BinOp::Mod {
                    "integer modulo by zero"
                } else {
                    "integer division or modulo by zero"
                })));
            }
            let (mut d, mut m) = (p.checked_div_euclid(q)?, p.checked_rem_euclid(q)?);
            // Euclid's remainder is never negative; Python's takes the divisor's sign.
            if q < 0 && m != 0 {
                // p = q·d + m = q·(d - 1) + (m + q).
                m += q;
                d -= 1;
            }
            Some(Ok(Value::int(if op == BinOp::Mod { m } else { d })))
        }
        BinOp::Pow => {
            if q < 0 {
                if p == 0 {
                    return Some(Err(zero_division(
                        "0.0 cannot be raised to a negative power",
                    )));
                }
                return Some(Ok(Value::Float((p as f64).powf(q as f64))));
            }
            checked(u32::try_from(q).ok().and_then(|e| p.checked_pow(e)))
        }
        BinOp::And => Some(Ok(Value::int(p & q))),
        BinOp::Or => Some(Ok(Value::int(p | q))),
        BinOp::Xor => Some(Ok(Value::int(p ^ q))),
        BinOp::LShift => {
            if q < 0 {
                return Some(Err(PyException::new("ValueError", "negative shift count")));
            }
            if p == 0 {
                return Some(Ok(Value::Int(0)));
            }
            let s = u32::try_from(q).ok().filter(|&s| s < 127)?;
            let r = p << s;
            (r >> s == p).then(|| Ok(Value::int(r)))
        }
        BinOp::RShift => {
            if q < 0 {
                return Some(Err(PyException::new("ValueError", "negative shift count")));
            }
            Some(Ok(Value::int(p >> q.min(127))))
        }
        BinOp::MatMul => Some(Err(unsupported(op, "int", "int"))),
    }
}

/// `p op q` of two ints of any size (`python::long`'s limits apply).
fn long_op(op: BinOp, p: &BigInt, q: &BigInt) -> Result<Value, PyException> {
    Ok(Value::long(match op {
        BinOp::Add => p + q,
        BinOp::Sub => p - q,
        BinOp::Mul => {
            long::check_bits(p.bits() + q.bits())?;
            p * q
        }
        BinOp::Div => return long::true_divide(p, q).map(Value::Float),
        BinOp::FloorDiv => long::div_mod(p, q, false)?.0,
        BinOp::Mod => long::div_mod(p, q, true)?.1,
        BinOp::Pow => {
            if q.is_negative() {
                if p.is_zero() {
                    return Err(zero_division("0.0 cannot be raised to a negative power"));
                }
                let (base, exponent) = (long::to_f64(p)?, long::to_f64(q)?);
                return Ok(Value::Float(base.powf(exponent)));
            }
            long::pow(p, q)?
        }
        BinOp::And => p & q,
        BinOp::Or => p | q,
        BinOp::Xor => p ^ q,
        BinOp::LShift => long::shift_left(p, q)?,
        BinOp::RShift => long::shift_right(p, q)?,
        BinOp::MatMul => return Err(unsupported(op, "int", "int")),
    }))
}

/// Python's `float // float` and `float % float` (the remainder takes the divisor's sign).
fn float_divmod(p: f64, q: f64) -> (f64, f64) {
    let m = p % q;
    let mut d = (p - m) / q;
    let mut m = m;
    if m != 0.0 {
        if (q < 0.0) != (m < 0.0) {
            m += q;
            d -= 1.0;
        }
    } else {
        m = 0.0_f64.copysign(q);
    }
    let floor = if d != 0.0 {
        let f = d.floor();
        if d - f > 0.5 { f + 1.0 } else { f }
    } else {
        0.0_f64.copysign(p / q)
    };
    (floor, m)
}

fn float_op(op: BinOp, p: f64, q: f64) -> Result<Value, PyException> {
    Ok(Value::Float(match op {
        BinOp::Add => p + q,
        BinOp::Sub => p - q,
        BinOp::Mul => p * q,
        BinOp::Div => {
            if q == 0.0 {
                return Err(zero_division("float division by zero"));
            }
            p / q
        }
        BinOp::FloorDiv => {
            if q == 0.0 {
                return Err(zero_division("float floor division by zero"));
            }
            float_divmod(p, q).0
        }
        BinOp::Mod => {
            if q == 0.0 {
                return Err(zero_division("float modulo"));
            }
            float_divmod(p, q).1
        }
        BinOp::Pow => {
            if p == 0.0 && q < 0.0 {
                return Err(zero_division("0.0 cannot be raised to a negative power"));
            }
            if p < 0.0 && q.fract() != 0.0 && q.is_finite() {
                return complex_op(op, Complex64::new(p, 0.0), Complex64::new(q, 0.0));
            }
            let r = p.powf(q);
            if r.is_infinite() && p.is_finite() && q.is_finite() {
                return Err(PyException::new(
                    "OverflowError",
                    "(34, 'Numerical result out of range')",
                ));
            }
            r
        }
        _ => return Err(unsupported(op, "float", "float")),
    }))
}

fn complex_op(op: BinOp, p: Complex64, q: Complex64) -> Result<Value, PyException> {
    Ok(Value::Complex(match op {
        BinOp::Add => p + q,
        BinOp::Sub => p - q,
        BinOp::Mul => p * q,
        BinOp::Div => {
            if q.re == 0.0 && q.im == 0.0 {
                return Err(zero_division("complex division by zero"));
            }
            p / q
        }
        BinOp::Pow => {
            if q.re == 0.0 && q.im == 0.0 {
                Complex64::new(1.0, 0.0)
            } else if p.re == 0.0 && p.im == 0.0 {
                if q.im != 0.0 || q.re < 0.0 {
                    return Err(zero_division("0.0 to a negative or complex power"));
                }
                Complex64::new(0.0, 0.0)
            } else {
                p.powc(q)
            }
        }
        _ => return Err(unsupported(op, "complex", "complex")),
    }))
}

/// Compares two Python numbers exactly, as CPython does (`None` when either is not a real
/// number, or one is NaN).
pub fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    match (num(a)?, num(b)?) {
        (Num::Int(p), Num::Int(q)) => Some(p.cmp(&q)),
        (Num::Complex(_), _) | (_, Num::Complex(_)) => None,
        (x @ (Num::Int(_) | Num::Big(_)), Num::Float(f)) => int_against_float(x, f),
        (Num::Float(f), y @ (Num::Int(_) | Num::Big(_))) => {
            int_against_float(y, f).map(std::cmp::Ordering::reverse)
        }
        (Num::Float(p), Num::Float(q)) => p.partial_cmp(&q),
        (x, y) => Some(long(x).cmp(&long(y))),
    }
}

/// An int against a float, exactly (an int past 2**53 is no float's neighbour by rounding).
fn int_against_float(n: Num<'_>, f: f64) -> Option<std::cmp::Ordering> {
    match n {
        Num::Int(i) if i.unsigned_abs() <= 1 << 53 => (i as f64).partial_cmp(&f),
        other => long::compare_with_float(&long(other), f),
    }
}

/// `a == b` for two Python numbers (`None` when either is not a number).
pub fn equal(a: &Value, b: &Value) -> Option<bool> {
    match (num(a)?, num(b)?) {
        (Num::Int(p), Num::Int(q)) => Some(p == q),
        (Num::Complex(c), other) | (other, Num::Complex(c)) => Some(match other {
            Num::Complex(d) => c == d,
            real => {
                c.im == 0.0
                    && compare(&Value::Float(c.re), &value_of(real))
                        == Some(std::cmp::Ordering::Equal)
            }
        }),
        _ => Some(compare(a, b) == Some(std::cmp::Ordering::Equal)),
    }
}

/// A number back as a value (for comparing a complex number's real part).
fn value_of(n: Num<'_>) -> Value {
    match n {
        Num::Int(i) => Value::int(i),
        Num::Big(b) => Value::BigInt(std::rc::Rc::new(b.clone())),
        Num::Float(f) => Value::Float(f),
        Num::Complex(c) => Value::Complex(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fsum_is_exactly_rounded() {
        assert_eq!(exact_sum(&[0.1; 10]), Ok(1.0));
        assert_eq!(
            exact_sum(&[1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50]),
            Ok(1e-100)
        );
        assert_eq!(exact_sum(&[]), Ok(0.0));
        assert_eq!(
            exact_sum(&[f64::INFINITY, f64::NEG_INFINITY]),
            Err(("ValueError", "-inf + inf in fsum"))
        );
        assert_eq!(
            exact_sum(&[f64::MAX, f64::MAX]).unwrap_err().0,
            "OverflowError"
        );
    }

    fn f(op: BinOp, a: Value, b: Value) -> String {
        match binary(op, &a, &b).unwrap() {
            Ok(Value::Int(i)) => i.to_string(),
            Ok(Value::Float(x)) => format!("{x:?}"),
            Ok(Value::Bool(b)) => b.to_string(),
            Ok(_) => "other".into(),
            Err(e) => match &e.args.borrow()[0] {
                Value::Str(m) => format!("{}: {m}", e.class.name),
                _ => e.class.name.to_string(),
            },
        }
    }

    #[test]
    fn division_and_remainder_follow_python() {
        use Value::{Float as F, Int as I};
        assert_eq!(f(BinOp::FloorDiv, I(-7), I(2)), "-4");
        assert_eq!(f(BinOp::Mod, I(-7), I(2)), "1");
        assert_eq!(f(BinOp::Mod, I(7), I(-2)), "-1");
        assert_eq!(f(BinOp::FloorDiv, I(7), I(-2)), "-4");
        assert_eq!(f(BinOp::Div, I(1), I(2)), "0.5");
        assert_eq!(f(BinOp::Mod, F(-7.5), F(2.0)), "0.5");
        assert_eq!(f(BinOp::FloorDiv, F(-7.5), F(2.0)), "-4.0");
        assert_eq!(f(BinOp::Pow, I(2), I(-1)), "0.5");
        assert_eq!(f(BinOp::Pow, I(3), I(4)), "81");
        assert_eq!(
            f(BinOp::Div, I(1), I(0)),
            "ZeroDivisionError: division by zero"
        );
        assert_eq!(
            f(BinOp::FloorDiv, I(1), I(0)),
            "ZeroDivisionError: integer division or modulo by zero"
        );
        assert_eq!(
            f(BinOp::Div, F(1.0), I(0)),
            "ZeroDivisionError: float division by zero"
        );
        assert_eq!(f(BinOp::Mul, I(i64::MAX), I(2)), "other");
        assert!(matches!(
            binary(
                BinOp::Sub,
                &Value::Int(0),
                &binary(BinOp::Pow, &I(2), &I(63)).unwrap().unwrap()
            ),
            Some(Ok(Value::Int(i64::MIN)))
        ));
        assert_eq!(f(BinOp::Pow, I(2), I(200)), "other");
        assert!(f(BinOp::Pow, I(2), I(1 << 40)).starts_with("MemoryError"));
        assert_eq!(
            f(BinOp::Mod, I(5), I(0)),
            "ZeroDivisionError: integer modulo by zero"
        );
        assert_eq!(
            f(BinOp::And, Value::Bool(true), Value::Bool(false)),
            "false"
        );
        assert_eq!(f(BinOp::Add, Value::Bool(true), Value::Bool(true)), "2");
    }
}
