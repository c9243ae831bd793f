//! Generator functions: a call of a function whose body yields makes a generator
//! (`value::iteration::GeneratorFrame`), run a step at a time when its next item is asked
//! for. The statements that hold no `yield` run as anywhere else (`exec`); those that do are
//! kept as steps (a block and its place, a loop and its iteration, a `try` and its phase, a
//! `with` and its manager), so the walk can stop at a `yield` and go on from there.
//!
//! `yield` runs as a statement (`yield v`), as an assignment's value (`x = yield v`) and as
//! `yield from items`; inside another expression it is refused in words.

use std::rc::Rc;

use ruff_python_ast::{self as ast, ExceptHandler, Expr, Stmt};

use super::expr::CallArgs;
use super::{Flow, Interpreter, Unwind};
use crate::python::function::{Function, Scope};
use crate::python::value::Value;
use crate::python::value::iteration::{GeneratorFrame, PyIter, Step, TryPhase};

/// What the steps did when asked to go on.
enum Moved {
    /// Suspended at a `yield` of this value.
    Yielded(Value),
    /// Finished (returned, or ran off its end).
    Finished,
}

impl Interpreter {
    /// The generator a call of the generator function `f` makes, its arguments bound in
    /// `scope`; nothing of the body runs yet.
    pub(super) fn make_generator(&mut self, f: &Rc<Function>, scope: Rc<Scope>) -> Value {
        let steps = match f.body {
            crate::python::function::Body::Statements(body) => vec![Step::Block(body, 0)],
            crate::python::function::Body::Expression(_) => Vec::new(),
        };
        PyIter::Function(Box::new(GeneratorFrame {
            function: f.clone(),
            scope,
            steps,
            receiver: None,
            started: false,
            handling: Vec::new(),
        }))
        .into_value()
    }

    /// Runs the generator `g` to its next `yield` (`sent` is the value the suspended
    /// `yield` gives): the item, or `None` once it has finished.
    pub(super) fn resume_generator(
        &mut self,
        g: &mut GeneratorFrame,
        sent: Value,
    ) -> Flow<Option<Value>> {
        self.resume_with(g, Ok(sent))
    }

    /// `g.throw(e)`: `e` raised where the generator is suspended.
    fn throw_into_generator(
        &mut self,
        g: &mut GeneratorFrame,
        e: Rc<crate::python::exception::PyException>,
    ) -> Flow<Option<Value>> {
        if !g.started || g.steps.is_empty() {
            g.steps.clear();
            g.started = true;
            return Err(self.throw_rc(e));
        }
        g.receiver = None;
        self.resume_with(g, Err(Unwind::Raise(e)))
    }

    /// Resumes `g` with the value its `yield` gives, or an exception raised there.
    fn resume_with(
        &mut self,
        g: &mut GeneratorFrame,
        sent: Result<Value, Unwind>,
    ) -> Flow<Option<Value>> {
        let (sent, thrown) = match sent {
            Ok(v) => (v, None),
            Err(u) => (Value::None, Some(u)),
        };
        if !g.started && !matches!(sent, Value::None) {
            return self.raise(
                "TypeError",
                "can't send non-None value to a just-started generator",
            );
        }
        g.started = true;
        if g.steps.is_empty() {
            return Ok(None);
        }
        self.push_frame(g.function.name.clone(), g.function.source.clone())?;
        if let Some(frame) = self.frames.last_mut() {
            frame.qualname = g.function.qualname.clone();
        }
        let outer_handling = self.handling.len();
        self.handling.append(&mut g.handling);
        let mut pending = thrown;
        if pending.is_none()
            && let Some(targets) = g.receiver.take()
        {
            let scope = g.scope.clone();
            if let Err(u) = self.assign_targets(targets, sent, &scope) {
                pending = Some(u);
            }
        }
        let moved = self.run_steps(g, pending);
        g.handling = self
            .handling
            .split_off(outer_handling.min(self.handling.len()));
        self.frames.pop();
        match moved {
            Ok(Moved::Yielded(v)) => Ok(Some(v)),
            Ok(Moved::Finished) => {
                g.steps.clear();
                Ok(None)
            }
            Err(u) => {
                g.steps.clear();
                match u {
                    Unwind::Raise(e) if Self::stops_iteration(&e) => {
                        self.raise("RuntimeError", "generator raised StopIteration")
                    }
                    other => Err(other),
                }
            }
        }
    }

