//! `:help`: an overview, and the doc of one function, method or property. What exists and
//! with how many arguments comes from the engine's registrations (the catalog); the prose
//! and the signatures come from the declarations (`script::signature`), the same ones that
//! check every call.

use std::collections::BTreeSet;

use super::catalog::Catalog;
use super::commands::COMMANDS;
use crate::ops::signature;

/// Makes Python's `help(obj)` answer from the catalog, on this thread.
pub fn provide_to_python() {
    fn provider(name: &str) -> Option<String> {
        lookup(&Catalog::shared(), name)
    }
    crate::python::help::provide(provider);
}

/// The `:help` overview.
pub fn overview() -> String {
    let mut s = String::from(if crate::print::spelling::python() {
        "tensh: PyTorch's strided memory model, scripted in Python (here) and Rhai (:rhai).\n\
         Type as in a PyTorch session: `import torch`, then `torch.zeros(2, 3, dtype=torch.int8)`.\n\
         An expression's value is echoed; an assignment is silent. Tab completes `torch.` names,\n\
         variables, and methods after `.`; Ctrl-R searches history; Ctrl-C stops a run.\n\
         explain(t) draws a tensor's memory. Variables carry over when you switch language.\n\
         What tensh's Python runs and what it refuses: docs/python.md.\n\n"
    } else {
        "tensh: PyTorch's strided memory model, scripted in Rhai (here) and Python (:python).\n\
         Python `torch.zeros(2, 3, dtype=torch.int8)` is Rhai `torch::zeros(2, 3, #{dtype: torch::int8})`.\n\
         An expression's value is echoed; `let` is silent. Tab completes `torch::` names,\n\
         variables, and methods after `.`; Ctrl-R searches history; Ctrl-C stops a run.\n\
         The rules from Python to Rhai, with an example each: docs/python-to-rhai.md.\n\
         Variables carry over when you switch language.\n\n"
    });
    for (name, what) in COMMANDS {
        s += &format!("  {name:<15} {what}\n");
    }
    s += if crate::print::spelling::python() {
        "\n?NAME, NAME? and help(NAME) are :help NAME. Topics besides torch functions and\n\
         methods (`:help torch.zeros`, `:help Tensor.view`, `:help x.view` for a variable x):\n "
    } else {
        "\n?NAME, NAME? and help(NAME) are :help NAME. Topics besides torch:: functions and\n\
         methods (`:help torch::zeros`, `:help Tensor.view`, `:help x.view` for a variable x):\n "
    };
    for t in super::topics::TOPICS {
        s += &format!(" {}", t.name);
    }
    s
}

/// How many arguments a name takes: as its declared signatures say (PyTorch's), else as
/// its registrations do.
fn arities(owner: &str, name: &str, counts: &BTreeSet<usize>) -> String {
    let declared = signature::all()
        .into_iter()
        .filter(|d| d.owner == owner && d.name == name)
        .filter_map(signature::Declaration::argument_counts)
        .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)));
    let (lo, hi) = declared.unwrap_or_else(|| {
        (
            counts.first().copied().unwrap_or(0),
            counts.last().copied().unwrap_or(0),
        )
    });
    match (lo, hi) {
        (0, 0) => "no arguments".to_string(),
        (l, h) if l == h => format!("{l} argument{}", if l == 1 { "" } else { "s" }),
        (l, h) => format!("{l} to {h} arguments"),
    }
}

/// The doc of `name` (`zeros`, `torch::zeros`, `view`, `Tensor.view`, `.view`), or `None`
/// when nothing has that name.
pub fn lookup(catalog: &Catalog, name: &str) -> Option<String> {
    let bare = name
        .trim_start_matches("torch::")
        .trim_start_matches("torch.")
        .trim_start_matches('.');
    let (only_type, bare) = match bare.split_once('.') {
        Some((ty, rest)) => (catalog.type_named(ty), rest),
        None => (None, bare),
    };
    let python = crate::print::spelling::python();
    let torch = if python { "torch." } else { "torch::" };
    let mut found = Vec::new();
    if only_type.is_none() {
        if let Some(counts) = catalog.functions.get(bare) {
            found.push(format!(
                "{torch}{bare}  (function, {})",
                arities("torch", bare, counts)
            ));
        }
        if catalog.constants.contains(bare) {
            found.push(format!("{torch}{bare}  (constant)"));
        }
    }
    let mut types: Vec<_> = catalog.type_names.iter().collect();
    types.sort_by(|a, b| a.1.cmp(b.1));
    for (id, type_name) in types {
        if only_type.is_some_and(|t| t != *id) {
            continue;
        }
        if let Some(counts) = catalog.methods.get(id).and_then(|m| m.get(bare)) {
            found.push(format!(
                "{type_name}.{bare}()  (method, {})",
                arities(type_name, bare, counts)
            ));
        }
        if catalog.properties.get(id).is_some_and(|p| p.contains(bare)) {
            found.push(format!("{type_name}.{bare}  (property)"));
        }
    }
    if found.is_empty() {
        return super::topics::topic(bare).map(super::topics::text);
    }
    let mut text = found.join("\n");
    if let Some(doc) = signature::doc(bare) {
        text += "\n";
        text += doc;
    }
    // The declared signatures, keywords and defaults as PyTorch names them.
    let owner = only_type.and_then(|id| catalog.type_names.get(&id));
    let lines: Vec<String> = signature::all()
        .into_iter()
        .filter(|d| d.name == bare && owner.is_none_or(|o| o == d.owner))
        .flat_map(|d| d.help_lines())
        .collect();
    if !lines.is_empty() {
        text += if python {
            "\nsignatures:"
        } else {
            "\nsignatures (keywords go in a trailing #{...} map):"
        };
        for line in lines {
            let line = if python {
                line.replacen("torch::", "torch.", 1)
            } else {
                line
            };
            text += &format!("\n  {line}");
        }
    }
    if python {
        return Some(text);
    }
    let mut calls: Vec<String> = Vec::new();
    for call in signature::all()
        .into_iter()
        .filter(|d| d.name == bare && owner.is_none_or(|o| o == d.owner))
        .flat_map(|d| d.rhai_calls())
    {
        if !calls.contains(&call) {
            calls.push(call);
        }
    }
    if !calls.is_empty() {
        text += "\nin Rhai:";
        for call in calls {
            text += &format!("\n  {call}");
        }
    }
    Some(text)
}

