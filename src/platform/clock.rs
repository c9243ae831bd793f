//! Time: a monotonic instant for timings, the wall clock, and sleeping. In the page both
//! clocks are the browser's (`performance.now()`, `Date.now()`, through `web-time`), and
//! sleeping waits on the clock (a worker has no thread to park).

use std::time::Duration;

#[cfg(not(target_arch = "wasm32"))]
use std::time;
#[cfg(target_arch = "wasm32")]
use web_time as time;

/// A point in monotonic time.
#[derive(Debug, Clone, Copy)]
pub struct Instant(time::Instant);

impl Instant {
    /// Now.
    pub fn now() -> Instant {
        Instant(time::Instant::now())
    }

    /// The time since this instant.
    pub fn elapsed(&self) -> Duration {
        self.0.elapsed()
    }
}

/// The wall clock: time since the Unix epoch.
pub fn since_epoch() -> Duration {
    time::SystemTime::now()
        .duration_since(time::UNIX_EPOCH)
        .unwrap_or_default()
}

/// Waits `d`.
pub fn sleep(d: Duration) {
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::sleep(d);
    #[cfg(target_arch = "wasm32")]
    {
        let start = Instant::now();
        while start.elapsed() < d {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_moves_forward() {
        let start = Instant::now();
        sleep(Duration::from_millis(2));
        assert!(start.elapsed() >= Duration::from_millis(2));
        assert!(since_epoch() > Duration::from_secs(1_600_000_000));
    }
}
