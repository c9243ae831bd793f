//! Matching a call against declared overloads, with PyTorch's argument-parser rules:
//! - one overload: its first problem is the error (too many positionals, then each parameter
//!   in order: given twice, missing, wrong type; then an unknown keyword);
//! - several: the first that accepts the call wins; if none does and exactly one could take
//!   that many arguments, its problem is the error; otherwise "received an invalid
//!   combination of arguments", listing every overload (and, when they all take the same
//!   number of parameters, why each did not match).
//!
//! A lone positional `tuple of ints` parameter also takes its ints as separate positionals
//! (`x.view(2, 3)`), as PyTorch's methods do.

use std::borrow::Cow;

use rhai::{Array, Dynamic, INT};

use super::{Overload, Param, Signature, Ty};
use crate::core::dtype::DType;
use crate::core::tensor::Tensor;
use crate::ops::args::Args;
use crate::ops::convert::py_type_name;
use crate::ops::errors::{RhaiResult, type_error};

/// Why an overload did not take a call. Nothing here allocates on the way to a match:
/// the common failure (an overload tried before the one that fits) only points at the
/// argument it refused.
enum Failure {
    TooManyPositional(usize),
    Multiple(&'static str),
    Missing(Vec<&'static str>),
    WrongType {
        param: &'static str,
        type_name: &'static str,
        position: Option<usize>,
        given: Cow<'static, str>,
    },
    /// A list for a `tuple of ints` whose first element is no int: PyTorch's parser looks
    /// at the first element to tell whether the list has the parameter's type at all (a
    /// later bad element is an unpacking error, `Hard`).
    WrongElement {
        param: &'static str,
        type_name: &'static str,
        position: Option<usize>,
        element: Cow<'static, str>,
    },
    Unexpected(Vec<String>),
    /// An error raised at once, whatever the other overloads say (a bad list element).
    Hard(String),
}

/// The positionals as an overload sees them: a leading `tuple of ints` parameter gathers
/// several positionals into one list.
fn positionals<'a>(o: &Overload, args: &'a Args) -> Result<Cow<'a, [Dynamic]>, Failure> {
    // Only a lone positional `tuple of ints` gathers (`view`, `permute`, `expand`), not a
    // `dim` followed by `keepdim`.
    let gathers = o.gathers_ints();
    // Only ints are gathered: `as_strided([2], [1])` passes lists as they are.
    if !gathers || args.pos.len() < 2 || !is_int(&args.pos[0]) {
        return Ok(Cow::Borrowed(&args.pos));
    }
    let name = o.params[0].name;
    for (i, v) in args.pos.iter().enumerate() {
        if !is_int(v) {
            return Err(unpack_failure(name, i, v));
        }
    }
    Ok(Cow::Owned(vec![Dynamic::from(args.pos.to_vec())]))
}

fn unpack_failure(param: &str, index: usize, v: &Dynamic) -> Failure {
    Failure::Hard(format!(
        "argument '{param}' failed to unpack the object at pos {} with error \"type must be tuple of ints,but got {}\"",
        index + 1,
        given_type(v)
    ))
}

/// An int, or a 0-dim integer tensor (PyTorch takes those where it takes an int).
#[inline]
fn is_int(v: &Dynamic) -> bool {
    v.as_int().is_ok() || int_tensor(v)
}

fn int_tensor(v: &Dynamic) -> bool {
    v.read_lock::<Tensor>()
        .is_some_and(|t| t.ndim() == 0 && t.dtype().is_integral() && t.dtype() != DType::Bool)
}

