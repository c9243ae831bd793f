//! `tensh web [--port N] [--dir DIR]`: serves the built playground page (`web/build` makes
//! it, in `web/dist`) on 127.0.0.1, for use on this machine. Plain HTTP/1.1, GET and HEAD
//! only, one connection at a time; nothing outside the page's folder is ever served.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use crate::script::output;

/// The port `tensh web` takes without `--port`.
pub const DEFAULT_PORT: u16 = 8432;

/// Where the built page is looked for without `--dir`: `web/dist` under the current folder,
/// then under the source tree tensh was built from.
fn default_dir() -> PathBuf {
    let here = PathBuf::from("web/dist");
    if here.join("index.html").is_file() {
        return here;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("web/dist")
}

/// The media type a file is served with.
fn media_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

/// The file a request's path names inside `root`, or `None` for a path that would leave
/// it (`..`, absolute parts) or names nothing.
pub fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("");
    let mut file = root.to_path_buf();
    for part in Path::new(path.trim_start_matches('/')).components() {
        match part {
            Component::Normal(p) => file.push(p),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    file.is_file().then_some(file)
}

fn answer(stream: &mut TcpStream, root: &Path) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // The headers are read and ignored.
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }
    let mut words = request_line.split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or("/"));
    let respond = |stream: &mut TcpStream, status: &str, kind: &str, body: &[u8], head: bool| {
        let headers = format!(
            "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
            body.len()
        );
        stream.write_all(headers.as_bytes())?;
        if !head {
            stream.write_all(body)?;
        }
        stream.flush()
    };
    if method != "GET" && method != "HEAD" {
        return respond(
            stream,
            "405 Method Not Allowed",
            "text/plain",
            b"GET only\n",
            false,
        );
    }
    match resolve(root, target).and_then(|f| std::fs::read(&f).ok().map(|b| (f, b))) {
        Some((file, body)) => respond(stream, "200 OK", media_type(&file), &body, method == "HEAD"),
        None => respond(
            stream,
            "404 Not Found",
            "text/plain",
            b"not found\n",
            method == "HEAD",
        ),
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
    let root = dir.unwrap_or_else(default_dir);
    if !root.join("index.html").is_file() {
        output::stderr_text(&format!(
            "tensh web: no built page in {} (build it with web/build, or name its folder with --dir)\n",
            root.display()
        ));
        return 1;
    }
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
    for mut stream in listener.incoming().flatten() {
        let _ = answer(&mut stream, &root);
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_never_leave_the_page_folder() {
        let root = std::env::temp_dir().join(format!("tensh-page-{}", std::process::id()));
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("index.html"), "page").unwrap();
        std::fs::write(root.join("sub/a.js"), "js").unwrap();
        assert_eq!(resolve(&root, "/"), Some(root.join("index.html")));
        assert_eq!(resolve(&root, "/sub/a.js?x=1"), Some(root.join("sub/a.js")));
        assert_eq!(resolve(&root, "/../etc/passwd"), None);
        assert_eq!(resolve(&root, "/sub/../../x"), None);
        assert_eq!(resolve(&root, "/missing"), None);
        assert_eq!(media_type(Path::new("x.wasm")), "application/wasm");
        let _ = std::fs::remove_dir_all(&root);
    }
}
