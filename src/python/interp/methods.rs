//! Attributes, and the methods of Python's own values (`str`, `list`, `dict`, `set`,
//! `tuple`, numbers, exceptions).

use std::rc::Rc;

use super::expr::CallArgs;
use super::{Flow, Interpreter, Unwind};
use crate::python::convert::{Arrays, from_dynamic, to_dynamic};
use crate::python::types::TypeKind;
use crate::python::value::dict::ViewKind;
use crate::python::value::iteration::PyIter;
use crate::python::value::{Seq, Value};

const STR_METHODS: &[&str] = &[
    "join",
    "split",
    "rsplit",
    "strip",
    "lstrip",
    "rstrip",
    "replace",
    "startswith",
    "endswith",
    "upper",
    "lower",
    "title",
    "capitalize",
    "format",
    "ljust",
    "rjust",
    "center",
    "zfill",
    "find",
    "rfind",
    "index",
    "count",
    "splitlines",
    "isdigit",
    "isalpha",
    "isspace",
    "isalnum",
    "isupper",
    "islower",
    "partition",
    "rpartition",
    "removeprefix",
    "removesuffix",
];
/// The special methods a builtin class answers when read from it beside `object`'s
/// (`dict.__getitem__`, `tuple.__new__`); called with the value to act on first.
const TYPE_SPECIAL_METHODS: &[&str] = &[
    "__new__",
    "__getitem__",
    "__setitem__",
    "__delitem__",
    "__len__",
    "__contains__",
    "__iter__",
    "__add__",
    "__sub__",
    "__mul__",
    "__truediv__",
    "__floordiv__",
    "__mod__",
    "__pow__",
    "__neg__",
];
/// Whether CPython's `str`, `list`, `tuple`, `dict` or `set` has the special method `name`
/// (read by name, `xs.__getitem__(0)`, it is the operation it stands for).
fn has_special_method(object: &Value, name: &str) -> bool {
    const EVERY: &[&str] = &[
        "__len__",
        "__contains__",
        "__iter__",
        "__eq__",
        "__ne__",
        "__repr__",
        "__str__",
    ];
    const ORDERED: &[&str] = &["__lt__", "__le__", "__gt__", "__ge__"];
    const SEQUENCE: &[&str] = &["__getitem__", "__add__", "__mul__", "__rmul__"];
    if EVERY.contains(&name) {
        return true;
    }
    match object {
        Value::Str(_) => {
            ORDERED.contains(&name)
                || SEQUENCE.contains(&name)
                || matches!(name, "__mod__" | "__hash__")
        }
        Value::Tuple(_) => {
            ORDERED.contains(&name) || SEQUENCE.contains(&name) || name == "__hash__"
        }
        Value::List(_) => {
            ORDERED.contains(&name)
                || SEQUENCE.contains(&name)
                || matches!(
                    name,
                    "__iadd__" | "__imul__" | "__setitem__" | "__delitem__"
                )
        }
        Value::Dict(_) => matches!(
            name,
            "__getitem__" | "__setitem__" | "__delitem__" | "__or__" | "__ior__"
        ),
        Value::Set(_) => {
            ORDERED.contains(&name)
                || matches!(
                    name,
                    "__and__"
                        | "__or__"
                        | "__xor__"
                        | "__sub__"
                        | "__iand__"
                        | "__ior__"
                        | "__ixor__"
                        | "__isub__"
                )
        }
        _ => false,
    }
}

const LIST_METHODS: &[&str] = &[
    "append", "extend", "pop", "insert", "remove", "index", "count", "sort", "reverse", "copy",
    "clear",
];
const DICT_METHODS: &[&str] = &[
    "keys",
    "values",
    "items",
    "get",
    "pop",
    "update",
    "setdefault",
    "copy",
    "clear",
    "popitem",
];
const SET_METHODS: &[&str] = &[
    "add",
    "remove",
    "discard",
    "pop",
    "update",
    "union",
    "intersection",
    "difference",
    "symmetric_difference",
    "isdisjoint",
    "issubset",
    "issuperset",
    "copy",
    "clear",
];

