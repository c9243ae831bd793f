//! Registering a name with Rhai for every arity up to a maximum (Rhai has no variadic
//! functions; `x.view(2, 8)` and `x.view([2, 8])` must both work), each call checked against
//! the name's declaration (`signature`) before its body runs. The only way names reach the
//! engine.

use std::cell::Cell;
use std::rc::Rc;

use rhai::{Dynamic, Engine, FuncRegistration, Module, Variant};

use super::args::Args;
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

/// The argument check of a declared name: its declaration, or else no more positionals
/// than the registration reads (a test walks the registrations and requires a declaration
/// of each, so this fallback only serves a name being added).
fn checked_by(
    declaration: Option<&'static signature::Declaration>,
    name: &str,
    max: usize,
) -> impl Fn(&Args) -> RhaiResult<()> + 'static {
    let name = name.to_string();
    move |a| match declaration {
        Some(d) => d.check(a),
        None => a.at_most(&name, max),
    }
}

/// The op's name in messages when its declaration takes `device=` or `pin_memory=`, which
/// `placement` reads for every op alike.
fn placed(declared: Option<&'static signature::Declaration>) -> Option<&'static str> {
    let d = declared?;
    (d.declares("device") || d.declares("pin_memory") || d.declares("layout"))
        .then(|| d.name.rsplit("::").next().unwrap_or(d.name))
}

/// Runs `body` on the call's bound arguments, its placement keywords read first (`placed`)
/// and its keywords watched (`keyword_audit`): a keyword given and never read raises.
#[inline]
fn run_bound(
    declared: Option<&'static signature::Declaration>,
    placed: Option<&'static str>,
    a: Args,
    body: impl FnOnce(Args) -> RhaiResult<Dynamic>,
) -> RhaiResult<Dynamic> {
    let mut a = bound(declared, a);
    let audit = keyword_audit::watch(declared, &mut a);
    if let Some(op) = placed
        && !a.kw.is_empty()
    {
        placement::check(op, &a)?;
    }
    let out = body(a)?;
    audit.map_or(Ok(()), KeywordAudit::finish)?;
    Ok(out)
}

/// The call as the body reads it: unchanged without keywords (the common case, kept free
/// of moves), else with keywords naming positional parameters bound to their places.
#[inline]
fn bound(declaration: Option<&'static signature::Declaration>, a: Args) -> Args {
    match declaration {
        Some(d) if !a.kw.is_empty() => d.bind(a),
        _ => a,
    }
}

/// How many positionals a registration takes: at least what its body reads, and as many as
/// the declaration allows, so that one more than that reaches the check and gets PyTorch's
/// `TypeError` (at most 8 positionals plus a keyword map).
fn reachable_arity(declaration: Option<&signature::Declaration>, max: usize) -> usize {
    let declared = declaration.and_then(|d| d.positional_capacity());
    max.max(declared.map_or(0, |n| n + 1)).min(8)
}

/// A method body: the receiver and the call's arguments.
pub type MethodBody<T> = Rc<dyn Fn(&T, Args) -> RhaiResult<Dynamic>>;

/// Registers `name` as a method of `T` for 0 to `max` arguments, plus one for a trailing
/// keyword map (at most 9 in all), checked against the declaration of `T::OWNER.name`
/// before `body` runs. The receiver is taken by value (a handle clone): a method
/// called on an indexed value (`x[0].fill_(1)`) must not make Rhai write the value back
/// through the indexer, which it does for `&mut` receivers.
pub fn method<T: Variant + Clone + Owner>(
    engine: &mut Engine,
    name: &str,
    max: usize,
    body: impl Fn(&T, Args) -> RhaiResult<Dynamic> + 'static,
) {
    let declared = declaration(T::OWNER, name);
    let check = Rc::new(checked_by(declared, name, max));
    let max = reachable_arity(declared, max);
    let mutation = declared.and_then(signature::Declaration::mutation);
    // Storages read their own `device=` (their methods raise other errors than factories).
    let placed = placed(declared).filter(|_| T::OWNER == "Tensor");
    // The body once the arguments passed their check.
    let run: MethodBody<T> = Rc::new(move |t, a| {
        if let Some(mutation) = mutation {
            t.before_mutation(mutation)?;
        }
        run_bound(declared, placed, a, |a| body(t, a))
    });
    macro_rules! arity {
        ($n:expr; $($a:ident),*) => {
            if max + 1 >= $n {
                let (run, check) = (run.clone(), check.clone());
                engine.register_fn(name, move |t: T, $($a: Dynamic),*| {
                    let a = Args::new(vec![$($a),*]);
                    check(&a)?;
                    run(&t, a)
                });
            }
        };
    }
    {
        let (run, check) = (run.clone(), check.clone());
        let passed = Cell::new(false);
        engine.register_fn(name, move |t: T| {
            let a = Args::new(vec![]);
            // A call without arguments is checked once: its outcome depends on the
            // declaration alone, so once it passed it always passes (`x.t()` in a loop).
            if !passed.get() {
                check(&a)?;
                passed.set(true);
            }
            run(&t, a)
        });
    }
    for_each_arity!(arity);
}

/// A module function body: the call's arguments.
pub type FunctionBody = Rc<dyn Fn(Args) -> RhaiResult<Dynamic>>;

/// Registers `name` in `module` for 0 to `max` arguments, plus one for a trailing keyword
/// map (at most 9 in all), checked against the declaration of `torch.path` before `body`
/// runs (`path` is `name`, or `UntypedStorage::name` in that sub-module).
pub fn function(
    module: &mut Module,
    path: &str,
    max: usize,
    body: impl Fn(Args) -> RhaiResult<Dynamic> + 'static,
) {
    let declared = declaration("torch", path);
    let check = checked_by(declared, path, max);
    let placed = placed(declared);
    let max = reachable_arity(declared, max);
    let name = path.rsplit("::").next().unwrap_or(path);
    let f: FunctionBody = Rc::new(move |a| {
        check(&a)?;
        run_bound(declared, placed, a, &body)
    });
    macro_rules! arity {
        ($n:expr; $($a:ident),*) => {
            if max + 1 >= $n {
                let f = f.clone();
                FuncRegistration::new(name).set_into_module(module, move |$($a: Dynamic),*| f(Args::new(vec![$($a),*])));
            }
        };
    }
    {
        let f = f.clone();
        FuncRegistration::new(name).set_into_module(module, move || f(Args::new(vec![])));
    }
    for_each_arity!(arity);
}
