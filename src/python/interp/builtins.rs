//! Python's builtin functions and the conversions its builtin types make when called
//! (`int('3')`, `list(t.shape)`, `dict(a=1)`).

use std::rc::Rc;

use rhai::Dynamic;

use super::expr::CallArgs;
use super::{Flow, Interpreter};
use crate::core::tensor::Tensor;
use crate::python::exception::PyException;
use crate::python::host::HostCall;
use crate::python::types;
use crate::python::value::Value;
use crate::python::value::iteration::PyIter;

/// The builtins that take keyword arguments.
const TAKES_KEYWORDS: &[&str] = &[
    "explain",
    "print",
    "property",
    "super",
    "type",
    "sorted",
    "min",
    "max",
    "sum",
    "enumerate",
    "zip",
    "round",
    "int",
    "dict",
    "bytes",
    "bytearray",
    "exit",
    "quit",
    "open",
];

/// The builtins that take exactly one argument (C's `METH_O`), whose count errors read
/// "takes exactly one argument".
const ONE_ARGUMENT: &[&str] = &[
    "len", "repr", "ascii", "abs", "chr", "ord", "hex", "oct", "bin", "id", "hash", "callable",
];

/// A builtin's keyword arguments, taken by name.
struct Keywords(Vec<(Rc<str>, Value)>);

impl Keywords {
    fn take(&mut self, name: &str) -> Option<Value> {
        let i = self.0.iter().position(|(k, _)| &**k == name)?;
        Some(self.0.remove(i).1)
    }
}

impl Interpreter {
    /// Refuses keywords a builtin does not take.
    fn no_more_keywords(&self, function: &str, kw: &Keywords) -> Flow<()> {
        match kw.0.first() {
            Some((k, _)) => self.raise(
                "TypeError",
                format!("'{k}' is an invalid keyword argument for {function}()"),
            ),
            None => Ok(()),
        }
    }

    /// `print`'s `sep`/`end`: a string, or `None` (or absent) for `default`.
    fn text_keyword(&self, kw: &mut Keywords, name: &str, default: &str) -> Flow<String> {
        match kw.take(name) {
            None | Some(Value::None) => Ok(default.to_string()),
            Some(Value::Str(s)) => Ok(s.to_string()),
            Some(other) => self.raise(
                "TypeError",
                format!("{name} must be None or a string, not {}", other.type_name()),
            ),
        }
    }

    /// `v` as an int where Python wants one (`__index__`): ints and bools.
    fn index_int(&mut self, v: &Value) -> Flow<i64> {
        if let Value::Tensor(t) = v {
            return self.tensor_as_index(t);
        }
        if Self::class_of_instance(v).is_some()
            && let Some(i) = self.special(v, "__index__", Vec::new())?
        {
            return self.index_int(&i);
        }
        match v.as_int() {
            Some(i) => Ok(i),
            // CPython's words where an index-sized integer is asked for (tensh's ranges,
            // repetitions and positions are all within 64 bits).
            None if matches!(v, Value::BigInt(_)) => self.raise(
                "OverflowError",
                "cannot fit 'int' into an index-sized integer",
            ),
            None => self.raise(
                "TypeError",
                format!(
                    "'{}' object cannot be interpreted as an integer",
                    v.type_name()
                ),
            ),
        }
    }

    /// A tensor's `__index__`: the item of an integer (or bool) tensor of one element.
    pub(super) fn tensor_as_index(&mut self, t: &Tensor) -> Flow<i64> {
        if t.numel() == 1 && !(t.dtype().is_floating_point() || t.dtype().is_complex()) {
            let item = self.host_method(Value::Tensor(t.clone()), "item", Vec::new())?;
            if let Some(i) = item.as_int() {
                return Ok(i);
            }
        }
        self.raise(
            "TypeError",
            "only integer tensors of a single element can be converted to an index",
        )
    }

    /// Checks a builtin's positional count.
    fn arity(&self, function: &str, args: &[Value], min: usize, max: usize) -> Flow<()> {
        if args.len() < min || args.len() > max {
            let expected = if ONE_ARGUMENT.contains(&function) {
                format!(
                    "{function}() takes exactly one argument ({} given)",
                    args.len()
                )
            } else if min == max {
                format!(
                    "{function}() takes exactly {min} argument{} ({} given)",
                    if min == 1 { "" } else { "s" },
                    args.len()
                )
            } else if args.len() < min {
                format!(
                    "{function} expected at least {min} argument{}, got {}",
                    if min == 1 { "" } else { "s" },
                    args.len()
                )
            } else {
                format!(
                    "{function} expected at most {max} argument{}, got {}",
                    if max == 1 { "" } else { "s" },
                    args.len()
                )
            };
            return self.raise("TypeError", expected);
        }
        Ok(())
    }