/// Whether `v` fits `p` (`Err`: a list with an element that can't be an int).
#[inline]
fn accepts(p: &Param, v: &Dynamic) -> Result<bool, Failure> {
    if v.is_unit() {
        return Ok(p.none_default || p.ty == Ty::Any);
    }
    Ok(match p.ty {
        Ty::Int => is_int(v),
        Ty::Float => v.is::<INT>() || v.is::<f64>() || is_scalar_tensor(v),
        Ty::Bool => v.as_bool().is_ok(),
        Ty::Number => {
            v.is::<INT>()
                || v.is::<f64>()
                || v.is::<bool>()
                || v.is::<crate::ops::values::PyComplex>()
                || is_scalar_tensor(v)
        }
        Ty::Tensor => v.is::<Tensor>(),
        Ty::TensorOrNumber => {
            v.is::<Tensor>()
                || v.is::<INT>()
                || v.is::<f64>()
                || v.is::<bool>()
                || v.is::<crate::ops::values::PyComplex>()
        }
        Ty::IntList => {
            if v.as_int().is_ok() {
                return Ok(true);
            }
            if let Some(list) = v.read_lock::<Array>() {
                if list.first().is_some_and(|e| !is_int(e)) {
                    return Ok(false);
                }
                if let Some((i, bad)) = list.iter().enumerate().find(|(_, e)| !is_int(e)) {
                    return Err(unpack_failure(p.name, i, bad));
                }
                true
            } else {
                is_int(v) || v.is::<crate::ops::values::Size>()
            }
        }
        Ty::DType => v.is::<DType>(),
        Ty::Str => v.is_string(),
        Ty::MemoryFormat => v.is::<crate::core::memory_format::MemoryFormat>(),
        Ty::Layout => v.is::<crate::ops::formats::StridedLayout>(),
        // PyTorch takes a device as a torch.device, a string or a CUDA index.
        Ty::Device => v.is::<crate::ops::values::Device>() || v.is_string() || v.is_int(),
        Ty::Any => true,
    })
}

fn is_scalar_tensor(v: &Dynamic) -> bool {
    v.read_lock::<Tensor>().is_some_and(|t| t.ndim() == 0)
}

/// Python's name for the type of `v`, as PyTorch prints it in these messages (static: a
/// refused overload on the way to the one that fits costs no allocation).
fn type_name_of(v: &Dynamic) -> &'static str {
    if v.is::<INT>() {
        "int"
    } else if v.is::<f64>() {
        "float"
    } else if v.is::<bool>() {
        "bool"
    } else if crate::ops::convert::is_tuple(v) {
        "tuple"
    } else if v.is::<Array>() {
        "list"
    } else if v.is::<Tensor>() {
        "Tensor"
    } else if v.is::<DType>() {
        "torch.dtype"
    } else if v.is::<crate::ops::values::Size>() {
        "torch.Size"
    } else if v.is::<crate::ops::values::PyComplex>() {
        "complex"
    } else if v.is::<crate::core::memory_format::MemoryFormat>() {
        crate::ops::formats::MEMORY_FORMAT_TYPE
    } else if v.is::<crate::ops::formats::StridedLayout>() {
        crate::ops::formats::LAYOUT_TYPE
    } else if v.is::<crate::ops::values::Device>() {
        "torch.device"
    } else if v.is_unit() {
        "NoneType"
    } else if v.is_string() {
        "str"
    } else if v.is::<rhai::Map>() {
        "dict"
    } else {
        "object"
    }
}

/// `type_name_of`, falling back to `py_type_name` (a named tuple's class, a Rhai type's
/// own name): borrowed for the types `type_name_of` knows, so a refused overload on the way
/// to the one that fits costs no allocation.
fn given_name(v: &Dynamic) -> Cow<'static, str> {
    match type_name_of(v) {
        "object" => Cow::Owned(py_type_name(v)),
        known => Cow::Borrowed(known),
    }
}

/// `given_name` as an owned string.
fn given_type(v: &Dynamic) -> String {
    given_name(v).into_owned()
}

