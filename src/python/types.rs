//! Classes the Python front end knows: the builtin types (`int`, `list`, ...), Python's
//! exception classes with their hierarchy, the exceptions PyTorch adds, and tensh's value
//! types (`torch.Tensor`, `torch.dtype`, ...). User classes (`class` statements) are not read.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// What a class is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeKind {
    /// A builtin type (`int`, `str`, `list`, ...): called, it converts.
    Builtin,
    /// An exception class: called, it makes an exception.
    Exception,
    /// A tensh value type, by its Rhai type name (`Tensor`, `dtype`, `Size`, ...).
    Host,
}

/// One class.
#[derive(Debug)]
pub struct TypeObject {
    /// `__name__`.
    pub name: Rc<str>,
    /// The module its repr names (`builtins` prints none).
    pub module: &'static str,
    /// The class it derives from.
    pub base: Option<Rc<TypeObject>>,
    /// What it is.
    pub kind: TypeKind,
}

impl TypeObject {
    /// Whether this class is `other` or derives from it.
    pub fn is_subclass_of(&self, other: &TypeObject) -> bool {
        let mut at = Some(self);
        while let Some(t) = at {
            // The exception classes of class statements (`__main__`) are told apart by
            // identity: two statements may make classes of one name.
            let same = if t.module == "__main__" || other.module == "__main__" {
                std::ptr::eq(t, other)
            } else {
                t.name == other.name && t.module == other.module
            };
            if same {
                return true;
            }
            at = t.base.as_deref();
        }
        false
    }

    /// `<class 'int'>`, `<class 'torch.Tensor'>`.
    pub fn repr(&self) -> String {
        if self.module == "builtins" {
            format!("<class '{}'>", self.name)
        } else {
            format!("<class '{}.{}'>", self.module, self.name)
        }
    }
}

/// Python's exception classes and their bases (a base before the classes deriving from it),
/// with the ones PyTorch and its file formats raise.
const EXCEPTIONS: &[(&str, &str, &str)] = &[
    ("BaseException", "", "builtins"),
    ("SystemExit", "BaseException", "builtins"),
    ("KeyboardInterrupt", "BaseException", "builtins"),
    ("GeneratorExit", "BaseException", "builtins"),
    ("Exception", "BaseException", "builtins"),
    ("ArithmeticError", "Exception", "builtins"),
    ("FloatingPointError", "ArithmeticError", "builtins"),
    ("OverflowError", "ArithmeticError", "builtins"),
    ("ZeroDivisionError", "ArithmeticError", "builtins"),
    ("AssertionError", "Exception", "builtins"),
    ("AttributeError", "Exception", "builtins"),
    ("BufferError", "Exception", "builtins"),
    ("EOFError", "Exception", "builtins"),
    ("ImportError", "Exception", "builtins"),
    ("ModuleNotFoundError", "ImportError", "builtins"),
    ("LookupError", "Exception", "builtins"),
    ("IndexError", "LookupError", "builtins"),
    ("KeyError", "LookupError", "builtins"),
    ("MemoryError", "Exception", "builtins"),
    ("NameError", "Exception", "builtins"),
    ("UnboundLocalError", "NameError", "builtins"),
    ("OSError", "Exception", "builtins"),
    ("FileNotFoundError", "OSError", "builtins"),
    ("FileExistsError", "OSError", "builtins"),
    ("PermissionError", "OSError", "builtins"),
    ("IsADirectoryError", "OSError", "builtins"),
    ("NotADirectoryError", "OSError", "builtins"),
    ("RuntimeError", "Exception", "builtins"),
    ("NotImplementedError", "RuntimeError", "builtins"),
    ("RecursionError", "RuntimeError", "builtins"),
    ("StopIteration", "Exception", "builtins"),
    ("SyntaxError", "Exception", "builtins"),
    ("TypeError", "Exception", "builtins"),
    ("ValueError", "Exception", "builtins"),
    ("UnicodeError", "ValueError", "builtins"),
    ("UnicodeDecodeError", "UnicodeError", "builtins"),
    ("Warning", "Exception", "builtins"),
    ("UserWarning", "Warning", "builtins"),
    ("DeprecationWarning", "Warning", "builtins"),
    ("RuntimeWarning", "Warning", "builtins"),
    ("FutureWarning", "Warning", "builtins"),
    ("PendingDeprecationWarning", "Warning", "builtins"),
    ("SyntaxWarning", "Warning", "builtins"),
    ("ImportWarning", "Warning", "builtins"),
    ("UnicodeWarning", "Warning", "builtins"),
    ("BytesWarning", "Warning", "builtins"),
    ("ResourceWarning", "Warning", "builtins"),
    ("OutOfMemoryError", "RuntimeError", "torch"),
    ("PickleError", "Exception", "_pickle"),
    ("UnpicklingError", "PickleError", "_pickle"),
    ("SafetensorError", "Exception", "safetensors_rust"),
    ("InternalError", "Exception", "tensh"),
    ("error", "Exception", "struct"),
];

