//! Python's format-spec mini-language (`f"{x:>8.3f}"`, `format(x, ",")`, `str.format`) and
//! `%` formatting, for ints, floats and strings. Other values are formatted as their `str`.

use super::exception::PyException;
use crate::print::number::{fixed, float_repr, scientific};

/// A value the mini-language formats.
#[derive(Debug, Clone, Copy)]
pub enum Formattable<'a> {
    /// An `int` (or `bool`) within 64 bits.
    Int(i64),
    /// An `int` past 64 bits.
    Long(&'a num_bigint::BigInt),
    /// A `float`.
    Float(f64),
    /// A string (the `str` of any other value).
    Str(&'a str),
}

/// A parsed format spec.
#[derive(Debug, Clone, Default)]
pub struct Spec {
    fill: Option<char>,
    align: Option<char>,
    sign: Option<char>,
    alternate: bool,
    zero: bool,
    width: usize,
    grouping: Option<char>,
    precision: Option<usize>,
    kind: Option<char>,
}

fn invalid(spec: &str) -> PyException {
    PyException::new("ValueError", format!("Invalid format specifier '{spec}'"))
}

/// Reads `[[fill]align][sign][z][#][0][width][grouping][.precision][type]`.
pub fn parse_spec(text: &str) -> Result<Spec, PyException> {
    let chars: Vec<char> = text.chars().collect();
    let mut s = Spec::default();
    let mut i = 0;
    let is_align = |c: char| matches!(c, '<' | '>' | '^' | '=');
    if chars.len() >= 2 && is_align(chars[1]) {
        s.fill = Some(chars[0]);
        s.align = Some(chars[1]);
        i = 2;
    } else if chars.first().is_some_and(|&c| is_align(c)) {
        s.align = Some(chars[0]);
        i = 1;
    }
    if let Some(&c) = chars.get(i).filter(|c| matches!(c, '+' | '-' | ' ')) {
        s.sign = Some(c);
        i += 1;
    }
    if chars.get(i) == Some(&'z') {
        i += 1;
    }
    if chars.get(i) == Some(&'#') {
        s.alternate = true;
        i += 1;
    }
    if chars.get(i) == Some(&'0') {
        s.zero = true;
        i += 1;
    }
    let digits = |i: &mut usize| -> Option<usize> {
        let start = *i;
        while chars.get(*i).is_some_and(char::is_ascii_digit) {
            *i += 1;
        }
        (start < *i).then(|| chars[start..*i].iter().collect::<String>().parse().ok())?
    };
    if let Some(w) = digits(&mut i) {
        s.width = w;
    }
    if let Some(&c) = chars.get(i).filter(|c| matches!(c, ',' | '_')) {
        s.grouping = Some(c);
        i += 1;
    }
    if chars.get(i) == Some(&'.') {
        i += 1;
        s.precision =
            Some(digits(&mut i).ok_or_else(|| {
                PyException::new("ValueError", "Format specifier missing precision")
            })?);
    }
    if let Some(&c) = chars.get(i) {
        s.kind = Some(c);
        i += 1;
    }
    if i != chars.len() {
        return Err(invalid(text));
    }
    Ok(s)
}

/// Inserts `sep` every three digits of the integer part of `digits` (which has no sign).
fn group(digits: &str, sep: char, every: usize) -> String {
    let (int_part, rest) = match digits.find(|c: char| !c.is_ascii_alphanumeric()) {
        Some(i) => digits.split_at(i),
        None => (digits, ""),
    };
    let mut out = String::new();
    for (i, c) in int_part.chars().enumerate() {
        if i > 0 && (int_part.len() - i).is_multiple_of(every) {
            out.push(sep);
        }
        out.push(c);
    }
    out + rest
}

/// Python's `g` formatting of a finite or infinite float with `precision` significant digits.
fn general(x: f64, precision: usize, alternate: bool, upper: bool) -> String {
    if !x.is_finite() {
        return fixed(x, 0);
    }
    let p = precision.max(1);
    let sci = scientific(x, p - 1);
    let exp: i64 = sci
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let mut text = if -4 <= exp && exp < p as i64 {
        fixed(x, (p as i64 - 1 - exp) as usize)
    } else {
        sci
    };
    if !alternate {
        let (mantissa, exponent) = match text.find('e') {
            Some(i) => (text[..i].to_string(), text[i..].to_string()),
            None => (text.clone(), String::new()),
        };
        let mantissa = if mantissa.contains('.') {
            mantissa
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_string()
        } else {
            mantissa
        };
        text = mantissa + exponent.as_str();
    }
    if upper { text.to_uppercase() } else { text }
}

/// Pads `body` (the sign and digits, without fill) to the spec's width.
fn pad(sign: &str, body: &str, spec: &Spec, default_align: char) -> String {
    let len = sign.chars().count() + body.chars().count();
    let fill_count = spec.width.saturating_sub(len);
    let (fill, align) = if spec.zero && spec.align.is_none() {
        ('0', '=')
    } else {
        (
            spec.fill.unwrap_or(' '),
            spec.align.unwrap_or(default_align),
        )
    };
    let fills = |n: usize| fill.to_string().repeat(n);
    match align {
        '<' => format!("{sign}{body}{}", fills(fill_count)),
        '^' => format!(
            "{}{sign}{body}{}",
            fills(fill_count / 2),
            fills(fill_count - fill_count / 2)
        ),
        '=' => format!("{sign}{}{body}", fills(fill_count)),
        _ => format!("{}{sign}{body}", fills(fill_count)),
    }
}

fn sign_of(negative: bool, spec: &Spec) -> &'static str {
    match (negative, spec.sign) {
        (true, _) => "-",
        (false, Some('+')) => "+",
        (false, Some(' ')) => " ",
        _ => "",
    }
}

