//! Reading a pickle without running anything from it, as PyTorch's weights-only unpickler
//! reads one: a stack machine over exactly the opcodes that unpickler takes (any other is
//! refused by number, as PyTorch refuses it), with its stack-and-metastack `MARK`, its
//! errors for short stacks and cut-short fields, and its type checks on `APPEND`,
//! `SETITEM` and `BUILD`. Plain values (numbers, strings, lists, tuples, dicts, sets) are
//! built here; globals, calls, `BUILD` on made objects and persistent ids (storage records)
//! go to a [`Resolver`], the allow-list: a global it refuses stops the load before anything
//! is built.
//!
//! Invariants: the input is only ever read through bounds-checked slices; nothing recurses
//! (nesting costs heap, not stack, and everything left on the stacks and in the memo is
//! dropped with [`drop_deep`]); memo references share (`Rc`), never copy, so memory
//! follows the file's size.

use std::collections::HashMap;
use std::rc::Rc;

use super::obj::{DictKind, Obj, dict_set, drop_deep};
use super::pickle::op;
use crate::core::error::{ErrorKind, Result, TorchError};

/// The torch-specific side of reading: the allow-list and what allowed things make.
pub trait Resolver {
    /// `module.name` named by `GLOBAL`: the object, or the refusal.
    fn global(&mut self, module: &str, name: &str) -> Result<Obj>;
    /// `callable(*args)` (`REDUCE`, `NEWOBJ`); `args` is what the pickle gave, unchecked.
    fn call(&mut self, callable: Obj, args: Obj) -> Result<Obj>;
    /// `BUILD`: `state` applied to `target` (a made object, a global's instance).
    fn build(&mut self, target: Obj, state: Obj) -> Result<Obj>;
    /// A persistent id (`BINPERSID`).
    fn persistent(&mut self, id: Obj) -> Result<Obj>;
    /// The loader's refusal with `detail` (an opcode it does not take, a type check).
    fn refuse(&self, detail: &str) -> TorchError;
}

fn index_error(message: &str) -> TorchError {
    TorchError::index(message)
}

/// `pop from empty list`: a pop of an empty stack or metastack.
fn empty_pop() -> TorchError {
    index_error("pop from empty list")
}

/// `list index out of range`: a read below the bottom of the stack.
fn below_stack() -> TorchError {
    index_error("list index out of range")
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// Up to `n` bytes (fewer at the end, as a file's `read` gives).
    fn read(&mut self, n: usize) -> &'a [u8] {
        let end = self.at.saturating_add(n).min(self.data.len());
        let s = &self.data[self.at.min(end)..end];
        self.at = end;
        s
    }
    /// A one-byte field: `read(1)[0]`, Python's `IndexError` at the end.
    fn u8(&mut self) -> Result<u8> {
        self.read(1)
            .first()
            .copied()
            .ok_or_else(|| index_error("index out of range"))
    }
    /// A fixed-size field as `struct.unpack` reads it.
    fn field<const N: usize>(&mut self) -> Result<[u8; N]> {
        self.read(N).try_into().map_err(|_| {
            TorchError::new(
                ErrorKind::Struct,
                format!("unpack requires a buffer of {N} bytes"),
            )
        })
    }
    /// `n` bytes of a string or number, `EOFError` when the data ends first.
    fn sized(&mut self, n: u64) -> Result<&'a [u8]> {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        let s = self.read(n);
        if s.len() != n {
            return Err(TorchError::new(ErrorKind::Eof, ""));
        }
        Ok(s)
    }
    /// A text line (`GLOBAL`'s module and name), without its newline.
    fn line(&mut self) -> Result<&'a str> {
        let rest = &self.data[self.at.min(self.data.len())..];
        let n = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        self.at += (n + 1).min(rest.len());
        std::str::from_utf8(&rest[..n]).map_err(|e| decode_error(&rest[..n], e))
    }
}

