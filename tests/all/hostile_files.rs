//! Crafted checkpoints: `torch::load` accepts and refuses what PyTorch's weights-only loader
//! accepts and refuses, in PyTorch's words (`tests/data/weights_only/expected.jsonl` is
//! PyTorch's output for each crafted pickle, made by `make.py` beside it, never edited), and
//! files built to exhaust the stack or memory (deep nesting, one object named many times)
//! end as a value or an error, never a crash.

use std::io::Write;

use tensh::script::session::Session;

/// A checkpoint as `make.py` builds it: the pickle, `byteorder`, a 64-byte record `data/0`
/// holding 0..64, and `version`.
pub fn checkpoint(pickle: &[u8]) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut out);
    let stored = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .large_file(pickle.len() > u32::MAX as usize / 2);
    let bytes: Vec<u8> = (0..64).collect();
    for (name, data) in [
        ("archive/data.pkl", pickle),
        ("archive/byteorder", b"little".as_slice()),
        ("archive/data/0", &bytes),
        ("archive/version", b"3\n"),
    ] {
        zip.start_file(name, stored).expect("a record");
        zip.write_all(data).expect("writes");
    }
    zip.finish().expect("finishes");
    out.into_inner()
}

/// What loading `path` in a fresh session gives: `OK` or the error as `Kind: message`.
fn load(path: &std::path::Path, then: &str) -> String {
    tensh::ops::output::start_capture();
    let mut s = Session::new();
    let r = s.eval(&format!(
        r#"let v = torch::load("{}"); {then}"#,
        path.display()
    ));
    let printed = tensh::ops::output::take_capture();
    match r {
        Ok(_) => format!("OK{printed}"),
        Err(e) => e.message,
    }
}

fn hex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
        .collect()
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tensh-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("makes a folder");
    dir
}

/// Cases tensh answers differently, on purpose, each with the error tensh gives instead:
/// tensh's integers are 64-bit, its maps have string keys, its storages live on the CPU.
const TENSH_DIFFERS: [(&str, &str); 3] = [
    (
        "LONG1 beyond 64 bits",
        "OverflowError: Python int too large to convert to C long",
    ),
    (
        "a dict key that is a tensor",
        "TypeError: tensh maps have string keys: this dict has a key of type 'Tensor'",
    ),
    (
        "a storage on meta",
        "NotImplementedError: tensh keeps storages on the CPU only: this file has one on 'meta'",
    ),
];

/// Cases whose PyTorch message lists, under each overload of `set_`, which arguments did
/// not match: tensh raises the same `TypeError` with the overloads, without that detail.
const KIND_ONLY: [&str; 3] = [
    "a tensor whose size is a string",
    "a tensor whose size holds a float",
    "BUILD on a tensor with a state",
];

#[test]
fn crafted_pickles_load_or_fail_as_in_pytorch() {
    let dir = scratch("weights-only");
    let path = dir.join("crafted.pt");
    let cases = include_str!("../data/weights_only/expected.jsonl");
    let mut wrong = Vec::new();
    for line in cases.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("a case");
        let name = case["name"].as_str().expect("name");
        let expected = case["expected"].as_str().expect("expected");
        std::fs::write(
            &path,
            checkpoint(&hex(case["pickle"].as_str().expect("hex"))),
        )
        .expect("writes");
        let got = load(&path, "print(v);");
        let kind = |m: &str| m.split([':', ' ']).next().unwrap_or_default().to_string();
        let same = if let Some((_, instead)) = TENSH_DIFFERS.iter().find(|(n, _)| *n == name) {
            got == *instead
        } else if let Some(repr) = expected.strip_prefix("OK ") {
            // A value: the same, where tensh prints it as PyTorch does (tensors, sizes,
            // dtypes, devices); else only that it loads.
            let printed = ["tensor(", "torch.", "device("]
                .iter()
                .any(|p| repr.starts_with(p));
            if printed {
                got == format!("OK{repr}\n")
            } else {
                got.starts_with("OK")
            }
        } else if KIND_ONLY.contains(&name) {
            kind(&got) == kind(expected)
        } else {
            got == expected
        };
        if !same {
            wrong.push(format!(
                "{name}:\n  PyTorch: {expected:?}\n  tensh:   {got:?}"
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        wrong.is_empty(),
        "{} of {} cases differ:\n{}",
        wrong.len(),
        cases.lines().count(),
        wrong.join("\n")
    );
}

/// Runs `script` with the tensh binary under a 2 GiB address-space limit: its standard
/// output, and whether it exited cleanly.
fn run_limited(dir: &std::path::Path, script: &str) -> (String, bool) {
    let path = dir.join("script.rhai");
    std::fs::write(&path, script).expect("writes the script");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 2097152 && exec '{}' '{}'",
            env!("CARGO_BIN_EXE_tensh"),
            path.display()
        ))
        .output()
        .expect("runs tensh");
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        out.status.success(),
    )
}

