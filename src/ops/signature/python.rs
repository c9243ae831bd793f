//! Signatures of what PyTorch implements outside its C++ argument parser, checked with the
//! interpreter's own words: Python functions (`Tensor.split(self, split_size, dim=0)`),
//! C functions that parse a tuple and keywords (`UntypedStorage.from_file`), and the
//! builtins a script spells as methods (`len(x)` is `x.len()`, `list(s)` is `s.tolist()`).

use crate::ops::args::Args;
use crate::ops::errors::{RhaiResult, type_error};

/// How a Python parameter may be given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PyKind {
    /// Before `/`: by position only.
    PositionalOnly,
    /// By position or by keyword.
    Either,
    /// After `*` or `*args`: by keyword only.
    KeywordOnly,
}

/// One parameter of a Python function.
#[derive(Debug, Clone)]
struct PyParam {
    name: &'static str,
    has_default: bool,
    kind: PyKind,
}

/// A Python function's signature: `Tensor.split(self, split_size, dim=0)`.
#[derive(Debug, Clone)]
pub struct PySignature {
    /// The name in messages (`Tensor.split`).
    pub qual: &'static str,
    /// The parameter list as written, for `:help`.
    pub text: &'static str,
    params: Vec<PyParam>,
    /// Whether the first parameter (`self`, `cls`) is the receiver, never given by a script.
    implicit_first: bool,
    var_args: bool,
    var_kwargs: bool,
}

/// Splits `a, b=1, *, c` at top-level commas (defaults such as `(1, 2)` stay whole).
fn split_params(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out.retain(|s| !s.is_empty());
    out
}

impl PySignature {
    /// Parses `Tensor.split(self, split_size, dim=0)`.
    pub fn parse(text: &'static str) -> Option<PySignature> {
        let (qual, rest) = text.split_once('(')?;
        let inner = rest.strip_suffix(')')?;
        let mut sig = PySignature {
            qual,
            text: inner,
            params: Vec::new(),
            implicit_first: false,
            var_args: false,
            var_kwargs: false,
        };
        let mut kind = PyKind::Either;
        for (i, item) in split_params(inner).into_iter().enumerate() {
            match item {
                "/" => {
                    for p in &mut sig.params {
                        p.kind = PyKind::PositionalOnly;
                    }
                }
                "*" => kind = PyKind::KeywordOnly,
                _ if item.starts_with("**") => sig.var_kwargs = true,
                _ if item.starts_with('*') => {
                    sig.var_args = true;
                    kind = PyKind::KeywordOnly;
                }
                _ => {
                    let (name, default) = match item.split_once('=') {
                        Some((n, _)) => (n.trim(), true),
                        None => (item, false),
                    };
                    if i == 0 && (name == "self" || name == "cls") {
                        sig.implicit_first = true;
                    }
                    sig.params.push(PyParam {
                        name,
                        has_default: default,
                        kind,
                    });
                }
            }
        }
        Some(sig)
    }

