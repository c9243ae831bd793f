//! Replayed requests are dropped, as jupyter_client's session drops them: a signed message
//! seen once is never acted on again. A replay carries the same signed header, so the same
//! `msg_id`; a new `msg_id` needs the key to sign. The last 65,536 ids are remembered (as
//! jupyter_client keeps its digest history bounded), so memory stays bounded too.

use std::collections::{HashSet, VecDeque};

use jupyter_protocol::JupyterMessage;

/// How many message ids are remembered.
const KEEP: usize = 1 << 16;

/// The ids of the requests seen, oldest first.
#[derive(Default)]
pub struct Replays {
    seen: HashSet<String>,
    order: VecDeque<String>,
}

impl Replays {
    /// True the first time a message's id is seen; false for a replay.
    pub fn first_time(&mut self, message: &JupyterMessage) -> bool {
        let id = message.header.msg_id.clone();
        if !self.seen.insert(id.clone()) {
            return false;
        }
        self.order.push_back(id);
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
    fn a_message_is_acted_on_once() {
        let m: JupyterMessage = jupyter_protocol::KernelInfoRequest {}.into();
        let mut r = Replays::default();
        assert!(r.first_time(&m));
        assert!(!r.first_time(&m));
        let other: JupyterMessage = jupyter_protocol::KernelInfoRequest {}.into();
        assert!(r.first_time(&other));
    }
}
