//! The Jupyter kernel, driven through its sockets as a notebook front end drives it: a
//! kernel process on a connection file of the test's own, a client from
//! `jupyter-zmq-client` with a signing key, no Python anywhere.

#[path = "support/kernel_client.rs"]
mod kernel_client;

use std::process::Command;
use std::time::Duration;

use jupyter_protocol::{
    CompleteRequest, ConnectionInfo, ExecuteRequest, InterruptRequest, JupyterMessage,
    JupyterMessageContent, ReplyStatus, ShutdownRequest,
};
use jupyter_zmq_client::create_client_heartbeat_connection;
use kernel_client::{Client, Kernel, PATIENCE};
use tokio::time::timeout;

fn text_result(outputs: &[JupyterMessageContent]) -> Option<String> {
    outputs.iter().find_map(|o| match o {
        JupyterMessageContent::ExecuteResult(r) => {
            serde_json::to_value(&r.data).unwrap()["text/plain"]
                .as_str()
                .map(str::to_string)
        }
        _ => None,
    })
}

fn stdout(outputs: &[JupyterMessageContent]) -> String {
    outputs
        .iter()
        .filter_map(|o| match o {
            JupyterMessageContent::StreamContent(s) => Some(s.text.clone()),
            _ => None,
        })
        .collect()
}

/// The error a cell's outputs hold.
fn error_of(outputs: &[JupyterMessageContent]) -> jupyter_protocol::ErrorOutput {
    outputs
        .iter()
        .find_map(|o| match o {
            JupyterMessageContent::ErrorOutput(e) => Some(e.clone()),
            _ => None,
        })
        .expect("an error message")
}

fn status(reply: &JupyterMessage) -> ReplyStatus {
    match &reply.content {
        JupyterMessageContent::ExecuteReply(r) => r.status.clone(),
        other => panic!("not an execute reply: {other:?}"),
    }
}

/// A kernel started in a folder of its own (`tensh-NAME-PID`), and a runtime to drive it.
fn kernel_for(
    name: &str,
) -> (
    std::path::PathBuf,
    Kernel,
    ConnectionInfo,
    tokio::runtime::Runtime,
) {
    kernel_for_with(name, &[])
}

