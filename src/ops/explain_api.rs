//! `explain(t)` and its forms: the teaching picture of `t`'s memory (`print::explain`),
//! naming the session's other tensors over the same storage. It is syntax rather than a
//! function so it can look at the caller's variables.
//!
//! - `explain(t)`: the picture in text;
//! - `explain([a, b])`: several tensors over the storage they share (one picture per
//!   storage); `explain(map)` the same for a map's tensors, named by key (a checkpoint);
//! - `explain(t, [1, 2])`: one element's arithmetic;
//! - `explain(t, #{byte: 10})`: which indices of which tensors read a byte;
//! - `explain(t, #{"as": torch::int32})` (or `#{dtype: ...}`): the bytes read as two dtypes;
//! - `explain(t, #{svg: "fig.svg"})` (or `[a, b]`): also writes the picture as SVG.

use rhai::{Dynamic, Engine, EvalContext, Expression, Map};

use super::convert::py_type_name;
use super::errors::{RhaiResult, to_rhai, type_error};
use super::output;
use crate::core::dtype::DType;
use crate::core::error::{ErrorKind, TorchError};
use crate::core::tensor::Tensor;
use crate::print::explain::{arithmetic, explain, reinterpret, shared, svg};

/// Registers `explain(EXPR)` and `explain(EXPR, EXPR)`.
pub fn register(engine: &mut Engine) {
    engine.register_custom_syntax_with_state_raw(
        "explain",
        |symbols, look_ahead, _| {
            let last = symbols.last().map_or("", |s| s.as_str());
            Ok(match (symbols.len(), last) {
                (1, _) => Some("(".into()),
                (2, _) | (4, ",") => Some("$expr$".into()),
                (3, _) if look_ahead == "," => Some(",".into()),
                (3, _) | (5, _) => Some(")".into()),
                _ => None,
            })
        },
        false,
        |ctx, inputs, _| run(ctx, inputs),
    );
}

/// The tensors the caller's variables hold, by name, in the order the variables were made
/// (a front's scope, read for naming: `explain` names the other views of a storage).
pub type Visible = Vec<(String, Tensor)>;

/// The tensors of a Rhai caller's scope.
fn visible_in(ctx: &EvalContext) -> Visible {
    // Read in place: a clone of every variable would copy each list in scope (the list
    // being explained among them) once per tensor.
    ctx.scope()
        .iter_raw()
        .filter(|(name, _, _)| !super::hidden::is_hidden_name(name))
        .filter_map(|(name, _, v)| Some((name.to_string(), v.read_lock::<Tensor>()?.clone())))
        .collect()
}

/// The variable names holding `t` itself, first one found.
fn name_in_scope(visible: &[(String, Tensor)], t: &Tensor) -> Option<String> {
    visible
        .iter()
        .find_map(|(name, o)| o.ptr_eq(t).then(|| name.clone()))
}

/// The caller's other tensors whose storage shares memory with `t`'s, each name once, in
/// the order they were made.
fn sharing(
    visible: &[(String, Tensor)],
    t: &Tensor,
    same_storage_only: bool,
) -> Vec<(String, Tensor)> {
    let storage = t.storage();
    let mut found: Vec<(String, Tensor)> = Vec::new();
    for (name, other) in visible {
        if !other.ptr_eq(t)
            && other.storage().shares_memory(&storage)
            && (!same_storage_only || other.storage().is_same(&storage))
            && !found.iter().any(|(n, _)| n == name)
        {
            found.push((name.clone(), other.clone()));
        }
    }
    found.reverse();
    found
}

/// What `explain` was given to draw.
enum Subject {
    One(Tensor),
    Many(Vec<(String, Tensor)>),
}

/// The tensors in a map (what `torch::load` returns for a checkpoint), nested maps and lists
/// included, named by their keys joined with dots: `model.weight`, `layers.0`.
fn tensors_in(prefix: &str, value: &Dynamic, out: &mut Vec<(String, Tensor)>) {
    if let Some(t) = value.clone().try_cast::<Tensor>() {
        out.push((prefix.to_string(), t));
    } else if let Some(map) = value.read_lock::<Map>() {
        for (key, v) in map.iter() {
            let name = if prefix.is_empty() {
                key.to_string()
            } else {
                format!("{prefix}.{key}")
            };
            tensors_in(&name, v, out);
        }
    } else if let Some(list) = value.read_lock::<rhai::Array>() {
        for (i, v) in list.iter().enumerate() {
            tensors_in(&format!("{prefix}.{i}"), v, out);
        }
    }
}

