//! Runs tensh's fuzzer (`tensh::fuzz`) against the built binary, one child process per
//! program, so aborts, signals and hangs are seen as well as panics; keeps each failing
//! program, minimized, under the output folder. Driven by `scripts/fuzz.sh`.
//!
//! usage: fuzz --bin PATH [--minutes M | --programs N] [--seed S] [--len L] [--out DIR]
//!        fuzz --print SEED N [--len L]      print one program

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
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
    Run {
        outcome,
        error_values,
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
    let out = PathBuf::from(flag("--out").unwrap_or_else(|| "fuzz-failures".into()));
    let limit =
        Duration::from_secs(flag("--timeout").map_or(10, |v| v.parse().expect("--timeout")));
    let work = std::env::temp_dir().join(format!("tensh-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("makes a work folder");
    let deadline = minutes.map(|m| Instant::now() + Duration::from_secs_f64(m * 60.0));
    let (mut n, mut calls, mut error_values) = (0u64, 0u64, 0usize);
    let mut counts = std::collections::BTreeMap::new();
    loop {
        if programs.is_some_and(|p| n >= p) || deadline.is_some_and(|d| Instant::now() > d) {
            break;
        }
        if programs.is_none() && deadline.is_none() && n >= 1000 {
            break;
        }
        let p = tensh::fuzz::program(seed, n, len, SETTINGS);
        calls += (p.setup.len() + p.statements.len()) as u64;
        let r = run(&bin, &p.text(), &work, limit);
        error_values += r.error_values;
        *counts.entry(format!("{:?}", r.outcome)).or_insert(0u64) += 1;
        if r.outcome != Outcome::Clean {
            let small = minimize(&bin, &p, &work, limit, r.outcome);
            std::fs::create_dir_all(&out).expect("makes the output folder");
            let name = out.join(format!("{:?}-seed{seed}-n{n}.rhai", r.outcome).to_lowercase());
            std::fs::write(&name, small).expect("keeps the program");
            eprintln!("{:?}: {}", r.outcome, name.display());
        }
        n += 1;
    }
    let _ = std::fs::remove_dir_all(&work);
    println!(
        "seed {seed}: {n} programs, {calls} statements; outcomes {counts:?}; caught errors that were not strings: {error_values}"
    );
}
