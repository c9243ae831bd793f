//! Python's `os` and `os.path` as tensh has them (files and folders through
//! `platform::fs`, so the page's in-memory files answer too), and `_tempfile`, what the
//! `tempfile` module written in Python asks of the system. Paths are strings or objects
//! with `__fspath__` (`pathlib.Path`); a failing call raises the `OSError` subclass CPython
//! raises, in its words (`[Errno 2] No such file or directory: 'x'`).

use std::rc::Rc;

use super::{Flow, Interpreter};
use crate::python::value::Value;

/// The functions of `os`, `os.path` and `_tempfile`, for `module_attribute` and `dir()`.
pub(super) const OS_FUNCTIONS: &[(&str, &[&str])] = &[
    (
        "os.path",
        &[
            "exists", "getsize", "join", "isdir", "isfile", "basename", "dirname", "split",
            "splitext", "abspath", "isabs", "normpath",
        ],
    ),
    (
        "os",
        &[
            "remove", "unlink", "getcwd", "mkdir", "makedirs", "listdir", "rmdir", "rename",
            "replace", "fspath",
        ],
    ),
    ("_tempfile", &["gettempdir", "name"]),
];

impl Interpreter {
    /// Calls `os.name(...)` / `os.path.name(...)` (`name` given after `os.`:
    /// `path.exists`).
    pub(super) fn os_function(
        &mut self,
        name: &str,
        args: Vec<Value>,
        keywords: Vec<(Rc<str>, Value)>,
    ) -> Flow<Value> {
        let mut keywords = keywords;
        let mut take = |key: &str| {
            keywords
                .iter()
                .position(|(k, _)| &**k == key)
                .map(|i| keywords.remove(i).1)
        };
        let exist_ok = if name == "makedirs" {
            take("exist_ok")
        } else {
            None
        };
        // Permission bits are the system's default: tensh's folders take no mode.
        if matches!(name, "mkdir" | "makedirs") {
            take("mode");
        }
        if let Some((k, _)) = keywords.first() {
            return self.raise(
                "TypeError",
                format!("'{k}' is an invalid keyword argument for {name}()"),
            );
        }
        let short = name.rsplit('.').next().unwrap_or(name);
        match name {
            "getcwd" => Ok(Value::str(current_dir())),
            "fspath" => match args.first() {
                Some(v) => Ok(Value::Str(self.path_text(v)?)),
                None => self.raise(
                    "TypeError",
                    "fspath() missing required argument 'path' (pos 1)",
                ),
            },
            "remove" | "unlink" => {
                let p = self.path_argument(args.first(), short)?;
                let r = crate::platform::fs::remove_file(&*p);
                self.os_result(r, &p)
            }
            "mkdir" => {
                let p = self.path_argument(args.first(), short)?;
                let r = crate::platform::fs::create_dir(&*p);
                self.os_result(r, &p)
            }
            "makedirs" => {
                let p = self.path_argument(args.first(), short)?;
                let exist_ok = match exist_ok {
                    Some(v) => self.truthy(&v)?,
                    None => false,
                };
                self.make_dirs(&p, exist_ok)
            }
            "rmdir" => {
                let p = self.path_argument(args.first(), short)?;
                let r = crate::platform::fs::remove_dir(&*p);
                self.os_result(r, &p)
            }
            "listdir" => {
                let p = match args.first() {
                    None => Rc::from("."),
                    some => self.path_argument(some, short)?,
                };
                match crate::platform::fs::list_dir(&*p) {
                    Ok(names) => {
                        crate::platform::varies::note();
                        Ok(Value::list(names.into_iter().map(Value::str).collect()))
                    }
                    Err(e) => self.os_failure(e, &p),
                }
            }
            "rename" | "replace" => {
                let from = self.path_argument(args.first(), short)?;
                let to = self.path_argument(args.get(1), short)?;
                let r = crate::platform::fs::rename(&*from, &*to);
                self.os_result(r, &from)
            }
            _ => match name.strip_prefix("path.") {
                Some(f) => self.os_path_function(f, &args),
                None => self.raise(
                    "AttributeError",
                    format!("module 'os' has no attribute '{name}'"),
                ),
            },
        }
    }

