//! Expressions: literals, names, operators, calls, attributes, subscripts, displays,
//! comprehensions, lambdas and f-strings.

use std::rc::Rc;

use ruff_python_ast::{
    self as ast, BoolOp, Comprehension, ConversionFlag, Expr, FStringPart,
    InterpolatedStringElement, Number, UnaryOp,
};
use ruff_text_size::Ranged;

use super::stmt::bin_op;
use super::{Flow, Interpreter};
use crate::python::function::{Body, Scope, ScopeKind};
use crate::python::value::Value;

/// A call's evaluated arguments.
pub struct CallArgs {
    /// Positional arguments, `*` unpacked.
    pub args: Vec<Value>,
    /// Keyword arguments in order, `**` unpacked.
    pub keywords: Vec<(Rc<str>, Value)>,
}

impl Interpreter {
    /// The value of `e`.
    pub(super) fn eval(&mut self, e: &'static Expr, scope: &Rc<Scope>) -> Flow<Value> {
        if let Expr::ListComp(_)
        | Expr::SetComp(_)
        | Expr::DictComp(_)
        | Expr::Generator(_)
        | Expr::Await(_)
        | Expr::TString(_)
        | Expr::IpyEscapeCommand(_) = e
            && let Some(what) = crate::python::source::unsupported_expression(e)
        {
            return self.raise(
                "NotImplementedError",
                format!("tensh's Python does not run {what}"),
            );
        }
        match e {
            Expr::NumberLiteral(n) => match &n.value {
                Number::Int(i) => match i.as_i64() {
                    Some(v) => Ok(Value::Int(v)),
                    None => self.big_literal(&i.to_string()),
                },
                Number::Float(f) => Ok(Value::Float(*f)),
                Number::Complex { real, imag } => {
                    Ok(Value::Complex(num_complex::Complex64::new(*real, *imag)))
                }
            },
            Expr::StringLiteral(s) => Ok(Value::str(s.value.to_str())),
            Expr::BooleanLiteral(b) => Ok(Value::Bool(b.value)),
            Expr::NoneLiteral(_) => Ok(Value::None),
            Expr::EllipsisLiteral(_) => Ok(Value::Ellipsis),
            Expr::BytesLiteral(b) => {
                let bytes: Vec<Value> = b.value.bytes().map(|x| Value::Int(x as i64)).collect();
                self.call_builtin("bytes", vec![Value::list(bytes)], Vec::new())
            }
            Expr::Name(n) => self.read_name(n, scope),
            Expr::BoolOp(b) => {
                let mut last = Value::None;
                for (i, v) in b.values.iter().enumerate() {
                    last = self.eval(v, scope)?;
                    if i + 1 == b.values.len() {
                        break;
                    }
                    let t = self.truthy(&last)?;
                    match b.op {
                        BoolOp::And if !t => return Ok(last),
                        BoolOp::Or if t => return Ok(last),
                        _ => {}
                    }
                }
                Ok(last)
            }
            Expr::Named(n) => {
                let value = self.eval(&n.value, scope)?;
                let mut target = scope.clone();
                while matches!(target.kind, ScopeKind::Comprehension) {
                    let Some(p) = target.parent.clone() else {
                        break;
                    };
                    target = p;
                }
                if let Expr::Name(name) = &*n.target {
                    self.bind(name.id.as_str(), value.clone(), &target);
                }
                Ok(value)
            }
            Expr::BinOp(b) => {
                let left = self.eval(&b.left, scope)?;
                let right = self.eval(&b.right, scope)?;
                self.binary(bin_op(b.op), left, right)
            }
            Expr::UnaryOp(u) => {
                let v = self.eval(&u.operand, scope)?;
                match u.op {
                    UnaryOp::Not => Ok(Value::Bool(!self.truthy(&v)?)),
                    op => self.unary(op, v),
                }
            }
            Expr::Lambda(l) => self.make_function(
                "<lambda>",
                l.parameters.as_deref(),
                Body::Expression(&l.body),
                e as *const Expr as usize,
                scope,
            ),
            Expr::If(i) => {
                if self.eval_truth(&i.test, scope)? {
                    self.eval(&i.body, scope)
                } else {
                    self.eval(&i.orelse, scope)
                }
            }
            Expr::Dict(d) => {
                let entries = self.dict_of(Vec::new())?;
                for item in &d.items {
                    match &item.key {
                        Some(k) => {
                            let key = self.eval(k, scope)?;
                            let value = self.eval(&item.value, scope)?;
                            self.dict_set(&entries, key, value)?;
                        }
                        None => {
                            let other = self.eval(&item.value, scope)?;
                            for (k, v) in self.mapping_items(&other)? {
                                self.dict_set(&entries, k, v)?;
                            }
                        }
                    }
                }
                Ok(Value::Dict(entries))
            }
            Expr::Set(s) => {
                let items = self.eval_elements(&s.elts, scope)?;
                self.make_set(items)
            }
            Expr::List(l) => Ok(Value::list(self.eval_elements(&l.elts, scope)?)),
            Expr::Tuple(t) => Ok(Value::tuple(self.eval_elements(&t.elts, scope)?)),
            Expr::ListComp(c) => {
                let mut out = Vec::new();
                self.comprehension(&c.generators, scope, &mut |me, inner| {
                    out.push(me.eval(&c.elt, inner)?);
                    Ok(())
                })?;
                Ok(Value::list(out))
            }
            Expr::Generator(c) => self.generator(&c.generators, &c.elt, scope),
            Expr::SetComp(c) => {
                let mut out = Vec::new();
                self.comprehension(&c.generators, scope, &mut |me, inner| {
                    out.push(me.eval(&c.elt, inner)?);
                    Ok(())
                })?;
                self.make_set(out)
            }
            Expr::DictComp(c) => {
                let entries = self.dict_of(Vec::new())?;
                self.comprehension(&c.generators, scope, &mut |me, inner| {
                    let k = me.eval(&c.key, inner)?;
                    let v = me.eval(&c.value, inner)?;
                    me.dict_set(&entries, k, v)
                })?;
                Ok(Value::Dict(entries))
            }
            Expr::Compare(c) => {
                // `a < b < c` is `a < b and b < c`: the first false result, else the
                // last (a tensor's comparison stays a tensor).
                let mut left = self.eval(&c.left, scope)?;
                let mut result = Value::Bool(true);
                for (i, (op, right)) in c.ops.iter().zip(c.comparators.iter()).enumerate() {
                    let right = self.eval(right, scope)?;
                    result = self.compare(*op, &left, &right)?;
                    if i + 1 < c.ops.len() && !self.truthy(&result)? {
                        return Ok(result);
                    }
                    left = right;
                }
                Ok(result)
            }
            Expr::Call(c) => self.eval_call(c, scope),
            Expr::FString(f) => {
                let mut out = String::new();
                for part in f.value.iter() {
                    match part {
                        FStringPart::Literal(s) => out.push_str(&s.value),
                        FStringPart::FString(fs) => {
                            self.interpolate(&fs.elements, scope, &mut out)?;
                        }
                    }
                }
                Ok(Value::str(out))
            }
            Expr::Attribute(a) => {
                let object = self.eval(&a.value, scope)?;
                self.get_attribute(&object, a.attr.as_str())
            }
            Expr::Subscript(s) => {
                let container = self.eval(&s.value, scope)?;
                let index = self.eval_index(&s.slice, scope)?;
                let result = self.get_item(&container, index);
                if result.is_err() {
                    self.note_failed_receiver(&s.value);
                }
                result
            }
            Expr::Slice(_) => self.eval_index(e, scope),
            Expr::Starred(_) => self.raise("SyntaxError", "can't use starred expression here"),
            Expr::Yield(_) | Expr::YieldFrom(_) => self.nested_yield(),
            other => self.raise(
                "NotImplementedError",
                format!(
                    "tensh's Python does not run this expression (line {})",
                    self.frames
                        .last()
                        .map_or(0, |f| f.source.line_of(other.start()))
                ),
            ),
        }
    }

