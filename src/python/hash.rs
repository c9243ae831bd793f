//! Python's hash values for numbers and tuples, as CPython computes them (the rule that
//! makes `1`, `1.0`, `True` and `1+0j` one dict key, and what `hash(x)` prints): a number's
//! hash is its value reduced modulo the Mersenne prime 2**61 - 1, signed, with -1 (CPython's
//! error marker) answered as -2; a tuple's mixes its items' hashes in order.

/// 2**61 - 1, the modulus of numeric hashes.
const MODULUS: u64 = (1 << 61) - 1;
/// The bits of the modulus.
const BITS: u32 = 61;
/// `hash(inf)`.
const INFINITY: i64 = 314_159;
/// The multiplier of a complex number's imaginary part.
const IMAGINARY: i64 = 1_000_003;

/// -1 is not a hash value (CPython reserves it): -2 instead.
fn never_minus_one(h: i64) -> i64 {
    if h == -1 { -2 } else { h }
}

/// `hash(n)` of an int.
pub fn int(n: i128) -> i64 {
    let reduced = (n.unsigned_abs() % MODULUS as u128) as i64;
    never_minus_one(if n < 0 { -reduced } else { reduced })
}

/// `hash(n)` of an int of any size (`python::long`).
pub fn long(n: &num_bigint::BigInt) -> i64 {
    use num_traits::{Signed, ToPrimitive};
    let reduced = (n.magnitude() % MODULUS).to_i64().unwrap_or(0);
    never_minus_one(if n.is_negative() { -reduced } else { reduced })
}

/// `hash(x)` of a float (`None` for a NaN, whose hash is its object's identity).
pub fn float(x: f64) -> Option<i64> {
    if x.is_nan() {
        return None;
    }
    if x.is_infinite() {
        return Some(if x > 0.0 { INFINITY } else { -INFINITY });
    }
    let (mut mantissa, mut exponent) = frexp(x.abs());
    let mut h: u64 = 0;
    // The mantissa's bits, 28 at a time, folded into the residue modulo 2**61 - 1.
    while mantissa != 0.0 {
        h = ((h << 28) & MODULUS) | (h >> (BITS - 28));
        mantissa *= 268_435_456.0;
        exponent -= 28;
        let digits = mantissa as u64;
        mantissa -= digits as f64;
        h += digits;
        if h >= MODULUS {
            h -= MODULUS;
        }
    }
    // Times 2**exponent modulo 2**61 - 1 is a rotation by exponent mod 61.
    let shift = if exponent >= 0 {
        exponent % BITS as i32
    } else {
        BITS as i32 - 1 - ((-1 - exponent) % BITS as i32)
    } as u32;
    h = ((h << shift) & MODULUS) | (h >> (BITS - shift));
    let h = h as i64;
    Some(never_minus_one(if x < 0.0 { -h } else { h }))
}

/// `hash(z)` of a complex number (`None` if a part is NaN).
pub fn complex(re: f64, im: f64) -> Option<i64> {
    let h = float(re)?.wrapping_add(IMAGINARY.wrapping_mul(float(im)?));
    Some(never_minus_one(h))
}

/// `hash(t)` of a tuple whose items hash to `items`.
pub fn tuple(items: impl ExactSizeIterator<Item = i64>) -> i64 {
    const PRIME_1: u64 = 11_400_714_785_074_694_791;
    const PRIME_2: u64 = 14_029_467_366_897_019_727;
    const PRIME_5: u64 = 2_870_177_450_012_600_261;
    let len = items.len() as u64;
    let mut acc = PRIME_5;
    for lane in items {
        acc = acc.wrapping_add((lane as u64).wrapping_mul(PRIME_2));
        acc = acc.rotate_left(31);
        acc = acc.wrapping_mul(PRIME_1);
    }
    acc = acc.wrapping_add(len ^ (PRIME_5 ^ 3_527_539));
    if acc == u64::MAX {
        return 1_546_275_796;
    }
    acc as i64
}

/// A string's hash: stable within a process, as CPython's is (its values differ per run
/// there, so none is promised here).
pub fn text(s: &str) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    never_minus_one(h as i64)
}

/// `x` as a mantissa in [0.5, 1) and a power of two (`x` finite and not negative).
fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 {
        return (0.0, 0);
    }
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    if biased == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(x * f64::from_bits(0x4350_0000_0000_0000)); // 2**54
        return (m, e - 54);
    }
    let mantissa = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (mantissa, biased - 1022)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values CPython prints for `hash(...)` (3.11 and 3.12 agree).
    #[test]
    fn numbers_hash_as_in_cpython() {
        assert_eq!(int(1), 1);
        assert_eq!(int(-1), -2);
        assert_eq!(int(-2), -2);
        assert_eq!(int(1 << 61), 1);
        assert_eq!(int((1 << 61) - 1), 0);
        assert_eq!(int(-(1 << 64)), -8);
        let big = num_bigint::BigInt::from(1) << 200u32;
        assert_eq!(long(&big), 131_072);
        assert_eq!(
            long(&-(num_bigint::BigInt::from(1) << 100u32)),
            -549_755_813_888
        );
        assert_eq!(long(&num_bigint::BigInt::from(-1)), -2);
        assert_eq!(float(1.0), Some(1));
        assert_eq!(float(-1.0), Some(-2));
        assert_eq!(float(0.5), Some(1_152_921_504_606_846_976));
        assert_eq!(float(1.5), Some(1_152_921_504_606_846_977));
        assert_eq!(float(-0.0), Some(0));
        assert_eq!(float(f64::INFINITY), Some(314_159));
        assert_eq!(float(0.1), Some(230_584_300_921_369_408));
        assert_eq!(float(1e300), Some(1_224_995_262_755_759_164));
        assert_eq!(float(5e-324), Some(16_777_216));
        assert_eq!(float(f64::NAN), None);
        assert_eq!(complex(1.0, 0.0), Some(1));
        assert_eq!(complex(0.0, 1.0), Some(1_000_003));
        assert_eq!(complex(1.0, 2.0), Some(2_000_007));
    }

    #[test]
    fn tuples_hash_as_in_cpython() {
        assert_eq!(tuple([].into_iter()), 5_740_354_900_026_072_187);
        assert_eq!(tuple([1, 2].into_iter()), -3_550_055_125_485_641_917);
        assert_eq!(tuple([1].into_iter()), -6_644_214_454_873_602_895);
    }
}