    fn stops_iteration(e: &crate::python::exception::PyException) -> bool {
        e.is_instance(&crate::python::types::builtin("StopIteration"))
    }

    /// Assigns `value` to every target of `x = y = yield v`.
    fn assign_targets(
        &mut self,
        targets: &'static [Expr],
        value: Value,
        scope: &Rc<Scope>,
    ) -> Flow<()> {
        for t in targets {
            self.assign(t, value.clone(), scope)?;
        }
        Ok(())
    }

    /// Walks the steps until a `yield`, the end, or an exception that leaves the body;
    /// `pending` is an unwinding already under way.
    fn run_steps(&mut self, g: &mut GeneratorFrame, mut pending: Option<Unwind>) -> Flow<Moved> {
        let scope = g.scope.clone();
        loop {
            self.check_interrupt()?;
            if let Some(u) = pending.take() {
                pending = self.unwind_step(g, u, &scope)?;
                continue;
            }
            let Some(top) = g.steps.last_mut() else {
                return Ok(Moved::Finished);
            };
            match top {
                Step::Block(stmts, at) => {
                    let Some(stmt) = stmts.get(*at) else {
                        g.steps.pop();
                        continue;
                    };
                    *at += 1;
                    if !g
                        .function
                        .names
                        .yielding
                        .contains(&(stmt as *const Stmt as usize))
                    {
                        if let Err(u) = self.exec(stmt, &scope) {
                            pending = Some(u);
                        }
                        continue;
                    }
                    self.set_line(stmt);
                    match self.enter_yielding(g, stmt, &scope) {
                        Ok(Some(v)) => return Ok(Moved::Yielded(v)),
                        Ok(None) => {}
                        Err(u) => pending = Some(u),
                    }
                }
                Step::For(f, items) => {
                    let f = *f;
                    match self.next_of(items) {
                        Ok(Some(item)) => match self.assign(&f.target, item, &scope) {
                            Ok(()) => g.steps.push(Step::Block(&f.body, 0)),
                            Err(u) => pending = Some(u),
                        },
                        Ok(None) => {
                            g.steps.pop();
                            g.steps.push(Step::Block(&f.orelse, 0));
                        }
                        Err(u) => pending = Some(u),
                    }
                }
                Step::While(w) => {
                    let w = *w;
                    self.set_line(&*w.test);
                    match self.eval_truth(&w.test, &scope) {
                        Ok(true) => g.steps.push(Step::Block(&w.body, 0)),
                        Ok(false) => {
                            g.steps.pop();
                            g.steps.push(Step::Block(&w.orelse, 0));
                        }
                        Err(u) => pending = Some(u),
                    }
                }
                Step::Try(t, phase) => {
                    // The block of the phase ended normally.
                    let t = *t;
                    match phase {
                        TryPhase::Body => {
                            *phase = TryPhase::Else;
                            g.steps.push(Step::Block(&t.orelse, 0));
                        }
                        TryPhase::Handler(at, _) => {
                            let at = *at;
                            self.leave_handler(t, at, &scope);
                            *phase = TryPhase::Finally(None);
                            g.steps.push(Step::Block(&t.finalbody, 0));
                        }
                        TryPhase::Else => {
                            *phase = TryPhase::Finally(None);
                            g.steps.push(Step::Block(&t.finalbody, 0));
                        }
                        TryPhase::Finally(after) => {
                            pending = after.take();
                            g.steps.pop();
                        }
                    }
                }
                Step::With(..) => {
                    let Some(Step::With(manager, entered)) = g.steps.pop() else {
                        unreachable!("matched as a with step")
                    };
                    if let Err(u) = self.exit(&manager, entered, None) {
                        pending = Some(u);
                    }
                }
                Step::YieldFrom(items) => match self.next_of(items) {
                    Ok(Some(v)) => return Ok(Moved::Yielded(v)),
                    Ok(None) => {
                        g.steps.pop();
                    }
                    Err(u) => pending = Some(u),
                },
            }
        }
    }

