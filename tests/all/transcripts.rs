//! `tensh test`: the tutorials in `docs/` pass as transcripts, and a wrong expectation fails
//! with a diff until `--bless` rewrites it.

use std::process::Command;

fn tensh(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tensh"))
        .args(args)
        .env_remove("TENSH_BLESS")
        .output()
        .expect("run tensh")
}

#[test]
fn the_tutorials_in_docs_pass() {
    let docs = concat!(env!("CARGO_MANIFEST_DIR"), "/docs");
    let out = tensh(&["test", docs]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let last = stdout.lines().last().unwrap_or("");
    assert!(last.ends_with(" passed, 0 failed"), "{stdout}");
    for page in [
        "frombuffer",
        "storage",
        "view",
        "tensor-views",
        "layout",
        "explain",
        "confusions",
        "files",
        "python",
        "pytorch-pages",
    ] {
        assert!(
            stdout.contains(&format!("{page}.md: ")),
            "{page} missing: {stdout}"
        );
    }
}

#[test]
fn the_exercise_solutions_pass_and_a_copy_where_a_view_is_asked_fails() {
    let solutions = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/exercises/solutions");
    let out = tensh(&["test", solutions]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    // Each exercise solved in Rhai and in Python.
    assert!(stdout.ends_with("24 passed, 0 failed\n"), "{stdout}");
    let dir = std::env::temp_dir().join(format!("tensh-exercise-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let answer = dir.join("diagonal.rhai");
    std::fs::write(
        &answer,
        "// exercise: diagonal\nfn answer(x) { torch::tensor(x.tolist().map(|r, i| r[i])) }\n",
    )
    .unwrap();
    let out = tensh(&["test", answer.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("exercise diagonal: not yet: the answer must be a view of x"),
        "{stdout}"
    );
    let answer = dir.join("diagonal.py");
    std::fs::write(
        &answer,
        "# exercise: diagonal\nimport torch\n\ndef answer(x):\n    return torch.diagonal(x).clone()\n",
    )
    .unwrap();
    let out = tensh(&["test", dir.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("diagonal.py: exercise diagonal: not yet: the answer must be a view of x"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_wrong_expectation_fails_with_a_diff_and_bless_fixes_it() {
    let dir = std::env::temp_dir().join(format!("tensh-transcript-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wrong.md");
    let text = "Prose.\n\n```tensh\n>>> let t = torch::arange(4);\n>>> t.view(2, 2)\ntensor([[0, 1],\n        [2, 9]])\n>>> t.data_ptr() > 0\n[..]\n```\n";
    std::fs::write(&file, text).unwrap();
    let path = file.to_str().unwrap();

    let failing = tensh(&["test", path]);
    let stdout = String::from_utf8_lossy(&failing.stdout);
    assert_eq!(failing.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(&format!("--- {path} (expected)")),
        "{stdout}"
    );
    assert!(stdout.contains("@@ -4,7 +4,7 @@"), "{stdout}");
    assert!(
        stdout.contains("-        [2, 9]])\n+        [2, 3]])"),
        "{stdout}"
    );
    assert!(stdout.ends_with("2 passed, 1 failed\n"), "{stdout}");

    let blessed = tensh(&["test", "--bless", path]);
    assert!(blessed.status.success());
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        text.replace("[2, 9]", "[2, 3]")
    );
    let again = tensh(&["test", path]);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stdout).ends_with("3 passed, 0 failed\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tensh_files_are_one_session() {
    let dir = std::env::temp_dir().join(format!("tensh-session-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("s.tensh");
    std::fs::write(
        &file,
        ">>> let a = torch::ones(2);\n>>> a * 2\ntensor([2., 2.])\n",
    )
    .unwrap();
    let out = tensh(&["test", dir.to_str().unwrap()]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("2 passed, 0 failed\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder of the test's own with `files` written into it.
fn folder_with(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tensh-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

#[test]
fn every_fence_with_prompts_is_tested_or_named() {
    let dir = folder_with(
        "fences",
        &[(
            "page.md",
            "```rhai\n>>> 1 + 1\n3\n```\n\n```python\n>>> 2 * 3\n6\n```\n\n```text\n>>> 1 + 1\n3\n```\n",
        )],
    );
    let out = tensh(&["test", dir.join("page.md").to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("page.md:11: a ```text block with >>> prompts is not tested"),
        "{stdout}"
    );
    assert!(stdout.contains("-3\n+2\n"), "{stdout}");
    assert!(stdout.ends_with("1 passed, 1 failed\n"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn doctests_conventions_hold_elided_tracebacks_ellipses_and_skips() {
    let dir = folder_with(
        "doctest",
        &[(
            "session.pycon",
            ">>> import torch\n\
             >>> torch.arange(4).view(3)\n\
             Traceback (most recent call last):\n\
             \x20 ...\n\
             RuntimeError: shape '[3]' is invalid for input of size 4\n\
             >>> torch.arange(6).view(3, 2)\n\
             tensor([[0, 1],\n\
             ...\n\
             \x20       [4, 5]])\n\
             >>> print('a long line with', 12345, 'in it')\n\
             a long line ... in it\n\
             >>> while True: pass  # doctest: +SKIP\n\
             >>> 1 + 1\n\
             2\n",
        )],
    );
    let out = tensh(&["test", dir.join("session.pycon").to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.ends_with("5 passed, 0 failed, 1 skipped\n"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_entry_past_its_time_limit_fails_in_words_and_the_run_goes_on() {
    let dir = folder_with(
        "timeout",
        &[(
            "saved.tensh",
            ">>> let k = 0;\n>>> loop { k += 1; }\nKeyboardInterrupt\n>>> 1 + 1\n2\n",
        )],
    );
    let file = dir.join("saved.tensh");
    let out = tensh(&["test", "--timeout", "1", file.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("saved.tensh:2: stopped after 1 s, this entry's time limit"),
        "{stdout}"
    );
    assert!(stdout.ends_with("2 passed, 1 failed\n"), "{stdout}");
    // Blessing leaves the entry as it is.
    let out = tensh(&["test", "--bless", "--timeout", "1", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains(">>> loop { k += 1; }\nKeyboardInterrupt\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diffs_are_coloured_when_asked() {
    let dir = folder_with("colour", &[("wrong.tensh", ">>> 1 + 1\n3\n")]);
    let file = dir.join("wrong.tensh");
    for args in [
        vec!["--color=always", "test", file.to_str().unwrap()],
        vec!["test", "--color=always", file.to_str().unwrap()],
    ] {
        let out = tensh(&args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("\x1b[31m-3\x1b[39m\n"),
            "{args:?}: {stdout:?}"
        );
        assert!(
            stdout.contains("\x1b[32m+2\x1b[39m\n"),
            "{args:?}: {stdout:?}"
        );
    }
    let out = tensh(&["test", file.to_str().unwrap()]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains('\x1b'));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_entry_of_many_continuation_lines_is_read_once() {
    // 20,000 `... ` lines: asking after each whether the input was complete took minutes.
    let mut text = String::from(">>> let a = [\n");
    for i in 0..20_000 {
        text += &format!("...     {i},\n");
    }
    text += "... ];\n>>> a.len()\n20000\n";
    let dir = folder_with("long-entry", &[("long.tensh", &text)]);
    let out = tensh(&["test", dir.join("long.tensh").to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.ends_with("2 passed, 0 failed\n"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
