//! Python's values as the Python front end holds them (with the types they contain:
//! exceptions, functions and the scopes functions close over): its own numbers, strings and containers,
//! functions and classes, tensors as themselves (`Value::Tensor`), and every other tensh value
//! (storages, dtypes, sizes, ...) as the Rhai value the ops take and return (`Value::Host`). A dict's storage (`dict`) and an
//! iteration in progress (`iteration`) are parts of it: they hold values, and values hold
//! them.

pub mod class;
pub mod dict;
pub mod file;
pub mod flow;
pub mod iteration;
pub mod set;

use std::cell::RefCell;
use std::rc::Rc;

use num_complex::Complex64;
use rhai::Dynamic;

use std::collections::HashMap;

use ruff_python_ast::{Expr, Parameters, Stmt};

pub use super::name_use::NameUse;
use super::source::SourceText;
use super::types::TypeObject;
use crate::core::tensor::Tensor;

/// A list's items, shared by every name bound to it.
pub type Items = Rc<RefCell<Seq>>;

/// The items of a list or a tuple. Dropping one drops what it alone holds without
/// recursion (`drop_iteratively`), so a list nested ten million deep goes without
/// overflowing the stack.
#[derive(Clone, Default)]
pub struct Seq(pub Vec<Value>);

impl std::ops::Deref for Seq {
    type Target = Vec<Value>;
    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

impl std::ops::DerefMut for Seq {
    fn deref_mut(&mut self) -> &mut Vec<Value> {
        &mut self.0
    }
}

impl From<Vec<Value>> for Seq {
    fn from(items: Vec<Value>) -> Seq {
        Seq(items)
    }
}

impl Drop for Seq {
    fn drop(&mut self) {
        drop_iteratively(std::mem::take(&mut self.0));
    }
}

/// Drops `values`, taking apart each list, tuple, dict and set held by nothing else on a
/// stack of its own rather than by recursion.
pub fn drop_iteratively(mut values: Vec<Value>) {
    let nests = |v: &Value| {
        matches!(
            v,
            Value::List(_) | Value::Tuple(_) | Value::Dict(_) | Value::Set(_)
        )
    };
    if !values.iter().any(nests) {
        return;
    }
    while let Some(v) = values.pop() {
        match v {
            Value::List(items) => {
                if let Ok(cell) = Rc::try_unwrap(items) {
                    values.append(&mut cell.into_inner().0);
                }
            }
            Value::Tuple(items) => {
                if let Ok(mut seq) = Rc::try_unwrap(items) {
                    values.append(&mut seq.0);
                }
            }
            Value::Dict(entries) => {
                if let Ok(cell) = Rc::try_unwrap(entries) {
                    values.extend(cell.into_inner().take_all());
                }
            }
            Value::Set(items) => {
                if let Ok(cell) = Rc::try_unwrap(items) {
                    values.extend(cell.into_inner().items());
                }
            }
            other => drop(other),
        }
    }
}

/// A set's table, shared by every name bound to it.
pub type SetItems = Rc<RefCell<set::SetTable>>;

/// A dict: its entries in insertion order, indexed by their keys' hashes.
pub type DictEntries = Rc<RefCell<dict::Dict>>;

pub use file::PyFile;

/// One Python value.
#[derive(Clone)]
pub enum Value {
    /// `None`.
    None,
    /// `True`/`False`.
    Bool(bool),
    /// An `int` within 64 bits.
    Int(i64),
    /// An `int` past 64 bits, of any size (`python::long`). Invariant: it never fits 64
    /// bits (`Value::long` keeps it so), so an int is one variant or the other by value.
    BigInt(Rc<num_bigint::BigInt>),
    /// A `float`.
    Float(f64),
    /// A `complex`.
    Complex(Complex64),
    /// A `str`.
    Str(Rc<str>),
    /// A `list`.
    List(Items),
    /// A `tuple`.
    Tuple(Rc<Seq>),
    /// A `dict`.
    Dict(DictEntries),
    /// A `set`.
    Set(SetItems),
    /// `d.keys()`, `d.values()`, `d.items()`: a live view of the dict.
    DictView(dict::ViewKind, DictEntries),
    /// `range(start, stop, step)`.
    Range(i64, i64, i64),
    /// `slice(start, stop, step)`, as a subscript makes it.
    Slice(Rc<[Value; 3]>),
    /// `...`.
    Ellipsis,
    /// `NotImplemented`, what a binary special method returns to let the other operand try.
    NotImplemented,
    /// A function defined by `def` or `lambda`.
    Function(Rc<Function>),
    /// A builtin function or a module's function, by its qualified name (`len`, `math.sqrt`).
    Builtin(Rc<str>),
    /// A method bound to its receiver (`x.append`, `t.view` read without calling it).
    Method(Rc<(Value, Rc<str>)>),
    /// A module the session imported (`math`, `sys`, ...), by name.
    Module(Rc<str>),
    /// A name path into tensh's `torch` module (`torch`, `torch.UntypedStorage`,
    /// `torch.linalg`): called, it calls the op of that path; its attributes extend the path.
    HostPath(Rc<str>),
    /// A class: a builtin type or an exception class.
    Type(Rc<TypeObject>),
    /// A raised or made exception.
    Exception(Rc<PyException>),
    /// An iterator (`iter`, `zip`, `enumerate`, `map`, a generator expression), drained once.
    Iterator(Rc<RefCell<iteration::PyIter>>),
    /// A context manager of grad mode (`torch.no_grad()`), by the op that enters it and its
    /// argument.
    GradMode(Rc<(Rc<str>, Option<bool>)>),
    /// A file `open()` returned.
    File(Rc<RefCell<PyFile>>),
    /// A tensor, held as itself: reading a name bound to one copies a handle.
    Tensor(Tensor),
    /// Another tensh value: a storage, dtype, `torch.Size`, device, named tuple, buffer, ...
    /// as the Rhai value the ops take and return (never a tensor: `Value::host` makes those
    /// `Value::Tensor`).
    Host(Dynamic),
    /// A class made by a `class` statement.
    Class(Rc<class::Class>),
    /// An instance of such a class.
    Instance(Rc<class::Instance>),
    /// A function bound to the instance (or class) it was read from: `(receiver, function)`.
    Bound(Rc<(Value, Value)>),
    /// A `staticmethod`, `classmethod` or `property`.
    Descriptor(Rc<class::Descriptor>),
    /// `super()`: the class it was called in, and the instance or class it reads for.
    Super(Rc<(Rc<class::Class>, Value)>),
}

impl Value {
    /// A `str` value.
    pub fn str(s: impl Into<Rc<str>>) -> Value {
        Value::Str(s.into())
    }

