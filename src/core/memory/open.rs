//! Opening the files a script names without ever blocking in `open(2)`: a FIFO opened for
//! reading waits for a writer (and for writing, for a reader) until the end of time, and
//! Ctrl-C cannot stop a process inside the call. Every file tensh opens for a script is
//! opened with `O_NONBLOCK`, which makes that open return at once (a FIFO for writing with
//! no reader is refused, `ENXIO`); on regular files and devices the flag changes nothing.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;

/// Opens `path` with `options`, never blocking in the open.
pub fn open(path: impl AsRef<std::path::Path>, options: &mut OpenOptions) -> std::io::Result<File> {
    options.custom_flags(libc::O_NONBLOCK).open(path)
}

/// `File::open`, never blocking.
pub fn open_read(path: impl AsRef<std::path::Path>) -> std::io::Result<File> {
    open(path, OpenOptions::new().read(true))
}

/// `File::create`, never blocking.
pub fn create(path: impl AsRef<std::path::Path>) -> std::io::Result<File> {
    open(
        path,
        OpenOptions::new().write(true).create(true).truncate(true),
    )
}

/// `fs::write`, never blocking in the open.
pub fn write(path: impl AsRef<std::path::Path>, bytes: impl AsRef<[u8]>) -> std::io::Result<()> {
    use std::io::Write;
    create(path)?.write_all(bytes.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_opens_at_once() {
        let dir = std::env::temp_dir().join(format!("tensh-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("f");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: `name` is a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        assert!(open_read(&fifo).is_ok());
        assert!(create(&fifo).is_err(), "no reader: refused, not blocked");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