/// The longest text formatting makes (a width or precision past it raises `MemoryError`
/// rather than asking for gigabytes).
pub const MAX_TEXT: usize = 1 << 28;

/// An int's text under `spec` from its sign and its digits in the spec's base: the base's
/// prefix, grouping and padding.
fn int_text(negative: bool, digits: String, spec: &Spec) -> String {
    let prefix = match (spec.alternate, spec.kind) {
        (true, Some('b')) => "0b",
        (true, Some('o')) => "0o",
        (true, Some('x')) => "0x",
        (true, Some('X')) => "0X",
        _ => "",
    };
    let every = if matches!(spec.kind, Some('b' | 'o' | 'x' | 'X')) {
        4
    } else {
        3
    };
    let digits = match spec.grouping {
        Some(sep) => group(&digits, sep, every),
        None => digits,
    };
    let sign = format!("{}{prefix}", sign_of(negative, spec));
    pad(&sign, &digits, spec, '>')
}

/// `format(value, spec)`.
pub fn format(value: Formattable, spec: &Spec) -> Result<String, PyException> {
    if spec.width > MAX_TEXT || spec.precision.is_some_and(|p| p > MAX_TEXT) {
        return Err(PyException::new(
            "MemoryError",
            "the formatted text would pass 2**28 characters",
        ));
    }
    match value {
        Formattable::Str(s) => {
            if spec.kind.is_some_and(|k| k != 's') || spec.sign.is_some() {
                return Err(PyException::new(
                    "ValueError",
                    format!(
                        "Unknown format code '{}' for object of type 'str'",
                        spec.kind.unwrap_or('s')
                    ),
                ));
            }
            let body: String = match spec.precision {
                Some(p) => s.chars().take(p).collect(),
                None => s.to_string(),
            };
            Ok(pad("", &body, spec, '<'))
        }
        Formattable::Long(n) => match spec.kind {
            None | Some('d' | 'n' | 'b' | 'o' | 'x' | 'X') => {
                let negative = num_traits::Signed::is_negative(n);
                let digits = match spec.kind {
                    Some('b') => n.magnitude().to_str_radix(2),
                    Some('o') => n.magnitude().to_str_radix(8),
                    Some('x') => n.magnitude().to_str_radix(16),
                    Some('X') => n.magnitude().to_str_radix(16).to_uppercase(),
                    _ => super::long::to_decimal(n)?
                        .trim_start_matches('-')
                        .to_string(),
                };
                Ok(int_text(negative, digits, spec))
            }
            Some('c') => Err(PyException::new(
                "OverflowError",
                "%c arg not in range(0x110000)",
            )),
            Some(_) => format(Formattable::Float(super::long::to_f64(n)?), spec),
        },
        Formattable::Int(i) => match spec.kind {
            None | Some('d' | 'n' | 'b' | 'o' | 'x' | 'X' | 'c') => {
                let digits = match spec.kind {
                    Some('b') => format!("{:b}", i.unsigned_abs()),
                    Some('o') => format!("{:o}", i.unsigned_abs()),
                    Some('x') => format!("{:x}", i.unsigned_abs()),
                    Some('X') => format!("{:X}", i.unsigned_abs()),
                    Some('c') => char::from_u32(i as u32).unwrap_or('\u{fffd}').to_string(),
                    _ => i.unsigned_abs().to_string(),
                };
                Ok(int_text(i < 0, digits, spec))
            }
            Some(_) => format(Formattable::Float(i as f64), spec),
        },
        Formattable::Float(x) => {
            let p = spec.precision;
            let magnitude = x.abs();
            let body = match spec.kind {
                Some('f' | 'F') => fixed(magnitude, p.unwrap_or(6)),
                Some('e') => scientific(magnitude, p.unwrap_or(6)),
                Some('E') => scientific(magnitude, p.unwrap_or(6)).to_uppercase(),
                Some('g' | 'n') => general(magnitude, p.unwrap_or(6), spec.alternate, false),
                Some('G') => general(magnitude, p.unwrap_or(6), spec.alternate, true),
                Some('%') => format!("{}%", fixed(magnitude * 100.0, p.unwrap_or(6))),
                None => match p {
                    None => float_repr(magnitude),
                    Some(p) => {
                        let g = general(magnitude, p, spec.alternate, false);
                        if magnitude.is_finite() && !g.contains(['.', 'e']) {
                            g + ".0"
                        } else {
                            g
                        }
                    }
                },
                Some(k) => {
                    return Err(PyException::new(
                        "ValueError",
                        format!("Unknown format code '{k}' for object of type 'float'"),
                    ));
                }
            };
            let body = if spec.kind == Some('F') {
                body.to_uppercase()
            } else {
                body
            };
            let body = match spec.grouping {
                Some(sep) if magnitude.is_finite() => group(&body, sep, 3),
                _ => body,
            };
            let negative = x.is_sign_negative() && !x.is_nan();
            Ok(pad(sign_of(negative, spec), &body, spec, '>'))
        }
    }
}

