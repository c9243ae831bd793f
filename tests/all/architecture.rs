//! The import graphs of `src/core`, `src/ops`, `src/script` and `src/python` have no cycles:
//! each top-level module (a file, or a folder with its submodules) may use another only if
//! that one does not use it back, directly or through others. Read from the source: `super::NAME` (or a `{...}`
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

/// A source file: its module path below the crate (`["ops", "storage", "typed"]`; a
/// `mod.rs` has its folder's path), whether it is a `mod.rs`, and its text before its tests.
struct SourceFile {
    module: Vec<String>,
    is_mod: bool,
    text: String,
}

fn source_files(dir: &Path, module: &[String], out: &mut Vec<SourceFile>) {
    for entry in std::fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("entry").path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let mut inner = module.to_vec();
        if path.is_dir() {
            inner.push(name);
            source_files(&path, &inner, out);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let is_mod = name == "mod";
        if !is_mod && !(module.is_empty() && (name == "lib" || name == "main")) {
            inner.push(name);
        }
        let text = std::fs::read_to_string(&path).expect("readable source");
        let text = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
        out.push(SourceFile {
            module: inner,
            is_mod,
            text,
        });
    }
}

/// The identifiers at the start of a path after a `::` (one per item of a `{...}` group).
fn path_heads(rest: &str) -> Vec<Vec<String>> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    if let Some(group) = rest.strip_prefix('{') {
        let body = &group[..group.find('}').unwrap_or(group.len())];
        return body
            .split(',')
            .map(|item| vec![ident(item)])
            .filter(|v| !v[0].is_empty())
            .collect();
    }
    let mut segments = Vec::new();
    let mut rest = rest;
    loop {
        let id = ident(rest);
        if id.is_empty() {
            break;
        }
        rest = &rest.trim_start()[id.len()..];
        segments.push(id);
        match rest.strip_prefix("::") {
            Some(r) if !r.starts_with('{') => rest = r,
            Some(r) => {
                // `a::{b, c}`: one path per item of the group.
                return path_heads(r)
                    .into_iter()
                    .map(|head| segments.iter().cloned().chain(head).collect())
                    .collect();
            }
            None => break,
        }
    }
    vec![segments]
}

/// The module paths a file names through `crate::`, `super::` (repeated) and `self::`,
/// resolved to paths below the crate.
fn references(f: &SourceFile) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = f.text.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        for (i, _) in f.text.match_indices(start) {
            let before = i.checked_sub(1).map(|j| bytes[j] as char);
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut base: Vec<String> = match start {
                "crate::" => Vec::new(),
                "self::" => f.module.clone(),
                _ => f.module[..f.module.len().saturating_sub(1)].to_vec(),
            };
            let mut rest = &f.text[i + start.len()..];
            while start == "super::" && rest.starts_with("super::") {
                base.pop();
                rest = &rest["super::".len()..];
            }
            for head in path_heads(rest) {
                let mut full = base.clone();
                full.extend(head);
                out.push(full);
            }
        }
    }
    out
}

/// Every folder of `src` whose children (files and subfolders) use each other in a cycle,
/// with the cycle: a folder's children may use one another only one way.
fn cycles_in_every_folder() -> Vec<String> {
    let mut files = Vec::new();
    source_files(Path::new("src"), &[], &mut files);
    let mut folders: BTreeSet<Vec<String>> = BTreeSet::new();
    for f in &files {
        let depth = if f.is_mod {
            f.module.len()
        } else {
            f.module.len().saturating_sub(1)
        };
        for d in 0..=depth {
            folders.insert(f.module[..d].to_vec());
        }
    }
    let mut found = Vec::new();
    for folder in &folders {
        let n = folder.len();
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for f in files
            .iter()
            .filter(|f| f.module.len() > n && f.module[..n] == folder[..])
        {
            graph.entry(f.module[n].clone()).or_default();
        }
        for f in files
            .iter()
            .filter(|f| f.module.len() > n && f.module[..n] == folder[..])
        {
            let child = &f.module[n];
            for r in references(f) {
                if r.len() > n
                    && r[..n] == folder[..]
                    && &r[n] != child
                    && graph.contains_key(&r[n])
                {
                    graph.get_mut(child).unwrap().insert(r[n].clone());
                }
            }
        }
        let names: BTreeSet<String> = graph.keys().cloned().collect();
        let mut done = BTreeSet::new();
        for name in &names {
            if let Some(cycle) = find_cycle(name, &graph, &mut Vec::new(), &mut done) {
                found.push(format!("src/{}: {}", folder.join("/"), cycle.join(" -> ")));
            }
        }
    }
    found
}

