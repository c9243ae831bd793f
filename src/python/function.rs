//! Functions defined in a session (`def`, `lambda`) and the scopes names live in.
//!
//! The parsed program is kept for the whole process (`source::parse` leaks it), so a
//! function holds plain references to its body.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use ruff_python_ast::{Expr, Parameters, Stmt};

use super::source::SourceText;
use super::value::Value;

/// The body of a function: statements (`def`) or one expression (`lambda`).
#[derive(Clone, Copy)]
pub enum Body {
    /// `def`'s statements.
    Statements(&'static [Stmt]),
    /// `lambda`'s expression.
    Expression(&'static Expr),
}

/// What a function's body does with names, found once when the function is defined.
#[derive(Default)]
pub struct NameUse {
    /// Names the body assigns (its locals, parameters included), less those declared
    /// `global` or `nonlocal`.
    pub locals: HashSet<Rc<str>>,
    /// Names declared `global`.
    pub globals: HashSet<Rc<str>>,
    /// Names declared `nonlocal`.
    pub nonlocals: HashSet<Rc<str>>,
}

/// A function value.
pub struct Function {
    /// `__name__` (`<lambda>` for a lambda).
    pub name: Rc<str>,
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
    /// The file it was defined in.
    pub source: Rc<SourceText>,
}

/// Where a scope's names come from.
pub enum ScopeKind {
    /// The module's globals.
    Module,
    /// A call of a function.
    Function(Rc<NameUse>),
    /// A comprehension's own variables.
    Comprehension,
}

/// A scope: variables, and the scope it sits in.
pub struct Scope {
    /// The variables.
    pub vars: RefCell<HashMap<Rc<str>, Value>>,
    /// The enclosing scope (none for the module).
    pub parent: Option<Rc<Scope>>,
    /// What kind of scope this is.
    pub kind: ScopeKind,
}

impl Scope {
    /// The module scope.
    pub fn module() -> Rc<Scope> {
        Rc::new(Scope {
            vars: RefCell::new(HashMap::new()),
            parent: None,
            kind: ScopeKind::Module,
        })
    }

    /// A scope inside `parent`.
    pub fn inside(parent: &Rc<Scope>, kind: ScopeKind) -> Rc<Scope> {
        Rc::new(Scope {
            vars: RefCell::new(HashMap::new()),
            parent: Some(parent.clone()),
            kind,
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
