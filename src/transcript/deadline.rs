//! The time limit of each transcript entry (`tensh test --timeout SECONDS`): a watchdog
//! thread that, once an entry's time is up, asks it to stop as Ctrl-C does
//! (`core::interrupt`), so a transcript that saved an endless loop fails in words instead of
//! running forever.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::check::EntryLimit;

/// The entry's deadline, if one is running; and whether its time ran out.
#[derive(Default)]
struct State {
    deadline: Mutex<Option<Instant>>,
    changed: Condvar,
    fired: AtomicBool,
}

/// A watchdog thread with a limit per entry.
pub struct Watchdog {
    limit: Duration,
    state: Arc<State>,
}

impl Watchdog {
    /// Starts the watchdog's thread (it sleeps while no entry runs, and ends with the
    /// process).
    pub fn start(limit: Duration) -> Watchdog {
        let state = Arc::new(State::default());
        let watched = state.clone();
        std::thread::Builder::new()
            .name("tensh-test-watchdog".into())
            .spawn(move || watch(&watched))
            .expect("a thread for the entries' time limit");
        Watchdog { limit, state }
    }
}

/// The watchdog's loop: waits for a deadline, then for it to pass or be taken back.
fn watch(state: &State) {
    let mut deadline = state.deadline.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        match *deadline {
            None => {
                deadline = state
                    .changed
                    .wait(deadline)
                    .unwrap_or_else(|e| e.into_inner());
            }
            Some(at) => {
                let now = Instant::now();
                if now >= at {
                    state.fired.store(true, Ordering::SeqCst);
                    crate::core::interrupt::request();
                    *deadline = None;
                    continue;
                }
                deadline = state
                    .changed
                    .wait_timeout(deadline, at - now)
                    .map(|(guard, _)| guard)
                    .unwrap_or_else(|e| e.into_inner().0);
            }
        }
    }
}

impl EntryLimit for Watchdog {
    fn arm(&self) {
        self.state.fired.store(false, Ordering::SeqCst);
        *self
            .state
            .deadline
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(Instant::now() + self.limit);
        self.state.changed.notify_one();
    }

    fn disarm(&self) -> bool {
        *self
            .state
            .deadline
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = None;
        self.state.changed.notify_one();
        let fired = self.state.fired.swap(false, Ordering::SeqCst);
        if fired {
            // A request the entry never saw (it ended as the time ran out) is not left for
            // the next one.
            crate::core::interrupt::flag().store(false, Ordering::SeqCst);
        }
        fired
    }

    fn seconds(&self) -> u64 {
        self.limit.as_secs()
    }
}