    /// Carries `u` out of the innermost step: a loop takes its `break` and `continue`, a
    /// `try` its exception (a matching handler) and runs its `finally`, a `with` exits
    /// (and may swallow the exception). What goes on unwinding is returned; past the last
    /// step a `return` finishes the generator and an exception leaves it.
    fn unwind_step(
        &mut self,
        g: &mut GeneratorFrame,
        u: Unwind,
        scope: &Rc<Scope>,
    ) -> Flow<Option<Unwind>> {
        let Some(top) = g.steps.last_mut() else {
            return match u {
                Unwind::Return(_) => {
                    // Finished: the steps are empty, which `run_steps` reads as the end.
                    Ok(None)
                }
                Unwind::Raise(e) => Err(Unwind::Raise(e)),
                Unwind::Break | Unwind::Continue => {
                    self.raise("SyntaxError", "'break' or 'continue' outside loop")
                }
            };
        };
        match top {
            Step::Block(..) | Step::YieldFrom(_) => {
                g.steps.pop();
                Ok(Some(u))
            }
            Step::For(..) | Step::While(_) => match u {
                Unwind::Break => {
                    g.steps.pop();
                    Ok(None)
                }
                // The loop on top takes its next turn.
                Unwind::Continue => Ok(None),
                other => {
                    g.steps.pop();
                    Ok(Some(other))
                }
            },
            Step::Try(t, phase) => {
                let t = *t;
                match (std::mem::replace(phase, TryPhase::Body), u) {
                    (TryPhase::Body, Unwind::Raise(e)) => {
                        match self.matching_handler(t, &e, scope)? {
                            Some(at) => {
                                let ExceptHandler::ExceptHandler(h) = &t.handlers[at];
                                if let Some(name) = &h.name {
                                    self.bind(name.as_str(), Value::Exception(e.clone()), scope);
                                }
                                self.handling.push(e.clone());
                                *phase = TryPhase::Handler(at, e);
                                g.steps.push(Step::Block(&h.body, 0));
                                Ok(None)
                            }
                            None => {
                                *phase = TryPhase::Finally(Some(Unwind::Raise(e)));
                                g.steps.push(Step::Block(&t.finalbody, 0));
                                Ok(None)
                            }
                        }
                    }
                    (TryPhase::Handler(at, _), u) => {
                        self.leave_handler(t, at, scope);
                        *phase = TryPhase::Finally(Some(u));
                        g.steps.push(Step::Block(&t.finalbody, 0));
                        Ok(None)
                    }
                    (TryPhase::Body | TryPhase::Else, u) => {
                        *phase = TryPhase::Finally(Some(u));
                        g.steps.push(Step::Block(&t.finalbody, 0));
                        Ok(None)
                    }
                    // An unwinding out of `finally` replaces the one it was carrying.
                    (TryPhase::Finally(_), u) => {
                        g.steps.pop();
                        Ok(Some(u))
                    }
                }
            }
            Step::With(..) => {
                let Some(Step::With(manager, entered)) = g.steps.pop() else {
                    unreachable!("matched as a with step")
                };
                let raised = match &u {
                    Unwind::Raise(e) => Some(e.clone()),
                    _ => None,
                };
                let suppress = self.exit(&manager, entered, raised.as_ref())?;
                Ok(if suppress && raised.is_some() {
                    None
                } else {
                    Some(u)
                })
            }
        }
    }

    /// Ends the `except` clause at `at` of `t`: its exception is no longer handled and its
    /// name goes, as in Python.
    fn leave_handler(&mut self, t: &'static ast::StmtTry, at: usize, scope: &Rc<Scope>) {
        self.handling.pop();
        let ExceptHandler::ExceptHandler(h) = &t.handlers[at];
        if let Some(name) = &h.name {
            let _ = self.unbind(name.as_str(), scope);
        }
    }

    /// Starts a statement that holds a `yield`: yields at once (`yield v`, `x = yield v`),
    /// or becomes a step (`yield from`, a loop, an `if`'s chosen block, a `try`, a `with`).
    fn enter_yielding(
        &mut self,
        g: &mut GeneratorFrame,
        stmt: &'static Stmt,
        scope: &Rc<Scope>,
    ) -> Flow<Option<Value>> {
        match stmt {
            Stmt::Expr(e) => match &*e.value {
                Expr::Yield(y) => return self.yielded(y, scope).map(Some),
                Expr::YieldFrom(y) => {
                    let items = self.eval(&y.value, scope)?;
                    let items = self.iter_of(&items)?;
                    g.steps.push(Step::YieldFrom(items));
                }
                _ => return self.nested_yield(),
            },
            Stmt::Assign(a) => match &*a.value {
                Expr::Yield(y) => {
                    let v = self.yielded(y, scope)?;
                    g.receiver = Some(&a.targets);
                    return Ok(Some(v));
                }
                _ => return self.nested_yield(),
            },
            Stmt::For(f) => {
                let items = self.eval(&f.iter, scope)?;
                let items = self.iter_of(&items)?;
                g.steps.push(Step::For(f, items));
            }
            Stmt::While(w) => g.steps.push(Step::While(w)),
            Stmt::If(s) => {
                if let Some(block) = self.chosen_branch(s, scope)? {
                    g.steps.push(Step::Block(block, 0));
                }
            }
            Stmt::Try(t) => {
                g.steps.push(Step::Try(t, TryPhase::Body));
                g.steps.push(Step::Block(&t.body, 0));
            }
            Stmt::With(w) => {
                for item in &w.items {
                    let manager = self.eval(&item.context_expr, scope)?;
                    let entered = self.enter(&manager)?;
                    let value = entered.value.clone();
                    g.steps.push(Step::With(manager, entered));
                    if let Some(target) = &item.optional_vars {
                        self.assign(target, value, scope)?;
                    }
                }
                g.steps.push(Step::Block(&w.body, 0));
            }
            _ => return self.nested_yield(),
        }
        Ok(None)
    }