    /// Checks a call (the receiver, if any, is not in `args`) as CPython binds arguments.
    pub fn check(&self, args: &Args) -> RhaiResult<()> {
        let q = self.qual;
        let implicit = usize::from(self.implicit_first);
        let given = args.pos.len() + implicit;
        let positional: Vec<&PyParam> = self
            .params
            .iter()
            .filter(|p| p.kind != PyKind::KeywordOnly)
            .collect();
        let bound = given.min(positional.len());
        let mut positional_only_by_keyword = Vec::new();
        let mut keyword_only_given = 0;
        for key in args.kw.keys() {
            let key = key.as_str();
            match self.params.iter().position(|p| p.name == key) {
                Some(i) if self.params[i].kind == PyKind::PositionalOnly => {
                    if !self.var_kwargs {
                        positional_only_by_keyword.push(format!("'{key}'"));
                    }
                }
                Some(i) if i < bound => {
                    return Err(type_error(format!(
                        "{q}() got multiple values for argument '{key}'"
                    )));
                }
                Some(i) => {
                    if self.params[i].kind == PyKind::KeywordOnly {
                        keyword_only_given += 1;
                    }
                }
                None if self.var_kwargs => {}
                None => {
                    return Err(type_error(format!(
                        "{q}() got an unexpected keyword argument '{key}'"
                    )));
                }
            }
        }
        if !positional_only_by_keyword.is_empty() {
            return Err(type_error(format!(
                "{q}() got some positional-only arguments passed as keyword arguments: {}",
                positional_only_by_keyword.join(", ")
            )));
        }
        if given > positional.len() && !self.var_args {
            let max = positional.len();
            let min = positional.iter().filter(|p| !p.has_default).count();
            let takes = if min == max {
                format!(
                    "{max} positional argument{}",
                    if max == 1 { "" } else { "s" }
                )
            } else {
                format!("from {min} to {max} positional arguments")
            };
            let was = match (keyword_only_given, given) {
                (0, 1) => "1 was".to_string(),
                (0, n) => format!("{n} were"),
                (k, n) => format!(
                    "{n} positional argument{} (and {k} keyword-only argument{}) were",
                    if n == 1 { "" } else { "s" },
                    if k == 1 { "" } else { "s" }
                ),
            };
            return Err(type_error(format!("{q}() takes {takes} but {was} given")));
        }
        let missing = |kind_ok: &dyn Fn(&PyParam) -> bool, start: usize| -> Vec<&'static str> {
            self.params
                .iter()
                .enumerate()
                .filter(|(i, p)| {
                    *i >= start && kind_ok(p) && !p.has_default && !args.kw.contains_key(p.name)
                })
                .map(|(_, p)| p.name)
                .collect()
        };
        let positional_missing = missing(&|p| p.kind != PyKind::KeywordOnly, bound);
        if !positional_missing.is_empty() {
            return Err(type_error(missing_message(
                q,
                "positional",
                &positional_missing,
            )));
        }
        let keyword_missing = missing(&|p| p.kind == PyKind::KeywordOnly, 0);
        if !keyword_missing.is_empty() {
            return Err(type_error(missing_message(
                q,
                "keyword-only",
                &keyword_missing,
            )));
        }
        Ok(())
    }
}

/// `f() missing 2 required positional arguments: 'a' and 'b'`.
fn missing_message(q: &str, what: &str, names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    let list = match quoted.as_slice() {
        [one] => one.clone(),
        [a, b] => format!("{a} and {b}"),
        [init @ .., last] => format!("{}, and {last}", init.join(", ")),
        [] => String::new(),
    };
    let n = names.len();
    format!(
        "{q}() missing {n} required {what} argument{}: {list}",
        if n == 1 { "" } else { "s" }
    )
}

/// A C function that parses its tuple and keywords with CPython's helper (names, and which
/// may be left out), as `UntypedStorage.from_file(filename, shared=False, nbytes=0)`.
#[derive(Debug, Clone)]
pub struct TupleSignature {
    /// The parameter list as written, for `:help`.
    pub text: &'static str,
    params: Vec<(&'static str, bool)>,
    /// A keyword the Python wrapper always passes itself (`... | dtype`): CPython counts
    /// and places it as if the call had it.
    injected: Option<&'static str>,
}

impl TupleSignature {
    /// Parses `filename, shared = False, nbytes = 0`.
    pub fn parse(text: &'static str) -> TupleSignature {
        let (text, injected) = match text.split_once(" | ") {
            Some((params, injected)) => (params, Some(injected.trim())),
            None => (text, None),
        };
        let params = split_params(text)
            .into_iter()
            .map(|item| match item.split_once('=') {
                Some((n, _)) => (n.trim(), true),
                None => (item, false),
            })
            .collect();
        TupleSignature {
            text,
            params,
            injected,
        }
    }

