//! The kernel's five sockets, served on a thread of their own by a single-threaded tokio
//! runtime, so that the session's thread only ever runs code:
//!
//! - heartbeat answers at once, even while a cell runs;
//! - control answers `interrupt_request` (which asks the running cell to stop, as Ctrl-C
//!   does at the prompt), `shutdown_request` and `kernel_info_request` itself;
//! - shell requests go to the session's thread in order, except `kernel_info_request` and
//!   `shutdown_request`, answered here (a front end asks for kernel info while a cell runs);
//! - everything the session sends (iopub messages, shell replies) comes back through one
//!   queue and goes out in the order it was sent.
//!
//! stdin is bound, as the protocol asks, but never read: tensh has no `input()`.

use std::sync::mpsc;

use jupyter_protocol::{
    ConnectionInfo, JupyterMessage, JupyterMessageContent, ReplyStatus, ShutdownReply, Status,
};
use jupyter_zmq_client::{
    KernelHeartbeatConnection, KernelIoPubConnection, create_kernel_control_connection,
    create_kernel_heartbeat_connection, create_kernel_iopub_connection,
    create_kernel_shell_connection, create_kernel_stdin_connection,
};
use std::cell::RefCell;
use std::rc::Rc;

use tokio::sync::mpsc::{Receiver, Sender, channel};

use super::replays::Replays;
use super::signed::{self, Signed};

/// How many messages may wait to go out (libzmq's default high-water mark): a cell that
/// prints faster than the wire sends waits for room, so memory stays bounded.
const HIGH_WATER_MARK: usize = 1000;

/// A message for the front end, from the session's thread.
pub enum Outgoing {
    /// Published on iopub (status, streams, results, errors, pictures).
    IoPub(JupyterMessage),
    /// A reply on shell, to the client its parent came from.
    Shell(JupyterMessage),
    /// The end: the process exits once everything queued before is sent (`shutdown`).
    Exit,
}

/// A shell request and when it arrived (after a failed cell, only the requests that were
/// already waiting are aborted).
pub struct Arrived {
    /// The request.
    pub message: JupyterMessage,
    /// When it was read from the socket.
    pub at: std::time::Instant,
}

/// The session's ends of the wire.
pub struct Wire {
    /// Shell requests for the session, in the order they came.
    pub requests: mpsc::Receiver<Arrived>,
    /// Where the session sends what goes out (`blocking_send`: it waits while the queue is
    /// at its high-water mark).
    pub outgoing: Sender<Outgoing>,
}

/// Binds the sockets `info` names and starts serving them; returns once all five are bound
/// (or why one could not be).
pub fn start(info: ConnectionInfo, session_id: String) -> Result<Wire, String> {
    let (requests_in, requests) = mpsc::channel();
    let (outgoing, queue) = channel(HIGH_WATER_MARK);
    let (bound, is_bound) = mpsc::channel();
    let to_front = outgoing.clone();
    std::thread::Builder::new()
        .name("jupyter-wire".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(r) => r,
                Err(e) => {
                    let _ = bound.send(Err(format!("cannot start the socket thread: {e}")));
                    return;
                }
            };
            runtime.block_on(serve(info, session_id, requests_in, to_front, queue, bound));
        })
        .map_err(|e| format!("cannot start the socket thread: {e}"))?;
    is_bound
        .recv()
        .unwrap_or_else(|_| Err("the socket thread ended".to_string()))?;
    Ok(Wire { requests, outgoing })
}

async fn serve(
    info: ConnectionInfo,
    session_id: String,
    requests: mpsc::Sender<Arrived>,
    to_front: Sender<Outgoing>,
    queue: Receiver<Outgoing>,
    bound: mpsc::Sender<Result<(), String>>,
) {
    let sid = session_id.as_str();
    let sockets = async {
        let shell = create_kernel_shell_connection(&info, sid).await?;
        let iopub = create_kernel_iopub_connection(&info, sid).await?;
        let control = create_kernel_control_connection(&info, sid).await?;
        let stdin = create_kernel_stdin_connection(&info, sid).await?;
        let heartbeat = create_kernel_heartbeat_connection(&info).await?;
        Ok::<_, jupyter_zmq_client::RuntimeError>((shell, iopub, control, stdin, heartbeat))
    };
    let (shell, iopub, control, _stdin, heartbeat) = match sockets.await {
        Ok(s) => s,
        Err(e) => {
            let _ = bound.send(Err(format!("cannot bind the kernel's sockets: {e}")));
            return;
        }
    };
    let _ = bound.send(Ok(()));
    let (shell_out, shell_in) = shell.split();
    let replays = Rc::new(RefCell::new(Replays::default()));
    tokio::join!(
        orphaned(),
        beat(heartbeat),
        read_shell(shell_in, requests, to_front.clone(), replays.clone()),
        serve_control(control, to_front, replays),
        write(queue, iopub, shell_out),
    );
}

/// How long a loop that keeps failing to read waits before it tries again (a socket error
/// is not a reason to end the kernel, nor to spin).
const RETRY: std::time::Duration = std::time::Duration::from_millis(20);

/// How long the kernel waits, at shutdown, for its last messages to leave.
const DRAIN: std::time::Duration = std::time::Duration::from_millis(100);

/// How often the kernel looks whether the process that started it is still there.
const PARENT_CHECK: std::time::Duration = std::time::Duration::from_secs(1);

/// Ends the kernel once the process that started it (a notebook server, a kernel manager)
/// has gone, as Jupyter's kernels do: no one is left to interrupt or shut it down, and a
/// running `loop {}` would spin for ever.
async fn orphaned() {
    // SAFETY: getppid has no preconditions and cannot fail.
    let parent = unsafe { libc::getppid() };
    loop {
        tokio::time::sleep(PARENT_CHECK).await;
        // SAFETY: as above.
        if unsafe { libc::getppid() } != parent {
            crate::ops::output::stderr_text(
                "tensh kernel: the process that started it has gone; ending\n",
            );
            std::process::exit(0);
        }
    }
}

