//! Python-style call arguments in Rhai: positional values plus one trailing object map of
//! keyword arguments, and helpers that register a function for every arity up to a maximum
//! (Rhai has no variadic functions; `x.view(2, 8)` and `x.view([2, 8])` must both work).

use std::rc::Rc;

use rhai::{Dynamic, Engine, FuncRegistration, Map, Module, Variant};

use super::convert::{self, py_type_name};
use super::errors::{RhaiResult, type_error};
use super::signature::{self, Owner};
use crate::core::dtype::DType;
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;

/// One call's arguments: positionals and keywords, as Python would receive them.
#[derive(Debug, Clone, Default)]
pub struct Args {
    /// Positional arguments.
    pub pos: Vec<Dynamic>,
    /// Keyword arguments (the trailing object map, if any).
    pub kw: Map,
}

impl Args {
    /// Splits a trailing object map off as keywords.
    pub fn new(mut values: Vec<Dynamic>) -> Args {
        let kw = match values.last() {
            Some(v) if v.is::<Map>() => values
                .pop()
                .and_then(|v| v.try_cast::<Map>())
                .unwrap_or_default(),
            _ => Map::new(),
        };
        Args { pos: values, kw }
    }

    /// The argument at position `i`, or else the keyword `name`.
    pub fn get(&self, i: usize, name: &str) -> Option<&Dynamic> {
        self.pos
            .get(i)
            .or_else(|| self.kw.get(name))
            .filter(|v| !v.is_unit())
    }

    /// Only the keyword `name` (for keyword-only parameters).
    pub fn kw(&self, name: &str) -> Option<&Dynamic> {
        self.kw.get(name).filter(|v| !v.is_unit())
    }

    /// Raises Python's `TypeError` for a keyword the function does not take.
    pub fn allow(&self, func: &str, names: &[&str]) -> RhaiResult<()> {
        for key in self.kw.keys() {
            if !names.contains(&key.as_str()) {
                return Err(type_error(format!(
                    "{func}() got an unexpected keyword argument '{key}'"
                )));
            }
        }
        Ok(())
    }

    /// Raises Python's `TypeError` when more than `max` positionals were given.
    pub fn at_most(&self, func: &str, max: usize) -> RhaiResult<()> {
        if self.pos.len() > max {
            return Err(type_error(format!(
                "{func}() takes at most {max} positional argument{} ({} given)",
                if max == 1 { "" } else { "s" },
                self.pos.len()
            )));
        }
        Ok(())
    }

    /// A required argument.
    pub fn req(&self, i: usize, name: &str, func: &str) -> RhaiResult<&Dynamic> {
        self.get(i, name).ok_or_else(|| {
            type_error(format!(
                "{func}() missing required argument '{name}' (pos {})",
                i + 1
            ))
        })
    }

    /// An int argument with a default.
    pub fn int_or(&self, i: usize, name: &str, default: i64) -> RhaiResult<i64> {
        self.get(i, name)
            .map_or(Ok(default), |v| convert::to_int(v, name))
    }

    /// A required int argument.
    pub fn int(&self, i: usize, name: &str, func: &str) -> RhaiResult<i64> {
        convert::to_int(self.req(i, name, func)?, name)
    }

    /// An optional int argument.
    pub fn opt_int(&self, i: usize, name: &str) -> RhaiResult<Option<i64>> {
        self.get(i, name)
            .map(|v| convert::to_int(v, name))
            .transpose()
    }

    /// A bool argument with a default.
    pub fn bool_or(&self, i: usize, name: &str, default: bool) -> RhaiResult<bool> {
        match self.get(i, name) {
            None => Ok(default),
            Some(v) => v
                .as_bool()
                .map_err(|_| type_error(format!("{name} must be bool, not {}", py_type_name(v)))),
        }
    }

    /// The `dtype=` keyword.
    pub fn dtype(&self) -> RhaiResult<Option<DType>> {
        self.kw("dtype").map(convert::to_dtype).transpose()
    }

    /// A number argument.
    pub fn scalar(&self, i: usize, name: &str, func: &str) -> RhaiResult<Scalar> {
        convert::to_scalar(self.req(i, name, func)?, name)
    }

    /// A tensor argument.
    pub fn tensor(&self, i: usize, name: &str, func: &str) -> RhaiResult<Tensor> {
        convert::to_tensor(self.req(i, name, func)?, name)
    }

    /// Sizes from all positionals (`f(2, 3)` or `f([2, 3])`), or the `size=` keyword.
    pub fn sizes(&self, name: &str) -> RhaiResult<Vec<i64>> {
        if self.pos.is_empty() {
            return match self.kw(name) {
                Some(v) => convert::to_int_list(v, name),
                None => Ok(vec![]),
            };
        }
        convert::sizes_from(&self.pos, name)
    }
}

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
    // `is_shared` reaches the engine under another name (Rhai has a function of its own).
    let declared_name = match name {
        super::engine::IS_SHARED_INTERNAL => "is_shared",
        other => other,
    };
    signature::lookup(owner, declared_name)
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
    let check = checked_by(declared, name, max);
    let max = reachable_arity(declared, max);
    let f: MethodBody<T> = Rc::new(move |t, a| {
        check(&a)?;
        body(t, a)
    });
    macro_rules! arity {
        ($n:expr; $($a:ident),*) => {
            if max + 1 >= $n {
                let f = f.clone();
                engine.register_fn(name, move |t: T, $($a: Dynamic),*| f(&t, Args::new(vec![$($a),*])));
            }
        };
    }
    {
        let f = f.clone();
        engine.register_fn(name, move |t: T| f(&t, Args::new(vec![])));
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
    let max = reachable_arity(declared, max);
    let name = path.rsplit("::").next().unwrap_or(path);
    let f: FunctionBody = Rc::new(move |a| {
        check(&a)?;
        body(a)
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
