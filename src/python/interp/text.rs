//! Text of values: `str`, `repr` (Python's for its values, PyTorch's for tensh's), `format`
//! with a spec, and `%` formatting.

use super::{Flow, Interpreter};
use crate::ops::values::Device;
use crate::python::format::{self, Formattable, PercentPart};
use crate::python::value::Value;

/// Python's repr of a string: single quotes unless the text has one and no double quote.
pub fn string_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

impl Interpreter {
    /// `str(v)`.
    pub(super) fn str_text(&mut self, v: &Value) -> Flow<String> {
        if let Some(text) = self.text_method(v, "__str__")? {
            return Ok(text);
        }
        match v {
            Value::Str(s) => Ok(s.to_string()),
            Value::Exception(e) => {
                if let Some(text) = &e.text {
                    return Ok(text.clone());
                }
                let args = e.args.borrow().clone();
                match args.as_slice() {
                    [] => Ok(String::new()),
                    [one] if &*e.class.name == "KeyError" => self.repr_text(one),
                    [one] => self.str_text(one),
                    many => self.repr_text(&Value::tuple(many.to_vec())),
                }
            }
            Value::Host(d) if d.is::<Device>() => {
                // `str(device)` is its type and index (`cpu`, `cuda:1`); the repr is
                // `device(type='cpu')`.
                let device = d.clone_cast::<Device>();
                Ok(match device.index {
                    Some(i) => format!("{}:{i}", device.kind),
                    None => device.kind.to_string(),
                })
            }
            other => self.repr_text(other),
        }
    }

    /// The text an instance's own `__str__` or `__repr__` (`method`) gives; `None` for
    /// other values and for classes without it.
    fn text_method(&mut self, v: &Value, method: &str) -> Flow<Option<String>> {
        let Some(class) = Self::class_of_instance(v) else {
            return Ok(None);
        };
        if class.find(method).is_none() {
            if let Some(base) = Self::base_value(v) {
                // A subclass of a builtin type without its own: the type's (`{'a': 1}`).
                let text = if method == "__str__" && class.find("__repr__").is_some() {
                    self.special(v, "__repr__", Vec::new())?
                        .map(|r| self.str_text(&r))
                        .transpose()?
                        .unwrap_or_default()
                } else if method == "__str__" {
                    self.str_text(&base)?
                } else {
                    self.repr_text(&base)?
                };
                return Ok(Some(text));
            }
            if method == "__str__" && matches!(v, Value::Instance(_)) {
                // `object.__str__` is the repr.
                return self.repr_text(v).map(Some);
            }
            return Ok(None);
        }
        match self.special(v, method, Vec::new())? {
            Some(Value::Str(s)) => Ok(Some(s.to_string())),
            Some(other) => self.raise(
                "TypeError",
                format!("{method} returned non-string (type {})", other.type_name()),
            ),
            None => Ok(None),
        }
    }

    /// `repr(v)`.
    pub(super) fn repr_text(&mut self, v: &Value) -> Flow<String> {
        self.repr_at(v, 0)
    }

