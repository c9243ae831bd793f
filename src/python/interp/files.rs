//! File objects: files a session opens with `open()` (written to make inputs for
//! `from_file`, `torch.load` and friends, and read back) and `io.BytesIO`/`io.StringIO` in
//! memory. Text and binary modes, `read`/`write`/`seek`/`tell`, `with` closes them; and
//! `torch.save`/`torch.load` given one instead of a path.

use std::cell::RefCell;
use std::io::{Read, Seek, SeekFrom, Write};
use std::rc::Rc;

use super::expr::CallArgs;
use super::{Flow, Interpreter};
use crate::ops::files::FileObject;
use crate::python::value::{PyFile, Value};

/// A file object `torch.save` writes into, and the sink the op writes first.
pub(super) type SaveInto = (Rc<RefCell<PyFile>>, FileObject);

/// The methods of a file object.
const METHODS: &[&str] = &[
    "write",
    "read",
    "close",
    "flush",
    "seek",
    "tell",
    "getvalue",
    "readable",
    "writable",
    "seekable",
    "__enter__",
    "__exit__",
];

impl Interpreter {
    /// `open(path, mode)`.
    pub(super) fn open_file(&mut self, path: &str, mode: &str) -> Flow<Value> {
        let binary = mode.contains('b');
        let mut options = crate::platform::fs::OpenOptions::new();
        match mode.replace(['b', 't'], "").as_str() {
            "r" => options.read(true),
            "w" => options.write(true).create(true).truncate(true),
            "a" => options.append(true).create(true),
            "x" => options.write(true).create_new(true),
            "x+" => options.read(true).write(true).create_new(true),
            "r+" => options.read(true).write(true),
            "w+" => options.read(true).write(true).create(true).truncate(true),
            "a+" => options.read(true).append(true).create(true),
            _ => return self.raise("ValueError", format!("invalid mode: '{mode}'")),
        };
        if crate::platform::fs::exists(path)
            && !crate::platform::fs::is_file(path)
            && crate::platform::fs::is_dir(path)
        {
            // The system opens a folder for reading; Python refuses it.
            let e = std::io::Error::new(std::io::ErrorKind::IsADirectory, "Is a directory");
            return self.os_failure(e, path);
        }
        match options.open(path) {
            Ok(file) => Ok(Value::File(Rc::new(RefCell::new(PyFile::disk(
                path, file, binary,
            ))))),
            Err(e) => self.os_failure(e, path),
        }
    }

    /// `f.name` and the methods of a file.
    pub(super) fn file_attribute(
        &mut self,
        object: &Value,
        f: &Rc<RefCell<PyFile>>,
        name: &str,
    ) -> Flow<Value> {
        match name {
            "name" if !f.borrow().memory => Ok(Value::str(f.borrow().name.as_str())),
            "closed" => Ok(Value::Bool(f.borrow().file.is_none())),
            "getvalue" if !f.borrow().memory => self.raise(
                "AttributeError",
                format!(
                    "'_io.{}' object has no attribute '{name}'",
                    object.type_name()
                ),
            ),
            _ if METHODS.contains(&name) => {
                Ok(Value::Method(Rc::new((object.clone(), name.into()))))
            }
            _ => self.raise(
                "AttributeError",
                format!("'{}' object has no attribute '{name}'", object.type_name()),
            ),
        }
    }

