//! `torch::load` (and `safetensors::load_file`) on damaged files: a real file (several tensors sharing storages, a
//! typed storage, nested values) is mutated thousands of ways (bytes flipped, cut short,
//! spliced, the pickle's bytes changed) and loaded. Every load must end as a value or a
//! `Kind: message` error: no panic (an internal error), no hang, no huge allocation.

use tensh::fuzz::values::Rng;
use tensh::script::session::Session;

/// Mutated files loaded by `cargo test`; a longer run sets `TENSH_LOAD_FUZZ_FILES` (and
/// `TENSH_LOAD_FUZZ_SEED` for other mutations), e.g.
/// `TENSH_LOAD_FUZZ_FILES=100000 cargo test --release --test all load_fuzz`.
const FILES: u64 = 3000;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn original(dir: &std::path::Path) -> Vec<u8> {
    let path = dir.join("original.pt");
    let mut s = Session::new();
    let _ = s
        .eval(&format!(
            r#"let x = torch::arange(24.0).view(4, 6);
           torch::save(#{{x: x, row: x[1], t: x.t(), i: torch::arange(5, #{{dtype: torch::int16}}),
                        s: torch::IntStorage([1, 2, 3]), n: [1, 2.5, "s", ()], size: x.shape}},
                      "{}");"#,
            path.display()
        ))
        .expect("saves");
    std::fs::read(&path).expect("reads the original")
}

fn mutate(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
    let mut v = bytes.to_vec();
    let n = v.len() as u64;
    match rng.next_u64() % 5 {
        0 => {
            // A few bytes anywhere.
            for _ in 0..1 + rng.next_u64() % 4 {
                let i = (rng.next_u64() % n) as usize;
                v[i] = rng.next_u64() as u8;
            }
        }
        1 => v.truncate((rng.next_u64() % n) as usize),
        2 => {
            // A run of bytes copied from elsewhere in the file.
            let from = (rng.next_u64() % n) as usize;
            let to = (rng.next_u64() % n) as usize;
            let len = (rng.next_u64() % 64) as usize;
            for k in 0..len {
                if from + k < v.len() && to + k < v.len() {
                    v[to + k] = bytes[from + k];
                }
            }
        }
        3 => {
            // Bytes of the pickle (it starts after the first local header), where the
            // opcodes are.
            let start = 30 + 24;
            for _ in 0..1 + rng.next_u64() % 3 {
                let i = start + (rng.next_u64() % 300) as usize;
                if i < v.len() {
                    v[i] = rng.next_u64() as u8;
                }
            }
        }
        _ => {
            // Extreme values in little-endian fields (sizes, offsets, lengths).
            let i = (rng.next_u64() % n) as usize;
            for (k, b) in [0xff, 0xff, 0xff, 0x7f].into_iter().enumerate() {
                if i + k < v.len() {
                    v[i + k] = b;
                }
            }
        }
    }
    v
}

/// Runs `code` (a load) in a fresh session: true when it gave a value; an error must be a
/// `Kind: message` one, never an internal error.
fn loads(code: &str, what: &str) -> bool {
    tensh::script::output::start_capture();
    let mut s = Session::new();
    let r = s.eval(code);
    let _ = tensh::script::output::take_capture();
    match r {
        Ok(_) => true,
        Err(e) => {
            assert!(
                !e.message.contains("InternalError"),
                "{what}: {}",
                e.message
            );
            let kind = e.message.split(':').next().unwrap_or_default();
            assert!(
                kind.ends_with("Error"),
                "{what}: not a Kind: message error: {}",
                e.message
            );
            false
        }
    }
}

#[test]
fn damaged_checkpoints_load_or_raise_never_crash() {
    let dir = std::env::temp_dir().join(format!("tensh-load-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("makes a folder");
    let bytes = original(&dir);
    let path = dir.join("damaged.pt");
    let mut rng = Rng::new(env_number("TENSH_LOAD_FUZZ_SEED", 7));
    let (mut loaded, mut refused) = (0, 0);
    for n in 0..env_number("TENSH_LOAD_FUZZ_FILES", FILES) {
        let damaged = mutate(&mut rng, &bytes);
        std::fs::write(&path, &damaged).expect("writes");
        for mmap in [false, true] {
            let code = format!(
                r#"let v = torch::load("{}", #{{mmap: {mmap}}}); print(v); v"#,
                path.display()
            );
            if loads(&code, &format!("file {n} (mmap {mmap})")) {
                loaded += 1;
            } else {
                refused += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("damaged .pt files: {loaded} loads ended in a value, {refused} in an error");
    // Both outcomes happen: the mutations are neither all harmless nor all fatal.
    assert!(
        loaded > 100 && refused > 100,
        "{loaded} loaded, {refused} refused"
    );
}

#[test]
fn damaged_safetensors_files_load_or_raise_never_crash() {
    let dir = std::env::temp_dir().join(format!("tensh-st-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("makes a folder");
    let path = dir.join("original.safetensors");
    let mut s = Session::new();
    let _ = s
        .eval(&format!(
            r#"safetensors::save_file(#{{w: torch::arange(24.0).view(4, 6), b: torch::ones(3, #{{dtype: torch::int16}}),
                                        e: torch::zeros(0, 2)}}, "{}", #{{metadata: #{{k: "v"}}}});"#,
            path.display()
        ))
        .expect("saves");
    let bytes = std::fs::read(&path).expect("reads the original");
    let damaged_path = dir.join("damaged.safetensors");
    let mut rng = Rng::new(11);
    let (mut loaded, mut refused) = (0, 0);
    for n in 0..FILES {
        let damaged = mutate(&mut rng, &bytes);
        std::fs::write(&damaged_path, &damaged).expect("writes");
        let code = format!(
            r#"let v = safetensors::load_file("{}"); print(v); v"#,
            damaged_path.display()
        );
        if loads(&code, &format!("file {n}")) {
            loaded += 1;
        } else {
            refused += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        loaded > 100 && refused > 100,
        "{loaded} loaded, {refused} refused"
    );
}
