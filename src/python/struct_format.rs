//! Python's `struct` formats: a format string read into its items (byte order, sizes,
//! alignment of the native mode), values packed into bytes and bytes unpacked into values,
//! with CPython's `struct.error` messages.

use super::value::Value;

/// A `struct` failure: the exception class's name (`error` is `struct.error`) and message.
#[derive(Debug, PartialEq)]
pub struct StructError {
    /// `error`, `TypeError` or `OverflowError`.
    pub kind: &'static str,
    /// CPython's message.
    pub message: String,
}

fn error(message: impl Into<String>) -> StructError {
    StructError {
        kind: "error",
        message: message.into(),
    }
}

/// The largest packed size made (2 GiB, within the page's 32-bit address space too): past
/// it, `MemoryError` as CPython gives when its allocation fails.
const LARGEST_PACK: usize = 1 << 31;

/// One unpacked value: a number or bool, or the bytes of a `c`, `s` or `p` item (made
/// into a `bytes` value by the caller).
pub enum Unpacked {
    /// A number or bool.
    Value(Value),
    /// Bytes.
    Bytes(Vec<u8>),
}

/// One item of a format: its code and how many (`3s`: one string of 3 bytes).
#[derive(Debug, Clone, Copy)]
struct Item {
    code: char,
    count: usize,
}

/// A format read: byte order, whether native (sizes and alignment of the machine), items.
#[derive(Debug)]
pub struct Format {
    little: bool,
    native: bool,
    items: Vec<Item>,
}

/// The size of one value of `code`, and whether it is a code at all.
fn size_of(code: char, native: bool) -> Option<usize> {
    Some(match code {
        'x' | 'c' | 'b' | 'B' | '?' | 's' | 'p' => 1,
        'h' | 'H' | 'e' => 2,
        'i' | 'I' | 'f' => 4,
        'l' | 'L' => {
            if native {
                8
            } else {
                4
            }
        }
        'q' | 'Q' | 'd' => 8,
        'n' | 'N' | 'P' if native => 8,
        _ => return None,
    })
}

impl Format {
    /// Reads `text`.
    pub fn parse(text: &str) -> Result<Format, StructError> {
        let mut chars = text.chars().peekable();
        let (little, native) = match chars.peek() {
            Some('<') => (true, false),
            Some('>') | Some('!') => (false, false),
            Some('=') => (cfg!(target_endian = "little"), false),
            Some('@') => (cfg!(target_endian = "little"), true),
            _ => (cfg!(target_endian = "little"), true),
        };
        if matches!(chars.peek(), Some('<' | '>' | '!' | '=' | '@')) {
            chars.next();
        }
        let mut items = Vec::new();
        while let Some(c) = chars.next() {
            if c.is_whitespace() {
                continue;
            }
            let (count, code) = if c.is_ascii_digit() {
                let mut n = c.to_digit(10).unwrap_or(0) as usize;
                let mut code = None;
                for d in chars.by_ref() {
                    match d.to_digit(10) {
                        Some(v) => {
                            n = n
                                .checked_mul(10)
                                .and_then(|n| n.checked_add(v as usize))
                                .ok_or_else(|| error("total struct size too long"))?;
                        }
                        None => {
                            code = Some(d);
                            break;
                        }
                    }
                }
                match code {
                    Some(code) => (n, code),
                    None => return Err(error("repeat count given without format specifier")),
                }
            } else {
                (1, c)
            };
            if size_of(code, native).is_none() {
                return Err(error("bad char in struct format"));
            }
            items.push(Item { code, count });
        }
        Ok(Format {
            little,
            native,
            items,
        })
    }

    /// The packed size (`calcsize`).
    pub fn size(&self) -> usize {
        let mut at = 0usize;
        for item in &self.items {
            let size = size_of(item.code, self.native).unwrap_or(1);
            if self.native && !matches!(item.code, 's' | 'p' | 'x' | 'c') {
                at = at.div_ceil(size) * size;
            }
            at = at.saturating_add(size.saturating_mul(item.count));
        }
        at
    }

    /// How many values packing takes (and unpacking gives).
    pub fn value_count(&self) -> usize {
        self.items
            .iter()
            .map(|i| match i.code {
                'x' => 0,
                's' | 'p' => 1,
                _ => i.count,
            })
            .sum()
    }

