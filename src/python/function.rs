//! Scopes names live in (the types, with functions', are `value`'s: a function holds the
//! scope it was defined in, and a scope holds values).
//!
//! A function holds plain references to its body and keeps the source they point into
//! alive (`Function::source`, the invariant on `source::SourceText`).

use std::cell::RefCell;
use std::rc::Rc;

pub use super::value::{Body, Function, NameUse, Scope, ScopeKind, Variables, new_variables};

impl Scope {
    /// The module scope.
    pub fn module() -> Rc<Scope> {
        Rc::new(Scope {
            vars: RefCell::new(new_variables(0)),
            parent: None,
            kind: ScopeKind::Module,
            unlisted: Default::default(),
        })
    }

    /// A scope inside `parent`.
    pub fn inside(parent: &Rc<Scope>, kind: ScopeKind) -> Rc<Scope> {
        let room = match &kind {
            ScopeKind::Function(names) => names.locals.len(),
            _ => 0,
        };
        Rc::new(Scope {
            vars: RefCell::new(new_variables(room)),
            parent: Some(parent.clone()),
            kind,
            unlisted: Default::default(),
        })
    }

    /// The module scope this scope sits in.
    pub fn root(self: &Rc<Scope>) -> Rc<Scope> {
        let mut at = self.clone();
        while let Some(p) = at.parent.clone() {
            at = p;
        }
        at
    }
}