/// One conversion of a `%` format: its spec, and its conversion character.
#[derive(Debug, Clone)]
pub struct PercentItem {
    /// `%(name)s`'s name.
    pub key: Option<String>,
    /// The spec, in the mini-language's terms.
    pub spec: Spec,
    /// `s`, `r`, `d`, `f`, ...
    pub conversion: char,
}

/// A `%` format string split into literal text and conversions.
pub enum PercentPart {
    /// Text copied as it is (`%%` already made `%`).
    Text(String),
    /// A conversion.
    Item(PercentItem),
}

/// Splits a `%` format string.
pub fn parse_percent(format: &str) -> Result<Vec<PercentPart>, PyException> {
    let chars: Vec<char> = format.chars().collect();
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            text.push(chars[i]);
            i += 1;
            continue;
        }
        i += 1;
        if chars.get(i) == Some(&'%') {
            text.push('%');
            i += 1;
            continue;
        }
        let mut spec = Spec::default();
        let mut key = None;
        if chars.get(i) == Some(&'(') {
            let close = chars[i..].iter().position(|&c| c == ')').map(|p| p + i);
            let Some(close) = close else {
                return Err(PyException::new("ValueError", "incomplete format key"));
            };
            key = Some(chars[i + 1..close].iter().collect());
            i = close + 1;
        }
        while let Some(&c) = chars.get(i) {
            match c {
                '-' => spec.align = Some('<'),
                '+' => spec.sign = Some('+'),
                ' ' => spec.sign = spec.sign.or(Some(' ')),
                '#' => spec.alternate = true,
                '0' => spec.zero = true,
                _ => break,
            }
            i += 1;
        }
        let mut width = String::new();
        while chars.get(i).is_some_and(char::is_ascii_digit) {
            width.push(chars[i]);
            i += 1;
        }
        spec.width = width.parse().unwrap_or(0);
        if chars.get(i) == Some(&'.') {
            i += 1;
            let mut p = String::new();
            while chars.get(i).is_some_and(char::is_ascii_digit) {
                p.push(chars[i]);
                i += 1;
            }
            spec.precision = Some(p.parse().unwrap_or(0));
        }
        let Some(&conversion) = chars.get(i) else {
            return Err(PyException::new("ValueError", "incomplete format"));
        };
        i += 1;
        if spec.align == Some('<') {
            spec.zero = false;
        }
        if !"sradiufFeEgGxXoc".contains(conversion) {
            return Err(PyException::new(
                "ValueError",
                format!(
                    "unsupported format character '{conversion}' (0x{:x}) at index {}",
                    conversion as u32,
                    i - 1
                ),
            ));
        }
        spec.kind = match conversion {
            'i' | 'u' => Some('d'),
            's' | 'r' | 'a' => None,
            c => Some(c),
        };
        if !text.is_empty() {
            parts.push(PercentPart::Text(std::mem::take(&mut text)));
        }
        parts.push(PercentPart::Item(PercentItem {
            key,
            spec,
            conversion,
        }));
    }
    if !text.is_empty() {
        parts.push(PercentPart::Text(text));
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: Formattable, spec: &str) -> String {
        format(v, &parse_spec(spec).unwrap()).unwrap()
    }

    #[test]
    fn the_mini_language_formats_as_python_does() {
        use Formattable::{Float as F, Int as I, Str as S};
        assert_eq!(f(F(1.23456), ".2f"), "1.23");
        assert_eq!(f(F(-1.23456), "8.3f"), "  -1.235");
        assert_eq!(f(F(1234567.0), ",.1f"), "1,234,567.0");
        assert_eq!(f(F(0.00001234), ".3g"), "1.23e-05");
        assert_eq!(f(F(123456.0), "g"), "123456");
        assert_eq!(f(F(1234567.0), "g"), "1.23457e+06");
        assert_eq!(f(F(0.5), "%"), "50.000000%");
        assert_eq!(f(F(2.0), ".3"), "2.0");
        assert_eq!(f(F(1e20), ""), "1e+20");
        assert_eq!(f(F(1.5), "e"), "1.500000e+00");
        assert_eq!(f(I(42), "05d"), "00042");
        assert_eq!(f(I(-42), "+6d"), "   -42");
        assert_eq!(f(I(255), "#x"), "0xff");
        assert_eq!(f(I(1234567), ","), "1,234,567");
        assert_eq!(f(I(3), ".2f"), "3.00");
        assert_eq!(f(S("ab"), ">5"), "   ab");
        assert_eq!(f(S("ab"), "*^6"), "**ab**");
        assert_eq!(f(S("abcdef"), ".3"), "abc");
        assert!(parse_spec("5.").is_err());
        assert!(format(S("x"), &parse_spec("d").unwrap()).is_err());
    }

    #[test]
    fn percent_formats_split_into_conversions() {
        let parts = parse_percent("a %5.2f b %-4d%% %(k)s").unwrap();
        let items: Vec<_> = parts
            .iter()
            .filter_map(|p| match p {
                PercentPart::Item(i) => Some(i.conversion),
                PercentPart::Text(_) => None,
            })
            .collect();
        assert_eq!(items, vec!['f', 'd', 's']);
        assert!(parse_percent("%y").is_err());
    }
}
