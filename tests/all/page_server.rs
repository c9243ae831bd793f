//! `tensh web`: the page server answers every client while others are idle, slow or hostile,
//! bounds what it reads, serves nothing outside its folder (`..`, encoded names, symbolic
//! links) and sends a file the build compressed to clients that take gzip.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The server process, stopped when the test ends.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &std::path::Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .args(["web", "--port", "0", "--dir"])
        .arg(dir)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    Server { child, port }
}

/// Sends `request` on a new connection and reads the whole answer: (head, body).
fn ask(port: u16, request: &[u8]) -> (String, Vec<u8>) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let end = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(answer.len(), |i| i + 4);
    (
        String::from_utf8_lossy(&answer[..end]).to_string(),
        answer[end..].to_vec(),
    )
}

fn get(port: u16, path: &str, extra: &str) -> (String, Vec<u8>) {
    ask(
        port,
        format!("GET {path} HTTP/1.1\r\nHost: x\r\n{extra}\r\n").as_bytes(),
    )
}

fn page_folder(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tensh-web-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("page")).unwrap();
    std::fs::write(dir.join("page/index.html"), "<p>page</p>").unwrap();
    std::fs::write(dir.join("page/a b.js"), "let a = 1;").unwrap();
    std::fs::write(dir.join("page/app.js"), "plain").unwrap();
    std::fs::write(dir.join("page/app.js.gz"), b"\x1f\x8bpacked").unwrap();
    std::fs::write(dir.join("page/big.bin"), vec![7u8; 32 << 20]).unwrap();
    std::fs::write(dir.join("secret.txt"), "secret").unwrap();
    std::os::unix::fs::symlink(dir.join("secret.txt"), dir.join("page/leak.txt")).unwrap();
    dir
}

#[test]
fn idle_slow_and_hostile_clients_hold_up_no_one() {
    let dir = page_folder("clients");
    let server = serve(&dir.join("page"));
    // A client that connects and says nothing.
    let idle = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    // A client that asks for 32 MiB and never reads.
    let mut stuck = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    stuck
        .write_all(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    // A client that sends headers without end.
    let mut flood = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    flood.write_all(b"GET / HTTP/1.1\r\n").unwrap();
    let mut refused = false;
    for _ in 0..1024 {
        if flood.write_all(&[b'x'; 1024]).is_err() {
            refused = true;
            break;
        }
    }
    let _ = flood.set_read_timeout(Some(Duration::from_secs(30)));
    let mut answer = String::new();
    let _ = flood.read_to_string(&mut answer);
    assert!(
        refused || answer.starts_with("HTTP/1.1 431 "),
        "an endless head was read: {answer:?}"
    );
    // Meanwhile, everyone else is answered.
    for _ in 0..3 {
        let (head, body) = get(server.port, "/", "");
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
        assert_eq!(body, b"<p>page</p>");
    }
    drop((idle, stuck));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nothing_outside_the_folder_is_served_and_names_are_decoded() {
    let dir = page_folder("paths");
    let server = serve(&dir.join("page"));
    for path in [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/..%2Fsecret.txt",
        "/leak.txt",
        "/nothing",
    ] {
        let (head, _) = get(server.port, path, "");
        assert!(head.starts_with("HTTP/1.1 404 "), "{path}: {head}");
    }
    let (head, body) = get(server.port, "/a%20b.js", "");
    assert!(head.starts_with("HTTP/1.1 200 OK"), "{head}");
    assert!(head.contains("Content-Type: text/javascript"), "{head}");
    assert_eq!(body, b"let a = 1;");
    let (head, body) = ask(server.port, b"HEAD / HTTP/1.1\r\n\r\n");
    assert!(head.contains("Content-Length: 11\r\n"), "{head}");
    assert!(body.is_empty());
    let (head, _) = ask(server.port, b"POST / HTTP/1.1\r\n\r\n");
    assert!(head.starts_with("HTTP/1.1 405 "), "{head}");
    let (head, _) = ask(server.port, b"nonsense\r\n\r\n");
    assert!(head.starts_with("HTTP/1.1 400 "), "{head}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_compressed_copy_goes_to_clients_that_take_gzip() {
    let dir = page_folder("gzip");
    let server = serve(&dir.join("page"));
    let (head, body) = get(
        server.port,
        "/app.js",
        "Accept-Encoding: gzip, deflate, br\r\n",
    );
    assert!(head.contains("Content-Encoding: gzip\r\n"), "{head}");
    assert!(head.contains("Content-Type: text/javascript"), "{head}");
    assert_eq!(body, b"\x1f\x8bpacked");
    let (head, body) = get(server.port, "/app.js", "");
    assert!(!head.contains("Content-Encoding"), "{head}");
    assert_eq!(body, b"plain");
    let _ = std::fs::remove_dir_all(&dir);
}
