//! Calls of what the engine has registered beyond the op table — the methods, properties,
//! indexers and operators of storages, sizes, dtypes, named tuples and the rest, and Rhai's
//! own functions (`to_debug`) and operators — by name, found through the engine's own
//! resolution (by the name and the arguments' types) but with no program: no code text, no
//! compile. A property reads as a program's `r.name` does: its getter, else the type's
//! indexer with the name as a string (named tuples' fields), else the getter's error.

use rhai::{Dynamic, Engine, EvalAltResult, NativeCallContext, Position};
use smallvec::SmallVec;

use super::errors::RhaiResult;

/// Calls the registered function `name` with `args`. With `method`, the first argument is
/// the receiver and is changed in place, as a method call's is. A call of a name that finds
/// no function goes to the engine's missing-function hook as a program's call does (Python's
/// `AttributeError` for a method the receiver has not; a held-back op called from the table).
pub fn call(
    engine: &Engine,
    name: &str,
    args: &mut [Dynamic],
    method: bool,
) -> RhaiResult<Dynamic> {
    let name = super::renamed::as_registered(name);
    let global = engine.new_global_runtime_state();
    let context =
        NativeCallContext::new_with_all_fields(engine, name, None, &global, Position::NONE);
    let mut refs: SmallVec<[&mut Dynamic; 6]> = args.iter_mut().collect();
    context.call_fn_raw(name, method, method, &mut refs)
}

/// `receiver.name` read as a program reads it.
pub fn get_property(engine: &Engine, receiver: &Dynamic, name: &str) -> RhaiResult<Dynamic> {
    let mut args = [receiver.clone()];
    match call(engine, &format!("get${name}"), &mut args, true) {
        Err(e) if is_missing_property(&e) => {
            let mut args = [receiver.clone(), Dynamic::from(name.to_string())];
            match call(engine, "index$get$", &mut args, true) {
                Err(missing) if is_missing_indexer(&missing) => Err(e),
                other => other,
            }
        }
        other => other,
    }
}

/// `receiver.name = value` run as a program runs it: the setter, else the type's indexer
/// with the name as a string, else the setter's error.
pub fn set_property(
    engine: &Engine,
    receiver: &Dynamic,
    name: &str,
    value: Dynamic,
) -> RhaiResult<Dynamic> {
    let mut args = [receiver.clone(), value.clone()];
    match call(engine, &format!("set${name}"), &mut args, true) {
        Err(e) if is_missing_property(&e) => {
            let key = Dynamic::from(name.to_string());
            let mut args = [receiver.clone(), key, value];
            match call(engine, "index$set$", &mut args, true) {
                Err(missing) if is_missing_indexer(&missing) => Err(e),
                other => other,
            }
        }
        other => other,
    }
}

/// Whether `e` says no getter or setter is registered (Rhai's words for a property call that
/// found none).
fn is_missing_property(e: &EvalAltResult) -> bool {
    matches!(e, EvalAltResult::ErrorDotExpr(m, _)
        if m.starts_with("Unknown property") || m.starts_with("No writable property"))
}

/// Whether `e` says the receiver's type has no indexer for a string.
fn is_missing_indexer(e: &EvalAltResult) -> bool {
    matches!(
        e,
        EvalAltResult::ErrorIndexingType(..) | EvalAltResult::ErrorFunctionNotFound(..)
    )
}