impl Interpreter {
    /// `object.name`.
    pub(super) fn get_attribute(&mut self, object: &Value, name: &str) -> Flow<Value> {
        if name == "__class__" && !matches!(object, Value::Class(_)) {
            return Ok(self.class_value(object));
        }
        if super::number_dunders::has_number_dunder(object, name) {
            return Ok(self.bound(object, name));
        }
        match object {
            Value::Instance(_) => match self.instance_attribute(object, name)? {
                Some(v) => Ok(v),
                None => self.no_attribute(object, name),
            },
            Value::Exception(e) if e.instance.is_some() => {
                match self.instance_attribute(object, name)? {
                    Some(v) => Ok(v),
                    None if name == "args" => Ok(Value::tuple(e.args.borrow().clone())),
                    None => self.no_attribute(object, name),
                }
            }
            Value::Class(c) => {
                let c = c.clone();
                self.class_attribute(&c, name)
            }
            Value::Super(s) => {
                let s = s.clone();
                self.super_attribute(&s, name)
            }
            // A builtin method read off a value: its name and its value, as CPython's.
            Value::Method(m) if matches!(name, "__name__" | "__qualname__" | "__self__") => {
                Ok(match name {
                    "__self__" => m.0.clone(),
                    "__name__" => Value::str(m.1.to_string()),
                    _ => Value::str(format!("{}.{}", m.0.type_name(), m.1)),
                })
            }
            Value::Bound(b) => match name {
                "__self__" => Ok(b.0.clone()),
                "__func__" => Ok(b.1.clone()),
                _ => self.get_attribute(&b.1.clone(), name),
            },
            Value::Descriptor(d) => {
                use crate::python::value::class::Descriptor;
                match (&**d, name) {
                    (Descriptor::Property { .. }, "setter" | "getter" | "deleter") => {
                        Ok(self.bound(object, name))
                    }
                    (Descriptor::Property { get, .. }, "fget") => Ok(get.clone()),
                    (Descriptor::Property { set, .. }, "fset") => Ok(set.clone()),
                    (Descriptor::Property { delete, .. }, "fdel") => Ok(delete.clone()),
                    (Descriptor::Property { doc, get, .. }, "__doc__") => match doc {
                        Value::None => self.get_attribute(&get.clone(), "__doc__"),
                        d => Ok(d.clone()),
                    },
                    (Descriptor::Static(f) | Descriptor::ClassMethod(f), "__func__") => {
                        Ok(f.clone())
                    }
                    _ => self.no_attribute(object, name),
                }
            }
            Value::Tensor(t) => {
                if name == "__dict__" {
                    let items = self.tensor_attributes.items(t);
                    return Ok(Value::dict(
                        items.into_iter().map(|(k, v)| (Value::Str(k), v)).collect(),
                    ));
                }
                if !self.tensor_attributes.is_empty()
                    && !self.host.tensor_has_property(name)
                    && let Some(v) = self.tensor_attributes.get(t, name)
                {
                    return Ok(v);
                }
                let r = self.host.get_tensor_attr(t, name);
                self.host_attribute(object, name, r)
            }
            Value::Host(d) => {
                let r = self.host.get_attr(d.clone(), name);
                self.host_attribute(object, name, r)
            }
            Value::HostPath(path) => {
                let path = path.clone();
                self.torch_attribute(&path, name)
            }
            Value::File(f) => {
                let f = f.clone();
                self.file_attribute(object, &f, name)
            }
            Value::Module(module) => {
                let module = module.clone();
                self.module_attribute(&module, name)
            }
            Value::Type(t) => match name {
                "__name__" | "__qualname__" => Ok(Value::str(t.name.as_ref())),
                "__module__" => Ok(Value::str(t.module)),
                _ if t.kind == TypeKind::Host
                    && &*t.name == "Tensor"
                    && !is_dunder(name)
                    && !self.host.tensor_has(name) =>
                {
                    self.raise(
                        "AttributeError",
                        format!("type object 'Tensor' has no attribute '{name}'"),
                    )
                }
                _ if t.kind == TypeKind::Host => {
                    Ok(Value::HostPath(format!("torch::{}::{name}", t.name).into()))
                }
                // `object.__setattr__`, `dict.__getitem__`, `str.join`: called with the
                // value to act on first.
                _ if t.kind == TypeKind::Builtin
                    && (TYPE_SPECIAL_METHODS.contains(&name)
                        || super::classes::OBJECT_METHODS.contains(&name)
                        || match &*t.name {
                            "str" => STR_METHODS.contains(&name),
                            "list" => LIST_METHODS.contains(&name),
                            "dict" => DICT_METHODS.contains(&name) || name == "fromkeys",
                            "set" => SET_METHODS.contains(&name),
                            "bytes" | "bytearray" => name == "hex",
                            "int" => name == "from_bytes",
                            _ => false,
                        }) =>
                {
                    Ok(self.bound(object, name))
                }
                _ => self.no_attribute(object, name),
            },
            Value::Function(f)
                if f.attrs
                    .borrow()
                    .as_ref()
                    .is_some_and(|a| a.borrow().get_str(name).is_some()) =>
            {
                let attrs = f.attrs.borrow().clone().unwrap_or_default();
                let v = attrs.borrow().get_str(name).cloned();
                Ok(v.unwrap_or(Value::None))
            }
            Value::Function(f) => match name {
                "__dict__" => {
                    let mut attrs = f.attrs.borrow_mut();
                    Ok(Value::Dict(
                        attrs.get_or_insert_with(Default::default).clone(),
                    ))
                }
                "__name__" => Ok(Value::str(f.name.as_ref())),
                "__qualname__" => Ok(Value::str(f.qualname.as_ref())),
                "__module__" => Ok(Value::str("__main__")),
                "__doc__" => Ok(match f.body {
                    crate::python::function::Body::Statements(body) => {
                        super::classes::docstring(body).map_or(Value::None, Value::str)
                    }
                    crate::python::function::Body::Expression(_) => Value::None,
                }),
                _ => self.no_attribute(object, name),
            },
            Value::Builtin(b) if name == "__name__" => {
                Ok(Value::str(b.rsplit('.').next().unwrap_or(b)))
            }
            Value::Exception(e)
                if matches!(
                    name,
                    "__cause__" | "__context__" | "__suppress_context__" | "__traceback__"
                ) =>
            {
                Ok(match name {
                    "__cause__" => e.cause().map_or(Value::None, Value::Exception),
                    "__context__" => e.context().map_or(Value::None, Value::Exception),
                    "__suppress_context__" => Value::Bool(e.suppress_context()),
                    _ => Value::None,
                })
            }
            Value::Exception(e)
                if e.class
                    .is_subclass_of(&crate::python::types::builtin("SyntaxError"))
                    && matches!(
                        name,
                        "msg"
                            | "filename"
                            | "lineno"
                            | "offset"
                            | "text"
                            | "end_lineno"
                            | "end_offset"
                    ) =>
            {
                // Read from its arguments, `(msg, (filename, lineno, offset, text,
                // end_lineno, end_offset))`, as CPython's `SyntaxError.__init__` sets them.
                let args = e.args.borrow();
                let at = match name {
                    "filename" => 0,
                    "lineno" => 1,
                    "offset" => 2,
                    "text" => 3,
                    "end_lineno" => 4,
                    _ => 5,
                };
                Ok(match (name, args.first(), args.get(1)) {
                    ("msg", Some(m), _) => m.clone(),
                    (_, _, Some(Value::Tuple(place))) if name != "msg" => {
                        place.0.get(at).cloned().unwrap_or(Value::None)
                    }
                    _ => Value::None,
                })
            }
            Value::Exception(e) => match name {
                "args" => Ok(Value::tuple(e.args.borrow().clone())),
                _ => self.no_attribute(object, name),
            },
            Value::Complex(c) => match name {
                "real" => Ok(Value::Float(c.re)),
                "imag" => Ok(Value::Float(c.im)),
                "conjugate" => Ok(self.bound(object, name)),
                _ => self.no_attribute(object, name),
            },
            Value::Float(f) => match name {
                "real" => Ok(Value::Float(*f)),
                "imag" => Ok(Value::Float(0.0)),
                "is_integer" | "conjugate" | "hex" => Ok(self.bound(object, name)),
                _ => self.no_attribute(object, name),
            },
            Value::Int(_) | Value::Bool(_) | Value::BigInt(_) => match name {
                "real" | "numerator" => Ok(Value::long(object.as_long().unwrap_or_default())),
                "imag" => Ok(Value::Int(0)),
                "denominator" => Ok(Value::Int(1)),
                "bit_length" | "bit_count" | "conjugate" | "to_bytes" => {
                    Ok(self.bound(object, name))
                }
                _ => self.no_attribute(object, name),
            },
            Value::Iterator(it) => match name {
                "send" | "close" | "throw"
                    if matches!(&*it.borrow(), PyIter::Function(_) | PyIter::Done) =>
                {
                    Ok(self.bound(object, name))
                }
                "__next__" | "__iter__" => Ok(self.bound(object, name)),
                _ => self.no_attribute(object, name),
            },
            Value::Str(_) | Value::List(_) | Value::Tuple(_) | Value::Dict(_) | Value::Set(_)
                if has_special_method(object, name) =>
            {
                Ok(self.bound(object, name))
            }
            Value::Str(_) if STR_METHODS.contains(&name) => Ok(self.bound(object, name)),
            Value::List(_) if LIST_METHODS.contains(&name) => Ok(self.bound(object, name)),
            Value::Dict(_) if DICT_METHODS.contains(&name) => Ok(self.bound(object, name)),
            Value::Set(_) if SET_METHODS.contains(&name) => Ok(self.bound(object, name)),
            Value::DictView(kind, _) if *kind != ViewKind::Values && name == "isdisjoint" => {
                Ok(self.bound(object, name))
            }
            Value::DictView(_, entries) if name == "mapping" => {
                // A read-only proxy in CPython; the dict itself here.
                Ok(Value::Dict(entries.clone()))
            }
            Value::Tuple(_) if matches!(name, "index" | "count") => Ok(self.bound(object, name)),
            Value::Range(start, stop, step) => match name {
                "start" => Ok(Value::Int(*start)),
                "stop" => Ok(Value::Int(*stop)),
                "step" => Ok(Value::Int(*step)),
                _ => self.no_attribute(object, name),
            },
            Value::Slice(parts) => match name {
                "start" => Ok(parts[0].clone()),
                "stop" => Ok(parts[1].clone()),
                "step" => Ok(parts[2].clone()),
                _ => self.no_attribute(object, name),
            },
            _ => self.no_attribute(object, name),
        }
    }

