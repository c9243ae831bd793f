//! Calling values: functions defined in the session (their parameters bound by Python's
//! rules), builtins, methods, classes, and tensh's ops (through the engine, with keyword
//! arguments as the op's declaration reads them).

use std::rc::Rc;

use rhai::{Dynamic, Map};
use ruff_python_ast as ast;

use super::expr::CallArgs;
use super::{Flow, Interpreter, Unwind};
use crate::python::convert::{Arrays, from_dynamic, to_dynamic};
use crate::python::exception::PyException;
use crate::python::function::{Body, Function, Scope, ScopeKind};
use crate::python::host::{FoundMethod, HostCall};
use crate::python::types::{TypeKind, TypeObject};
use crate::python::value::Value;

/// Methods of tensh's values that return Python lists (everything else returns tuples where
/// it returns several values).
const LIST_RESULTS: &[&str] = &["tolist", "torch::load", "keys"];

impl Interpreter {
    /// `f(*args, **keywords)`.
    pub(super) fn call_value(&mut self, f: &Value, call: CallArgs) -> Flow<Value> {
        match f {
            Value::Function(func) => self.call_function(func, call),
            Value::Builtin(name) => {
                let name = name.clone();
                self.call_builtin(&name, call.args, call.keywords)
            }
            Value::Class(c) => {
                let c = c.clone();
                if let Some((method, owner)) = c.find_in_metaclass("__call__") {
                    // A metaclass's `__call__` makes the class's instances.
                    let method = self.bind_attribute(method, f, &owner, "__call__")?;
                    return self.call_value(&method, call);
                }
                self.instantiate(&c, call)
            }
            Value::Bound(b) => {
                let b = b.clone();
                self.call_bound(&b.0, &b.1, call)
            }
            Value::GradMode(_) if call.args.len() == 1 && call.keywords.is_empty() => {
                // `@torch.no_grad()`: a grad-mode manager decorating a function.
                let func = call.args.into_iter().next().unwrap_or(Value::None);
                self.grad_mode_decorated(f.clone(), func)
            }
            Value::Instance(_) => match Self::class_of_instance(f).and_then(|c| c.find("__call__"))
            {
                Some((method, owner)) => {
                    let method = self.bind_attribute(method, f, &owner, "__call__")?;
                    self.call_value(&method, call)
                }
                None => self.raise(
                    "TypeError",
                    format!("'{}' object is not callable", f.qualified_type_name()),
                ),
            },
            Value::Descriptor(d)
                if matches!(**d, crate::python::value::class::Descriptor::Static(_)) =>
            {
                let crate::python::value::class::Descriptor::Static(inner) = &**d else {
                    unreachable!("matched as a staticmethod")
                };
                let inner = inner.clone();
                self.call_value(&inner, call)
            }
            Value::Method(m) => {
                let (receiver, name) = (&m.0, m.1.clone());
                match receiver {
                    Value::Host(_) | Value::Tensor(_) => {
                        self.call_host_method(receiver.clone(), &name, call)
                    }
                    Value::Instance(_) | Value::Class(_) | Value::Exception(_)
                        if super::methods::is_dunder(&name) =>
                    {
                        let receiver = receiver.clone();
                        self.object_method(&receiver, &name, call)
                    }
                    Value::Descriptor(d) => {
                        let d = d.clone();
                        self.property_method(&d, &name, call.args)
                    }
                    Value::Iterator(it) => {
                        let it = it.clone();
                        self.generator_method(&it, &name, call)
                    }
                    Value::Type(t) if t.kind == TypeKind::Builtin => {
                        let t = t.clone();
                        self.call_type_method(&t, &name, call)
                    }
                    other => {
                        let other = other.clone();
                        self.call_method(&other, &name, call)
                    }
                }
            }
            Value::HostPath(path) => {
                let path = path.clone();
                self.call_host_path(&path, call)
            }
            Value::Type(t) => {
                let t = t.clone();
                self.construct(&t, call)
            }
            other => self.raise(
                "TypeError",
                format!("'{}' object is not callable", other.qualified_type_name()),
            ),
        }
    }