/// `text` with each line longer than `width` columns broken at spaces, each continuation
/// indented four columns past its line's own indentation (a word longer than the width
/// stays whole).
pub fn wrapped(text: &str, width: usize) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let mut rest = line;
        let mut lead = "";
        let hanging = " ".repeat(indent + 4);
        while lead.chars().count() + rest.chars().count() > width {
            let room = width.saturating_sub(lead.chars().count());
            let spaces: Vec<usize> = rest
                .char_indices()
                .take_while(|(i, _)| rest[..*i].chars().count() <= room)
                .filter(|(i, c)| *c == ' ' && *i > indent)
                .map(|(i, _)| i)
                .collect();
            // After a comma where there is one (a signature breaks between parameters).
            let cut = spaces
                .iter()
                .rev()
                .find(|&&i| rest[..i].ends_with(','))
                .or(spaces.last())
                .copied()
                // A word longer than the room stands on a line of its own.
                .or_else(|| {
                    rest.char_indices()
                        .find(|(i, c)| *c == ' ' && *i > indent)
                        .map(|(i, _)| i)
                });
            let Some(cut) = cut else { break };
            out.push(format!("{lead}{}", rest[..cut].trim_end()));
            rest = rest[cut..].trim_start();
            lead = &hanging;
        }
        out.push(format!("{lead}{rest}"));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::engine::{new_engine, receiver_types};

    #[test]
    fn help_counts_the_arguments_pytorch_declares() {
        let c = Catalog::from_engine(&new_engine(), &receiver_types());
        let text = lookup(&c, "transpose").expect("transpose is registered");
        assert!(
            text.contains("torch::transpose  (function, 3 arguments)"),
            "{text}"
        );
        assert!(
            text.contains("Tensor.transpose()  (method, 2 arguments)"),
            "{text}"
        );
        let text = lookup(&c, "t").expect("t is registered");
        assert!(
            text.contains("Tensor.t()  (method, no arguments)"),
            "{text}"
        );
    }

    #[test]
    fn long_lines_break_at_spaces_with_a_hanging_indent() {
        let line = "  torch::sum(Tensor input, *, torch.dtype dtype = None) and more words here";
        let text = wrapped(line, 30);
        for l in text.lines() {
            assert!(l.chars().count() <= 30, "{l:?} in {text}");
        }
        assert!(
            text.starts_with("  torch::sum(Tensor input, *,\n      torch.dtype dtype"),
            "{text}"
        );
        assert_eq!(
            text.split_whitespace().collect::<Vec<_>>().join(" "),
            line.trim()
        );
        assert_eq!(wrapped("short", 30), "short");
        assert_eq!(
            wrapped("averyveryverylongwordthatdoesnotfit here", 10),
            "averyveryverylongwordthatdoesnotfit\n    here"
        );
    }

    #[test]
    fn help_shows_the_declared_signatures() {
        let c = Catalog::from_engine(&new_engine(), &receiver_types());
        let text = lookup(&c, "narrow").expect("narrow is registered");
        assert!(
            text.contains("  Tensor.narrow(int dim, int start, int length)"),
            "{text}"
        );
        assert!(
            text.contains("  Tensor.narrow(int dim, Tensor start, int length)"),
            "{text}"
        );
        let text = lookup(&c, "sum").expect("sum is registered");
        assert!(
            text.contains("bool keepdim = False, *, torch.dtype dtype = None"),
            "{text}"
        );
    }
}