    /// Calls the builtin `name`.
    pub(super) fn call_builtin(
        &mut self,
        name: &str,
        args: Vec<Value>,
        keywords: Vec<(Rc<str>, Value)>,
    ) -> Flow<Value> {
        if let Some(module_function) = name.split_once('.') {
            let _ = module_function;
            return self.call_module_function(name, args, keywords);
        }
        if matches!(name, "eval" | "exec") {
            // Called other than by name where it is written (`f = eval; f(s)`): the module's
            // globals are its scope.
            return self.run_given_source(name, args, keywords, None);
        }
        if !keywords.is_empty() && !TAKES_KEYWORDS.contains(&name) {
            return self.raise("TypeError", format!("{name}() takes no keyword arguments"));
        }
        let mut kw = Keywords(keywords);
        let mut args = args;
        if let ("int" | "float" | "complex", Some(first @ Value::Instance(_))) =
            (name, args.first())
        {
            // A number class's own conversion, else the number an instance holds.
            let method = match name {
                "int" => "__int__",
                "float" => "__float__",
                _ => "__complex__",
            };
            let first = first.clone();
            if let Some(v) = self.special(&first, method, Vec::new())? {
                args[0] = v;
            } else if name == "int"
                && let Some(v) = self.special(&first, "__index__", Vec::new())?
            {
                args[0] = v;
            } else if let Some(base) = Self::base_value(&first) {
                args[0] = base;
            }
        }
        if let ("dict", Some(first @ Value::Instance(_))) = (name, args.first()) {
            // A mapping: a dict subclass's items, or what a class with `keys()` and
            // `__getitem__` holds (as `dict()` reads a mapping).
            let first = first.clone();
            if let Some(Value::Dict(d)) = Self::base_value(&first)
                && !Self::has_special(&first, "keys")
            {
                args[0] = Value::Dict(d);
            } else if Self::has_special(&first, "keys") {
                let keys = self
                    .special(&first, "keys", Vec::new())?
                    .unwrap_or(Value::None);
                let mut pairs = Vec::new();
                for k in self.collect(&keys)? {
                    let v = self.get_item(&first, k.clone())?;
                    pairs.push(Value::tuple(vec![k, v]));
                }
                args[0] = Value::list(pairs);
            }
        }
        match name {
            "explain" if (1..=2).contains(&args.len()) => {
                // Called through another name: no source text to name the tensor by.
                let mut args = args.into_iter();
                let first = args.next().unwrap_or(Value::None);
                let globals = self.globals.clone();
                self.explain(first, None, args.next(), kw.0, &globals)
            }
            "help" if args.len() == 1 => {
                // A `torch` name, a tensh value's method or a topic; Python's own builtins
                // and classes have no text here.
                let name = match &args[0] {
                    Value::HostPath(p) => Some(p.replace("::", ".")),
                    Value::Str(s) => Some(s.to_string()),
                    Value::Method(m) if matches!(m.0, Value::Host(_) | Value::Tensor(_)) => {
                        Some(format!("{}.{}", m.0.type_name(), m.1))
                    }
                    _ => None,
                };
                // `repl::help::lookup` reads `torch.Tensor.view` as `Tensor.view` itself.
                let text = match &name {
                    Some(n) => crate::python::help::text(n)
                        .unwrap_or_else(|| format!("tensh has no help on {n}")),
                    None => format!(
                        "tensh's help covers torch and tensh's values, not this {}",
                        args[0].type_name()
                    ),
                };
                crate::ops::output::print_raw(&format!("{text}\n"));
                Ok(Value::None)
            }
            "explain" => self.raise(
                "TypeError",
                format!(
                    "explain() takes 1 or 2 positional arguments but {} were given",
                    args.len()
                ),
            ),
            "print" => {
                let sep = self.text_keyword(&mut kw, "sep", " ")?;
                let end = self.text_keyword(&mut kw, "end", "\n")?;
                let to_stderr =
                    matches!(kw.take("file"), Some(Value::Module(m)) if &*m == "sys.stderr");
                kw.take("flush");
                self.no_more_keywords("print", &kw)?;
                let mut text = String::new();
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        text.push_str(&sep);
                    }
                    text.push_str(&self.str_text(a)?);
                }
                text.push_str(&end);
                if to_stderr {
                    crate::ops::output::stderr_raw(&text);
                } else {
                    crate::ops::output::print_raw(&text);
                }
                Ok(Value::None)
            }
            "len" => {
                self.arity("len", &args, 1, 1)?;
                let n = self.length(&args[0])?;
                Ok(Value::Int(n))
            }
            "repr" | "ascii" => {
                self.arity(name, &args, 1, 1)?;
                Ok(Value::str(self.repr_text(&args[0])?))
            }
            "format" => {
                self.arity("format", &args, 1, 2)?;
                let spec = match args.get(1) {
                    Some(Value::Str(s)) => s.to_string(),
                    Some(other) => {
                        return self.raise(
                            "TypeError",
                            format!("format() argument 2 must be str, not {}", other.type_name()),
                        );
                    }
                    None => String::new(),
                };
                Ok(Value::str(self.format_value(&args[0], &spec)?))
            }
            "isinstance" | "issubclass" => {
                self.arity(name, &args, 2, 2)?;
                let class = if name == "isinstance" {
                    self.class_value(&args[0])
                } else {
                    match &args[0] {
                        Value::Type(_) | Value::Class(_) => args[0].clone(),
                        _ => return self.raise("TypeError", "issubclass() arg 1 must be a class"),
                    }
                };
                Ok(Value::Bool(self.is_subclass(&class, &args[1], name)?))
            }
            "abs" => {
                self.arity("abs", &args, 1, 1)?;
                match &args[0] {
                    Value::Int(i) => Ok(Value::int((*i as i128).abs())),
                    Value::BigInt(n) => Ok(Value::long(num_traits::Signed::abs(&**n))),
                    Value::Bool(b) => Ok(Value::Int(*b as i64)),
                    Value::Float(f) => Ok(Value::Float(f.abs())),
                    Value::Complex(c) => Ok(Value::Float(c.norm())),
                    Value::Host(_) | Value::Tensor(_) => {
                        self.host_method(args[0].clone(), "abs", Vec::new())
                    }
                    other => self.raise(
                        "TypeError",
                        format!("bad operand type for abs(): '{}'", other.type_name()),
                    ),
                }
            }
            "min" | "max" => self.extreme(name, args, kw),
            "sum" => {
                let start = match kw.take("start") {
                    Some(v) => Some(v),
                    None => args.get(1).cloned(),
                };
                self.no_more_keywords("sum", &kw)?;
                self.arity("sum", &args, 1, 2)?;
                let mut total = start.unwrap_or(Value::Int(0));
                if let Value::Str(_) = total {
                    return self.raise(
                        "TypeError",
                        "sum() can't sum strings [use ''.join(seq) instead]",
                    );
                }
                let mut items = self.iter_of(&args[0])?;
                let mut counted: u32 = 0;
                while let Some(x) = self.next_of(&mut items)? {
                    total = self.binary(crate::python::number::BinOp::Add, total, x)?;
                    counted = counted.wrapping_add(1);
                    if counted & 0xffff == 0 {
                        self.check_interrupt()?;
                    }
                }
                Ok(total)
            }
            "sorted" => {
                let key = kw.take("key").filter(|k| !matches!(k, Value::None));
                let reverse = match kw.take("reverse") {
                    Some(r) => self.truthy(&r)?,
                    None => false,
                };
                self.no_more_keywords("sorted", &kw)?;
                self.arity("sorted", &args, 1, 1)?;
                let items = self.collect(&args[0])?;
                Ok(Value::list(self.sort_values(
                    items,
                    key.as_ref(),
                    reverse,
                )?))
            }
            "reversed" => {
                self.arity("reversed", &args, 1, 1)?;
                if let Value::Range(start, stop, step) = args[0] {
                    // The same values from the last down, as a range iterator.
                    let len = crate::python::value::iteration::range_len(start, stop, step) as i128;
                    let last = start as i128 + (len - 1).max(0) * step as i128;
                    let end = if len > 0 {
                        start as i128 - step as i128
                    } else {
                        last
                    };
                    let clamp = |v: i128| v.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
                    return Ok(
                        PyIter::Range(clamp(last), clamp(end), step.saturating_neg()).into_value(),
                    );
                }
                if let Some(it) = self.special(&args[0], "__reversed__", Vec::new())? {
                    return Ok(it);
                }
                let mut items = match &args[0] {
                    Value::List(_)
                    | Value::Tuple(_)
                    | Value::Range(..)
                    | Value::Str(_)
                    | Value::Dict(_)
                    | Value::DictView(..) => self.collect(&args[0])?,
                    // The sequence protocol: `__len__` and `__getitem__`.
                    Value::Instance(_)
                        if Self::has_special(&args[0], "__len__")
                            && Self::has_special(&args[0], "__getitem__") =>
                    {
                        self.collect(&args[0])?
                    }
                    Value::Host(_) | Value::Tensor(_) => self.collect(&args[0])?,
                    other => {
                        return self.raise(
                            "TypeError",
                            format!("'{}' object is not reversible", other.type_name()),
                        );
                    }
                };
                items.reverse();
                Ok(iterator(items))
            }
            "any" | "all" => {
                self.arity(name, &args, 1, 1)?;
                let mut it = self.iter_of(&args[0])?;
                let want = name == "any";
                while let Some(x) = self.next_of(&mut it)? {
                    if self.truthy(&x)? == want {
                        return Ok(Value::Bool(want));
                    }
                }
                Ok(Value::Bool(!want))
            }
            "enumerate" => {
                let start = kw.take("start").or_else(|| args.get(1).cloned());
                self.no_more_keywords("enumerate", &kw)?;
                self.arity("enumerate", &args, 1, 2)?;
                let start = match start {
                    Some(v) => self.index_int(&v)?,
                    None => 0,
                };
                let items = self.iter_of(&args[0])?;
                Ok(PyIter::Enumerate(Box::new(items), start).into_value())
            }
            "zip" => {
                let strict = match kw.take("strict") {
                    Some(s) => self.truthy(&s)?,
                    None => false,
                };
                self.no_more_keywords("zip", &kw)?;
                let mut columns = Vec::with_capacity(args.len());
                for a in &args {
                    columns.push(self.iter_of(a)?);
                }
                Ok(PyIter::Zip(columns, strict).into_value())
            }
            "map" => {
                if args.len() < 2 {
                    return self.raise("TypeError", "map() must have at least two arguments.");
                }
                let mut columns = Vec::with_capacity(args.len() - 1);
                for a in &args[1..] {
                    columns.push(self.iter_of(a)?);
                }
                Ok(PyIter::Map(args[0].clone(), columns).into_value())
            }
            "filter" => {
                self.arity("filter", &args, 2, 2)?;
                let items = self.iter_of(&args[1])?;
                Ok(PyIter::Filter(args[0].clone(), Box::new(items)).into_value())
            }
            "iter" => {
                self.arity("iter", &args, 1, 1)?;
                if let Value::Iterator(_) = &args[0] {
                    return Ok(args[0].clone());
                }
                Ok(self.iter_of(&args[0])?.into_value())
            }
            "next" => {
                self.arity("next", &args, 1, 2)?;
                let Value::Iterator(it) = &args[0] else {
                    return self.raise(
                        "TypeError",
                        format!("'{}' object is not an iterator", args[0].type_name()),
                    );
                };
                let item = self.next_of(&mut PyIter::Shared(it.clone()))?;
                match (item, args.get(1)) {
                    (Some(x), _) => Ok(x),
                    (None, Some(default)) => Ok(default.clone()),
                    (None, None) => Err(self.throw(PyException::of_class(
                        types::builtin("StopIteration"),
                        Vec::new(),
                    ))),
                }
            }
            "round" => {
                let ndigits = kw.take("ndigits").or_else(|| args.get(1).cloned());
                self.no_more_keywords("round", &kw)?;
                self.arity("round", &args, 1, 2)?;
                self.round(&args[0], ndigits)
            }
            "divmod" => {
                use crate::python::number::BinOp;
                self.arity("divmod", &args, 2, 2)?;
                let (a, b) = (args[0].clone(), args[1].clone());
                let q = self.binary(BinOp::FloorDiv, a.clone(), b.clone())?;
                let r = self.binary(BinOp::Mod, a, b)?;
                Ok(Value::tuple(vec![q, r]))
            }
            "pow" => {
                self.arity("pow", &args, 2, 3)?;
                if let (Some(a), Some(e), Some(m)) = (
                    args[0].as_long(),
                    args[1].as_long(),
                    args.get(2).and_then(Value::as_long),
                ) {
                    // Three ints: modular power (a negative exponent inverts first).
                    return match crate::python::long::pow_mod(&a, &e, &m) {
                        Ok(r) => Ok(Value::long(r)),
                        Err(e) => Err(self.throw(e)),
                    };
                }
                let p = self.binary(
                    crate::python::number::BinOp::Pow,
                    args[0].clone(),
                    args[1].clone(),
                )?;
                match args.get(2) {
                    Some(m) => self.binary(crate::python::number::BinOp::Mod, p, m.clone()),
                    None => Ok(p),
                }
            }
            "hex" | "oct" | "bin" => {
                self.arity(name, &args, 1, 1)?;
                let n = match &args[0] {
                    Value::BigInt(n) => (**n).clone(),
                    other => self.index_int(other)?.into(),
                };
                let (radix, prefix) = match name {
                    "hex" => (16, "0x"),
                    "oct" => (8, "0o"),
                    _ => (2, "0b"),
                };
                let (negative, digits) = crate::python::long::to_radix(&n, radix);
                let sign = if negative { "-" } else { "" };
                Ok(Value::str(format!("{sign}{prefix}{digits}")))
            }
            "chr" => {
                self.arity("chr", &args, 1, 1)?;
                match args[0]
                    .as_int()
                    .and_then(|i| u32::try_from(i).ok())
                    .and_then(char::from_u32)
                {
                    Some(c) => Ok(Value::str(c.to_string())),
                    None => self.raise("ValueError", "chr() arg not in range(0x110000)"),
                }
            }
            "ord" => {
                self.arity("ord", &args, 1, 1)?;
                match &args[0] {
                    Value::Str(s) if s.chars().count() == 1 => {
                        Ok(Value::Int(s.chars().next().map_or(0, |c| c as i64)))
                    }
                    Value::Str(s) => self.raise(
                        "TypeError",
                        format!(
                            "ord() expected a character, but string of length {} found",
                            s.chars().count()
                        ),
                    ),
                    other => self.raise(
                        "TypeError",
                        format!(
                            "ord() expected string of length 1, but {} found",
                            other.type_name()
                        ),
                    ),
                }
            }
            "id" | "hash" => {
                self.arity(name, &args, 1, 1)?;
                if name == "id" {
                    crate::platform::varies::note();
                }
                Ok(Value::Int(self.identity(&args[0], name == "hash")?))
            }
            "callable" => {
                self.arity("callable", &args, 1, 1)?;
                Ok(Value::Bool(match &args[0] {
                    Value::Function(_)
                    | Value::Builtin(_)
                    | Value::Method(_)
                    | Value::Type(_)
                    | Value::HostPath(_)
                    | Value::Class(_)
                    | Value::Bound(_) => true,
                    Value::Descriptor(d) => {
                        matches!(**d, crate::python::value::class::Descriptor::Static(_))
                    }
                    other => Self::has_special(other, "__call__"),
                }))
            }
            "getattr" => {
                self.arity("getattr", &args, 2, 3)?;
                let Value::Str(attr) = &args[1] else {
                    return self.raise("TypeError", "attribute name must be string");
                };
                match self.get_attribute(&args[0], attr) {
                    Ok(v) => Ok(v),
                    Err(super::Unwind::Raise(e))
                        if args.len() == 3 && e.is_instance(&types::builtin("AttributeError")) =>
                    {
                        Ok(args[2].clone())
                    }
                    Err(e) => Err(e),
                }
            }
            "hasattr" => {
                self.arity("hasattr", &args, 2, 2)?;
                let Value::Str(attr) = &args[1] else {
                    return self.raise("TypeError", "attribute name must be string");
                };
                Ok(Value::Bool(self.has_attribute(&args[0], attr)?))
            }
            "delattr" => {
                self.arity("delattr", &args, 2, 2)?;
                let Value::Str(attr) = &args[1] else {
                    return self.raise("TypeError", "attribute name must be string");
                };
                let attr = attr.clone();
                if !self.delete_instance_attribute(&args[0], &attr)? {
                    return self.raise(
                        "AttributeError",
                        format!("'{}' object has no attribute '{attr}'", args[0].type_name()),
                    );
                }
                Ok(Value::None)
            }
            "setattr" => {
                self.arity("setattr", &args, 3, 3)?;
                let Value::Str(attr) = &args[1] else {
                    return self.raise("TypeError", "attribute name must be string");
                };
                let attr = attr.clone();
                self.set_attribute(&args[0], &attr, args[2].clone())?;
                Ok(Value::None)
            }
            "exit" | "quit" => {
                let code = args.first().cloned().unwrap_or(Value::None);
                Err(self.throw(PyException::of_class(
                    types::builtin("SystemExit"),
                    vec![code],
                )))
            }
            "open" => {
                let mode = kw.take("mode").or_else(|| args.get(1).cloned());
                self.no_more_keywords("open", &kw)?;
                self.arity("open", &args, 1, 2)?;
                let Some(path) = self.fspath(&args[0])? else {
                    return self.raise(
                        "TypeError",
                        format!(
                            "expected str, bytes or os.PathLike object, not {}",
                            args[0].type_name()
                        ),
                    );
                };
                let path = &path;
                let mode = match mode {
                    Some(Value::Str(m)) => m.to_string(),
                    None => "r".into(),
                    Some(other) => {
                        return self.raise(
                            "TypeError",
                            format!(
                                "open() argument 'mode' must be str, not {}",
                                other.type_name()
                            ),
                        );
                    }
                };
                self.open_file(path, &mode)
            }
            "vars" | "dir" if args.len() == 1 => {
                let object = args[0].clone();
                if name == "vars" {
                    return match &object {
                        Value::Instance(_) | Value::Class(_) => {
                            self.get_attribute(&object, "__dict__")
                        }
                        Value::Exception(e) if e.instance.is_some() => {
                            self.get_attribute(&object, "__dict__")
                        }
                        _ => {
                            self.raise("TypeError", "vars() argument must have __dict__ attribute")
                        }
                    };
                }
                self.attribute_names(&object)
            }
            "vars" | "dir" | "globals" | "locals" => self.raise(
                "NotImplementedError",
                format!("tensh's Python does not have {name}()"),
            ),
            // The builtin types, called.
            "int" => self.int_from(args, kw),
            "float" => {
                self.no_more_keywords("float", &kw)?;
                self.arity("float", &args, 0, 1)?;
                match args.first() {
                    None => Ok(Value::Float(0.0)),
                    Some(v) => self.float_from(v),
                }
            }
            "complex" => {
                self.arity("complex", &args, 0, 2)?;
                let re = match args.first() {
                    Some(Value::Complex(c)) => return Ok(Value::Complex(*c)),
                    Some(v) => self.float_from(v)?.as_float().unwrap_or(0.0),
                    None => 0.0,
                };
                let im = match args.get(1) {
                    Some(v) => self.float_from(v)?.as_float().unwrap_or(0.0),
                    None => 0.0,
                };
                Ok(Value::Complex(num_complex::Complex64::new(re, im)))
            }
            "bool" => {
                self.arity("bool", &args, 0, 1)?;
                match args.first() {
                    Some(v) => Ok(Value::Bool(self.truthy(v)?)),
                    None => Ok(Value::Bool(false)),
                }
            }
            "str" => {
                self.arity("str", &args, 0, 1)?;
                match args.first() {
                    Some(v) => Ok(Value::str(self.str_text(v)?)),
                    None => Ok(Value::str("")),
                }
            }
            "set" | "frozenset" => {
                self.arity(name, &args, 0, 1)?;
                let set = self.set_of(Vec::new())?;
                if let Some(source) = args.first() {
                    self.set_update(&set, source)?;
                }
                Ok(Value::Set(set))
            }
            "list" | "tuple" => {
                self.arity(name, &args, 0, 1)?;
                let items = match args.first() {
                    Some(v) => self.collect(v)?,
                    None => Vec::new(),
                };
                match name {
                    "list" => Ok(Value::list(items)),
                    "tuple" => Ok(Value::tuple(items)),
                    _ => self.make_set(items),
                }
            }
            "dict" => {
                self.arity("dict", &args, 0, 1)?;
                let entries = Rc::new(std::cell::RefCell::new(
                    crate::python::value::dict::Dict::new(),
                ));
                if let Some(source) = args.first() {
                    match source {
                        Value::Dict(d) => *entries.borrow_mut() = d.borrow().clone(),
                        other => {
                            for pair in self.collect(other)? {
                                let kv = self.collect(&pair)?;
                                if kv.len() != 2 {
                                    return self.raise(
                                        "ValueError",
                                        format!("dictionary update sequence element has length {}; 2 is required", kv.len()),
                                    );
                                }
                                let mut kv = kv.into_iter();
                                let (k, v) = (
                                    kv.next().unwrap_or(Value::None),
                                    kv.next().unwrap_or(Value::None),
                                );
                                self.dict_set(&entries, k, v)?;
                            }
                        }
                    }
                }
                for (k, v) in kw.0 {
                    self.dict_set(&entries, Value::Str(k), v)?;
                }
                Ok(Value::Dict(entries))
            }
            "range" => {
                self.arity("range", &args, 1, 3)?;
                let mut ints = Vec::with_capacity(3);
                for a in &args {
                    if matches!(a, Value::BigInt(_)) {
                        // CPython's ranges take any int; tensh's are 64-bit, said in words.
                        return self.raise(
                            "OverflowError",
                            "tensh's ranges take bounds and steps within 64 bits",
                        );
                    }
                    ints.push(self.index_int(a)?);
                }
                let (start, stop, step) = match ints.as_slice() {
                    [stop] => (0, *stop, 1),
                    [start, stop] => (*start, *stop, 1),
                    [start, stop, step] => (*start, *stop, *step),
                    _ => (0, 0, 1),
                };
                if step == 0 {
                    return self.raise("ValueError", "range() arg 3 must not be zero");
                }
                Ok(Value::Range(start, stop, step))
            }
            "slice" => {
                self.arity("slice", &args, 1, 3)?;
                let mut parts = [Value::None, Value::None, Value::None];
                match args.len() {
                    1 => parts[1] = args[0].clone(),
                    _ => {
                        for (i, a) in args.iter().enumerate() {
                            parts[i] = a.clone();
                        }
                    }
                }
                Ok(Value::Slice(Rc::new(parts)))
            }
            "type" => {
                if let [Value::Str(_), _, Value::Dict(_)] = args.as_slice() {
                    // `type(name, bases, dict)`: a class made as a statement would make it
                    // (`type.__new__`, its bases' metaclass kept).
                    let meta = Value::Type(crate::python::types::builtin("type"));
                    return self.type_new(
                        &meta,
                        CallArgs {
                            args,
                            keywords: Vec::new(),
                        },
                    );
                }
                self.arity("type", &args, 1, 1)?;
                Ok(self.class_value(&args[0]))
            }
            "super" => {
                self.no_more_keywords("super", &kw)?;
                self.make_super(args)
            }
            "property" | "staticmethod" | "classmethod" => self.make_descriptor(name, args, kw.0),
            "object" => self.raise(
                "NotImplementedError",
                "tensh's Python does not make plain objects",
            ),
            "bytes" | "bytearray" => {
                // A bytes or bytearray value given to make another: its bytes as a list.
                let mut args = args;
                if let Some(v @ Value::Host(_)) = args.first() {
                    args[0] = self.host_method(v.clone(), "tolist", Vec::new())?;
                }
                let call = CallArgs {
                    args,
                    keywords: kw.0,
                };
                self.call_host_path(name, call)
            }
            other => self.raise("NameError", format!("name '{other}' is not defined")),
        }
    }

    /// `len(v)`.
    pub(super) fn length(&mut self, v: &Value) -> Flow<i64> {
        Ok(match v {
            Value::Str(s) => s.chars().count() as i64,
            Value::List(items) => items.borrow().len() as i64,
            Value::Set(items) => items.borrow().len() as i64,
            Value::DictView(_, entries) => entries.borrow().len() as i64,
            Value::Tuple(items) => items.len() as i64,
            Value::Dict(entries) => entries.borrow().len() as i64,
            Value::Range(start, stop, step) => {
                crate::python::value::iteration::range_len(*start, *stop, *step)
            }
            Value::Tensor(t) if t.ndim() == 0 => {
                return self.raise("TypeError", "len() of a 0-d tensor");
            }
            Value::Host(_) | Value::Tensor(_) => {
                let n = self
                    .host
                    .call("len", HostCall::positional(v.to_host(), Vec::new()));
                self.lift(n)?.as_int().unwrap_or_default()
            }
            Value::Instance(i) if i.base.is_some() && !Self::has_special(v, "__len__") => {
                let base = i.base.clone().unwrap_or(Value::None);
                self.length(&base)?
            }
            Value::Instance(_) | Value::Class(_) if Self::has_special(v, "__len__") => {
                match self.special(v, "__len__", Vec::new())? {
                    Some(Value::Int(n)) if n < 0 => {
                        return self.raise("ValueError", "__len__() should return >= 0");
                    }
                    Some(Value::Int(n)) => n,
                    Some(Value::Bool(b)) => b as i64,
                    Some(other) => {
                        return self.raise(
                            "TypeError",
                            format!(
                                "'{}' object cannot be interpreted as an integer",
                                other.type_name()
                            ),
                        );
                    }
                    None => 0,
                }
            }
            other => {
                return self.raise(
                    "TypeError",
                    format!("object of type '{}' has no len()", other.type_name()),
                );
            }
        })
    }

    /// Calls a method of a tensh value with positional arguments.
    pub(super) fn host_method(
        &mut self,
        receiver: Value,
        name: &str,
        args: Vec<Value>,
    ) -> Flow<Value> {
        self.call_host_method(
            receiver,
            name,
            CallArgs {
                args,
                keywords: Vec::new(),
            },
        )
    }

    /// `isinstance`/`issubclass`'s test against a class or a tuple of classes.
    fn is_subclass(&mut self, class: &Value, of: &Value, function: &str) -> Flow<bool> {
        match (class, of) {
            (Value::Type(c), Value::Type(t)) => return Ok(c.is_subclass_of(t)),
            (Value::Class(c), Value::Class(t)) => return Ok(c.derives_from(t)),
            (Value::Class(c), Value::Type(t)) => {
                return Ok(&*t.name == "object"
                    || (c.is_meta && &*t.name == "type")
                    || c.exception.as_ref().is_some_and(|e| e.is_subclass_of(t))
                    || c.builtin.as_ref().is_some_and(|b| b.is_subclass_of(t)));
            }
            (Value::Type(_), Value::Class(_)) => return Ok(false),
            _ => {}
        }
        match of {
            Value::Tuple(items) => {
                for item in items.iter() {
                    if self.is_subclass(class, item, function)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            _ => self.raise(
                "TypeError",
                format!("{function}() arg 2 must be a type, a tuple of types, or a union"),
            ),
        }
    }

    /// `min(...)`/`max(...)`.
    fn extreme(&mut self, name: &str, args: Vec<Value>, mut kw: Keywords) -> Flow<Value> {
        let key = kw.take("key").filter(|k| !matches!(k, Value::None));
        let default = kw.take("default");
        self.no_more_keywords(name, &kw)?;
        let items = match args.len() {
            0 => {
                return self.raise(
                    "TypeError",
                    format!("{name} expected at least 1 argument, got 0"),
                );
            }
            1 => self.collect(&args[0])?,
            _ => args,
        };
        if items.is_empty() {
            return match default {
                Some(d) => Ok(d),
                None => self.raise("ValueError", format!("{name}() arg is an empty sequence")),
            };
        }
        let mut best = items[0].clone();
        let mut best_key = self.sort_key(&best, key.as_ref())?;
        for x in items.into_iter().skip(1) {
            let k = self.sort_key(&x, key.as_ref())?;
            let op = if name == "min" {
                ruff_python_ast::CmpOp::Lt
            } else {
                ruff_python_ast::CmpOp::Gt
            };
            let better = self.compare(op, &k, &best_key)?;
            if self.truthy(&better)? {
                best = x;
                best_key = k;
            }
        }
        Ok(best)
    }

    /// The value sorting compares for `x`.
    fn sort_key(&mut self, x: &Value, key: Option<&Value>) -> Flow<Value> {
        match key {
            Some(f) => self.call_value(
                f,
                CallArgs {
                    args: vec![x.clone()],
                    keywords: Vec::new(),
                },
            ),
            None => Ok(x.clone()),
        }
    }

    /// A stable sort of `items` (by `key`, descending if `reverse`), as `sorted` and
    /// `list.sort` make it.
    pub(super) fn sort_values(
        &mut self,
        items: Vec<Value>,
        key: Option<&Value>,
        reverse: bool,
    ) -> Flow<Vec<Value>> {
        let mut keyed = Vec::with_capacity(items.len());
        for x in items {
            let k = self.sort_key(&x, key)?;
            keyed.push((k, x));
        }
        // A merge sort: comparisons may raise, which `sort_by` cannot pass on.
        let sorted = self.merge_sort(keyed, reverse)?;
        Ok(sorted.into_iter().map(|(_, x)| x).collect())
    }

    fn merge_sort(
        &mut self,
        mut v: Vec<(Value, Value)>,
        reverse: bool,
    ) -> Flow<Vec<(Value, Value)>> {
        if v.len() <= 1 {
            return Ok(v);
        }
        let right = v.split_off(v.len() / 2);
        let left = self.merge_sort(v, reverse)?;
        let right = self.merge_sort(right, reverse)?;
        let mut out = Vec::with_capacity(left.len() + right.len());
        let (mut l, mut r) = (left.into_iter().peekable(), right.into_iter().peekable());
        while let (Some(a), Some(b)) = (l.peek(), r.peek()) {
            // Take from the right only when it is strictly before the left (stability).
            let op = if reverse {
                ruff_python_ast::CmpOp::Gt
            } else {
                ruff_python_ast::CmpOp::Lt
            };
            let before = self.compare(op, &b.0, &a.0)?;
            let take_right = self.truthy(&before)?;
            let next = if take_right { r.next() } else { l.next() };
            out.extend(next);
        }
        out.extend(l);
        out.extend(r);
        Ok(out)
    }

    /// `round(x, ndigits)`.
    fn round(&mut self, x: &Value, ndigits: Option<Value>) -> Flow<Value> {
        let digits = match &ndigits {
            None | Some(Value::None) => None,
            Some(v) => Some(self.index_int(v)?),
        };
        match (x, digits) {
            (Value::Int(_) | Value::Bool(_) | Value::BigInt(_), None) => {
                Ok(Value::long(x.as_long().unwrap_or_default()))
            }
            (Value::Int(_) | Value::BigInt(_), Some(d)) => {
                let n = x.as_long().unwrap_or_default();
                Ok(Value::long(crate::python::int_math::round_to_power_of_ten(
                    &n, d,
                )))
            }
            (Value::Float(f), None) => {
                if f.is_nan() {
                    return self.raise("ValueError", "cannot convert float NaN to integer");
                }
                if f.is_infinite() {
                    return self.raise("OverflowError", "cannot convert float infinity to integer");
                }
                match crate::python::int_math::whole_float(f.round_ties_even()) {
                    Ok(n) => Ok(Value::long(n)),
                    Err(e) => Err(self.throw(e)),
                }
            }
            (Value::Float(f), Some(d)) => {
                if !f.is_finite() || d > 300 {
                    return Ok(Value::Float(*f));
                }
                if d < 0 {
                    let m = 10f64.powi((-d) as i32);
                    return Ok(Value::Float((f / m).round_ties_even() * m));
                }
                // The exact binary value rounded to `d` decimals, as Python does.
                let text = format!("{f:.prec$}", prec = d as usize);
                Ok(Value::Float(text.parse().unwrap_or(*f)))
            }
            // A tensor has no `__round__` (PyTorch's `round(t)` is a TypeError), nor has any
            // other tensh value.
            (other, _) => self.raise(
                "TypeError",
                format!("type {} doesn't define __round__ method", other.type_name()),
            ),
        }
    }

    /// `id(v)` (or `hash(v)`: CPython's value for numbers and tuples of them, a tensor's
    /// `id`, its repr's hash for another tensh value).
    fn identity(&mut self, v: &Value, hash: bool) -> Flow<i64> {
        if hash {
            return match v {
                Value::Host(_) => {
                    let text = self.repr_text(v)?;
                    Ok(crate::python::hash::text(&text))
                }
                other => self.hash_of_key(other),
            };
        }
        Ok(match v {
            Value::Tensor(t) => t.id() as i64,
            Value::Host(_) => 0,
            Value::List(x) => Rc::as_ptr(x) as i64,
            Value::Dict(x) => Rc::as_ptr(x) as i64,
            Value::Set(x) => Rc::as_ptr(x) as i64,
            Value::Function(f) => Rc::as_ptr(f) as i64,
            Value::Tuple(t) => Rc::as_ptr(t) as i64,
            Value::Instance(i) => Rc::as_ptr(i) as i64,
            Value::Class(c) => Rc::as_ptr(c) as i64,
            Value::Exception(e) => Rc::as_ptr(e) as i64,
            other => crate::python::hash::text(&other.type_name()),
        })
    }

    /// `int(x)`, `int(s, base)`.
    fn int_from(&mut self, args: Vec<Value>, mut kw: Keywords) -> Flow<Value> {
        let base = kw.take("base").or_else(|| args.get(1).cloned());
        self.no_more_keywords("int", &kw)?;
        self.arity("int", &args, 0, 2)?;
        let Some(x) = args.first() else {
            return Ok(Value::Int(0));
        };
        if let Some(base) = base {
            let Value::Str(s) = x else {
                return self.raise(
                    "TypeError",
                    "int() can't convert non-string with explicit base",
                );
            };
            let b = base.as_int().unwrap_or(10);
            let text = s.trim().replace('_', "");
            let (negative, digits) = match text.strip_prefix('-') {
                Some(d) => (true, d.to_string()),
                None => (false, text.trim_start_matches('+').to_string()),
            };
            let digits = match b {
                16 => digits
                    .trim_start_matches("0x")
                    .trim_start_matches("0X")
                    .to_string(),
                8 => digits.trim_start_matches("0o").to_string(),
                2 => digits.trim_start_matches("0b").to_string(),
                _ => digits,
            };
            let parsed = if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_alphanumeric())
            {
                Ok(None)
            } else {
                crate::python::long::parse_digits(&digits, b.clamp(2, 36) as u32)
            };
            return match parsed {
                Err(e) => Err(self.throw(e)),
                Ok(Some(v)) => Ok(Value::long(if negative { -v } else { v })),
                Ok(None) => {
                    let r = self.repr_text(x)?;
                    self.raise(
                        "ValueError",
                        format!("invalid literal for int() with base {b}: {r}"),
                    )
                }
            };
        }
        match x {
            Value::Int(i) => Ok(Value::Int(*i)),
            Value::BigInt(_) => Ok(x.clone()),
            Value::Bool(b) => Ok(Value::Int(*b as i64)),
            Value::Float(f) => {
                if f.is_nan() {
                    return self.raise("ValueError", "cannot convert float NaN to integer");
                }
                if f.is_infinite() {
                    return self.raise("OverflowError", "cannot convert float infinity to integer");
                }
                match crate::python::int_math::whole_float(f.trunc()) {
                    Ok(n) => Ok(Value::long(n)),
                    Err(e) => Err(self.throw(e)),
                }
            }
            Value::Str(s) => {
                let text = s.trim().replace('_', "");
                let (negative, digits) = match text.strip_prefix('-') {
                    Some(d) => (true, d),
                    None => (false, text.strip_prefix('+').unwrap_or(&text)),
                };
                let well_formed = !digits.is_empty()
                    && digits.bytes().all(|c| c.is_ascii_digit())
                    && !s.trim().starts_with('_')
                    && !s.trim().ends_with('_')
                    && !s.contains("__");
                let parsed = if well_formed {
                    crate::python::long::parse_digits(digits, 10)
                } else {
                    Ok(None)
                };
                match parsed {
                    Err(e) => Err(self.throw(e)),
                    Ok(Some(v)) => Ok(Value::long(if negative { -v } else { v })),
                    Ok(None) => {
                        let r = self.repr_text(x)?;
                        self.raise("ValueError", format!("invalid literal for int() with base 10: {r}"))
                    }
                }
            }
            Value::Host(_) | Value::Tensor(_) => {
                let item = match self.number_item(x)? {
                    // A complex tensor's item converts to an integer only when it is real.
                    Value::Complex(z) if matches!(x, Value::Tensor(_)) => {
                        if z.im != 0.0 {
                            return self.raise(
                                "RuntimeError",
                                "value cannot be converted to type int64_t without overflow",
                            );
                        }
                        Value::Float(z.re)
                    }
                    item => item,
                };
                self.int_from(vec![item], Keywords(Vec::new()))
            }
            other => self.raise(
                "TypeError",
                format!(
                    "int() argument must be a string, a bytes-like object or a real number, not '{}'",
                    other.type_name()
                ),
            ),
        }
    }

    /// `float(x)`.
    /// The number a host value stands for in `int()`, `float()` and `complex()`: its
    /// `item()`, refused in PyTorch's words for a tensor of other than one element.
    fn number_item(&mut self, v: &Value) -> Flow<Value> {
        if v.as_tensor().is_some_and(|t| t.numel() != 1) {
            return self.raise(
                "ValueError",
                "only one element tensors can be converted to Python scalars",
            );
        }
        self.host_method(v.clone(), "item", Vec::new())
    }

    fn float_from(&mut self, x: &Value) -> Flow<Value> {
        match x {
            Value::Float(f) => Ok(Value::Float(*f)),
            Value::Int(_) | Value::Bool(_) => Ok(Value::Float(x.as_float().unwrap_or(0.0))),
            Value::BigInt(n) => match crate::python::long::to_f64(n) {
                Ok(f) => Ok(Value::Float(f)),
                Err(e) => Err(self.throw(e)),
            },
            Value::Str(s) => {
                let t = s.trim().to_ascii_lowercase().replace('_', "");
                let v = match t.as_str() {
                    "nan" | "+nan" => Some(f64::NAN),
                    "-nan" => Some(-f64::NAN),
                    "inf" | "+inf" | "infinity" | "+infinity" => Some(f64::INFINITY),
                    "-inf" | "-infinity" => Some(f64::NEG_INFINITY),
                    _ => t.parse::<f64>().ok(),
                };
                match v {
                    Some(v) => Ok(Value::Float(v)),
                    None => {
                        let r = self.repr_text(x)?;
                        self.raise(
                            "ValueError",
                            format!("could not convert string to float: {r}"),
                        )
                    }
                }
            }
            Value::Host(_) | Value::Tensor(_) => {
                let item = self.number_item(x)?;
                if let Value::Complex(z) = item {
                    if matches!(x, Value::Tensor(_)) {
                        // A complex tensor's item converts to a double only when it is real.
                        if z.im == 0.0 {
                            return Ok(Value::Float(z.re));
                        }
                        return self.raise(
                            "RuntimeError",
                            "value cannot be converted to type double without overflow",
                        );
                    }
                    return self.raise(
                        "TypeError",
                        "float() argument must be a string or a real number, not 'complex'",
                    );
                }
                self.float_from(&item)
            }
            other => self.raise(
                "TypeError",
                format!(
                    "float() argument must be a string or a real number, not '{}'",
                    other.type_name()
                ),
            ),
        }
    }

    /// The class of a value (`type(x)`).
    pub(super) fn type_of(&self, v: &Value) -> Rc<types::TypeObject> {
        match v {
            Value::Exception(e) => e.class.clone(),
            Value::Instance(_) => types::builtin("object"),
            Value::Tensor(t) if t.is_parameter() => types::parameter_class(),
            Value::Tensor(t) => types::host_type(&self.host.type_name(&Dynamic::from(t.clone()))),
            Value::Host(d) => {
                if let Some(r) = d.read_lock::<crate::ops::return_tuple::ReturnTuple>() {
                    return types::named_tuple(r.kind);
                }
                if let Some(g) = d.read_lock::<crate::ops::grad_fn::GradFn>() {
                    return types::node_class(&g.0.name, g.class_module());
                }
                types::host_type(&self.host.type_name(d))
            }
            Value::HostPath(p) if &**p == "torch" => types::builtin("module"),
            other => types::builtin(&other.type_name()),
        }
    }
}

/// An iterator value over `items`.
fn iterator(items: Vec<Value>) -> Value {
    PyIter::Items(Rc::new(crate::python::value::Seq(items)), 0).into_value()
}