    /// A `list` value.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(RefCell::new(Seq(items))))
    }

    /// A `tuple` value.
    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Rc::new(Seq(items)))
    }

    /// A `dict` value of `entries`, whose keys are hashable and distinct (keyword
    /// arguments, a loaded map's string keys); other dicts are built by the interpreter,
    /// which compares keys.
    pub fn dict(entries: Vec<(Value, Value)>) -> Value {
        Value::Dict(Rc::new(RefCell::new(dict::Dict::from_distinct(entries))))
    }

    /// The name CPython's messages give this value's type (its `tp_name`, which names the
    /// module of a C type: `torch.Size`), where they do not use `type(x).__name__`.
    pub fn qualified_type_name(&self) -> String {
        if self.is_host::<crate::ops::values::Size>() {
            return "torch.Size".into();
        }
        self.type_name()
    }

    /// The name of this value's type, as `type(x).__name__` gives it.
    pub fn type_name(&self) -> String {
        match self {
            Value::None => "NoneType".into(),
            Value::Bool(_) => "bool".into(),
            Value::Int(_) | Value::BigInt(_) => "int".into(),
            Value::DictView(kind, _) => kind.type_name().into(),
            Value::Float(_) => "float".into(),
            Value::Complex(_) => "complex".into(),
            Value::Str(_) => "str".into(),
            Value::List(_) => "list".into(),
            Value::Tuple(_) => "tuple".into(),
            Value::Dict(_) => "dict".into(),
            Value::Set(_) => "set".into(),
            Value::Range(..) => "range".into(),
            Value::Slice(_) => "slice".into(),
            Value::Ellipsis => "ellipsis".into(),
            Value::NotImplemented => "NotImplementedType".into(),
            Value::Function(_) => "function".into(),
            Value::Builtin(_) => "builtin_function_or_method".into(),
            // Methods of builtin values and of tensh's (no class statements here).
            Value::Method(_) => "builtin_function_or_method".into(),
            Value::Module(_) => "module".into(),
            Value::HostPath(p) if &**p == "torch" => "module".into(),
            Value::HostPath(_) => "builtin_function_or_method".into(),
            Value::Type(_) => "type".into(),
            Value::Exception(e) => e.class.name.to_string(),
            Value::Iterator(it) => it
                .try_borrow()
                .map_or("generator", |i| i.type_name())
                .into(),
            Value::GradMode(m) => m.0.to_string(),
            Value::File(f) => f.borrow().type_name().into(),
            Value::Tensor(_) => "Tensor".into(),
            Value::Host(d) => crate::ops::convert::py_type_name(d),
            Value::Class(c) => match &c.metaclass {
                Some(m) => m.name.to_string(),
                None => "type".into(),
            },
            Value::Instance(i) => i.class.name.to_string(),
            Value::Bound(_) => "method".into(),
            Value::Descriptor(d) => match **d {
                class::Descriptor::Static(_) => "staticmethod".into(),
                class::Descriptor::ClassMethod(_) => "classmethod".into(),
                class::Descriptor::Property { .. } => "property".into(),
            },
            Value::Super(_) => "super".into(),
        }
    }

    /// The Python number this value is, if it is one (`bool` counts as an `int`).
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            Value::Bool(b) => Some(*b as i64),
            _ => None,
        }
    }

    /// The value as a `float`, for an `int`, `bool` or `float`.
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Value::Float(f) => Some(*f),
            Value::Int(i) => Some(*i as f64),
            // Correctly rounded; `None` past the floats (as `python::long::to_f64` says).
            Value::BigInt(i) => num_traits::ToPrimitive::to_f64(&**i).filter(|x| x.is_finite()),
            Value::Bool(b) => Some(*b as i64 as f64),
            _ => None,
        }
    }

    /// An `int` value: 64-bit when it fits.
    pub fn int(i: i128) -> Value {
        match i64::try_from(i) {
            Ok(v) => Value::Int(v),
            Err(_) => Value::BigInt(Rc::new(i.into())),
        }
    }

    /// An `int` value of any size: 64-bit when it fits.
    pub fn long(n: num_bigint::BigInt) -> Value {
        use num_traits::ToPrimitive;
        match n.to_i64() {
            Some(v) => Value::Int(v),
            None => Value::BigInt(Rc::new(n)),
        }
    }

    /// The value as an int of any size, for an `int` or `bool`.
    pub fn as_long(&self) -> Option<num_bigint::BigInt> {
        match self {
            Value::Int(i) => Some((*i).into()),
            Value::Bool(b) => Some((*b as i64).into()),
            Value::BigInt(i) => Some((**i).clone()),
            _ => None,
        }
    }

    /// Whether this is a tensh value of Rhai type `T`.
    pub fn is_host<T: rhai::Variant + Clone>(&self) -> bool {
        match self {
            Value::Tensor(_) => std::any::TypeId::of::<T>() == std::any::TypeId::of::<Tensor>(),
            Value::Host(d) => d.is::<T>(),
            _ => false,
        }
    }

    /// A tensh value the ops gave: a tensor becomes `Value::Tensor`, anything else
    /// `Value::Host`.
    pub fn host(d: Dynamic) -> Value {
        match d.try_cast_result::<Tensor>() {
            Ok(t) => Value::Tensor(t),
            Err(d) => Value::Host(d),
        }
    }

    /// The tensh value this is, as the ops take it (`None` for Python's own values).
    pub fn to_host(&self) -> Option<Dynamic> {
        match self {
            Value::Tensor(t) => Some(Dynamic::from(t.clone())),
            Value::Host(d) => Some(d.clone()),
            _ => None,
        }
    }

    /// The tensh value this is, moved out as the ops take it (`None` for Python's own
    /// values).
    pub fn into_host(self) -> Option<Dynamic> {
        match self {
            Value::Tensor(t) => Some(Dynamic::from(t)),
            Value::Host(d) => Some(d),
            _ => None,
        }
    }

    /// Whether this is a tensh value (a tensor or another).
    pub fn is_tensh(&self) -> bool {
        matches!(self, Value::Tensor(_) | Value::Host(_))
    }

    /// The tensor this is, if it is one.
    pub fn as_tensor(&self) -> Option<&Tensor> {
        match self {
            Value::Tensor(t) => Some(t),
            _ => None,
        }
    }
}

