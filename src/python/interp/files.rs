//! Files a session opens with `open()`: written to make inputs for `from_file`,
//! `torch.load` and friends, and read back. Text and binary modes, `with` closes them.

use std::cell::RefCell;
use std::io::{Read, Write};
use std::rc::Rc;

use super::expr::CallArgs;
use super::{Flow, Interpreter};
use crate::python::value::{PyFile, Value};

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
            "r+" => options.read(true).write(true),
            "w+" => options.read(true).write(true).create(true).truncate(true),
            "a+" => options.read(true).append(true).create(true),
            _ => return self.raise("ValueError", format!("invalid mode: '{mode}'")),
        };
        match options.open(path) {
            Ok(file) => Ok(Value::File(Rc::new(RefCell::new(PyFile {
                name: path.to_string(),
                file: Some(file),
                binary,
            })))),
            Err(e) => {
                let kind = match e.kind() {
                    std::io::ErrorKind::NotFound => "FileNotFoundError",
                    std::io::ErrorKind::PermissionDenied => "PermissionError",
                    std::io::ErrorKind::AlreadyExists => "FileExistsError",
                    _ => "OSError",
                };
                let code = crate::platform::fs::error_code(&e);
                let what = crate::script::output::python_os_error(&e);
                let what = what.split(": ").next().unwrap_or(&what).to_string();
                self.raise(kind, format!("[Errno {code}] {what}: '{path}'"))
            }
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
            "name" => Ok(Value::str(f.borrow().name.as_str())),
            "closed" => Ok(Value::Bool(f.borrow().file.is_none())),
            "write" | "read" | "close" | "flush" | "__enter__" | "__exit__" => {
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
                    Some(Value::Host(d)) if binary => {
                        let list = self.host_method(d.clone(), "tolist", Vec::new())?;
                        let items = self.collect(&list)?;
                        items
                            .iter()
                            .map(|v| v.as_int().unwrap_or(0) as u8)
                            .collect()
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
                let mut state = f.borrow_mut();
                let Some(file) = state.file.as_mut() else {
                    drop(state);
                    return self.raise("ValueError", "I/O operation on closed file.");
                };
                let mut bytes = Vec::new();
                if let Err(e) = file.read_to_end(&mut bytes) {
                    drop(state);
                    return self.raise("OSError", e.to_string());
                }
                drop(state);
                if binary {
                    let list =
                        Value::list(bytes.into_iter().map(|b| Value::Int(b as i64)).collect());
                    self.call_builtin("bytes", vec![list], Vec::new())
                } else {
                    Ok(Value::str(String::from_utf8_lossy(&bytes).as_ref()))
                }
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
}
