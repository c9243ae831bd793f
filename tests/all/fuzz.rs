//! A bounded run of tensh's fuzzer (`tensh::fuzz`) in `cargo test`: a fixed seed, so the same
//! programs every run. Each program runs in a fresh session; none may end in an internal
//! error (a panic the session caught), print `FUZZ MISMATCH` (a view reading or writing
//! other storage slots than its sizes, strides and offset name) or `FUZZ ERROR VALUE` (an
//! error caught as something other than a `Kind: message` string). `scripts/fuzz.sh` runs the
//! same generator for as long as asked, in child processes that also catch aborts and hangs.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tensh::script::session::Session;

/// Programs in the bounded run, and statements in each.
const PROGRAMS: u64 = 1500;
const STATEMENTS: usize = 60;
/// The most a program may take before the session is told to stop (Rhai-level loops only).
const PROGRAM_LIMIT: Duration = Duration::from_secs(20);

/// Each half's stop flag (a program past the limit is told to stop through it).
static STOP_FIRST: AtomicBool = AtomicBool::new(false);
static STOP_SECOND: AtomicBool = AtomicBool::new(false);

// The programs in two tests, so that the harness's two threads share them.
#[test]
fn generated_programs_never_panic_and_views_read_and_write_their_slots() {
    run_programs(0..PROGRAMS / 2, &STOP_FIRST);
}

#[test]
fn generated_programs_second_half_never_panic_either() {
    run_programs(PROGRAMS / 2..PROGRAMS, &STOP_SECOND);
}

/// Runs programs `range` of the fixed seed and fails with every failing program's number.
fn run_programs(range: std::ops::Range<u64>, stop: &'static AtomicBool) {
    // Programs may ask for gigabytes (`torch.eye(65536)`): here that is a MemoryError.
    tensh::platform::heap::set_thread_budget(2 << 30);
    let mut failures = Vec::new();
    let mut calls = 0;
    let count = range.end - range.start;
    for n in range {
        let program = tensh::fuzz::program(1, n, STATEMENTS, tensh::fuzz::Settings::IN_PROCESS);
        calls += program.setup.len() + program.statements.len();
        let code = program.text();
        tensh::ops::output::start_capture();
        let mut session = Session::new();
        session.stop_when(stop);
        let start = Instant::now();
        let done = AtomicBool::new(false);
        let result = std::thread::scope(|s| {
            s.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    if start.elapsed() > PROGRAM_LIMIT {
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            });
            let r = session.eval(&code);
            done.store(true, Ordering::Relaxed);
            r
        });
        let out = tensh::ops::output::take_capture();
        session.reset();
        if let Err(e) = &result
            && (e.message.contains("InternalError") || e.message.contains("KeyboardInterrupt"))
        {
            failures.push(format!("program {n}: {}", e.message));
        }
        if let Some(line) = out
            .lines()
            .find(|l| l.starts_with("FUZZ MISMATCH") || l.starts_with("FUZZ ERROR VALUE"))
        {
            failures.push(format!("program {n}: {line}"));
        }
    }
    assert!(calls as u64 >= 60 * count, "{calls} statements");
    assert!(
        failures.is_empty(),
        "replay with `cargo run --release --example fuzz -- --print 1 N`:\n{}",
        failures.join("\n")
    );
}
