//! Names: reading, binding and deleting them through the scope chain with Python's rules
//! (a function's assigned names are its locals; `global` and `nonlocal` say otherwise), and
//! what a function body does with names, found once per `def`.

use std::collections::HashSet;
use std::rc::Rc;

use ruff_python_ast::visitor::source_order::{self, SourceOrderVisitor};
use ruff_python_ast::{Expr, ExprContext, Parameters, Stmt};

use super::{Flow, Interpreter};
use crate::python::function::{NameUse, Scope, ScopeKind};
use crate::python::name_use::Names;
use crate::python::source::SourceText;
use crate::python::types;
use crate::python::value::Value;

/// The builtin functions, by name (the types are found by `types::named`).
pub const BUILTIN_FUNCTIONS: &[&str] = &[
    "print",
    "explain",
    "help",
    "len",
    "enumerate",
    "zip",
    "isinstance",
    "issubclass",
    "repr",
    "abs",
    "min",
    "max",
    "sum",
    "sorted",
    "reversed",
    "any",
    "all",
    "round",
    "hex",
    "oct",
    "bin",
    "id",
    "getattr",
    "setattr",
    "hasattr",
    "delattr",
    "iter",
    "next",
    "map",
    "filter",
    "divmod",
    "pow",
    "chr",
    "ord",
    "callable",
    "format",
    "hash",
    "exit",
    "quit",
    "open",
    "vars",
    "dir",
    "globals",
    "locals",
    "eval",
    "exec",
    "ascii",
    "bytearray",
    "super",
    "property",
    "staticmethod",
    "classmethod",
];

/// Builtin types callable by name.
const BUILTIN_TYPES: &[&str] = &[
    "int",
    "float",
    "complex",
    "bool",
    "str",
    "list",
    "tuple",
    "dict",
    "set",
    "range",
    "slice",
    "type",
    "object",
    "bytes",
    "frozenset",
];

impl Interpreter {
    /// The value of `name` read in `scope`.
    pub(super) fn lookup(&self, name: &str, scope: &Rc<Scope>) -> Flow<Value> {
        let mut at: &Scope = scope;
        loop {
            if let Some(v) = at.vars.borrow().get(name) {
                return Ok(v.clone());
            }
            if let ScopeKind::Function(names) = &at.kind {
                if declares(&names.globals, name) {
                    at = root_of(at);
                    continue;
                }
                if names.locals.contains(name) {
                    return self.raise(
                        "UnboundLocalError",
                        format!(
                            "cannot access local variable '{name}' where it is not associated with a value"
                        ),
                    );
                }
            }
            match &at.parent {
                Some(p) => at = p,
                None => break,
            }
        }
        if let Some(v) = builtin_value(name) {
            return Ok(v);
        }
        self.raise("NameError", format!("name '{name}' is not defined"))
    }

    /// Binds `name` in `scope` (or where `global`/`nonlocal` say).
    pub(super) fn bind(&self, name: &str, value: Value, scope: &Rc<Scope>) {
        let target = self.binding_scope(name, scope);
        let mut vars = target.vars.borrow_mut();
        // A name bound again keeps its key (no new string for every assignment in a loop);
        // the old value is dropped after the scope is let go.
        let old = match vars.get_mut(name) {
            Some(slot) => Some(std::mem::replace(slot, value)),
            None => {
                vars.insert(name.into(), value);
                if let ScopeKind::Function(names) = &target.kind
                    && !names.locals.contains(name)
                {
                    target.unlisted.set(true);
                }
                None
            }
        };
        drop(vars);
        drop(old);
    }

    /// Where `name`, just bound in `scope`, sits among `scope`'s own variables: none when
    /// the binding went to another scope (`global`, `nonlocal`).
    pub(super) fn bound_here(&self, name: &str, scope: &Scope) -> Option<usize> {
        if !std::ptr::eq(self.binding_scope(name, scope), scope) {
            return None;
        }
        scope.vars.borrow().get_index_of(name)
    }

    /// `del name`.
    pub(super) fn unbind(&self, name: &str, scope: &Rc<Scope>) -> Flow<()> {
        match self
            .binding_scope(name, scope)
            .vars
            .borrow_mut()
            // O(1): the last variable takes the deleted one's place (a remembered position
            // is checked against its name, so hints stay right).
            .swap_remove(name)
        {
            Some(_) => Ok(()),
            None => self.raise("NameError", format!("name '{name}' is not defined")),
        }
    }

