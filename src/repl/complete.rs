//! Tab completion: `torch::` functions and constants, methods and properties after `.` for a
//! session variable's type, variables and keywords, and meta-commands. A pure function of
//! the line, the catalog and the variables, so it is tested without a terminal.

use std::any::TypeId;

use super::catalog::Catalog;
use super::commands::COMMANDS;

/// Rhai keywords offered where a variable could be.
const KEYWORDS: &[&str] = &[
    "let", "const", "fn", "if", "else", "for", "in", "while", "loop", "return", "break",
    "continue", "true", "false", "try", "catch", "throw",
];

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == ':' || c == '.'
}

/// The meta-commands starting with `typed` (`:he` → `:help`).
pub fn meta_commands(typed: &str) -> Vec<String> {
    COMMANDS
        .iter()
        .map(|(c, _)| c.split(' ').next().unwrap_or(c).to_string())
        .filter(|c| c.starts_with(typed))
        .collect()
}

/// Completions for the text before `pos` in Rhai: where the replaced word starts, and the
/// candidates.
pub fn complete(
    line: &str,
    pos: usize,
    catalog: &Catalog,
    variables: &[(String, TypeId)],
) -> (usize, Vec<String>) {
    let before = &line[..pos];
    let start = before
        .char_indices()
        .rev()
        .find(|(_, c)| !is_word(*c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let word = &before[start..];
    if start == 0 && word.starts_with(':') {
        return (0, meta_commands(word));
    }
    if let Some(path) = word.strip_prefix("torch::") {
        let (module, partial) = match path.rfind("::") {
            Some(i) => (&path[..i + 2], &path[i + 2..]),
            None => ("", path),
        };
        let from = pos - partial.len();
        let mut found: Vec<String> = catalog
            .functions
            .keys()
            .filter_map(|f| f.strip_prefix(module))
            .filter(|f| f.starts_with(partial) && (!module.is_empty() || !f.contains("::")))
            .map(|f| format!("{f}("))
            .collect();
        if module.is_empty() {
            found.extend(
                catalog
                    .constants
                    .iter()
                    .filter(|c| c.starts_with(partial))
                    .cloned(),
            );
            found.extend(
                catalog
                    .functions
                    .keys()
                    .filter_map(|f| f.split_once("::").map(|(m, _)| format!("{m}::")))
                    .filter(|m| m.starts_with(partial)),
            );
        }
        found.sort();
        found.dedup();
        return (from, found);
    }
    if let Some(dot) = word.rfind('.') {
        let partial = &word[dot + 1..];
        let from = pos - partial.len();
        // The receiver is the chain before the dot, calls and indexing included.
        let chars: Vec<char> = before[..from - 1].chars().collect();
        let receiver: String = chars[super::chain::chain_start(&chars, chars.len())..]
            .iter()
            .collect();
        let Some(ty) = chain_type(&receiver, catalog, variables) else {
            return (from, Vec::new());
        };
        let ty = &ty;
        let mut found: Vec<String> = catalog
            .methods
            .get(ty)
            .into_iter()
            .flat_map(|m| m.keys())
            .filter(|m| m.starts_with(partial))
            .map(|m| format!("{m}("))
            .collect();
        found.extend(
            catalog
                .properties
                .get(ty)
                .into_iter()
                .flatten()
                .filter(|p| p.starts_with(partial))
                .cloned(),
        );
        found.sort();
        found.dedup();
        return (from, found);
    }
    let mut found: Vec<String> = variables
        .iter()
        .map(|(n, _)| n.clone())
        .chain(KEYWORDS.iter().map(|k| k.to_string()))
        .chain(std::iter::once("torch::".to_string()))
        .chain(
            super::topics::TOPICS
                .iter()
                .filter(|t| t.usage.starts_with(&format!("{}(", t.name)))
                .map(|t| format!("{}(", t.name)),
        )
        .filter(|c| c.starts_with(word))
        .collect();
    found.sort();
    found.dedup();
    (start, found)
}

/// The type of the value `chain` gives (`x.t()`, `torch::arange(6).view(2, 3)[0]`, `s`),
/// from the variables' types and the declared return types, without running anything.
fn chain_type(chain: &str, catalog: &Catalog, variables: &[(String, TypeId)]) -> Option<TypeId> {
    let links = super::chain::links(chain)?;
    let (first, rest) = links.split_first()?;
    let indexed = |ty: String, n: usize| (n == 0 || ty == "Tensor").then_some(ty);
    let mut ty = match first.name.strip_prefix("torch::") {
        Some(function) => catalog
            .returned("torch", function, Some(first.args.as_deref()?))?
            .to_string(),
        None if first.args.is_none() => {
            let (_, id) = variables.iter().find(|(n, _)| *n == first.name)?;
            catalog.type_names.get(id)?.clone()
        }
        None => return None,
    };
    ty = indexed(ty, first.indexed)?;
    for link in rest {
        ty = catalog
            .returned(&ty, &link.name, link.args.as_deref())?
            .to_string();
        ty = indexed(ty, link.indexed)?;
    }
    catalog.type_named(&ty)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tensor::Tensor;
    use crate::ops::engine::{new_engine, receiver_types};

    fn catalog() -> Catalog {
        Catalog::from_engine(&new_engine(), &receiver_types())
    }

    #[test]
    fn torch_functions_complete() {
        let c = catalog();
        let (from, found) = complete("let a = torch::ze", 17, &c, &[]);
        assert_eq!(from, 15);
        assert_eq!(found, ["zero_(", "zeros(", "zeros_like("]);
    }

    #[test]
    fn constants_and_sub_modules_complete() {
        let c = catalog();
        let (_, found) = complete("torch::float", 12, &c, &[]);
        assert!(found.contains(&"float32".to_string()), "{found:?}");
        let (_, found) = complete("torch::Untyped", 14, &c, &[]);
        assert_eq!(found, ["UntypedStorage(", "UntypedStorage::"]);
        let (_, found) = complete("torch::UntypedStorage::fr", 25, &c, &[]);
        assert_eq!(found, ["from_buffer(", "from_file("]);
    }

    #[test]
    fn methods_of_a_tensor_variable_complete() {
        let c = catalog();
        let vars = [("x".to_string(), TypeId::of::<Tensor>())];
        let (from, found) = complete("x.tra", 5, &c, &vars);
        assert_eq!(from, 2);
        assert_eq!(found, ["trace(", "transpose(", "transpose_("]);
        let (_, found) = complete("x.sha", 5, &c, &vars);
        assert_eq!(found, ["shape", "share_memory_("]);
    }

    #[test]
    fn completion_follows_a_chain_by_declared_return_types() {
        let c = catalog();
        let vars = [("x".to_string(), TypeId::of::<Tensor>())];
        let at_end = |line: &str| complete(line, line.len(), &c, &vars).1;
        assert_eq!(
            at_end("x.t().is_c"),
            [
                "is_complex(",
                "is_conj(",
                "is_contiguous(",
                "is_cpu",
                "is_cuda"
            ]
        );
        assert!(at_end("x.T.st").contains(&"stride(".to_string()));
        assert!(at_end("x.untyped_storage().nb").contains(&"nbytes(".to_string()));
        assert!(
            at_end("let y = 1 + torch::arange(6).view(2, 3)[0].is_c")
                .contains(&"is_contiguous(".to_string())
        );
        assert!(at_end("x.storage().untyped().nb").contains(&"nbytes(".to_string()));
        // Where PyTorch's result depends on the arguments, nothing is guessed.
        assert!(at_end("x.size(0).").is_empty());
        assert!(!at_end("x.size().").is_empty());
        assert!(at_end("y.t().is_c").is_empty());
    }

    #[test]
    fn unknown_receivers_offer_nothing() {
        let c = catalog();
        assert!(complete("y.tra", 5, &c, &[]).1.is_empty());
    }

    #[test]
    fn variables_keywords_and_meta_commands_complete() {
        let c = catalog();
        let vars = [("longname".to_string(), TypeId::of::<i64>())];
        assert_eq!(complete("lo", 2, &c, &vars).1, ["longname", "loop"]);
        assert_eq!(complete(":he", 3, &c, &[]).1, [":help"]);
        assert_eq!(complete("expl", 4, &c, &[]).1, ["explain("]);
        assert_eq!(complete("bytea", 5, &c, &[]).1, ["bytearray("]);
    }
}
