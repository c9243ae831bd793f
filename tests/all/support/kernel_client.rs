//! A Jupyter client for the tensh kernel, shared by `tests/jupyter.rs` and
//! `benches/jupyter.rs`: starts a kernel process on a connection file of its own (free
//! ports, a signing key) and talks to it through `jupyter-zmq-client`, as a notebook front
//! end does.
#![allow(dead_code)]

use std::process::{Child, Command};
use std::time::Duration;

use jupyter_protocol::{
    ConnectionInfo, ExecuteRequest, JupyterMessage, JupyterMessageContent, KernelInfoRequest,
    Transport,
};
use jupyter_zmq_client::{
    ClientControlConnection, ClientIoPubConnection, ClientShellConnection,
    create_client_control_connection, create_client_iopub_connection,
    create_client_shell_connection_with_identity, peer_identity_for_session,
};
use tokio::time::timeout;

/// Long enough for any step on a loaded machine; only a hang ever reaches it.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// The kernel process, killed if the test ends early.
pub struct Kernel(pub Child);

impl Drop for Kernel {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Five ports nothing listens on now.
fn free_ports(n: usize) -> Vec<u16> {
    let listeners: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

/// Starts a kernel on fresh ports, its connection file in `dir`.
pub fn start_kernel(dir: &std::path::Path) -> (Kernel, ConnectionInfo) {
    start_kernel_with(dir, &[])
}

/// Writes a connection file on fresh ports (`connection.json` in `dir`).
pub fn connection_file(dir: &std::path::Path) -> ConnectionInfo {
    let ports = free_ports(5);
    let info = ConnectionInfo {
        ip: "127.0.0.1".to_string(),
        transport: Transport::TCP,
        shell_port: ports[0],
        iopub_port: ports[1],
        stdin_port: ports[2],
        control_port: ports[3],
        hb_port: ports[4],
        key: "a secret key".to_string(),
        signature_scheme: "hmac-sha256".to_string(),
        kernel_name: Some("tensh".to_string()),
    };
    std::fs::write(
        dir.join("connection.json"),
        serde_json::to_string(&info).unwrap(),
    )
    .unwrap();
    info
}

/// `start_kernel` with more arguments before the connection file (`--python`).
pub fn start_kernel_with(dir: &std::path::Path, extra: &[&str]) -> (Kernel, ConnectionInfo) {
    let info = connection_file(dir);
    let file = dir.join("connection.json");
    let child = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .args(["jupyter", "kernel"])
        .args(extra)
        .arg(&file)
        .spawn()
        .unwrap();
    (Kernel(child), info)
}

/// The client's sockets.
pub struct Client {
    pub shell: ClientShellConnection,
    pub iopub: ClientIoPubConnection,
    pub control: ClientControlConnection,
    /// The language the kernel's `kernel_info` reply names.
    pub language: String,
}

/// Retries `connect` until the kernel listens.
async fn connected<T, F: std::future::Future<Output = jupyter_zmq_client::Result<T>>>(
    mut connect: impl FnMut() -> F,
) -> T {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        match connect().await {
            Ok(c) => return c,
            Err(e) if tokio::time::Instant::now() > deadline => panic!("cannot connect: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(1)).await,
        }
    }
}

impl Client {
    pub async fn connect(info: &ConnectionInfo) -> Client {
        let session = "test-session";
        // The ZeroMQ client backs off 50 ms and more after a refused connection: wait for
        // the kernel's ports first (heartbeat's is bound last), so as not to measure that.
        let heartbeat = format!("{}:{}", info.ip, info.hb_port);
        let deadline = std::time::Instant::now() + PATIENCE;
        while std::net::TcpStream::connect(&heartbeat).is_err() {
            assert!(
                std::time::Instant::now() < deadline,
                "the kernel never listened"
            );
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let shell = connected(|| {
            create_client_shell_connection_with_identity(
                info,
                session,
                peer_identity_for_session(session).unwrap(),
            )
        })
        .await;
        let iopub = connected(|| create_client_iopub_connection(info, "", session)).await;
        let control = connected(|| create_client_control_connection(info, session)).await;
        let mut client = Client {
            shell,
            iopub,
            control,
            language: String::new(),
        };
        client.wait_until_ready().await;
        client
    }

    /// As Jupyter's clients do: asks for kernel info until a reply comes on shell and the
    /// request's status on iopub (the subscription is then in place).
    pub async fn wait_until_ready(&mut self) {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            assert!(tokio::time::Instant::now() < deadline, "kernel never ready");
            let request: JupyterMessage = KernelInfoRequest {}.into();
            let id = request.header.msg_id.clone();
            self.shell.send(request).await.unwrap();
            let Ok(Ok(reply)) = timeout(Duration::from_secs(1), self.shell.read()).await else {
                continue;
            };
            let JupyterMessageContent::KernelInfoReply(info) = reply.content else {
                continue;
            };
            self.language = info.language_info.name.clone();
            assert_eq!(info.implementation, "tensh");
            // The request's `idle` on iopub says the subscription is in place (messages sent
            // before it was are lost: then ask again).
            let idle = async {
                loop {
                    let m = self.iopub.read().await.unwrap();
                    if m.parent_header.as_ref().map(|h| h.msg_id.as_str()) == Some(id.as_str())
                        && matches!(&m.content, JupyterMessageContent::Status(s)
                            if s.execution_state == jupyter_protocol::ExecutionState::Idle)
                    {
                        return;
                    }
                }
            };
            if timeout(Duration::from_millis(300), idle).await.is_ok() {
                return;
            }
        }
    }

    /// Sends a cell; returns what iopub said of it, up to its `idle`, and the shell reply.
    pub async fn execute(&mut self, code: &str) -> (Vec<JupyterMessageContent>, JupyterMessage) {
        let id = self.send_execute(code).await;
        let outputs = self.outputs_of(&id).await;
        (outputs, self.reply_to(&id).await)
    }

    pub async fn send_execute(&mut self, code: &str) -> String {
        let request: JupyterMessage = ExecuteRequest::new(code.to_string()).into();
        let id = request.header.msg_id.clone();
        self.shell.send(request).await.unwrap();
        id
    }

    pub async fn outputs_of(&mut self, id: &str) -> Vec<JupyterMessageContent> {
        let mut seen = Vec::new();
        loop {
            let m = timeout(PATIENCE, self.iopub.read())
                .await
                .expect("no iopub message")
                .unwrap();
            if m.parent_header.as_ref().map(|h| h.msg_id.as_str()) != Some(id) {
                continue;
            }
            if let JupyterMessageContent::Status(s) = &m.content
                && s.execution_state == jupyter_protocol::ExecutionState::Idle
            {
                return seen;
            }
            seen.push(m.content);
        }
    }

    pub async fn reply_to(&mut self, id: &str) -> JupyterMessage {
        loop {
            let m = timeout(PATIENCE, self.shell.read())
                .await
                .expect("no shell reply")
                .unwrap();
            if m.parent_header.as_ref().map(|h| h.msg_id.as_str()) == Some(id) {
                return m;
            }
        }
    }
}
