//! Reading a pickle without running anything from it: a stack machine over the opcodes of
//! protocols 0 to 5 that builds plain values (numbers, strings, bytes, lists, tuples, dicts)
//! itself and hands everything else to a [`Resolver`]: which globals a file may name, what
//! calling one (`REDUCE`) makes, and what a persistent id (a storage record) is. The
//! resolver is the allow-list; a global it refuses stops the load before anything is built.
//!
//! Invariants: the input is only ever read through bounds-checked slices; nothing recurses
//! (nesting costs heap, not stack); memo references share (`Rc`), never copy, so a file
//! cannot grow exponentially while it is read.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use rhai::Dynamic;

use super::pickle::op;
use crate::core::error::{ErrorKind, Result, TorchError};

/// A value read from a pickle.
#[derive(Debug, Clone)]
pub enum Obj {
    /// `None`.
    None,
    /// A bool.
    Bool(bool),
    /// An integer that fits `i64`.
    Int(i64),
    /// An integer beyond `i64` (its little-endian two's complement bytes).
    BigInt(Rc<Vec<u8>>),
    /// A float.
    Float(f64),
    /// A `str`.
    Str(Rc<str>),
    /// `bytes`.
    Bytes(Rc<Vec<u8>>),
    /// A list (shared: `APPEND` may add to it after it was memoized).
    List(Rc<RefCell<Vec<Obj>>>),
    /// A tuple.
    Tuple(Rc<Vec<Obj>>),
    /// A dict in insertion order (shared, as lists are).
    Dict(Rc<RefCell<Vec<(Obj, Obj)>>>),
    /// A set (`EMPTY_SET`, `ADDITEMS`, `FROZENSET`).
    Set(Rc<RefCell<Vec<Obj>>>),
    /// A global the resolver allowed: `module.name`.
    Global(Rc<str>, Rc<str>),
    /// Something the resolver made (a tensor, a storage, a dtype, ...).
    Made(Dynamic),
}

/// The torch-specific side of reading: the allow-list and what allowed things make.
pub trait Resolver {
    /// `module.name` named by `GLOBAL`: the object, or the refusal.
    fn global(&mut self, module: &str, name: &str) -> Result<Obj>;
    /// `callable(*args)` (`REDUCE`, `NEWOBJ`).
    fn call(&mut self, callable: Obj, args: Vec<Obj>) -> Result<Obj>;
    /// `BUILD`: `state` applied to `target`.
    fn build(&mut self, target: Obj, state: Obj) -> Result<Obj>;
    /// A persistent id (`BINPERSID`).
    fn persistent(&mut self, id: Obj) -> Result<Obj>;
    /// The error for an opcode the format has but loading does not take.
    fn unsupported(&self, opcode: u8) -> TorchError;
}

fn truncated() -> TorchError {
    TorchError {
        kind: ErrorKind::Unpickling,
        message: "pickle data was truncated".into(),
    }
}

fn bad(message: impl Into<String>) -> TorchError {
    TorchError {
        kind: ErrorKind::Unpickling,
        message: message.into(),
    }
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.at.checked_add(n).ok_or_else(truncated)?;
        let s = self.data.get(self.at..end).ok_or_else(truncated)?;
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().unwrap_or_default(),
        ))
    }
    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().unwrap_or_default(),
        ))
    }
    fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().unwrap_or_default(),
        ))
    }
    fn line(&mut self) -> Result<&'a str> {
        let rest = &self.data[self.at.min(self.data.len())..];
        let n = rest
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(truncated)?;
        let line = &rest[..n];
        self.at += n + 1;
        std::str::from_utf8(line).map_err(|_| bad("invalid text in pickle"))
    }
    fn sized(&mut self, n: u64) -> Result<&'a [u8]> {
        self.take(usize::try_from(n).map_err(|_| truncated())?)
    }
}

/// An integer from `LONG1`/`LONG4` bytes (little-endian two's complement).
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

