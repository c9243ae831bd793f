//! Every keyword is honoured or refused in words. Each declared parameter that has a
//! default is given, by keyword, a value other than that default, on every registered
//! name, with the required parameters filled in; a body that never asks for the keyword
//! raises `NotImplementedError: tensh does not implement the k= argument of op()`
//! (`script::keyword_audit`) instead of returning a result computed without it. The calls
//! so refused must be exactly the list below: the keywords tensh knowingly does not build.
//! A body that stops reading a keyword it used to honour fails this test.

use std::collections::BTreeSet;

use tensh::ops::signature::{self, Kind};
use tensh::script::session::Session;

/// What tensh declares (as PyTorch does) and refuses in words when given.
const NOT_BUILT: &[&str] = &[
    "allocator= argument of UntypedStorage()",
    "out_dtype argument of addmm()",
    "out_dtype argument of baddbmm()",
];

/// Receivers of the methods probed.
fn receiver(owner: &str) -> Option<&'static str> {
    match owner {
        "Tensor" => Some("torch::arange(6.0).view(2, 3)"),
        "UntypedStorage" => Some("torch::UntypedStorage(8)"),
        "TypedStorage" => Some("torch::FloatStorage(2)"),
        "torch" => Some(""),
        _ => None,
    }
}

/// Values of a PyTorch type, other than the usual defaults.
fn values(type_name: &str) -> &'static [&'static str] {
    match type_name {
        "bool" => &["true", "false"],
        "int" => &["1", "0"],
        "float" => &["0.5"],
        "Number" => &["2", "0.5"],
        "torch.dtype" => &["torch::float64"],
        "torch.device" => &["\"cpu\""],
        "str" => &["\"floor\"", "\"little\""],
        "Tensor" => &["torch::ones(2, 3)"],
        "tuple of ints" => &["[2, 3]", "1"],
        _ => &[],
    }
}

/// A value for a required parameter of a PyTorch type (a `str` is a path in a scratch
/// folder: `from_file` may create it).
fn required(type_name: &str) -> Option<String> {
    if type_name == "str" {
        let dir = std::env::temp_dir().join(format!("tensh-keywords-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        return Some(format!("{:?}", dir.join("x").display().to_string()));
    }
    Some(String::from(match type_name {
        "Tensor" => "torch::ones(2, 3)",
        "int" => "1",
        "tuple of ints" => "[2, 3]",
        "float" => "1.0",
        "Number" => "1",
        "bool" => "false",
        "torch.dtype" => "torch::float64",
        _ => return None,
    }))
}

/// Every probe call: a declared parser overload, its required parameters by position and
/// one defaulted parameter given by keyword.
fn probes() -> Vec<String> {
    let mut out = Vec::new();
    for d in signature::all() {
        let Some(recv) = receiver(d.owner) else {
            continue;
        };
        let Kind::Parser(sig) = d.kind() else {
            continue;
        };
        for o in &sig.overloads {
            let req: Option<Vec<String>> = o
                .params
                .iter()
                .filter(|p| !p.optional && !p.keyword_only)
                .map(|p| required(p.type_name))
                .collect();
            let Some(req) = req else { continue };
            for p in o.params.iter().filter(|p| p.optional) {
                if ["out", "names", "generator"].contains(&p.name) {
                    continue;
                }
                for v in values(p.type_name) {
                    let mut args = req.clone();
                    args.push(format!("#{{{}: {v}}}", p.name));
                    let args = args.join(", ");
                    out.push(if d.owner == "torch" {
                        format!("torch::{}({args})", d.name)
                    } else {
                        format!("({recv}).{}({args})", d.name)
                    });
                }
            }
        }
    }
    out
}

#[test]
fn every_declared_keyword_is_honoured_or_refused_in_words() {
    tensh::ops::output::start_capture();
    let probes = probes();
    assert!(probes.len() > 400, "only {} probes", probes.len());
    let mut refused = BTreeSet::new();
    let mut ran = 0;
    for code in &probes {
        let mut s = Session::new();
        match s.eval(&format!("{code};")) {
            Ok(_) => ran += 1,
            Err(e) => {
                if let Some(at) = e.message.find("does not implement the ") {
                    let what = &e.message[at + "does not implement the ".len()..];
                    refused.insert(format!("{} <- {code}", what.lines().next().unwrap_or("")));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(
        std::env::temp_dir().join(format!("tensh-keywords-{}", std::process::id())),
    );
    // Most probes must run: a probe that errors for another reason proves nothing.
    assert!(ran > 300, "only {ran} of {} probes ran", probes.len());
    let unexpected: Vec<_> = refused
        .iter()
        .filter(|r| !NOT_BUILT.iter().any(|n| r.starts_with(n)))
        .collect();
    assert!(
        unexpected.is_empty(),
        "keywords declared and not honoured:\n{}",
        unexpected
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn a_keyword_the_body_ignores_is_refused() {
    // `torch::UntypedStorage`'s body does not build `allocator=`: the audit says so.
    tensh::ops::output::start_capture();
    let mut s = Session::new();
    let err = s
        .eval("torch::UntypedStorage(4, #{allocator: 1});")
        .expect_err("refused");
    assert!(
        err.message
            .contains("NotImplementedError: tensh does not implement the allocator= argument"),
        "{}",
        err.message
    );
}
