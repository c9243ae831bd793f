//! Checkpoints written by tensh (`tests/data/tensh_files/make.rhai`) load in real PyTorch
//! with `weights_only=True` and print what tensh prints: `expected.txt` is the output of
//! `load.py` under PyTorch (never edited), `load.rhai` is the same printer in tensh. Sharing
//! is part of what is printed (the first key whose value views the same storage). A second
//! test checks that tensh still writes exactly these files, so PyTorch's verdict on them
//! stays true of today's writer.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

const FILES: [&str; 7] = [
    "tensh_views.pt",
    "tensh_dtypes.pt",
    "tensh_storages.pt",
    "tensh_values.pt",
    "tensh_slice.pt",
    "tensh_conj.pt",
    "tensh_objects.pt",
];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tensh_files")
}

/// Runs a script of the fixture folder with `dir` as the working folder.
fn run(script: &str, dir: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .arg(fixtures().join(script))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("tensh runs");
    assert!(
        out.status.success(),
        "{script} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every record of a zip archive but the random `serialization_id`, by name.
fn records(path: &Path) -> BTreeMap<String, Vec<u8>> {
    let file = std::fs::File::open(path).expect("archive opens");
    let mut zip = zip::ZipArchive::new(file).expect("a zip archive");
    let mut out = BTreeMap::new();
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).expect("entry");
        let name = entry.name().expect("entry name").to_string();
        if name.ends_with("/.data/serialization_id") {
            continue;
        }
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).expect("entry reads");
        out.insert(name, bytes);
    }
    out
}

#[test]
fn files_tensh_wrote_load_in_pytorch_as_they_load_in_tensh() {
    let expected = std::fs::read_to_string(fixtures().join("expected.txt")).expect("expected");
    assert_eq!(run("load.rhai", &fixtures()), expected);
}

#[test]
fn tensh_still_writes_the_files_pytorch_was_shown() {
    let dir = std::env::temp_dir().join(format!("tensh-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    run("make.rhai", &dir);
    for f in FILES {
        let fresh = records(&dir.join(f));
        let committed = records(&fixtures().join(f));
        assert_eq!(
            fresh.keys().collect::<Vec<_>>(),
            committed.keys().collect::<Vec<_>>(),
            "{f}: records"
        );
        for (name, bytes) in &fresh {
            assert!(bytes == &committed[name], "{f}: {name} differs");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
