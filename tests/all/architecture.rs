//! The import graphs of `src/core` and `src/script` have no cycles: each top-level module (a
//! file, or a folder with its submodules) may use another only if that one does not use it
//! back, directly or through others. Read from the source: `super::NAME` (or a `{...}`
//! group) and `crate::<layer>::NAME` at the top level, `super::super::NAME` and
//! `crate::<layer>::NAME` in submodules (tests excluded). And the crate's layers depend one
//! way.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn uses(text: &str, prefix: &str, into: &mut BTreeSet<String>) {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in text.match_indices(prefix) {
        let rest = &text[i + prefix.len()..];
        // `use super::{a, b::c}` uses a and b.
        let names: Vec<String> = match rest.strip_prefix('{') {
            Some(group) => group[..group.find('}').unwrap_or(group.len())]
                .split(',')
                .map(ident)
                .collect(),
            None => vec![ident(rest)],
        };
        into.extend(names.into_iter().filter(|n| !n.is_empty() && n != "self"));
    }
}

fn collect(
    dir: &Path,
    top: Option<&str>,
    prefix: &str,
    graph: &mut BTreeMap<String, BTreeSet<String>>,
) {
    for entry in std::fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("entry").path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            collect(&path, Some(top.unwrap_or(&name)), prefix, graph);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable source");
        let text = text.split("#[cfg(test)]").next().unwrap_or("");
        let (module, nested) = match top {
            None => (name.clone(), false),
            Some(t) => (
                t.to_string(),
                name != "mod" || path.parent().unwrap() != dir,
            ),
        };
        let deps = graph.entry(module.clone()).or_default();
        uses(text, prefix, deps);
        if top.is_none() || !nested {
            uses(text, "super::", deps);
        } else {
            uses(text, "super::super::", deps);
        }
        deps.remove(&module);
    }
}

/// Asserts that the top-level modules of `src/<layer>` import each other without a cycle.
fn assert_acyclic(layer: &str, expected: &[&str]) {
    let mut graph = BTreeMap::new();
    let prefix = format!("crate::{layer}::");
    collect(&Path::new("src").join(layer), None, &prefix, &mut graph);
    graph.remove("mod");
    let names: BTreeSet<String> = graph.keys().cloned().collect();
    // Depth-first search for a back edge, reporting the cycle it closes.
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        names: &BTreeSet<String>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == n) {
            return Some(path[i..].to_vec());
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.to_string());
        for d in graph[n].iter().filter(|d| names.contains(*d)) {
            if let Some(c) = visit(d, graph, names, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for n in &names {
        let cycle = visit(n, &graph, &names, &mut Vec::new(), &mut done);
        assert!(cycle.is_none(), "import cycle in src/{layer}: {:?}", cycle);
    }
    assert!(expected.iter().all(|e| names.contains(*e)), "{names:?}");
}

#[test]
fn core_modules_form_no_cycle() {
    assert_acyclic("core", &["autograd", "tensor", "memory", "views"]);
}

#[test]
fn script_modules_form_no_cycle() {
    assert_acyclic(
        "script",
        &["registry", "signature", "tensor", "storage", "engine"],
    );
}

/// The crate's layers, lowest first: each may use only those before it.
const LAYERS: &[&str] = &[
    "core",
    "print",
    "script",
    "repl",
    "transcript",
    "jupyter",
    "cli",
];

fn crate_uses(path: &Path, into: &mut BTreeSet<String>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).expect("readable source folder") {
            crate_uses(&entry.expect("entry").path(), into);
        }
    } else if path.is_file() && path.extension().is_some_and(|e| e == "rs") {
        let text = std::fs::read_to_string(path).expect("readable source");
        uses(
            text.split("#[cfg(test)]").next().unwrap_or(""),
            "crate::",
            into,
        );
    }
}

#[test]
fn layers_depend_one_way() {
    let mut wrong = Vec::new();
    for (i, layer) in LAYERS.iter().enumerate() {
        let mut deps = BTreeSet::new();
        let dir = Path::new("src").join(layer);
        if dir.is_dir() {
            crate_uses(&dir, &mut deps);
        }
        crate_uses(&Path::new("src").join(format!("{layer}.rs")), &mut deps);
        for higher in &LAYERS[i + 1..] {
            if deps.contains(*higher) {
                wrong.push(format!("{layer} uses {higher}"));
            }
        }
    }
    assert!(wrong.is_empty(), "layers reaching up: {wrong:?}");
}