    /// The functions of `os.path`.
    fn os_path_function(&mut self, name: &str, args: &[Value]) -> Flow<Value> {
        if name == "join" {
            let Some(first) = args.first() else {
                return self.raise(
                    "TypeError",
                    "join() missing 1 required positional argument: 'a'",
                );
            };
            let mut path = self.path_text(first)?.to_string();
            for a in &args[1..] {
                let part = self.path_text(a)?;
                if part.starts_with('/') || path.is_empty() {
                    path = part.to_string();
                } else if path.ends_with('/') {
                    path.push_str(&part);
                } else {
                    path.push('/');
                    path.push_str(&part);
                }
            }
            return Ok(Value::str(path));
        }
        let Some(first) = args.first() else {
            return self.raise(
                "TypeError",
                format!("{name}() missing 1 required positional argument: 'p'"),
            );
        };
        if matches!(name, "exists" | "isdir" | "isfile") {
            // These answer `False` for what is no path, as CPython's do.
            let Ok(p) = self.path_text(first) else {
                return Ok(Value::Bool(false));
            };
            let p = &*p;
            return Ok(Value::Bool(match name {
                "exists" => crate::platform::fs::exists(p),
                "isdir" => crate::platform::fs::is_dir(p),
                _ => crate::platform::fs::is_file(p),
            }));
        }
        let p = self.path_text(first)?;
        match name {
            "getsize" => match crate::platform::fs::len(&*p) {
                Ok(n) => Ok(Value::Int(n as i64)),
                Err(e) => self.os_failure(e, &p),
            },
            "basename" => Ok(Value::str(split(&p).1)),
            "dirname" => Ok(Value::str(split(&p).0)),
            "split" => {
                let (head, tail) = split(&p);
                Ok(Value::tuple(vec![Value::str(head), Value::str(tail)]))
            }
            "splitext" => {
                let (root, ext) = split_extension(&p);
                Ok(Value::tuple(vec![Value::str(root), Value::str(ext)]))
            }
            "isabs" => Ok(Value::Bool(p.starts_with('/'))),
            "normpath" => Ok(Value::str(normalized(&p))),
            "abspath" => {
                let full = if p.starts_with('/') {
                    p.to_string()
                } else {
                    format!("{}/{p}", current_dir())
                };
                Ok(Value::str(normalized(&full)))
            }
            other => self.raise(
                "AttributeError",
                format!("module 'posixpath' has no attribute '{other}'"),
            ),
        }
    }

    /// `_tempfile.gettempdir()` (the system's folder for temporary files: `$TMPDIR` or
    /// `/tmp`) and `_tempfile.name()` (eight random letters and digits, as CPython's names
    /// are made of).
    pub(super) fn temp_function(&mut self, name: &str) -> Flow<Value> {
        match name {
            "gettempdir" => Ok(Value::str(temp_dir())),
            "name" => {
                crate::platform::varies::note();
                Ok(Value::str(random_name()))
            }
            other => self.raise(
                "AttributeError",
                format!("module '_tempfile' has no attribute '{other}'"),
            ),
        }
    }

    /// `os.makedirs`: each missing folder along `path` made; the last one already there
    /// is `FileExistsError` unless `exist_ok`.
    fn make_dirs(&mut self, path: &Rc<str>, exist_ok: bool) -> Flow<Value> {
        let mut at = String::new();
        let parts: Vec<&str> = path.split('/').collect();
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                at.push('/');
            }
            at.push_str(part);
            if part.is_empty() || *part == "." {
                continue;
            }
            let last = i + 1 == parts.len() || parts[i + 1..].iter().all(|p| p.is_empty());
            if crate::platform::fs::is_dir(&at) && !last {
                continue;
            }
            match crate::platform::fs::create_dir(&at) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    if last && !(exist_ok && crate::platform::fs::is_dir(&at)) {
                        return self.os_failure(e, path);
                    }
                }
                Err(e) => return self.os_failure(e, path),
            }
        }
        Ok(Value::None)
    }

    /// `None`, or the failure's `OSError`.
    fn os_result(&mut self, r: std::io::Result<()>, path: &str) -> Flow<Value> {
        match r {
            Ok(()) => Ok(Value::None),
            Err(e) => self.os_failure(e, path),
        }
    }

    /// The `OSError` subclass CPython raises for `e` on `path`, in its words.
    pub(super) fn os_failure<T>(&mut self, e: std::io::Error, path: &str) -> Flow<T> {
        let code = crate::platform::fs::error_code(&e);
        let kind = match code {
            2 => "FileNotFoundError",
            1 | 13 => "PermissionError",
            17 => "FileExistsError",
            20 => "NotADirectoryError",
            21 => "IsADirectoryError",
            _ => "OSError",
        };
        let text = e.to_string();
        let text = text.split(" (os error").next().unwrap_or(&text).to_string();
        self.raise(kind, format!("[Errno {code}] {text}: '{path}'"))
    }

    /// A path argument of an `os` function: a str, or what `__fspath__` gives.
    fn path_argument(&mut self, v: Option<&Value>, function: &str) -> Flow<Rc<str>> {
        let Some(v) = v else {
            return self.raise(
                "TypeError",
                format!("{function}() missing required argument 'path' (pos 1)"),
            );
        };
        match self.fspath(v)? {
            Some(p) => Ok(p),
            None => self.raise(
                "TypeError",
                format!(
                    "{function}: path should be string, bytes or os.PathLike, not {}",
                    v.type_name()
                ),
            ),
        }
    }

    /// A path argument of an `os.path` function.
    fn path_text(&mut self, v: &Value) -> Flow<Rc<str>> {
        match self.fspath(v)? {
            Some(p) => Ok(p),
            None => self.raise(
                "TypeError",
                format!(
                    "expected str, bytes or os.PathLike object, not {}",
                    v.type_name()
                ),
            ),
        }
    }

    /// `v` as a path: a str itself, an object with `__fspath__` what it returns; `None` for
    /// other values.
    pub(super) fn fspath(&mut self, v: &Value) -> Flow<Option<Rc<str>>> {
        match v {
            Value::Str(s) => Ok(Some(s.clone())),
            Value::Instance(_) if Self::has_special(v, "__fspath__") => {
                match self.special(v, "__fspath__", Vec::new())? {
                    Some(Value::Str(s)) => Ok(Some(s)),
                    Some(other) => self.raise(
                        "TypeError",
                        format!(
                            "expected {}.__fspath__() to return str or bytes, not {}",
                            v.type_name(),
                            other.type_name()
                        ),
                    ),
                    None => Ok(None),
                }
            }
            _ => Ok(None),
        }
    }
}

