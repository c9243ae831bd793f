//! Classes: the `class` statement (its body run in a namespace of its own, its bases ordered
//! by C3), making instances (`__init__`), reading and setting attributes of classes and
//! instances (properties, `staticmethod`, `classmethod`, bound methods, `super()`), and the
//! special methods through which Python's operations reach an instance (`special`).

use std::rc::Rc;

use ruff_python_ast::{self as ast, Expr, Stmt};

use super::expr::CallArgs;
use super::{Flow, Interpreter};
use crate::python::exception::PyException;
use crate::python::function::{Scope, ScopeKind};
use crate::python::types::{TypeKind, TypeObject};
use crate::python::value::Value;
use crate::python::value::class::{Class, Descriptor, Instance, linearize};
use crate::python::value::dict::Dict;

/// A new class's bases: the classes of statements among them, the builtin exception class
/// it derives from, and the builtin type whose values its instances are, if any.
struct Bases {
    user: Vec<Rc<Class>>,
    exception: Option<Rc<TypeObject>>,
    builtin: Option<Rc<TypeObject>>,
    /// Whether a base is `type` or derives from it (the new class is a metaclass).
    is_meta: bool,
}

/// CPython's words when a new class's bases (or its `metaclass=`) have metaclasses none of
/// which derives from all the others.
const METACLASS_CONFLICT: &str = "metaclass conflict: the metaclass of a derived class must be a (non-strict) subclass of the metaclasses of all its bases";

/// The builtin types a class may derive from: mutable ones get their items from
/// `__init__`, the others are made from the call's arguments.
const DERIVABLE: &[&str] = &[
    "dict",
    "list",
    "set",
    "tuple",
    "str",
    "int",
    "float",
    "frozenset",
];

/// Of `DERIVABLE`, those whose value is filled by `__init__` rather than made by the call.
const MUTABLE: &[&str] = &["dict", "list", "set"];

/// The methods `object` itself answers for an instance that defines none of its own (read
/// through `super()` or from the class).
pub(super) const OBJECT_METHODS: &[&str] = &[
    "__init__",
    "__repr__",
    "__str__",
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__hash__",
    "__setattr__",
    "__getattribute__",
    "__delattr__",
    "__format__",
    "__init_subclass__",
];

impl Interpreter {
    /// `class Name(bases): body`, decorators applied.
    pub(super) fn class_statement(
        &mut self,
        c: &'static ast::StmtClassDef,
        scope: &Rc<Scope>,
    ) -> Flow<()> {
        let decorators = self.decorators(&c.decorator_list, scope)?;
        let name: Rc<str> = c.name.as_str().into();
        let mut bases = Vec::new();
        if let Some(arguments) = &c.arguments {
            for a in arguments.args.iter() {
                if let Expr::Starred(s) = a {
                    let v = self.eval(&s.value, scope)?;
                    bases.extend(self.collect(&v)?);
                } else {
                    bases.push(self.eval(a, scope)?);
                }
            }
        }
        let mut explicit_meta: Option<Value> = None;
        let mut keywords: Vec<(Rc<str>, Value)> = Vec::new();
        for k in c.arguments.iter().flat_map(|a| a.keywords.iter()) {
            match &k.arg {
                Some(a) if a.as_str() == "metaclass" => {
                    explicit_meta = Some(self.eval(&k.value, scope)?);
                }
                Some(a) => keywords.push((a.as_str().into(), self.eval(&k.value, scope)?)),
                None => {
                    return self.raise(
                        "NotImplementedError",
                        "tensh's Python does not make classes with '**' keywords",
                    );
                }
            }
        }
        // What makes the class of what the body binds: `type`, a metaclass, or a callable
        // given as `metaclass=` that is no class (a function).
        let maker = match explicit_meta {
            Some(m @ Value::Class(_)) if matches!(&m, Value::Class(c) if c.is_meta) => {
                self.metaclass_for(Some(&m), &bases)?.map(Value::Class)
            }
            Some(Value::Type(t)) if &*t.name == "type" => {
                self.metaclass_for(None, &bases)?.map(Value::Class)
            }
            Some(callable) => Some(callable),
            None => self.metaclass_for(None, &bases)?.map(Value::Class),
        };
        if let Some(Value::Class(m)) = &maker
            && m.find("__prepare__").is_some()
        {
            return self.raise(
                "NotImplementedError",
                "tensh's Python does not call a metaclass's __prepare__ (a class body runs in a plain namespace)",
            );
        }
        let qualname: Rc<str> = match &scope.kind {
            ScopeKind::Class => {
                let outer = scope.vars.borrow().get("__qualname__").cloned();
                match outer {
                    Some(Value::Str(q)) => format!("{q}.{name}").into(),
                    _ => name.clone(),
                }
            }
            ScopeKind::Function(_) => {
                let function = self.frames.last().map(|f| f.qualname.clone());
                format!("{}.<locals>.{name}", function.as_deref().unwrap_or("?")).into()
            }
            _ => name.clone(),
        };
        let body_scope = Scope::inside(scope, ScopeKind::Class);
        {
            let mut vars = body_scope.vars.borrow_mut();
            vars.insert("__module__".into(), module_name(scope));
            vars.insert("__qualname__".into(), Value::Str(qualname.clone()));
            if let Some(doc) = docstring(&c.body) {
                vars.insert("__doc__".into(), Value::str(doc));
            }
        }
        self.exec_block(&c.body, &body_scope)?;
        let namespace =
            ordered_namespace(&c.body, std::mem::take(&mut *body_scope.vars.borrow_mut()));
        let made = match maker {
            None => Value::Class(self.build_class(
                name.clone(),
                qualname,
                bases,
                namespace,
                None,
                keywords,
            )?),
            // The metaclass makes the class: `M(name, bases, namespace, **keywords)`.
            Some(m) => self.call_value(
                &m,
                CallArgs {
                    args: vec![
                        Value::Str(name.clone()),
                        Value::tuple(bases),
                        Value::Dict(Rc::new(std::cell::RefCell::new(namespace))),
                    ],
                    keywords,
                },
            )?,
        };
        let made = self.decorate(decorators, made)?;
        self.bind(&name, made, scope);
        Ok(())
    }