    /// Checks a call with CPython's messages for such functions.
    pub fn check(&self, args: &Args) -> RhaiResult<()> {
        let n = self.params.len();
        let injected = self.injected.filter(|k| !args.kw.contains_key(*k));
        let total = args.pos.len() + args.kw.len() + usize::from(injected.is_some());
        if total > n {
            return Err(type_error(format!(
                "function takes at most {n} argument{} ({total} given)",
                if n == 1 { "" } else { "s" }
            )));
        }
        for (i, (name, optional)) in self.params.iter().enumerate() {
            let by_keyword = args.kw.contains_key(*name) || injected == Some(*name);
            if i < args.pos.len() && by_keyword {
                return Err(type_error(format!(
                    "argument for function given by name ('{name}') and position ({})",
                    i + 1
                )));
            }
            if i >= args.pos.len() && !by_keyword && !optional {
                return Err(type_error(format!(
                    "function missing required argument '{name}' (pos {})",
                    i + 1
                )));
            }
        }
        if let Some(key) = args
            .kw
            .keys()
            .find(|k| !self.params.iter().any(|(n, _)| *n == k.as_str()))
        {
            return Err(type_error(format!(
                "'{key}' is an invalid keyword argument for this function"
            )));
        }
        Ok(())
    }
}

/// The builtins a script writes as methods: `len`, `list` and `tuple`.
pub fn check_builtin(name: &str, receiver: bool, args: &Args) -> RhaiResult<()> {
    if !args.kw.is_empty() {
        return Err(type_error(format!("{name}() takes no keyword arguments")));
    }
    let given = args.pos.len() + usize::from(receiver);
    match name {
        "len" if given != 1 => Err(type_error(format!(
            "len() takes exactly one argument ({given} given)"
        ))),
        "len" => Ok(()),
        _ if given > 1 => Err(type_error(format!(
            "{name} expected at most 1 argument, got {given}"
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rhai::{Dynamic, Map};

    fn call(pos: usize, kw: &[&str]) -> Args {
        let mut m = Map::new();
        for k in kw {
            m.insert((*k).into(), Dynamic::from(1_i64));
        }
        Args::from_parts(vec![Dynamic::from(1_i64); pos], m, &Args::default())
    }

    fn err(sig: &PySignature, args: Args) -> String {
        sig.check(&args).unwrap_err().to_string()
    }

    #[test]
    fn python_methods_count_self() {
        let s = PySignature::parse("Tensor.split(self, split_size, dim=0)").unwrap();
        assert!(s.check(&call(1, &[])).is_ok());
        assert!(s.check(&call(1, &["dim"])).is_ok());
        assert!(
            err(&s, call(3, &[]))
                .contains("Tensor.split() takes from 2 to 3 positional arguments but 4 were given")
        );
        assert!(
            err(&s, call(0, &[])).contains("missing 1 required positional argument: 'split_size'")
        );
        assert!(
            err(&s, call(1, &["split_size"])).contains("multiple values for argument 'split_size'")
        );
        assert!(err(&s, call(1, &["zzz"])).contains("got an unexpected keyword argument 'zzz'"));
        let u = PySignature::parse("Tensor.unflatten(self, dim, sizes)").unwrap();
        assert!(
            err(&u, call(0, &[]))
                .contains("missing 2 required positional arguments: 'dim' and 'sizes'")
        );
    }

    #[test]
    fn positional_only_keyword_only_and_varargs() {
        let s = PySignature::parse("set_default_dtype(d, /)").unwrap();
        assert!(
            err(&s, call(0, &["d"]))
                .contains("positional-only arguments passed as keyword arguments: 'd'")
        );
        let to =
            PySignature::parse("_StorageBase.to(self, *, device, non_blocking=False)").unwrap();
        assert!(err(&to, call(1, &[])).contains("takes 1 positional argument but 2 were given"));
        assert!(
            err(&to, call(0, &[])).contains("missing 1 required keyword-only argument: 'device'")
        );
        let new =
            PySignature::parse("TypedStorage.__new__(cls, *args, wrap_storage=None, dtype=None)")
                .unwrap();
        assert!(new.check(&call(5, &["dtype"])).is_ok());
        assert!(err(&new, call(0, &["zzz"])).contains("__new__() got an unexpected keyword"));
    }

    #[test]
    fn tuple_parsed_c_functions() {
        let s = TupleSignature::parse("filename, shared = False, nbytes = 0");
        assert!(s.check(&call(1, &["nbytes"])).is_ok());
        let e = |a| s.check(&a).unwrap_err().to_string();
        assert!(e(call(4, &[])).contains("function takes at most 3 arguments (4 given)"));
        assert!(e(call(0, &[])).contains("function missing required argument 'filename' (pos 1)"));
        assert!(
            e(call(1, &["zzz"])).contains("'zzz' is an invalid keyword argument for this function")
        );
    }

    #[test]
    fn builtins() {
        assert!(check_builtin("len", true, &call(0, &[])).is_ok());
        let e = check_builtin("len", true, &call(1, &[]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("len() takes exactly one argument (2 given)"));
        let e = check_builtin("list", true, &call(1, &[]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("list expected at most 1 argument, got 2"));
        let e = check_builtin("tuple", false, &call(0, &["a"]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("tuple() takes no keyword arguments"));
    }
}