    /// Whether `name` is a method of the tensh value `d` (PyTorch has it, tensh builds it).
    /// `object.name` read from a tensh value as the host answered it (`read`): a method
    /// read without a call is a bound method.
    fn host_attribute(
        &mut self,
        object: &Value,
        name: &str,
        read: Result<rhai::Dynamic, crate::python::exception::PyException>,
    ) -> Flow<Value> {
        match read {
            Ok(v) => Ok(from_dynamic(v, Arrays::Tuples)),
            // (tensh says `NotImplementedError` for a method of PyTorch's it reads only as a
            // call.)
            Err(e)
                if matches!(&*e.class.name, "AttributeError" | "NotImplementedError")
                    && (self.host_has_method(object, name) || is_dunder(name)) =>
            {
                Ok(Value::Method(Rc::new((object.clone(), name.into()))))
            }
            Err(e) => Err(self.throw(e)),
        }
    }

    /// Whether the type of the tensh value `object` has a method `name` in PyTorch.
    fn host_has_method(&self, object: &Value, name: &str) -> bool {
        let registered = match object {
            Value::Host(d) => self.host.type_name(d),
            _ => object.type_name(),
        };
        let owner = registered.rsplit("::").next().unwrap_or_default();
        crate::ops::pytorch_names::contains(owner, name)
            || crate::ops::signature::lookup(owner, name).is_some()
    }

    fn bound(&self, object: &Value, name: &str) -> Value {
        Value::Method(Rc::new((object.clone(), name.into())))
    }

    fn no_attribute<T>(&self, object: &Value, name: &str) -> Flow<T> {
        let what = match object {
            Value::Module(m) => {
                return self.raise(
                    "AttributeError",
                    format!("module '{m}' has no attribute '{name}'"),
                );
            }
            Value::Type(t) => format!("type object '{}'", t.name),
            other => format!("'{}' object", other.type_name()),
        };
        self.raise(
            "AttributeError",
            format!("{what} has no attribute '{name}'"),
        )
    }