/// One frame of a traceback: the file, the line, and the function (`<module>` at the top).
#[derive(Debug, Clone)]
pub struct TraceFrame {
    /// The file's name as the session was started with it.
    pub file: Rc<str>,
    /// The line, from 1.
    pub line: usize,
    /// The function's name, or `<module>`.
    pub function: Rc<str>,
    /// The line's text, stripped (empty when unknown).
    pub text: String,
}

impl std::fmt::Debug for PyException {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}({:?})", self.class.name, self.text)
    }
}

/// An exception value.
pub struct PyException {
    /// Its class.
    pub class: Rc<TypeObject>,
    /// `e.args` (set again by `BaseException.__init__`, which a subclass's `__init__` may
    /// call through `super()`).
    pub args: RefCell<Vec<Value>>,
    /// For an exception of a class of a statement: that class and the attributes its
    /// methods set.
    pub instance: Option<Rc<class::Instance>>,
    /// Its links to earlier exceptions (`__cause__`, `__context__`), made when the first
    /// is set.
    pub links: RefCell<Option<Box<Links>>>,
    /// The text tensh's ops gave (their message, already as `str(e)` reads), when raised by
    /// an op rather than by Python code.
    pub text: Option<String>,
    /// Where it was raised, outermost frame first; filled as it is raised.
    pub traceback: RefCell<Vec<TraceFrame>>,
}