    fn repr_at(&mut self, v: &Value, depth: usize) -> Flow<String> {
        if depth + self.frames.len() > super::RECURSION_LIMIT {
            return self.raise(
                "RecursionError",
                "maximum recursion depth exceeded while getting the repr of an object",
            );
        }
        if let Some(text) = self.text_method(v, "__repr__")? {
            return Ok(text);
        }
        Ok(match v {
            Value::Instance(_) | Value::Class(_) => self.default_repr(v),
            Value::NotImplemented => "NotImplemented".into(),
            Value::Bound(b) => {
                let (receiver, f) = (&b.0, &b.1);
                let name = match f {
                    Value::Function(f) => f.name.to_string(),
                    other => other.type_name(),
                };
                let owner = match Self::class_of_instance(receiver) {
                    Some(c) => c.qualname.to_string(),
                    None => match receiver {
                        Value::Class(c) => c.qualname.to_string(),
                        other => other.type_name(),
                    },
                };
                let receiver = self.repr_at(receiver, depth + 1)?;
                format!("<bound method {owner}.{name} of {receiver}>")
            }
            Value::Descriptor(d) => {
                use crate::python::value::class::Descriptor;
                crate::platform::varies::note();
                match &**d {
                    Descriptor::Property { .. } => {
                        format!(
                            "<property object at {:#x}>",
                            std::rc::Rc::as_ptr(d) as usize
                        )
                    }
                    Descriptor::Static(f) | Descriptor::ClassMethod(f) => {
                        let inner = self.repr_at(f, depth + 1)?;
                        format!("<{}({inner})>", v.type_name())
                    }
                }
            }
            Value::Super(s) => {
                let receiver = self.repr_at(&s.1, depth + 1)?;
                format!("<super: <class '{}'>, {receiver}>", s.0.name)
            }
            Value::None => "None".into(),
            Value::Bool(true) => "True".into(),
            Value::Bool(false) => "False".into(),
            Value::Int(i) => i.to_string(),
            Value::BigInt(i) => match crate::python::long::to_decimal(i) {
                Ok(text) => text,
                Err(e) => return Err(self.throw(e)),
            },
            Value::Float(f) => crate::print::number::float_repr(*f),
            Value::Complex(c) => crate::print::number::complex_repr(c.re, c.im),
            Value::Str(s) => string_repr(s),
            Value::List(items) => {
                let key = std::rc::Rc::as_ptr(items) as usize;
                let items = items.borrow().clone();
                self.container_repr(key, "[...]", |me| {
                    Ok(format!("[{}]", me.join_reprs(&items, depth)?))
                })?
            }
            Value::Tuple(items) => {
                if items.len() == 1 {
                    format!("({},)", self.repr_at(&items[0], depth + 1)?)
                } else {
                    format!("({})", self.join_reprs(items, depth)?)
                }
            }
            Value::DictView(kind, entries) => {
                // `dict_keys(['a', 'b'])`: the view's items as a list's repr.
                let key = std::rc::Rc::as_ptr(entries) as usize;
                let items = kind.items(&entries.borrow());
                let name = kind.type_name();
                self.container_repr(key, &format!("{name}([...])"), |me| {
                    Ok(format!("{name}([{}])", me.join_reprs(&items, depth)?))
                })?
            }
            Value::Set(items) => {
                let items = items.borrow().items();
                if items.is_empty() {
                    "set()".into()
                } else {
                    format!("{{{}}}", self.join_reprs(&items, depth)?)
                }
            }
            Value::Dict(entries) => {
                let key = std::rc::Rc::as_ptr(entries) as usize;
                let entries = entries.borrow().pairs();
                self.container_repr(key, "{...}", |me| {
                    Ok(format!("{{{}}}", me.dict_items_repr(&entries, depth)?))
                })?
            }
            Value::Range(start, stop, step) => {
                if *step == 1 {
                    format!("range({start}, {stop})")
                } else {
                    format!("range({start}, {stop}, {step})")
                }
            }
            Value::Slice(parts) => format!(
                "slice({}, {}, {})",
                self.repr_at(&parts[0], depth + 1)?,
                self.repr_at(&parts[1], depth + 1)?,
                self.repr_at(&parts[2], depth + 1)?
            ),
            Value::Ellipsis => "Ellipsis".into(),
            Value::Function(f) => {
                crate::platform::varies::note();
                format!(
                    "<function {} at {:#x}>",
                    f.qualname,
                    std::rc::Rc::as_ptr(f) as usize
                )
            }
            Value::Builtin(name) => format!(
                "<built-in function {}>",
                name.rsplit('.').next().unwrap_or(name)
            ),
            Value::Method(m) => format!(
                "<bound method {} of {}>",
                m.1,
                self.repr_at(&m.0, depth + 1)?
            ),
            Value::Module(name) => format!("<module '{name}' (built-in)>"),
            Value::HostPath(path) => {
                let dotted = path.replace("::", ".");
                if &**path == "torch" {
                    "<module 'torch' (tensh)>".into()
                } else {
                    format!("<built-in method {} of tensh>", dotted)
                }
            }
            Value::Type(t) => t.repr(),
            Value::Exception(e) => {
                let args = e.args.borrow().clone();
                let inner = if let Some(text) = &e.text {
                    string_repr(text)
                } else {
                    self.join_reprs(&args, depth)?
                };
                format!("{}({inner})", e.class.name)
            }
            Value::Iterator(_) => "<iterator object>".into(),
            Value::GradMode(m) => format!("<torch.autograd.grad_mode.{} object>", m.0),
            Value::File(f) if f.borrow().memory => {
                crate::platform::varies::note();
                format!(
                    "<_io.{} object at {:#x}>",
                    v.type_name(),
                    std::rc::Rc::as_ptr(f) as usize
                )
            }
            Value::File(f) => format!("<_io.{} name='{}'>", v.type_name(), f.borrow().name),
            Value::Tensor(t) => self.lift(self.host.repr(rhai::Dynamic::from(t.clone())))?,
            Value::Host(d) => self.lift(self.host.repr(d.clone()))?,
        })
    }

    /// The repr `make` gives the list or dict at `key`, or `cut` when that container's repr
    /// is being made already (it holds itself).
    fn container_repr(
        &mut self,
        key: usize,
        cut: &str,
        make: impl FnOnce(&mut Self) -> Flow<String>,
    ) -> Flow<String> {
        if self.repr_active.contains(&key) {
            return Ok(cut.into());
        }
        self.repr_active.push(key);
        let text = make(self);
        self.repr_active.pop();
        text
    }

    /// `k: v, ...` of a dict's entries.
    fn dict_items_repr(&mut self, entries: &[(Value, Value)], depth: usize) -> Flow<String> {
        let mut parts = Vec::with_capacity(entries.len());
        for (k, v) in entries {
            parts.push(format!(
                "{}: {}",
                self.repr_at(k, depth + 1)?,
                self.repr_at(v, depth + 1)?
            ));
        }
        Ok(parts.join(", "))
    }