    /// Calls a session function.
    pub(super) fn call_function(&mut self, f: &Rc<Function>, call: CallArgs) -> Flow<Value> {
        let scope = Scope::inside(&f.closure, ScopeKind::Function(f.names.clone()));
        self.bind_parameters(f, call, &scope)?;
        if f.names.is_generator() {
            return Ok(self.make_generator(f, scope));
        }
        self.push_frame(f.name.clone(), f.source.clone())?;
        if let Some(frame) = self.frames.last_mut() {
            frame.qualname = f.qualname.clone();
        }
        if let Some(class) = f.owner.borrow().upgrade()
            && let Some(first) = f
                .parameters
                .and_then(|p| p.posonlyargs.iter().chain(&p.args).next())
            && let Some(receiver) = scope.vars.borrow().get(first.parameter.name.as_str())
            && let Some(frame) = self.frames.last_mut()
        {
            frame.owner = Some((class, receiver.clone()));
        }
        let result = match f.body {
            Body::Statements(body) => match self.exec_block(body, &scope) {
                Ok(()) => Ok(Value::None),
                Err(Unwind::Return(v)) => Ok(v),
                Err(Unwind::Break | Unwind::Continue) => Ok(Value::None),
                Err(e) => Err(e),
            },
            Body::Expression(e) => {
                self.set_line(e);
                self.eval(e, &scope)
            }
        };
        self.frames.pop();
        result
    }

    /// Binds a call's arguments to `f`'s parameters in its new scope.
    fn bind_parameters(&mut self, f: &Function, call: CallArgs, scope: &Rc<Scope>) -> Flow<()> {
        let name = &f.qualname;
        let Some(p) = f.parameters else {
            if !call.args.is_empty() || !call.keywords.is_empty() {
                return self.raise(
                    "TypeError",
                    format!(
                        "{name}() takes 0 positional arguments but {} were given",
                        call.args.len()
                    ),
                );
            }
            return Ok(());
        };
        let positional = &f.names.positional;
        let mut vars = scope.vars.borrow_mut();
        let all_positional_given = call.args.len() >= positional.len();
        let mut args = call.args.into_iter();
        for param in positional {
            match args.next() {
                Some(v) => {
                    vars.insert(param.clone(), v);
                }
                None => break,
            }
        }
        let extra: Vec<Value> = args.collect();
        match &p.vararg {
            Some(v) => {
                vars.insert(v.name.as_str().into(), Value::tuple(extra));
            }
            None if !extra.is_empty() => {
                let given = positional.len() + extra.len();
                let takes = positional.len();
                drop(vars);
                return self.raise(
                    "TypeError",
                    format!(
                        "{name}() takes {takes} positional argument{} but {given} {} given",
                        if takes == 1 { "" } else { "s" },
                        if given == 1 { "was" } else { "were" }
                    ),
                );
            }
            None => {}
        }
        let mut kwargs: Vec<(Value, Value)> = Vec::new();
        for (k, v) in call.keywords {
            if p.args
                .iter()
                .chain(&p.kwonlyargs)
                .any(|a| a.parameter.name.as_str() == &*k)
            {
                if vars.contains_key(&k) {
                    drop(vars);
                    return self.raise(
                        "TypeError",
                        format!("{name}() got multiple values for argument '{k}'"),
                    );
                }
                vars.insert(k, v);
            } else if p.kwarg.is_some() {
                kwargs.push((Value::Str(k), v));
            } else {
                drop(vars);
                return self.raise(
                    "TypeError",
                    format!("{name}() got an unexpected keyword argument '{k}'"),
                );
            }
        }
        if let Some(k) = &p.kwarg {
            vars.insert(k.name.as_str().into(), Value::dict(kwargs));
        }
        let mut missing_positional = Vec::new();
        // Every positional parameter is bound when as many arguments came: none to check.
        let to_check = if all_positional_given {
            0
        } else {
            positional.len()
        };
        for param in p.posonlyargs.iter().chain(&p.args).take(to_check) {
            let n = param.parameter.name.as_str();
            if !vars.contains_key(n) {
                match f.defaults.get(n) {
                    Some(d) => {
                        vars.insert(n.into(), d.clone());
                    }
                    None => missing_positional.push(format!("'{n}'")),
                }
            }
        }
        let mut missing_keyword = Vec::new();
        for param in &p.kwonlyargs {
            let n = param.parameter.name.as_str();
            if !vars.contains_key(n) {
                match f.defaults.get(n) {
                    Some(d) => {
                        vars.insert(n.into(), d.clone());
                    }
                    None => missing_keyword.push(format!("'{n}'")),
                }
            }
        }
        let listed = |names: &[String]| -> String {
            match names.len() {
                1 => names[0].clone(),
                2 => format!("{} and {}", names[0], names[1]),
                n => format!("{}, and {}", names[..n - 1].join(", "), names[n - 1]),
            }
        };
        drop(vars);
        for (missing, what) in [
            (missing_positional, "positional"),
            (missing_keyword, "keyword-only"),
        ] {
            if !missing.is_empty() {
                let list = listed(&missing);
                return self.raise(
                    "TypeError",
                    format!(
                        "{name}() missing {} required {what} argument{}: {list}",
                        missing.len(),
                        if missing.len() == 1 { "" } else { "s" }
                    ),
                );
            }
        }
        Ok(())
    }

