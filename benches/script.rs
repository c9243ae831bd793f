//! `cargo bench --bench script`: what a loop iteration costs in the script layer, next to
//! what the same loop costs in a bare Rhai engine with no tensh code at all. The per-call
//! workloads of `../shared/bench` (100,000 iterations of `w.view(16)` and so on) are bounded
//! below by the bare engine's figures; printed as `name best_ms ns/iteration`.

mod common;

use common::best;

use rhai::{Engine, Scope};
use tensh::script::session::Session;

const ITERATIONS: f64 = 100_000.0;

fn report(name: &str, ms: f64) {
    println!(
        "{name:<40} {ms:10.3} ms {:8.1} ns/iteration",
        ms * 1e6 / ITERATIONS
    );
}

/// A handle type with one method, registered the way tensh registers its receivers (taken
/// by value, so Rhai clones the handle for each call).
#[derive(Clone)]
struct Handle(std::rc::Rc<i64>);

fn bare_engine() -> Engine {
    let mut engine = Engine::new();
    engine.register_type_with_name::<Handle>("Handle");
    engine.register_fn("handle", || Handle(std::rc::Rc::new(64)));
    engine.register_fn("nbytes", |h: Handle| *h.0);
    engine.register_fn("nbytes_ref", |h: &mut Handle| *h.0);
    engine.register_fn("storage", |h: Handle| Handle(h.0.clone()));
    engine
}

/// The bare engine with tensh's settings of Rhai itself (data-size limits, no optimizer):
/// the floor tensh's own loops are measured against.
fn configured_engine() -> Engine {
    let mut engine = bare_engine();
    tensh::ops::engine::configure_rhai(&mut engine);
    engine
}

fn main() {
    let runs = 7;
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let want = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));

    for (prefix, engine) in [
        ("rhai_bare", bare_engine()),
        ("rhai_configured", configured_engine()),
    ] {
        if !want(prefix) {
            continue;
        }
        let loops = [
            ("for_let_int", "for i in 0..100000 { let v = i; }"),
            ("for_let_handle", "for i in 0..100000 { let v = w; }"),
            (
                "method_by_value",
                "for i in 0..100000 { let v = w.nbytes(); }",
            ),
            (
                "method_by_ref",
                "for i in 0..100000 { let v = w.nbytes_ref(); }",
            ),
            (
                "two_chained_methods",
                "for i in 0..100000 { let v = w.storage().nbytes(); }",
            ),
        ];
        for (name, code) in loops {
            let name = format!("{prefix}_{name}");
            let ast = engine.compile(code).expect("bench script compiles");
            let mut scope = Scope::new();
            scope.push("w", Handle(std::rc::Rc::new(64)));
            report(
                &name,
                best(runs, || {
                    engine
                        .run_ast_with_scope(&mut scope, &ast)
                        .expect("bench script runs")
                }),
            );
        }
    }

    if want("tensh") {
        let mut session = Session::new();
        let _ = session
            .eval("let w = torch::randn(4, 4);")
            .expect("setup runs");
        let loops = [
            ("tensh_for_let_tensor", "for i in 0..100000 { let v = w; }"),
            ("tensh_view", "for i in 0..100000 { let v = w.view(16); }"),
            (
                "tensh_transpose",
                "for i in 0..100000 { let v = w.transpose(0, 1); }",
            ),
            ("tensh_index2", "for i in 0..100000 { let v = w[1][2]; }"),
            (
                "tensh_untyped_storage_nbytes",
                "for i in 0..100000 { let v = w.untyped_storage().nbytes(); }",
            ),
        ];
        for (name, code) in loops {
            report(
                name,
                best(runs, || {
                    let _ = session.eval(code).expect("bench loop runs");
                }),
            );
        }
    }
}
