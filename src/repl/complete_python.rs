//! Tab completion at a Python prompt: `torch.ar` → `torch.arange(`, `x.tr` → `x.transpose(`
//! for a tensor variable or a chain (`x.t().is_c`, typed by PyTorch's declared return types
//! as the Rhai completion types them), a module's or an instance's attributes (`math.sq`),
//! and the session's globals, the builtins and Python's keywords. A callable is offered as
//! `name(`, as CPython's `rlcompleter` does. A pure function of the line, the catalog and the
//! globals: nothing of the user's runs to complete.

use super::catalog::Catalog;
use super::chain::{Link, chain_start, links};
use crate::python::interp::Known;

use super::highlight::PYTHON_KEYWORDS as KEYWORDS;

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '.'
}

/// Completions for the text before `pos` at a Python prompt: where the replaced word
/// starts, and the candidates.
pub fn complete(
    line: &str,
    pos: usize,
    catalog: &Catalog,
    globals: &[Known],
) -> (usize, Vec<String>) {
    let before = &line[..pos];
    let start = before
        .char_indices()
        .rev()
        .find(|(_, c)| !is_word(*c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let word = &before[start..];
    if before.trim_start().starts_with(':') && !before.trim_start().contains(' ') {
        let at = before.len() - before.trim_start().len();
        let typed = &before[at..];
        return (at, super::complete::meta_commands(typed));
    }
    let mut found = match word.rfind('.') {
        Some(dot) => {
            let partial = &word[dot + 1..];
            let from = pos - partial.len();
            let chars: Vec<char> = before[..from - 1].chars().collect();
            let receiver: String = chars[chain_start(&chars, chars.len())..].iter().collect();
            let found = attributes(&receiver, catalog, globals)
                .into_iter()
                .filter(|n| n.starts_with(partial))
                .collect();
            return finish(from, found);
        }
        None => globals
            .iter()
            .map(|k| {
                if k.callable {
                    format!("{}(", k.name)
                } else {
                    k.name.clone()
                }
            })
            .collect::<Vec<_>>(),
    };
    found.extend(crate::python::interp::builtin_names().into_iter().map(|n| {
        // Every builtin but the constants is a function or a class.
        let constant = KEYWORDS.contains(&n) || ["Ellipsis", "NotImplemented"].contains(&n);
        if !constant {
            format!("{n}(")
        } else {
            n.to_string()
        }
    }));
    found.extend(KEYWORDS.iter().map(|k| k.to_string()));
    let found = found.into_iter().filter(|c| c.starts_with(word)).collect();
    finish(start, found)
}

fn finish(from: usize, mut found: Vec<String>) -> (usize, Vec<String>) {
    found.sort();
    found.dedup();
    (from, found)
}

/// The attribute names of what `receiver` (a name, a dotted path or a chain of calls)
/// gives, as completion offers them.
fn attributes(receiver: &str, catalog: &Catalog, globals: &[Known]) -> Vec<String> {
    let Some(chain) = links(receiver) else {
        return Vec::new();
    };
    let Some((first, rest)) = chain.split_first() else {
        return Vec::new();
    };
    if first.args.is_some() || first.indexed > 0 {
        return Vec::new();
    }
    let Some(known) = globals.iter().find(|k| k.name == first.name) else {
        return Vec::new();
    };
    if let Some(path) = &known.torch_path {
        return torch_attributes(path, rest, catalog);
    }
    if let Some(names) = &known.attributes {
        return if rest.is_empty() {
            names.clone()
        } else {
            Vec::new()
        };
    }
    let Some(id) = known.host else {
        return Vec::new();
    };
    let Some(ty) = catalog.type_names.get(&id).cloned() else {
        return Vec::new();
    };
    type_members(follow(ty, rest, catalog), catalog)
}

/// The attributes after `torch` (or `torch.linalg`, the module `path` names) and the links
/// `rest`: a module's functions, constants and sub-modules, or the members of the type a
/// call of one returns.
fn torch_attributes(path: &str, rest: &[Link], catalog: &Catalog) -> Vec<String> {
    // The module the plain names of `rest` lead to, up to the first call.
    let mut module: Vec<String> = path.split('.').skip(1).map(str::to_string).collect();
    let mut at = 0;
    while let Some(link) = rest.get(at) {
        if link.args.is_some() || link.indexed > 0 {
            break;
        }
        module.push(link.name.clone());
        at += 1;
    }
    if at == rest.len() {
        return module_members(&module.join("::"), catalog);
    }
    // `torch.arange(6)...`: a function's result, typed by its declaration.
    if !module.is_empty() {
        return Vec::new();
    }
    let call = &rest[at];
    let Some(ty) = call
        .args
        .as_deref()
        .and_then(|args| catalog.returned("torch", &call.name, Some(args)))
        .filter(|ty| call.indexed == 0 || *ty == "Tensor")
    else {
        return Vec::new();
    };
    type_members(
        follow(Some(ty.to_string()), &rest[at + 1..], catalog),
        catalog,
    )
}

/// The functions (as `name(`), constants and sub-modules of the `torch` module `module`
/// (`""` for `torch` itself, `"UntypedStorage"` for `torch.UntypedStorage`).
fn module_members(module: &str, catalog: &Catalog) -> Vec<String> {
    let prefix = if module.is_empty() {
        String::new()
    } else {
        format!("{module}::")
    };
    let mut found = Vec::new();
    for name in catalog.functions.keys() {
        let Some(inside) = name.strip_prefix(&prefix) else {
            continue;
        };
        match inside.split_once("::") {
            None => found.push(format!("{inside}(")),
            Some((sub, _)) => found.push(sub.to_string()),
        }
    }
    if module.is_empty() {
        found.extend(catalog.constants.iter().cloned());
    }
    found
}

/// The type `rest` leads to from a value of type `ty`.
fn follow(ty: impl Into<Option<String>>, rest: &[Link], catalog: &Catalog) -> Option<String> {
    let mut ty = ty.into()?;
    for link in rest {
        ty = catalog
            .returned(&ty, &link.name, link.args.as_deref())?
            .to_string();
        if link.indexed > 0 && ty != "Tensor" {
            return None;
        }
    }
    Some(ty)
}

/// The methods (as `name(`) and properties of the type named `ty`.
fn type_members(ty: Option<String>, catalog: &Catalog) -> Vec<String> {
    let Some(id) = ty.and_then(|t| catalog.type_named(&t)) else {
        return Vec::new();
    };
    let mut found: Vec<String> = catalog
        .methods
        .get(&id)
        .into_iter()
        .flat_map(|m| m.keys())
        .map(|m| format!("{m}("))
        .collect();
    found.extend(catalog.properties.get(&id).into_iter().flatten().cloned());
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tensor::Tensor;
    use crate::ops::engine::{new_engine, receiver_types};
    use std::any::TypeId;

    fn catalog() -> Catalog {
        Catalog::from_engine(&new_engine(), &receiver_types())
    }

    fn known(name: &str) -> Known {
        Known {
            name: name.to_string(),
            host: None,
            torch_path: None,
            attributes: None,
            callable: false,
        }
    }

    fn globals() -> Vec<Known> {
        vec![
            Known {
                torch_path: Some("torch".to_string()),
                ..known("torch")
            },
            Known {
                host: Some(TypeId::of::<Tensor>()),
                ..known("x")
            },
            Known {
                attributes: Some(vec!["pi".to_string(), "sqrt".to_string()]),
                ..known("math")
            },
            Known {
                callable: true,
                ..known("double")
            },
        ]
    }

    fn at_end(line: &str) -> Vec<String> {
        complete(line, line.len(), &catalog(), &globals()).1
    }

    #[test]
    fn torch_functions_and_modules_complete_with_dots() {
        let (from, found) = complete("y = torch.ar", 12, &catalog(), &globals());
        assert_eq!(from, 10);
        assert!(found.contains(&"arange(".to_string()), "{found:?}");
        assert!(at_end("torch.float").contains(&"float32".to_string()));
        assert!(at_end("torch.Untyped").contains(&"UntypedStorage".to_string()));
        assert_eq!(
            at_end("torch.UntypedStorage.fr"),
            ["from_buffer(", "from_file("]
        );
    }

    #[test]
    fn a_tensors_methods_complete_on_a_variable_and_a_chain() {
        assert_eq!(at_end("x.tra"), ["trace(", "transpose(", "transpose_("]);
        assert!(at_end("x.t().is_c").contains(&"is_contiguous(".to_string()));
        assert!(
            at_end("torch.arange(6).view(2, 3)[0].is_c").contains(&"is_contiguous(".to_string())
        );
        assert!(at_end("x.T.st").contains(&"stride(".to_string()));
        assert!(at_end("x.size(0).").is_empty());
        assert!(at_end("y.t().is_c").is_empty());
    }

    #[test]
    fn modules_globals_builtins_and_keywords_complete() {
        assert_eq!(at_end("math.s"), ["sqrt"]);
        assert_eq!(at_end("dou"), ["double("]);
        assert_eq!(at_end("isinst"), ["isinstance("]);
        assert_eq!(at_end("expl"), ["explain("]);
        assert_eq!(at_end("Non"), ["None"]);
        assert_eq!(at_end("whi"), ["while"]);
        assert_eq!(at_end("ValueE"), ["ValueError("]);
        assert_eq!(at_end("StopI"), ["StopIteration("]);
        assert_eq!(at_end("Ellip"), ["Ellipsis"]);
        assert_eq!(at_end(":he"), [":help"]);
        // `torch` is a module here, not Rhai's `torch::`.
        assert_eq!(at_end("tor"), ["torch"]);
    }
}