    /// The engine's form of a call's arguments.
    pub(super) fn host_arguments(
        &mut self,
        receiver: Option<Dynamic>,
        call: CallArgs,
    ) -> Flow<HostCall> {
        let mut args = crate::ops::args::Positionals::with_capacity(call.args.len());
        for a in &call.args {
            args.push(self.host_argument(a)?);
        }
        // No map at all for a call without keywords (an empty map still costs its drop).
        let keywords = if call.keywords.is_empty() {
            crate::ops::args::Keywords::default()
        } else {
            let mut keywords = Map::new();
            for (k, v) in &call.keywords {
                keywords.insert(k.as_ref().into(), self.host_argument(v)?);
            }
            keywords.into()
        };
        Ok(HostCall {
            receiver,
            args,
            keywords,
        })
    }

    /// One argument for the engine (an iterator's items as a list).
    fn host_argument(&mut self, v: &Value) -> Flow<Dynamic> {
        match v {
            Value::Function(_) | Value::Builtin(_) => self.raise(
                "NotImplementedError",
                "tensh's Python does not pass Python functions to torch functions yet",
            ),
            Value::Iterator(_) => {
                let items = Value::list(self.collect(v)?);
                self.lift(to_dynamic(&items))
            }
            // A path object (`pathlib.Path`): its path, as PyTorch takes `os.PathLike`.
            Value::Instance(_) if Self::has_special(v, "__fspath__") => match self.fspath(v)? {
                Some(p) => Ok(Dynamic::from(p.to_string())),
                None => self.lift(to_dynamic(v)),
            },
            v => self.lift(to_dynamic(v)),
        }
    }

    /// `receiver.name(...)` on a tensh value (`Value::Tensor` or `Value::Host`).
    pub(super) fn call_host_method(
        &mut self,
        receiver: Value,
        name: &str,
        call: CallArgs,
    ) -> Flow<Value> {
        self.call_host_method_at(None, receiver, name, call)
    }