    /// The scope a binding of `name` in `scope` goes to.
    fn binding_scope<'s>(&self, name: &str, scope: &'s Scope) -> &'s Scope {
        if let ScopeKind::Function(names) = &scope.kind {
            if declares(&names.globals, name) {
                return root_of(scope);
            }
            if declares(&names.nonlocals, name) {
                let mut at = scope.parent.as_deref();
                while let Some(s) = at {
                    if matches!(s.kind, ScopeKind::Function(_))
                        && s.vars.borrow().contains_key(name)
                    {
                        return s;
                    }
                    at = s.parent.as_deref();
                }
            }
        }
        scope
    }

    /// How the function whose parameters and body these are uses names (found once per
    /// definition site, and kept with the source it is defined in).
    pub(super) fn name_use(
        source: &SourceText,
        key: usize,
        parameters: Option<&'static Parameters>,
        body: crate::python::function::Body,
    ) -> Rc<NameUse> {
        if let Some(u) = source.name_use(key) {
            return u;
        }
        let mut finder = Assigned::default();
        if let Some(p) = parameters {
            for param in p.iter() {
                finder.stores.insert(param.name().as_str().into());
            }
        }
        match body {
            crate::python::function::Body::Statements(stmts) => finder.visit_body(stmts),
            crate::python::function::Body::Expression(e) => finder.visit_expr(e),
        }
        let positional = parameters.map_or_else(Vec::new, |p| {
            p.posonlyargs
                .iter()
                .chain(&p.args)
                .map(|a| Rc::from(a.parameter.name.as_str()))
                .collect()
        });
        let mut use_ = NameUse {
            positional,
            locals: finder.stores,
            globals: finder.globals,
            nonlocals: finder.nonlocals,
            yielding: finder.yielding,
        };
        use_.locals
            .retain(|n| !use_.globals.contains(n) && !use_.nonlocals.contains(n));
        let use_ = Rc::new(use_);
        source.remember_name_use(key, use_.clone());
        use_
    }
}

/// The value a builtin name has: a builtin function, type or exception class. Found once
/// per name and kept (a builtin read in a loop, `len(x)`, is one hash).
pub fn builtin_value(name: &str) -> Option<Value> {
    thread_local! {
        static FOUND: std::cell::RefCell<std::collections::HashMap<Rc<str>, Value, ahash::RandomState>> =
            Default::default();
    }
    if let Some(v) = FOUND.with(|f| f.borrow().get(name).cloned()) {
        return Some(v);
    }
    // Only names that are builtins are kept (a name is never removed from the builtins, so
    // a kept value stays right; a missing name may become one, `exception_class`).
    let found = find_builtin(name)?;
    FOUND.with(|f| f.borrow_mut().insert(name.into(), found.clone()));
    Some(found)
}

/// `builtin_value` found by its tables.
fn find_builtin(name: &str) -> Option<Value> {
    if BUILTIN_FUNCTIONS.contains(&name) {
        return Some(Value::Builtin(name.into()));
    }
    if BUILTIN_TYPES.contains(&name) {
        return types::named(name).map(Value::Type);
    }
    match name {
        "Ellipsis" => return Some(Value::Ellipsis),
        "NotImplemented" => return Some(Value::NotImplemented),
        "__debug__" => return Some(Value::Bool(true)),
        _ => {}
    }
    types::named(name)
        .filter(|t| t.kind == types::TypeKind::Exception)
        .map(Value::Type)
}

/// Every builtin name (functions, types, exception classes, constants), for completion.
pub fn builtin_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = BUILTIN_FUNCTIONS
        .iter()
        .chain(BUILTIN_TYPES)
        .copied()
        .collect();
    names.extend(types::exception_names());
    names.extend(["None", "True", "False", "Ellipsis", "NotImplemented"]);
    names
}

/// Whether `declared` (a function's `global` or `nonlocal` names, most often none) holds
/// `name`: an empty set is not hashed into.
fn declares(declared: &Names, name: &str) -> bool {
    !declared.is_empty() && declared.contains(name)
}

/// The module scope `scope` sits in.
fn root_of(scope: &Scope) -> &Scope {
    let mut at = scope;
    while let Some(p) = &at.parent {
        at = p;
    }
    at
}

/// Collects the names a function body binds.
#[derive(Default)]
struct Assigned {
    stores: Names,
    globals: Names,
    nonlocals: Names,
    /// The statements being visited, outermost first (by address).
    open: Vec<usize>,
    /// The statements holding a `yield` (by address).
    yielding: HashSet<usize>,
}

