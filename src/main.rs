//! The `tensh` binary: hands the command line to `tensh::cli::run` and exits with its status.

/// The stack of the thread that runs everything. Rhai evaluates, clones, compares and drops
/// its values recursively (a nested array as deep as the tensor `tolist()` made it, a long
/// chain of nested calls), and so do tensh's printers: a deep value must end in a Python-style
/// error (see `script::limits`), never in a stack overflow, which aborts the process and loses
/// a session. Only the pages a run touches are ever committed.
const STACK_BYTES: usize = 256 << 20;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let status = std::thread::Builder::new()
        .name("tensh".into())
        .stack_size(STACK_BYTES)
        .spawn(move || tensh::cli::run(args))
        .map(|worker| worker.join().unwrap_or(101))
        // No thread could be made (a tight `ulimit -v`): run on this one.
        .unwrap_or_else(|_| tensh::cli::run(std::env::args().skip(1).collect()));
    // The fuzzer counts the calls its programs made (`examples/fuzz.rs`).
    if std::env::var_os("TENSH_REPORT_CALLS").is_some() {
        eprintln!("tensh calls: {}", tensh::ops::registration::calls_made());
    }
    std::process::exit(status);
}