/// An integer from `LONG1` bytes (little-endian two's complement).
fn long_from(bytes: &[u8]) -> Obj {
    if bytes.is_empty() {
        return Obj::Int(0);
    }
    if bytes.len() <= 8 {
        let fill = if bytes[bytes.len() - 1] & 0x80 != 0 {
            0xff
        } else {
            0
        };
        let mut b = [fill; 8];
        b[..bytes.len()].copy_from_slice(bytes);
        return Obj::Int(i64::from_le_bytes(b));
    }
    Obj::BigInt(Rc::new(bytes.to_vec()))
}

/// Python's `UnicodeDecodeError` for bytes that are not UTF-8, worded as its codec words it.
fn decode_error(bytes: &[u8], e: std::str::Utf8Error) -> TorchError {
    let at = e.valid_up_to();
    let message = match e.error_len() {
        None if bytes.len() - at > 1 => format!(
            "'utf-8' codec can't decode bytes in position {at}-{}: unexpected end of data",
            bytes.len() - 1
        ),
        None => format!(
            "'utf-8' codec can't decode byte 0x{:02x} in position {at}: unexpected end of data",
            bytes[at]
        ),
        Some(_) => {
            let b = bytes[at];
            let start = matches!(b, 0x80..=0xbf | 0xc0 | 0xc1 | 0xf5..=0xff);
            format!(
                "'utf-8' codec can't decode byte 0x{b:02x} in position {at}: invalid {} byte",
                if start { "start" } else { "continuation" }
            )
        }
    };
    TorchError::new(ErrorKind::UnicodeDecode, message)
}

fn text(bytes: &[u8]) -> Result<Obj> {
    let s = std::str::from_utf8(bytes).map_err(|e| decode_error(bytes, e))?;
    Ok(Obj::Str(s.into()))
}

/// The machine's state: PyTorch's unpickler keeps the items since the last `MARK` as the
/// stack and the stacks below each `MARK` on a metastack.
#[derive(Default)]
struct Machine {
    stack: Vec<Obj>,
    metastack: Vec<Vec<Obj>>,
    memo: HashMap<u64, Obj>,
}

impl Machine {
    fn pop(&mut self) -> Result<Obj> {
        self.stack.pop().ok_or_else(empty_pop)
    }
    fn top(&self) -> Result<&Obj> {
        self.stack.last().ok_or_else(below_stack)
    }
    fn pop_mark(&mut self) -> Result<Vec<Obj>> {
        let below = self.metastack.pop().ok_or_else(empty_pop)?;
        Ok(std::mem::replace(&mut self.stack, below))
    }
    /// The last `n` items, replaced by one tuple of them.
    fn tuple_of_last(&mut self, n: usize) -> Result<()> {
        if self.stack.len() < n {
            return Err(below_stack());
        }
        let items = self.stack.split_off(self.stack.len() - n);
        self.stack.push(Obj::Tuple(Rc::new(items)));
        Ok(())
    }
    fn memo_put(&mut self, k: u64) -> Result<()> {
        let top = self.top()?.clone();
        if let Some(old) = self.memo.insert(k, top) {
            drop_deep([old]);
        }
        Ok(())
    }
    fn memo_get(&mut self, k: u64) -> Result<()> {
        let v = self
            .memo
            .get(&k)
            .cloned()
            .ok_or_else(|| TorchError::new(ErrorKind::Key, k.to_string()))?;
        self.stack.push(v);
        Ok(())
    }
}

impl Drop for Machine {
    fn drop(&mut self) {
        drop_deep(std::mem::take(&mut self.stack));
        for level in std::mem::take(&mut self.metastack) {
            drop_deep(level);
        }
        drop_deep(std::mem::take(&mut self.memo).into_values());
    }
}