    /// `receiver.name(...)` on a tensh value, called at `site` (the call's `receiver.name`
    /// node) when there is one: the method the site remembers is called while it holds
    /// (`method_sites`), else the method is looked up by name and the site remembers it.
    pub(super) fn call_host_method_at(
        &mut self,
        site: Option<&'static ast::ExprAttribute>,
        receiver: Value,
        name: &str,
        call: CallArgs,
    ) -> Flow<Value> {
        if super::methods::is_dunder(name) {
            let found = self.python_dunder(&receiver, name, &call);
            // The op's warnings come before what it raised, as PyTorch's do.
            if crate::ops::warnings::has_pending() {
                self.issue_torch_warnings()?;
            }
            if let Some(v) = found? {
                return Ok(v);
            }
        }
        let result = match receiver {
            Value::Tensor(t) => {
                if !self.tensor_attributes.is_empty()
                    && let Some(shadowing) = self.tensor_attributes.get(&t, name)
                {
                    return self.call_value(&shadowing, call);
                }
                if matches!(name, "apply_" | "map_" | "map2_") {
                    return self.visit_elements(t, name, call);
                }
                if Self::is_hook_method(name) {
                    return self.call_hook_method(t, name, call);
                }
                let tensor = std::any::TypeId::of::<crate::core::tensor::Tensor>();
                if !site.is_some_and(|site| self.method_sites.knows(site, tensor))
                    && self.host.tensor_has_property(name)
                {
                    // `t.shape()`: the property is read, then called, as Python does.
                    let attribute = self.get_attribute(&Value::Tensor(t), name)?;
                    return self.call_value(&attribute, call);
                }
                let call = self.host_arguments(None, call)?;
                match site.and_then(|site| self.site_method(site, None, name, call.given())) {
                    Some(FoundMethod::Tensor(method)) => {
                        self.host.call_found_tensor_method(&method, &t, call)
                    }
                    _ => self.host.call_tensor_method(name, &t, call),
                }
            }
            receiver => {
                if name == "hex"
                    && receiver.is_host::<crate::ops::storage::buffers::PyBuffer>()
                    && call.args.is_empty()
                {
                    // `b.hex()`: two lowercase hex digits a byte.
                    let items = self.collect(&receiver)?;
                    let text: String = items
                        .iter()
                        .map(|b| format!("{:02x}", b.as_int().unwrap_or(0) as u8))
                        .collect();
                    return Ok(Value::str(text));
                }
                let mut call = self.host_arguments(receiver.into_host(), call)?;
                let found = match (site, &call.receiver) {
                    (Some(site), Some(r)) => self.site_method(site, Some(r), name, call.given()),
                    _ => None,
                };
                match (found, call.receiver.take()) {
                    (Some(FoundMethod::Value(method)), Some(r)) => {
                        self.host.call_found_value_method(&*method, &r, call)
                    }
                    (_, r) => {
                        call.receiver = r;
                        self.host.call(name, call)
                    }
                }
            }
        };
        // The op's warnings come before what it raised, as PyTorch's do.
        if crate::ops::warnings::has_pending() {
            self.issue_torch_warnings()?;
        }
        let result = self.lift(result)?;
        // Only a result holding arrays asks which kind they become.
        let arrays = if (result.is_array() || result.is_map()) && LIST_RESULTS.contains(&name) {
            Arrays::Lists
        } else {
            Arrays::Tuples
        };
        Ok(from_dynamic(result, arrays))
    }

    /// The method `name` that `site` calls on `receiver` (a value other than a tensor; none:
    /// a tensor) with `given` arguments: the one the site remembers while it holds, else
    /// the one found by name, which the site then remembers. `None` where no table has it
    /// (the call goes on by name).
    fn site_method(
        &mut self,
        site: &'static ast::ExprAttribute,
        receiver: Option<&Dynamic>,
        name: &str,
        given: usize,
    ) -> Option<FoundMethod> {
        let receiver_type = match receiver {
            Some(r) => r.type_id(),
            None => std::any::TypeId::of::<crate::core::tensor::Tensor>(),
        };
        if let Some(found) = self.method_sites.found(site, receiver_type, given) {
            return Some(found.clone());
        }
        let found = match receiver {
            Some(r) => self.host.find_value_method(r, name, given),
            None => self.host.find_tensor_method(name, given),
        }?;
        self.method_sites
            .keep(site, receiver_type, given, found.clone());
        Some(found)
    }

