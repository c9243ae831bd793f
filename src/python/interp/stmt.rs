//! Statements: assignment (with unpacking, subscripts and attributes), augmented assignment
//! (in place on tensors, as Python's `+=` is), control flow, `def`, `try`, `raise`, `with`,
//! `assert`, `del` and imports.

use std::collections::HashMap;
use std::rc::Rc;

use ruff_python_ast::{self as ast, ExceptHandler, Expr, Stmt};

use super::{Flow, Interpreter, Unwind};
use crate::python::exception::PyException;
use crate::python::function::{Body, Function, Scope};
use crate::python::number::BinOp;
use crate::python::types::TypeKind;
use crate::python::value::Value;

/// Python's operator for an AST operator.
pub fn bin_op(op: ast::Operator) -> BinOp {
    use ast::Operator as O;
    match op {
        O::Add => BinOp::Add,
        O::Sub => BinOp::Sub,
        O::Mult => BinOp::Mul,
        O::MatMult => BinOp::MatMul,
        O::Div => BinOp::Div,
        O::Mod => BinOp::Mod,
        O::Pow => BinOp::Pow,
        O::LShift => BinOp::LShift,
        O::RShift => BinOp::RShift,
        O::BitOr => BinOp::Or,
        O::BitXor => BinOp::Xor,
        O::BitAnd => BinOp::And,
        O::FloorDiv => BinOp::FloorDiv,
    }
}

impl Interpreter {
    /// Runs statements in order.
    #[inline]
    pub(super) fn exec_block(&mut self, body: &'static [Stmt], scope: &Rc<Scope>) -> Flow<()> {
        for stmt in body {
            let done = self.exec(stmt, scope);
            // PyTorch's warnings from the statement's ops, issued before what it raised
            // (they came first).
            if crate::ops::warnings::has_pending() {
                self.issue_torch_warnings()?;
            }
            done?;
        }
        Ok(())
    }