fn text(bytes: &[u8]) -> Result<Obj> {
    let s = std::str::from_utf8(bytes).map_err(|_| {
        TorchError::new(
            ErrorKind::UnicodeDecode,
            "'utf-8' codec can't decode bytes in pickle: invalid data",
        )
    })?;
    Ok(Obj::Str(s.into()))
}

/// Reads one pickle from `data` (from its start to its `STOP`): the value, and where the
/// pickle ended.
pub fn loads(data: &[u8], resolver: &mut dyn Resolver) -> Result<(Obj, usize)> {
    let mut r = Reader { data, at: 0 };
    let mut stack: Vec<Obj> = Vec::new();
    let mut marks: Vec<usize> = Vec::new();
    let mut memo: HashMap<u64, Obj> = HashMap::new();
    let pop = |stack: &mut Vec<Obj>| stack.pop().ok_or_else(|| bad("unpickling stack underflow"));
    let pop_mark = |stack: &mut Vec<Obj>, marks: &mut Vec<usize>| -> Result<Vec<Obj>> {
        let m = marks.pop().ok_or_else(|| bad("could not find MARK"))?;
        if m > stack.len() {
            return Err(bad("could not find MARK"));
        }
        Ok(stack.split_off(m))
    };
    loop {
        let code = r
            .u8()
            .map_err(|_| TorchError::new(ErrorKind::Eof, "Ran out of input"))?;
        match code {
            op::PROTO => {
                let v = r.u8()?;
                if v > 5 {
                    return Err(bad(format!("unsupported pickle protocol: {v}")));
                }
            }
            op::FRAME => {
                r.u64()?;
            }
            op::STOP => {
                let v = pop(&mut stack)?;
                return Ok((v, r.at));
            }
            op::MARK => marks.push(stack.len()),
            op::POP => {
                if marks.last() == Some(&stack.len()) {
                    marks.pop();
                } else {
                    pop(&mut stack)?;
                }
            }
            op::POP_MARK => {
                pop_mark(&mut stack, &mut marks)?;
            }
            op::DUP => {
                let top = stack
                    .last()
                    .cloned()
                    .ok_or_else(|| bad("unpickling stack underflow"))?;
                stack.push(top);
            }
            op::NONE => stack.push(Obj::None),
            op::NEWTRUE => stack.push(Obj::Bool(true)),
            op::NEWFALSE => stack.push(Obj::Bool(false)),
            op::BININT => stack.push(Obj::Int(r.u32()? as i32 as i64)),
            op::BININT1 => stack.push(Obj::Int(r.u8()? as i64)),
            op::BININT2 => stack.push(Obj::Int(r.u16()? as i64)),
            op::LONG1 => {
                let n = r.u8()? as u64;
                stack.push(long_from(r.sized(n)?));
            }
            op::LONG4 => {
                let n = r.u32()? as i32;
                if n < 0 {
                    return Err(bad("LONG pickle has negative byte count"));
                }
                stack.push(long_from(r.sized(n as u64)?));
            }
            op::INT | op::LONG => {
                let line = r.line()?.trim_end_matches('L');
                let v = match line {
                    "00" => Obj::Bool(false),
                    "01" => Obj::Bool(true),
                    other => Obj::Int(
                        other
                            .parse()
                            .map_err(|_| bad(format!("invalid integer in pickle: {other:?}")))?,
                    ),
                };
                stack.push(v);
            }
            op::BINFLOAT => {
                let b: [u8; 8] = r.take(8)?.try_into().unwrap_or_default();
                stack.push(Obj::Float(f64::from_be_bytes(b)));
            }
            op::FLOAT => {
                let line = r.line()?;
                stack
                    .push(Obj::Float(line.parse().map_err(|_| {
                        bad(format!("invalid float in pickle: {line:?}"))
                    })?));
            }
            op::BINUNICODE => {
                let n = r.u32()? as u64;
                stack.push(text(r.sized(n)?)?);
            }
            op::SHORT_BINUNICODE => {
                let n = r.u8()? as u64;
                stack.push(text(r.sized(n)?)?);
            }
            op::BINUNICODE8 => {
                let n = r.u64()?;
                stack.push(text(r.sized(n)?)?);
            }
            op::UNICODE => {
                let line = r.line()?;
                stack.push(Obj::Str(line.into()));
            }
            op::STRING => {
                let line = r.line()?;
                let inner = line
                    .strip_prefix('\'')
                    .and_then(|l| l.strip_suffix('\''))
                    .or_else(|| line.strip_prefix('"').and_then(|l| l.strip_suffix('"')))
                    .ok_or_else(|| bad("the STRING opcode argument must be quoted"))?;
                stack.push(Obj::Str(inner.into()));
            }
            op::BINSTRING => {
                let n = r.u32()? as i32;
                if n < 0 {
                    return Err(bad("BINSTRING pickle has negative byte count"));
                }
                stack.push(text(r.sized(n as u64)?)?);
            }
            op::SHORT_BINSTRING => {
                let n = r.u8()? as u64;
                stack.push(text(r.sized(n)?)?);
            }
            op::BINBYTES => {
                let n = r.u32()? as u64;
                stack.push(Obj::Bytes(Rc::new(r.sized(n)?.to_vec())));
            }
            op::SHORT_BINBYTES => {
                let n = r.u8()? as u64;
                stack.push(Obj::Bytes(Rc::new(r.sized(n)?.to_vec())));
            }
            op::BINBYTES8 | op::BYTEARRAY8 => {
                let n = r.u64()?;
                stack.push(Obj::Bytes(Rc::new(r.sized(n)?.to_vec())));
            }
            op::EMPTY_LIST => stack.push(Obj::List(Rc::default())),
            op::EMPTY_TUPLE => stack.push(Obj::Tuple(Rc::new(Vec::new()))),
            op::EMPTY_DICT => stack.push(Obj::Dict(Rc::default())),
            op::EMPTY_SET => stack.push(Obj::Set(Rc::default())),
            op::LIST => {
                let items = pop_mark(&mut stack, &mut marks)?;
                stack.push(Obj::List(Rc::new(RefCell::new(items))));
            }
            op::TUPLE => {
                let items = pop_mark(&mut stack, &mut marks)?;
                stack.push(Obj::Tuple(Rc::new(items)));
            }
            op::FROZENSET => {
                let items = pop_mark(&mut stack, &mut marks)?;
                stack.push(Obj::Set(Rc::new(RefCell::new(items))));
            }
            op::TUPLE1 | op::TUPLE2 | op::TUPLE3 => {
                let n = (code - op::TUPLE1 + 1) as usize;
                if stack.len() < n {
                    return Err(bad("unpickling stack underflow"));
                }
                let items = stack.split_off(stack.len() - n);
                stack.push(Obj::Tuple(Rc::new(items)));
            }
            op::DICT => {
                let items = pop_mark(&mut stack, &mut marks)?;
                stack.push(Obj::Dict(Rc::new(RefCell::new(pairs(items)?))));
            }
            op::APPEND => {
                let v = pop(&mut stack)?;
                match stack.last() {
                    Some(Obj::List(l)) => l.borrow_mut().push(v),
                    _ => return Err(bad("APPEND to a non-list")),
                }
            }
            op::APPENDS | op::ADDITEMS => {
                let items = pop_mark(&mut stack, &mut marks)?;
                match stack.last() {
                    Some(Obj::List(l) | Obj::Set(l)) => l.borrow_mut().extend(items),
                    _ => return Err(bad("APPENDS to a non-list")),
                }
            }
            op::SETITEM => {
                let v = pop(&mut stack)?;
                let k = pop(&mut stack)?;
                match stack.last() {
                    Some(Obj::Dict(d)) => d.borrow_mut().push((k, v)),
                    _ => return Err(bad("SETITEM on a non-dict")),
                }
            }
            op::SETITEMS => {
                let items = pop_mark(&mut stack, &mut marks)?;
                let items = pairs(items)?;
                match stack.last() {
                    Some(Obj::Dict(d)) => d.borrow_mut().extend(items),
                    _ => return Err(bad("SETITEMS on a non-dict")),
                }
            }
            op::BINPUT => {
                let k = r.u8()? as u64;
                memo_put(&mut memo, k, &stack)?;
            }
            op::LONG_BINPUT => {
                let k = r.u32()? as u64;
                memo_put(&mut memo, k, &stack)?;
            }
            op::PUT => {
                let k = r.line()?.parse().map_err(|_| bad("invalid PUT key"))?;
                memo_put(&mut memo, k, &stack)?;
            }
            op::MEMOIZE => {
                let k = memo.len() as u64;
                memo_put(&mut memo, k, &stack)?;
            }
            op::BINGET | op::LONG_BINGET | op::GET => {
                let k = match code {
                    op::BINGET => r.u8()? as u64,
                    op::LONG_BINGET => r.u32()? as u64,
                    _ => r.line()?.parse().map_err(|_| bad("invalid GET key"))?,
                };
                let v = memo
                    .get(&k)
                    .cloned()
                    .ok_or_else(|| TorchError::new(ErrorKind::Key, k.to_string()))?;
                stack.push(v);
            }
            op::GLOBAL => {
                let module = r.line()?;
                let name = r.line()?;
                stack.push(resolver.global(module, name)?);
            }
            op::STACK_GLOBAL => {
                let name = pop(&mut stack)?;
                let module = pop(&mut stack)?;
                let (Obj::Str(module), Obj::Str(name)) = (module, name) else {
                    return Err(bad("STACK_GLOBAL requires str"));
                };
                stack.push(resolver.global(&module, &name)?);
            }
            op::REDUCE | op::NEWOBJ => {
                let args = pop(&mut stack)?;
                let callable = pop(&mut stack)?;
                let Obj::Tuple(args) = args else {
                    return Err(bad("REDUCE arguments must be a tuple"));
                };
                let args = Rc::try_unwrap(args).unwrap_or_else(|shared| (*shared).clone());
                stack.push(resolver.call(callable, args)?);
            }
            op::BUILD => {
                let state = pop(&mut stack)?;
                let target = pop(&mut stack)?;
                stack.push(resolver.build(target, state)?);
            }
            op::BINPERSID => {
                let id = pop(&mut stack)?;
                stack.push(resolver.persistent(id)?);
            }
            other => return Err(resolver.unsupported(other)),
        }
    }
}

