//! Inputs that once aborted or panicked tensh (issue "No input crashes tensh"): each must
//! now end in an error a script sees, or in output, and never in a panic or an abort.

use tensh::script::session::Session;

fn run(code: &str) -> Result<String, String> {
    tensh::script::output::start_capture();
    let mut s = Session::new();
    let result = s.eval(code);
    let out = tensh::script::output::take_capture();
    match result {
        Ok(_) => Ok(out),
        Err(e) => Err(e.message),
    }
}

#[test]
fn unbind_of_a_huge_expand_is_an_allocation_error() {
    let e = run("let x = torch::ones(1).expand(1 << 40); x.unbind();").unwrap_err();
    assert!(
        e.contains("DefaultCPUAllocator: can't allocate memory"),
        "{e}"
    );
    let e = run("torch::ones(1).expand(1 << 40).split(1);").unwrap_err();
    assert!(e.contains("can't allocate memory"), "{e}");
}

#[test]
fn randperm_of_a_huge_size_is_an_allocation_error() {
    let e = run("torch::randperm(1 << 40);").unwrap_err();
    assert!(
        e.contains("DefaultCPUAllocator: can't allocate memory"),
        "{e}"
    );
}

#[test]
fn rhai_strings_are_bounded() {
    let e = run(r#""x".pad(1 << 40, "y");"#).unwrap_err();
    assert!(e.contains("too large"), "{e}");
}

#[test]
fn explain_after_a_resize_into_an_element_shows_the_cut() {
    let out = run("let t = torch::ones(4); t.untyped_storage().resize_(5); explain(t);")
        .expect("explain works on a cut storage");
    assert!(
        out.contains("cut off: the storage ends inside this element"),
        "{out}"
    );
}