    /// The metaclass of a new class: the most derived of the one given (`None`: `type`)
    /// and its bases' metaclasses, as CPython picks it; a conflict is CPython's
    /// `TypeError`. `None` when that is `type` itself.
    fn metaclass_for(
        &mut self,
        explicit: Option<&Value>,
        bases: &[Value],
    ) -> Flow<Option<Rc<Class>>> {
        let mut winner: Option<Rc<Class>> = match explicit {
            None => None,
            Some(Value::Type(t)) if &*t.name == "type" => None,
            Some(Value::Class(m)) if m.is_meta => Some(m.clone()),
            Some(_) => {
                return self.raise("TypeError", METACLASS_CONFLICT);
            }
        };
        for b in bases {
            let Value::Class(b) = b else { continue };
            let Some(base_meta) = &b.metaclass else {
                continue;
            };
            winner = match winner {
                None => Some(base_meta.clone()),
                Some(w) if w.derives_from(base_meta) => Some(w),
                Some(w) if base_meta.derives_from(&w) => Some(base_meta.clone()),
                Some(_) => {
                    return self.raise("TypeError", METACLASS_CONFLICT);
                }
            };
        }
        Ok(winner)
    }

    /// `type.__new__(meta, name, bases, namespace, **keywords)`: the class `meta` makes
    /// when it has no `__new__` of its own (or its `__new__` calls up to `type`'s).
    pub(super) fn type_new(&mut self, meta: &Value, call: CallArgs) -> Flow<Value> {
        let meta = match meta {
            Value::Class(m) if m.is_meta => Some(m.clone()),
            Value::Type(t) if &*t.name == "type" => None,
            Value::Class(c) => {
                let name = c.name.clone();
                return self.raise(
                    "TypeError",
                    format!("type.__new__({name}): {name} is not a subtype of type"),
                );
            }
            other => {
                return self.raise(
                    "TypeError",
                    format!(
                        "type.__new__(X): X is not a type object ({})",
                        other.type_name()
                    ),
                );
            }
        };
        let [Value::Str(name), bases, Value::Dict(namespace)] = call.args.as_slice() else {
            return self.raise(
                "TypeError",
                format!(
                    "type.__new__() takes exactly 3 arguments ({} given)",
                    call.args.len()
                ),
            );
        };
        let bases = self.collect(bases)?;
        let namespace = namespace.borrow().clone();
        let qualname = match namespace.get_str("__qualname__") {
            Some(Value::Str(q)) => q.clone(),
            _ => name.clone(),
        };
        let meta = meta.map(Value::Class);
        let winner = self.metaclass_for(meta.as_ref(), &bases)?;
        let class = self.build_class(
            name.clone(),
            qualname,
            bases,
            namespace,
            winner,
            call.keywords,
        )?;
        Ok(Value::Class(class))
    }

    /// A class of `name` with `bases` and the attributes `namespace` (what a `class`
    /// statement or `type(name, bases, dict)` makes): its order found, its functions told
    /// their class, its attributes' `__set_name__` and its bases' `__init_subclass__` called.
    pub(super) fn build_class(
        &mut self,
        name: Rc<str>,
        qualname: Rc<str>,
        bases: Vec<Value>,
        mut namespace: Dict,
        metaclass: Option<Rc<Class>>,
        keywords: Vec<(Rc<str>, Value)>,
    ) -> Flow<Rc<Class>> {
        let Bases {
            user: user_bases,
            exception: exception_base,
            builtin,
            is_meta,
        } = self.classify_bases(&bases)?;
        let mro = match linearize(&user_bases) {
            Ok(m) => m,
            Err(e) => {
                let names: Vec<&str> = e.0.iter().map(|n| &**n).collect();
                return self.raise(
                    "TypeError",
                    format!(
                        "Cannot create a consistent method resolution\norder (MRO) for bases {}",
                        names.join(", ")
                    ),
                );
            }
        };
        if namespace.get_str("__eq__").is_some() && namespace.get_str("__hash__").is_none() {
            // A class that defines equality alone is unhashable, as in CPython.
            namespace.set_str("__hash__", Value::None);
        }
        let exception = exception_base.map(|base| {
            Rc::new(TypeObject {
                name: name.clone(),
                module: "__main__",
                base: Some(base),
                kind: TypeKind::Exception,
            })
        });
        let class = Rc::new(Class {
            name,
            qualname,
            bases,
            mro,
            namespace: Rc::new(std::cell::RefCell::new(namespace)),
            exception,
            builtin,
            metaclass,
            is_meta,
        });
        let attributes = class.namespace.borrow().pairs();
        for (_, v) in &attributes {
            set_owner(v, &class);
        }
        for (k, v) in attributes {
            if Self::has_special(&v, "__set_name__") {
                self.special(&v, "__set_name__", vec![Value::Class(class.clone()), k])?;
            }
        }
        if let Some(hook) = class
            .mro
            .iter()
            .find_map(|c| c.namespace.borrow().get_str("__init_subclass__").cloned())
        {
            // Implicitly a class method, called for the new class.
            let hook = match hook {
                Value::Descriptor(d) => match &*d {
                    Descriptor::ClassMethod(f) | Descriptor::Static(f) => f.clone(),
                    _ => return Ok(class),
                },
                f => f,
            };
            self.call_bound(
                &Value::Class(class.clone()),
                &hook,
                CallArgs {
                    args: Vec::new(),
                    keywords,
                },
            )?;
        } else if !keywords.is_empty() {
            return self.raise(
                "TypeError",
                format!(
                    "{}.__init_subclass__() takes no keyword arguments",
                    class.name
                ),
            );
        }
        Ok(class)
    }

    /// `made` passed through `decorators`, the last written first.
    pub(super) fn decorate(&mut self, decorators: Vec<Value>, mut made: Value) -> Flow<Value> {
        for d in decorators.into_iter().rev() {
            made = self.call_value(
                &d,
                CallArgs {
                    args: vec![made],
                    keywords: Vec::new(),
                },
            )?;
        }
        Ok(made)
    }

    /// The values of decorators, in the order written (evaluated before what they decorate,
    /// applied last first).
    pub(super) fn decorators(
        &mut self,
        list: &'static [ast::Decorator],
        scope: &Rc<Scope>,
    ) -> Flow<Vec<Value>> {
        let mut out = Vec::with_capacity(list.len());
        for d in list {
            out.push(self.eval(&d.expression, scope)?);
        }
        Ok(out)
    }

