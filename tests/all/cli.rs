//! The command line: exit statuses, standard input, `-e`, errors with line and column, and the
//! example scripts in `scripts/`.

use std::io::Write;
use std::process::{Command, Stdio};

fn tensh(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tensh starts");
    let input = stdin.unwrap_or("").to_string();
    let mut pipe = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("tensh ends");
    writer.join().expect("writer");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn code_runs_and_prints() {
    let (code, out, _) = tensh(&["-e", "print(torch::arange(3))"], None);
    assert_eq!((code, out.as_str()), (0, "tensor([0, 1, 2])\n"));
}

#[test]
fn a_script_error_exits_1_with_line_and_column() {
    let (code, out, err) = tensh(
        &[
            "-e",
            "print(1);\nlet x = torch::zeros(4, 4);\nx.view(3, 5);",
        ],
        None,
    );
    assert_eq!(code, 1);
    assert_eq!(out, "1\n");
    assert_eq!(
        err,
        "-e:3:3: RuntimeError: shape '[3, 5]' is invalid for input of size 16\n  \
         3 | x.view(3, 5);\n    |   ^^^^\n"
    );
}

#[test]
fn a_script_error_shows_the_source_line_and_a_caret_under_the_failing_call() {
    let dir = std::env::temp_dir().join(format!("tensh-caret-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("chained.rhai");
    // A chained call over several lines: the caret is under the link that failed.
    std::fs::write(
        &script,
        "let a = torch::ones(2, 3);\nlet b = a.t()\n    .contiguous()\n    .view(5);\n",
    )
    .unwrap();
    let (code, _, err) = tensh(&[script.to_str().unwrap()], None);
    assert_eq!(code, 1);
    let name = script.display();
    assert_eq!(
        err,
        format!(
            "{name}:4:6: RuntimeError: shape '[5]' is invalid for input of size 6\n  \
             4 |     .view(5);\n    |      ^^^^\n"
        )
    );
    // Inside a function: the place in the function, then the call that led there.
    std::fs::write(
        &script,
        "fn f(x) {\n    x.view(7)\n}\nlet y = 1;\nlet z = f(torch::ones(3));\n",
    )
    .unwrap();
    let (_, _, err) = tensh(&[script.to_str().unwrap()], None);
    assert_eq!(
        err,
        format!(
            "{name}:2:7: in f(): RuntimeError: shape '[7]' is invalid for input of size 3\n  \
             2 |     x.view(7)\n    |       ^^^^\n  called from line 5:\n  \
             5 | let z = f(torch::ones(3));\n    |         ^\n"
        )
    );
    // An operator's error: one caret under the operator.
    std::fs::write(
        &script,
        "let a = torch::ones(3);\nlet b = a + torch::ones(4);\n",
    )
    .unwrap();
    let (_, _, err) = tensh(&[script.to_str().unwrap()], None);
    assert!(
        err.ends_with("  2 | let b = a + torch::ones(4);\n    |           ^\n"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_error_after_a_catch_block_on_its_line_is_placed_where_the_user_wrote_it() {
    let line = "try { 1 } catch (e) { print(e) }; let y = undefined_var + 1;";
    let (code, _, err) = tensh(&["-e", line], None);
    assert_eq!(code, 1);
    let column = line.find("undefined_var").unwrap() + 1;
    assert_eq!(
        err.lines().next().unwrap(),
        format!("-e:1:{column}: NameError: name 'undefined_var' is not defined")
    );
    assert!(
        err.ends_with(&format!("    | {}^^^^^^^^^^^^^\n", " ".repeat(column - 1))),
        "{err}"
    );
    let (_, _, err) = tensh(&["-e", "try {} catch (e) {} let = 1;"], None);
    assert!(err.starts_with("-e:1:25: SyntaxError"), "{err}");
}

#[test]
fn syntax_errors_exit_1() {
    let (code, _, err) = tensh(&["-e", "let x = ;"], None);
    assert_eq!(code, 1);
    assert!(err.contains("SyntaxError"), "{err}");
}

#[test]
fn standard_input_runs_as_a_script() {
    let (code, out, _) = tensh(&[], Some("let x = torch::ones(2);\nprint(x.stride());\n"));
    assert_eq!((code, out.as_str()), (0, "[1]\n"));
}

#[test]
fn bad_command_lines_exit_2() {
    assert_eq!(tensh(&["--frobnicate"], None).0, 2);
    assert_eq!(tensh(&["-e"], None).0, 2);
    assert_eq!(tensh(&["/no/such/file.rhai"], None).0, 2);
}

#[test]
fn help_and_version() {
    let (code, out, _) = tensh(&["--version"], None);
    assert_eq!(code, 0);
    assert!(out.starts_with("tensh "), "{out}");
    let (code, out, _) = tensh(&["--help"], None);
    assert_eq!(code, 0);
    assert!(out.contains("usage: tensh"), "{out}");
}

#[test]
fn script_arguments_are_in_args() {
    let dir = std::env::temp_dir().join(format!("tensh-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let script = dir.join("args.rhai");
    std::fs::write(&script, "print(ARGS);").expect("write");
    let (code, out, _) = tensh(&[script.to_str().expect("utf-8"), "a", "b"], None);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!((code, out.as_str()), (0, "[\"a\", \"b\"]\n"));
}

#[test]
fn example_scripts_run_cleanly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts");
    let mut ran = 0;
    for entry in std::fs::read_dir(&dir).expect("scripts/") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "rhai") {
            let (code, out, err) = tensh(&[path.to_str().expect("utf-8")], None);
            assert_eq!(code, 0, "{}: {err}", path.display());
            assert!(!out.is_empty(), "{} printed nothing", path.display());
            ran += 1;
        }
    }
    assert!(ran >= 3);
}

/// Beyond PyTorch (which reads freed memory here): after a storage shrinks under tensors that
/// view it, every access raises PyTorch's `setStorage` bounds error instead.
#[test]
fn tensors_over_a_shrunk_storage_raise_on_every_access() {
    let script = r#"
let t = torch::arange(6, #{dtype: torch::float32});
let v = t[2..];
t.untyped_storage().resize_(8);
for f in [|| v.to_string(), || t + 1, || v.sum(), || v.clone(), || v.fill_(0), || t[5].item(), || v.tolist()] {
    try { f.call(); print("no error"); } catch (e) { print(e); }
}
t.untyped_storage().resize_(24);
print(v.shape);
"#;
    let (code, out, err) = tensh(&["-e", script], None);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8, "{out}");
    for line in &lines[..7] {
        assert!(
            line.starts_with("RuntimeError: setStorage: sizes ["),
            "{line}"
        );
        assert!(
            line.ends_with("are out of bounds for storage of size 8"),
            "{line}"
        );
    }
    assert_eq!(lines[7], "torch.Size([4])");
}

#[test]
fn a_closed_pipe_ends_the_script_as_python_does() {
    // `loop { print(1) }` with its reader gone: ends (it used to run forever) with Python's
    // BrokenPipeError.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .args(["-e", "loop { print(1) }"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tensh starts");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("tensh ends");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "BrokenPipeError: [Errno 32] Broken pipe\n"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_error_and_a_failing_stderr_no_panic() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let out = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .args(["-e", "print(1)"])
        .stdout(full())
        .output()
        .expect("tensh runs");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "OSError: [Errno 28] No space left on device\n"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .args(["-e", "torch::ones(2)[5]"])
        .stderr(full())
        .output()
        .expect("tensh runs");
    assert_eq!(
        out.status.code(),
        Some(1),
        "a script error, not a panic (101)"
    );
}

#[cfg(unix)]
#[test]
fn tensh_test_skips_fifos_and_symlink_loops_in_folders() {
    let dir = std::env::temp_dir().join(format!("tensh-walk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::os::unix::fs::symlink("..", dir.join("sub/up")).unwrap();
    let fifo = std::ffi::CString::new(dir.join("x.md").to_str().unwrap()).unwrap();
    // SAFETY: `fifo` is a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    std::fs::write(dir.join("sub/a.tensh"), ">>> 1 + 1\n2\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .args(["test", dir.to_str().unwrap()])
        .output()
        .expect("tensh test runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stdout).ends_with("1 passed, 0 failed\n"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn exit_and_quit_end_the_script_with_their_status() {
    let (code, out, _) = tensh(&["-e", "print(1); exit(3); print(2)"], None);
    assert_eq!((code, out.as_str()), (3, "1\n"));
    let (code, _, err) = tensh(&["-e", "fn f() { quit(\"bye\") } f(); print(2)"], None);
    assert_eq!((code, err.as_str()), (1, "bye\n"));
    let (code, _, _) = tensh(&["-e", "exit()"], None);
    assert_eq!(code, 0);
}

#[test]
fn a_shebang_line_is_allowed_and_lines_keep_their_numbers() {
    let dir = std::env::temp_dir().join(format!("tensh-shebang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("run.rhai");
    std::fs::write(
        &file,
        "#!/usr/bin/env tensh\nprint(1);\ntorch::zeros(2).view(3);\n",
    )
    .unwrap();
    let (code, out, err) = tensh(&[file.to_str().unwrap()], None);
    assert_eq!((code, out.as_str()), (1, "1\n"));
    assert!(err.contains("run.rhai:3:"), "{err}");
}

#[test]
fn python_spellings_get_a_hint() {
    for (code, hint) in [
        (
            "let x = torch::ones(2, 2); x.sum(dim=1)",
            "hint: in tensh, keyword arguments go in a map: let x = torch::ones(2, 2); x.sum(#{dim: 1})",
        ),
        (
            "torch.zeros(3)",
            "hint: torch functions are called with `::`: torch::zeros(3)",
        ),
        (
            "let x = torch::ones(2); x.shape()",
            "hint: shape is a property, read without parentheses: x.shape",
        ),
        ("y = 2", "hint: a new variable needs `let`: let y = ..."),
    ] {
        let (status, _, err) = tensh(&["-e", code], None);
        assert_eq!(status, 1);
        assert!(err.ends_with(&format!("{hint}\n")), "{code}: {err}");
    }
}

#[test]
fn tensh_test_needs_a_path_with_something_to_test() {
    let (code, _, err) = tensh(&["test"], None);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no PATHS given"), "{err}");
    let dir = std::env::temp_dir().join(format!("tensh-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.md"), "# no sessions here\n").unwrap();
    let (code, _, err) = tensh(&["test", dir.to_str().unwrap()], None);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nothing to test in"), "{err}");
}

#[test]
fn names_pytorch_has_but_tensh_leaves_out_say_why_and_unknown_names_stay_attribute_errors() {
    let script = r#"
for f in [|| torch::arange(3).istft(), || torch::istft(torch::ones(2)), || torch::arange(3).stft,
          || torch::arange(3).frobnicate(), || torch::frobnicate(1)] {
    try { f.call(); } catch (e) { print(e); }
}
"#;
    let (code, out, _) = tensh(&["-e", script], None);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "NotImplementedError: tensh leaves Tensor.istft out: signal processing is outside the tensor memory model\n\
         NotImplementedError: tensh leaves torch.istft out: signal processing is outside the tensor memory model\n\
         NotImplementedError: tensh leaves Tensor.stft out: signal processing is outside the tensor memory model\n\
         AttributeError: 'Tensor' object has no attribute 'frobnicate'\n\
         AttributeError: module 'torch' has no attribute 'frobnicate'\n"
    );
}

#[test]
fn the_readmes_code_example_prints_what_it_says() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let example = "cargo run --release -- -e 'print(1 + 1)'` runs code and prints `2`";
    assert!(readme.contains(example), "the README's -e example changed");
    assert_eq!(
        tensh(&["-e", "print(1 + 1)"], None),
        (0, "2\n".to_string(), String::new())
    );
}