fn memo_put(memo: &mut HashMap<u64, Obj>, k: u64, stack: &[Obj]) -> Result<()> {
    let top = stack
        .last()
        .cloned()
        .ok_or_else(|| bad("unpickling stack underflow"))?;
    memo.insert(k, top);
    Ok(())
}

fn pairs(items: Vec<Obj>) -> Result<Vec<(Obj, Obj)>> {
    if !items.len().is_multiple_of(2) {
        return Err(bad("odd number of items for SETITEMS"));
    }
    let mut out = Vec::with_capacity(items.len() / 2);
    let mut it = items.into_iter();
    while let (Some(k), Some(v)) = (it.next(), it.next()) {
        out.push((k, v));
    }
    Ok(out)
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
        fn call(&mut self, _: Obj, args: Vec<Obj>) -> Result<Obj> {
            Ok(Obj::Tuple(Rc::new(args)))
        }
        fn build(&mut self, target: Obj, _: Obj) -> Result<Obj> {
            Ok(target)
        }
        fn persistent(&mut self, id: Obj) -> Result<Obj> {
            Ok(id)
        }
        fn unsupported(&self, opcode: u8) -> TorchError {
            bad(format!("unsupported {opcode}"))
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
        let Obj::Dict(d) = obj else { panic!("a dict") };
        let d = d.borrow();
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
}