    pub(super) fn exec(&mut self, stmt: &'static Stmt, scope: &Rc<Scope>) -> Flow<()> {
        self.set_line(stmt);
        if let Some(what) = crate::python::source::unsupported_statement(stmt) {
            return self.raise(
                "NotImplementedError",
                format!("tensh's Python does not run {what}"),
            );
        }
        match stmt {
            Stmt::Expr(e) => {
                self.eval(&e.value, scope)?;
            }
            Stmt::Assign(a) => {
                let value = self.eval(&a.value, scope)?;
                // Before the names are bound: a warning turned into an error stops it.
                if crate::ops::warnings::has_pending() {
                    self.issue_torch_warnings()?;
                }
                // The last target takes the value itself: a copy of a host value is an
                // allocation.
                if let Some((last, first)) = a.targets.split_last() {
                    for target in first {
                        self.assign(target, value.clone(), scope)?;
                    }
                    self.assign(last, value, scope)?;
                }
            }
            Stmt::AnnAssign(a) => {
                if let (crate::python::function::ScopeKind::Class, Expr::Name(n)) =
                    (&scope.kind, &*a.target)
                {
                    // A class body keeps its annotations in order (`dataclass` reads them).
                    let annotation = self.eval(&a.annotation, scope)?;
                    let existing = scope.vars.borrow().get("__annotations__").cloned();
                    let annotations = match existing {
                        Some(Value::Dict(d)) => d,
                        _ => {
                            let d = std::rc::Rc::new(std::cell::RefCell::new(
                                crate::python::value::dict::Dict::new(),
                            ));
                            self.bind("__annotations__", Value::Dict(d.clone()), scope);
                            d
                        }
                    };
                    annotations.borrow_mut().set_str(n.id.as_str(), annotation);
                }
                if let Some(v) = &a.value {
                    let value = self.eval(v, scope)?;
                    self.assign(&a.target, value, scope)?;
                }
            }
            Stmt::AugAssign(a) => self.aug_assign(a, scope)?,
            Stmt::If(s) => {
                if let Some(block) = self.chosen_branch(s, scope)? {
                    return self.exec_block(block, scope);
                }
            }
            Stmt::While(w) => loop {
                self.check_interrupt()?;
                self.set_line(&*w.test);
                if !self.eval_truth(&w.test, scope)? {
                    return self.exec_block(&w.orelse, scope);
                }
                match self.exec_block(&w.body, scope) {
                    Ok(()) | Err(Unwind::Continue) => {}
                    Err(Unwind::Break) => break,
                    Err(other) => return Err(other),
                }
            },
            Stmt::For(f) => {
                let iterable = self.eval(&f.iter, scope)?;
                let mut it = self.iter_of(&iterable)?;
                loop {
                    self.check_interrupt()?;
                    let Some(item) = self.next_of(&mut it)? else {
                        return self.exec_block(&f.orelse, scope);
                    };
                    self.assign(&f.target, item, scope)?;
                    match self.exec_block(&f.body, scope) {
                        Ok(()) | Err(Unwind::Continue) => {}
                        Err(Unwind::Break) => break,
                        Err(other) => return Err(other),
                    }
                }
            }
            Stmt::FunctionDef(f) => {
                let decorators = self.decorators(&f.decorator_list, scope)?;
                let function = self.make_function(
                    f.name.as_str(),
                    Some(&f.parameters),
                    Body::Statements(&f.body),
                    stmt as *const Stmt as usize,
                    scope,
                )?;
                let function = self.decorate(decorators, function)?;
                self.bind(f.name.as_str(), function, scope);
            }
            Stmt::ClassDef(c) => self.class_statement(c, scope)?,
            Stmt::Return(r) => {
                let value = match &r.value {
                    Some(v) => self.eval(v, scope)?,
                    None => Value::None,
                };
                return Err(Unwind::Return(value));
            }
            Stmt::Delete(d) => {
                for target in &d.targets {
                    self.delete(target, scope)?;
                }
            }
            Stmt::Pass(_) | Stmt::Global(_) | Stmt::Nonlocal(_) => {}
            Stmt::Break(_) => return Err(Unwind::Break),
            Stmt::Continue(_) => return Err(Unwind::Continue),
            Stmt::Raise(r) => return Err(self.raise_statement(r, scope)?),
            Stmt::Try(t) => return self.try_statement(t, scope),
            Stmt::Assert(a) => {
                if !self.eval_truth(&a.test, scope)? {
                    let args = match &a.msg {
                        Some(m) => vec![self.eval(m, scope)?],
                        None => Vec::new(),
                    };
                    let class = crate::python::types::builtin("AssertionError");
                    return Err(self.throw(PyException::of_class(class, args)));
                }
            }
            Stmt::Import(i) => {
                for alias in &i.names {
                    let module = self.import(alias.name.as_str())?;
                    match &alias.asname {
                        Some(a) => self.bind(a.as_str(), module, scope),
                        None => {
                            let top = alias.name.as_str().split('.').next().unwrap_or_default();
                            let top_module = self.import(top)?;
                            self.bind(top, top_module, scope);
                        }
                    }
                }
            }
            Stmt::ImportFrom(i) => {
                let name = i.module.as_ref().map_or("", |m| m.as_str());
                if i.level > 0 {
                    return self.raise(
                        "ImportError",
                        "attempted relative import with no known parent package",
                    );
                }
                let module = self.import(name)?;
                for alias in &i.names {
                    if alias.name.as_str() == "*" {
                        return self.raise(
                            "NotImplementedError",
                            format!("tensh's Python does not run 'from {name} import *'"),
                        );
                    }
                    let value = self
                        .get_attribute(&module, alias.name.as_str())
                        .map_err(|u| match u {
                            Unwind::Raise(_) => self.throw(PyException::new(
                                "ImportError",
                                format!(
                                    "cannot import name '{}' from '{name}'",
                                    alias.name.as_str()
                                ),
                            )),
                            other => other,
                        })?;
                    let bound = alias.asname.as_ref().unwrap_or(&alias.name);
                    self.bind(bound.as_str(), value, scope);
                }
            }
            Stmt::With(w) => return self.with_statement(w, 0, scope),
            Stmt::Match(m) => return self.match_statement(m, scope),
            _ => {
                return self.raise(
                    "NotImplementedError",
                    "tensh's Python does not run this statement",
                );
            }
        }
        Ok(())
    }

