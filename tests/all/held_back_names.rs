//! Tensor methods and `torch` functions are registered with the engine when a program first
//! names them (`script::op_table`): a session must still find every name, whether the program spells
//! it out, builds it at run time, defines it in an earlier input, or calls it from the
//! Python front end.

use crate::support::session::run;
use tensh::script::session::Session;

#[test]
fn a_name_built_at_run_time_is_still_called() {
    let out = run(r#"
        let x = torch::tensor([-1.5, 2.0]);
        let f = Fn("ab" + "s");
        print(f.call(x));
        print(x.call(Fn("neg" + "ative")));
        print(call(Fn("cum" + "sum"), x, 0));
    "#)
    .expect("computed names run");
    assert_eq!(
        out,
        "tensor([1.5000, 2.0000])\ntensor([ 1.5000, -2.0000])\ntensor([-1.5000,  0.5000])\n"
    );
}

#[test]
fn a_computed_name_keeps_its_checks_and_errors() {
    let e = run(r#"let x = torch::ones(2); Fn("cum" + "sum").call(x, 5);"#).unwrap_err();
    assert_eq!(
        e,
        "IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 5)"
    );
    let e = run(r#"let x = torch::ones(2); x.call(Fn("no" + "pe"));"#).unwrap_err();
    assert!(e.contains("'Tensor' object has no attribute 'nope'"), "{e}");
}

#[test]
fn names_from_earlier_inputs_and_functions_stay_registered() {
    tensh::ops::output::start_capture();
    let mut s = Session::new();
    let _ = s
        .eval("fn g(x) { torch::cumprod(x, 0) }")
        .expect("defines g");
    let _ = s
        .eval("let x = torch::tensor([1.0, 2.0, 3.0]);")
        .expect("x");
    let v = s.eval("g(x)").expect("g runs in a later input");
    let _ = tensh::ops::output::take_capture();
    assert_eq!(s.repr(&v).expect("repr"), "tensor([1., 2., 6.])");
}

#[test]
fn an_unknown_torch_function_is_still_an_attribute_error() {
    let e = run("torch::definitely_not_a_function(1);").unwrap_err();
    assert!(
        e.contains("module 'torch' has no attribute 'definitely_not_a_function'"),
        "{e}"
    );
}
