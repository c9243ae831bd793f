//! The kernel's state, below the code that answers requests (`kernel`) and the code that
//! runs cells (`cell`), which both use it: the session cells run in, the execution count,
//! and the queue its messages leave by.

use jupyter_protocol::{JupyterMessage, JupyterMessageContent};
use tokio::sync::mpsc::Sender;

use super::wire::Outgoing;
use crate::repl::console::Console;

/// The kernel: the session and where its messages go.
pub struct Kernel {
    /// The session cells run in.
    pub console: Console,
    /// Cells run so far with `store_history` (the `In [n]` number).
    pub execution_count: usize,
    /// The wire's queue of outgoing messages.
    pub outgoing: Sender<Outgoing>,
}

impl Kernel {
    /// Publishes `content` on iopub as caused by `parent`.
    pub fn publish(&self, content: impl Into<JupyterMessageContent>, parent: &JupyterMessage) {
        let _ = self
            .outgoing
            .blocking_send(Outgoing::IoPub(JupyterMessage::new(content, Some(parent))));
    }

    /// Replies to `parent` on shell.
    pub fn reply(&self, content: impl Into<JupyterMessageContent>, parent: &JupyterMessage) {
        let _ = self
            .outgoing
            .blocking_send(Outgoing::Shell(JupyterMessage::new(content, Some(parent))));
    }
}