    /// Packs `values`; `bytes_of` reads a `bytes` value's bytes.
    pub fn pack(
        &self,
        values: &[Value],
        bytes_of: &mut dyn FnMut(&Value) -> Option<Vec<u8>>,
    ) -> Result<Vec<u8>, StructError> {
        let wanted = self.value_count();
        if values.len() != wanted {
            return Err(error(format!(
                "pack expected {wanted} items for packing (got {})",
                values.len()
            )));
        }
        if self.size() > LARGEST_PACK {
            // More than any buffer tensh makes: refused before anything is allocated.
            return Err(StructError {
                kind: "MemoryError",
                message: String::new(),
            });
        }
        let mut out = Vec::with_capacity(self.size());
        let mut next = values.iter();
        for item in &self.items {
            let size = size_of(item.code, self.native).unwrap_or(1);
            if self.native && !matches!(item.code, 's' | 'p' | 'x' | 'c') {
                out.resize(out.len().div_ceil(size) * size, 0);
            }
            match item.code {
                'x' => out.resize(out.len() + item.count, 0),
                's' | 'p' => {
                    let v = next.next().unwrap_or(&Value::None);
                    let Some(mut bytes) = bytes_of(v) else {
                        return Err(error("argument for 's' must be a bytes object"));
                    };
                    if item.code == 'p' {
                        let n = bytes.len().min(item.count.saturating_sub(1)).min(255);
                        bytes.truncate(n);
                        bytes.insert(0, n as u8);
                    }
                    bytes.resize(item.count, 0);
                    out.extend(bytes);
                }
                code => {
                    for _ in 0..item.count {
                        let v = next.next().unwrap_or(&Value::None);
                        let bytes = self.pack_one(code, size, v, bytes_of)?;
                        out.extend(bytes);
                    }
                }
            }
        }
        Ok(out)
    }