    /// `hasattr(object, name)`.
    pub(super) fn has_attribute(&mut self, object: &Value, name: &str) -> Flow<bool> {
        match self.get_attribute(object, name) {
            Ok(_) => Ok(true),
            Err(Unwind::Raise(e))
                if e.is_instance(&crate::python::types::builtin("AttributeError")) =>
            {
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }

    /// `object.name = value`.
    pub(super) fn set_attribute(&mut self, object: &Value, name: &str, value: Value) -> Flow<()> {
        if self.set_instance_attribute(object, name, value.clone())? {
            return Ok(());
        }
        match object {
            Value::Function(f) => {
                let attrs = f
                    .attrs
                    .borrow_mut()
                    .get_or_insert_with(Default::default)
                    .clone();
                attrs.borrow_mut().set_str(name, value);
                Ok(())
            }
            Value::Module(m) if self.source_modules.contains_key(&**m) => {
                if let Some(scope) = self.source_modules.get(&**m) {
                    scope.vars.borrow_mut().insert(name.into(), value);
                }
                Ok(())
            }
            Value::Tensor(t) if !self.host.tensor_has_property(name) => {
                // A tensor is a Python object with an instance dict: a name that is none of
                // its properties is set there (shadowing a method of that name).
                self.tensor_attributes.set(t, name, value);
                Ok(())
            }
            Value::Host(_) | Value::Tensor(_) => {
                let v = self.lift(to_dynamic(&value))?;
                let receiver = object.to_host().unwrap_or_default();
                let r = self.host.set_attr(receiver, name, v);
                self.lift(r)
            }
            other => self.raise(
                "AttributeError",
                format!("'{}' object has no attribute '{name}'", other.type_name()),
            ),
        }
    }

    /// `object.name(...)` for Python's own values.
    /// The pairs `dict.update(other)` adds: a dict's items; a mapping's (`keys()` and
    /// subscripts, a dict subclass's own items); else pairs from an iterable, refused in
    /// CPython's words where an element is no pair.
    fn update_pairs(&mut self, other: &Value) -> Flow<Vec<(Value, Value)>> {
        if let Value::Dict(d) = other {
            return Ok(d.borrow().pairs());
        }
        if Self::has_special(other, "keys") {
            let keys = self
                .special(other, "keys", Vec::new())?
                .unwrap_or(Value::None);
            let mut pairs = Vec::new();
            for k in self.collect(&keys)? {
                let v = self.get_item(other, k.clone())?;
                pairs.push((k, v));
            }
            return Ok(pairs);
        }
        if let Some(Value::Dict(d)) = Self::base_value(other) {
            return Ok(d.borrow().pairs());
        }
        let mut pairs = Vec::new();
        for (i, pair) in self.collect(other)?.into_iter().enumerate() {
            let kv = match self.collect(&pair) {
                Ok(kv) => kv,
                // An element that is not iterable; other failures (Ctrl-C) go on as they are.
                Err(Unwind::Raise(e)) if &*e.class.name == "TypeError" => {
                    return self.raise(
                        "TypeError",
                        format!(
                            "cannot convert dictionary update sequence element #{i} to a sequence"
                        ),
                    );
                }
                Err(other) => return Err(other),
            };
            match <[Value; 2]>::try_from(kv) {
                Ok([k, v]) => pairs.push((k, v)),
                Err(kv) => {
                    return self.raise(
                        "ValueError",
                        format!(
                            "dictionary update sequence element #{i} has length {}; 2 is required",
                            kv.len()
                        ),
                    );
                }
            }
        }
        Ok(pairs)
    }

    pub(super) fn call_method(
        &mut self,
        object: &Value,
        name: &str,
        call: CallArgs,
    ) -> Flow<Value> {
        if call.keywords.is_empty() && super::number_dunders::has_number_dunder(object, name) {
            return self.call_number_dunder(object, name, call.args);
        }
        if is_dunder(name)
            && matches!(
                object,
                Value::Str(_) | Value::List(_) | Value::Tuple(_) | Value::Dict(_) | Value::Set(_)
            )
            && let Some(v) = self.python_dunder(object, name, &call)?
        {
            // `xs.__getitem__(0)`, `s.__len__()`: the special method is the operation.
            return Ok(v);
        }
        if !call.keywords.is_empty()
            && !matches!(
                (object, name),
                (Value::List(_), "sort")
                    | (Value::Str(_), "format")
                    | (Value::Dict(_), "update")
                    | (
                        Value::Int(_) | Value::Bool(_) | Value::BigInt(_),
                        "to_bytes"
                    )
                    | (Value::Module(_), _)
            )
        {
            return self.raise(
                "TypeError",
                format!("{}.{name}() takes no keyword arguments", object.type_name()),
            );
        }
        let args = &call.args;
        let arg = |i: usize| args.get(i).cloned();
        let owner = object.type_name();
        const NO_ARGUMENTS: &[&str] = &[
            "copy",
            "clear",
            "reverse",
            "keys",
            "values",
            "items",
            "popitem",
            "upper",
            "lower",
            "title",
            "capitalize",
            "isdigit",
            "isalpha",
            "isspace",
            "isalnum",
            "isupper",
            "islower",
            "splitlines",
            "conjugate",
            "is_integer",
            "bit_length",
            "bit_count",
            "close",
            "flush",
        ];
        if NO_ARGUMENTS.contains(&name) && !matches!(object, Value::File(_) | Value::Module(_)) {
            self.method_arity(&owner, name, args, 0, 0)?;
        }
        match object {
            Value::Str(s) => self.str_method(s.clone(), name, call),
            Value::List(items) => {
                let items = items.clone();
                match name {
                    "append" => {
                        self.method_arity(&owner, name, args, 1, 1)?;
                        items.borrow_mut().push(args[0].clone());
                        Ok(Value::None)
                    }
                    "extend" => {
                        self.method_arity(&owner, name, args, 1, 1)?;
                        let extra = self.collect(&args[0])?;
                        items.borrow_mut().extend(extra);
                        Ok(Value::None)
                    }
                    "insert" => {
                        self.method_arity(&owner, name, args, 2, 2)?;
                        let len = items.borrow().len() as i64;
                        let i = args[0].as_int().unwrap_or(0);
                        let at = if i < 0 { (i + len).max(0) } else { i.min(len) };
                        items.borrow_mut().insert(at as usize, args[1].clone());
                        Ok(Value::None)
                    }
                    "pop" => {
                        self.method_arity(&owner, name, args, 0, 1)?;
                        let len = items.borrow().len() as i64;
                        if len == 0 {
                            return self.raise("IndexError", "pop from empty list");
                        }
                        let i = arg(0).and_then(|v| v.as_int()).unwrap_or(-1);
                        let Some(at) = super::subscript::position(i, len) else {
                            return self.raise("IndexError", "pop index out of range");
                        };
                        Ok(items.borrow_mut().remove(at))
                    }
                    "remove" | "index" | "count" => {
                        self.method_arity(&owner, name, args, 1, 1)?;
                        let snapshot = items.borrow().clone();
                        let found = self.positions_of(&snapshot, &args[0])?;
                        match name {
                            "count" => Ok(Value::Int(found.len() as i64)),
                            _ => match found.first() {
                                Some(&i) if name == "index" => Ok(Value::Int(i as i64)),
                                Some(&i) => {
                                    items.borrow_mut().remove(i);
                                    Ok(Value::None)
                                }
                                None if name == "index" => {
                                    let r = self.repr_text(&args[0])?;
                                    self.raise("ValueError", format!("{r} is not in list"))
                                }
                                None => self.raise("ValueError", "list.remove(x): x not in list"),
                            },
                        }
                    }
                    "sort" => {
                        let mut kw = call.keywords.clone();
                        let key = take(&mut kw, "key").filter(|k| !matches!(k, Value::None));
                        let reverse = match take(&mut kw, "reverse") {
                            Some(r) => self.truthy(&r)?,
                            None => false,
                        };
                        let snapshot = items.borrow().clone();
                        let sorted = self.sort_values(snapshot.to_vec(), key.as_ref(), reverse)?;
                        *items.borrow_mut() = Seq(sorted);
                        Ok(Value::None)
                    }
                    "reverse" => {
                        items.borrow_mut().reverse();
                        Ok(Value::None)
                    }
                    "copy" => Ok(Value::list(items.borrow().to_vec())),
                    "clear" => {
                        items.borrow_mut().clear();
                        Ok(Value::None)
                    }
                    _ => self.no_attribute(object, name),
                }
            }
            Value::Tuple(items) => {
                self.method_arity(&owner, name, args, 1, 1)?;
                let found = self.positions_of(items, &args[0])?;
                match name {
                    "count" => Ok(Value::Int(found.len() as i64)),
                    _ => match found.first() {
                        Some(&i) => Ok(Value::Int(i as i64)),
                        None => self.raise("ValueError", "tuple.index(x): x not in tuple"),
                    },
                }
            }
            Value::Dict(entries) => {
                let entries = entries.clone();
                match name {
                    "keys" => Ok(Value::DictView(ViewKind::Keys, entries.clone())),
                    "values" => Ok(Value::DictView(ViewKind::Values, entries.clone())),
                    "items" => Ok(Value::DictView(ViewKind::Items, entries.clone())),
                    "get" | "pop" | "setdefault" => {
                        self.method_arity(&owner, name, args, 1, 2)?;
                        let found = match name {
                            "pop" => self.dict_remove(&entries, &args[0])?,
                            _ => self.dict_get(&entries, &args[0])?,
                        };
                        if let Some(v) = found {
                            return Ok(v);
                        }
                        match (name, arg(1)) {
                            ("pop", None) => {
                                Err(self.throw(crate::python::exception::PyException::of_class(
                                    crate::python::types::builtin("KeyError"),
                                    vec![args[0].clone()],
                                )))
                            }
                            ("setdefault", d) => {
                                let d = d.unwrap_or(Value::None);
                                self.dict_set(&entries, args[0].clone(), d.clone())?;
                                Ok(d)
                            }
                            (_, d) => Ok(d.unwrap_or(Value::None)),
                        }
                    }
                    "update" => {
                        if let Some(other) = arg(0) {
                            let pairs = self.update_pairs(&other)?;
                            for (k, v) in pairs {
                                self.dict_set(&entries, k, v)?;
                            }
                        }
                        for (k, v) in &call.keywords {
                            self.dict_set(&entries, Value::Str(k.clone()), v.clone())?;
                        }
                        Ok(Value::None)
                    }
                    "copy" => Ok(Value::Dict(std::rc::Rc::new(std::cell::RefCell::new(
                        entries.borrow().clone(),
                    )))),
                    "clear" => {
                        entries.borrow_mut().clear();
                        Ok(Value::None)
                    }
                    "popitem" => match entries.borrow_mut().pop_last() {
                        Some((k, v)) => Ok(Value::tuple(vec![k, v])),
                        None => self.raise("KeyError", "'popitem(): dictionary is empty'"),
                    },
                    _ => self.no_attribute(object, name),
                }
            }
            Value::DictView(..) if name == "isdisjoint" => {
                let set = self.call_builtin("set", vec![object.clone()], Vec::new())?;
                self.call_method(&set, name, call)
            }
            Value::Set(items) => {
                let items = items.clone();
                match name {
                    "add" => {
                        self.method_arity(&owner, name, args, 1, 1)?;
                        self.set_add(&items, args[0].clone())?;
                        Ok(Value::None)
                    }
                    "remove" | "discard" => {
                        self.method_arity(&owner, name, args, 1, 1)?;
                        if !self.set_remove(&items, &args[0])? && name == "remove" {
                            return Err(self.throw(
                                crate::python::exception::PyException::of_class(
                                    crate::python::types::builtin("KeyError"),
                                    vec![args[0].clone()],
                                ),
                            ));
                        }
                        Ok(Value::None)
                    }
                    "pop" => match items.borrow_mut().pop() {
                        Some(v) => Ok(v),
                        None => self.raise("KeyError", "'pop from an empty set'"),
                    },
                    "copy" => Ok(Value::Set(self.set_copy(&items)?)),
                    "clear" => {
                        items.borrow_mut().clear();
                        Ok(Value::None)
                    }
                    "update" => {
                        for other in args {
                            self.set_update(&items, other)?;
                        }
                        Ok(Value::None)
                    }
                    "union" => {
                        let union = self.set_copy(&items)?;
                        for other in args {
                            self.set_update(&union, other)?;
                        }
                        Ok(Value::Set(union))
                    }
                    "intersection" | "difference" | "symmetric_difference" => {
                        self.method_arity(&owner, name, args, 1, 1)?;
                        let result = match name {
                            "intersection" => self.set_intersection(&items, &args[0])?,
                            "difference" => self.set_difference(&items, &args[0])?,
                            _ => self.set_symmetric_difference(&items, &args[0])?,
                        };
                        Ok(Value::Set(result))
                    }
                    "isdisjoint" => {
                        self.method_arity(&owner, name, args, 1, 1)?;
                        let mut others = self.iter_of(&args[0])?;
                        while let Some(x) = self.next_of(&mut others)? {
                            if self.set_contains(&items, &x)? {
                                return Ok(Value::Bool(false));
                            }
                        }
                        Ok(Value::Bool(true))
                    }
                    "issubset" | "issuperset" => {
                        self.method_arity(&owner, name, args, 1, 1)?;
                        let other = match &args[0] {
                            Value::Set(o) => o.clone(),
                            other => {
                                let all = self.collect(other)?;
                                self.set_of(all)?
                            }
                        };
                        let (inner, outer) = match name {
                            "issubset" => (&items, &other),
                            _ => (&other, &items),
                        };
                        if inner.borrow().len() > outer.borrow().len() {
                            return Ok(Value::Bool(false));
                        }
                        let members = inner.borrow().items();
                        for x in &members {
                            if !self.set_contains(outer, x)? {
                                return Ok(Value::Bool(false));
                            }
                        }
                        Ok(Value::Bool(true))
                    }
                    _ => self.no_attribute(object, name),
                }
            }
            Value::Float(f) => match name {
                "is_integer" => Ok(Value::Bool(f.is_finite() && f.fract() == 0.0)),
                "conjugate" => Ok(Value::Float(*f)),
                _ => self.no_attribute(object, name),
            },
            Value::Int(_) | Value::Bool(_) | Value::BigInt(_) => match name {
                "bit_length" => Ok(Value::Int(
                    object.as_long().unwrap_or_default().bits() as i64
                )),
                "bit_count" => Ok(Value::Int(
                    object
                        .as_long()
                        .unwrap_or_default()
                        .magnitude()
                        .count_ones() as i64,
                )),
                "conjugate" => Ok(Value::long(object.as_long().unwrap_or_default())),
                "to_bytes" => {
                    let n = object.as_long().unwrap_or_default();
                    self.int_to_bytes(&n, call)
                }
                _ => self.no_attribute(object, name),
            },
            Value::Complex(c) if name == "conjugate" => Ok(Value::Complex(c.conj())),
            Value::File(f) => {
                let f = f.clone();
                self.file_method(&f, name, call)
            }
            Value::Module(module) => {
                let f = format!("{module}.{name}");
                self.call_module_function(&f, call.args, call.keywords)
            }
            other => self.no_attribute(other, name),
        }
    }

    /// Where `items` hold a value equal to `x` (`index`, `count`, `remove`).
    fn positions_of(&mut self, items: &[Value], x: &Value) -> Flow<Vec<usize>> {
        let mut found = Vec::new();
        for (i, item) in items.iter().enumerate() {
            if self.values_equal(item, x)? {
                found.push(i);
            }
        }
        Ok(found)
    }

    /// Checks a method's argument count, with CPython's messages.
    fn method_arity(
        &self,
        owner: &str,
        name: &str,
        args: &[Value],
        min: usize,
        max: usize,
    ) -> Flow<()> {
        let n = args.len();
        if n < min || n > max {
            let plural = |k: usize| if k == 1 { "" } else { "s" };
            let takes = match (min, max) {
                (0, 0) => format!("{owner}.{name}() takes no arguments ({n} given)"),
                (1, 1) => format!("{owner}.{name}() takes exactly one argument ({n} given)"),
                _ if min == max => {
                    format!("{name} expected {min} argument{}, got {n}", plural(min))
                }
                _ if n < min => format!(
                    "{name} expected at least {min} argument{}, got {n}",
                    plural(min)
                ),
                _ => format!(
                    "{name} expected at most {max} argument{}, got {n}",
                    plural(max)
                ),
            };
            return self.raise("TypeError", takes);
        }
        Ok(())
    }

    /// The methods of `str`.
    fn str_method(&mut self, s: Rc<str>, name: &str, call: CallArgs) -> Flow<Value> {
        let args = call.args.clone();
        let owner = "str".to_string();
        let text_arg = |i: usize| -> Option<String> {
            match args.get(i) {
                Some(Value::Str(t)) => Some(t.to_string()),
                _ => None,
            }
        };
        let chars = |t: Option<String>| -> Option<Vec<char>> { t.map(|t| t.chars().collect()) };
        Ok(match name {
            "join" => {
                self.method_arity(&owner, name, &args, 1, 1)?;
                let items = self.collect(&args[0])?;
                let mut parts = Vec::with_capacity(items.len());
                for (i, x) in items.iter().enumerate() {
                    match x {
                        Value::Str(p) => parts.push(p.to_string()),
                        other => {
                            return self.raise(
                                "TypeError",
                                format!(
                                    "sequence item {i}: expected str instance, {} found",
                                    other.type_name()
                                ),
                            );
                        }
                    }
                }
                Value::str(parts.join(&s))
            }
            "split" | "rsplit" => {
                let limit = args.get(1).and_then(Value::as_int).filter(|&n| n >= 0);
                let parts: Vec<String> = match text_arg(0) {
                    Some(sep) if sep.is_empty() => {
                        return self.raise("ValueError", "empty separator");
                    }
                    Some(sep) => match (name, limit) {
                        ("split", Some(n)) => s
                            .splitn(n as usize + 1, sep.as_str())
                            .map(String::from)
                            .collect(),
                        ("rsplit", Some(n)) => {
                            let mut v: Vec<String> = s
                                .rsplitn(n as usize + 1, sep.as_str())
                                .map(String::from)
                                .collect();
                            v.reverse();
                            v
                        }
                        _ => s.split(sep.as_str()).map(String::from).collect(),
                    },
                    None => s.split_whitespace().map(String::from).collect(),
                };
                Value::list(parts.into_iter().map(Value::str).collect())
            }
            "strip" | "lstrip" | "rstrip" => {
                let set = chars(text_arg(0));
                let matches = |c: char| match &set {
                    Some(cs) => cs.contains(&c),
                    None => c.is_whitespace(),
                };
                Value::str(match name {
                    "strip" => s.trim_matches(matches),
                    "lstrip" => s.trim_start_matches(matches),
                    _ => s.trim_end_matches(matches),
                })
            }
            "replace" => {
                self.method_arity(&owner, name, &args, 2, 3)?;
                let (Some(from), Some(to)) = (text_arg(0), text_arg(1)) else {
                    return self.raise("TypeError", "replace() arguments must be str");
                };
                match args.get(2).and_then(Value::as_int).filter(|&n| n >= 0) {
                    Some(n) => Value::str(s.replacen(&from, &to, n as usize)),
                    None => Value::str(s.replace(&from, &to)),
                }
            }
            "startswith" | "endswith" => {
                self.method_arity(&owner, name, &args, 1, 3)?;
                let Some((from, to, _)) = text_window(&s, args.get(1), args.get(2)) else {
                    return Ok(Value::Bool(false));
                };
                let s = &s[from..to];
                let options: Vec<String> = match &args[0] {
                    Value::Str(t) => vec![t.to_string()],
                    Value::Tuple(items) => items
                        .iter()
                        .filter_map(|v| match v {
                            Value::Str(t) => Some(t.to_string()),
                            _ => None,
                        })
                        .collect(),
                    other => {
                        return self.raise(
                            "TypeError",
                            format!(
                                "{name} first arg must be str or a tuple of str, not {}",
                                other.type_name()
                            ),
                        );
                    }
                };
                Value::Bool(options.iter().any(|o| {
                    if name == "startswith" {
                        s.starts_with(o.as_str())
                    } else {
                        s.ends_with(o.as_str())
                    }
                }))
            }
            "upper" => Value::str(s.to_uppercase()),
            "lower" => Value::str(s.to_lowercase()),
            "title" | "capitalize" => {
                let mut out = String::new();
                let mut start = true;
                for c in s.chars() {
                    if start {
                        out.extend(c.to_uppercase());
                    } else {
                        out.extend(c.to_lowercase());
                    }
                    start = if name == "title" {
                        !c.is_alphanumeric()
                    } else {
                        false
                    };
                }
                Value::str(out)
            }
            "ljust" | "rjust" | "center" | "zfill" => {
                let width = args.first().and_then(Value::as_int).unwrap_or(0).max(0) as usize;
                if width > crate::python::format::MAX_TEXT {
                    return self
                        .raise("MemoryError", "the padded text would pass 2**28 characters");
                }
                let fill = if name == "zfill" {
                    '0'
                } else {
                    text_arg(1).and_then(|f| f.chars().next()).unwrap_or(' ')
                };
                let len = s.chars().count();
                let pad = width.saturating_sub(len);
                let fills = |n: usize| fill.to_string().repeat(n);
                Value::str(match name {
                    "ljust" => format!("{s}{}", fills(pad)),
                    "rjust" => format!("{}{s}", fills(pad)),
                    "center" => {
                        let left = pad / 2 + (pad & width & 1);
                        format!("{}{s}{}", fills(left), fills(pad - left))
                    }
                    _ => match s.strip_prefix(['-', '+']) {
                        Some(rest) => format!("{}{}{rest}", &s[..1], fills(pad)),
                        None => format!("{}{s}", fills(pad)),
                    },
                })
            }
            "find" | "rfind" | "index" | "count" => {
                let Some(sub) = text_arg(0) else {
                    return self.raise(
                        "TypeError",
                        format!(
                            "must be str, not {}",
                            args.first().map_or("nothing".into(), |v| v.type_name())
                        ),
                    );
                };
                self.method_arity(&owner, name, &args, 1, 3)?;
                let Some((from, to, first)) = text_window(&s, args.get(1), args.get(2)) else {
                    return Ok(match name {
                        "count" => Value::Int(0),
                        "index" => return self.raise("ValueError", "substring not found"),
                        _ => Value::Int(-1),
                    });
                };
                let s = &s[from..to];
                let byte_to_char = |b: usize| first + s[..b].chars().count() as i64;
                match name {
                    "count" => Value::Int(s.matches(sub.as_str()).count() as i64),
                    "rfind" => Value::Int(s.rfind(sub.as_str()).map_or(-1, byte_to_char)),
                    _ => match s.find(sub.as_str()) {
                        Some(b) => Value::Int(byte_to_char(b)),
                        None if name == "index" => {
                            return self.raise("ValueError", "substring not found");
                        }
                        None => Value::Int(-1),
                    },
                }
            }
            "splitlines" => Value::list(s.lines().map(Value::str).collect()),
            "isdigit" => Value::Bool(!s.is_empty() && s.chars().all(|c| c.is_ascii_digit())),
            "isalpha" => Value::Bool(!s.is_empty() && s.chars().all(char::is_alphabetic)),
            "isspace" => Value::Bool(!s.is_empty() && s.chars().all(char::is_whitespace)),
            "isalnum" => Value::Bool(!s.is_empty() && s.chars().all(char::is_alphanumeric)),
            "isupper" => {
                Value::Bool(s.chars().any(char::is_uppercase) && !s.chars().any(char::is_lowercase))
            }
            "islower" => {
                Value::Bool(s.chars().any(char::is_lowercase) && !s.chars().any(char::is_uppercase))
            }
            "partition" | "rpartition" => {
                let Some(sep) = text_arg(0) else {
                    return self.raise("TypeError", "must be str");
                };
                let found = if name == "partition" {
                    s.find(sep.as_str())
                } else {
                    s.rfind(sep.as_str())
                };
                let parts = match found {
                    Some(i) => [
                        s[..i].to_string(),
                        sep.clone(),
                        s[i + sep.len()..].to_string(),
                    ],
                    None if name == "partition" => [s.to_string(), String::new(), String::new()],
                    None => [String::new(), String::new(), s.to_string()],
                };
                Value::tuple(parts.into_iter().map(Value::str).collect())
            }
            "removeprefix" => Value::str(
                text_arg(0)
                    .and_then(|p| s.strip_prefix(p.as_str()).map(String::from))
                    .unwrap_or_else(|| s.to_string()),
            ),
            "removesuffix" => Value::str(
                text_arg(0)
                    .and_then(|p| s.strip_suffix(p.as_str()).map(String::from))
                    .unwrap_or_else(|| s.to_string()),
            ),
            "format" => Value::str(self.str_format(&s, call)?),
            _ => return self.no_attribute(&Value::Str(s), name),
        })
    }

    /// `"...".format(*args, **kwargs)`.
    fn str_format(&mut self, template: &str, call: CallArgs) -> Flow<String> {
        let chars: Vec<char> = template.chars().collect();
        let mut out = String::new();
        let mut auto = 0usize;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c == '{' && chars.get(i + 1) == Some(&'{') {
                out.push('{');
                i += 2;
                continue;
            }
            if c == '}' && chars.get(i + 1) == Some(&'}') {
                out.push('}');
                i += 2;
                continue;
            }
            if c != '{' {
                out.push(c);
                i += 1;
                continue;
            }
            let Some(close) = chars[i..].iter().position(|&c| c == '}').map(|p| p + i) else {
                return self.raise("ValueError", "Single '{' encountered in format string");
            };
            let field: String = chars[i + 1..close].iter().collect();
            i = close + 1;
            let (field, spec) = match field.split_once(':') {
                Some((f, s)) => (f.to_string(), s.to_string()),
                None => (field, String::new()),
            };
            let (field, conversion) = match field.split_once('!') {
                Some((f, c)) => (f.to_string(), c.chars().next()),
                None => (field, None),
            };
            let (head, attrs) = match field.find(['.', '[']) {
                Some(p) => (field[..p].to_string(), field[p..].to_string()),
                None => (field.clone(), String::new()),
            };
            let mut value = if head.is_empty() {
                let v = call.args.get(auto).cloned();
                auto += 1;
                match v {
                    Some(v) => v,
                    None => {
                        return self.raise(
                            "IndexError",
                            format!(
                                "Replacement index {} out of range for positional args tuple",
                                auto - 1
                            ),
                        );
                    }
                }
            } else if let Ok(n) = head.parse::<usize>() {
                match call.args.get(n) {
                    Some(v) => v.clone(),
                    None => {
                        return self.raise(
                            "IndexError",
                            format!("Replacement index {n} out of range for positional args tuple"),
                        );
                    }
                }
            } else {
                match call.keywords.iter().find(|(k, _)| **k == *head) {
                    Some((_, v)) => v.clone(),
                    None => return self.raise("KeyError", format!("'{head}'")),
                }
            };
            for attr in attrs.split('.').filter(|a| !a.is_empty()) {
                value = self.get_attribute(&value, attr)?;
            }
            let value = match conversion {
                Some('r') | Some('a') => Value::str(self.repr_text(&value)?),
                Some('s') => Value::str(self.str_text(&value)?),
                _ => value,
            };
            out.push_str(&self.format_value(&value, &spec)?);
        }
        Ok(out)
    }
}

/// Whether `name` is one of Python's special method names (`__setitem__`).
pub fn is_dunder(name: &str) -> bool {
    name.len() > 4 && name.starts_with("__") && name.ends_with("__")
}

/// Takes a keyword argument by name.
fn take(keywords: &mut Vec<(Rc<str>, Value)>, name: &str) -> Option<Value> {
    let i = keywords.iter().position(|(k, _)| &**k == name)?;
    Some(keywords.remove(i).1)
}

/// The byte order and signedness `int.to_bytes`/`int.from_bytes` take after their first
/// argument(s): `byteorder` (positional or keyword, `'big'` by default) and `signed=`.
struct ByteOrder {
    little: bool,
    signed: bool,
}

impl Interpreter {
    fn byte_order(
        &mut self,
        positional: Option<&Value>,
        keywords: &[(Rc<str>, Value)],
        function: &str,
    ) -> Flow<ByteOrder> {
        let mut order = positional.cloned();
        let mut signed = false;
        for (k, v) in keywords {
            match &**k {
                "byteorder" => order = Some(v.clone()),
                "signed" => signed = self.truthy(v)?,
                "length" | "bytes" => {}
                other => {
                    return self.raise(
                        "TypeError",
                        format!("{function}() got an unexpected keyword argument '{other}'"),
                    );
                }
            }
        }
        let little = match order {
            None => false,
            Some(Value::Str(s)) if &*s == "big" => false,
            Some(Value::Str(s)) if &*s == "little" => true,
            Some(Value::Str(_)) => {
                return self.raise("ValueError", "byteorder must be either 'little' or 'big'");
            }
            Some(other) => {
                return self.raise(
                    "TypeError",
                    format!(
                        "{function}() argument 'byteorder' must be str, not {}",
                        other.type_name()
                    ),
                );
            }
        };
        Ok(ByteOrder { little, signed })
    }

