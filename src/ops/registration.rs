//! Registering a name with Rhai for every arity up to a maximum (Rhai has no variadic
//! functions; `x.view(2, 8)` and `x.view([2, 8])` must both work), each call checked against
//! the name's declaration (`signature`) before its body runs. The only way names reach the
//! engine.

use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use rhai::{Dynamic, Engine, FuncRegistration, Module, NativeCallContext, Variant};

use super::args::Args;
use super::call_check::CallCheck;
use super::errors::RhaiResult;
use super::keyword_audit::{self, KeywordAudit};
use super::placement;
use super::signature::{self, Owner};

/// Invokes `$m!(n; a, b, ...)` for every arity from 1 to 9: Rhai has no variadic functions, so
/// each function is registered once per arity.
macro_rules! for_each_arity {
    ($m:ident) => {
        $m!(1; a);
        $m!(2; a, b);
        $m!(3; a, b, c);
        $m!(4; a, b, c, d);
        $m!(5; a, b, c, d, e);
        $m!(6; a, b, c, d, e, g);
        $m!(7; a, b, c, d, e, g, h);
        $m!(8; a, b, c, d, e, g, h, i);
        $m!(9; a, b, c, d, e, g, h, i, j);
    };
}

/// The declaration of `owner.name`.
fn declaration(owner: &str, name: &str) -> Option<&'static signature::Declaration> {
    signature::lookup(owner, super::renamed::as_written(name))
}