    fn pack_one(
        &self,
        code: char,
        size: usize,
        v: &Value,
        bytes_of: &mut dyn FnMut(&Value) -> Option<Vec<u8>>,
    ) -> Result<Vec<u8>, StructError> {
        let order = |mut b: Vec<u8>| {
            if !self.little {
                b.reverse();
            }
            b
        };
        match code {
            'c' => match bytes_of(v) {
                Some(b) if b.len() == 1 => Ok(b),
                _ => Err(error("char format requires a bytes object of length 1")),
            },
            '?' => Ok(vec![truth(v) as u8]),
            'e' | 'f' | 'd' => {
                let Some(x) = v.as_float() else {
                    return Err(error("required argument is not a float"));
                };
                Ok(order(match code {
                    'e' => {
                        let h = half::f16::from_f64(x);
                        if h.is_infinite() && x.is_finite() {
                            return Err(StructError {
                                kind: "OverflowError",
                                message: "float too large to pack with e format".into(),
                            });
                        }
                        h.to_le_bytes().to_vec()
                    }
                    'f' => {
                        let f = x as f32;
                        if f.is_infinite() && x.is_finite() {
                            return Err(StructError {
                                kind: "OverflowError",
                                message: "float too large to pack with f format".into(),
                            });
                        }
                        f.to_le_bytes().to_vec()
                    }
                    _ => x.to_le_bytes().to_vec(),
                }))
            }
            _ => {
                let n: i128 = match v {
                    Value::Int(i) => *i as i128,
                    // Past 128 bits: past every code's range too.
                    Value::BigInt(i) => num_traits::ToPrimitive::to_i128(&**i).unwrap_or(
                        if num_traits::Signed::is_negative(&**i) {
                            i128::MIN
                        } else {
                            i128::MAX
                        },
                    ),
                    Value::Bool(b) => *b as i128,
                    _ => return Err(error("required argument is not an integer")),
                };
                let signed = code.is_ascii_lowercase();
                let bits = size * 8;
                let (low, high) = if signed {
                    (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
                } else {
                    (0, (1i128 << bits) - 1)
                };
                if n < low || n > high {
                    // CPython's words: named ranges for the small codes, its generic
                    // message for the ones it checks by conversion.
                    let named = match code {
                        'b' => Some("byte"),
                        'B' => Some("ubyte"),
                        'h' => Some("short"),
                        'H' => Some("ushort"),
                        _ => None,
                    };
                    return Err(error(match named {
                        Some(name) => format!("{name} format requires {low} <= number <= {high}"),
                        None if signed && bits <= 32 => {
                            format!("'{code}' format requires {low} <= number <= {high}")
                        }
                        None => "argument out of range".into(),
                    }));
                }
                Ok(order((n as u128).to_le_bytes()[..size].to_vec()))
            }
        }
    }

    /// Unpacks `bytes` (exactly the format's size).
    pub fn unpack(&self, bytes: &[u8]) -> Result<Vec<Unpacked>, StructError> {
        let size = self.size();
        if bytes.len() != size {
            return Err(error(format!("unpack requires a buffer of {size} bytes")));
        }
        let mut out = Vec::new();
        let mut at = 0usize;
        for item in &self.items {
            let one = size_of(item.code, self.native).unwrap_or(1);
            if self.native && !matches!(item.code, 's' | 'p' | 'x' | 'c') {
                at = at.div_ceil(one) * one;
            }
            match item.code {
                'x' => at += item.count,
                's' => {
                    out.push(Unpacked::Bytes(bytes[at..at + item.count].to_vec()));
                    at += item.count;
                }
                'p' => {
                    let field = &bytes[at..at + item.count];
                    let n =
                        (*field.first().unwrap_or(&0) as usize).min(item.count.saturating_sub(1));
                    out.push(Unpacked::Bytes(field.get(1..1 + n).unwrap_or(&[]).to_vec()));
                    at += item.count;
                }
                code => {
                    for _ in 0..item.count {
                        let mut b = bytes[at..at + one].to_vec();
                        at += one;
                        if code == 'c' {
                            out.push(Unpacked::Bytes(b));
                            continue;
                        }
                        if !self.little {
                            b.reverse();
                        }
                        out.push(Unpacked::Value(value_of(code, &b)));
                    }
                }
            }
        }
        Ok(out)
    }
}

/// The value of one item's little-endian bytes.
fn value_of(code: char, b: &[u8]) -> Value {
    let mut wide = [0u8; 16];
    wide[..b.len()].copy_from_slice(b);
    let unsigned = u128::from_le_bytes(wide);
    match code {
        '?' => Value::Bool(unsigned != 0),
        'e' => Value::Float(half::f16::from_le_bytes([b[0], b[1]]).to_f64()),
        'f' => Value::Float(f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64),
        'd' => {
            let mut e = [0u8; 8];
            e.copy_from_slice(&b[..8]);
            Value::Float(f64::from_le_bytes(e))
        }
        c if c.is_ascii_lowercase() => {
            let bits = b.len() * 8;
            let shift = 128 - bits;
            Value::int(((unsigned << shift) as i128) >> shift)
        }
        _ => Value::int(unsigned as i128),
    }
}

fn truth(v: &Value) -> bool {
    match v {
        Value::None => false,
        Value::Bool(b) => *b,
        Value::Int(i) => *i != 0,
        Value::Float(f) => *f != 0.0,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_size_align_and_round_trip_as_cpython() {
        assert_eq!(Format::parse("@hq").unwrap().size(), 16);
        assert_eq!(Format::parse("=hq").unwrap().size(), 10);
        assert_eq!(Format::parse("<bhiqfd?").unwrap().size(), 28);
        let f = Format::parse("<2f").unwrap();
        let packed = f
            .pack(&[Value::Float(1.5), Value::Float(-2.0)], &mut |_| None)
            .unwrap();
        assert_eq!(packed, vec![0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0]);
        let back = f.unpack(&packed).unwrap();
        assert!(matches!(
            back[..],
            [Unpacked::Value(Value::Float(a)), Unpacked::Value(Value::Float(b))] if a == 1.5 && b == -2.0
        ));
        let e = Format::parse("<h")
            .unwrap()
            .pack(&[Value::Int(70000)], &mut |_| None)
            .unwrap_err();
        assert_eq!(e.message, "short format requires -32768 <= number <= 32767");
        assert_eq!(
            Format::parse("<y").unwrap_err().message,
            "bad char in struct format"
        );
        // A format asking for more than any buffer is refused before allocating.
        let huge = Format::parse("999999999999999x").unwrap();
        assert_eq!(huge.size(), 999_999_999_999_999);
        assert_eq!(
            huge.pack(&[], &mut |_| None).unwrap_err().kind,
            "MemoryError"
        );
    }
}
