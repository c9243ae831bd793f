//! Python's pickle format, protocol 2, as `torch.save` writes it: an object tree of plain
//! values, module globals, calls of globals (`REDUCE`) and persistent ids (`BINPERSID`, how
//! storages are referred to by key). Only writing lives here; reading is `unpickle`.

/// A value to pickle.
#[derive(Debug, Clone, PartialEq)]
pub enum Pickled {
    /// `None`.
    None,
    /// `True` / `False`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A `str`.
    Str(String),
    /// A list.
    List(Vec<Pickled>),
    /// A tuple.
    Tuple(Vec<Pickled>),
    /// A dict, in insertion order.
    Dict(Vec<(Pickled, Pickled)>),
    /// `module.name`.
    Global(&'static str, String),
    /// `callable(*args)`.
    Call(Box<Pickled>, Vec<Pickled>),
    /// A persistent id (what the loader resolves, e.g. a storage record).
    Persistent(Box<Pickled>),
}

/// The opcodes (names as in CPython's `pickletools`).
pub mod op {
    /// The `PROTO` opcode.
    pub const PROTO: u8 = 0x80;
    /// The `STOP` opcode.
    pub const STOP: u8 = b'.';
    /// The `MARK` opcode.
    pub const MARK: u8 = b'(';
    /// The `NONE` opcode.
    pub const NONE: u8 = b'N';
    /// The `NEWTRUE` opcode.
    pub const NEWTRUE: u8 = 0x88;
    /// The `NEWFALSE` opcode.
    pub const NEWFALSE: u8 = 0x89;
    /// The `BININT` opcode.
    pub const BININT: u8 = b'J';
    /// The `BININT1` opcode.
    pub const BININT1: u8 = b'K';
    /// The `BININT2` opcode.
    pub const BININT2: u8 = b'M';
    /// The `LONG1` opcode.
    pub const LONG1: u8 = 0x8a;
    /// The `LONG4` opcode.
    pub const LONG4: u8 = 0x8b;
    /// The `INT` opcode.
    pub const INT: u8 = b'I';
    /// The `LONG` opcode.
    pub const LONG: u8 = b'L';
    /// The `BINFLOAT` opcode.
    pub const BINFLOAT: u8 = b'G';
    /// The `FLOAT` opcode.
    pub const FLOAT: u8 = b'F';
    /// The `BINUNICODE` opcode.
    pub const BINUNICODE: u8 = b'X';
    /// The `SHORT_BINUNICODE` opcode.
    pub const SHORT_BINUNICODE: u8 = 0x8c;
    /// The `BINUNICODE8` opcode.
    pub const BINUNICODE8: u8 = 0x8d;
    /// The `UNICODE` opcode.
    pub const UNICODE: u8 = b'V';
    /// The `STRING` opcode.
    pub const STRING: u8 = b'S';
    /// The `BINSTRING` opcode.
    pub const BINSTRING: u8 = b'T';
    /// The `SHORT_BINSTRING` opcode.
    pub const SHORT_BINSTRING: u8 = b'U';
    /// The `BINBYTES` opcode.
    pub const BINBYTES: u8 = b'B';
    /// The `SHORT_BINBYTES` opcode.
    pub const SHORT_BINBYTES: u8 = b'C';
    /// The `BINBYTES8` opcode.
    pub const BINBYTES8: u8 = 0x8e;
    /// The `BYTEARRAY8` opcode.
    pub const BYTEARRAY8: u8 = 0x96;
    /// The `EMPTY_LIST` opcode.
    pub const EMPTY_LIST: u8 = b']';
    /// The `APPEND` opcode.
    pub const APPEND: u8 = b'a';
    /// The `APPENDS` opcode.
    pub const APPENDS: u8 = b'e';
    /// The `LIST` opcode.
    pub const LIST: u8 = b'l';
    /// The `EMPTY_TUPLE` opcode.
    pub const EMPTY_TUPLE: u8 = b')';
    /// The `TUPLE` opcode.
    pub const TUPLE: u8 = b't';
    /// The `TUPLE1` opcode.
    pub const TUPLE1: u8 = 0x85;
    /// The `TUPLE2` opcode.
    pub const TUPLE2: u8 = 0x86;
    /// The `TUPLE3` opcode.
    pub const TUPLE3: u8 = 0x87;
    /// The `EMPTY_DICT` opcode.
    pub const EMPTY_DICT: u8 = b'}';
    /// The `DICT` opcode.
    pub const DICT: u8 = b'd';
    /// The `SETITEM` opcode.
    pub const SETITEM: u8 = b's';
    /// The `SETITEMS` opcode.
    pub const SETITEMS: u8 = b'u';
    /// The `EMPTY_SET` opcode.
    pub const EMPTY_SET: u8 = 0x8f;
    /// The `ADDITEMS` opcode.
    pub const ADDITEMS: u8 = 0x90;
    /// The `FROZENSET` opcode.
    pub const FROZENSET: u8 = 0x91;
    /// The `POP` opcode.
    pub const POP: u8 = b'0';
    /// The `DUP` opcode.
    pub const DUP: u8 = b'2';
    /// The `POP_MARK` opcode.
    pub const POP_MARK: u8 = b'1';
    /// The `GET` opcode.
    pub const GET: u8 = b'g';
    /// The `BINGET` opcode.
    pub const BINGET: u8 = b'h';
    /// The `LONG_BINGET` opcode.
    pub const LONG_BINGET: u8 = b'j';
    /// The `PUT` opcode.
    pub const PUT: u8 = b'p';
    /// The `BINPUT` opcode.
    pub const BINPUT: u8 = b'q';
    /// The `LONG_BINPUT` opcode.
    pub const LONG_BINPUT: u8 = b'r';
    /// The `MEMOIZE` opcode.
    pub const MEMOIZE: u8 = 0x94;
    /// The `GLOBAL` opcode.
    pub const GLOBAL: u8 = b'c';
    /// The `STACK_GLOBAL` opcode.
    pub const STACK_GLOBAL: u8 = 0x93;
    /// The `REDUCE` opcode.
    pub const REDUCE: u8 = b'R';
    /// The `BUILD` opcode.
    pub const BUILD: u8 = b'b';
    /// The `NEWOBJ` opcode.
    pub const NEWOBJ: u8 = 0x81;
    /// The `BINPERSID` opcode.
    pub const BINPERSID: u8 = b'Q';
    /// The `FRAME` opcode.
    pub const FRAME: u8 = 0x95;
}

/// The pickle (protocol 2) of `value`.
pub fn dumps(value: &Pickled) -> Vec<u8> {
    let mut out = vec![op::PROTO, 2];
    write(value, &mut out);
    out.push(op::STOP);
    out
}

fn write_tuple(items: &[Pickled], out: &mut Vec<u8>) {
    match items {
        [] => out.push(op::EMPTY_TUPLE),
        [a] => {
            write(a, out);
            out.push(op::TUPLE1);
        }
        [a, b] => {
            write(a, out);
            write(b, out);
            out.push(op::TUPLE2);
        }
        [a, b, c] => {
            write(a, out);
            write(b, out);
            write(c, out);
            out.push(op::TUPLE3);
        }
        _ => {
            out.push(op::MARK);
            for item in items {
                write(item, out);
            }
            out.push(op::TUPLE);
        }
    }
}

fn write(value: &Pickled, out: &mut Vec<u8>) {
    match value {
        Pickled::None => out.push(op::NONE),
        Pickled::Bool(true) => out.push(op::NEWTRUE),
        Pickled::Bool(false) => out.push(op::NEWFALSE),
        Pickled::Int(i) => {
            if (0..256).contains(i) {
                out.extend([op::BININT1, *i as u8]);
            } else if (0..65536).contains(i) {
                out.push(op::BININT2);
                out.extend((*i as u16).to_le_bytes());
            } else if let Ok(small) = i32::try_from(*i) {
                out.push(op::BININT);
                out.extend(small.to_le_bytes());
            } else {
                out.extend([op::LONG1, 8]);
                out.extend(i.to_le_bytes());
            }
        }
        Pickled::Float(f) => {
            out.push(op::BINFLOAT);
            out.extend(f.to_be_bytes());
        }
        Pickled::Str(s) => {
            out.push(op::BINUNICODE);
            out.extend((s.len() as u32).to_le_bytes());
            out.extend(s.as_bytes());
        }
        Pickled::List(items) => {
            out.push(op::EMPTY_LIST);
            if !items.is_empty() {
                out.push(op::MARK);
                for item in items {
                    write(item, out);
                }
                out.push(op::APPENDS);
            }
        }
        Pickled::Tuple(items) => write_tuple(items, out),
        Pickled::Dict(entries) => {
            out.push(op::EMPTY_DICT);
            if !entries.is_empty() {
                out.push(op::MARK);
                for (k, v) in entries {
                    write(k, out);
                    write(v, out);
                }
                out.push(op::SETITEMS);
            }
        }
        Pickled::Global(module, name) => {
            out.push(op::GLOBAL);
            out.extend(module.as_bytes());
            out.push(b'\n');
            out.extend(name.as_bytes());
            out.push(b'\n');
        }
        Pickled::Call(callable, args) => {
            write(callable, out);
            write_tuple(args, out);
            out.push(op::REDUCE);
        }
        Pickled::Persistent(id) => {
            write(id, out);
            out.push(op::BINPERSID);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_torch_saves_opcodes() {
        // `{'n': 3}` as CPython's protocol 2 writes it (without memo puts).
        let d = Pickled::Dict(vec![(Pickled::Str("n".into()), Pickled::Int(3))]);
        assert_eq!(dumps(&d), b"\x80\x02}(X\x01\x00\x00\x00nK\x03u.".to_vec());
        let size = Pickled::Call(
            Box::new(Pickled::Global("torch", "Size".into())),
            vec![Pickled::Tuple(vec![Pickled::Int(2), Pickled::Int(-3)])],
        );
        assert_eq!(
            dumps(&size),
            b"\x80\x02ctorch\nSize\nK\x02J\xfd\xff\xff\xff\x86\x85R.".to_vec()
        );
    }

    #[test]
    fn large_integers_use_long1() {
        let v = dumps(&Pickled::Int(1 << 40));
        assert_eq!(&v[2..4], &[op::LONG1, 8]);
    }
}