/// The builtin types, by name.
const BUILTINS: &[&str] = &[
    "object",
    "int",
    "float",
    "complex",
    "bool",
    "str",
    "bytes",
    "list",
    "tuple",
    "dict",
    "set",
    "range",
    "slice",
    "type",
    "NoneType",
    "function",
    "builtin_function_or_method",
    "module",
    "ellipsis",
    "method",
    "iterator",
    "staticmethod",
    "classmethod",
    "property",
    "super",
    "NotImplementedType",
    "dict_keys",
    "dict_values",
    "dict_items",
];

/// tensh's value types: their Rhai type names and Python's (`torch.Size`).
const HOST_TYPES: &[(&str, &str, &str)] = &[
    ("Tensor", "Tensor", "torch"),
    ("dtype", "dtype", "torch"),
    ("Size", "Size", "torch"),
    ("device", "device", "torch"),
    ("UntypedStorage", "UntypedStorage", "torch.storage"),
    ("TypedStorage", "TypedStorage", "torch.storage"),
    ("Generator", "Generator", "torch._C"),
    ("array", "array", "array"),
    ("bytearray", "bytearray", "builtins"),
];

thread_local! {
    static TYPES: RefCell<HashMap<String, Rc<TypeObject>>> = RefCell::new(all_types());
}

fn all_types() -> HashMap<String, Rc<TypeObject>> {
    let mut map: HashMap<String, Rc<TypeObject>> = HashMap::new();
    let object = Rc::new(TypeObject {
        name: "object".into(),
        module: "builtins",
        base: None,
        kind: TypeKind::Builtin,
    });
    map.insert("object".into(), object.clone());
    for name in BUILTINS.iter().skip(1) {
        let base = if *name == "bool" {
            map.get("int").cloned()
        } else {
            Some(object.clone())
        };
        let t = TypeObject {
            name: (*name).into(),
            module: "builtins",
            base,
            kind: TypeKind::Builtin,
        };
        map.insert((*name).into(), Rc::new(t));
    }
    for (name, base, module) in EXCEPTIONS {
        let base = if base.is_empty() {
            Some(object.clone())
        } else {
            map.get(*base).cloned()
        };
        let t = TypeObject {
            name: (*name).into(),
            module,
            base,
            kind: TypeKind::Exception,
        };
        map.insert((*name).into(), Rc::new(t));
    }
    for (rhai_name, name, module) in HOST_TYPES {
        // `torch.Size` is a tuple.
        let base = if *name == "Size" {
            map.get("tuple").cloned()
        } else {
            Some(object.clone())
        };
        let t = TypeObject {
            name: (*name).into(),
            module,
            base,
            kind: TypeKind::Host,
        };
        map.insert(format!("host:{rhai_name}"), Rc::new(t));
    }
    map
}

/// The names of the builtin exception classes.
pub fn exception_names() -> impl Iterator<Item = &'static str> {
    EXCEPTIONS.iter().map(|(name, _, _)| *name)
}

/// The builtin type or exception class `name`, if there is one.
pub fn named(name: &str) -> Option<Rc<TypeObject>> {
    TYPES.with(|t| t.borrow().get(name).cloned())
}

/// The builtin type or exception class of this name, which the front end itself names (so
/// it exists).
pub fn builtin(name: &str) -> Rc<TypeObject> {
    named(name).unwrap_or_else(|| {
        // Only reached for a name missing from the tables above: a class of its own,
        // deriving from Exception, so the error still reads by its name.
        exception_class(name)
    })
}