/// `list of [int]` for a list in the "invalid types" line.
fn detailed_type(v: &Dynamic) -> String {
    match v.read_lock::<Array>() {
        Some(list) => {
            let mut kinds: Vec<String> = Vec::new();
            for e in list.iter() {
                let k = given_type(e);
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
            format!("list of [{}]", kinds.join(", "))
        }
        None => given_type(v),
    }
}

/// Whether `o` takes these positionals (and no keywords): `parse` without its reasons.
fn fits_positionals(o: &Overload, pos: &[Dynamic]) -> bool {
    if pos.len() > o.positional() {
        return o.gathers_ints() && pos.iter().all(is_int);
    }
    pos.len() >= o.required_positional()
        && o.params.iter().zip(pos).all(|(p, v)| match p.ty {
            // Ints are most of what loops pass: answered here without the general match.
            Ty::Int if v.as_int().is_ok() => true,
            _ => accepts(p, v).unwrap_or(false),
        })
}

/// The other keywords PyTorch's parser accepts for a parameter, for NumPy's spelling:
/// `axis=` for `dim`, `keepdims=` for `keepdim`, `x=`/`a=`/`x1=` for `input`, `x2=` for
/// `other` (checked with the oracle on reductions, views and binary ops).
fn aliases(param: &str) -> &'static [&'static str] {
    match param {
        "dim" => &["axis"],
        "keepdim" => &["keepdims"],
        "input" => &["x", "a", "x1"],
        "other" => &["x2"],
        _ => &[],
    }
}

/// The keyword that gives `param` in this call, if any: its own name, else one of its
/// aliases when the name itself is not given (PyTorch then calls the alias unexpected).
fn keyword_for<'a>(args: &'a Args, param: &'static str) -> Option<&'a str> {
    if let Some((k, _)) = args.kw.get_key_value(param) {
        return Some(k.as_str());
    }
    aliases(param)
        .iter()
        .find_map(|alias| args.kw.get_key_value(*alias).map(|(k, _)| k.as_str()))
}

/// The value of the keyword that gives `param`, by its name or an alias.
fn keyword_value<'a>(args: &'a Args, param: &'static str) -> Option<&'a Dynamic> {
    keyword_for(args, param).and_then(|k| args.kw.get(k))
}

/// The first reason `o` does not take the call.
fn parse(o: &Overload, args: &Args) -> Result<(), Failure> {
    let pos = positionals(o, args)?;
    if pos.len() > o.positional() {
        return Err(Failure::TooManyPositional(pos.len()));
    }
    for (i, p) in o.params.iter().enumerate() {
        let by_position = (i < pos.len()).then(|| &pos[i]);
        if by_position.is_some() && keyword_for(args, p.name).is_some() {
            return Err(Failure::Multiple(p.name));
        }
        let Some(v) = by_position.or_else(|| keyword_value(args, p.name)) else {
            if p.optional {
                continue;
            }
            // PyTorch names every required parameter still missing from here on.
            let missing = o.params[i..]
                .iter()
                .enumerate()
                .filter(|(j, q)| {
                    !q.optional && i + j >= pos.len() && keyword_for(args, q.name).is_none()
                })
                .map(|(_, q)| q.name)
                .collect();
            return Err(Failure::Missing(missing));
        };
        if !accepts(p, v)? {
            if p.ty == Ty::IntList
                && let Some(first) = v.read_lock::<Array>().and_then(|l| l.first().cloned())
            {
                return Err(Failure::WrongElement {
                    param: p.name,
                    type_name: p.type_name,
                    position: by_position.map(|_| i + 1),
                    element: given_name(&first),
                });
            }
            return Err(Failure::WrongType {
                param: p.name,
                type_name: p.type_name,
                position: by_position.map(|_| i + 1),
                given: given_name(v),
            });
        }
    }
    if !args.kw.is_empty() {
        let unknown = unknown_keywords(o, args);
        if !unknown.is_empty() {
            return Err(Failure::Unexpected(unknown));
        }
    }
    Ok(())
}

