//! Replayed requests are dropped, as Jupyter's kernels drop them: a signature seen once is
//! never acted on again. A replay is the same signed frames, so the same signature; a new
//! signature needs the key. The message id is no such mark: `jupyter_client` numbers ids per
//! session object (`<session>_<pid>_<n>`), and the copies of one session that a kernel
//! manager and its clients hold start their counts at the same number, so two genuine
//! requests can share an id. On an unsigned connection (an empty key) there is nothing to
//! check, as in `jupyter_client`. The last 65,536 signatures are remembered, so memory stays
//! bounded.

use std::collections::{HashSet, VecDeque};

/// How many signatures are remembered.
const KEEP: usize = 1 << 16;

/// The signatures of the requests seen, oldest first.
#[derive(Default)]
pub struct Replays {
    seen: HashSet<Vec<u8>>,
    order: VecDeque<Vec<u8>>,
}

impl Replays {
    /// True unless `signature` was seen before; an empty signature (an unsigned connection)
    /// is always new.
    pub fn first_time(&mut self, signature: &[u8]) -> bool {
        if signature.is_empty() {
            return true;
        }
        if !self.seen.insert(signature.to_vec()) {
            return false;
        }
        self.order.push_back(signature.to_vec());
        if self.order.len() > KEEP
            && let Some(old) = self.order.pop_front()
        {
            self.seen.remove(&old);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_is_acted_on_once() {
        let mut r = Replays::default();
        assert!(r.first_time(b"ab12"));
        assert!(!r.first_time(b"ab12"));
        assert!(r.first_time(b"cd34"));
    }

    #[test]
    fn unsigned_messages_are_never_replays() {
        let mut r = Replays::default();
        assert!(r.first_time(b""));
        assert!(r.first_time(b""));
    }

    #[test]
    fn the_oldest_signatures_are_forgotten_past_the_bound() {
        let mut r = Replays::default();
        for n in 0..=KEEP {
            assert!(r.first_time(format!("{n:x}").as_bytes()));
        }
        assert!(r.first_time(b"0"), "the oldest is forgotten");
        assert!(!r.first_time(format!("{KEEP:x}").as_bytes()));
    }
}
