//! Reading one request's head (request line and headers) within bounds: at most
//! [`MAX_HEAD`] bytes, all of it within [`HEAD_TIME`], so neither a slow client nor an
//! endless one holds the server's memory or its time.

use std::io::Read;
use std::time::{Duration, Instant};

/// The longest request head read (the request line and every header).
pub const MAX_HEAD: usize = 16 << 10;
/// How long a client has to send its whole request head.
pub const HEAD_TIME: Duration = Duration::from_secs(10);

/// What was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `HEAD`, ...
    pub method: String,
    /// The target as sent (`/index.html?x=1`).
    pub target: String,
    /// Whether the client takes gzip (`Accept-Encoding`).
    pub gzip: bool,
}

/// Why a head could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Longer than `MAX_HEAD` (431).
    TooLarge,
    /// Not an HTTP request head (400).
    Malformed,
    /// The client was too slow, or went away: nothing is answered.
    Gone,
}

/// A stream whose reads can be given a time limit (a TCP stream; a test's buffer).
pub trait Timed: Read {
    /// Sets the limit of the next reads.
    fn limit_reads(&mut self, limit: Duration) -> std::io::Result<()>;
}

impl Timed for std::net::TcpStream {
    fn limit_reads(&mut self, limit: Duration) -> std::io::Result<()> {
        self.set_read_timeout(Some(limit))
    }
}

/// Reads a request head from `stream`, within the bounds.
pub fn read_head(stream: &mut impl Timed) -> Result<Request, Refusal> {
    let deadline = Instant::now() + HEAD_TIME;
    let mut head: Vec<u8> = Vec::with_capacity(1024);
    let mut chunk = [0u8; 2048];
    loop {
        if let Some(end) = find_end(&head) {
            head.truncate(end);
            return parse(&head);
        }
        if head.len() > MAX_HEAD {
            return Err(Refusal::TooLarge);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Refusal::Gone);
        }
        stream.limit_reads(left).map_err(|_| Refusal::Gone)?;
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return Err(Refusal::Gone),
            Ok(n) => head.extend_from_slice(&chunk[..n]),
        }
    }
}

/// Where the head ends (before its blank line), if it has.
fn find_end(head: &[u8]) -> Option<usize> {
    head.windows(4)
        .position(|w| w == b"\r\n\r\n")
        .or_else(|| head.windows(2).position(|w| w == b"\n\n"))
}

/// The request a complete head asks.
fn parse(head: &[u8]) -> Result<Request, Refusal> {
    let text = std::str::from_utf8(head).map_err(|_| Refusal::Malformed)?;
    let mut lines = text.lines();
    let mut words = lines.next().unwrap_or("").split_whitespace();
    let (Some(method), Some(target), Some(version)) = (words.next(), words.next(), words.next())
    else {
        return Err(Refusal::Malformed);
    };
    if !version.starts_with("HTTP/1.") || words.next().is_some() {
        return Err(Refusal::Malformed);
    }
    let gzip = lines.any(|line| {
        line.split_once(':').is_some_and(|(name, value)| {
            name.trim().eq_ignore_ascii_case("accept-encoding")
                && value
                    .split(',')
                    .any(|coding| coding.split(';').next().unwrap_or("").trim() == "gzip")
        })
    });
    Ok(Request {
        method: method.to_string(),
        target: target.to_string(),
        gzip,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Bytes(std::io::Cursor<Vec<u8>>);

    impl Read for Bytes {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.0.read(buf)
        }
    }

    impl Timed for Bytes {
        fn limit_reads(&mut self, _: Duration) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn read(text: &[u8]) -> Result<Request, Refusal> {
        read_head(&mut Bytes(std::io::Cursor::new(text.to_vec())))
    }

    #[test]
    fn a_head_gives_method_target_and_encodings() {
        let r =
            read(b"GET /a.wasm?v=1 HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br, gzip;q=0.9\r\n\r\n")
                .unwrap();
        assert_eq!(
            (r.method.as_str(), r.target.as_str(), r.gzip),
            ("GET", "/a.wasm?v=1", true)
        );
        assert!(
            !read(b"GET / HTTP/1.1\r\nAccept-Encoding: br\r\n\r\n")
                .unwrap()
                .gzip
        );
    }

    #[test]
    fn long_broken_and_unfinished_heads_are_refused() {
        let mut long = b"GET / HTTP/1.1\r\n".to_vec();
        long.extend(std::iter::repeat_n(b'x', 1 << 20));
        assert_eq!(read(&long), Err(Refusal::TooLarge));
        assert_eq!(read(b"hello\r\n\r\n"), Err(Refusal::Malformed));
        assert_eq!(read(b"GET / HTTP/1.1\r\nHost: x\r\n"), Err(Refusal::Gone));
    }
}
