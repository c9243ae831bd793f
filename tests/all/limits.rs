//! A script's values stay within bounds without a per-operation cost that grows with them:
//! growing a list, a string or a BLOB past its bound in one step is a `MemoryError` the
//! script can catch; growing a map or a list of lists a step at a time until memory runs out
//! is stopped by the heap budget with `MemoryError`, never an abort.

use crate::support::session::run;

/// Runs the tensh binary on `script` in a 1 GiB address space.
fn run_in_one_gib(script: &std::path::Path) -> std::process::Output {
    run_in_kib(script, 1 << 20)
}

/// Runs the tensh binary on `script` in an address space of `kib` KiB.
fn run_in_kib(script: &std::path::Path, kib: u64) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {kib} && exec '{}' '{}'",
            env!("CARGO_BIN_EXE_tensh"),
            script.display()
        ))
        .output()
        .expect("runs tensh")
}

#[test]
fn one_step_past_a_bound_is_a_memory_error_a_script_catches() {
    for grow in [
        r#""x".pad(1 << 40, "y")"#,
        r#""x".pad(1 << 40, 'y')"#,
        "[].pad(1 << 40, 1)",
        "blob(1 << 40)",
        "blob(1 << 40, 7)",
        "{ let b = blob(); b.pad(1 << 40, 1) }",
        r#"{ let s = "ab"; loop { s += s; } }"#,
        r#"{ let s = "ab"; loop { s = s + s; } }"#,
    ] {
        let out = run(&format!(
            r#"try {{ {grow}; }} catch (e) {{ print(`caught ${{e}}`); }}"#
        ))
        .unwrap_or_else(|e| panic!("{grow}: not caught: {e}"));
        assert!(
            out.starts_with("caught MemoryError: ") && out.contains("too large"),
            "{grow}: {out}"
        );
    }
}

#[test]
fn the_growing_operations_keep_rhai_s_meaning() {
    let out = run(
        r#"let s = "ab"; s.pad(5, ""); print(s); s.pad(5, "xyz"); print(s); s.pad(7, 'é'); print(s);
           let a = [1]; a += [2, 3]; a.append([4]); a.push(5); a.pad(7, 0); print(a);
           let t = "a"; t += 3; t += 'é'; t += (); t.append("z"); print(t + 'c' + "d");
           let b = blob(2, 9); b.pad(4, 1); print(b.len());
           let p = []; for i in 0..100000 { p.push(i); } print(p.len());"#,
    )
    .expect("runs");
    assert_eq!(
        out,
        "ab\nabxyz\nabxyzéé\n[1, 2, 3, 4, 5, 0, 0]\na3ézcd\n4\n100000\n"
    );
}

#[test]
fn a_map_grown_until_memory_runs_out_is_stopped_not_aborted() {
    let dir = std::env::temp_dir().join(format!("tensh-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("makes a folder");
    let script = dir.join("grow.rhai");
    for body in [
        r#"let m = #{}; let i = 0; loop { m["k" + i] = "value " + i; i += 1; }"#,
        "let a = []; loop { a.push([1, 2, 3, 4, 5, 6, 7, 8]); }",
    ] {
        std::fs::write(&script, body).expect("writes");
        // Half a GiB: the same growth to the budget, in a quarter of the time a GiB takes (a
        // map's growth is Rhai's string-keyed inserts, about 3 µs each).
        let out = run_in_kib(&script, 1 << 19);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{body}: {stderr}");
        assert!(
            stderr.contains("MemoryError: the script's values fill three quarters"),
            "{body}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn printing_a_huge_list_is_a_memory_error_not_an_abort() {
    let dir = std::env::temp_dir().join(format!("tensh-list-repr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("makes a folder");
    let script = dir.join("print.rhai");
    // 600 references to one 1 MiB string: the list is small, its text 600 MB. Rhai's own
    // formatter doubled its string until the allocator aborted under this limit.
    std::fs::write(
        &script,
        r#"let s = "x"; s.pad(1 << 20, "x");
           let a = []; for i in 0..600 { a.push(s); }
           let m = #{}; for i in 0..600 { m["k" + i] = s; }
           for v in [a, m, [a], #{inner: a}] {
               try { print(v); } catch (e) { print(`caught ${type_of(v)}: ${e}`); }
           }
           print(a.extract(0, 3).len());
           print(["a", 1, 2.5, [()], #{b: "c"}]);"#,
    )
    .expect("writes");
    let out = run_in_one_gib(&script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let caught: Vec<&str> = stdout.lines().filter(|l| l.starts_with("caught")).collect();
    assert_eq!(caught.len(), 4, "{stdout}");
    for line in caught {
        assert!(
            line.contains("MemoryError: printing a list or map needs more than"),
            "{line}"
        );
    }
    assert!(
        stdout.ends_with("3\n[\"a\", 1, 2.5, [()], #{\"b\": \"c\"}]\n"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn explain_of_a_long_list_is_linear_and_bounded() {
    let dir = std::env::temp_dir().join(format!("tensh-explain-list-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("makes a folder");
    let script = dir.join("explain.rhai");
    // 65,536 empty views: the pairs alone were 2^31 lines, and the process grew until it
    // aborted under this limit.
    std::fs::write(
        &script,
        "let parts = torch::zeros(0, 3).vsplit(65536); explain(parts);",
    )
    .expect("writes");
    let out = run_in_kib(&script, 4 << 20);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("viewed by #0, #1, "), "{stdout}");
    assert!(stdout.contains(" and 65520 more\n"), "{stdout}");
    assert!(stdout.len() < 64 << 10, "{} bytes", stdout.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_python_loop_grown_until_memory_runs_out_is_stopped_not_aborted() {
    let dir = std::env::temp_dir().join(format!("tensh-py-grow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("makes a folder");
    let script = dir.join("grow.py");
    std::fs::write(&script, "l = []\nwhile True:\n    l.append([0] * 100000)\n").expect("writes");
    let out = run_in_kib(&script, 1 << 20);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("\nMemoryError: "), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
