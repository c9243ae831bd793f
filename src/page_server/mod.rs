//! `tensh web [--port N] [--dir DIR]`: serves the built playground page (`web/build` makes
//! it, in `web/dist`) on 127.0.0.1, for use on this machine. Plain HTTP/1.1, GET and HEAD
//! only. Each connection is served on a thread of its own (at most [`MAX_CONNECTIONS`] at
//! once), its request head bounded in size and time (`request`) and its answer in time
//! ([`WRITE_TIME`]), so no client can hold up another; nothing outside the page's folder is
//! ever served, through `..`, encoded names or symbolic links (`files`). A file the build
//! compressed beside itself (`FILE.gz`) is sent compressed to a client that takes gzip.

pub mod files;
pub mod request;

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use request::Refusal;

use crate::ops::output;

/// The port `tensh web` takes without `--port`.
pub const DEFAULT_PORT: u16 = 8432;
/// Connections served at once; one more is answered 503 and closed.
pub const MAX_CONNECTIONS: usize = 64;
/// How long one write of an answer may wait for a client that does not read.
pub const WRITE_TIME: Duration = Duration::from_secs(30);

/// Where the built page is looked for without `--dir`: `web/dist` under the current folder,
/// then under the source tree tensh was built from.
fn default_dir() -> PathBuf {
    let here = PathBuf::from("web/dist");
    if here.join("index.html").is_file() {
        return here;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("web/dist")
}

/// The status line and headers of an answer.
fn head(status: &str, kind: &str, length: u64, gzip: bool) -> String {
    let encoding = if gzip {
        "Content-Encoding: gzip\r\n"
    } else {
        ""
    };
    format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {length}\r\n{encoding}\
         Vary: Accept-Encoding\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n"
    )
}

/// A short answer with a text body.
fn plain(stream: &mut TcpStream, status: &str, body: &str, with_body: bool) -> std::io::Result<()> {
    stream.write_all(head(status, "text/plain", body.len() as u64, false).as_bytes())?;
    if with_body {
        stream.write_all(body.as_bytes())?;
    }
    stream.flush()
}

/// Answers one connection.
fn answer(stream: &mut TcpStream, root: &Path) -> std::io::Result<()> {
    stream.set_write_timeout(Some(WRITE_TIME))?;
    let request = match request::read_head(stream) {
        Ok(r) => r,
        Err(Refusal::TooLarge) => {
            return plain(
                stream,
                "431 Request Header Fields Too Large",
                "too large\n",
                true,
            );
        }
        Err(Refusal::Malformed) => return plain(stream, "400 Bad Request", "bad request\n", true),
        Err(Refusal::Gone) => return Ok(()),
    };
    let with_body = request.method != "HEAD";
    if request.method != "GET" && request.method != "HEAD" {
        return plain(stream, "405 Method Not Allowed", "GET only\n", true);
    }
    let Some(file) = files::resolve(root, &request.target) else {
        return plain(stream, "404 Not Found", "not found\n", with_body);
    };
    let packed = request.gzip.then(|| files::gzipped(root, &file)).flatten();
    let sent = packed.as_deref().unwrap_or(&file);
    let Ok(mut body) = std::fs::File::open(sent) else {
        return plain(stream, "404 Not Found", "not found\n", with_body);
    };
    let length = body.metadata()?.len();
    let kind = files::media_type(&file);
    stream.write_all(head("200 OK", kind, length, packed.is_some()).as_bytes())?;
    if with_body {
        std::io::copy(&mut body, stream)?;
    }
    stream.flush()
}

/// Serves `listener`'s connections from `root` (a canonical path) until the process ends.
pub fn serve(listener: TcpListener, root: PathBuf) {
    let root = Arc::new(root);
    let open = Arc::new(AtomicUsize::new(0));
    for mut stream in listener.incoming().flatten() {
        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::SeqCst);
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = plain(&mut stream, "503 Service Unavailable", "busy\n", true);
            continue;
        }
        let (served_root, served) = (root.clone(), open.clone());
        let spawned = std::thread::Builder::new()
            .name("tensh-web".into())
            .stack_size(256 << 10)
            .spawn(move || {
                let _ = answer(&mut stream, &served_root);
                served.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            open.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Runs `tensh web ARGS`; the exit status.
pub fn main(args: &[String]) -> i32 {
    let mut port = DEFAULT_PORT;
    let mut dir = None;
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match (a.as_str(), rest.next()) {
            ("--port", Some(n)) if n.parse::<u16>().is_ok() => port = n.parse().unwrap_or(port),
            ("--dir", Some(d)) => dir = Some(PathBuf::from(d)),
            _ => {
                output::stderr_text("usage: tensh web [--port N] [--dir DIR]\n");
                return 2;
            }
        }
    }
    let dir = dir.unwrap_or_else(default_dir);
    let root = match dir.canonicalize() {
        Ok(root) if root.join("index.html").is_file() => root,
        _ => {
            output::stderr_text(&format!(
                "tensh web: no built page in {} (build it with web/build, or name its folder with --dir)\n",
                dir.display()
            ));
            return 1;
        }
    };
    let listener = match TcpListener::bind(("127.0.0.1", port)) {
        Ok(l) => l,
        Err(e) => {
            output::stderr_text(&format!(
                "tensh web: cannot listen on 127.0.0.1:{port}: {e}\n"
            ));
            return 1;
        }
    };
    let port = listener.local_addr().map_or(port, |a| a.port());
    output::stdout_text(&format!(
        "Serving the tensh page from {} at http://127.0.0.1:{port}/ (Ctrl-C to stop)\n",
        root.display()
    ));
    serve(listener, root);
    0
}
