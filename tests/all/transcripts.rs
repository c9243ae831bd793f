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
    assert!(stdout.ends_with("12 passed, 0 failed\n"), "{stdout}");
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