    /// `n.to_bytes(length=1, byteorder='big', *, signed=False)`.
    pub(super) fn int_to_bytes(&mut self, n: &num_bigint::BigInt, call: CallArgs) -> Flow<Value> {
        let length = match call.args.first().or_else(|| {
            call.keywords
                .iter()
                .find(|(k, _)| &**k == "length")
                .map(|(_, v)| v)
        }) {
            Some(v) => match v.as_int() {
                Some(l) if l >= 0 => l as usize,
                Some(_) => return self.raise("ValueError", "length argument must be non-negative"),
                None => {
                    return self.raise(
                        "TypeError",
                        format!(
                            "'{}' object cannot be interpreted as an integer",
                            v.type_name()
                        ),
                    );
                }
            },
            None => 1,
        };
        if length > 1 << 31 {
            // More bytes than tensh makes one value of: CPython's allocation fails too.
            return self.raise("MemoryError", "");
        }
        let order = self.byte_order(call.args.get(1), &call.keywords, "to_bytes")?;
        let negative = num_traits::Signed::is_negative(n);
        if negative && !order.signed {
            return self.raise("OverflowError", "can't convert negative int to unsigned");
        }
        // Two's complement, least significant byte first, as short as the value allows.
        let mut bytes = if order.signed {
            n.to_signed_bytes_le()
        } else {
            n.magnitude().to_bytes_le()
        };
        if bytes == [0] {
            bytes.clear();
        }
        if bytes.len() > length {
            return self.raise("OverflowError", "int too big to convert");
        }
        bytes.resize(length, if negative { 0xff } else { 0 });
        if !order.little {
            bytes.reverse();
        }
        self.bytes_value(&bytes)
    }

