//! How much of PyTorch's API tensh lacks, asked of the binary: every `Tensor` method and
//! `torch` function on PyTorch's list (`src/ops/pytorch_names.txt`) is called, and the
//! ones answering with tensh's "does not implement" are counted. The counts may only go
//! down (`docs/api-coverage.md` keeps the history); each unbuilt name must answer in words.
//! Names of the families tensh leaves out (sparse, quantized, `torch.nn`, ...) answer
//! "tensh leaves ... out" with the reason, and are listed apart.

use std::process::Command;

/// The most `Tensor` methods and `torch` functions that may be unbuilt (2026-11-27, stop 59).
const MOST_UNBUILT: (usize, usize) = (0, 0);

/// A Python session calling each name with no arguments and listing the unbuilt ones.
fn probe() -> String {
    let names = include_str!("../../src/ops/pytorch_names.txt");
    let list = |owner: &str| -> String {
        let items: Vec<String> = names
            .lines()
            .filter_map(|l| l.strip_prefix(owner))
            .map(|n| format!("'{n}'"))
            .collect();
        format!("[{}]", items.join(", "))
    };
    format!(
        r#"import torch
x = torch.ones(2)
left_out = []
def unbuilt(owner, names):
    out = []
    for n in names:
        try:
            a = getattr(owner, n)
            if callable(a):
                a()
        except NotImplementedError as e:
            if 'does not implement' in str(e):
                out.append(n)
            elif 'tensh leaves' in str(e) and ' out: ' in str(e):
                left_out.append(n)
        except Exception:
            pass
    return out
t = unbuilt(x, {tensor})
f = unbuilt(torch, {torch})
print(len(t), len(f))
print(' '.join(t))
print(' '.join(f))
print(' '.join(left_out))
"#,
        tensor = list("Tensor."),
        torch = list("torch."),
    )
}

#[test]
fn the_unbuilt_names_only_go_down() {
    let dir = std::env::temp_dir().join(format!("tensh-api-coverage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("probe.py");
    std::fs::write(&script, probe()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .arg(&script)
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("tensh runs");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut lines = stdout.lines();
    let counts: Vec<usize> = lines
        .next()
        .unwrap_or_default()
        .split(' ')
        .filter_map(|n| n.parse().ok())
        .collect();
    assert_eq!(
        counts.len(),
        2,
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (methods, functions) = (counts[0], counts[1]);
    assert!(
        methods <= MOST_UNBUILT.0 && functions <= MOST_UNBUILT.1,
        "more unbuilt names than before: {methods} methods (at most {}), {functions} functions \
         (at most {})\nmethods: {}\nfunctions: {}",
        MOST_UNBUILT.0,
        MOST_UNBUILT.1,
        lines.next().unwrap_or_default(),
        lines.next().unwrap_or_default()
    );
    // The families tensh leaves out answer with their reason (the probe is not vacuous).
    let left_out: Vec<&str> = lines.nth(2).unwrap_or_default().split(' ').collect();
    for name in ["stft", "svd", "to_sparse", "conv2d", "q_scale", "compile"] {
        assert!(
            left_out.contains(&name),
            "{name} is not left out in words: {stdout}"
        );
    }
}
