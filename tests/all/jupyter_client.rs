//! The kernels driven by Jupyter's own Python client (`jupyter_client`'s `KernelManager`,
//! `nbclient`): interrupts and shutdowns as a notebook server sends them, a pasted transcript
//! and a failing command as cells, and the shipped notebooks executed as they stand
//! (`tests/jupyter_client/kernel_manager.py` does the driving).
//!
//! It needs a Python with `jupyter_client`, `nbclient` and `nbformat`: the one
//! `$TENSH_JUPYTER_PYTHON` names (then a missing package is a failure; `.ci/run` makes such
//! an environment), else `python3` when it has them. Without either it says it was skipped:
//! `cargo test` runs without Python.

use std::process::Command;

/// The Python to drive the kernel with, if one can.
fn jupyter_python() -> Option<String> {
    let has_packages = |python: &str| {
        Command::new(python)
            .args(["-c", "import jupyter_client, nbclient, nbformat"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if let Ok(named) = std::env::var("TENSH_JUPYTER_PYTHON") {
        assert!(
            has_packages(&named),
            "TENSH_JUPYTER_PYTHON={named} cannot import jupyter_client, nbclient and nbformat"
        );
        return Some(named);
    }
    has_packages("python3").then(|| "python3".to_string())
}

#[test]
fn jupyters_own_client_interrupts_shuts_down_and_runs_the_notebooks() {
    let Some(python) = jupyter_python() else {
        eprintln!(
            "skipped: no Python with jupyter_client, nbclient and nbformat \
             (set TENSH_JUPYTER_PYTHON)"
        );
        return;
    };
    let out = Command::new(&python)
        .arg("tests/jupyter_client/kernel_manager.py")
        .arg(env!("CARGO_BIN_EXE_tensh"))
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && printed.ends_with("all passed\n"),
        "{printed}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    eprint!("{printed}");
}
