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

/// Completions for the text before `pos`: where the replaced word starts, and the candidates.
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
        let found = COMMANDS
            .iter()
            .map(|(c, _)| c.split(' ').next().unwrap_or(c).to_string())
            .filter(|c| c.starts_with(word))
            .collect();
        return (0, found);
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
        let (receiver, partial) = (&word[..dot], &word[dot + 1..]);
        let from = pos - partial.len();
        let Some((_, ty)) = variables.iter().find(|(n, _)| n == receiver) else {
            return (from, Vec::new());
        };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tensor::Tensor;
    use crate::script::engine::{new_engine, receiver_types};

    fn catalog() -> Catalog {
        Catalog::from_engine(&new_engine(), &receiver_types())
    }

    #[test]
    fn torch_functions_complete() {
        let c = catalog();
        let (from, found) = complete("let a = torch::ze", 17, &c, &[]);
        assert_eq!(from, 15);
        assert_eq!(found, ["zeros(", "zeros_like("]);
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