/// The op's name in messages when its declaration takes `device=` or `pin_memory=`, which
/// `placement` reads for every op alike.
fn placed(declared: Option<&'static signature::Declaration>) -> Option<&'static str> {
    let d = declared?;
    (d.declares("device") || d.declares("pin_memory") || d.declares("layout"))
        .then(|| d.name.rsplit("::").next().unwrap_or(d.name))
}

/// Calls of registered names made by this process (all threads' scripts), for the fuzzer's
/// count of calls run (`TENSH_REPORT_CALLS`, `calls_made`).
static CALLS: AtomicU64 = AtomicU64::new(0);

/// How many calls of registered names (`torch::` functions and methods) this process has
/// made.
pub fn calls_made() -> u64 {
    CALLS.load(Ordering::Relaxed)
}

/// Counts one call (one relaxed add).
#[inline(always)]
fn count_call() {
    // Ops are called from one thread: a load and a store, not a locked add on every call.
    CALLS.store(CALLS.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
}

/// Runs `body` on the call's bound arguments, its placement keywords read first (`placed`)
/// and its keywords watched (`keyword_audit`): a keyword given and never read raises. A
/// call without keywords (most calls) has nothing to bind, place or watch.
#[inline(always)]
fn run_bound(
    declared: Option<&'static signature::Declaration>,
    placed: Option<&'static str>,
    a: Args,
    body: impl FnOnce(Args) -> RhaiResult<Dynamic>,
) -> RhaiResult<Dynamic> {
    if a.kw.is_empty() {
        if let Some(g) = super::generator_object::positional(&a) {
            return g.drawing(|| body(a));
        }
        return body(a);
    }
    run_with_keywords(declared, placed, a, body)
}

/// `run_bound` for a call with keywords.
fn run_with_keywords(
    declared: Option<&'static signature::Declaration>,
    placed: Option<&'static str>,
    a: Args,
    body: impl FnOnce(Args) -> RhaiResult<Dynamic>,
) -> RhaiResult<Dynamic> {
    let mut a = bound(declared, a);
    let out_call = match (super::out_argument::take(declared, &mut a), declared) {
        (Some(out), Some(d)) => Some(super::out_argument::prepare(d.name, out, &mut a)?),
        _ => None,
    };
    let audit = keyword_audit::watch(declared, &mut a);
    if let Some(op) = placed
        && !a.kw.is_empty()
    {
        placement::check(op, &a)?;
    }
    // `generator=`: the call draws from it (and so honours the keyword).
    let op = declared.map_or("", |d| d.name.rsplit("::").next().unwrap_or(d.name));
    let result = match super::generator_object::passed(&a, op)? {
        Some(g) => g.drawing(|| body(a))?,
        None => body(a)?,
    };
    audit.map_or(Ok(()), KeywordAudit::finish)?;
    match out_call {
        Some(call) => call.write(result),
        None => Ok(result),
    }
}

/// The call as the body reads it: keywords naming positional parameters bound to their
/// places.
fn bound(declaration: Option<&'static signature::Declaration>, a: Args) -> Args {
    match declaration {
        Some(d) => d.bind(a),
        None => a,
    }
}

/// How many positionals a registration takes: at least what its body reads, and as many as
/// the declaration allows, so that one more than that reaches the check and gets PyTorch's
/// `TypeError` (at most 8 positionals plus a keyword map).
fn reachable_arity(declaration: Option<&signature::Declaration>, max: usize) -> usize {
    let declared = declaration.and_then(|d| d.positional_capacity());
    max.max(declared.map_or(0, |n| n + 1)).min(8)
}

/// What every arity of one registered method shares: the check, what it changes of its
/// receiver, and the body. `call` is inlined into each arity's closure, so a call pays one
/// dynamic call (the body) beyond Rhai's own. The Python front calls it directly
/// (`op_table`), through the same check.
pub struct Method<T> {
    gate: Gate,
    body: Rc<MethodBody<T>>,
}

/// A method's check of its call, before its body runs.
struct Gate {
    check: CallCheck,
    /// How many arguments the registered forms take at most (the keyword map counted).
    arity: usize,
    declared: Option<&'static signature::Declaration>,
    mutation: Option<signature::Mutation>,
    placed: Option<&'static str>,
}

/// A method body: the receiver and the call's arguments.
pub type MethodBody<T> = dyn Fn(&T, Args) -> RhaiResult<Dynamic>;

/// A method body that calls script functions (a hook, a closure): the call's context, the
/// receiver and the call's arguments.
pub type ContextMethodBody<T> = dyn Fn(&NativeCallContext, &T, Args) -> RhaiResult<Dynamic>;

impl Gate {
    /// The gate of method `name` of `owner`, checked against its declaration.
    fn new(owner: &str, name: &str, max: usize) -> Gate {
        let declared = declaration(owner, name);
        Gate {
            check: CallCheck::new(declared, name, max),
            arity: reachable_arity(declared, max) + 1,
            declared,
            mutation: declared.and_then(signature::Declaration::mutation),
            // Storages read their own `device=` (their methods raise other errors than
            // factories).
            placed: placed(declared).filter(|_| owner == "Tensor"),
        }
    }

    #[inline(always)]
    fn call<T: Owner>(
        &self,
        t: &T,
        a: Args,
        body: impl FnOnce(&T, Args) -> RhaiResult<Dynamic>,
    ) -> RhaiResult<Dynamic> {
        count_call();
        self.check.check(&a)?;
        match self.mutation {
            None => run_bound(self.declared, self.placed, a, |a| body(t, a)),
            Some(mutation) => t.mutating(mutation, || {
                run_bound(self.declared, self.placed, a, |a| body(t, a))
            }),
        }
    }

    /// `call` without arguments.
    #[inline(always)]
    fn call_without_arguments<T: Owner>(
        &self,
        t: &T,
        body: impl FnOnce(&T, Args) -> RhaiResult<Dynamic>,
    ) -> RhaiResult<Dynamic> {
        count_call();
        self.check.check_without_arguments()?;
        match self.mutation {
            None => body(t, Args::default()),
            Some(mutation) => t.mutating(mutation, || body(t, Args::default())),
        }
    }
}

impl<T: Owner> Method<T> {
    /// The method `name` of `T`, checked against its declaration.
    pub fn new(name: &str, max: usize, body: Rc<MethodBody<T>>) -> Method<T> {
        Method {
            gate: Gate::new(T::OWNER, name, max),
            body,
        }
    }

    /// Calls the method on `t` with `a`, checked and bound as a registered call is.
    #[inline(always)]
    pub fn call(&self, t: &T, a: Args) -> RhaiResult<Dynamic> {
        self.gate.call(t, a, |t, a| (self.body)(t, a))
    }

    /// How many arguments (the keyword map counted as one) a registered form takes at most.
    pub fn arity(&self) -> usize {
        self.gate.arity
    }

    /// `call` without arguments.
    #[inline(always)]
    fn call_without_arguments(&self, t: &T) -> RhaiResult<Dynamic> {
        self.gate
            .call_without_arguments(t, |t, a| (self.body)(t, a))
    }
}

/// Registers `name` as a method of `T` for 0 to `max` arguments, plus one for a trailing
/// keyword map (at most 9 in all), checked against the declaration of `T::OWNER.name`
/// before `body` runs. The receiver is taken by value (a handle clone): a method
/// called on an indexed value (`x[0].fill_(1)`) must not make Rhai write the value back
/// through the indexer, which it does for `&mut` receivers.
///
/// The body is boxed at once and the registering is done by `register_method`, which is
/// generic over the receiver type only: each closure Rhai wraps is then compiled once per
/// receiver type, not once per method (it was half of the library's compiled code).
pub fn method<T: Variant + Clone + Owner>(
    engine: &mut Engine,
    name: &str,
    max: usize,
    body: impl Fn(&T, Args) -> RhaiResult<Dynamic> + 'static,
) {
    register_method::<T>(engine, name, max, Rc::new(body));
}

/// `method` with its body boxed.
fn register_method<T: Variant + Clone + Owner>(
    engine: &mut Engine,
    name: &str,
    max: usize,
    body: Rc<MethodBody<T>>,
) {
    let m = Rc::new(Method::new(name, max, body));
    let (kept, written) = (m.clone(), name.to_string());
    super::value_methods::keep(
        std::any::TypeId::of::<T>(),
        name,
        m.arity(),
        Rc::new(move |receiver: &Dynamic, a: Args| {
            // Taken by value, as the engine's registered form takes it.
            match receiver.read_lock::<T>().map(|t| t.clone()) {
                Some(t) => kept.call(&t, a),
                None => Err(super::errors::type_error(format!(
                    "descriptor '{}' requires a '{}' object",
                    written,
                    T::OWNER
                ))),
            }
        }),
    );
    register_checked_method(engine, name, m);
}

/// Registers an already checked method `m` as `name` for each arity it takes.
pub fn register_checked_method<T: Variant + Clone + Owner>(
    engine: &mut Engine,
    name: &str,
    m: Rc<Method<T>>,
) {
    let arity = m.arity();
    macro_rules! arity {
        ($n:expr; $($a:ident),*) => {
            if arity >= $n {
                let m = m.clone();
                engine.register_fn(name, move |t: T, $($a: Dynamic),*| {
                    m.call(&t, Args::new(smallvec::smallvec![$($a),*]))
                });
            }
        };
    }
    {
        let m = m.clone();
        engine.register_fn(name, move |t: T| m.call_without_arguments(&t));
    }
    for_each_arity!(arity);
}

/// `method` for a body that calls script functions, so gets the call's context. Registered
/// at once (not held back): Rhai passes the context only to functions it registered so.
pub fn method_with_context<T: Variant + Clone + Owner>(
    engine: &mut Engine,
    name: &str,
    max: usize,
    body: impl Fn(&NativeCallContext, &T, Args) -> RhaiResult<Dynamic> + 'static,
) {
    let body: Rc<ContextMethodBody<T>> = Rc::new(body);
    let gate = Rc::new(Gate::new(T::OWNER, name, max));
    let arity = gate.arity;
    macro_rules! arity {
        ($n:expr; $($a:ident),*) => {
            if arity >= $n {
                let (gate, body) = (gate.clone(), body.clone());
                engine.register_fn(name, move |ctx: NativeCallContext, t: T, $($a: Dynamic),*| {
                    gate.call(&t, Args::new(smallvec::smallvec![$($a),*]), |t, a| body(&ctx, t, a))
                });
            }
        };
    }
    {
        let (gate, body) = (gate.clone(), body.clone());
        engine.register_fn(name, move |ctx: NativeCallContext, t: T| {
            gate.call_without_arguments(&t, |t, a| body(&ctx, t, a))
        });
    }
    for_each_arity!(arity);
}

/// A module function body: the call's arguments.
pub type FunctionBody = Rc<dyn Fn(Args) -> RhaiResult<Dynamic>>;

/// A `torch` function as registered: its check and body, callable directly (the Python
/// front calls it through `op_table`).
pub struct Function {
    body: FunctionBody,
    arity: usize,
}

impl Function {
    /// The function `torch.path` over `body` reading at most `max` positionals, checked
    /// against its declaration (`path` is `name`, or `UntypedStorage::name` in that
    /// sub-module); registered with 0 to `max` arguments plus one for a trailing keyword
    /// map (at most 9 in all).
    pub fn new(path: &str, max: usize, body: FunctionBody) -> Function {
        let declared = declaration("torch", path);
        let check = CallCheck::new(declared, path, max);
        let placed = placed(declared);
        Function {
            arity: reachable_arity(declared, max) + 1,
            body: Rc::new(move |a| {
                count_call();
                check.check(&a)?;
                run_bound(declared, placed, a, &*body)
            }),
        }
    }

    /// Calls the function with `a`, checked and bound as a registered call is.
    pub fn call(&self, a: Args) -> RhaiResult<Dynamic> {
        (self.body)(a)
    }

    /// How many arguments (the keyword map counted as one) a registered form takes at most.
    pub fn arity(&self) -> usize {
        self.arity
    }
}

/// Registers an already checked function `checked` as `path` (its last part) in `module`
/// for each arity it takes.
pub fn register_checked_function(module: &mut Module, path: &str, checked: &Function) {
    let arity = checked.arity;
    let f = checked.body.clone();
    let name = path.rsplit("::").next().unwrap_or(path);
    macro_rules! arity {
        ($n:expr; $($a:ident),*) => {
            if arity >= $n {
                let f = f.clone();
                FuncRegistration::new(name).set_into_module(module, move |$($a: Dynamic),*| f(Args::new(smallvec::smallvec![$($a),*])));
            }
        };
    }
    {
        let f = f.clone();
        FuncRegistration::new(name).set_into_module(module, move || f(Args::default()));
    }
    for_each_arity!(arity);
}
