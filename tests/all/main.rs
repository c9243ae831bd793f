//! tensh's integration tests, gathered in one test binary so that `cargo test --release`
//! links the library into one executable instead of one per file. Each module is the suite
//! of one concern; its own doc comment says what it checks.

mod api_coverage;
mod architecture;
mod cli;
mod conformance;
mod crash_sites;
mod fuzz;
mod held_back_names;
mod hostile_files;
mod jupyter;
mod jupyter_client;
mod keywords;
mod limits;
mod load_fuzz;
mod no_panic;
mod page_server;
mod paste;
mod pictures;
mod python_files;
mod pytorch_files;
mod repl;
mod signatures;
mod support;
mod tensh_files;
mod transcripts;
