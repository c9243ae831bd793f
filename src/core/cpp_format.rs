//! Numbers as C++ streams print them in PyTorch's messages: a `double` through `<<` is
//! `printf("%g")` with six significant digits (`1.5`, `0.123457`, `1e-05`, `inf`,
//! `-nan`).

/// `x` as `std::ostream << x` prints it by default.
pub fn stream_double(x: f64) -> String {
    if x.is_nan() {
        // glibc's printf shows a NaN's sign (a computed NaN is most often negative).
        return if x.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.into();
    }
    const PRECISION: i32 = 6;
    // The exponent after rounding to six significant digits decides the style.
    let scientific = format!("{:.*e}", (PRECISION - 1) as usize, x);
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if !(-4..PRECISION).contains(&exponent) {
        let mantissa = trim_fraction(mantissa);
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.abs())
    } else {
        let decimals = (PRECISION - 1 - exponent).max(0) as usize;
        trim_fraction(&format!("{x:.decimals$}")).to_string()
    }
}

/// Drops trailing zeros of a fraction, and the point if nothing is left after it.
fn trim_fraction(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_as_percent_g() {
        for (x, text) in [
            (1.5, "1.5"),
            (-0.1, "-0.1"),
            (0.123456789, "0.123457"),
            (1e-5, "1e-05"),
            (123456.0, "123456"),
            (1234567.0, "1.23457e+06"),
            (2.0, "2"),
            (0.0001, "0.0001"),
            (f64::INFINITY, "inf"),
        ] {
            assert_eq!(stream_double(x), text);
        }
    }
}