    fn join_reprs(&mut self, items: &[Value], depth: usize) -> Flow<String> {
        let mut parts = Vec::with_capacity(items.len());
        for x in items {
            parts.push(self.repr_at(x, depth + 1)?);
        }
        Ok(parts.join(", "))
    }

    /// `format(v, spec)`.
    pub(super) fn format_value(&mut self, v: &Value, spec: &str) -> Flow<String> {
        if Self::class_of_instance(v).is_some() {
            return match self.special(v, "__format__", vec![Value::str(spec)])? {
                Some(Value::Str(s)) => Ok(s.to_string()),
                Some(other) => self.raise(
                    "TypeError",
                    format!("__format__ must return a str, not {}", other.type_name()),
                ),
                None => {
                    let r = self.object_method(
                        v,
                        "__format__",
                        super::expr::CallArgs {
                            args: vec![Value::str(spec)],
                            keywords: Vec::new(),
                        },
                    )?;
                    self.str_text(&r)
                }
            };
        }
        if let Value::Tensor(t) = v
            && t.ndim() == 0
        {
            // PyTorch's `Tensor.__format__`: a 0-d tensor formats as its item.
            let item = self.host_method(v.clone(), "item", Vec::new())?;
            return self.format_value(&item, spec);
        }
        if spec.is_empty() {
            return self.str_text(v);
        }
        let parsed = self.lift(format::parse_spec(spec))?;
        let text;
        let value = match v {
            Value::Int(i) => Formattable::Int(*i),
            Value::BigInt(n) => Formattable::Long(n),
            Value::Bool(b) => Formattable::Int(*b as i64),
            Value::Float(f) => Formattable::Float(*f),
            Value::Str(s) => Formattable::Str(s),
            Value::Tensor(t) => {
                // PyTorch formats a 0-d tensor as its item, any other by its str.
                if t.ndim() == 0 {
                    let item = self.host_method(v.clone(), "item", Vec::new())?;
                    return self.format_value(&item, spec);
                }
                text = self.str_text(v)?;
                Formattable::Str(&text)
            }
            other => {
                return self.raise(
                    "TypeError",
                    format!(
                        "unsupported format string passed to {}.__format__",
                        other.type_name()
                    ),
                );
            }
        };
        self.lift(format::format(value, &parsed))
    }

    /// `fmt % args`.
    pub(super) fn percent_format(&mut self, fmt: &str, args: &Value) -> Flow<String> {
        let parts = self.lift(format::parse_percent(fmt))?;
        let positional: Vec<Value> = match args {
            Value::Tuple(items) => items.to_vec(),
            other => vec![other.clone()],
        };
        let mut next = 0;
        let mut out = String::new();
        for part in parts {
            match part {
                PercentPart::Text(t) => out.push_str(&t),
                PercentPart::Item(item) => {
                    let value = match &item.key {
                        Some(key) => {
                            let Value::Dict(_) = args else {
                                return self.raise("TypeError", "format requires a mapping");
                            };
                            self.get_item(args, Value::str(key.as_str()))?
                        }
                        None => {
                            let Some(v) = positional.get(next).cloned() else {
                                return self
                                    .raise("TypeError", "not enough arguments for format string");
                            };
                            next += 1;
                            v
                        }
                    };
                    let formatted = match item.conversion {
                        's' => {
                            let s = self.str_text(&value)?;
                            self.lift(format::format(Formattable::Str(&s), &item.spec))?
                        }
                        'r' | 'a' => {
                            let s = self.repr_text(&value)?;
                            self.lift(format::format(Formattable::Str(&s), &item.spec))?
                        }
                        conversion => {
                            let number = match &value {
                                Value::Host(_) | Value::Tensor(_) => {
                                    self.host_method(value.clone(), "item", Vec::new())?
                                }
                                v => v.clone(),
                            };
                            let n = match (&number, conversion) {
                                (Value::Float(f), 'd' | 'x' | 'X' | 'o' | 'c') => {
                                    Formattable::Int(f.trunc() as i64)
                                }
                                (Value::Int(i), _) => Formattable::Int(*i),
                                (Value::BigInt(n), _) => Formattable::Long(n),
                                (Value::Bool(b), _) => Formattable::Int(*b as i64),
                                (Value::Float(f), _) => Formattable::Float(*f),
                                (other, _) => {
                                    return self.raise(
                                        "TypeError",
                                        format!("%{conversion} format: a real number is required, not {}", other.type_name()),
                                    );
                                }
                            };
                            self.lift(format::format(n, &item.spec))?
                        }
                    };
                    out.push_str(&formatted);
                }
            }
        }
        if next < positional.len() && !matches!(args, Value::Dict(_)) {
            return self.raise(
                "TypeError",
                "not all arguments converted during string formatting",
            );
        }
        Ok(out)
    }
}