fn subject(visible: &[(String, Tensor)], value: Dynamic) -> RhaiResult<Subject> {
    if let Some(t) = value.clone().try_cast::<Tensor>() {
        return Ok(Subject::One(t));
    }
    if value.is_map() {
        let mut named = Vec::new();
        tensors_in("", &value, &mut named);
        if named.is_empty() {
            return Err(type_error(
                "explain() found no tensors in the map".to_string(),
            ));
        }
        return Ok(Subject::Many(named));
    }
    let Some(list) = value.clone().try_cast::<rhai::Array>() else {
        return Err(type_error(format!(
            "explain() expects a tensor, a list of tensors or a map of them, got {}",
            py_type_name(&value)
        )));
    };
    let mut named = Vec::new();
    for (k, v) in list.into_iter().enumerate() {
        let Some(t) = v.clone().try_cast::<Tensor>() else {
            return Err(type_error(format!(
                "explain() expects a list of tensors, got {} at position {k}",
                py_type_name(&v)
            )));
        };
        let name = name_in_scope(visible, &t).unwrap_or_else(|| format!("#{k}"));
        named.push((name, t));
    }
    Ok(Subject::Many(named))
}

/// The options map's entries, checked: only `svg`, `byte` and `as` exist (`as` is a Rhai
/// keyword, so it is written `"as"`; `dtype` is the same option unquoted).
#[derive(Default)]
struct Options {
    svg: Option<String>,
    byte: Option<i64>,
    dtype: Option<DType>,
}

fn options(map: &Map) -> RhaiResult<Options> {
    let mut o = Options::default();
    for (key, v) in map {
        match key.as_str() {
            "svg" if v.is_string() => o.svg = Some(v.to_string()),
            "byte" if v.is_int() => o.byte = v.as_int().ok(),
            "as" | "dtype" if v.is::<DType>() => o.dtype = v.clone().try_cast::<DType>(),
            "svg" | "byte" | "as" | "dtype" => {
                let wanted = match key.as_str() {
                    "svg" => "a file name (str)",
                    "byte" => "an int",
                    _ => "a dtype",
                };
                return Err(type_error(format!(
                    "explain(): {key} must be {wanted}, got {}",
                    py_type_name(v)
                )));
            }
            other => {
                return Err(type_error(format!(
                    "explain() got an unexpected keyword argument '{other}'"
                )));
            }
        }
    }
    Ok(o)
}

fn run(ctx: &mut EvalContext, inputs: &[Expression]) -> RhaiResult<Dynamic> {
    let first = ctx.eval_expression_tree(&inputs[0])?;
    let second = match inputs.get(1) {
        Some(e) => Some(ctx.eval_expression_tree(e)?),
        None => None,
    };
    let visible = visible_in(ctx);
    explain_value(
        first,
        super::expr_text::source_text(&inputs[0]),
        second,
        &visible,
    )?;
    Ok(Dynamic::UNIT)
}

