//! Running a script in a fresh session, as the tests that only need its output do.

use tensh::script::session::Session;

/// What `code` printed, or its error as `Kind: message`.
pub fn run(code: &str) -> Result<String, String> {
    tensh::ops::output::start_capture();
    let mut s = Session::new();
    let result = s.eval(code);
    let out = tensh::ops::output::take_capture();
    match result {
        Ok(_) => Ok(out),
        Err(e) => Err(e.message),
    }
}
