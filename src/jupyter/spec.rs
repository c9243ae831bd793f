//! The kernel spec: the folder `kernels/tensh` in one of Jupyter's data folders, with
//! `kernel.json` (how to start the kernel) and the logos notebook front ends show.
//!
//! Where it goes follows Jupyter's own rules (`jupyter --paths`): the user's data folder is
//! `$JUPYTER_DATA_DIR` when set, else `~/Library/Jupyter` on macOS, `%APPDATA%\jupyter` on
//! Windows, and `$XDG_DATA_HOME/jupyter` (default `~/.local/share/jupyter`) elsewhere; an
//! environment's is `PREFIX/share/jupyter`, PREFIX being the active Python's `sys.prefix`.

use std::path::{Path, PathBuf};

/// The kernel's name: the folder under `kernels/`, and what `--kernel` and notebooks say.
pub const NAME: &str = "tensh";

/// The folder name of the "tensh (Python)" kernel spec.
pub const PYTHON_NAME: &str = "tensh-python";

/// The logo as SVG, and drawn from it at the two sizes Jupyter asks for (the PNGs are
/// checked against the SVG by `tests/pictures.rs`).
pub const LOGO_SVG: &str = include_str!("logo/logo-svg.svg");
const LOGO_32: &[u8] = include_bytes!("logo/logo-32x32.png");
const LOGO_64: &[u8] = include_bytes!("logo/logo-64x64.png");

/// Which of Jupyter's data folders the spec goes into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// The user's (`jupyter kernelspec install --user`).
    User,
    /// The active Python environment's (`--sys-prefix`).
    SysPrefix,
}

/// The Jupyter data folder `place` means here.
pub fn data_dir(place: Place) -> Result<PathBuf, String> {
    match place {
        Place::User => user_data_dir(),
        Place::SysPrefix => Ok(sys_prefix()?.join("share").join("jupyter")),
    }
}

fn user_data_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("JUPYTER_DATA_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    let home = || dirs::home_dir().ok_or("no home folder to install into".to_string());
    if cfg!(target_os = "macos") {
        return Ok(home()?.join("Library").join("Jupyter"));
    }
    if cfg!(windows) {
        return std::env::var_os("APPDATA")
            .map(|d| PathBuf::from(d).join("jupyter"))
            .ok_or_else(|| "%APPDATA% is not set".to_string());
    }
    // `dirs::data_dir` is `$XDG_DATA_HOME`, else `~/.local/share`: Jupyter's rule.
    Ok(dirs::data_dir()
        .map_or_else(|| home().map(|h| h.join(".local").join("share")), Ok)?
        .join("jupyter"))
}

/// The active Python environment's prefix: a virtual environment's or conda's (as their
/// activation scripts set it), else what `python3` says.
fn sys_prefix() -> Result<PathBuf, String> {
    for var in ["VIRTUAL_ENV", "CONDA_PREFIX"] {
        if let Some(dir) = std::env::var_os(var).filter(|d| !d.is_empty()) {
            return Ok(PathBuf::from(dir));
        }
    }
    let python = if cfg!(windows) { "python" } else { "python3" };
    let asked = std::process::Command::new(python)
        .args(["-c", "import sys; print(sys.prefix)"])
        .output()
        .map_err(|e| {
            format!("--sys-prefix: no active environment, and {python} did not run: {e}")
        })?;
    let prefix = String::from_utf8_lossy(&asked.stdout).trim().to_string();
    if !asked.status.success() || prefix.is_empty() {
        return Err(format!("--sys-prefix: {python} did not say its sys.prefix"));
    }
    Ok(PathBuf::from(prefix))
}

/// The kernel spec's `kernel.json` for the program at `program`: Jupyter starts
/// `program jupyter kernel CONNECTION_FILE`, and interrupts by message (a cell stops as at
/// the prompt's Ctrl-C, variables kept).
pub fn kernel_json(program: &Path) -> String {
    let spec = serde_json::json!({
        "argv": [program.to_string_lossy(), "jupyter", "kernel", "{connection_file}"],
        "display_name": "tensh",
        "language": "rhai",
        "interrupt_mode": "message",
        "metadata": { "debugger": false },
    });
    // Serialising a JSON value made of strings cannot fail.
    serde_json::to_string_pretty(&spec).unwrap_or_default() + "\n"
}

