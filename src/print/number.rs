//! Number text exactly as Python writes it: `%.Nf`, `%.Ne` (two-digit exponents), `repr` of
//! floats and complex numbers. Rust's float formatting is correctly rounded from the exact
//! binary value, as Python's is; only the spelling differs, and that is mended here.

/// Python's spelling of non-finite values, or `None` for finite ones.
fn non_finite(x: f64) -> Option<&'static str> {
    if x.is_nan() {
        Some("nan")
    } else if x == f64::INFINITY {
        Some("inf")
    } else if x == f64::NEG_INFINITY {
        Some("-inf")
    } else {
        None
    }
}

/// The most fractional digits a finite `f64` has in `%f` form: its exact decimal expansion
/// ends by the 1074th (the smallest subnormal is 2^-1074), so every later digit is 0.
const EXACT_FIXED_DIGITS: usize = 1074;
/// The most significant digits a finite `f64` has in `%e` form (767 for the longest), so
/// every later digit of the mantissa is 0.
const EXACT_SCIENTIFIC_DIGITS: usize = 800;

/// `zeros` more zeros after the last digit of `text`'s mantissa (before any exponent).
fn pad_mantissa(mut text: String, zeros: usize) -> String {
    let at = text.find('e').unwrap_or(text.len());
    text.insert_str(at, &"0".repeat(zeros));
    text
}

/// Python's `f"{x:.{precision}f}"`, for any precision: Rust's formatter takes precisions
/// up to 65,535, Python's any, and past the exact digits both write zeros.
pub fn fixed(x: f64, precision: usize) -> String {
    match non_finite(x) {
        Some(s) => s.to_string(),
        None if precision > EXACT_FIXED_DIGITS => {
            let exact = format!("{x:.EXACT_FIXED_DIGITS$}");
            pad_mantissa(exact, precision - EXACT_FIXED_DIGITS)
        }
        None => format!("{x:.precision$}"),
    }
}

/// The length of [`fixed`]`(x, precision)`, without writing the zeros past the exact digits.
pub fn fixed_len(x: f64, precision: usize) -> usize {
    let exact = precision.min(EXACT_FIXED_DIGITS);
    let zeros = if x.is_finite() { precision - exact } else { 0 };
    fixed(x, exact).len() + zeros
}

/// The length of [`scientific`]`(x, precision)`, without writing the zeros past the exact
/// digits.
pub fn scientific_len(x: f64, precision: usize) -> usize {
    let exact = precision.min(EXACT_SCIENTIFIC_DIGITS);
    let zeros = if x.is_finite() { precision - exact } else { 0 };
    scientific(x, exact).len() + zeros
}

/// Rewrites Rust's `1.5e-5` exponent spelling as Python's `1.5e-05`.
fn python_exponent(rust: &str) -> String {
    match rust.split_once('e') {
        Some((mantissa, exp)) => {
            let (sign, digits) = match exp.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', exp),
            };
            format!("{mantissa}e{sign}{digits:0>2}")
        }
        None => rust.to_string(),
    }
}

/// Python's `f"{x:.{precision}e}"`, for any precision (see [`fixed`]).
pub fn scientific(x: f64, precision: usize) -> String {
    match non_finite(x) {
        Some(s) => s.to_string(),
        None if precision > EXACT_SCIENTIFIC_DIGITS => {
            let exact = python_exponent(&format!("{x:.EXACT_SCIENTIFIC_DIGITS$e}"));
            pad_mantissa(exact, precision - EXACT_SCIENTIFIC_DIGITS)
        }
        None => python_exponent(&format!("{x:.precision$e}")),
    }
}

/// Digits in the exponent of Rust's `{:e}` text.
fn exponent_digits(sci: &str) -> usize {
    sci.split_once('e')
        .map_or(0, |(_, e)| e.chars().filter(char::is_ascii_digit).count())
}

