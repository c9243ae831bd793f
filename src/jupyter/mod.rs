//! tensh in notebooks: a Jupyter kernel (`tensh jupyter kernel CONNECTION_FILE`) that runs
//! cells in one session, as the prompt runs inputs, and the kernel spec that makes Jupyter
//! find it (`tensh jupyter install`).
//!
//! The sockets and the protocol's framing and signing are `jupyter-zmq-client`'s (ZeroMQ in
//! pure Rust, HMAC-SHA256), the messages `jupyter-protocol`'s: the crates nteract's runtimes
//! are built on. What is tensh's own is here: which thread does what (`wire`), what a request
//! does to the session (`kernel`, `cell`, `introspect`) and where the kernel spec goes
//! (`spec`).

pub mod cell;
pub mod introspect;
pub mod kernel;
pub mod notebook;
pub mod replays;
pub mod signed;
pub mod spec;
pub mod state;
pub mod wire;

use std::io::Write;

use crate::ops::output;

const USAGE: &str = "usage: tensh jupyter install [--user|--sys-prefix]
       tensh jupyter uninstall [--user|--sys-prefix]
       tensh jupyter kernel CONNECTION_FILE
       tensh jupyter notebook PAGE.md > PAGE.ipynb
       tensh jupyter check EXECUTED.ipynb

  install     make Jupyter offer a \"tensh\" kernel: writes the kernel spec into Jupyter's
              data folder ($JUPYTER_DATA_DIR, else the user's: --user, the default), or into
              the active Python environment's (--sys-prefix: $VIRTUAL_ENV, $CONDA_PREFIX, or
              python3's sys.prefix)
  uninstall   remove it again
  kernel      run the kernel on the ports CONNECTION_FILE names (Jupyter starts this)
  notebook    write a documentation page's prose and transcripts as a notebook (stdout),
              each input a code cell that keeps the output its transcript expects
  check       compare a notebook a front end executed with the outputs its cells expect
";

/// Runs `tensh jupyter ARGS`; returns the exit status.
pub fn main(args: &[String]) -> i32 {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["install", rest @ ..] | ["uninstall", rest @ ..] => {
            let place = match rest {
                [] | ["--user"] => spec::Place::User,
                ["--sys-prefix"] => spec::Place::SysPrefix,
                _ => return usage_error(),
            };
            let done = if words[0] == "install" {
                spec::install(place)
                    .map(|dir| format!("installed the tensh kernel in {}", dir.display()))
            } else {
                spec::uninstall(place)
                    .map(|dir| format!("removed the tensh kernel from {}", dir.display()))
            };
            match done {
                Ok(message) => {
                    output::stdout_text(&format!("{message}\n"));
                    0
                }
                Err(e) => {
                    output::stderr_text(&format!("tensh jupyter: {e}\n"));
                    1
                }
            }
        }
        ["kernel", file] => kernel::run(file, false),
        ["kernel", "--python", file] => kernel::run(file, true),
        ["notebook", page] => match std::fs::read_to_string(page) {
            Ok(text) => {
                let stdout = std::io::stdout();
                let mut out = std::io::BufWriter::new(stdout.lock());
                match notebook::write_page(&text, &mut out).and_then(|()| out.flush()) {
                    Ok(()) => 0,
                    Err(e) => {
                        output::stderr_text(&format!("tensh jupyter: cannot write: {e}\n"));
                        1
                    }
                }
            }
            Err(e) => {
                output::stderr_text(&format!("tensh jupyter: cannot read {page}: {e}\n"));
                2
            }
        },
        ["check", file] => match std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {file}: {e}"))
            .and_then(|text| notebook::check(&text))
        {
            Ok(cells) => {
                output::stdout_text(&format!(
                    "{file}: {cells} cells print what their transcripts expect\n"
                ));
                0
            }
            Err(e) => {
                output::stderr_text(&format!("tensh jupyter: {e}\n"));
                1
            }
        },
        ["--help" | "-h"] => {
            output::stdout_text(USAGE);
            0
        }
        _ => usage_error(),
    }
}

fn usage_error() -> i32 {
    output::stderr_text(USAGE);
    2
}