impl<'a> SourceOrderVisitor<'a> for Assigned {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        self.open.push(stmt as *const Stmt as usize);
        self.visit_stmt_inside(stmt);
        self.open.pop();
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Yield(_) | Expr::YieldFrom(_) => {
                self.yielding.extend(self.open.iter().copied());
                source_order::walk_expr(self, expr);
            }
            Expr::Name(n) if matches!(n.ctx, ExprContext::Store | ExprContext::Del) => {
                self.stores.insert(n.id.as_str().into());
            }
            Expr::Named(n) => {
                if let Expr::Name(t) = &*n.target {
                    self.stores.insert(t.id.as_str().into());
                }
                self.visit_expr(&n.value);
            }
            // Their own scopes: a lambda's body and a comprehension's variables.
            Expr::Lambda(_) => {}
            Expr::ListComp(c) => self.visit_comprehension_iter(&c.generators),
            Expr::SetComp(c) => self.visit_comprehension_iter(&c.generators),
            Expr::DictComp(c) => self.visit_comprehension_iter(&c.generators),
            Expr::Generator(c) => self.visit_comprehension_iter(&c.generators),
            _ => source_order::walk_expr(self, expr),
        }
    }
}

impl Assigned {
    /// The names a `case` pattern captures (its locals, as assignment's are).
    fn pattern_names(&mut self, pattern: &ruff_python_ast::Pattern) {
        use ruff_python_ast::Pattern;
        match pattern {
            Pattern::MatchAs(p) => {
                if let Some(n) = &p.name {
                    self.stores.insert(n.as_str().into());
                }
                if let Some(inner) = &p.pattern {
                    self.pattern_names(inner);
                }
            }
            Pattern::MatchStar(p) => {
                if let Some(n) = &p.name {
                    self.stores.insert(n.as_str().into());
                }
            }
            Pattern::MatchMapping(p) => {
                if let Some(n) = &p.rest {
                    self.stores.insert(n.as_str().into());
                }
                for inner in &p.patterns {
                    self.pattern_names(inner);
                }
            }
            Pattern::MatchSequence(p) => p.patterns.iter().for_each(|q| self.pattern_names(q)),
            Pattern::MatchOr(p) => p.patterns.iter().for_each(|q| self.pattern_names(q)),
            Pattern::MatchClass(p) => {
                p.arguments
                    .patterns
                    .iter()
                    .for_each(|q| self.pattern_names(q));
                for k in &p.arguments.keywords {
                    self.pattern_names(&k.pattern);
                }
            }
            Pattern::MatchValue(_) | Pattern::MatchSingleton(_) => {}
        }
    }

    /// What `stmt` binds (its own statements visited through `visit_stmt`).
    fn visit_stmt_inside(&mut self, stmt: &Stmt) {
        match stmt {
            Stmt::FunctionDef(f) => {
                // Its name is bound here; its body is its own scope (defaults and decorators
                // are read here, but bind nothing).
                self.stores.insert(f.name.as_str().into());
            }
            Stmt::ClassDef(c) => {
                // Likewise: the body is the class's namespace.
                self.stores.insert(c.name.as_str().into());
            }
            Stmt::Global(g) => {
                self.globals
                    .extend(g.names.iter().map(|n| n.as_str().into()));
            }
            Stmt::Nonlocal(g) => {
                self.nonlocals
                    .extend(g.names.iter().map(|n| n.as_str().into()));
            }
            Stmt::Import(i) => {
                for alias in &i.names {
                    let bound = match &alias.asname {
                        Some(a) => a.as_str(),
                        None => alias.name.as_str().split('.').next().unwrap_or_default(),
                    };
                    self.stores.insert(bound.into());
                }
            }
            Stmt::ImportFrom(i) => {
                for alias in &i.names {
                    let bound = alias.asname.as_ref().unwrap_or(&alias.name);
                    self.stores.insert(bound.as_str().into());
                }
            }
            Stmt::Match(m) => {
                for case in &m.cases {
                    self.pattern_names(&case.pattern);
                }
                source_order::walk_stmt(self, stmt);
            }
            Stmt::Try(t) => {
                for h in &t.handlers {
                    let ruff_python_ast::ExceptHandler::ExceptHandler(h) = h;
                    if let Some(n) = &h.name {
                        self.stores.insert(n.as_str().into());
                    }
                }
                source_order::walk_stmt(self, stmt);
            }
            _ => source_order::walk_stmt(self, stmt),
        }
    }

    /// A comprehension's first iterable is read in the enclosing scope.
    fn visit_comprehension_iter(&mut self, generators: &[ruff_python_ast::Comprehension]) {
        if let Some(first) = generators.first() {
            self.visit_expr(&first.iter);
        }
    }
}
