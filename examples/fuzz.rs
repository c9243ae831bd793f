//! Runs tensh's fuzzer (`tensh::fuzz`) against the built binary, one child process per
//! program, so aborts, signals and hangs are seen as well as panics; keeps each failing
//! program, minimized, under the output folder. Driven by `scripts/fuzz.sh`.
//!
//! usage: fuzz --bin PATH [--minutes M | --programs N] [--seed S] [--len L] [--out DIR]
//!             [--jobs J] [--timeout SECONDS]
//!        fuzz --print SEED N [--len L]      print one program
//!
//! Programs run `--jobs` at a time (2 by default); a failure is minimized once per kind of
//! failure (the first line of its panic or internal error; every hang and signal is
//! minimized), later ones of the same kind are kept as generated. Each child reports the
//! calls of registered names it made (`TENSH_REPORT_CALLS`), summed in the last line.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Each program runs in a child process under [`CHILD_ADDRESS_SPACE`], so it may ask for
/// allocations at the edges of memory.
const SETTINGS: tensh::fuzz::Settings = tensh::fuzz::Settings::CHILD_PROCESS;

/// How one run of a program ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    /// Exit 0 (or 1: an uncaught error, which a program may end with).
    Clean,
    /// A line `FUZZ MISMATCH`: a view read or wrote other slots than its layout names.
    Mismatch,
    /// An internal error (a caught panic) or exit 101.
    Panic,
    /// Killed by a signal (abort, SIGSEGV, SIGBUS).
    Signal,
    /// Still running after the time limit.
    Hang,
    /// A line `FUZZ ERROR VALUE`: a caught error that was not a `Kind: message` string.
    ErrorValue,
}

struct Run {
    outcome: Outcome,
    error_values: usize,
    /// Calls of registered names the program made (0 when it did not end normally).
    calls: u64,
    /// What kind of failure it was: the panic's or internal error's first line.
    signature: String,
}

/// The address space each program's process may use: enough for every ordinary op on the
/// fuzzer's small tensors, far below what an allocation at the edges of memory asks for, so
/// an allocation tensh forgot to check ends in an abort here (a `Signal`) rather than in a
/// machine out of memory, and a checked one in PyTorch's error.
const CHILD_ADDRESS_SPACE: libc::rlim_t = 6 << 30;

