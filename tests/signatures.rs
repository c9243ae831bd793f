//! Signatures declared once: every tensor method refuses more positionals than it takes, and
//! every method with a declared signature refuses an unknown keyword, both with Python's
//! `TypeError` (walking the engine's registrations, so a new method is covered as soon as it
//! is registered).

use std::any::TypeId;

use tensh::core::tensor::Tensor;
use tensh::repl::catalog::Catalog;
use tensh::script::engine::{new_engine, receiver_types};
use tensh::script::session::Session;
use tensh::script::signature;

fn error_of(session: &mut Session, code: &str) -> Option<String> {
    session.eval(code).err().map(|e| e.message)
}

fn session() -> Session {
    tensh::script::output::start_capture();
    let mut s = Session::new();
    let _ = s.eval("let x = torch::arange(6.0).view(2, 3);");
    s
}

#[test]
fn every_tensor_method_refuses_one_positional_too_many() {
    let catalog = Catalog::from_engine(&new_engine(), &receiver_types());
    let methods = &catalog.methods[&TypeId::of::<Tensor>()];
    let mut wrong = Vec::new();
    for (name, arities) in methods {
        // The most arguments a registration takes: its positionals plus a keyword map; the
        // same count of plain ints is one positional too many.
        let n = arities.last().copied().unwrap_or(0);
        let varargs =
            signature::lookup(name, signature::Form::Method).is_some_and(|s| s.gathers_ints());
        if n == 0 || varargs {
            continue;
        }
        let code = format!("x.{name}({});", vec!["1"; n].join(", "));
        let mut s = session();
        match error_of(&mut s, &code) {
            Some(m) if m.contains("TypeError") => {}
            other => wrong.push(format!("{code} -> {other:?}")),
        }
    }
    assert!(
        wrong.is_empty(),
        "not refused with a TypeError:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_declared_method_refuses_an_unknown_keyword() {
    let mut wrong = Vec::new();
    for name in signature::declared() {
        for code in [
            format!("x.{name}(#{{zzz_not_a_keyword: 1}});"),
            format!("torch::{name}(x, #{{zzz_not_a_keyword: 1}});"),
        ] {
            let mut s = session();
            match error_of(&mut s, &code) {
                Some(m) if m.contains("TypeError") || m.contains("Function not found") => {}
                other => wrong.push(format!("{code} -> {other:?}")),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "accepted or misreported:\n{}",
        wrong.join("\n")
    );
}