    /// The block an `if` statement runs: its body's, an `elif`'s or its `else`'s, tested in
    /// order (none when every test fails and there is no `else`).
    pub(super) fn chosen_branch(
        &mut self,
        s: &'static ast::StmtIf,
        scope: &Rc<Scope>,
    ) -> Flow<Option<&'static [Stmt]>> {
        if self.eval_truth(&s.test, scope)? {
            return Ok(Some(&s.body));
        }
        for clause in &s.elif_else_clauses {
            let taken = match &clause.test {
                Some(test) => {
                    self.set_line(test);
                    self.eval_truth(test, scope)?
                }
                None => true,
            };
            if taken {
                return Ok(Some(&clause.body));
            }
        }
        Ok(None)
    }

    /// Makes a function value (`def` or `lambda`), evaluating its defaults now.
    pub(super) fn make_function(
        &mut self,
        name: &str,
        parameters: Option<&'static ast::Parameters>,
        body: Body,
        site: usize,
        scope: &Rc<Scope>,
    ) -> Flow<Value> {
        let mut defaults = HashMap::new();
        if let Some(p) = parameters {
            for param in p.posonlyargs.iter().chain(&p.args).chain(&p.kwonlyargs) {
                if let Some(d) = &param.default {
                    let v = self.eval(d, scope)?;
                    defaults.insert(param.parameter.name.as_str().into(), v);
                }
            }
        }
        let Some(source) = self.frames.last().map(|f| f.source.clone()) else {
            return self.raise("SystemError", "a function is defined outside any frame");
        };
        let names = Self::name_use(&source, site, parameters, body);
        // A class body's names are not seen from the functions it defines.
        let closure = match (&scope.kind, &scope.parent) {
            (crate::python::function::ScopeKind::Class, Some(outer)) => outer.clone(),
            _ => scope.clone(),
        };
        let qualname: Rc<str> = match &scope.kind {
            crate::python::function::ScopeKind::Class => {
                match scope.vars.borrow().get("__qualname__") {
                    Some(Value::Str(q)) => format!("{q}.{name}").into(),
                    _ => name.into(),
                }
            }
            crate::python::function::ScopeKind::Function(_) => {
                let outer = self.frames.last().map(|f| f.qualname.clone());
                format!("{}.<locals>.{name}", outer.as_deref().unwrap_or("?")).into()
            }
            _ => name.into(),
        };
        Ok(Value::Function(Rc::new(Function {
            name: name.into(),
            qualname,
            parameters,
            defaults,
            body,
            names,
            closure,
            source,
            owner: Default::default(),
            attrs: Default::default(),
        })))
    }

    /// Binds `value` to an assignment target.
    pub(super) fn assign(
        &mut self,
        target: &'static Expr,
        value: Value,
        scope: &Rc<Scope>,
    ) -> Flow<()> {
        match target {
            Expr::Name(n) => {
                self.bind_name(n, value, scope);
                Ok(())
            }
            Expr::Tuple(ast::ExprTuple { elts, .. }) | Expr::List(ast::ExprList { elts, .. }) => {
                self.unpack(elts, value, scope)
            }
            Expr::Subscript(s) => {
                let container = self.eval(&s.value, scope)?;
                let index = self.eval_index(&s.slice, scope)?;
                let result = self.set_item(&container, index, value);
                if result.is_err() {
                    self.note_failed_receiver(&s.value);
                }
                result
            }
            Expr::Attribute(a) => {
                let object = self.eval(&a.value, scope)?;
                self.set_attribute(&object, a.attr.as_str(), value)
            }
            Expr::Starred(_) => self.raise(
                "SyntaxError",
                "starred assignment target must be in a list or tuple",
            ),
            _ => self.raise("SyntaxError", "cannot assign to expression"),
        }
    }

    /// `a, b, *rest = value`.
    fn unpack(&mut self, targets: &'static [Expr], value: Value, scope: &Rc<Scope>) -> Flow<()> {
        let items = self.collect(&value)?;
        let star = targets.iter().position(|t| matches!(t, Expr::Starred(_)));
        match star {
            None => {
                if items.len() != targets.len() {
                    return if items.len() > targets.len() {
                        self.raise(
                            "ValueError",
                            format!("too many values to unpack (expected {})", targets.len()),
                        )
                    } else {
                        self.raise(
                            "ValueError",
                            format!(
                                "not enough values to unpack (expected {}, got {})",
                                targets.len(),
                                items.len()
                            ),
                        )
                    };
                }
                for (t, v) in targets.iter().zip(items) {
                    self.assign(t, v, scope)?;
                }
                Ok(())
            }
            Some(at) => {
                let after = targets.len() - at - 1;
                if items.len() < at + after {
                    return self.raise(
                        "ValueError",
                        format!(
                            "not enough values to unpack (expected at least {}, got {})",
                            at + after,
                            items.len()
                        ),
                    );
                }
                let mut items = items;
                let tail = items.split_off(items.len() - after);
                let middle = items.split_off(at);
                for (t, v) in targets[..at].iter().zip(items) {
                    self.assign(t, v, scope)?;
                }
                let Expr::Starred(s) = &targets[at] else {
                    unreachable!("position found a starred target")
                };
                self.assign(&s.value, Value::list(middle), scope)?;
                for (t, v) in targets[at + 1..].iter().zip(tail) {
                    self.assign(t, v, scope)?;
                }
                Ok(())
            }
        }
    }

    /// `target op= value`: in place where the target's value has an in-place form (a
    /// tensor's `add_`, a list's `extend`), else `target = target op value`.
    fn aug_assign(&mut self, a: &'static ast::StmtAugAssign, scope: &Rc<Scope>) -> Flow<()> {
        let op = bin_op(a.op);
        match &*a.target {
            Expr::Name(n) => {
                let current = self.lookup(n.id.as_str(), scope)?;
                let rhs = self.eval(&a.value, scope)?;
                let result = self.in_place(op, current, rhs)?;
                self.bind(n.id.as_str(), result, scope);
                Ok(())
            }
            Expr::Subscript(s) => {
                let container = self.eval(&s.value, scope)?;
                let index = self.eval_index(&s.slice, scope)?;
                let current = self.get_item(&container, index.clone())?;
                let rhs = self.eval(&a.value, scope)?;
                let result = self.in_place(op, current, rhs)?;
                self.set_item(&container, index, result)
            }
            Expr::Attribute(at) => {
                let object = self.eval(&at.value, scope)?;
                let current = self.get_attribute(&object, at.attr.as_str())?;
                let rhs = self.eval(&a.value, scope)?;
                let result = self.in_place(op, current, rhs)?;
                self.set_attribute(&object, at.attr.as_str(), result)
            }
            _ => self.raise(
                "SyntaxError",
                "'expression' is an illegal expression for augmented assignment",
            ),
        }
    }

    /// `del target`.
    fn delete(&mut self, target: &'static Expr, scope: &Rc<Scope>) -> Flow<()> {
        match target {
            Expr::Name(n) => self.unbind(n.id.as_str(), scope),
            Expr::Tuple(ast::ExprTuple { elts, .. }) | Expr::List(ast::ExprList { elts, .. }) => {
                for t in elts {
                    self.delete(t, scope)?;
                }
                Ok(())
            }
            Expr::Subscript(s) => {
                let container = self.eval(&s.value, scope)?;
                let index = self.eval_index(&s.slice, scope)?;
                self.delete_item(&container, index)
            }
            Expr::Attribute(a) => {
                let object = self.eval(&a.value, scope)?;
                let name = a.attr.as_str();
                if self.delete_instance_attribute(&object, name)? {
                    return Ok(());
                }
                if let Value::Tensor(_) = &object
                    && !self.host.tensor_has_property(name)
                {
                    return self.raise(
                        "AttributeError",
                        format!("'Tensor' object has no attribute '{name}'"),
                    );
                }
                self.set_attribute(&object, name, Value::None)
            }
            _ => self.raise("SyntaxError", "cannot delete expression"),
        }
    }

    /// `raise`, `raise X`, `raise X from Y`: the unwinding it starts.
    fn raise_statement(&mut self, r: &'static ast::StmtRaise, scope: &Rc<Scope>) -> Flow<Unwind> {
        let Some(exc) = &r.exc else {
            return match self.handling.last() {
                Some(e) => Ok(Unwind::Raise(e.clone())),
                None => self.raise("RuntimeError", "No active exception to reraise"),
            };
        };
        let value = self.eval(exc, scope)?;
        let cause = match &r.cause {
            Some(c) => Some(self.eval(c, scope)?),
            None => None,
        };
        let e = match value {
            Value::Exception(e) => e,
            Value::Type(t) if t.kind == TypeKind::Exception => {
                Rc::new(PyException::of_class(t, Vec::new()))
            }
            Value::Class(c) => self.raised_class(&c)?,
            _ => return self.raise("TypeError", "exceptions must derive from BaseException"),
        };
        if let Some(cause) = cause {
            // `raise X from Y`: Y is its cause, and its context goes unreported.
            let cause = match cause {
                Value::None => None,
                Value::Exception(c) => Some(c),
                Value::Type(t) if t.kind == TypeKind::Exception => {
                    Some(Rc::new(PyException::of_class(t, Vec::new())))
                }
                Value::Class(c) => Some(self.raised_class(&c)?),
                _ => {
                    return self.raise(
                        "TypeError",
                        "exception causes must derive from BaseException",
                    );
                }
            };
            e.set_cause(cause);
        }
        Ok(self.throw_rc(e))
    }

    /// Whether exception `e` matches an `except` clause's class (or tuple of classes).
    pub(super) fn matches_handler(&self, e: &PyException, class: &Value) -> Flow<bool> {
        match class {
            Value::Type(t) if t.kind == TypeKind::Exception => Ok(e.is_instance(t)),
            Value::Class(c) if c.exception.is_some() => Ok(Self::exception_is(e, c)),
            Value::Tuple(items) => {
                for item in items.iter() {
                    if self.matches_handler(e, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            _ => self.raise(
                "TypeError",
                "catching classes that do not inherit from BaseException is not allowed",
            ),
        }
    }

    fn try_statement(&mut self, t: &'static ast::StmtTry, scope: &Rc<Scope>) -> Flow<()> {
        let result = match self.exec_block(&t.body, scope) {
            Ok(()) => self.exec_block(&t.orelse, scope),
            Err(Unwind::Raise(e)) => self.handle(t, e, scope),
            Err(other) => Err(other),
        };
        if !t.finalbody.is_empty() {
            self.exec_block(&t.finalbody, scope)?;
        }
        result
    }

    /// Runs the first `except` clause of `t` that matches `e`, or lets `e` propagate.
    fn handle(
        &mut self,
        t: &'static ast::StmtTry,
        e: Rc<PyException>,
        scope: &Rc<Scope>,
    ) -> Flow<()> {
        let Some(at) = self.matching_handler(t, &e, scope)? else {
            return Err(Unwind::Raise(e));
        };
        let ExceptHandler::ExceptHandler(h) = &t.handlers[at];
        if let Some(name) = &h.name {
            self.bind(name.as_str(), Value::Exception(e.clone()), scope);
        }
        self.handling.push(e.clone());
        let result = self.exec_block(&h.body, scope);
        self.handling.pop();
        if let Some(name) = &h.name {
            // Python deletes the name when the clause ends.
            let _ = self.unbind(name.as_str(), scope);
        }
        result
    }

    /// The place of the first `except` clause of `t` that takes `e` (a statement's and a
    /// suspended generator's `try` both ask).
    pub(super) fn matching_handler(
        &mut self,
        t: &'static ast::StmtTry,
        e: &Rc<PyException>,
        scope: &Rc<Scope>,
    ) -> Flow<Option<usize>> {
        for (at, handler) in t.handlers.iter().enumerate() {
            let ExceptHandler::ExceptHandler(h) = handler;
            self.set_line(h);
            let matched = match &h.type_ {
                None => true,
                Some(class) => {
                    let class = self.eval(class, scope)?;
                    self.matches_handler(e, &class)?
                }
            };
            if matched {
                return Ok(Some(at));
            }
        }
        Ok(None)
    }

    /// `with a as x, b as y: body`, item `i` onwards.
    fn with_statement(
        &mut self,
        w: &'static ast::StmtWith,
        i: usize,
        scope: &Rc<Scope>,
    ) -> Flow<()> {
        let Some(item) = w.items.get(i) else {
            return self.exec_block(&w.body, scope);
        };
        let manager = self.eval(&item.context_expr, scope)?;
        let entered = self.enter(&manager)?;
        if let Some(target) = &item.optional_vars {
            self.assign(target, entered.value.clone(), scope)?;
        }
        let result = self.with_statement(w, i + 1, scope);
        let raised = match &result {
            Err(Unwind::Raise(e)) => Some(e.clone()),
            _ => None,
        };
        let suppress = self.exit(&manager, entered, raised.as_ref())?;
        match result {
            Err(Unwind::Raise(_)) if suppress => Ok(()),
            other => other,
        }
    }
}