/// Reads one pickle from `data` (from its start to its `STOP`): the value, and where the
/// pickle ended. The caller drops the value with [`drop_deep`].
pub fn loads(data: &[u8], resolver: &mut dyn Resolver) -> Result<(Obj, usize)> {
    let mut r = Reader { data, at: 0 };
    let mut m = Machine::default();
    loop {
        let Some(&code) = r.read(1).first() else {
            return Err(TorchError::new(ErrorKind::Eof, ""));
        };
        match code {
            op::PROTO => {
                r.u8()?;
            }
            op::STOP => {
                let v = m.pop()?;
                return Ok((v, r.at));
            }
            op::MARK => {
                let below = std::mem::take(&mut m.stack);
                m.metastack.push(below);
            }
            op::NONE => m.stack.push(Obj::None),
            op::NEWTRUE => m.stack.push(Obj::Bool(true)),
            op::NEWFALSE => m.stack.push(Obj::Bool(false)),
            op::BININT => m
                .stack
                .push(Obj::Int(i32::from_le_bytes(r.field()?) as i64)),
            op::BININT1 => m.stack.push(Obj::Int(r.u8()? as i64)),
            op::BININT2 => m
                .stack
                .push(Obj::Int(u16::from_le_bytes(r.field()?) as i64)),
            op::LONG1 => {
                let n = r.u8()? as u64;
                m.stack.push(long_from(r.sized(n)?));
            }
            op::BINFLOAT => m.stack.push(Obj::Float(f64::from_be_bytes(r.field()?))),
            op::BINUNICODE => {
                let n = u32::from_le_bytes(r.field()?) as u64;
                m.stack.push(text(r.sized(n)?)?);
            }
            op::SHORT_BINSTRING => {
                let n = r.u8()? as u64;
                m.stack.push(text(r.sized(n)?)?);
            }
            op::EMPTY_LIST => m.stack.push(Obj::List(Rc::default())),
            op::EMPTY_TUPLE => m.stack.push(Obj::Tuple(Rc::new(Vec::new()))),
            op::EMPTY_DICT => m.stack.push(Obj::dict(DictKind::Plain)),
            op::EMPTY_SET => m.stack.push(Obj::Set(Rc::default())),
            op::TUPLE => {
                let items = m.pop_mark()?;
                m.stack.push(Obj::Tuple(Rc::new(items)));
            }
            op::TUPLE1 | op::TUPLE2 | op::TUPLE3 => {
                m.tuple_of_last((code - op::TUPLE1 + 1) as usize)?
            }
            op::APPEND => {
                let v = m.pop()?;
                match m.top()? {
                    Obj::List(l) => l.borrow_mut().push(v),
                    other => {
                        let detail = format!(
                            "Can only append to lists, but got <class '{}'>",
                            other.type_name()
                        );
                        drop_deep([v]);
                        return Err(resolver.refuse(&detail));
                    }
                }
            }
            op::APPENDS => {
                let items = m.pop_mark()?;
                match m.top()? {
                    Obj::List(l) => l.borrow_mut().extend(items),
                    other => {
                        let detail = format!(
                            "Can only extend lists, but got <class '{}'>",
                            other.type_name()
                        );
                        drop_deep(items);
                        return Err(resolver.refuse(&detail));
                    }
                }
            }
            op::SETITEM | op::SETITEMS => {
                let items = if code == op::SETITEM {
                    let v = m.pop()?;
                    let k = m.pop()?;
                    vec![k, v]
                } else {
                    m.pop_mark()?
                };
                let Obj::Dict(_, d) = m.top()? else {
                    let name = if code == op::SETITEM {
                        "SETITEM"
                    } else {
                        "SETITEMS"
                    };
                    let detail = format!(
                        "Can only {name} for dict, collections.OrderedDict, collections.Counter, but got <class '{}'>",
                        m.top()?.type_name()
                    );
                    drop_deep(items);
                    return Err(resolver.refuse(&detail));
                };
                let d = d.clone();
                let odd = items.len() % 2 == 1;
                let mut it = items.into_iter();
                while let (Some(k), Some(v)) = (it.next(), it.next()) {
                    dict_set(&d, k, v)?;
                }
                if odd {
                    return Err(below_stack());
                }
            }
            op::BINPUT => {
                let k = r.u8()? as u64;
                m.memo_put(k)?;
            }
            op::LONG_BINPUT => {
                let k = u32::from_le_bytes(r.field()?) as u64;
                m.memo_put(k)?;
            }
            op::BINGET => {
                let k = r.u8()? as u64;
                m.memo_get(k)?;
            }
            op::LONG_BINGET => {
                let k = u32::from_le_bytes(r.field()?) as u64;
                m.memo_get(k)?;
            }
            op::GLOBAL => {
                let module = r.line()?;
                let name = r.line()?;
                m.stack.push(resolver.global(module, name)?);
            }
            op::REDUCE | op::NEWOBJ => {
                let args = m.pop()?;
                let callable = m.pop().map_err(|_| below_stack())?;
                m.stack.push(resolver.call(callable, args)?);
            }
            op::BUILD => {
                let state = m.pop()?;
                let target = m.pop().map_err(|_| below_stack())?;
                m.stack.push(resolver.build(target, state)?);
            }
            op::BINPERSID => {
                let id = m.pop()?;
                m.stack.push(resolver.persistent(id)?);
            }
            other => return Err(resolver.refuse(&format!("Unsupported operand {other}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::pickle::{Pickled, dumps};
    use super::*;

    struct Plain;
    impl Resolver for Plain {
        fn global(&mut self, module: &str, name: &str) -> Result<Obj> {
            Ok(Obj::Global(module.into(), name.into()))
        }
        fn call(&mut self, _: Obj, args: Obj) -> Result<Obj> {
            Ok(args)
        }
        fn build(&mut self, target: Obj, _: Obj) -> Result<Obj> {
            Ok(target)
        }
        fn persistent(&mut self, id: Obj) -> Result<Obj> {
            Ok(id)
        }
        fn refuse(&self, detail: &str) -> TorchError {
            TorchError::new(ErrorKind::Unpickling, detail)
        }
    }

    #[test]
    fn reads_what_the_writer_writes() {
        let v = Pickled::Dict(vec![
            (Pickled::Str("a".into()), Pickled::Int(-5)),
            (
                Pickled::Str("b".into()),
                Pickled::List(vec![
                    Pickled::Float(1.5),
                    Pickled::None,
                    Pickled::Int(1 << 40),
                ]),
            ),
        ]);
        let bytes = dumps(&v);
        let (obj, end) = loads(&bytes, &mut Plain).expect("reads");
        assert_eq!(end, bytes.len());
        let Obj::Dict(_, d) = obj else {
            panic!("a dict")
        };
        let d: Vec<(Obj, Obj)> = d.borrow().iter().cloned().collect();
        assert!(matches!(d[0].1, Obj::Int(-5)));
        let Obj::List(l) = &d[1].1 else {
            panic!("a list")
        };
        assert!(matches!(l.borrow()[2], Obj::Int(v) if v == 1 << 40));
    }

    #[test]
    fn bad_input_is_an_error_never_a_panic() {
        for bytes in [
            &b""[..],
            b"\x80\x02",
            b"h\x65",
            b"X\xff\xff\xff\xff",
            b"(t(u.",
            b"\x80\x02K\x01a.",
            b"0000",
            b"\x85.",
        ] {
            assert!(loads(bytes, &mut Plain).is_err(), "{bytes:?}");
        }
    }

    #[test]
    fn a_missing_memo_entry_is_a_key_error() {
        let e = loads(b"he", &mut Plain).expect_err("no memo 101");
        assert_eq!(e.to_string(), "KeyError: 101");
    }

    #[test]
    fn nesting_millions_deep_is_read_and_dropped_without_recursion() {
        let mut bytes = vec![b')'];
        bytes.extend(std::iter::repeat_n(op::TUPLE1, 3_000_000));
        // Without a STOP the nested value is left on the machine's stack when it fails.
        let e = loads(&bytes, &mut Plain).expect_err("no STOP");
        assert_eq!(e.to_string(), "EOFError: ");
        bytes.push(op::STOP);
        let (obj, _) = loads(&bytes, &mut Plain).expect("reads");
        drop_deep([obj]);
    }
}