/// The `kernel.json` of the "tensh (Python)" kernel: the same program, its cells Python.
pub fn python_kernel_json(program: &Path) -> String {
    let spec = serde_json::json!({
        "argv": [program.to_string_lossy(), "jupyter", "kernel", "--python", "{connection_file}"],
        "display_name": "tensh (Python)",
        "language": "python",
        "interrupt_mode": "message",
        "metadata": { "debugger": false },
    });
    // Serialising a JSON value made of strings cannot fail.
    serde_json::to_string_pretty(&spec).unwrap_or_default() + "\n"
}

/// Writes the kernel spec for this program into `place`; returns its folder.
pub fn install(place: Place) -> Result<PathBuf, String> {
    let program = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| format!("cannot tell where this program is: {e}"))?;
    install_into(&data_dir(place)?, &program)
}

/// Writes the kernel spec starting `program` under the data folder `data`.
pub fn install_into(data: &Path, program: &Path) -> Result<PathBuf, String> {
    let python = data.join("kernels").join(PYTHON_NAME);
    write_spec(&python, &python_kernel_json(program))?;
    let dir = data.join("kernels").join(NAME);
    write_spec(&dir, &kernel_json(program))?;
    Ok(dir)
}

/// Writes one kernel spec (its `kernel.json` and the logos) into `dir`.
fn write_spec(dir: &Path, spec: &str) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    let files: [(&str, &[u8]); 4] = [
        ("kernel.json", spec.as_bytes()),
        ("logo-svg.svg", LOGO_SVG.as_bytes()),
        ("logo-32x32.png", LOGO_32),
        ("logo-64x64.png", LOGO_64),
    ];
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::write(&path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Removes the kernel spec from `place`; returns the folder it was in.
pub fn uninstall(place: Place) -> Result<PathBuf, String> {
    uninstall_from(&data_dir(place)?)
}

/// Removes the kernel spec under the data folder `data`.
pub fn uninstall_from(data: &Path) -> Result<PathBuf, String> {
    let dir = data.join("kernels").join(NAME);
    if !dir.join("kernel.json").is_file() {
        return Err(format!("no tensh kernel is installed in {}", dir.display()));
    }
    std::fs::remove_dir_all(&dir).map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
    let python = data.join("kernels").join(PYTHON_NAME);
    if python.is_dir() {
        std::fs::remove_dir_all(&python)
            .map_err(|e| format!("cannot remove {}: {e}", python.display()))?;
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_starts_this_program_with_the_connection_file() {
        let json: serde_json::Value =
            serde_json::from_str(&kernel_json(Path::new("/opt/bin/tensh"))).unwrap();
        assert_eq!(
            json["argv"],
            serde_json::json!(["/opt/bin/tensh", "jupyter", "kernel", "{connection_file}"])
        );
        assert_eq!(json["language"], "rhai");
        assert_eq!(json["interrupt_mode"], "message");
    }

    #[test]
    fn install_then_uninstall_leaves_nothing() {
        let data = std::env::temp_dir().join(format!("tensh-spec-{}", std::process::id()));
        let dir = install_into(&data, Path::new("/x/tensh")).unwrap();
        assert_eq!(dir, data.join("kernels").join("tensh"));
        for f in [
            "kernel.json",
            "logo-svg.svg",
            "logo-32x32.png",
            "logo-64x64.png",
        ] {
            assert!(dir.join(f).is_file(), "{f}");
        }
        let python: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(data.join("kernels/tensh-python/kernel.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(python["display_name"], "tensh (Python)");
        assert_eq!(python["argv"][3], "--python");
        assert_eq!(uninstall_from(&data).unwrap(), dir);
        assert!(!data.join("kernels/tensh-python").exists());
        assert!(!dir.exists());
        assert!(
            uninstall_from(&data)
                .unwrap_err()
                .contains("no tensh kernel")
        );
        let _ = std::fs::remove_dir_all(&data);
    }
}
