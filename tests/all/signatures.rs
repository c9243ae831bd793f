//! Signatures declared once: every name the engine registers has a declaration (and prose),
//! every declaration names something registered, and every registered method and function
//! refuses an unknown keyword and one positional too many with Python's `TypeError`. The
//! walk reads the engine's own registrations, so a new name is covered as soon as it is
//! registered. (PyTorch's exact texts for each are in the conformance case
//! `own/errors/every_op_arguments.case`.)

use std::any::TypeId;
use std::collections::BTreeSet;

use tensh::ops::engine::{new_engine, receiver_types};
use tensh::ops::signature;
use tensh::repl::catalog::Catalog;
use tensh::script::session::Session;

fn catalog() -> Catalog {
    Catalog::from_engine(&new_engine(), &receiver_types())
}

fn type_name(id: TypeId) -> &'static str {
    receiver_types()
        .into_iter()
        .find(|(t, _)| *t == id)
        .map(|(_, n)| n)
        .expect("a receiver type")
}

/// A fresh receiver of each type with methods, as a Rhai expression.
fn receiver(owner: &str) -> &'static str {
    match owner {
        "Tensor" => "torch::arange(6.0).view(2, 3)",
        "UntypedStorage" => "torch::UntypedStorage(4)",
        "TypedStorage" => "torch::FloatStorage(2)",
        "buffer" => "bytearray([97, 98])",
        "Size" => "torch::Size([2, 3])",
        "complex" => "torch::complex(1.0, 2.0)",
        "return_types" => "torch::arange(6.0).view(2, 3).max(1)",
        "grad_fn" => "(torch::ones(2, #{requires_grad: true}) * 2).grad_fn",
        other => panic!("no receiver for {other}"),
    }
}

/// Every registered call as (declaration owner, name, Rhai callee, most arguments taken).
fn calls(c: &Catalog) -> Vec<(&'static str, String, String, usize)> {
    let mut out = Vec::new();
    for (id, methods) in &c.methods {
        let owner = type_name(*id);
        for (name, arities) in methods {
            let callee = format!("({}).{name}", receiver(owner));
            out.push((owner, name.clone(), callee, *arities.last().unwrap_or(&0)));
        }
    }
    for (name, arities) in &c.functions {
        let callee = format!("torch::{name}");
        out.push(("torch", name.clone(), callee, *arities.last().unwrap_or(&0)));
    }
    out.sort();
    out
}

fn error_of(code: &str) -> Option<String> {
    tensh::ops::output::start_capture();
    let mut s = Session::new();
    s.eval(code).err().map(|e| e.message)
}

#[test]
fn every_registered_name_is_declared_and_every_declaration_registered() {
    let c = catalog();
    let registered: BTreeSet<(String, String)> = calls(&c)
        .into_iter()
        .map(|(owner, name, _, _)| (owner.to_string(), name))
        .collect();
    let undeclared: Vec<_> = registered
        .iter()
        .filter(|(o, n)| signature::lookup(o, n).is_none())
        .collect();
    assert!(undeclared.is_empty(), "not declared: {undeclared:?}");
    let mut properties = BTreeSet::new();
    for (id, names) in &c.properties {
        for n in names {
            properties.insert((type_name(*id).to_string(), n.clone()));
        }
    }
    let stale: Vec<_> = signature::all()
        .into_iter()
        .map(|d| (d.owner.to_string(), d.name.to_string()))
        .filter(|k| !registered.contains(k) && !properties.contains(k))
        .collect();
    assert!(stale.is_empty(), "declared but not registered: {stale:?}");
    let undocumented: Vec<_> = registered
        .iter()
        .chain(&properties)
        .filter(|(_, n)| signature::doc(n).is_none())
        .collect();
    assert!(undocumented.is_empty(), "no prose for {undocumented:?}");
}

#[test]
fn every_registered_name_refuses_an_unknown_keyword() {
    let mut wrong = Vec::new();
    for (_, _, callee, _) in calls(&catalog()) {
        let code = format!("{callee}(#{{zzz_not_a_keyword: 1}});");
        match error_of(&code) {
            Some(m) if m.contains("TypeError") => {}
            other => wrong.push(format!("{code} -> {other:?}")),
        }
    }
    assert!(
        wrong.is_empty(),
        "accepted or misreported:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_registered_name_refuses_one_positional_too_many() {
    let mut wrong = Vec::new();
    for (owner, name, callee, _) in calls(&catalog()) {
        // One more than the declaration takes (none for what takes any number of
        // positionals: `view(2, 3, ...)`, `torch.FloatStorage(*args)`).
        let Some(n) = signature::lookup(owner, &name).and_then(|d| d.positional_capacity()) else {
            continue;
        };
        if n >= 8 {
            continue;
        }
        let code = format!("{callee}({});", vec!["1"; n + 1].join(", "));
        match error_of(&code) {
            Some(m) if m.contains("TypeError") => {}
            // PyTorch's deprecated `add(alpha, other)` accepts a second number.
            Some(_) | None if ["add", "sub", "add_", "sub_"].contains(&name.as_str()) => {}
            other => wrong.push(format!("{code} -> {other:?}")),
        }
    }
    assert!(
        wrong.is_empty(),
        "not refused with a TypeError:\n{}",
        wrong.join("\n")
    );
}

/// Writes every registered call (`M owner name arity` / `F name arity`) to the file named by
/// `TENSH_REGISTRATIONS_OUT`, the input of `tools/every_op_case.py`, which writes the
/// conformance case `own/errors/every_op_arguments.case` for the oracle to fill in.
#[test]
#[ignore = "a maintainer's tool: run with --ignored and TENSH_REGISTRATIONS_OUT set"]
fn write_registrations() {
    let Ok(path) = std::env::var("TENSH_REGISTRATIONS_OUT") else {
        return;
    };
    let mut out = String::new();
    for (owner, name, _, n) in calls(&catalog()) {
        if owner == "torch" {
            out += &format!("F {name} {n}\n");
        } else {
            out += &format!("M {owner} {name} {n}\n");
        }
    }
    std::fs::write(path, out).expect("the registrations file is writable");
}