/// A cycle reachable from `n` (depth-first search for a back edge).
fn find_cycle(
    n: &str,
    graph: &BTreeMap<String, BTreeSet<String>>,
    path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(i) = path.iter().position(|p| p == n) {
        let mut cycle = path[i..].to_vec();
        cycle.push(n.to_string());
        return Some(cycle);
    }
    if done.contains(n) {
        return None;
    }
    path.push(n.to_string());
    for d in &graph[n] {
        if let Some(c) = find_cycle(d, graph, path, done) {
            return Some(c);
        }
    }
    path.pop();
    done.insert(n.to_string());
    None
}

#[test]
fn no_folder_has_an_import_cycle() {
    let cycles = cycles_in_every_folder();
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_folder_check_sees_a_cycle_in_a_folder() {
    let a = SourceFile {
        module: vec!["x".into(), "a".into()],
        is_mod: false,
        text: "use super::b::thing; use crate::x::{c, d}; use crate::{x::e, y};".into(),
    };
    let refs = references(&a);
    assert!(
        refs.contains(&vec!["x".to_string(), "b".into(), "thing".into()]),
        "{refs:?}"
    );
    assert!(
        refs.contains(&vec!["x".to_string(), "c".into()]),
        "{refs:?}"
    );
    for wanted in [vec!["x", "d"], vec!["x"], vec!["y"]] {
        let wanted: Vec<String> = wanted.into_iter().map(String::from).collect();
        assert!(refs.contains(&wanted), "{wanted:?} in {refs:?}");
    }
    let m = SourceFile {
        module: vec!["x".into()],
        is_mod: true,
        text: "use self::a::f; use super::y::g;".into(),
    };
    let refs = references(&m);
    assert!(
        refs.contains(&vec!["x".to_string(), "a".into(), "f".into()]),
        "{refs:?}"
    );
    assert!(
        refs.contains(&vec!["y".to_string(), "g".into()]),
        "{refs:?}"
    );
}

#[test]
fn core_modules_form_no_cycle() {
    assert_acyclic("core", &["autograd", "tensor", "memory", "views"]);
}

#[test]
fn python_modules_form_no_cycle() {
    assert_acyclic("python", &["interp", "host", "value", "session"]);
}

#[test]
fn ops_modules_form_no_cycle() {
    assert_acyclic(
        "ops",
        &[
            "registry",
            "signature",
            "tensor",
            "storage",
            "engine",
            "op_table",
            "runtime",
        ],
    );
}

#[test]
fn script_modules_form_no_cycle() {
    assert_acyclic("script", &["session", "caught", "script_file"]);
}

/// The crate's layers, lowest first: each may use only those before it.
const LAYERS: &[&str] = &[
    "platform",
    "core",
    "print",
    "ops",
    "script",
    "python",
    "repl",
    "transcript",
    "page",
    "jupyter",
    "page_server",
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

/// The two fronts stand side by side on the op table: the Python front calls `ops`
/// directly and never the Rhai front (`script`), which runs programs.
#[test]
fn the_python_front_never_uses_the_rhai_front() {
    let mut deps = BTreeSet::new();
    crate_uses(Path::new("src/python"), &mut deps);
    assert!(deps.contains("ops"), "{deps:?}");
    assert!(!deps.contains("script"), "src/python uses script: {deps:?}");
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