    /// Calls a method of a file.
    pub(super) fn file_method(
        &mut self,
        f: &Rc<RefCell<PyFile>>,
        name: &str,
        call: CallArgs,
    ) -> Flow<Value> {
        let binary = f.borrow().binary;
        match name {
            "write" => {
                let bytes: Vec<u8> = match call.args.first() {
                    Some(Value::Str(s)) if !binary => s.as_bytes().to_vec(),
                    Some(Value::Str(_)) => {
                        return self
                            .raise("TypeError", "a bytes-like object is required, not 'str'");
                    }
                    Some(v @ (Value::Host(_) | Value::Tensor(_))) if binary => {
                        self.byte_values(v)?
                    }
                    Some(other) => {
                        return self.raise(
                            "TypeError",
                            format!(
                                "{} argument must be {}, not {}",
                                if binary {
                                    "a bytes-like object"
                                } else {
                                    "write()"
                                },
                                if binary { "bytes" } else { "str" },
                                other.type_name()
                            ),
                        );
                    }
                    None => {
                        return self
                            .raise("TypeError", "write() takes exactly one argument (0 given)");
                    }
                };
                let mut state = f.borrow_mut();
                let Some(file) = state.file.as_mut() else {
                    drop(state);
                    return self.raise("ValueError", "I/O operation on closed file.");
                };
                if let Err(e) = file.write_all(&bytes) {
                    drop(state);
                    return self.raise("OSError", e.to_string());
                }
                Ok(Value::Int(if binary {
                    bytes.len()
                } else {
                    String::from_utf8_lossy(&bytes).chars().count()
                } as i64))
            }
            "read" => {
                let size = match call.args.first() {
                    None | Some(Value::None) => None,
                    Some(Value::Int(n)) if *n < 0 => None,
                    Some(Value::Int(n)) => Some(*n as u64),
                    Some(other) => {
                        return self.raise(
                            "TypeError",
                            format!(
                                "argument should be integer or None, not '{}'",
                                other.type_name()
                            ),
                        );
                    }
                };
                let bytes = self.read_from(f, size)?;
                if binary {
                    self.bytes_value(&bytes)
                } else {
                    Ok(Value::str(String::from_utf8_lossy(&bytes).as_ref()))
                }
            }
            "getvalue" => {
                let state = f.borrow();
                let Some(crate::python::value::file::Backing::Memory(c)) = state.file.as_ref()
                else {
                    drop(state);
                    return self.raise("ValueError", "I/O operation on closed file.");
                };
                let bytes = c.get_ref().clone();
                drop(state);
                if binary {
                    self.bytes_value(&bytes)
                } else {
                    Ok(Value::str(String::from_utf8_lossy(&bytes).as_ref()))
                }
            }
            "seek" => {
                let offset = match call.args.first() {
                    Some(Value::Int(n)) => *n,
                    Some(Value::Bool(b)) => *b as i64,
                    other => {
                        let got = other.map_or("nothing".into(), |v| v.type_name());
                        return self.raise(
                            "TypeError",
                            format!("'{got}' object cannot be interpreted as an integer"),
                        );
                    }
                };
                let whence = match call.args.get(1) {
                    None => 0,
                    Some(Value::Int(w)) => *w,
                    Some(other) => {
                        return self.raise(
                            "TypeError",
                            format!(
                                "'{}' object cannot be interpreted as an integer",
                                other.type_name()
                            ),
                        );
                    }
                };
                let to = match whence {
                    0 if offset < 0 => {
                        return self.raise("ValueError", format!("negative seek value {offset}"));
                    }
                    0 => SeekFrom::Start(offset as u64),
                    1 => SeekFrom::Current(offset),
                    2 => SeekFrom::End(offset),
                    w => {
                        return self.raise(
                            "ValueError",
                            format!("invalid whence ({w}, should be 0, 1 or 2)"),
                        );
                    }
                };
                self.with_open(f, |file| file.seek(to))
                    .map(|at| Value::Int(at as i64))
            }
            "tell" => self
                .with_open(f, |file| file.stream_position())
                .map(|at| Value::Int(at as i64)),
            "readable" | "writable" | "seekable" => {
                self.with_open(f, |_| Ok(()))?;
                Ok(Value::Bool(true))
            }
            "close" | "__exit__" => {
                f.borrow_mut().file = None;
                Ok(if name == "close" {
                    Value::None
                } else {
                    Value::Bool(false)
                })
            }
            "flush" => Ok(Value::None),
            "__enter__" => Ok(Value::File(f.clone())),
            _ => self.raise(
                "AttributeError",
                format!("file object has no attribute '{name}'"),
            ),
        }
    }