    /// The value `yield v` gives out (`None` for a bare `yield`).
    fn yielded(&mut self, y: &'static ast::ExprYield, scope: &Rc<Scope>) -> Flow<Value> {
        match &y.value {
            Some(v) => self.eval(v, scope),
            None => Ok(Value::None),
        }
    }

    /// The refusal of a `yield` where tensh's generators do not stop.
    pub(super) fn nested_yield<T>(&self) -> Flow<T> {
        if self.frames.len() <= 1 {
            return self.raise("SyntaxError", "'yield' outside function");
        }
        self.raise(
            "NotImplementedError",
            "tensh's Python runs 'yield' as a statement, as 'x = yield v' and as 'yield from', not inside another expression",
        )
    }

    /// The `StopIteration` a finished generator's `send`/`throw`/`__next__` raises.
    fn stop_iteration(&self) -> Unwind {
        self.throw(crate::python::exception::PyException::of_class(
            crate::python::types::builtin("StopIteration"),
            Vec::new(),
        ))
    }

    /// `g.send(v)`, `g.close()`, `next(g)` as methods of a generator value.
    pub(super) fn generator_method(
        &mut self,
        it: &Rc<std::cell::RefCell<PyIter>>,
        name: &str,
        call: CallArgs,
    ) -> Flow<Value> {
        if name == "__iter__" {
            return Ok(Value::Iterator(it.clone()));
        }
        let Ok(mut inner) = it.try_borrow_mut() else {
            return self.raise("ValueError", "generator already executing");
        };
        match name {
            "send" | "__next__" => {
                let sent = match (name, call.args.as_slice()) {
                    ("send", [v]) => v.clone(),
                    ("send", other) => {
                        return self.raise(
                            "TypeError",
                            format!("send() takes exactly one argument ({} given)", other.len()),
                        );
                    }
                    _ => Value::None,
                };
                let item = match &mut *inner {
                    PyIter::Function(g) => self.resume_generator(g, sent),
                    other => self.next_of(other),
                };
                match item? {
                    Some(v) => Ok(v),
                    None => {
                        *inner = PyIter::Done;
                        Err(self.stop_iteration())
                    }
                }
            }
            "close" => {
                *inner = PyIter::Done;
                Ok(Value::None)
            }
            "throw" => {
                let e = match call.args.first() {
                    Some(Value::Exception(e)) => e.clone(),
                    Some(Value::Type(t)) if t.kind == crate::python::types::TypeKind::Exception => {
                        Rc::new(crate::python::exception::PyException::of_class(
                            t.clone(),
                            Vec::new(),
                        ))
                    }
                    Some(Value::Class(c)) if c.exception.is_some() => self.raised_class(c)?,
                    _ => {
                        return self.raise(
                            "TypeError",
                            "exceptions must be classes or instances deriving from BaseException, not NoneType",
                        );
                    }
                };
                let PyIter::Function(g) = &mut *inner else {
                    *inner = PyIter::Done;
                    return Err(self.throw_rc(e));
                };
                let item = self.throw_into_generator(g, e);
                match item? {
                    Some(v) => Ok(v),
                    None => {
                        *inner = PyIter::Done;
                        Err(self.stop_iteration())
                    }
                }
            }
            _ => self.raise(
                "AttributeError",
                format!("'{}' object has no attribute '{name}'", inner.type_name()),
            ),
        }
    }
}
