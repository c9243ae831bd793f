//! The four float8 formats: decoding every byte and encoding with round-to-nearest-even.
//!
//! One parameterised mini-float codec serves all four; the formats differ in exponent width,
//! bias, and how they spell NaN, infinity and overflow.

/// How a float8 format spells its special values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Specials {
    /// IEEE-like: an all-ones exponent holds infinity (zero mantissa) and NaN.
    Ieee,
    /// "fn" (finite): no infinity; only all-ones exponent and mantissa is NaN.
    Finite,
    /// "fnuz": no infinity, no negative zero; NaN is the negative-zero code `0x80`.
    FiniteUnsignedZero,
}

/// A float8 format's parameters.
#[derive(Debug, Clone, Copy)]
pub struct Float8Format {
    exp_bits: u32,
    man_bits: u32,
    bias: i32,
    specials: Specials,
}

/// `torch.float8_e4m3fn`.
pub const E4M3FN: Float8Format = Float8Format {
    exp_bits: 4,
    man_bits: 3,
    bias: 7,
    specials: Specials::Finite,
};
/// `torch.float8_e4m3fnuz`.
pub const E4M3FNUZ: Float8Format = Float8Format {
    exp_bits: 4,
    man_bits: 3,
    bias: 8,
    specials: Specials::FiniteUnsignedZero,
};
/// `torch.float8_e5m2`.
pub const E5M2: Float8Format = Float8Format {
    exp_bits: 5,
    man_bits: 2,
    bias: 15,
    specials: Specials::Ieee,
};
/// `torch.float8_e5m2fnuz`.
pub const E5M2FNUZ: Float8Format = Float8Format {
    exp_bits: 5,
    man_bits: 2,
    bias: 16,
    specials: Specials::FiniteUnsignedZero,
};

impl Float8Format {
    fn max_exp_field(self) -> u32 {
        (1 << self.exp_bits) - 1
    }

    fn nan_code(self, negative: bool) -> u8 {
        match self.specials {
            Specials::FiniteUnsignedZero => 0x80,
            _ => {
                let all = 0x7f;
                if negative { all | 0x80 } else { all }
            }
        }
    }

    /// The value of one byte in this format.
    pub fn decode(self, byte: u8) -> f64 {
        let negative = byte & 0x80 != 0;
        let exp = ((byte & 0x7f) >> self.man_bits) as u32;
        let man = (byte & ((1 << self.man_bits) - 1)) as u32;
        match self.specials {
            Specials::FiniteUnsignedZero if byte == 0x80 => return f64::NAN,
            Specials::Finite if exp == self.max_exp_field() && man == (1 << self.man_bits) - 1 => {
                return f64::NAN;
            }
            Specials::Ieee if exp == self.max_exp_field() => {
                return if man != 0 {
                    f64::NAN
                } else if negative {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                };
            }
            _ => {}
        }
        let scale = (1u64 << self.man_bits) as f64;
        let magnitude = if exp == 0 {
            man as f64 / scale * 2f64.powi(1 - self.bias)
        } else {
            (1.0 + man as f64 / scale) * 2f64.powi(exp as i32 - self.bias)
        };
        if negative { -magnitude } else { magnitude }
    }

    /// The nearest byte to `value` (ties to even). The value is first rounded to `f32`, as
    /// PyTorch converts through `float`. Out-of-range values become infinity (IEEE-like) or NaN.
    pub fn encode(self, value: f64) -> u8 {
        let value = value as f32 as f64;
        let negative = value.is_sign_negative();
        let sign: u8 = if negative { 0x80 } else { 0 };
        if value.is_nan() {
            return self.nan_code(negative);
        }
        let magnitude = value.abs();
        // Out of range: IEEE-like formats give infinity, "fn" saturates to its largest finite
        // value (infinities too), "fnuz" gives its NaN — each as PyTorch converts.
        let overflow = |sign: u8| match self.specials {
            Specials::Ieee => sign | ((self.max_exp_field() as u8) << self.man_bits),
            Specials::Finite => sign | 0x7e,
            Specials::FiniteUnsignedZero => self.nan_code(sign != 0),
        };
        if magnitude.is_infinite() {
            return overflow(sign);
        }
        let min_exp = 1 - self.bias;
        let mut exp = if magnitude == 0.0 {
            min_exp
        } else {
            magnitude.log2().floor() as i32
        };
        // log2 may be off by one near powers of two; correct it exactly.
        if magnitude != 0.0 {
            if 2f64.powi(exp) > magnitude {
                exp -= 1;
            } else if 2f64.powi(exp + 1) <= magnitude {
                exp += 1;
            }
        }
        let exp = exp.max(min_exp);
        let quantum = 2f64.powi(exp - self.man_bits as i32);
        let mut steps = round_half_even(magnitude / quantum) as u32;
        let mut exp_field = if steps >= (1 << self.man_bits) {
            exp - min_exp + 1
        } else {
            0
        };
        if steps >= (2 << self.man_bits) {
            steps >>= 1;
            exp_field += 1;
        }
        let man = steps & ((1 << self.man_bits) - 1);
        let exp_field = exp_field as u32;
        let too_big = match self.specials {
            Specials::Ieee => exp_field >= self.max_exp_field(),
            Specials::Finite => {
                exp_field > self.max_exp_field()
                    || (exp_field == self.max_exp_field() && man == (1 << self.man_bits) - 1)
            }
            Specials::FiniteUnsignedZero => exp_field > self.max_exp_field(),
        };
        if too_big {
            return overflow(sign);
        }
        let code = ((exp_field << self.man_bits) | man) as u8;
        if code == 0 && self.specials == Specials::FiniteUnsignedZero {
            return 0;
        }
        sign | code
    }
}

fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (r - x).abs() == 0.5 && r % 2.0 != 0.0 {
        r - x.signum()
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert_eq!(E4M3FN.decode(0x7e), 448.0);
        assert!(E4M3FN.decode(0x7f).is_nan());
        assert_eq!(E4M3FN.encode(448.0), 0x7e);
        assert_eq!(E4M3FN.encode(1000.0), 0x7e);
        assert_eq!(E4M3FN.encode(f64::NEG_INFINITY), 0xfe);
        assert_eq!(E4M3FNUZ.encode(250.0), 0x80);
        assert_eq!(E5M2.encode(61440.0), 0x7c);
        assert_eq!(E5M2FNUZ.encode(57344.0), 0x7f);
        assert_eq!(E5M2.encode(f64::INFINITY), 0x7c);
        assert_eq!(E5M2.decode(0x7b), 57344.0);
        assert_eq!(E4M3FNUZ.decode(0x7f), 240.0);
        assert!(E4M3FNUZ.decode(0x80).is_nan());
        assert_eq!(E4M3FNUZ.encode(-0.0), 0);
        assert_eq!(E5M2.encode(1.0), 0x3c);
        assert_eq!(E4M3FN.encode(0.0019531250), 0x01);
    }

    #[test]
    fn every_byte_round_trips() {
        for fmt in [E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ] {
            for b in 0..=255u8 {
                let v = fmt.decode(b);
                if v.is_nan() {
                    continue;
                }
                assert_eq!(fmt.encode(v), b, "{b:#x} in {fmt:?}");
            }
        }
    }
}
