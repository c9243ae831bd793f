//! The `tensh` binary: hands the command line to `tensh::cli::run` and exits with its status.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(tensh::cli::run(args));
}