    /// The classes of statements among `bases`, and the builtin exception class the new
    /// class derives from, if any; a base tensh cannot derive from is refused in words.
    fn classify_bases(&mut self, bases: &[Value]) -> Flow<Bases> {
        let mut user = Vec::new();
        let mut is_meta = false;
        let mut exception: Option<Rc<TypeObject>> = None;
        let mut builtin: Option<Rc<TypeObject>> = None;
        let mut layout = |me: &Self, t: &Rc<TypeObject>| -> Flow<()> {
            match &builtin {
                Some(b) if !Rc::ptr_eq(b, t) => {
                    me.raise("TypeError", "multiple bases have instance lay-out conflict")
                }
                _ => {
                    builtin = Some(t.clone());
                    Ok(())
                }
            }
        };
        for (i, b) in bases.iter().enumerate() {
            if bases[..i]
                .iter()
                .any(|o| super::operators::same_object(o, b))
            {
                let name = match b {
                    Value::Class(c) => c.name.to_string(),
                    Value::Type(t) => t.name.to_string(),
                    other => other.type_name(),
                };
                return self.raise("TypeError", format!("duplicate base class {name}"));
            }
            match b {
                Value::Class(c) => {
                    if let (Some(e), None) = (&c.exception, &exception) {
                        exception = Some(e.clone());
                    }
                    if let Some(b) = &c.builtin {
                        layout(self, b)?;
                    }
                    is_meta |= c.is_meta;
                    user.push(c.clone());
                }
                Value::Type(t) if t.kind == TypeKind::Exception => {
                    if exception.is_none() {
                        exception = Some(t.clone());
                    }
                }
                Value::Type(t) if &*t.name == "object" => {}
                Value::Type(t) if &*t.name == "type" => is_meta = true,
                Value::Type(t) if t.kind == TypeKind::Builtin && DERIVABLE.contains(&&*t.name) => {
                    layout(self, t)?;
                }
                Value::Type(t) => {
                    return self.raise(
                        "NotImplementedError",
                        format!(
                            "tensh's Python does not derive classes from '{}' yet (from object, exceptions and other classes it does)",
                            t.name
                        ),
                    );
                }
                Value::HostPath(p) => {
                    return self.raise(
                        "NotImplementedError",
                        format!(
                            "tensh's Python does not derive classes from '{}' yet",
                            p.replace("::", ".")
                        ),
                    );
                }
                _ => return self.raise("TypeError", "bases must be types"),
            }
        }
        if exception.is_some() && builtin.is_some() {
            return self.raise("TypeError", "multiple bases have instance lay-out conflict");
        }
        if is_meta && (exception.is_some() || builtin.is_some()) {
            return self.raise("TypeError", "multiple bases have instance lay-out conflict");
        }
        Ok(Bases {
            user,
            exception,
            builtin,
            is_meta,
        })
    }

    /// Calls a class: a new instance (an exception for a class deriving from one), its
    /// `__init__` run with the call's arguments.
    pub(super) fn instantiate(&mut self, class: &Rc<Class>, call: CallArgs) -> Flow<Value> {
        self.refuse_abstract(class)?;
        if let Some((new, _)) = class.find("__new__") {
            // Its own `__new__` (a static method, implicitly): it makes the instance, which
            // `__init__` then sees with the same arguments.
            let new = match new {
                Value::Descriptor(d) => match &*d {
                    Descriptor::Static(f) | Descriptor::ClassMethod(f) => f.clone(),
                    _ => Value::Descriptor(d.clone()),
                },
                f => f,
            };
            let mut args = vec![Value::Class(class.clone())];
            args.extend(call.args.iter().cloned());
            let object = self.call_value(
                &new,
                CallArgs {
                    args,
                    keywords: call.keywords.clone(),
                },
            )?;
            let ours = Self::class_of_instance(&object).is_some_and(|c| c.derives_from(class));
            if ours && let Some((init, owner)) = class.find("__init__") {
                let init = self.bind_attribute(init, &object, &owner, "__init__")?;
                self.call_value(&init, call)?;
            }
            return Ok(object);
        }
        if class.is_meta {
            // `M(name, bases, namespace)`: `type.__new__` makes the class; `M.__init__`
            // (if it has its own) then sees it.
            let made = CallArgs {
                args: call.args.clone(),
                keywords: call.keywords.clone(),
            };
            let object = self.type_new(&Value::Class(class.clone()), made)?;
            if let Some((init, owner)) = class.find("__init__") {
                let init = self.bind_attribute(init, &object, &owner, "__init__")?;
                self.call_value(&init, call)?;
            }
            return Ok(object);
        }
        let object = match (&class.exception, &class.builtin) {
            (Some(t), _) => {
                let mut e = PyException::of_class(t.clone(), call.args.clone());
                e.instance = Some(Rc::new(Instance::new(class.clone(), None)));
                Value::Exception(Rc::new(e))
            }
            (None, Some(t)) => {
                // A mutable value starts empty and `__init__` fills it; another is made by
                // the call (as the type's `__new__` does).
                let base = if MUTABLE.contains(&&*t.name) {
                    self.call_builtin(&t.name.clone(), Vec::new(), Vec::new())?
                } else {
                    self.call_builtin(&t.name.clone(), call.args.clone(), call.keywords.clone())?
                };
                let object =
                    Value::Instance(Rc::new(Instance::new(class.clone(), Some(base.clone()))));
                if class.find("__init__").is_none() {
                    if MUTABLE.contains(&&*t.name) {
                        self.builtin_init(&base, call)?;
                    }
                    return Ok(object);
                }
                object
            }
            (None, None) => Value::Instance(Rc::new(Instance::new(class.clone(), None))),
        };
        match class.find("__init__") {
            Some((init, owner)) => {
                let init = self.bind_attribute(init, &object, &owner, "__init__")?;
                let result = self.call_value(&init, call)?;
                if !matches!(result, Value::None) {
                    return self.raise(
                        "TypeError",
                        format!(
                            "__init__() should return None, not '{}'",
                            result.type_name()
                        ),
                    );
                }
            }
            None if class.exception.is_none()
                && (!call.args.is_empty() || !call.keywords.is_empty()) =>
            {
                return self.raise("TypeError", format!("{}() takes no arguments", class.name));
            }
            None => {}
        }
        Ok(object)
    }

    /// Refuses to make an instance of a class whose methods marked `abc.abstractmethod` are
    /// not all overridden, in CPython's words.
    fn refuse_abstract(&mut self, class: &Rc<Class>) -> Flow<()> {
        let mut names: Vec<String> = Vec::new();
        for c in class.lineage() {
            for k in c.namespace.borrow().keys() {
                if let Value::Str(k) = k
                    && !names.iter().any(|n| **n == *k)
                {
                    names.push(k.to_string());
                }
            }
        }
        let mut abstract_names: Vec<String> = names
            .into_iter()
            .filter(|n| {
                matches!(class.find(n), Some((Value::Function(f), _))
                if f.attrs.borrow().as_ref().is_some_and(|a| {
                    matches!(a.borrow().get_str("__isabstractmethod__"), Some(Value::Bool(true)))
                }))
            })
            .collect();
        if abstract_names.is_empty() {
            return Ok(());
        }
        abstract_names.sort();
        let noun = if abstract_names.len() == 1 {
            "method"
        } else {
            "methods"
        };
        self.raise(
            "TypeError",
            format!(
                "Can't instantiate abstract class {} with abstract {noun} {}",
                class.name,
                abstract_names.join(", ")
            ),
        )
    }

