//! Runs every conformance case in `tests/conformance/` through the built `tensh` binary and
//! compares its standard output with PyTorch's (the case's `--- expected` section, written by
//! the oracle). Each case runs twice: its Rhai side as `case.rhai`, and its Python side as
//! `case.py` (after the oracle's prelude, `prelude.py`, when the case has a Rhai side: that is
//! how the oracle ran it). Cases under `python/` are plain Python sessions, run as they are.
//! Cases that need a later issue are listed in `expected_failures.txt`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Case {
    python: String,
    rhai: String,
    expected: String,
}

fn parse(path: &Path) -> Case {
    let text = std::fs::read_to_string(path).expect("case readable");
    let mut sections: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    let mut current = "header".to_string();
    for line in text.split('\n') {
        let header = line.strip_prefix("--- ").map(str::trim);
        if let Some(name) = header.filter(|n| ["python", "rhai", "expected"].contains(n)) {
            current = name.to_string();
            sections.entry(current.clone()).or_default();
            continue;
        }
        sections.entry(current.clone()).or_default().push(line);
    }
    let get = |k: &str| sections.get(k).map(|v| v.join("\n")).unwrap_or_default();
    Case {
        python: get("python"),
        rhai: get("rhai"),
        expected: get("expected"),
    }
}

fn cases(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("cases dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            cases(&path, out);
        } else if path.extension().is_some_and(|e| e == "case") {
            out.push(path);
        }
    }
}

/// Runs `code` as the file `name` (its extension picks the language) in `scratch`.
fn run(name: &str, code: &str, scratch: &Path) -> (String, String) {
    let script = scratch.join(name);
    std::fs::write(&script, code).expect("write script");
    let out = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .arg(&script)
        .current_dir(scratch)
        .env("NO_COLOR", "1")
        .output()
        .expect("tensh runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn diff(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let mut out = String::new();
    for i in 0..w.len().max(g.len()) {
        match (w.get(i), g.get(i)) {
            (Some(a), Some(b)) if a == b => out.push_str(&format!("   {a}\n")),
            (a, b) => {
                if let Some(a) = a {
                    out.push_str(&format!(" - {a}\n"));
                }
                if let Some(b) = b {
                    out.push_str(&format!(" + {b}\n"));
                }
            }
        }
    }
    out
}

/// Which side of the cases a test runs.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Rhai,
    Python,
}

fn check_cases(side: Side) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let listed: BTreeMap<String, String> =
        std::fs::read_to_string(root.join("expected_failures.txt"))
            .expect("list")
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|l| {
                let (case, why) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
                (case.to_string(), why.trim().to_string())
            })
            .collect();
    let prelude = std::fs::read_to_string(root.join("prelude.py")).expect("prelude");
    let mut all = vec![];
    cases(&root, &mut all);
    all.sort();
    assert!(all.len() >= 75, "cases missing: found {}", all.len());
    let tag = if side == Side::Rhai { "rhai" } else { "python" };
    let scratch =
        std::env::temp_dir().join(format!("tensh-conformance-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let (mut passed, mut problems) = (0, vec![]);
    for path in &all {
        let name = path
            .strip_prefix(&root)
            .expect("under root")
            .to_string_lossy()
            .replace('\\', "/");
        let case = parse(path);
        // A fresh folder per case: cases write files (`f.bin`) that others also write.
        let _ = std::fs::remove_dir_all(&scratch);
        std::fs::create_dir_all(&scratch).expect("scratch dir");
        let (got, stderr) = match side {
            Side::Rhai if case.rhai.trim().is_empty() => continue,
            Side::Rhai => run("case.rhai", &case.rhai, &scratch),
            Side::Python if case.rhai.trim().is_empty() => run("case.py", &case.python, &scratch),
            Side::Python => run(
                "case.py",
                &format!("{prelude}\n{}\n", case.python),
                &scratch,
            ),
        };
        let ok = got.trim_end() == case.expected.trim_end();
        match (ok, listed.get(&name)) {
            (true, None) => passed += 1,
            (false, Some(_)) => {}
            (true, Some(why)) => problems.push(format!(
                "{name} ({tag}) now passes: remove it from expected_failures.txt ({why})"
            )),
            (false, None) => problems.push(format!(
                "{name} ({tag}) differs from PyTorch:\n{}{}",
                diff(case.expected.trim_end(), got.trim_end()),
                if stderr.is_empty() {
                    String::new()
                } else {
                    format!("stderr: {stderr}")
                }
            )),
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    for name in listed.keys() {
        assert!(
            all.iter().any(|p| p.ends_with(name)),
            "expected_failures.txt names a missing case: {name}"
        );
    }
    println!(
        "{passed} conformance cases pass ({tag}); {} expected failures",
        listed.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn conformance_cases_match_pytorch() {
    check_cases(Side::Rhai);
}

#[test]
fn python_sides_of_the_cases_match_pytorch() {
    check_cases(Side::Python);
}