async fn beat(mut heartbeat: KernelHeartbeatConnection) {
    loop {
        if heartbeat.single_heartbeat().await.is_err() {
            tokio::time::sleep(RETRY).await;
        }
    }
}

/// `content` as a message caused by `parent`.
fn child(content: impl Into<JupyterMessageContent>, parent: &JupyterMessage) -> JupyterMessage {
    JupyterMessage::new(content, Some(parent))
}

/// The iopub status around a request answered here, and the reply between.
async fn answer_here(reply: JupyterMessage, parent: &JupyterMessage, out: &Sender<Outgoing>) {
    let _ = out
        .send(Outgoing::IoPub(child(Status::busy(), parent)))
        .await;
    let _ = out.send(Outgoing::Shell(reply)).await;
    let _ = out
        .send(Outgoing::IoPub(child(Status::idle(), parent)))
        .await;
}

/// Whether `signed` is new; a replayed one is reported and dropped.
fn fresh(signed: &Signed, replays: &RefCell<Replays>, socket: &str) -> bool {
    let first = replays.borrow_mut().first_time(&signed.signature);
    if !first {
        crate::ops::output::stderr_text(&format!(
            "tensh kernel: {socket}: dropped a replayed message ({})\n",
            signed.message.header.msg_id
        ));
    }
    first
}

async fn read_shell(
    mut shell: jupyter_zmq_client::RouterRecvConnection,
    requests: mpsc::Sender<Arrived>,
    out: Sender<Outgoing>,
    replays: Rc<RefCell<Replays>>,
) {
    loop {
        let signed = match signed::read(&mut shell).await {
            Ok(m) => m,
            Err(e) => {
                // A message with a bad signature or shape is dropped, as Jupyter's kernels do.
                crate::ops::output::stderr_text(&format!("tensh kernel: shell: {e}\n"));
                tokio::time::sleep(RETRY).await;
                continue;
            }
        };
        if !fresh(&signed, &replays, "shell") {
            continue;
        }
        let message = signed.message;
        match &message.content {
            JupyterMessageContent::KernelInfoRequest(_) => {
                let reply = child(super::introspect::kernel_info(), &message);
                answer_here(reply, &message, &out).await;
            }
            JupyterMessageContent::ShutdownRequest(r) => {
                let reply = child(shutdown_reply(r.restart), &message);
                answer_here(reply, &message, &out).await;
                let _ = out
                    .send(Outgoing::IoPub(JupyterMessage::new(
                        shutdown_reply(r.restart),
                        Some(&message),
                    )))
                    .await;
                let _ = out.send(Outgoing::Exit).await;
            }
            _ => {
                let at = std::time::Instant::now();
                if requests.send(Arrived { message, at }).is_err() {
                    return;
                }
            }
        }
    }
}

fn shutdown_reply(restart: bool) -> ShutdownReply {
    ShutdownReply {
        restart,
        status: ReplyStatus::Ok,
        error: None,
    }
}

async fn serve_control(
    mut control: jupyter_zmq_client::KernelControlConnection,
    out: Sender<Outgoing>,
    replays: Rc<RefCell<Replays>>,
) {
    loop {
        let signed = match signed::read(&mut control).await {
            Ok(m) => m,
            Err(e) => {
                crate::ops::output::stderr_text(&format!("tensh kernel: control: {e}\n"));
                tokio::time::sleep(RETRY).await;
                continue;
            }
        };
        if !fresh(&signed, &replays, "control") {
            continue;
        }
        let message = signed.message;
        let reply: JupyterMessageContent = match &message.content {
            JupyterMessageContent::InterruptRequest(_) => {
                crate::core::interrupt::request();
                jupyter_protocol::InterruptReply::new().into()
            }
            JupyterMessageContent::KernelInfoRequest(_) => super::introspect::kernel_info().into(),
            JupyterMessageContent::ShutdownRequest(r) => {
                // A running cell is stopped first; the process ends once the reply is out.
                crate::core::interrupt::request();
                let reply = child(shutdown_reply(r.restart), &message);
                let _ = control.send(reply).await;
                let _ = out
                    .send(Outgoing::IoPub(child(shutdown_reply(r.restart), &message)))
                    .await;
                let _ = out.send(Outgoing::Exit).await;
                continue;
            }
            _ => continue,
        };
        if let Err(e) = control.send(child(reply, &message)).await {
            crate::ops::output::stderr_text(&format!("tensh kernel: control: {e}\n"));
        }
    }
}

async fn write(
    mut queue: Receiver<Outgoing>,
    mut iopub: KernelIoPubConnection,
    mut shell: jupyter_zmq_client::RouterSendConnection,
) {
    while let Some(next) = queue.recv().await {
        let sent = match next {
            Outgoing::IoPub(mut m) => {
                // iopub's subscribers take every topic; the request's routing ids are shell's.
                m.zmq_identities.clear();
                iopub.send(m).await
            }
            Outgoing::Shell(m) => shell.send(m).await,
            Outgoing::Exit => {
                // The socket library writes each peer's messages from a queue of its own,
                // drained by tasks of this runtime, and has no flush: the replies just sent
                // are given a moment to leave before the process ends.
                tokio::time::sleep(DRAIN).await;
                std::process::exit(0)
            }
        };
        if let Err(e) = sent {
            crate::ops::output::stderr_text(&format!("tensh kernel: cannot send: {e}\n"));
        }
    }
}