/// Python's `repr(x)` for a float: the shortest text that reads back as `x`, in positional
/// notation for decimal exponents from -4 to 15 and scientific otherwise.
pub fn float_repr(x: f64) -> String {
    if let Some(s) = non_finite(x) {
        return s.to_string();
    }
    // Rust's shortest round-trip text gives the digit count; Python then takes the
    // correctly rounded string of that many digits (ties to even), which precision
    // formatting gives. The two differ when the value lies exactly halfway, unless the
    // rounded string would not read back as `x` (a power of two has a narrower gap below
    // it, so the tie below can fall outside it): then the shortest text is Python's.
    let shortest = format!("{x:e}");
    let digits = shortest.chars().filter(char::is_ascii_digit).count() - exponent_digits(&shortest);
    let rounded = format!("{x:.prec$e}", prec = digits.saturating_sub(1));
    let sci = if rounded.parse::<f64>() == Ok(x) {
        rounded
    } else {
        shortest
    };
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if negative { "-" } else { "" };
    if (-4..16).contains(&exp) {
        let body = if exp >= 0 {
            let e = exp as usize;
            let (int_part, frac) = if digits.len() > e + 1 {
                (digits[..=e].to_string(), digits[e + 1..].to_string())
            } else {
                (format!("{digits:0<width$}", width = e + 1), "0".to_string())
            };
            format!("{int_part}.{frac}")
        } else {
            format!("0.{}{}", "0".repeat((-exp - 1) as usize), digits)
        };
        format!("{sign}{body}")
    } else {
        let frac = if digits.len() > 1 {
            format!(".{}", &digits[1..])
        } else {
            String::new()
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{}{frac}e{esign}{:02}", &digits[..1], exp.abs())
    }
}

/// One part of a complex repr: the float repr without a trailing `.0`.
fn complex_part(x: f64) -> String {
    let r = float_repr(x);
    r.strip_suffix(".0").map(str::to_string).unwrap_or(r)
}

/// Python's `repr(complex(re, im))`: `1j`, `(1+2j)`, `(1.5-0j)`.
pub fn complex_repr(re: f64, im: f64) -> String {
    let imag = complex_part(im);
    if re == 0.0 && re.is_sign_positive() {
        return format!("{imag}j");
    }
    // The imaginary part's own text carries its minus (a NaN has none, whatever its sign bit).
    let sign = if imag.starts_with('-') { "" } else { "+" };
    format!("({}{sign}{imag}j)", complex_part(re))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complex_reprs_like_python() {
        assert_eq!(complex_repr(f64::INFINITY, -f64::NAN), "(inf+nanj)");
        assert_eq!(complex_repr(f64::NAN, f64::NAN), "(nan+nanj)");
        assert_eq!(complex_repr(1.0, -0.0), "(1-0j)");
        assert_eq!(complex_repr(-0.0, 3.0), "(-0+3j)");
        assert_eq!(complex_repr(0.0, -2.5), "-2.5j");
    }

    #[test]
    fn like_python() {
        assert_eq!(fixed(2.5, 0), "2");
        assert_eq!(fixed(-0.0, 4), "-0.0000");
        assert_eq!(fixed(f64::NAN, 4), "nan");
        assert_eq!(scientific(1e-5, 4), "1.0000e-05");
        assert_eq!(scientific(0.0, 4), "0.0000e+00");
        assert_eq!(scientific(1.5e100, 2), "1.50e+100");
        assert_eq!(float_repr(0.1f32 as f64), "0.10000000149011612");
        assert_eq!(float_repr(1.0), "1.0");
        assert_eq!(float_repr(1e16), "1e+16");
        assert_eq!(float_repr(123456789012345.0), "123456789012345.0");
        assert_eq!(float_repr(1e-5), "1e-05");
        assert_eq!(float_repr(0.0001), "0.0001");
        assert_eq!(float_repr(-2.5e-7), "-2.5e-07");
        assert_eq!(float_repr(-0.0), "-0.0");
        assert_eq!(complex_repr(1.0, 2.0), "(1+2j)");
        assert_eq!(complex_repr(0.0, 1.0), "1j");
        assert_eq!(complex_repr(1.5, -0.0), "(1.5-0j)");
    }

    #[test]
    fn precisions_past_the_exact_digits_and_past_rusts_limit() {
        // Python: f"{0.1:.70000f}" is the exact expansion of 0.1, then zeros.
        let long = fixed(0.1, 70_000);
        assert_eq!(long.len(), 2 + 70_000);
        assert_eq!(&long[..22], "0.10000000000000000555");
        assert_eq!(
            &long[2..][..EXACT_FIXED_DIGITS],
            &fixed(0.1, EXACT_FIXED_DIGITS)[2..]
        );
        assert!(long[2 + 60..].bytes().all(|b| b == b'0'));
        assert_eq!(fixed(-1.5, 65_536).len(), 3 + 65_536);
        assert_eq!(fixed(5e-324, 2000)[2..][..1074].chars().last(), Some('5'));
        let sci = scientific(1e-5, 70_000);
        assert!(
            sci.starts_with("1.00000000000000008180305391403130954586"),
            "{}",
            &sci[..40]
        );
        assert!(sci.ends_with("0e-05"));
        assert_eq!(sci.len(), 2 + 70_000 + 4);
        for x in [0.1, -1.5e300, 5e-324, f64::NAN, 0.0] {
            for p in [0, 4, 1074, 1075, 70_000] {
                assert_eq!(fixed_len(x, p), fixed(x, p).len(), "{x} {p}");
                assert_eq!(scientific_len(x, p), scientific(x, p).len(), "{x} {p}");
            }
        }
    }
}

#[cfg(test)]
mod repr_tie_tests {
    use super::float_repr;

    // The literals are exact (float32 values written out in full), not over-precise.
    #[allow(clippy::excessive_precision)]
    #[test]
    fn halfway_values_round_to_even() {
        // 23.0691070556640625 is exactly between two 17-digit strings.
        assert_eq!(float_repr(23.0691070556640625), "23.069107055664062");
        // A power of two: the tie below it does not read back.
        assert_eq!(float_repr(2f64.powi(-24)), "5.960464477539063e-08");
        assert_eq!(float_repr(2f64.powi(-25)), "2.9802322387695312e-08");
        assert_eq!(float_repr(-0.95175933837890625), "-0.9517593383789062");
        assert_eq!(float_repr(0.1), "0.1");
        assert_eq!(float_repr(1e22), "1e+22");
    }
}
