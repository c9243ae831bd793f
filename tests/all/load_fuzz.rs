//! `torch::load` (and `safetensors::load_file`) on damaged and hostile files. A real file
//! (several tensors sharing storages, a typed storage, nested values) is mutated thousands
//! of ways (bytes flipped, cut short, spliced, the pickle's bytes changed); hostile pickles
//! are built from pieces (deep nesting, one object named many times, every allowed callable
//! with extreme arguments, `BUILD` on anything). Every load must end as a value or a
//! `Kind: message` error: no panic (an internal error), no hang, no huge allocation.

use tensh::fuzz::values::Rng;
use tensh::script::session::Session;

/// Mutated files loaded by `cargo test`; a longer run sets `TENSH_LOAD_FUZZ_FILES` (and
/// `TENSH_LOAD_FUZZ_SEED` for other mutations), e.g.
/// `TENSH_LOAD_FUZZ_FILES=100000 cargo test --release --test all load_fuzz` (the hostile
/// run docs/security.md reports runs under `ulimit -v 2097152`).
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
    tensh::ops::output::start_capture();
    let mut s = Session::new();
    let r = s.eval(code);
    let _ = tensh::ops::output::take_capture();
    match r {
        Ok(_) => true,
        Err(e) => {
            assert!(
                !e.message.contains("InternalError"),
                "{what}: {}",
                e.message
            );
            let kind = e.message.split(':').next().unwrap_or_default();
            // `error` is Python's `struct.error`, which PyTorch raises for a cut-short field.
            assert!(
                kind.ends_with("Error") || kind == "error",
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

/// Hostile pickles built from pieces: values nested deep, one big object named many times
/// through the memo, every allowed callable given extreme or wrong arguments, `BUILD` and
/// persistent ids on anything.
mod hostile {
    use tensh::fuzz::values::Rng;

    fn s(text: &str) -> Vec<u8> {
        let mut v = vec![b'X'];
        v.extend((text.len() as u32).to_le_bytes());
        v.extend(text.as_bytes());
        v
    }

    fn g(module: &str, name: &str) -> Vec<u8> {
        format!("c{module}\n{name}\n").into_bytes()
    }

    fn int(v: i64) -> Vec<u8> {
        if let Ok(small) = i32::try_from(v) {
            let mut out = vec![b'J'];
            out.extend(small.to_le_bytes());
            out
        } else {
            let mut out = vec![0x8a, 8];
            out.extend(v.to_le_bytes());
            out
        }
    }

    fn extreme(rng: &mut Rng) -> i64 {
        *rng.pick(&[
            0,
            1,
            -1,
            2,
            4,
            16,
            63,
            64,
            1 << 31,
            (1 << 31) - 1,
            -(1 << 31),
            1 << 40,
            i64::MAX,
            i64::MIN,
        ])
    }

    fn tuple(items: Vec<Vec<u8>>) -> Vec<u8> {
        let mut out = vec![b'('];
        for i in items {
            out.extend(i);
        }
        out.push(b't');
        out
    }

    fn storage(rng: &mut Rng) -> Vec<u8> {
        let class = *rng.pick(&[
            "FloatStorage",
            "ByteStorage",
            "LongStorage",
            "BoolStorage",
            "ComplexDoubleStorage",
            "Size",
        ]);
        let key = if rng.chance(0.9) { "0" } else { "7" };
        let mut id = vec![b'('];
        id.extend(s("storage"));
        id.extend(g("torch", class));
        id.extend(s(key));
        id.extend(s(if rng.chance(0.95) { "cpu" } else { "cuda:0" }));
        id.extend(int(if rng.chance(0.7) { 64 } else { extreme(rng) }));
        id.extend(b"tQ");
        id
    }

    fn ints(rng: &mut Rng, n: usize) -> Vec<u8> {
        tuple((0..n).map(|_| int(extreme(rng))).collect())
    }

    /// One value, `depth` levels from the top.
    fn value(rng: &mut Rng, depth: usize) -> Vec<u8> {
        let leaf = depth > 6 || rng.chance(0.3);
        if leaf {
            return match rng.below(6) {
                0 => int(extreme(rng)),
                1 => b"N".to_vec(),
                2 => s("text"),
                3 => b"\x88".to_vec(),
                4 => g("torch", "float16"),
                _ => storage(rng),
            };
        }
        match rng.below(9) {
            0 => tuple((0..rng.below(4)).map(|_| value(rng, depth + 1)).collect()),
            1 => {
                let mut v = b"](".to_vec();
                for _ in 0..rng.below(4) {
                    v.extend(value(rng, depth + 1));
                }
                v.push(b'e');
                v
            }
            2 => {
                let mut v = b"}(".to_vec();
                for _ in 0..rng.below(3) {
                    v.extend(value(rng, depth + 1));
                    v.extend(value(rng, depth + 1));
                }
                v.push(b'u');
                v
            }
            3 | 4 => {
                // A rebuild function with extreme arguments.
                let rank = rng.below(4);
                let stride_rank = if rng.chance(0.9) { rank } else { rank + 1 };
                let mut args = vec![
                    if rng.chance(0.9) {
                        storage(rng)
                    } else {
                        value(rng, depth + 1)
                    },
                    int(if rng.chance(0.7) { 0 } else { extreme(rng) }),
                    ints(rng, rank),
                    ints(rng, stride_rank),
                    if rng.chance(0.8) {
                        b"\x89".to_vec()
                    } else {
                        value(rng, depth + 1)
                    },
                    g("collections", "OrderedDict")
                        .into_iter()
                        .chain(*b")R")
                        .collect(),
                ];
                let name = if rng.chance(0.5) {
                    "_rebuild_tensor_v2"
                } else {
                    let dtype: &&str = rng.pick(&["int32", "float64", "bool", "complex64"]);
                    args.push(g("torch", dtype));
                    "_rebuild_tensor_v3"
                };
                args.truncate(args.len() - rng.below(2));
                let mut v = g("torch._utils", name);
                v.extend(tuple(args));
                v.push(b'R');
                if rng.chance(0.3) {
                    let mut p = g("torch._utils", "_rebuild_parameter");
                    p.extend(tuple(vec![v, value(rng, depth + 1), b"}".to_vec()]));
                    p.push(b'R');
                    v = p;
                }
                v
            }
            5 => {
                let (module, name) = *rng.pick(&[
                    ("torch", "Size"),
                    ("torch", "device"),
                    ("builtins", "set"),
                    ("builtins", "complex"),
                    ("builtins", "bytearray"),
                    ("collections", "OrderedDict"),
                    ("collections", "Counter"),
                    ("_codecs", "encode"),
                    ("torch.storage", "UntypedStorage"),
                ]);
                let mut v = g(module, name);
                v.extend(tuple(
                    (0..rng.below(3)).map(|_| value(rng, depth + 1)).collect(),
                ));
                v.push(b'R');
                v
            }
            6 => {
                // BUILD with a state on anything.
                let mut v = value(rng, depth + 1);
                v.extend(value(rng, depth + 1));
                v.push(b'b');
                v
            }
            7 => {
                // Deep nesting: one-tuples, or one-item lists.
                let levels = *rng.pick(&[100, 5_000, 200_000]);
                let inner = value(rng, 7);
                if rng.chance(0.5) {
                    let mut v = inner;
                    v.extend(std::iter::repeat_n(0x85u8, levels));
                    v
                } else {
                    let mut v = b"](".repeat(levels);
                    v.extend(inner);
                    v.extend(std::iter::repeat_n(b'e', levels));
                    v
                }
            }
            _ => {
                // One big string, memoized, named many times.
                let mut v = s(&"s".repeat(1 << rng.below(17)));
                v.extend(b"q\x05](");
                for _ in 0..rng.below(2000) {
                    v.extend(b"h\x05");
                }
                v.push(b'e');
                v
            }
        }
    }

    /// A whole hostile pickle.
    pub fn pickle(rng: &mut Rng) -> Vec<u8> {
        let mut p = b"\x80\x02".to_vec();
        p.extend(value(rng, 0));
        if rng.chance(0.05) {
            // Cut anywhere.
            let at = rng.below(p.len());
            p.truncate(at);
        } else {
            p.push(b'.');
        }
        p
    }
}

/// Hostile files loaded by `cargo test` (each is slower than a mutant: some nest 200,000
/// levels deep or name a 1 MiB string thousands of times).
const HOSTILE_FILES: u64 = 1000;

#[test]
fn hostile_pickles_load_or_raise_never_crash() {
    // On the stack tensh's binary gives scripts (`main.rs`), not a test thread's 2 MiB:
    // printing and dropping a value 1000 levels deep needs more.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(hostile_pickles)
        .expect("a thread")
        .join()
        .expect("no panic");
}

fn hostile_pickles() {
    let dir = std::env::temp_dir().join(format!("tensh-hostile-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("makes a folder");
    let path = dir.join("hostile.pt");
    let mut rng = Rng::new(env_number("TENSH_LOAD_FUZZ_SEED", 13));
    let (mut loaded, mut refused) = (0, 0);
    for n in 0..env_number("TENSH_LOAD_FUZZ_FILES", HOSTILE_FILES) {
        let pickle = hostile::pickle(&mut rng);
        std::fs::write(&path, super::hostile_files::checkpoint(&pickle)).expect("writes");
        let code = format!(r#"let v = torch::load("{}"); print(v); v"#, path.display());
        if loads(&code, &format!("hostile file {n}")) {
            loaded += 1;
        } else {
            refused += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("hostile .pt files: {loaded} loads ended in a value, {refused} in an error");
    assert!(
        loaded > 100 && refused > 100,
        "{loaded} loaded, {refused} refused"
    );
}