fn unknown_keywords(o: &Overload, args: &Args) -> Vec<String> {
    args.kw
        .keys()
        .filter(|k| {
            !o.params
                .iter()
                .any(|p| keyword_for(args, p.name) == Some(k.as_str()))
        })
        .map(|k| k.to_string())
        .collect()
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The message of one overload's failure.
fn message(name: &str, o: &Overload, f: Failure) -> String {
    match f {
        Failure::TooManyPositional(given) => {
            // PyTorch counts required keyword-only parameters in the minimum
            // (`frombuffer() takes from 2 to 1 positional arguments`).
            let (min, max) = (o.required_total(), o.positional());
            let takes = if min == max {
                plural(max, "positional argument")
            } else {
                format!("from {min} to {max} positional arguments")
            };
            let verb = if given == 1 { "was" } else { "were" };
            format!("{name}() takes {takes} but {given} {verb} given")
        }
        Failure::Multiple(p) => format!("{name}() got multiple values for argument '{p}'"),
        // PyTorch's own wording: "arguments" for one, "argument" for several.
        Failure::Missing(names) => {
            let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
            let noun = if names.len() == 1 {
                "arguments"
            } else {
                "argument"
            };
            format!(
                "{name}() missing {} required positional {noun}: {}",
                names.len(),
                quoted.join(", ")
            )
        }
        Failure::WrongType {
            param,
            type_name,
            position,
            given,
        } => {
            let at = position.map_or(String::new(), |i| format!(" (position {i})"));
            format!("{name}(): argument '{param}'{at} must be {type_name}, not {given}")
        }
        Failure::WrongElement {
            param,
            type_name,
            position,
            element,
        } => {
            let at = position.map_or(String::new(), |i| format!(" (position {i})"));
            format!(
                "{name}(): argument '{param}'{at} must be {type_name}, but found element of type {element} at pos 0"
            )
        }
        Failure::Unexpected(keys) => {
            format!("{name}() got an unexpected keyword argument '{}'", keys[0])
        }
        Failure::Hard(m) => format!("{name}(): {m}"),
    }
}

/// The arguments as PyTorch lists them: `int, float` for positionals, `k=int` for keywords
/// (each followed by `, ` when there are no positionals). `mark` decides which get `!..!`.
fn describe(args: &Args, detailed: bool, mark: impl Fn(Option<usize>, &str) -> bool) -> String {
    let ty = |v: &Dynamic| {
        if detailed {
            detailed_type(v)
        } else {
            given_type(v)
        }
    };
    let bang = |s: String, m: bool| if m { format!("!{s}!") } else { s };
    let mut parts: Vec<String> = args
        .pos
        .iter()
        .enumerate()
        .map(|(i, v)| bang(ty(v), mark(Some(i), "")))
        .collect();
    // A script's keyword map has no order of its own; PyTorch lists keywords last first.
    let keywords = args
        .kw
        .iter()
        .rev()
        .map(|(k, v)| bang(format!("{k}={}", ty(v)), mark(None, k.as_str())));
    if parts.is_empty() {
        keywords.map(|k| format!("{k}, ")).collect()
    } else {
        parts.extend(keywords);
        parts.join(", ")
    }
}

/// Whether PyTorch's message formatter counts `v` as matching the text item `p` (`None`:
/// the `*` item). It is stricter than the parser: a parameter with a default, a `tuple of
/// ints`, a `Number` and any type it has no matcher for never match, and `Tensor` takes
/// no number.
fn formatter_matches(p: Option<&Param>, v: &Dynamic) -> bool {
    let Some(p) = p.filter(|p| !p.optional) else {
        return false;
    };
    match p.ty {
        Ty::Tensor | Ty::TensorOrNumber => v.is::<Tensor>(),
        Ty::IntList | Ty::Number | Ty::Any => false,
        _ => accepts(p, v).unwrap_or(false),
    }
}

/// The arguments, each marked `!..!` where the formatter finds it does not match: the
/// positionals against the text's items in order (`*` included), keywords by name.
fn formatter_marks(o: &Overload, args: &Args) -> String {
    let mut params = o.params.iter();
    let items: Vec<Option<&Param>> = super::items(o.text)
        .into_iter()
        .map(|item| if item == "*" { None } else { params.next() })
        .collect();
    describe(args, true, |i, k| match i {
        Some(i) => !formatter_matches(items.get(i).copied().flatten(), &args.pos[i]),
        None => !formatter_matches(o.params.iter().find(|p| p.name == k), &args.kw[k]),
    })
}

/// Why `o` did not match, as the line under it in the "invalid combination" message.
fn reason(o: &Overload, args: &Args, f: &Failure) -> Option<String> {
    let unknown = unknown_keywords(o, args);
    if !unknown.is_empty() {
        return Some(format!(
            "didn't match because some of the keywords were incorrect: {}",
            unknown.join(", ")
        ));
    }
    match f {
        // A hard failure raised before any listing; the others are shown as PyTorch does
        // whenever the count fits: the arguments, each marked where the overload refuses it.
        Failure::Hard(_) => None,
        _ => {
            let described = formatter_marks(o, args);
            Some(format!(
                "didn't match because some of the arguments have invalid types: ({described})"
            ))
        }
    }
}

/// The call with the keywords that name positional parameters of the overload it matches
/// moved into their places (`arange(#{start: 2, end: 5})` reads as `arange(2, 5)`; a skipped
/// optional one becomes `()`), so an op's body finds each parameter by position however it
/// was given. Keyword-only parameters stay keywords.
pub fn bind(sig: &Signature, mut args: Args) -> Args {
    if args.kw.is_empty() {
        return args;
    }
    let all = sig.overloads.iter().chain(&sig.hidden_overloads);
    let Some(o) = all.into_iter().find(|o| parse(o, &args).is_ok()) else {
        return args;
    };
    // An alias is read as the parameter's own name from here on (`axis=` as `dim=`).
    for p in &o.params {
        if let Some(k) = keyword_for(&args, p.name).filter(|k| *k != p.name) {
            let k = k.to_string();
            if let Some(v) = args.kw.remove(k.as_str()) {
                args.kw.insert(p.name.into(), v);
            }
        }
    }
    let given = args.pos.len();
    if o.gathers_ints() && given > 1 {
        return args;
    }
    let named = |i: usize| args.kw.contains_key(o.params[i].name);
    let Some(last) = (given..o.positional()).rev().find(|&i| named(i)) else {
        return args;
    };
    for i in given..=last {
        let v = args.kw.remove(o.params[i].name).unwrap_or(Dynamic::UNIT);
        args.pos.push(v);
    }
    args
}

/// Checks a call against `sig`; the error is PyTorch's `TypeError`.
pub fn check(sig: &Signature, args: &Args) -> RhaiResult<()> {
    let name = sig.name;
    // The common case first: positionals only, checked without building any failure,
    // starting with the overload that took the last call (a loop calls one the same way).
    if args.kw.is_empty() {
        let last = sig.last_fit.get();
        if sig
            .overloads
            .get(last)
            .is_some_and(|o| fits_positionals(o, &args.pos))
        {
            return Ok(());
        }
        if let Some(i) = sig
            .overloads
            .iter()
            .position(|o| fits_positionals(o, &args.pos))
        {
            sig.last_fit.set(i);
            return Ok(());
        }
    }
    if !args.kw.is_empty() && sig.overloads.iter().any(|o| parse(o, args).is_ok()) {
        return Ok(());
    }
    if sig.hidden_overloads.iter().any(|o| parse(o, args).is_ok()) {
        return Ok(());
    }
    let mut failures = Vec::with_capacity(sig.overloads.len());
    for o in &sig.overloads {
        match parse(o, args) {
            Ok(()) => return Ok(()),
            Err(Failure::Hard(m)) => return Err(type_error(format!("{name}(): {m}"))),
            Err(f) => failures.push(f),
        }
    }
    if sig.overloads.len() == 1 && !sig.hidden {
        let f = failures.pop().expect("one failure per overload");
        return Err(type_error(message(name, &sig.overloads[0], f)));
    }
    let given = |o: &Overload| {
        let pos = positionals(o, args).map_or(args.pos.len(), |p| p.len());
        pos + args.kw.len()
    };
    let plausible: Vec<usize> = (0..sig.overloads.len())
        .filter(|&i| {
            let o = &sig.overloads[i];
            (o.required_total()..=o.params.len()).contains(&given(o))
        })
        .collect();
    if let [only] = plausible[..] {
        let f = failures.swap_remove(only);
        return Err(type_error(message(name, &sig.overloads[only], f)));
    }
    // A reason is given under an overload whose text has as many items as there are
    // arguments, counted as PyTorch's message formatter counts them: `*` is an item, and
    // so is the empty text of `()`.
    let given_count = args.pos.len() + args.kw.len();
    // One listed overload beside hidden ones: PyTorch names the unknown keywords, or shows
    // the one overload it expected.
    if let [o] = &sig.overloads[..] {
        let unknown = unknown_keywords(o, args);
        let got = if unknown.is_empty() {
            let described = if o.items() == given_count {
                formatter_marks(o, args)
            } else {
                describe(args, false, |_, _| false)
            };
            format!("({described}), but expected ({})", o.text)
        } else {
            format!("unrecognized keyword arguments: {}", unknown.join(", "))
        };
        return Err(type_error(format!(
            "{name}() received an invalid combination of arguments - got {got}"
        )));
    }
    let mut text = format!(
        "{name}() received an invalid combination of arguments - got ({}), but expected one of:\n",
        describe(args, false, |_, _| false)
    );
    for (o, f) in sig.overloads.iter().zip(&failures) {
        text.push_str(&format!(" * ({})\n", o.text));
        if o.items() == given_count
            && let Some(why) = reason(o, args, f)
        {
            text.push_str(&format!("      {why}\n"));
        }
    }
    Err(type_error(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rhai::Map;

    fn call(pos: Vec<Dynamic>, kw: &[(&str, Dynamic)]) -> Args {
        let mut map = Map::new();
        for (k, v) in kw {
            map.insert((*k).into(), v.clone());
        }
        Args::from_parts(pos, map, &Args::default())
    }

    fn err(sig: &Signature, args: Args) -> String {
        check(sig, &args).unwrap_err().to_string()
    }

    fn int(i: i64) -> Dynamic {
        Dynamic::from(i)
    }

    #[test]
    fn one_overload_reports_its_first_problem() {
        let s = Signature::new("transpose", &["int dim0, int dim1"]);
        assert!(check(&s, &call(vec![int(0), int(1)], &[])).is_ok());
        assert!(
            err(&s, call(vec![int(0), int(1), int(2)], &[]))
                .contains("transpose() takes 2 positional arguments but 3 were given")
        );
        assert!(
            err(&s, call(vec![int(0)], &[("dim2", int(1))]))
                .contains("transpose() missing 1 required positional arguments: \"dim1\"")
        );
        assert!(
            err(&s, call(vec![int(0), Dynamic::from(1.5)], &[]))
                .contains("transpose(): argument 'dim1' (position 2) must be int, not float")
        );
        assert!(
            err(&s, call(vec![int(0), int(1)], &[("dim0", int(0))]))
                .contains("got multiple values for argument 'dim0'")
        );
        assert!(
            err(&s, call(vec![int(0), int(1)], &[("foo", int(0))]))
                .contains("got an unexpected keyword argument 'foo'")
        );
    }

    #[test]
    fn several_overloads_list_themselves() {
        let s = Signature::new(
            "narrow",
            &[
                "int dim, Tensor start, int length",
                "int dim, int start, int length",
            ],
        );
        assert!(check(&s, &call(vec![int(0), int(1), int(2)], &[])).is_ok());
        let e = err(&s, call(vec![int(0), int(1), int(2), int(9)], &[]));
        assert!(e.contains("got (int, int, int, int), but expected one of:\n * (int dim, Tensor start, int length)\n * (int dim, int start, int length)\n"), "{e}");
        let e = err(&s, call(vec![int(0), Dynamic::from(1.5), int(2)], &[]));
        assert!(e.contains("      didn't match because some of the arguments have invalid types: (int, !float!, int)\n"), "{e}");
    }

    #[test]
    fn a_leading_int_list_gathers_positionals() {
        let s = Signature::new("view", &["torch.dtype dtype", "tuple of ints size"]);
        assert!(check(&s, &call(vec![int(2), int(3)], &[])).is_ok());
        assert!(check(&s, &call(vec![Dynamic::from(vec![int(2)])], &[])).is_ok());
        let e = err(&s, call(vec![int(2), Dynamic::from(3.5)], &[]));
        assert!(e.contains("view(): argument 'size' failed to unpack the object at pos 2 with error \"type must be tuple of ints,but got float\""), "{e}");
    }
}