    /// `t.apply_(f)`, `t.map_(other, f)`, `t.map2_(x, y, f)` with a Python callable: `f`
    /// called on each element (`core::element_visit`), its result written back at once.
    fn visit_elements(
        &mut self,
        t: crate::core::tensor::Tensor,
        name: &str,
        call: CallArgs,
    ) -> Flow<Value> {
        use crate::core::element_visit::{Visit, refused_result};
        use crate::core::scalar::Scalar;
        let tensors = match name {
            "apply_" => 0,
            "map_" => 1,
            _ => 2,
        };
        let given: Vec<String> = call
            .args
            .iter()
            .map(|v| match v {
                Value::Tensor(_) => "Tensor".into(),
                Value::Function(_)
                | Value::Builtin(_)
                | Value::Method(_)
                | Value::Type(_)
                | Value::HostPath(_) => "function".into(),
                other => other.type_name().to_string(),
            })
            .collect();
        let given: Vec<&str> = given.iter().map(String::as_str).collect();
        if let Some(e) =
            crate::core::element_visit::refused_call(name, &given, !call.keywords.is_empty())
        {
            return self.raise(e.kind.name(), e.message);
        }
        let others: Vec<crate::core::tensor::Tensor> = call.args[..tensors]
            .iter()
            .filter_map(|v| v.as_tensor().cloned())
            .collect();
        let f = call.args[tensors].clone();
        let names = ["'other'", "argument 'x'", "argument 'y'"];
        let labelled: Vec<(&crate::core::tensor::Tensor, &str)> = others
            .iter()
            .zip(if tensors == 1 {
                &names[..1]
            } else {
                &names[1..]
            })
            .map(|(t, n)| (t, *n))
            .collect();
        let visit = match Visit::new(&t, &labelled, name) {
            Ok(v) => v,
            Err(e) => return self.raise(e.kind.name(), e.message),
        };
        let dtype = visit.dtype();
        for k in 0..visit.len() {
            self.check_interrupt()?;
            let values = match visit.values(k) {
                Ok(v) => v,
                Err(e) => return self.raise(e.kind.name(), e.message),
            };
            // Each element as `item()` gives it.
            let args = values
                .into_iter()
                .map(|s| from_dynamic(crate::ops::convert::scalar_to_dynamic(s), Arrays::Tuples))
                .collect();
            let out = self.call_value(
                &f,
                CallArgs {
                    args,
                    keywords: Vec::new(),
                },
            )?;
            let value = match out {
                Value::Bool(b) => Scalar::Bool(b),
                Value::Int(i) => Scalar::Int(i),
                Value::BigInt(_) if !(dtype.is_floating_point() || dtype.is_complex()) => {
                    return self.raise("ValueError", "Overflow when unpacking long long");
                }
                Value::BigInt(i) => match crate::python::long::to_f64(&i) {
                    Ok(x) => Scalar::Float(x),
                    Err(e) => return Err(self.throw(e)),
                },
                Value::Float(x) => Scalar::Float(x),
                Value::Complex(c) => Scalar::Complex(c),
                other => {
                    let e = refused_result(dtype, &other.type_name());
                    return self.raise(e.kind.name(), e.message);
                }
            };
            if let Err(e) = visit.write(k, value) {
                return self.raise(e.kind.name(), e.message);
            }
        }
        Ok(Value::Tensor(t))
    }

