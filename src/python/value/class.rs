//! Classes made by `class` statements, their instances, and the values a class body makes
//! of functions: bound methods, `staticmethod`, `classmethod`, `property` and `super()`.
//!
//! A class keeps its attributes in a namespace dict and its method resolution order (C3,
//! as CPython computes it) over the classes statements made; below those sits `object`, or
//! the builtin exception class it derives from (`exception`), whose instances are raised.

use std::cell::RefCell;
use std::rc::Rc;

use super::{DictEntries, Value};
use crate::python::types::TypeObject;

/// A class made by a `class` statement.
pub struct Class {
    /// `__name__`.
    pub name: Rc<str>,
    /// `__qualname__` (`Outer.Inner` for a class defined in a class, `f.<locals>.C` in a
    /// function).
    pub qualname: Rc<str>,
    /// The bases as written (classes of statements, or builtin classes).
    pub bases: Vec<Value>,
    /// The classes of statements after this one in its method resolution order.
    pub mro: Vec<Rc<Class>>,
    /// Its attributes (`__dict__`), methods among them.
    pub namespace: DictEntries,
    /// For a class deriving from an exception class: the builtin class its exceptions are
    /// raised and caught as (named as this class, deriving from the base's).
    pub exception: Option<Rc<TypeObject>>,
    /// For a class deriving from a builtin container or number type (`dict`, `list`,
    /// `tuple`, `str`, `int`, ...): that type, whose value each instance holds.
    pub builtin: Option<Rc<TypeObject>>,
    /// Its metaclass when that is a class of a statement (`None`: `type`). Python's
    /// operations on the class itself (iterating it, `len`, subscripts, calls, `repr`) and
    /// the attributes its own order lacks are looked up there.
    pub metaclass: Option<Rc<Class>>,
    /// Whether it derives from `type`: a metaclass, whose instances are classes.
    pub is_meta: bool,
}

impl Class {
    /// This class, then the classes of statements it derives from, in resolution order.
    pub fn lineage(self: &Rc<Class>) -> impl Iterator<Item = &Rc<Class>> {
        std::iter::once(self).chain(self.mro.iter())
    }

    /// The attribute `name` found along the resolution order, with the class holding it.
    pub fn find(self: &Rc<Class>, name: &str) -> Option<(Value, Rc<Class>)> {
        self.lineage().find_map(|c| {
            c.namespace
                .borrow()
                .get_str(name)
                .map(|v| (v.clone(), c.clone()))
        })
    }

    /// The attribute `name` along the resolution order after `after` (what `super()` sees).
    pub fn find_after(self: &Rc<Class>, after: &Rc<Class>, name: &str) -> Option<Value> {
        self.lineage()
            .skip_while(|c| !Rc::ptr_eq(c, after))
            .skip(1)
            .find_map(|c| c.namespace.borrow().get_str(name).cloned())
    }

    /// Whether this class is `other` or derives from it.
    pub fn derives_from(self: &Rc<Class>, other: &Rc<Class>) -> bool {
        self.lineage().any(|c| Rc::ptr_eq(c, other))
    }

    /// The attribute `name` found along the metaclass's resolution order, with the class
    /// holding it (`None` for a class whose metaclass is `type`).
    pub fn find_in_metaclass(&self, name: &str) -> Option<(Value, Rc<Class>)> {
        self.metaclass.as_ref().and_then(|m| m.find(name))
    }

    /// The module its statement ran in (`__module__`): `__main__` for a program's.
    pub fn module(&self) -> Rc<str> {
        match self.namespace.borrow().get_str("__module__") {
            Some(Value::Str(m)) => m.clone(),
            _ => "__main__".into(),
        }
    }

    /// `<class '__main__.Point'>`.
    pub fn repr(&self) -> String {
        format!("<class '{}.{}'>", self.module(), self.qualname)
    }
}

/// Why C3 linearization found no order.
pub struct NoOrder(pub Vec<Rc<str>>);

/// The method resolution order after a new class whose bases are `bases` (C3: each base's
/// order merged, a class taken only when no list still to merge has it after its head).
pub fn linearize(bases: &[Rc<Class>]) -> Result<Vec<Rc<Class>>, NoOrder> {
    let mut lists: Vec<Vec<Rc<Class>>> = bases
        .iter()
        .map(|b| b.lineage().cloned().collect())
        .collect();
    lists.push(bases.to_vec());
    let mut out = Vec::new();
    loop {
        lists.retain(|l| !l.is_empty());
        if lists.is_empty() {
            return Ok(out);
        }
        let head = lists.iter().map(|l| l[0].clone()).find(|candidate| {
            !lists
                .iter()
                .any(|l| l[1..].iter().any(|c| Rc::ptr_eq(c, candidate)))
        });
        let Some(head) = head else {
            let mut names: Vec<Rc<str>> = Vec::new();
            for l in &lists {
                if !names.contains(&l[0].name) {
                    names.push(l[0].name.clone());
                }
            }
            return Err(NoOrder(names));
        };
        for l in &mut lists {
            if Rc::ptr_eq(&l[0], &head) {
                l.remove(0);
            }
        }
        out.push(head);
    }
}

/// An instance of a class of a statement: its class and its attributes.
pub struct Instance {
    /// Its class.
    pub class: Rc<Class>,
    /// Its attributes (`__dict__`).
    pub attrs: DictEntries,
    /// For an instance of a class deriving from a builtin type: the builtin value it is
    /// (its items, its number), which that type's operations act on.
    pub base: Option<Value>,
}

impl Instance {
    /// A new instance of `class`, without attributes; `base` is the builtin value of a
    /// class deriving from a builtin type.
    pub fn new(class: Rc<Class>, base: Option<Value>) -> Instance {
        Instance {
            class,
            attrs: Rc::new(RefCell::new(super::dict::Dict::new())),
            base,
        }
    }
}

/// What `staticmethod`, `classmethod` and `property` make of a function in a class.
pub enum Descriptor {
    /// `staticmethod(f)`: read from a class or instance, `f` itself.
    Static(Value),
    /// `classmethod(f)`: read from a class or instance, `f` bound to the class.
    ClassMethod(Value),
    /// `property(fget, fset, fdel, doc)`: read, set and deleted on an instance through its
    /// functions (`None` where absent).
    Property {
        /// Called to read.
        get: Value,
        /// Called to set.
        set: Value,
        /// Called to delete.
        delete: Value,
        /// `__doc__`.
        doc: Value,
    },
}