    /// `int.from_bytes(bytes, byteorder='big', *, signed=False)`.
    pub(super) fn int_from_bytes(&mut self, call: CallArgs) -> Flow<Value> {
        let Some(data) = call.args.first().or_else(|| {
            call.keywords
                .iter()
                .find(|(k, _)| &**k == "bytes")
                .map(|(_, v)| v)
        }) else {
            return self.raise(
                "TypeError",
                "from_bytes() missing required argument 'bytes' (pos 1)",
            );
        };
        let data = data.clone();
        let mut bytes = match &data {
            Value::List(_) | Value::Tuple(_) => self
                .collect(&data)?
                .iter()
                .map(|v| v.as_int().unwrap_or(0) as u8)
                .collect(),
            _ => self.byte_values(&data)?,
        };
        let order = self.byte_order(call.args.get(1), &call.keywords, "from_bytes")?;
        if !order.little {
            bytes.reverse();
        }
        if let Err(e) = crate::python::long::check_bits(bytes.len() as u64 * 8) {
            return Err(self.throw(e));
        }
        let value = if order.signed {
            num_bigint::BigInt::from_signed_bytes_le(&bytes)
        } else {
            num_bigint::BigInt::from_bytes_le(num_bigint::Sign::Plus, &bytes)
        };
        Ok(Value::long(value))
    }
}

/// The part of `s` that `find`, `count`, `startswith` and their kin search given their
/// optional `start` and `end` (Python's slice bounds, in characters): its byte range and the
/// index of its first character; `None` when `start` is past the end (nothing is found
/// there, not even an empty string).
fn text_window(s: &str, start: Option<&Value>, end: Option<&Value>) -> Option<(usize, usize, i64)> {
    let bound = |v: Option<&Value>| match v {
        Some(Value::Int(i)) => Some(*i),
        Some(Value::Bool(b)) => Some(*b as i64),
        _ => None,
    };
    let (start, end) = (bound(start), bound(end));
    if start.is_none() && end.is_none() {
        return Some((0, s.len(), 0));
    }
    let n = s.chars().count() as i64;
    let clamp = |i: i64| if i < 0 { (i + n).max(0) } else { i.min(n) };
    let raw_start = start.unwrap_or(0);
    let from = clamp(raw_start);
    if (raw_start >= 0 && raw_start > n) || from > n {
        return None;
    }
    let to = clamp(end.unwrap_or(n)).max(from);
    let byte = |c: i64| s.char_indices().nth(c as usize).map_or(s.len(), |(b, _)| b);
    Some((byte(from), byte(to), from))
}