    /// What Python itself answers for a special method called by name on a value
    /// (`t.__setitem__(i, v)`, `t.__iadd__(x)`, `d.__getitem__(k)`, `dict.__len__(d)`):
    /// Python's operation of that name; `None` for a name that is none.
    pub(super) fn python_dunder(
        &mut self,
        this: &Value,
        name: &str,
        call: &CallArgs,
    ) -> Flow<Option<Value>> {
        if !super::methods::is_dunder(name) {
            return Ok(None);
        }
        let this = this.clone();
        let args = call.args.clone();
        let one = |me: &Self| -> Flow<Value> {
            match args.as_slice() {
                [x] => Ok(x.clone()),
                _ => me.raise(
                    "TypeError",
                    format!("expected 1 argument, got {}", args.len()),
                ),
            }
        };
        let operator = |n: &str| -> Option<crate::python::number::BinOp> {
            use crate::python::number::BinOp as B;
            Some(match n {
                "add" => B::Add,
                "sub" => B::Sub,
                "mul" => B::Mul,
                "truediv" => B::Div,
                "floordiv" => B::FloorDiv,
                "mod" => B::Mod,
                "pow" => B::Pow,
                "matmul" => B::MatMul,
                "and" => B::And,
                "or" => B::Or,
                "xor" => B::Xor,
                "lshift" => B::LShift,
                "rshift" => B::RShift,
                _ => return None,
            })
        };
        let inner = &name[2..name.len() - 2];
        Ok(Some(match inner {
            "repr" => Value::str(self.repr_text(&this)?),
            "str" => Value::str(self.str_text(&this)?),
            "iter" => self.iter_of(&this)?.into_value(),
            "hash" => Value::Int(self.hash_of_key(&this)?),
            "delitem" => {
                let index = one(self)?;
                self.delete_item(&this, index)?;
                Value::None
            }
            "setitem" => {
                let [index, value] = args.as_slice() else {
                    return self.raise(
                        "TypeError",
                        format!("expected 2 arguments, got {}", args.len()),
                    );
                };
                self.set_item(&this, index.clone(), value.clone())?;
                Value::None
            }
            "getitem" => {
                let index = one(self)?;
                self.get_item(&this, index)?
            }
            "len" => Value::Int(self.length(&this)?),
            "bool" => Value::Bool(self.truthy(&this)?),
            "neg" => self.unary(ruff_python_ast::UnaryOp::USub, this)?,
            "invert" => self.unary(ruff_python_ast::UnaryOp::Invert, this)?,
            "contains" => {
                let x = one(self)?;
                Value::Bool(self.contains(&this, &x)?)
            }
            "eq" | "ne" | "lt" | "le" | "gt" | "ge" => {
                use ruff_python_ast::CmpOp;
                let op = match inner {
                    "eq" => CmpOp::Eq,
                    "ne" => CmpOp::NotEq,
                    "lt" => CmpOp::Lt,
                    "le" => CmpOp::LtE,
                    "gt" => CmpOp::Gt,
                    _ => CmpOp::GtE,
                };
                let x = one(self)?;
                self.compare(op, &this, &x)?
            }
            _ => {
                if let Some(op) = inner.strip_prefix('i').and_then(operator) {
                    let x = one(self)?;
                    return self.in_place(op, this, x).map(Some);
                }
                if let Some(op) = inner.strip_prefix('r').and_then(operator) {
                    let x = one(self)?;
                    return self.binary(op, x, this).map(Some);
                }
                if let Some(op) = operator(inner) {
                    let x = one(self)?;
                    return self.binary(op, this, x).map(Some);
                }
                return Ok(None);
            }
        }))
    }

    /// Calls the op at an engine path (`torch::zeros`, `torch::UntypedStorage::from_file`).
    pub(super) fn call_host_path(&mut self, path: &str, call: CallArgs) -> Flow<Value> {
        if let Some(grad) = super::hooks::autograd_function(path) {
            return self.call_autograd(grad, call);
        }
        if let Some(v) = self.call_python_torch(path, &call)? {
            return Ok(v);
        }
        let (call, saved) = self.file_object_arguments(path, call)?;
        let call = self.host_arguments(None, call)?;
        let result = self.host.call(path, call);
        if let (Ok(_), Some((file, sink))) = (&result, saved) {
            self.write_saved(&file, &sink)?;
        }
        if path == "torch::manual_seed" && result.is_ok() {
            // PyTorch returns the default generator, seeded.
            return self.torch_attribute("torch", "default_generator");
        }
        let arrays = if LIST_RESULTS.contains(&path) {
            Arrays::Lists
        } else {
            Arrays::Tuples
        };
        // The op's warnings come before what it raised, as PyTorch's do.
        if crate::ops::warnings::has_pending() {
            self.issue_torch_warnings()?;
        }
        let result = self.lift(result)?;
        Ok(from_dynamic(result, arrays))
    }

    /// Calls a class: a builtin type converts, an exception class makes an exception, a
    /// tensh type calls its constructor (`torch.Size([2])`, `torch.device('cpu')`).
    fn construct(&mut self, t: &Rc<TypeObject>, call: CallArgs) -> Flow<Value> {
        match t.kind {
            TypeKind::Exception => {
                if let Some((k, _)) = call.keywords.first() {
                    return self.raise(
                        "TypeError",
                        format!("{}() takes no keyword arguments (got '{k}')", t.name),
                    );
                }
                Ok(Value::Exception(Rc::new(PyException::of_class(
                    t.clone(),
                    call.args,
                ))))
            }
            TypeKind::Host if crate::python::types::is_parameter_class(t) => {
                self.call_host_path("torch::nn::Parameter", call)
            }
            TypeKind::Host => {
                let path = format!("torch::{}", t.name);
                self.call_host_path(&path, call)
            }
            TypeKind::Builtin => {
                let name = t.name.clone();
                self.call_builtin(&name, call.args, call.keywords)
            }
        }
    }
}