    /// The truth value of `e`.
    pub(super) fn eval_truth(&mut self, e: &'static Expr, scope: &Rc<Scope>) -> Flow<bool> {
        let v = self.eval(e, scope)?;
        self.truthy(&v)
    }

    /// A subscript's index: slices as `Value::Slice`, tuples of them as a tuple.
    pub(super) fn eval_index(&mut self, e: &'static Expr, scope: &Rc<Scope>) -> Flow<Value> {
        match e {
            Expr::Slice(s) => {
                let mut bound = |b: &'static Option<Box<Expr>>| -> Flow<Value> {
                    match b {
                        Some(x) => self.eval(x, scope),
                        None => Ok(Value::None),
                    }
                };
                let lower = bound(&s.lower)?;
                let upper = bound(&s.upper)?;
                let step = bound(&s.step)?;
                Ok(Value::Slice(Rc::new([lower, upper, step])))
            }
            Expr::Tuple(t) => {
                let mut items = Vec::with_capacity(t.elts.len());
                for x in &t.elts {
                    if let Expr::Starred(s) = x {
                        let v = self.eval(&s.value, scope)?;
                        items.extend(self.collect(&v)?);
                    } else {
                        items.push(self.eval_index(x, scope)?);
                    }
                }
                Ok(Value::tuple(items))
            }
            other => self.eval(other, scope),
        }
    }

    /// The items of a list, tuple or set display, `*` unpacked.
    fn eval_elements(&mut self, elts: &'static [Expr], scope: &Rc<Scope>) -> Flow<Vec<Value>> {
        let mut out = Vec::with_capacity(elts.len());
        for x in elts {
            if let Expr::Starred(s) = x {
                let v = self.eval(&s.value, scope)?;
                out.extend(self.collect(&v)?);
            } else {
                out.push(self.eval(x, scope)?);
            }
        }
        Ok(out)
    }

    /// Runs `emit` once per combination of a comprehension's `for` clauses (with their
    /// `if`s), in a scope of the comprehension's own.
    fn comprehension(
        &mut self,
        generators: &'static [Comprehension],
        scope: &Rc<Scope>,
        emit: &mut dyn FnMut(&mut Self, &Rc<Scope>) -> Flow<()>,
    ) -> Flow<()> {
        let first = self.eval(&generators[0].iter, scope)?;
        let inner = Scope::inside(scope, ScopeKind::Comprehension);
        self.comprehension_level(generators, 0, first, &inner, emit)
    }

    fn comprehension_level(
        &mut self,
        generators: &'static [Comprehension],
        level: usize,
        iterable: Value,
        inner: &Rc<Scope>,
        emit: &mut dyn FnMut(&mut Self, &Rc<Scope>) -> Flow<()>,
    ) -> Flow<()> {
        let g = &generators[level];
        let mut it = self.iter_of(&iterable)?;
        'items: while let Some(item) = self.next_of(&mut it)? {
            self.check_interrupt()?;
            self.assign(&g.target, item, inner)?;
            for condition in &g.ifs {
                if !self.eval_truth(condition, inner)? {
                    continue 'items;
                }
            }
            match generators.get(level + 1) {
                Some(next) => {
                    let iterable = self.eval(&next.iter, inner)?;
                    self.comprehension_level(generators, level + 1, iterable, inner, emit)?;
                }
                None => emit(self, inner)?,
            }
        }
        Ok(())
    }

    /// Appends an f-string's pieces to `out`.
    fn interpolate(
        &mut self,
        elements: &'static ast::InterpolatedStringElements,
        scope: &Rc<Scope>,
        out: &mut String,
    ) -> Flow<()> {
        for element in elements.iter() {
            match element {
                InterpolatedStringElement::Literal(l) => out.push_str(&l.value),
                InterpolatedStringElement::Interpolation(i) => {
                    let value = self.eval(&i.expression, scope)?;
                    let mut conversion = i.conversion;
                    if let Some(debug) = &i.debug_text {
                        let range = i.expression.range();
                        out.push_str(&debug.leading);
                        if let Some(frame) = self.frames.last() {
                            out.push_str(
                                frame
                                    .source
                                    .text()
                                    .get(range.start().into()..range.end().into())
                                    .unwrap_or(""),
                            );
                        }
                        out.push_str(&debug.trailing);
                        if conversion == ConversionFlag::None && i.format_spec.is_none() {
                            conversion = ConversionFlag::Repr;
                        }
                    }
                    let value = match conversion {
                        ConversionFlag::Repr | ConversionFlag::Ascii => {
                            Value::str(self.repr_text(&value)?)
                        }
                        ConversionFlag::Str => Value::str(self.str_text(&value)?),
                        ConversionFlag::None => value,
                    };
                    let spec = match &i.format_spec {
                        Some(spec) => {
                            let mut s = String::new();
                            self.interpolate(&spec.elements, scope, &mut s)?;
                            s
                        }
                        None => String::new(),
                    };
                    out.push_str(&self.format_value(&value, &spec)?);
                }
            }
        }
        Ok(())
    }

    /// Evaluates a call.
    fn eval_call(&mut self, c: &'static ast::ExprCall, scope: &Rc<Scope>) -> Flow<Value> {
        // `x.name(...)` on a tensh value calls the method without reading `x.name` first.
        if let Expr::Attribute(a) = &*c.func {
            let receiver = self.eval(&a.value, scope)?;
            if receiver.is_tensh() {
                // Python reads `x.name` before the arguments: when they raise, a name the
                // value does not have is the error (`AttributeError`), as it would have
                // been first. (The read itself is left to the call, on the hot path.)
                let args = match self.eval_arguments(&c.arguments, scope) {
                    Ok(args) => args,
                    Err(e) => {
                        if matches!(e, super::Unwind::Raise(_))
                            && !self.has_attribute(&receiver, a.attr.as_str())?
                        {
                            self.get_attribute(&receiver, a.attr.as_str())?;
                        }
                        return Err(e);
                    }
                };
                let result = self.call_host_method_at(Some(a), receiver, a.attr.as_str(), args);
                if result.is_err() {
                    self.note_failed_receiver(&a.value);
                }
                return result;
            }
            let function = self.get_attribute(&receiver, a.attr.as_str())?;
            let args = self.eval_arguments(&c.arguments, scope)?;
            return self.call_value(&function, args);
        }
        let function = self.eval(&c.func, scope)?;
        if Self::is_explain(&function) {
            return self.explain_call(c, scope);
        }
        let args = self.eval_arguments(&c.arguments, scope)?;
        if let Value::Builtin(name) = &function
            && Self::is_source_runner(&function)
        {
            return self.run_given_source(name, args.args, args.keywords, Some(scope));
        }
        self.call_value(&function, args)
    }

    /// An int literal past 64 bits, from its text as written (`0x`, `0o`, `0b` prefixes and
    /// `_` separators allowed, as the parser has checked).
    fn big_literal(&mut self, text: &str) -> Flow<Value> {
        let text = text.replace('_', "").to_ascii_lowercase();
        let (radix, digits) = match text.get(..2) {
            Some("0x") => (16, &text[2..]),
            Some("0o") => (8, &text[2..]),
            Some("0b") => (2, &text[2..]),
            _ => (10, text.as_str()),
        };
        match crate::python::long::parse_digits(digits, radix) {
            Ok(Some(n)) => Ok(Value::long(n)),
            Ok(None) => self.raise("SyntaxError", format!("invalid int literal {text}")),
            Err(e) => Err(self.throw(e)),
        }
    }

    /// Evaluates a call's arguments.
    fn eval_arguments(&mut self, a: &'static ast::Arguments, scope: &Rc<Scope>) -> Flow<CallArgs> {
        let mut args = Vec::with_capacity(a.args.len());
        for x in a.args.iter() {
            if let Expr::Starred(s) = x {
                let v = self.eval(&s.value, scope)?;
                args.extend(self.collect(&v)?);
            } else {
                args.push(self.eval(x, scope)?);
            }
        }
        let mut keywords: Vec<(Rc<str>, Value)> = Vec::with_capacity(a.keywords.len());
        for k in a.keywords.iter() {
            let v = self.eval(&k.value, scope)?;
            match &k.arg {
                Some(name) => keywords.push((name.as_str().into(), v)),
                None => {
                    for (key, value) in self.mapping_items(&v)? {
                        let Value::Str(key) = key else {
                            return self.raise("TypeError", "keywords must be strings");
                        };
                        if keywords.iter().any(|(k, _)| *k == key) {
                            return self.raise(
                                "TypeError",
                                format!("got multiple values for keyword argument '{key}'"),
                            );
                        }
                        keywords.push((key, value));
                    }
                }
            }
        }
        Ok(CallArgs { args, keywords })
    }
}