/// A crafted pickle in a checkpoint at `dir/name`.
fn crafted(dir: &std::path::Path, name: &str, pickle: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, checkpoint(pickle)).expect("writes the checkpoint");
    path
}

#[test]
fn ten_million_nested_tuples_are_an_error_not_a_crash() {
    let dir = scratch("deep");
    let mut pickle = b"\x80\x02)".to_vec();
    pickle.extend(std::iter::repeat_n(0x85u8, 10_000_000));
    pickle.push(b'.');
    let path = crafted(&dir, "deep.pt", &pickle);
    let (out, clean) = run_limited(
        &dir,
        &format!(
            r#"try {{ torch::load("{}"); }} catch (e) {{ print(e); }} print("still here");"#,
            path.display()
        ),
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(clean, "tensh crashed: {out}");
    assert_eq!(
        out,
        "RecursionError: maximum recursion depth exceeded while loading\nstill here\n"
    );
}

#[test]
fn one_string_named_ten_thousand_times_is_one_string_in_memory() {
    let dir = scratch("shared-string");
    let n = 16 << 20;
    let mut pickle = b"\x80\x02X".to_vec();
    pickle.extend((n as u32).to_le_bytes());
    pickle.extend(std::iter::repeat_n(b'a', n));
    pickle.extend(b"q\x00](");
    for _ in 0..10_000 {
        pickle.extend(b"h\x00");
    }
    pickle.extend(b"e.");
    let path = crafted(&dir, "shared.pt", &pickle);
    let (out, clean) = run_limited(
        &dir,
        &format!(
            r#"let v = torch::load("{}"); print(v.len()); print(v[9999].len());"#,
            path.display()
        ),
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(clean, "tensh failed: {out}");
    assert_eq!(out, format!("10000\n{n}\n"));
}

#[test]
fn sets_of_one_big_list_cost_what_python_sets_cost() {
    let dir = scratch("shared-list");
    // A million equal items, memoized; then 300 `set(list)` calls: each set has one item.
    let mut pickle = b"\x80\x02](".to_vec();
    for _ in 0..1_000_000 {
        pickle.extend(b"K\x07");
    }
    pickle.extend(b"eq\x00cbuiltins\nset\nq\x01](");
    for _ in 0..300 {
        pickle.extend(b"h\x01h\x00\x85R");
    }
    pickle.extend(b"e.");
    let path = crafted(&dir, "sets.pt", &pickle);
    let (out, clean) = run_limited(
        &dir,
        &format!(
            r#"let v = torch::load("{}"); print(v.len()); print(v[299]);"#,
            path.display()
        ),
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(clean, "tensh failed: {out}");
    assert_eq!(out, "300\n[7]\n");
}

#[test]
fn files_that_would_block_forever_are_refused_at_once() {
    let dir = scratch("fifo");
    let fifo = dir.join("fifo");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    let f = fifo.display();
    let (out, clean) = run_limited(
        &dir,
        &format!(
            r#"for shared in [false, true] {{
                   try {{ torch::UntypedStorage::from_file("{f}", shared, 16); }} catch (e) {{ print(e); }}
               }}
               try {{ torch::save(torch::ones(2), "{f}"); }} catch (e) {{ print(e); }}
               try {{ torch::load("{f}"); }} catch (e) {{ print(e); }}
               try {{ safetensors::load_file("{f}"); }} catch (e) {{ print(e); }}
               print("done");"#
        ),
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(clean, "{out}");
    assert!(out.ends_with("done\n"), "{out}");
    assert!(
        out.starts_with(&format!(
            "RuntimeError: file <{f}> size <0> is smaller than the required mapping size <16>\n"
        )),
        "{out}"
    );
    assert_eq!(out.lines().count(), 6, "{out}");
}
