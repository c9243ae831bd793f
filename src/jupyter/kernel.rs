//! The kernel's session thread: reads the connection file, starts the wire, then answers
//! shell requests one at a time against one `Console` (variables persist from cell to cell,
//! as at the prompt). Each request is framed by iopub's `busy` and `idle`.

use jupyter_protocol::{
    CommInfoReply, ConnectionInfo, HistoryReply, JupyterMessage, JupyterMessageContent,
    ReplyStatus, Status,
};

use super::state::Kernel;
use super::wire::{self, Arrived};
use crate::ops::output;
use crate::repl::console::Console;
use std::sync::mpsc::Receiver;
use std::time::Instant;

/// The connection file's contents, checked: tensh signs with HMAC-SHA256 (or not at all,
/// when the key is empty).
pub fn connection_info(text: &str) -> Result<ConnectionInfo, String> {
    let info: ConnectionInfo =
        serde_json::from_str(text).map_err(|e| format!("not a connection file: {e}"))?;
    if !info.key.is_empty() && info.signature_scheme != "hmac-sha256" {
        return Err(format!(
            "signature scheme {:?} is not supported (only hmac-sha256)",
            info.signature_scheme
        ));
    }
    Ok(info)
}

/// Runs the kernel on the ports the connection file at `path` names, until a shutdown
/// request ends the process; returns an exit status only when it cannot start.
pub fn run(path: &str, python: bool) -> i32 {
    let info = match std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {path}: {e}"))
        .and_then(|text| connection_info(&text))
    {
        Ok(info) => info,
        Err(e) => {
            output::stderr_text(&format!("tensh kernel: {e}\n"));
            return 2;
        }
    };
    let session_id = format!(
        "tensh-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    );
    // Before the sockets open: the wire thread answers `kernel_info` requests itself, and
    // the first may come at once.
    super::introspect::set_python(python);
    let wire = match wire::start(info, session_id) {
        Ok(w) => w,
        Err(e) => {
            output::stderr_text(&format!("tensh kernel: {e}\n"));
            return 1;
        }
    };
    let mut kernel = Kernel {
        console: Console::new(),
        execution_count: 0,
        outgoing: wire.outgoing.clone(),
    };
    // An interrupt request sets the flag the running code polls; so does SIGINT (a
    // terminal's Ctrl-C reaching the kernel), which then stops a cell rather than the kernel.
    let _ = ctrlc::set_handler(crate::core::interrupt::request);
    kernel.console.stop_when(crate::core::interrupt::flag());
    kernel.console.set_python(python);
    while let Ok(request) = wire.requests.recv() {
        let request = request.message;
        kernel.publish(Status::busy(), &request);
        kernel.answer(&request, &wire.requests);
        kernel.publish(Status::idle(), &request);
    }
    0
}

impl Kernel {
    fn answer(&mut self, request: &JupyterMessage, queue: &Receiver<Arrived>) {
        match &request.content {
            JupyterMessageContent::ExecuteRequest(r) => {
                if let Some(failed_at) = super::cell::execute(self, request, r)
                    && r.stop_on_error
                {
                    self.abort_queued(queue, failed_at);
                }
            }
            JupyterMessageContent::CompleteRequest(r) => {
                let reply = super::introspect::complete(&mut self.console, &r.code, r.cursor_pos);
                self.reply(reply, request);
            }
            JupyterMessageContent::InspectRequest(r) => {
                let reply = super::introspect::inspect(&self.console, &r.code, r.cursor_pos);
                self.reply(reply, request);
            }
            JupyterMessageContent::IsCompleteRequest(r) => {
                self.reply(
                    super::introspect::is_complete(&self.console, &r.code),
                    request,
                );
            }
            JupyterMessageContent::HistoryRequest(_) => {
                self.reply(HistoryReply::new(Vec::new()), request);
            }
            JupyterMessageContent::CommInfoRequest(_) => {
                self.reply(
                    CommInfoReply {
                        status: ReplyStatus::Ok,
                        comms: Default::default(),
                        error: None,
                    },
                    request,
                );
            }
            // Comms and the debugger are not offered (kernel_info says so); other messages
            // have no reply.
            _ => {}
        }
    }

    /// After a cell failed at `failed_at`, the executions that had arrived by then are not
    /// run: each is answered `aborted`, as Jupyter's kernels do, so a notebook stops at its
    /// first error. A request sent after the failure's reply (a front end's next cell) runs.
    fn abort_queued(&mut self, queue: &Receiver<Arrived>, failed_at: Instant) {
        let mut later = Vec::new();
        while let Ok(next) = queue.try_recv() {
            if next.at > failed_at {
                later.push(next);
                continue;
            }
            let next = next.message;
            self.publish(Status::busy(), &next);
            if let JupyterMessageContent::ExecuteRequest(_) = next.content {
                self.reply(super::cell::aborted_reply(self.execution_count), &next);
            } else {
                self.answer(&next, queue);
            }
            self.publish(Status::idle(), &next);
        }
        for next in later {
            let next = next.message;
            self.publish(Status::busy(), &next);
            self.answer(&next, queue);
            self.publish(Status::idle(), &next);
        }
    }
}