/// `kernel_for` with more arguments for the kernel (`--python`).
fn kernel_for_with(
    name: &str,
    extra: &[&str],
) -> (
    std::path::PathBuf,
    Kernel,
    ConnectionInfo,
    tokio::runtime::Runtime,
) {
    let dir = std::env::temp_dir().join(format!("tensh-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (kernel, info) = kernel_client::start_kernel_with(&dir, extra);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    (dir, kernel, info, runtime)
}

#[test]
fn a_notebook_session_through_the_sockets() {
    let (dir, mut kernel, info, runtime) = kernel_for("kernel");
    runtime.block_on(async {
        let mut client = Client::connect(&info).await;
        assert_eq!(client.language, "rhai");

        // Three cells sharing variables: a statement, a printed line and a value.
        let (out, reply) = client
            .execute("let x = torch::arange(6).view(2, 3);")
            .await;
        assert_eq!(status(&reply), ReplyStatus::Ok);
        assert_eq!(text_result(&out), None);
        let (out, _) = client.execute("let y = x.t();\ny.is_contiguous()").await;
        assert_eq!(text_result(&out).as_deref(), Some("false"));
        let (out, reply) = client.execute("print(y.stride());\ny").await;
        assert_eq!(stdout(&out), "[1, 3]\n");
        assert_eq!(
            text_result(&out).as_deref(),
            Some("tensor([[0, 3],\n        [1, 4],\n        [2, 5]])")
        );
        match &reply.content {
            JupyterMessageContent::ExecuteReply(r) => assert_eq!(r.execution_count.0, 3),
            other => panic!("{other:?}"),
        }

        // An error cell: PyTorch's exception type and message.
        let (out, reply) = client.execute("y.view(6)").await;
        assert_eq!(status(&reply), ReplyStatus::Error);
        let error = error_of(&out);
        assert_eq!(error.ename, "RuntimeError");
        assert!(error.evalue.starts_with("view size is not compatible"), "{}", error.evalue);

        // A pasted transcript runs its inputs, as the prompt runs one; a command that fails
        // makes an error cell.
        let (out, reply) = client
            .execute(">>> let z = torch::arange(4);\n>>> z.stride()\n[1]\n>>> z.view(2, 2).t().stride()\n[1, 2]")
            .await;
        assert_eq!(status(&reply), ReplyStatus::Ok);
        assert_eq!(stdout(&out), "[1]\n[1, 2]\n");
        let (out, reply) = client.execute(":explain nope").await;
        assert_eq!(status(&reply), ReplyStatus::Error);
        assert_eq!(error_of(&out).ename, "NameError");
        let (_, reply) = client.execute(":explain").await;
        assert_eq!(status(&reply), ReplyStatus::Error);

        // explain shows its picture beside its text.
        let (out, _) = client.execute("explain(y)").await;
        assert!(stdout(&out).contains("stride (1, 3)"), "{}", stdout(&out));
        let picture = out.iter().find_map(|o| match o {
            JupyterMessageContent::DisplayData(d) => serde_json::to_value(&d.data).unwrap()
                ["image/svg+xml"]
                .as_str()
                .map(str::to_string),
            _ => None,
        });
        assert!(picture.expect("a picture").starts_with("<svg"));

        // An endless cell stops on an interrupt request; the variables stay.
        let id = client.send_execute("loop {}").await;
        loop {
            let m = timeout(PATIENCE, client.iopub.read()).await.unwrap().unwrap();
            if matches!(m.content, JupyterMessageContent::ExecuteInput(_)) {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        // With the running cell's id: jupyter_client's kernel manager and its clients hold
        // copies of one session whose message counts start alike, so ids repeat; only a
        // repeated signature is a replay.
        let mut interrupt: JupyterMessage = InterruptRequest {}.into();
        interrupt.header.msg_id = id.clone();
        client.control.send(interrupt).await.unwrap();
        let answer = timeout(PATIENCE, client.control.read()).await.unwrap().unwrap();
        assert!(matches!(answer.content, JupyterMessageContent::InterruptReply(_)));
        let out = client.outputs_of(&id).await;
        assert!(
            out.iter().any(|o| matches!(o, JupyterMessageContent::ErrorOutput(e) if e.ename == "KeyboardInterrupt")),
            "{out:?}"
        );
        assert_eq!(status(&client.reply_to(&id).await), ReplyStatus::Error);
        let (out, _) = client.execute("x.sum()").await;
        assert_eq!(text_result(&out).as_deref(), Some("tensor(15)"));

        // The heartbeat answers.
        let mut heartbeat = create_client_heartbeat_connection(&info).await.unwrap();
        timeout(PATIENCE, heartbeat.single_heartbeat())
            .await
            .unwrap()
            .unwrap();

        // Shutdown (under an id used before, as jupyter_client may send it): a reply, then
        // the process ends by itself.
        let mut shutdown: JupyterMessage = ShutdownRequest { restart: false }.into();
        shutdown.header.msg_id = id.clone();
        client.control.send(shutdown).await.unwrap();
        let answer = timeout(PATIENCE, client.control.read()).await.unwrap().unwrap();
        assert!(matches!(answer.content, JupyterMessageContent::ShutdownReply(_)));
    });
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        if let Some(status) = kernel.0.try_wait().unwrap() {
            assert!(status.success(), "{status:?}");
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the kernel did not exit"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_python_kernel_runs_python_cells() {
    let (dir, mut kernel, info, runtime) = kernel_for_with("pykernel", &["--python"]);
    runtime.block_on(async {
        let mut client = Client::connect(&info).await;
        // From its first reply on, the Python kernel says it runs Python.
        assert_eq!(client.language, "python");
        let (out, reply) = client
            .execute("import torch\nx = torch.arange(6).view(2, 3)")
            .await;
        assert_eq!(status(&reply), ReplyStatus::Ok);
        assert_eq!(text_result(&out), None);
        let (out, _) = client
            .execute("y = x.t()\nprint(y.stride())\ny.is_contiguous()")
            .await;
        assert_eq!(stdout(&out), "(1, 3)\n");
        assert_eq!(text_result(&out).as_deref(), Some("False"));
        let (out, reply) = client.execute("y.view(6)").await;
        assert_eq!(status(&reply), ReplyStatus::Error);
        let error = error_of(&out);
        assert_eq!(error.ename, "RuntimeError");
        assert!(
            error.evalue.starts_with("view size is not compatible"),
            "{}",
            error.evalue
        );
        assert_eq!(error.traceback[0], "Traceback (most recent call last):");

        // Completion reads Python: `torch.ar` offers `arange(`, a chain its type's methods.
        for (code, wanted) in [("torch.ar", "arange("), ("x.t().is_c", "is_contiguous(")] {
            let request: JupyterMessage = CompleteRequest {
                code: code.to_string(),
                cursor_pos: code.len(),
            }
            .into();
            let id = request.header.msg_id.clone();
            client.shell.send(request).await.unwrap();
            let reply = client.reply_to(&id).await;
            let JupyterMessageContent::CompleteReply(r) = &reply.content else {
                panic!("not a complete_reply: {:?}", reply.content);
            };
            assert!(
                r.matches.iter().any(|m| m == wanted),
                "{code}: {:?}",
                r.matches
            );
        }

        // explain draws in Python too: the text and the picture beside it.
        let (out, reply) = client.execute("explain(x.T)").await;
        assert_eq!(status(&reply), ReplyStatus::Ok);
        assert!(stdout(&out).contains("stride (1, 3)"), "{}", stdout(&out));
        assert!(
            out.iter()
                .any(|o| matches!(o, JupyterMessageContent::DisplayData(_)))
        );
        let shutdown: JupyterMessage = ShutdownRequest { restart: false }.into();
        client.control.send(shutdown).await.unwrap();
        let _ = timeout(PATIENCE, client.control.read()).await;
    });
    let deadline = std::time::Instant::now() + PATIENCE;
    while kernel.0.try_wait().unwrap().is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_connection_file_is_refused_with_a_reason() {
    let dir = std::env::temp_dir().join(format!("tensh-kernel-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.json");
    std::fs::write(&file, "{\"ip\": 1}").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .args(["jupyter", "kernel"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("tensh kernel: not a connection file"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_layout_notebook_is_the_layout_page() {
    let page = std::fs::read_to_string("docs/layout.md").unwrap();
    let committed = std::fs::read_to_string("docs/notebooks/layout.ipynb").unwrap();
    assert!(
        tensh::jupyter::notebook::from_page(&page) == committed,
        "docs/notebooks/layout.ipynb is stale: \
         tensh jupyter notebook docs/layout.md > docs/notebooks/layout.ipynb"
    );
}

/// A cell's outputs in nbformat's JSON, as a front end would save them.
fn nbformat_outputs(outputs: &[JupyterMessageContent]) -> Vec<serde_json::Value> {
    outputs
        .iter()
        .filter_map(|o| match o {
            JupyterMessageContent::StreamContent(s) => Some(serde_json::json!({
                "output_type": "stream", "name": "stdout", "text": s.text,
            })),
            JupyterMessageContent::ExecuteResult(r) => Some(serde_json::json!({
                "output_type": "execute_result",
                "data": { "text/plain": serde_json::to_value(&r.data).unwrap()["text/plain"] },
            })),
            JupyterMessageContent::ErrorOutput(e) => Some(serde_json::json!({
                "output_type": "error", "ename": e.ename, "evalue": e.evalue, "traceback": e.traceback,
            })),
            _ => None,
        })
        .collect()
}

#[test]
fn the_python_notebook_is_the_python_page_and_runs_end_to_end_on_the_python_kernel() {
    let page = std::fs::read_to_string("docs/python.md").unwrap();
    let committed = std::fs::read_to_string("docs/notebooks/python.ipynb").unwrap();
    assert!(
        tensh::jupyter::notebook::from_page(&page) == committed,
        "docs/notebooks/python.ipynb is stale: \
         tensh jupyter notebook docs/python.md > docs/notebooks/python.ipynb"
    );
    let mut notebook: serde_json::Value = serde_json::from_str(&committed).unwrap();
    assert_eq!(notebook["metadata"]["kernelspec"]["name"], "tensh-python");
    let (dir, mut kernel, info, runtime) = kernel_for_with("pynotebook", &["--python"]);
    runtime.block_on(async {
        let mut client = Client::connect(&info).await;
        for cell in notebook["cells"].as_array_mut().unwrap() {
            if cell["cell_type"] != "code" {
                continue;
            }
            let source = cell["source"].as_str().unwrap().to_string();
            let (out, _) = client.execute(&source).await;
            cell["outputs"] = serde_json::Value::Array(nbformat_outputs(&out));
        }
        let shutdown: JupyterMessage = ShutdownRequest { restart: false }.into();
        client.control.send(shutdown).await.unwrap();
        let _ = timeout(PATIENCE, client.control.read()).await;
    });
    let checked = tensh::jupyter::notebook::check(&notebook.to_string());
    assert_eq!(checked, Ok(30), "{checked:?}");
    let deadline = std::time::Instant::now() + PATIENCE;
    while kernel.0.try_wait().unwrap().is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn install_and_uninstall_follow_jupyters_folders() {
    let dir = std::env::temp_dir().join(format!("tensh-kernelspec-{}", std::process::id()));
    let tensh = |args: &[&str], var: &str, value: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_tensh"))
            .args(["jupyter"])
            .args(args)
            .env_remove("JUPYTER_DATA_DIR")
            .env_remove("VIRTUAL_ENV")
            .env_remove("CONDA_PREFIX")
            .env(var, value)
            .output()
            .unwrap()
    };
    let user = dir.join("user");
    let out = tensh(&["install"], "JUPYTER_DATA_DIR", &user);
    assert!(out.status.success(), "{out:?}");
    let spec: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(user.join("kernels/tensh/kernel.json")).unwrap(),
    )
    .unwrap();
    let program = std::path::Path::new(env!("CARGO_BIN_EXE_tensh"))
        .canonicalize()
        .unwrap();
    assert_eq!(spec["argv"][0], program.to_string_lossy().as_ref());
    assert!(
        tensh(&["uninstall", "--user"], "JUPYTER_DATA_DIR", &user)
            .status
            .success()
    );
    assert!(!user.join("kernels/tensh").exists());

    let env = dir.join("venv");
    assert!(
        tensh(&["install", "--sys-prefix"], "VIRTUAL_ENV", &env)
            .status
            .success()
    );
    assert!(
        env.join("share/jupyter/kernels/tensh/logo-64x64.png")
            .is_file()
    );
    assert!(
        tensh(&["uninstall", "--sys-prefix"], "VIRTUAL_ENV", &env)
            .status
            .success()
    );
    let again = tensh(&["uninstall", "--sys-prefix"], "VIRTUAL_ENV", &env);
    assert_eq!(again.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A ZMTP 3.0 greeting (NULL mechanism), then one frame header announcing 2^62 bytes.
fn hostile_frame() -> Vec<u8> {
    let mut bytes = vec![0xff, 0, 0, 0, 0, 0, 0, 0, 1, 0x7f, 3, 0];
    let mut mechanism = b"NULL".to_vec();
    mechanism.resize(20, 0);
    bytes.extend(mechanism);
    bytes.push(0);
    bytes.extend([0u8; 31]);
    assert_eq!(bytes.len(), 64);
    bytes.push(0x02);
    bytes.extend((1u64 << 62).to_be_bytes());
    bytes
}

#[test]
fn a_hostile_peer_neither_kills_the_kernel_nor_replays_a_request() {
    use std::io::Write;
    let (dir, mut kernel, info, runtime) = kernel_for("kernel-hostile");
    runtime.block_on(async {
        let mut client = Client::connect(&info).await;

        // Anyone who can reach a port, before any authentication: a frame of 2^62 bytes.
        let mut peers = Vec::new();
        for port in [info.shell_port, info.control_port, info.hb_port] {
            let mut peer = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
            peer.write_all(&hostile_frame()).unwrap();
            peers.push(peer);
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(kernel.0.try_wait().unwrap().is_none(), "the kernel died");
        let (out, _) = client.execute("let n = 0; n").await;
        assert_eq!(text_result(&out).as_deref(), Some("0"));

        // A signed request sent twice runs once.
        let request: JupyterMessage = ExecuteRequest::new("n += 1;".to_string()).into();
        let id = request.header.msg_id.clone();
        client.shell.send(request.clone()).await.unwrap();
        client.outputs_of(&id).await;
        client.reply_to(&id).await;
        client.shell.send(request).await.unwrap();
        let (out, _) = client.execute("n").await;
        assert_eq!(text_result(&out).as_deref(), Some("1"));

        // Another request under the same id is no replay: its signature is new.
        let mut other: JupyterMessage = ExecuteRequest::new("n += 10;".to_string()).into();
        other.header.msg_id = id.clone();
        client.shell.send(other).await.unwrap();
        client.outputs_of(&id).await;
        client.reply_to(&id).await;
        let (out, _) = client.execute("n").await;
        assert_eq!(text_result(&out).as_deref(), Some("11"));
        drop(peers);
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// The kernel process's peak resident memory, in MiB.
fn peak_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb / 1024
}

#[test]
fn output_nobody_reads_is_bounded_by_the_high_water_mark() {
    let (dir, kernel, info, runtime) = kernel_for("kernel-hwm");
    runtime.block_on(async {
        let mut client = Client::connect(&info).await;
        // 20,000 lines of 100 KB (2 GB) while the client reads nothing from iopub: the
        // queues hold 1000 messages each, so the kernel stays far below what it printed.
        let id = client
            .send_execute(
                r#"let line = "x"; line.pad(100000, "x"); for i in 0..20000 { print(line); } line.len()"#,
            )
            .await;
        let reply = client.reply_to(&id).await;
        assert_eq!(status(&reply), ReplyStatus::Ok);
        let peak = peak_mib(kernel.0.id());
        assert!(peak < 1024, "the kernel peaked at {peak} MiB");
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_client_that_reads_receives_all_output() {
    let (dir, kernel, info, runtime) = kernel_for("kernel-backpressure");
    runtime.block_on(async {
        let mut client = Client::connect(&info).await;
        client.wait_until_ready().await;
        // 2,000 lines of 100 KB (200 MB), printed faster than the client reads them: the
        // cell waits for room in the subscriber's queue, so a client that reads gets
        // every byte (with drops at the high-water mark it got a fraction).
        let id = client
            .send_execute(
                r#"let line = "x"; line.pad(100000, "x"); for i in 0..2000 { print(line); }"#,
            )
            .await;
        // A reader slower than the printing loop: 2 ms per message.
        let mut out = Vec::new();
        loop {
            let m = timeout(PATIENCE, client.iopub.read())
                .await
                .unwrap()
                .unwrap();
            if m.parent_header.as_ref().map(|h| h.msg_id.as_str()) != Some(id.as_str()) {
                continue;
            }
            if let JupyterMessageContent::Status(s) = &m.content
                && s.execution_state == jupyter_protocol::ExecutionState::Idle
            {
                break;
            }
            out.push(m.content);
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let reply = client.reply_to(&id).await;
        assert_eq!(status(&reply), ReplyStatus::Ok);
        let printed = stdout(&out);
        assert_eq!(printed.len(), 2000 * 100_001);
        assert!(printed.bytes().all(|b| b == b'x' || b == b'\n'));
        let peak = peak_mib(kernel.0.id());
        assert!(peak < 1024, "the kernel peaked at {peak} MiB");
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_long_page_becomes_a_notebook_cell_by_cell() {
    // 200,000 small sessions (a 10 MB page): the notebook as one value took 1.5 GB.
    let dir = std::env::temp_dir().join(format!("tensh-long-page-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("long.md");
    let mut text = String::new();
    for i in 0..200_000 {
        text += &format!("Step {i}.\n\n```tensh\n>>> {i} + 1\n{}\n```\n\n", i + 1);
    }
    std::fs::write(&page, text).unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 262144 && exec '{}' jupyter notebook '{}'",
            env!("CARGO_BIN_EXE_tensh"),
            page.display()
        ))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let notebook: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let cells = notebook["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 400_000);
    assert_eq!(cells[399_999]["id"], "cell-400000");
    assert_eq!(cells[399_999]["metadata"]["tensh"]["expected"], "200000");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_kernel_whose_parent_is_gone_ends_even_inside_an_endless_cell() {
    let dir = std::env::temp_dir().join(format!("tensh-orphan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let info = kernel_client::connection_file(&dir);
    // A shell starts the kernel in the background and exits: the kernel's parent is gone
    // while its cell runs.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' jupyter kernel '{}' > /dev/null 2>&1 & echo $!; sleep 3",
            env!("CARGO_BIN_EXE_tensh"),
            dir.join("connection.json").display()
        ))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut client = Client::connect(&info).await;
        client.send_execute("loop {}").await;
    });
    let out = out.wait_with_output().unwrap();
    let pid: u32 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    // Ended: gone, or a zombie waiting for whoever adopted it.
    let running = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| !r.trim_start().starts_with('Z'))
        })
    };
    let deadline = std::time::Instant::now() + PATIENCE;
    while running() {
        assert!(
            std::time::Instant::now() < deadline,
            "the orphaned kernel {pid} still runs"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The kernel process's resident memory now, in KiB.
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn a_long_python_notebook_does_not_grow_the_kernel_cell_by_cell() {
    let (dir, kernel, info, runtime) = kernel_for_with("pycells", &["--python"]);
    runtime.block_on(async {
        let mut client = Client::connect(&info).await;
        let (_, reply) = client.execute("import torch\nw = torch.ones(3)").await;
        assert_eq!(status(&reply), ReplyStatus::Ok);
        // Each cell is new text that defines a function (the last one stays bound), calls
        // ops through it and prints: its source and parsed module must go once nothing
        // refers to them.
        let cell = |i: usize| {
            format!(
                "def f(x, k={i}):\n    \"\"\"cell {i}: {pad}\"\"\"\n    return (x * k + 1).sum()\n\
                 y = [f(w[j:], {i}) for j in range(2)]\nprint(y[0].item() + {i})\n",
                pad = "x".repeat(200)
            )
        };
        let mut after_100 = 0;
        for i in 0..10_000 {
            let (out, reply) = client.execute(&cell(i)).await;
            assert_eq!(status(&reply), ReplyStatus::Ok, "cell {i}");
            assert_eq!(stdout(&out), format!("{}.0\n", 3 * i + 3 + i));
            if i == 99 {
                after_100 = resident_kib(kernel.0.id());
            }
        }
        let after_10_000 = resident_kib(kernel.0.id());
        let grown = after_10_000.saturating_sub(after_100);
        assert!(
            grown <= 5 * 1024,
            "the kernel held {after_100} KiB after 100 cells and {after_10_000} KiB after 10,000"
        );
    });
    let _ = std::fs::remove_dir_all(&dir);
}