/// The working folder (in the page, the file system's root).
fn current_dir() -> String {
    std::env::current_dir().map_or_else(|_| "/".into(), |p| p.to_string_lossy().into_owned())
}

/// The folder for temporary files.
fn temp_dir() -> String {
    #[cfg(not(target_arch = "wasm32"))]
    return std::env::temp_dir()
        .to_string_lossy()
        .trim_end_matches('/')
        .to_string();
    #[cfg(target_arch = "wasm32")]
    return "/tmp".into();
}

/// Eight characters drawn from CPython's alphabet for temporary names, from the clock and
/// a counter (names differ run to run, as CPython's do).
fn random_name() -> String {
    use std::cell::Cell;
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789_";
    thread_local! {
        static STATE: Cell<u64> = const { Cell::new(0) };
    }
    STATE.with(|state| {
        let mut x = state.get();
        if x == 0 {
            let now = crate::platform::clock::since_epoch();
            #[cfg(not(target_arch = "wasm32"))]
            let process = std::process::id() as u64;
            #[cfg(target_arch = "wasm32")]
            let process = 0u64;
            x = (now.as_nanos() as u64) ^ process.rotate_left(32) | 1;
        }
        let mut out = String::with_capacity(8);
        for _ in 0..8 {
            // xorshift64*
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            let r = x.wrapping_mul(0x2545_f491_4f6c_dd1d);
            out.push(LETTERS[(r >> 33) as usize % LETTERS.len()] as char);
        }
        state.set(x);
        out
    })
}

/// `os.path.split`: the part before the last `/` (its trailing slashes dropped unless it
/// is all slashes) and the part after.
fn split(p: &str) -> (String, String) {
    let i = p.rfind('/').map_or(0, |i| i + 1);
    let (head, tail) = p.split_at(i);
    let head = if !head.is_empty() && head.chars().any(|c| c != '/') {
        head.trim_end_matches('/')
    } else {
        head
    };
    (head.to_string(), tail.to_string())
}

/// `os.path.splitext`: the last `.` of the last component starts the extension, unless
/// only dots come before it there (`.bashrc` has none).
fn split_extension(p: &str) -> (String, String) {
    let sep = p.rfind('/').map_or(0, |i| i + 1);
    if let Some(dot) = p.rfind('.')
        && dot > sep
        && p[sep..dot].chars().any(|c| c != '.')
    {
        return (p[..dot].to_string(), p[dot..].to_string());
    }
    (p.to_string(), String::new())
}

/// `os.path.normpath`: `.` and empty components dropped, `..` taken back where it can be;
/// one or two leading slashes kept (three or more become one).
fn normalized(p: &str) -> String {
    if p.is_empty() {
        return ".".into();
    }
    let leading = if p.starts_with("//") && !p.starts_with("///") {
        "//"
    } else if p.starts_with('/') {
        "/"
    } else {
        ""
    };
    let mut parts: Vec<&str> = Vec::new();
    for c in p.split('/') {
        match c {
            "" | "." => {}
            ".." if leading.is_empty() && (parts.is_empty() || parts.last() == Some(&"..")) => {
                parts.push("..")
            }
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    let body = parts.join("/");
    let out = format!("{leading}{body}");
    if out.is_empty() { ".".into() } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_as_posixpath_splits_them() {
        assert_eq!(split("a/b/c.pt"), ("a/b".into(), "c.pt".into()));
        assert_eq!(split("/x"), ("/".into(), "x".into()));
        assert_eq!(split("x"), ("".into(), "x".into()));
        assert_eq!(split("a//b/"), ("a//b".into(), "".into()));
        assert_eq!(
            split_extension("a/b.tar.gz"),
            ("a/b.tar".into(), ".gz".into())
        );
        assert_eq!(split_extension(".bashrc"), (".bashrc".into(), "".into()));
        assert_eq!(split_extension("a.d/b"), ("a.d/b".into(), "".into()));
        assert_eq!(split_extension("..x"), ("..x".into(), "".into()));
        assert_eq!(normalized("a/./b/../c//"), "a/c");
        assert_eq!(normalized("../a/.."), "..");
        assert_eq!(normalized("///a/../.."), "/");
        assert_eq!(normalized("//a"), "//a");
        assert_eq!(normalized(""), ".");
        assert_eq!(random_name().len(), 8);
    }
}
