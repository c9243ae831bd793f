//! Timing shared by the benchmarks.

use std::time::Instant;

/// Best wall time of `runs` calls of `f`, in milliseconds (these virtual machines are noisy,
/// so the minimum is the figure that repeats).
pub fn best(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min)
}