    /// What `value`, found in a class's namespace, is when read through `receiver` (an
    /// instance, or the class itself): a function bound to the instance, a `classmethod`
    /// bound to the class, a `staticmethod`'s function, a property's value.
    pub(super) fn bind_attribute(
        &mut self,
        value: Value,
        receiver: &Value,
        class: &Rc<Class>,
        name: &str,
    ) -> Flow<Value> {
        // Read from a class it derives from, a function is itself; read from a class
        // through its metaclass, the class is the instance it binds to.
        let on_class = matches!(receiver, Value::Class(c) if c.derives_from(class));
        Ok(match &value {
            Value::Function(_) if !on_class => Value::Bound(Rc::new((receiver.clone(), value))),
            Value::Descriptor(d) => match &**d {
                Descriptor::Static(f) => f.clone(),
                Descriptor::ClassMethod(f) => {
                    let owner = match receiver {
                        Value::Class(c) => Value::Class(c.clone()),
                        other => self.class_value(other),
                    };
                    Value::Bound(Rc::new((owner, f.clone())))
                }
                Descriptor::Property { get, .. } if !on_class => {
                    if matches!(get, Value::None) {
                        return self.raise(
                            "AttributeError",
                            format!("property '{name}' of '{}' object has no getter", class.name),
                        );
                    }
                    let get = get.clone();
                    return self.call_value(
                        &get,
                        CallArgs {
                            args: vec![receiver.clone()],
                            keywords: Vec::new(),
                        },
                    );
                }
                Descriptor::Property { .. } => value.clone(),
            },
            Value::Instance(_) if Self::has_special(&value, "__get__") => {
                // A descriptor of a class of a statement (`functools.cached_property`).
                let (instance, owner) = match receiver {
                    Value::Class(c) => (Value::None, Value::Class(c.clone())),
                    other => (other.clone(), self.class_value(other)),
                };
                return Ok(self
                    .special(&value, "__get__", vec![instance, owner])?
                    .unwrap_or(Value::None));
            }
            _ => value,
        })
    }

    /// The class of a statement an instance (or an exception made by one) belongs to; for a
    /// class, its metaclass when that is a class of a statement.
    pub(super) fn class_of_instance(v: &Value) -> Option<Rc<Class>> {
        match v {
            Value::Instance(i) => Some(i.class.clone()),
            Value::Exception(e) => e.instance.as_ref().map(|i| i.class.clone()),
            Value::Class(c) => c.metaclass.clone(),
            _ => None,
        }
    }

    /// `type(v)` as a value: the class of a statement for its instances, else the builtin
    /// class.
    pub(super) fn class_value(&self, v: &Value) -> Value {
        match Self::class_of_instance(v) {
            Some(c) => Value::Class(c),
            None => Value::Type(self.type_of(v)),
        }
    }