/// `explain(first, second)` for either front: `first` is the subject (a tensor, a list or a
/// map of them), `first_text` how the call wrote it (the picture's name for a tensor),
/// `second` an index list or an options map, `visible` the caller's tensors by name.
pub fn explain_value(
    first: Dynamic,
    first_text: Option<String>,
    second: Option<Dynamic>,
    visible: &[(String, Tensor)],
) -> RhaiResult<()> {
    let what = subject(visible, first)?;
    // `explain(t, [i, j])`: one element's arithmetic.
    if let Some(list) = second
        .as_ref()
        .and_then(|v| v.clone().try_cast::<rhai::Array>())
    {
        let Subject::One(t) = &what else {
            return Err(type_error(
                "explain(t, index) takes one tensor, not a list".to_string(),
            ));
        };
        let index = list
            .iter()
            .map(|v| v.as_int().map_err(|_| py_type_name(v)))
            .collect::<Result<Vec<i64>, String>>()
            .map_err(|got| {
                type_error(format!(
                    "explain(t, index): indices must be ints, got {got}"
                ))
            })?;
        print_text(&arithmetic::element_arithmetic(t, &index).map_err(to_rhai)?);
        return Ok(());
    }
    let opts = match &second {
        None => Options::default(),
        Some(v) => match v.clone().try_cast::<Map>() {
            Some(map) => options(&map)?,
            None => {
                return Err(type_error(format!(
                    "explain()'s second argument is an index list or an options map, got {}",
                    py_type_name(v)
                )));
            }
        },
    };
    let named = match &what {
        Subject::One(t) => vec![(
            first_text
                .clone()
                .or_else(|| name_in_scope(visible, t))
                .unwrap_or_else(|| "t".into()),
            t.clone(),
        )],
        Subject::Many(named) => named.clone(),
    };
    // The picture is drawn first, so that a tensor too big to draw fails before any output.
    let picture = match &opts.svg {
        Some(_) => Some(svg::picture(&named).map_err(to_rhai)?),
        None => None,
    };
    let text = if let Some(dtype) = opts.dtype {
        let Subject::One(t) = &what else {
            return Err(type_error(
                "explain(..., #{as}) takes one tensor, not a list".to_string(),
            ));
        };
        reinterpret::explain_as(t, &named[0].0, dtype)
    } else if let Some(byte) = opts.byte {
        let storage = named[0].1.storage();
        let mut all: Vec<(String, Tensor)> = named
            .iter()
            .filter(|(_, t)| t.storage().is_same(&storage))
            .cloned()
            .collect();
        if let Subject::One(t) = &what {
            all.extend(sharing(visible, t, true));
        }
        arithmetic::byte_readers(byte, &all).map_err(to_rhai)?
    } else {
        match &what {
            Subject::One(t) => {
                let names: Vec<String> = sharing(visible, t, false)
                    .into_iter()
                    .map(|(n, _)| n)
                    .collect();
                explain(t, &names, output::color())
            }
            Subject::Many(named) => by_storage(named)
                .iter()
                .map(|group| shared::explain_shared(group))
                .collect::<Result<Vec<_>, _>>()
                .map_err(to_rhai)?
                .join("\n\n"),
        }
    };
    print_text(&text);
    // A front end that shows pictures (a notebook) gets the picture beside the text. There it
    // is an extra: a tensor too big to draw is shown as text only, without an error.
    if output::wants_pictures() {
        let drawn = match &picture {
            Some(p) => Some(p.svg.clone()),
            None if opts.dtype.is_none() && opts.byte.is_none() => {
                svg::picture(&named).ok().map(|p| p.svg)
            }
            None => None,
        };
        if let Some(svg) = drawn {
            output::show_svg(&svg);
        }
    }
    if let (Some(path), Some(picture)) = (opts.svg, picture) {
        write_file(&path, &picture.svg)?;
        output::print_line(&format!(
            "picture written to {path} ({} indices, {} slots)",
            picture.cells.len(),
            picture.slots.len()
        ));
    }
    Ok(())
}

/// The tensors grouped by the storage they view, groups and members in the order given.
fn by_storage(named: &[(String, Tensor)]) -> Vec<Vec<(String, Tensor)>> {
    let mut groups: Vec<Vec<(String, Tensor)>> = Vec::new();
    let mut group_of: std::collections::HashMap<usize, usize> = Default::default();
    for (name, t) in named {
        let k = *group_of.entry(t.storage().identity()).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[k].push((name.clone(), t.clone()));
    }
    groups
}

fn print_text(text: &str) {
    for line in text.lines() {
        output::print_line(line);
    }
}

/// Writes `text` to `path` as Python's `open(path, "w").write(text)` would, with its errors.
pub fn write_file(path: &str, text: &str) -> RhaiResult<()> {
    crate::platform::fs::write(path, text).map_err(|e| {
        let code = crate::platform::fs::error_code(&e);
        let reason = e.to_string();
        let reason = reason
            .split(" (os error")
            .next()
            .unwrap_or(&reason)
            .to_string();
        let kind = match e.kind() {
            std::io::ErrorKind::NotFound => ErrorKind::FileNotFound,
            std::io::ErrorKind::PermissionDenied => ErrorKind::Permission,
            std::io::ErrorKind::IsADirectory => ErrorKind::IsADirectory,
            _ => ErrorKind::Os,
        };
        to_rhai(TorchError::new(
            kind,
            format!("[Errno {code}] {reason}: '{path}'"),
        ))
    })
}