fn run(bin: &Path, code: &str, dir: &Path, limit: Duration) -> Run {
    let file = dir.join("program.rhai");
    std::fs::write(&file, code).expect("writes the program");
    let mut command = Command::new(bin);
    // SAFETY: the closure runs in the forked child before `exec`; it only calls
    // `setrlimit`, which is async-signal-safe, and touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: CHILD_ADDRESS_SPACE,
                rlim_max: CHILD_ADDRESS_SPACE,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command
        .arg(&file)
        .env("TENSH_REPORT_CALLS", "1")
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts tensh");
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let (mut o, mut e) = (String::new(), String::new());
        let _ = out.read_to_string(&mut o);
        let _ = err.read_to_string(&mut e);
        (o, e)
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("waits") {
            break Some(s);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let (stdout, stderr) = reader.join().unwrap_or_default();
    let error_values = stdout.matches("FUZZ ERROR VALUE").count();
    let outcome = match status {
        None => Outcome::Hang,
        Some(s) if s.code().is_none() => Outcome::Signal,
        Some(s) if s.code() == Some(101) || stderr.contains("InternalError") => Outcome::Panic,
        _ if stdout.contains("FUZZ MISMATCH") => Outcome::Mismatch,
        _ if error_values > 0 => Outcome::ErrorValue,
        _ => Outcome::Clean,
    };
    let calls = stderr
        .lines()
        .find_map(|l| l.strip_prefix("tensh calls: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    // The panic's place (the line names the thread, whose id changes from run to run) or
    // the internal error's message.
    let signature = stderr
        .lines()
        .find_map(|l| {
            l.split_once("panicked at ")
                .map(|(_, place)| place)
                .or_else(|| l.contains("InternalError").then_some(l))
        })
        .unwrap_or("")
        .to_string();
    Run {
        outcome,
        error_values,
        calls,
        signature,
    }
}

/// Drops statements one at a time (then setup lines) while the program still ends the same way.
fn minimize(
    bin: &Path,
    p: &tensh::fuzz::Program,
    dir: &Path,
    limit: Duration,
    want: Outcome,
) -> String {
    let mut p = p.clone();
    let mut i = 0;
    while i < p.statements.len() {
        let mut q = p.clone();
        q.statements.remove(i);
        if run(bin, &q.text(), dir, limit).outcome == want {
            p = q;
        } else {
            i += 1;
        }
    }
    p.text()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let len: usize = flag("--len").map_or(60, |v| v.parse().expect("--len is a number"));
    if let Some(i) = args.iter().position(|a| a == "--print") {
        let seed = args[i + 1].parse().expect("SEED");
        let n = args[i + 2].parse().expect("N");
        print!("{}", tensh::fuzz::program(seed, n, len, SETTINGS).text());
        return;
    }
    let bin = PathBuf::from(flag("--bin").expect("--bin PATH"));
    let bin = std::fs::canonicalize(&bin).expect("the binary exists");
    let seed: u64 = flag("--seed").map_or(1, |v| v.parse().expect("--seed is a number"));
    let minutes: Option<f64> = flag("--minutes").map(|v| v.parse().expect("--minutes"));
    let programs: Option<u64> = flag("--programs").map(|v| v.parse().expect("--programs"));
    let jobs: usize = flag("--jobs").map_or(2, |v| v.parse().expect("--jobs is a number"));
    let out = PathBuf::from(flag("--out").unwrap_or_else(|| "fuzz-failures".into()));
    // A fill of 2^31 elements takes PyTorch about 9 s here: only well past that is a hang.
    let limit =
        Duration::from_secs(flag("--timeout").map_or(30, |v| v.parse().expect("--timeout")));
    let deadline = minutes.map(|m| Instant::now() + Duration::from_secs_f64(m * 60.0));
    let programs = programs.or(if deadline.is_none() { Some(1000) } else { None });
    let next = AtomicU64::new(0);
    let totals = Mutex::new(Totals::default());
    std::thread::scope(|scope| {
        for worker in 0..jobs.max(1) {
            let (bin, out, next, totals) = (&bin, &out, &next, &totals);
            scope.spawn(move || {
                let work = std::env::temp_dir()
                    .join(format!("tensh-fuzz-{}-{worker}", std::process::id()));
                std::fs::create_dir_all(&work).expect("makes a work folder");
                loop {
                    if deadline.is_some_and(|d| Instant::now() > d) {
                        break;
                    }
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if programs.is_some_and(|p| n >= p) {
                        break;
                    }
                    let p = tensh::fuzz::program(seed, n, len, SETTINGS);
                    let mut r = run(bin, &p.text(), &work, limit);
                    if r.outcome == Outcome::Hang {
                        // A program of legitimately long work (a few 2^31-element fills)
                        // can pass the limit on a machine busy with other work: it is a
                        // hang only if it passes twice the limit when run again.
                        r = run(bin, &p.text(), &work, limit * 2);
                    }
                    let new_kind = {
                        let mut t = totals.lock().expect("totals");
                        t.programs += 1;
                        t.statements += (p.setup.len() + p.statements.len()) as u64;
                        t.calls += r.calls;
                        t.error_values += r.error_values;
                        *t.counts.entry(format!("{:?}", r.outcome)).or_insert(0) += 1;
                        r.outcome != Outcome::Clean
                            && (r.signature.is_empty() || t.kinds.insert(r.signature.clone()))
                    };
                    if r.outcome != Outcome::Clean {
                        let text = if new_kind {
                            minimize(bin, &p, &work, limit, r.outcome)
                        } else {
                            p.text()
                        };
                        std::fs::create_dir_all(out).expect("makes the output folder");
                        let name = out
                            .join(format!("{:?}-seed{seed}-n{n}.rhai", r.outcome).to_lowercase());
                        std::fs::write(&name, text).expect("keeps the program");
                        eprintln!("{:?}: {} {}", r.outcome, name.display(), r.signature);
                    }
                }
                let _ = std::fs::remove_dir_all(&work);
            });
        }
    });
    let t = totals.into_inner().expect("totals");
    println!(
        "seed {seed}: {} programs, {} statements, {} calls; outcomes {:?}; caught errors that were not strings: {}",
        t.programs, t.statements, t.calls, t.counts, t.error_values
    );
}

/// What the workers found, summed.
#[derive(Default)]
struct Totals {
    programs: u64,
    statements: u64,
    calls: u64,
    error_values: usize,
    counts: std::collections::BTreeMap<String, u64>,
    /// The kinds of failure seen (their signatures), each minimized once.
    kinds: std::collections::BTreeSet<String>,
}