    /// Runs `act` on the open file `f`, its failure an `OSError`; a closed file is a
    /// `ValueError`, as in Python.
    fn with_open<T>(
        &mut self,
        f: &Rc<RefCell<PyFile>>,
        act: impl FnOnce(&mut crate::python::value::file::Backing) -> std::io::Result<T>,
    ) -> Flow<T> {
        let mut state = f.borrow_mut();
        let Some(file) = state.file.as_mut() else {
            drop(state);
            return self.raise("ValueError", "I/O operation on closed file.");
        };
        let done = act(file);
        drop(state);
        done.or_else(|e| self.raise("OSError", e.to_string()))
    }

    /// Up to `size` bytes (all, without one) from `f`'s position on.
    fn read_from(&mut self, f: &Rc<RefCell<PyFile>>, size: Option<u64>) -> Flow<Vec<u8>> {
        self.with_open(f, |file| {
            let mut bytes = Vec::new();
            match size {
                Some(n) => file.take(n).read_to_end(&mut bytes)?,
                None => file.read_to_end(&mut bytes)?,
            };
            Ok(bytes)
        })
    }

    /// `io.BytesIO(initial_bytes=b"")` or `io.StringIO(initial_value="")`.
    pub(super) fn memory_file(
        &mut self,
        binary: bool,
        args: Vec<Value>,
        keywords: Vec<(Rc<str>, Value)>,
    ) -> Flow<Value> {
        let keyword = if binary {
            "initial_bytes"
        } else {
            "initial_value"
        };
        let mut initial = args.into_iter().next();
        for (k, v) in keywords {
            if &*k != keyword || initial.is_some() {
                return self.raise(
                    "TypeError",
                    format!(
                        "'{k}' is an invalid keyword argument for {}()",
                        if binary { "BytesIO" } else { "StringIO" }
                    ),
                );
            }
            initial = Some(v);
        }
        let bytes = match (initial, binary) {
            (None | Some(Value::None), _) => Vec::new(),
            (Some(Value::Str(s)), false) => s.as_bytes().to_vec(),
            (Some(other), false) => {
                return self.raise(
                    "TypeError",
                    format!(
                        "initial_value must be str or None, not {}",
                        other.type_name()
                    ),
                );
            }
            (Some(v), true) => self.byte_values(&v)?,
        };
        let file = PyFile::memory(bytes, binary);
        Ok(Value::File(Rc::new(RefCell::new(file))))
    }

    /// `torch.save(obj, f)` and `torch.load(f)` with a file object for `f`: its bytes cross
    /// as a [`FileObject`] (what the rest of the file holds, for `load`; an empty sink, for
    /// `save`, written into the file after the op). Returns the call as the op takes it, and
    /// the file to write the sink into.
    pub(super) fn file_object_arguments(
        &mut self,
        path: &str,
        mut call: CallArgs,
    ) -> Flow<(CallArgs, Option<SaveInto>)> {
        let position = match path {
            "torch::save" => 1,
            "torch::load" => 0,
            _ => return Ok((call, None)),
        };
        let slot = match call.args.get_mut(position) {
            Some(v) => v,
            None => match call.keywords.iter_mut().find(|(k, _)| &**k == "f") {
                Some((_, v)) => v,
                None => return Ok((call, None)),
            },
        };
        let Value::File(f) = slot.clone() else {
            return Ok((call, None));
        };
        if path == "torch::load" {
            let bytes = self.read_from(&f, None)?;
            *slot = Value::Host(rhai::Dynamic::from(FileObject::holding(bytes)));
            return Ok((call, None));
        }
        let sink = FileObject::holding(Vec::new());
        *slot = Value::Host(rhai::Dynamic::from(sink.clone()));
        Ok((call, Some((f, sink))))
    }

    /// Writes what `torch.save` put in `sink` into the file object `f`.
    pub(super) fn write_saved(&mut self, f: &Rc<RefCell<PyFile>>, sink: &FileObject) -> Flow<()> {
        let bytes = sink.take();
        self.with_open(f, |file| file.write_all(&bytes))
    }
}