    /// `instance.name`, for an instance of a class of a statement.
    pub(super) fn instance_attribute(&mut self, object: &Value, name: &str) -> Flow<Option<Value>> {
        let Some(class) = Self::class_of_instance(object) else {
            return Ok(None);
        };
        let attrs = match object {
            Value::Instance(i) => i.attrs.clone(),
            Value::Exception(e) => match &e.instance {
                Some(i) => i.attrs.clone(),
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        if name == "__dict__" {
            return Ok(Some(Value::Dict(attrs)));
        }
        let found = class.find(name);
        if let Some((v @ Value::Descriptor(_), owner)) = &found
            && matches!(&**descriptor(v), Descriptor::Property { .. })
        {
            return self
                .bind_attribute(v.clone(), object, owner, name)
                .map(Some);
        }
        if let Some(v) = attrs.borrow().get_str(name) {
            return Ok(Some(v.clone()));
        }
        if let Some((v, owner)) = found {
            return self.bind_attribute(v, object, &owner, name).map(Some);
        }
        if let Some(base) = Self::base_value(object) {
            // The builtin type's own methods act on the value the instance holds.
            match self.get_attribute(&base, name) {
                Ok(v) => return Ok(Some(v)),
                Err(super::Unwind::Raise(e))
                    if e.is_instance(&crate::python::types::builtin("AttributeError")) => {}
                Err(e) => return Err(e),
            }
        }
        if OBJECT_METHODS.contains(&name) {
            return Ok(Some(Value::Method(Rc::new((object.clone(), name.into())))));
        }
        if matches!(object, Value::Exception(_)) {
            // The builtin exception's own attributes (`args`).
            return Ok(None);
        }
        if let Some((getattr, owner)) = class.find("__getattr__") {
            let f = self.bind_attribute(getattr, object, &owner, "__getattr__")?;
            return self
                .call_value(
                    &f,
                    CallArgs {
                        args: vec![Value::str(name)],
                        keywords: Vec::new(),
                    },
                )
                .map(Some);
        }
        self.raise(
            "AttributeError",
            format!("'{}' object has no attribute '{name}'", class.name),
        )
    }

    /// `Class.name`.
    pub(super) fn class_attribute(&mut self, class: &Rc<Class>, name: &str) -> Flow<Value> {
        match name {
            "__name__" => return Ok(Value::Str(class.name.clone())),
            "__qualname__" => return Ok(Value::Str(class.qualname.clone())),
            "__dict__" => {
                return Ok(Value::Dict(Rc::new(std::cell::RefCell::new(
                    class.namespace.borrow().clone(),
                ))));
            }
            "__bases__" => {
                let bases = if class.bases.is_empty() {
                    vec![Value::Type(crate::python::types::builtin("object"))]
                } else {
                    class.bases.clone()
                };
                return Ok(Value::tuple(bases));
            }
            "__mro__" => {
                let mut items: Vec<Value> =
                    class.lineage().map(|c| Value::Class(c.clone())).collect();
                if class.is_meta {
                    items.push(Value::Type(crate::python::types::builtin("type")));
                }
                let mut builtin = class
                    .exception
                    .as_ref()
                    .and_then(|e| e.base.clone())
                    .or_else(|| Some(crate::python::types::builtin("object")));
                while let Some(t) = builtin {
                    builtin = t.base.clone();
                    items.push(Value::Type(t));
                }
                return Ok(Value::tuple(items));
            }
            "__class__" => return Ok(self.class_value(&Value::Class(class.clone()))),
            _ => {}
        }
        match class.find(name) {
            Some((v, owner)) => self.bind_attribute(v, &Value::Class(class.clone()), &owner, name),
            None if let Some((v, owner)) = class.find_in_metaclass(name) => {
                self.bind_attribute(v, &Value::Class(class.clone()), &owner, name)
            }
            None if name == "__doc__" => Ok(Value::None),
            None if OBJECT_METHODS.contains(&name) => Ok(Value::Method(Rc::new((
                Value::Class(class.clone()),
                name.into(),
            )))),
            None => self.raise(
                "AttributeError",
                format!("type object '{}' has no attribute '{name}'", class.name),
            ),
        }
    }

    /// `super().name`: found along the instance's class's resolution order after the class
    /// `super()` was called in, bound to the instance.
    pub(super) fn super_attribute(&mut self, sup: &(Rc<Class>, Value), name: &str) -> Flow<Value> {
        let (after, receiver) = sup;
        let class = match receiver {
            Value::Class(c) if c.derives_from(after) => c.clone(),
            // In a metaclass's method, the class is the instance: its metaclass's order.
            Value::Class(c) if c.metaclass.as_ref().is_some_and(|m| m.derives_from(after)) => {
                c.metaclass.clone().unwrap_or_else(|| c.clone())
            }
            Value::Class(c) => c.clone(),
            other => match Self::class_of_instance(other) {
                Some(c) => c,
                None => {
                    return self.raise(
                        "TypeError",
                        "super(type, obj): obj must be an instance or subtype of type",
                    );
                }
            },
        };
        if let Some(v) = class.find_after(after, name) {
            let owner = class
                .lineage()
                .skip_while(|c| !Rc::ptr_eq(c, after))
                .skip(1)
                .find(|c| c.namespace.borrow().get_str(name).is_some())
                .cloned()
                .unwrap_or(class.clone());
            return self.bind_attribute(v, receiver, &owner, name);
        }
        if name == "__new__" {
            // `object.__new__` (`type.__new__` above a metaclass), unbound as CPython's is.
            let top = if class.is_meta { "type" } else { "object" };
            let top = Value::Type(crate::python::types::builtin(top));
            return self.get_attribute(&top, "__new__");
        }
        if OBJECT_METHODS.contains(&name) || (class.is_meta && name == "__call__") {
            return Ok(Value::Method(Rc::new((receiver.clone(), name.into()))));
        }
        self.raise(
            "AttributeError",
            format!("'super' object has no attribute '{name}'"),
        )
    }

    /// `object.name = value` on an instance of a class of a statement (a property's setter,
    /// a `__setattr__`, or its `__dict__`); `false` when `object` is none.
    pub(super) fn set_instance_attribute(
        &mut self,
        object: &Value,
        name: &str,
        value: Value,
    ) -> Flow<bool> {
        if let Value::Class(c) = object
            && c.find_in_metaclass("__setattr__").is_none()
        {
            c.namespace.borrow_mut().set_str(name, value.clone());
            set_owner(&value, c);
            return Ok(true);
        }
        let Some(class) = Self::class_of_instance(object) else {
            return Ok(false);
        };
        if let Some((v @ Value::Descriptor(_), _)) = class.find(name)
            && let Descriptor::Property { set, .. } = &**descriptor(&v)
        {
            if matches!(set, Value::None) {
                return self.raise(
                    "AttributeError",
                    format!("property '{name}' of '{}' object has no setter", class.name),
                );
            }
            let set = set.clone();
            self.call_value(
                &set,
                CallArgs {
                    args: vec![object.clone(), value],
                    keywords: Vec::new(),
                },
            )?;
            return Ok(true);
        }
        if let Some((f, owner)) = class.find("__setattr__") {
            let f = self.bind_attribute(f, object, &owner, "__setattr__")?;
            self.call_value(
                &f,
                CallArgs {
                    args: vec![Value::str(name), value],
                    keywords: Vec::new(),
                },
            )?;
            return Ok(true);
        }
        self.store_attribute(object, name, value);
        Ok(true)
    }

    /// Sets `name` in the instance's own `__dict__` (what `object.__setattr__` does).
    fn store_attribute(&mut self, object: &Value, name: &str, value: Value) {
        if let Value::Class(c) = object {
            c.namespace.borrow_mut().set_str(name, value.clone());
            set_owner(&value, c);
            return;
        }
        let attrs = match object {
            Value::Instance(i) => Some(i.attrs.clone()),
            Value::Exception(e) => e.instance.as_ref().map(|i| i.attrs.clone()),
            _ => None,
        };
        if let Some(attrs) = attrs {
            let old = attrs.borrow_mut().get_str(name).cloned();
            attrs.borrow_mut().set_str(name, value);
            drop(old);
        }
    }

    /// `del object.name` on an instance or class of a statement; `false` when `object` is
    /// none.
    pub(super) fn delete_instance_attribute(&mut self, object: &Value, name: &str) -> Flow<bool> {
        if let Value::Tensor(t) = object {
            return Ok(self.tensor_attributes.delete(t, name));
        }
        if let Value::Class(c) = object {
            if c.namespace.borrow_mut().remove_str(name).is_none() {
                return self.raise(
                    "AttributeError",
                    format!("type object '{}' has no attribute '{name}'", c.name),
                );
            }
            return Ok(true);
        }
        let Some(class) = Self::class_of_instance(object) else {
            return Ok(false);
        };
        if let Some((v @ Value::Descriptor(_), _)) = class.find(name)
            && let Descriptor::Property { delete, .. } = &**descriptor(&v)
        {
            if matches!(delete, Value::None) {
                return self.raise(
                    "AttributeError",
                    format!(
                        "property '{name}' of '{}' object has no deleter",
                        class.name
                    ),
                );
            }
            let delete = delete.clone();
            self.call_value(
                &delete,
                CallArgs {
                    args: vec![object.clone()],
                    keywords: Vec::new(),
                },
            )?;
            return Ok(true);
        }
        let attrs = match object {
            Value::Instance(i) => i.attrs.clone(),
            Value::Exception(e) => match &e.instance {
                Some(i) => i.attrs.clone(),
                None => return Ok(false),
            },
            _ => return Ok(false),
        };
        let removed = attrs.borrow_mut().remove_str(name);
        match removed {
            Some(_) => Ok(true),
            None => self.raise(
                "AttributeError",
                format!("'{}' object has no attribute '{name}'", class.name),
            ),
        }
    }

    /// Calls the special method `name` of an instance of a class of a statement with
    /// `args`; `None` when `v` is not such an instance or its class has no such method.
    pub(super) fn special(
        &mut self,
        v: &Value,
        name: &str,
        args: Vec<Value>,
    ) -> Flow<Option<Value>> {
        let Some(class) = Self::class_of_instance(v) else {
            return Ok(None);
        };
        let Some((f, owner)) = class.find(name) else {
            return Ok(None);
        };
        if matches!(f, Value::None) {
            return Ok(None);
        }
        let f = self.bind_attribute(f, v, &owner, name)?;
        self.call_value(
            &f,
            CallArgs {
                args,
                keywords: Vec::new(),
            },
        )
        .map(Some)
    }

    /// Whether the class of `v` (a statement's) defines `name` along its resolution order.
    pub(super) fn has_special(v: &Value, name: &str) -> bool {
        Self::class_of_instance(v).is_some_and(|c| c.find(name).is_some())
    }

    /// `object`'s own method `name` called on an instance or class of a statement (what
    /// `super().__init__()` reaches at the top of the order).
    pub(super) fn object_method(
        &mut self,
        receiver: &Value,
        name: &str,
        call: CallArgs,
    ) -> Flow<Value> {
        let args = call.args;
        match name {
            // `type.__init__` takes what `type.__new__` took, and does nothing more.
            "__init__" if matches!(receiver, Value::Class(_)) => Ok(Value::None),
            "__call__" if let Value::Class(c) = receiver => {
                let c = c.clone();
                self.instantiate(
                    &c,
                    CallArgs {
                        args,
                        keywords: call.keywords,
                    },
                )
            }
            "__init__" => {
                if let Value::Exception(e) = receiver {
                    *e.args.borrow_mut() = args;
                    return Ok(Value::None);
                }
                if let Some(base) = Self::base_value(receiver) {
                    return self.builtin_init(
                        &base,
                        CallArgs {
                            args,
                            keywords: call.keywords,
                        },
                    );
                }
                if !args.is_empty() {
                    return self.raise(
                        "TypeError",
                        "object.__init__() takes exactly one argument (the instance to initialize)",
                    );
                }
                Ok(Value::None)
            }
            "__repr__" => Ok(Value::str(self.default_repr(receiver))),
            "__str__" => Ok(Value::str(self.repr_text(receiver)?)),
            "__eq__" => Ok(match args.first() {
                Some(o) if super::operators::same_object(receiver, o) => Value::Bool(true),
                _ => Value::NotImplemented,
            }),
            "__ne__" => Ok(match args.first() {
                Some(o) if super::operators::same_object(receiver, o) => Value::Bool(false),
                _ => Value::NotImplemented,
            }),
            "__lt__" | "__le__" | "__gt__" | "__ge__" => Ok(Value::NotImplemented),
            "__hash__" => Ok(Value::Int(identity_hash(receiver))),
            "__setattr__" => {
                let [Value::Str(n), v] = args.as_slice() else {
                    return self.raise("TypeError", "expected 2 arguments");
                };
                let n = n.clone();
                self.store_attribute(receiver, &n, v.clone());
                Ok(Value::None)
            }
            "__delattr__" => {
                let [Value::Str(n)] = args.as_slice() else {
                    return self.raise("TypeError", "expected 1 argument");
                };
                let n = n.clone();
                let attrs = match receiver {
                    Value::Instance(i) => Some(i.attrs.clone()),
                    _ => None,
                };
                if let Some(a) = attrs {
                    a.borrow_mut().remove_str(&n);
                }
                Ok(Value::None)
            }
            "__getattribute__" => {
                let [Value::Str(n)] = args.as_slice() else {
                    return self.raise("TypeError", "expected 1 argument");
                };
                let n = n.clone();
                self.get_attribute(receiver, &n)
            }
            "__format__" => {
                let spec = match args.first() {
                    Some(Value::Str(s)) => s.to_string(),
                    _ => String::new(),
                };
                if !spec.is_empty() {
                    return self.raise(
                        "TypeError",
                        format!(
                            "unsupported format string passed to {}.__format__",
                            receiver.type_name()
                        ),
                    );
                }
                Ok(Value::str(self.str_text(receiver)?))
            }
            _ => Ok(Value::None),
        }
    }

    /// `dir(x)` of an instance or class of a statement: the names of its attributes, its
    /// classes' and `object`'s, sorted.
    pub(super) fn attribute_names(&mut self, v: &Value) -> Flow<Value> {
        if let Value::Module(m) = v {
            let names = self.module_names(m);
            return Ok(Value::list(names.into_iter().map(Value::str).collect()));
        }
        let (class, own) = match v {
            Value::Class(c) => (c.clone(), None),
            other => match Self::class_of_instance(other) {
                Some(c) => {
                    let own = match other {
                        Value::Instance(i) => Some(i.attrs.borrow().keys()),
                        Value::Exception(e) => e.instance.as_ref().map(|i| i.attrs.borrow().keys()),
                        _ => None,
                    };
                    (c, own)
                }
                None => {
                    return self.raise(
                        "NotImplementedError",
                        format!("tensh's Python has dir() of instances and classes of class statements, not of '{}'", other.type_name()),
                    );
                }
            },
        };
        let mut names: Vec<String> = Vec::new();
        let mut add = |keys: Vec<Value>| {
            for k in keys {
                if let Value::Str(s) = k {
                    names.push(s.to_string());
                }
            }
        };
        if let Some(own) = own {
            add(own);
        }
        for c in class.lineage() {
            add(c.namespace.borrow().keys());
        }
        names.extend(OBJECT_METHODS.iter().map(|s| s.to_string()));
        names.extend(
            ["__class__", "__dict__", "__doc__", "__module__"]
                .iter()
                .map(|s| s.to_string()),
        );
        names.sort();
        names.dedup();
        Ok(Value::list(names.into_iter().map(Value::str).collect()))
    }

    /// `T.name(value, ...)` for a builtin class `T` (`object.__setattr__(self, n, v)`,
    /// `dict.__getitem__(self, k)`, `str.join(", ", items)`): the method of `value` (of the
    /// builtin value an instance of a subclass holds).
    pub(super) fn call_type_method(
        &mut self,
        t: &Rc<TypeObject>,
        name: &str,
        call: CallArgs,
    ) -> Flow<Value> {
        if &*t.name == "int" && name == "from_bytes" {
            return self.int_from_bytes(call);
        }
        if &*t.name == "dict" && name == "fromkeys" {
            // `dict.fromkeys(iterable, value=None)`: each item a key to the one value.
            if !call.keywords.is_empty() {
                return self.raise("TypeError", "dict.fromkeys() takes no keyword arguments");
            }
            let (keys, value) = match call.args.as_slice() {
                [keys] => (keys.clone(), Value::None),
                [keys, value] => (keys.clone(), value.clone()),
                [] => {
                    return self.raise("TypeError", "fromkeys expected at least 1 argument, got 0");
                }
                more => {
                    return self.raise(
                        "TypeError",
                        format!("fromkeys expected at most 2 arguments, got {}", more.len()),
                    );
                }
            };
            let made: crate::python::value::DictEntries = Default::default();
            let mut items = self.iter_of(&keys)?;
            while let Some(k) = self.next_of(&mut items)? {
                self.dict_set(&made, k, value.clone())?;
            }
            return Ok(Value::Dict(made));
        }
        let mut args = call.args.into_iter();
        let Some(receiver) = args.next() else {
            return self.raise(
                "TypeError",
                format!("unbound method {}.{name}() needs an argument", t.name),
            );
        };
        let call = CallArgs {
            args: args.collect(),
            keywords: call.keywords,
        };
        if &*t.name == "type" {
            return match name {
                "__new__" => self.type_new(&receiver, call),
                _ => self.object_method(&receiver, name, call),
            };
        }
        if name == "__new__" {
            // `object.__new__(cls)`, `tuple.__new__(cls, items)`: an instance of `cls`
            // without `__init__` run, holding the builtin value the type makes.
            let Value::Class(class) = &receiver else {
                return self.raise(
                    "TypeError",
                    format!("{}.__new__(X): X is not a type object", t.name),
                );
            };
            let base = match &class.builtin {
                Some(b) => Some(self.call_builtin(&b.name.clone(), call.args, call.keywords)?),
                None => None,
            };
            return Ok(Value::Instance(Rc::new(Instance::new(class.clone(), base))));
        }
        if &*t.name == "object" {
            return self.object_method(&receiver, name, call);
        }
        let value = match Self::base_value(&receiver) {
            Some(base) => base,
            None => receiver,
        };
        if name == "__init__" {
            return self.builtin_init(&value, call);
        }
        if let Some(v) = self.python_dunder(&value, name, &call)? {
            return Ok(v);
        }
        self.call_method(&value, name, call)
    }

    /// The builtin value an instance of a class deriving from a builtin type holds.
    pub(super) fn base_value(v: &Value) -> Option<Value> {
        match v {
            Value::Instance(i) => i.base.clone(),
            _ => None,
        }
    }

    /// `T.__init__(value, ...)` of a builtin type: a dict updated, a list or set filled
    /// anew from the call's arguments; nothing for the others (made whole by the call).
    pub(super) fn builtin_init(&mut self, value: &Value, call: CallArgs) -> Flow<Value> {
        match value {
            Value::Dict(_) => self.call_method(value, "update", call),
            Value::List(_) | Value::Set(_) => {
                if call.args.len() > 1 || !call.keywords.is_empty() {
                    return self.raise(
                        "TypeError",
                        format!(
                            "{} expected at most 1 argument, got {}",
                            value.type_name(),
                            call.args.len()
                        ),
                    );
                }
                let items = match call.args.first() {
                    Some(a) => self.collect(a)?,
                    None => Vec::new(),
                };
                match value {
                    Value::List(l) => l.borrow_mut().0 = items,
                    Value::Set(_) => {
                        self.call_method(
                            value,
                            "clear",
                            CallArgs {
                                args: Vec::new(),
                                keywords: Vec::new(),
                            },
                        )?;
                        self.call_method(
                            value,
                            "update",
                            CallArgs {
                                args: vec![Value::list(items)],
                                keywords: Vec::new(),
                            },
                        )?;
                    }
                    _ => {}
                }
                Ok(Value::None)
            }
            _ => Ok(Value::None),
        }
    }

    /// `<__main__.Point object at 0x...>`, the repr of an instance without `__repr__`.
    pub(super) fn default_repr(&self, v: &Value) -> String {
        crate::platform::varies::note();
        match v {
            Value::Instance(i) => format!(
                "<{}.{} object at {:#x}>",
                i.class.module(),
                i.class.qualname,
                Rc::as_ptr(i) as usize
            ),
            Value::Class(c) => c.repr(),
            other => format!("<{} object>", other.type_name()),
        }
    }

    /// `super()` in a method (the class it was defined in and its first argument), or
    /// `super(C, obj)`.
    pub(super) fn make_super(&mut self, args: Vec<Value>) -> Flow<Value> {
        match args.as_slice() {
            [] => {
                let Some(frame) = self.frames.last() else {
                    return self.raise("RuntimeError", "super(): no arguments");
                };
                match &frame.owner {
                    Some((class, receiver)) => {
                        Ok(Value::Super(Rc::new((class.clone(), receiver.clone()))))
                    }
                    None => self.raise("RuntimeError", "super(): no arguments"),
                }
            }
            [Value::Class(c), receiver] => {
                let ok = match receiver {
                    Value::Class(r) => r.derives_from(c),
                    other => Self::class_of_instance(other).is_some_and(|r| r.derives_from(c)),
                };
                if !ok {
                    return self.raise(
                        "TypeError",
                        "super(type, obj): obj must be an instance or subtype of type",
                    );
                }
                Ok(Value::Super(Rc::new((c.clone(), receiver.clone()))))
            }
            [_, _] => self.raise("TypeError", "super() argument 1 must be a type"),
            _ => self.raise(
                "NotImplementedError",
                "tensh's Python makes super() with no arguments or with two",
            ),
        }
    }

    /// `staticmethod(f)`, `classmethod(f)`, `property(fget, fset, fdel, doc)`.
    pub(super) fn make_descriptor(
        &mut self,
        name: &str,
        args: Vec<Value>,
        keywords: Vec<(Rc<str>, Value)>,
    ) -> Flow<Value> {
        if name == "property" {
            let mut parts = [Value::None, Value::None, Value::None, Value::None];
            if args.len() > 4 {
                return self.raise(
                    "TypeError",
                    format!(
                        "property() takes at most 4 arguments ({} given)",
                        args.len()
                    ),
                );
            }
            for (i, a) in args.into_iter().enumerate() {
                parts[i] = a;
            }
            for (k, v) in keywords {
                let at = match &*k {
                    "fget" => 0,
                    "fset" => 1,
                    "fdel" => 2,
                    "doc" => 3,
                    _ => {
                        return self.raise(
                            "TypeError",
                            format!("property() got an unexpected keyword argument '{k}'"),
                        );
                    }
                };
                parts[at] = v;
            }
            let [get, set, delete, doc] = parts;
            return Ok(Value::Descriptor(Rc::new(Descriptor::Property {
                get,
                set,
                delete,
                doc,
            })));
        }
        if !keywords.is_empty() {
            return self.raise("TypeError", format!("{name}() takes no keyword arguments"));
        }
        let [f] = <[Value; 1]>::try_from(args).map_err(|a| {
            self.throw(PyException::new(
                "TypeError",
                format!("{name} expected 1 argument, got {}", a.len()),
            ))
        })?;
        Ok(Value::Descriptor(Rc::new(if name == "staticmethod" {
            Descriptor::Static(f)
        } else {
            Descriptor::ClassMethod(f)
        })))
    }

    /// `prop.setter(f)`, `prop.getter(f)`, `prop.deleter(f)`: a copy of the property with
    /// that function.
    pub(super) fn property_method(
        &mut self,
        d: &Descriptor,
        name: &str,
        args: Vec<Value>,
    ) -> Flow<Value> {
        let Descriptor::Property {
            get,
            set,
            delete,
            doc,
        } = d
        else {
            return self.raise(
                "AttributeError",
                format!("object has no attribute '{name}'"),
            );
        };
        let [f] = args.as_slice() else {
            return self.raise(
                "TypeError",
                format!("{name}() takes exactly one argument ({} given)", args.len()),
            );
        };
        let (mut get, mut set, mut delete) = (get.clone(), set.clone(), delete.clone());
        match name {
            "getter" => get = f.clone(),
            "setter" => set = f.clone(),
            _ => delete = f.clone(),
        }
        Ok(Value::Descriptor(Rc::new(Descriptor::Property {
            get,
            set,
            delete,
            doc: doc.clone(),
        })))
    }

    /// Calls `f` bound to `receiver` (a method read from an instance or a class).
    pub(super) fn call_bound(
        &mut self,
        receiver: &Value,
        f: &Value,
        call: CallArgs,
    ) -> Flow<Value> {
        let mut args = Vec::with_capacity(call.args.len() + 1);
        args.push(receiver.clone());
        args.extend(call.args);
        let call = CallArgs {
            args,
            keywords: call.keywords,
        };
        self.call_value(f, call)
    }

    /// Whether `e` is an exception and `class` (a class of a statement) is its class or a
    /// base of it.
    pub(super) fn exception_is(e: &PyException, class: &Rc<Class>) -> bool {
        match (&e.instance, &class.exception) {
            (Some(i), _) => i.class.derives_from(class),
            (None, Some(t)) => e.class.is_subclass_of(t),
            _ => false,
        }
    }

    /// The exception `raise MyError` raises for a class of a statement: an instance made
    /// without arguments.
    pub(super) fn raised_class(&mut self, class: &Rc<Class>) -> Flow<Rc<PyException>> {
        if class.exception.is_none() {
            return self.raise("TypeError", "exceptions must derive from BaseException");
        }
        match self.instantiate(
            class,
            CallArgs {
                args: Vec::new(),
                keywords: Vec::new(),
            },
        )? {
            Value::Exception(e) => Ok(e),
            _ => self.raise("TypeError", "exceptions must derive from BaseException"),
        }
    }
}

/// The descriptor in a `Value::Descriptor`.
fn descriptor(v: &Value) -> &Rc<Descriptor> {
    match v {
        Value::Descriptor(d) => d,
        _ => unreachable!("matched as a descriptor"),
    }
}

/// Marks the functions in a class attribute as defined in `class` (what `super()` reads).
fn set_owner(v: &Value, class: &Rc<Class>) {
    match v {
        Value::Function(f) => {
            *f.owner.borrow_mut() = Rc::downgrade(class);
        }
        Value::Descriptor(d) => match &**d {
            Descriptor::Static(f) | Descriptor::ClassMethod(f) => set_owner(f, class),
            Descriptor::Property {
                get, set, delete, ..
            } => {
                set_owner(get, class);
                set_owner(set, class);
                set_owner(delete, class);
            }
        },
        _ => {}
    }
}

/// The hash `object.__hash__` gives: from the value's address.
pub(super) fn identity_hash(v: &Value) -> i64 {
    let address = match v {
        Value::Instance(i) => Rc::as_ptr(i) as usize,
        Value::Class(c) => Rc::as_ptr(c) as usize,
        Value::Exception(e) => Rc::as_ptr(e) as usize,
        _ => 0,
    };
    (address >> 4) as i64
}

/// A body's docstring: its first statement when that is a string literal.
pub(super) fn docstring(body: &[Stmt]) -> Option<String> {
    match body.first() {
        Some(Stmt::Expr(e)) => match &*e.value {
            Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// A class body's names in the order its statements first bind them (CPython keeps a
/// class's namespace in binding order); names bound otherwise follow, sorted.
/// The `__name__` of the module whose code `scope` is in (`__main__` for the program,
/// `enum` for tensh's own `enum`): a class's `__module__`.
fn module_name(scope: &Rc<Scope>) -> Value {
    match scope.root().vars.borrow().get("__name__") {
        Some(v @ Value::Str(_)) => v.clone(),
        _ => Value::str("__main__"),
    }
}

fn ordered_namespace(body: &[Stmt], mut vars: crate::python::function::Variables) -> Dict {
    let mut out = Dict::new();
    for special in ["__module__", "__qualname__", "__doc__"] {
        if let Some(v) = vars.shift_remove(special) {
            out.set_str(special, v);
        }
    }
    let mut names: Vec<&str> = Vec::new();
    for stmt in body {
        match stmt {
            Stmt::FunctionDef(f) => names.push(f.name.as_str()),
            Stmt::ClassDef(c) => names.push(c.name.as_str()),
            Stmt::Assign(a) => {
                for t in &a.targets {
                    if let Expr::Name(n) = t {
                        names.push(n.id.as_str());
                    }
                }
            }
            Stmt::AnnAssign(a) => {
                if let Expr::Name(n) = &*a.target {
                    names.push(n.id.as_str());
                }
            }
            _ => {}
        }
    }
    if vars.contains_key("__annotations__") {
        names.insert(0, "__annotations__");
    }
    for n in names {
        if let Some(v) = vars.shift_remove(n) {
            out.set_str(n, v);
        }
    }
    let mut rest: Vec<_> = vars.into_iter().collect();
    rest.sort_by(|a, b| a.0.cmp(&b.0));
    for (k, v) in rest {
        out.set_str(&k, v);
    }
    out
}