/// The class of the exceptions tensh raises with this kind (`RuntimeError`,
/// `torch.OutOfMemoryError`, `_pickle.UnpicklingError`): Python's, or a new class of that
/// name deriving from `Exception`.
pub fn exception_class(kind: &str) -> Rc<TypeObject> {
    let short = kind.rsplit('.').next().unwrap_or(kind);
    if let Some(t) = named(short).filter(|t| t.kind == TypeKind::Exception) {
        return t;
    }
    TYPES.with(|t| {
        let mut map = t.borrow_mut();
        let base = map.get("Exception").cloned();
        map.entry(short.to_string())
            .or_insert_with(|| {
                Rc::new(TypeObject {
                    name: short.into(),
                    module: "builtins",
                    base,
                    kind: TypeKind::Exception,
                })
            })
            .clone()
    })
}

/// A class of tensh's values, made once per `key` and kept (so `type(a) is type(b)` holds).
fn host_class(key: String, name: &str, module: &'static str) -> Rc<TypeObject> {
    host_class_of(key, name, module, "object")
}

/// `host_class` for a class deriving from the builtin class `base`.
fn host_class_of(key: String, name: &str, module: &'static str, base: &str) -> Rc<TypeObject> {
    TYPES.with(|t| {
        let mut map = t.borrow_mut();
        let object = map.get(base).cloned();
        map.entry(key)
            .or_insert_with(|| {
                Rc::new(TypeObject {
                    name: name.into(),
                    module,
                    base: object,
                    kind: TypeKind::Host,
                })
            })
            .clone()
    })
}

/// `torch.nn.Parameter`: a class of `torch.nn.parameter` deriving from `torch.Tensor`
/// (a tensor handle marked by `Parameter(data)`, `Tensor::is_parameter`).
pub fn parameter_class() -> Rc<TypeObject> {
    host_class_of(
        "host:Parameter".into(),
        "Parameter",
        "torch.nn.parameter",
        "host:Tensor",
    )
}

/// Whether `t` is `parameter_class()`.
pub fn is_parameter_class(t: &TypeObject) -> bool {
    t.kind == TypeKind::Host && t.module == "torch.nn.parameter" && &*t.name == "Parameter"
}

/// The class of a named tuple an op returns (`torch.return_types.max`): a `tuple`, as
/// PyTorch's structseq classes are.
pub fn named_tuple(kind: &str) -> Rc<TypeObject> {
    host_class_of(
        format!("return_types:{kind}"),
        kind,
        "torch.return_types",
        "tuple",
    )
}

/// The class of an autograd node (`type(y.grad_fn)`): `MulBackward0` (a class PyTorch
/// generates, printed without a module) or a Python autograd function's
/// (`torch.autograd.function.ResizeBackward`).
pub fn node_class(name: &str, module: &'static str) -> Rc<TypeObject> {
    host_class(format!("node:{module}:{name}"), name, module)
}

/// The class of a tensh value, by its Rhai type name (`Tensor` is `torch.Tensor`).
pub fn host_type(rhai_name: &str) -> Rc<TypeObject> {
    // Python's name for it: `torch.storage.UntypedStorage` is `UntypedStorage` of
    // `torch.storage`; a name without a module is `torch`'s.
    let python = crate::ops::rhai_errors::python_type(rhai_name);
    let (module, short): (&'static str, &str) = match python.rsplit_once('.') {
        Some(("torch.storage", n)) => ("torch.storage", n),
        Some((_, n)) => ("torch", n),
        // A class PyTorch defines in Python, named without its module in messages.
        None if python == "RemovableHandle" => ("torch.utils.hooks", python),
        None => ("torch", python),
    };
    host_class(format!("host:{short}"), short, module)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exceptions_derive_as_in_python() {
        let index = builtin("IndexError");
        assert!(index.is_subclass_of(&builtin("LookupError")));
        assert!(index.is_subclass_of(&builtin("Exception")));
        assert!(!index.is_subclass_of(&builtin("RuntimeError")));
        assert!(builtin("NotImplementedError").is_subclass_of(&builtin("RuntimeError")));
        assert!(builtin("bool").is_subclass_of(&builtin("int")));
        assert!(!builtin("KeyboardInterrupt").is_subclass_of(&builtin("Exception")));
        let oom = exception_class("torch.OutOfMemoryError");
        assert!(oom.is_subclass_of(&builtin("RuntimeError")));
        assert_eq!(
            exception_class("SomethingNew")
                .base
                .as_ref()
                .unwrap()
                .name
                .as_ref(),
            "Exception"
        );
        assert_eq!(host_type("Tensor").repr(), "<class 'torch.Tensor'>");
        assert!(host_type("Size").is_subclass_of(&builtin("tuple")));
    }
}