/// An exception's links to the exceptions before it.
#[derive(Default)]
pub struct Links {
    /// `__cause__`: what `raise ... from cause` named.
    pub cause: Option<Rc<PyException>>,
    /// `__context__`: the exception being handled when this one was raised.
    pub context: Option<Rc<PyException>>,
    /// `__suppress_context__`: set by `raise ... from` (the context is not reported).
    pub suppress_context: bool,
}

impl PyException {
    /// `__cause__`.
    pub fn cause(&self) -> Option<Rc<PyException>> {
        self.links.borrow().as_ref().and_then(|l| l.cause.clone())
    }

    /// `__context__`.
    pub fn context(&self) -> Option<Rc<PyException>> {
        self.links.borrow().as_ref().and_then(|l| l.context.clone())
    }

    /// `__suppress_context__`.
    pub fn suppress_context(&self) -> bool {
        self.links
            .borrow()
            .as_ref()
            .is_some_and(|l| l.suppress_context)
    }

    /// `raise self from cause` (`None`: `from None`): the cause set, the context hidden.
    pub fn set_cause(&self, cause: Option<Rc<PyException>>) {
        let mut links = self.links.borrow_mut();
        let links = links.get_or_insert_with(Default::default);
        links.cause = cause;
        links.suppress_context = true;
    }

    /// Sets `__context__`.
    pub fn set_context(&self, context: Rc<PyException>) {
        self.links
            .borrow_mut()
            .get_or_insert_with(Default::default)
            .context = Some(context);
    }
}

/// The body of a function: statements (`def`) or one expression (`lambda`).
#[derive(Clone, Copy)]
pub enum Body {
    /// `def`'s statements.
    Statements(&'static [Stmt]),
    /// `lambda`'s expression.
    Expression(&'static Expr),
}

/// A function value.
pub struct Function {
    /// `__name__` (`<lambda>` for a lambda).
    pub name: Rc<str>,
    /// `__qualname__`: the name with the classes and functions it is defined in
    /// (`Linear.__call__`, `make.<locals>.inner`).
    pub qualname: Rc<str>,
    /// Its parameters.
    pub parameters: Option<&'static Parameters>,
    /// The values of the defaults, evaluated when the function was defined, by parameter
    /// name.
    pub defaults: HashMap<Rc<str>, Value>,
    /// Its body.
    pub body: Body,
    /// How the body uses names.
    pub names: Rc<NameUse>,
    /// The scope the function was defined in (closures read and write through it).
    pub closure: Rc<Scope>,
    /// The source it was defined in, which owns `parameters` and `body`: held for as long
    /// as the function is.
    pub source: Rc<SourceText>,
    /// The class whose body defined it (what `super()` without arguments reads), set when
    /// the class is made.
    pub owner: RefCell<std::rc::Weak<class::Class>>,
    /// Attributes set on it (`f.cache_info = ...`, `functools.wraps`'s `__name__`), made
    /// when the first is set.
    pub attrs: RefCell<Option<DictEntries>>,
}

/// Where a scope's names come from.
pub enum ScopeKind {
    /// The module's globals.
    Module,
    /// A call of a function.
    Function(Rc<NameUse>),
    /// A comprehension's own variables.
    Comprehension,
    /// A class body's namespace while it runs.
    Class,
}

/// A scope's variables by name, in the order they were first bound (hashed with ahash:
/// every name a program reads or binds is looked up here, unless its node remembers the
/// position: `interp::name_hints`).
pub type Variables = indexmap::IndexMap<Rc<str>, Value, ahash::RandomState>;

/// Empty variables with room for `capacity` names, hashed with the thread's one seed (a
/// seed drawn for each scope cost more than a call's few lookups).
pub fn new_variables(capacity: usize) -> Variables {
    thread_local! {
        static SEED: ahash::RandomState = ahash::RandomState::new();
    }
    Variables::with_capacity_and_hasher(capacity, SEED.with(Clone::clone))
}

/// A scope: variables, and the scope it sits in.
pub struct Scope {
    /// The variables.
    pub vars: RefCell<Variables>,
    /// The enclosing scope (none for the module).
    pub parent: Option<Rc<Scope>>,
    /// What kind of scope this is.
    pub kind: ScopeKind,
    /// A function's scope holding a name its body was not found to bind (none does unless
    /// the finder of locals misses a binding form): a name read through it is then always
    /// looked up, never taken from the module at a remembered position.
    pub unlisted: std::cell::Cell<bool>,
}
