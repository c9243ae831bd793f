//! Files a script names: the system's, or in the page the in-memory file system (`memfs`),
//! through one set of names with `std::fs`'s shapes.
//!
//! Natively, every file tensh opens for a script is opened without ever blocking in
//! `open(2)`: a FIFO opened for reading waits for a writer (and for writing, for a reader)
//! until the end of time, and Ctrl-C cannot stop a process inside the call. `O_NONBLOCK`
//! makes that open return at once (a FIFO for writing with no reader is refused, `ENXIO`); on
//! regular files and devices the flag changes nothing.

use std::io;
use std::path::Path;

#[cfg(target_arch = "wasm32")]
pub use super::memfs::{File, OpenOptions};
#[cfg(not(target_arch = "wasm32"))]
pub use std::fs::{File, OpenOptions};

/// Opens `path` with `options`, never blocking in the open.
pub fn open(path: impl AsRef<Path>, options: &mut OpenOptions) -> io::Result<File> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK).open(path)
    }
    #[cfg(target_arch = "wasm32")]
    options.open(path)
}

/// `File::open`, never blocking.
pub fn open_read(path: impl AsRef<Path>) -> io::Result<File> {
    open(path, OpenOptions::new().read(true))
}

/// `File::create`, never blocking.
pub fn create(path: impl AsRef<Path>) -> io::Result<File> {
    open(
        path,
        OpenOptions::new().write(true).create(true).truncate(true),
    )
}

/// `fs::write`, never blocking in the open.
pub fn write(path: impl AsRef<Path>, bytes: impl AsRef<[u8]>) -> io::Result<()> {
    use std::io::Write;
    create(path)?.write_all(bytes.as_ref())
}

/// `fs::read_to_string`.
pub fn read_to_string(path: impl AsRef<Path>) -> io::Result<String> {
    use std::io::Read;
    let mut text = String::new();
    open_read(path)?.read_to_string(&mut text)?;
    Ok(text)
}

/// The size in bytes of the file at `path`.
pub fn len(path: impl AsRef<Path>) -> io::Result<u64> {
    #[cfg(not(target_arch = "wasm32"))]
    return std::fs::metadata(path).map(|m| m.len());
    #[cfg(target_arch = "wasm32")]
    return super::memfs::len(path.as_ref());
}

/// Whether something is at `path`.
pub fn exists(path: impl AsRef<Path>) -> bool {
    #[cfg(not(target_arch = "wasm32"))]
    return path.as_ref().exists();
    #[cfg(target_arch = "wasm32")]
    return super::memfs::len(path.as_ref()).is_ok() || super::memfs::is_dir(path.as_ref());
}

/// Whether `path` is a folder (in the page: made by `create_dir`, or holding a file).
pub fn is_dir(path: impl AsRef<Path>) -> bool {
    #[cfg(not(target_arch = "wasm32"))]
    return path.as_ref().is_dir();
    #[cfg(target_arch = "wasm32")]
    return super::memfs::is_dir(path.as_ref());
}

/// `fs::remove_file`.
pub fn remove_file(path: impl AsRef<Path>) -> io::Result<()> {
    #[cfg(not(target_arch = "wasm32"))]
    return std::fs::remove_file(path);
    #[cfg(target_arch = "wasm32")]
    return super::memfs::remove(path.as_ref());
}

/// Whether `path` is a regular file (in the page, whether a file has that name).
pub fn is_file(path: impl AsRef<Path>) -> bool {
    #[cfg(not(target_arch = "wasm32"))]
    return path.as_ref().is_file();
    #[cfg(target_arch = "wasm32")]
    return super::memfs::len(path.as_ref()).is_ok();
}

/// `fs::create_dir`.
pub fn create_dir(path: impl AsRef<Path>) -> io::Result<()> {
    #[cfg(not(target_arch = "wasm32"))]
    return std::fs::create_dir(path);
    #[cfg(target_arch = "wasm32")]
    return super::memfs::create_dir(path.as_ref());
}

/// `fs::remove_dir`: an empty folder removed.
pub fn remove_dir(path: impl AsRef<Path>) -> io::Result<()> {
    #[cfg(not(target_arch = "wasm32"))]
    return std::fs::remove_dir(path);
    #[cfg(target_arch = "wasm32")]
    return super::memfs::remove_dir(path.as_ref());
}

/// The names of the entries of the folder `path`, in the order the system lists them.
pub fn list_dir(path: impl AsRef<Path>) -> io::Result<Vec<String>> {
    #[cfg(not(target_arch = "wasm32"))]
    return std::fs::read_dir(path)?
        .map(|entry| entry.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    #[cfg(target_arch = "wasm32")]
    return {
        let path = path.as_ref();
        if super::memfs::len(path).is_ok() {
            Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                "Not a directory",
            ))
        } else if !super::memfs::is_dir(path) {
            Err(io::Error::new(
                io::ErrorKind::NotFound,
                "No such file or directory",
            ))
        } else {
            Ok(super::memfs::names_under(path))
        }
    };
}

/// `fs::rename`: `to` replaced if it is a file.
pub fn rename(from: impl AsRef<Path>, to: impl AsRef<Path>) -> io::Result<()> {
    #[cfg(not(target_arch = "wasm32"))]
    return std::fs::rename(from, to);
    #[cfg(target_arch = "wasm32")]
    return super::memfs::rename(from.as_ref(), to.as_ref());
}

/// What identifies the file behind an open handle: two handles with one id reach the same
/// bytes (device and inode; in the page, the in-memory file's number).
pub fn file_id(file: &File) -> io::Result<(u64, u64)> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::os::unix::fs::MetadataExt;
        let m = file.metadata()?;
        Ok((m.dev(), m.ino()))
    }
    #[cfg(target_arch = "wasm32")]
    Ok((0, file.id()))
}

/// The system's error number of `e` (the in-memory file system's errors carry none: theirs
/// is the number the system would have given).
pub fn error_code(e: &io::Error) -> i32 {
    e.raw_os_error().unwrap_or(match e.kind() {
        io::ErrorKind::NotFound => 2,
        io::ErrorKind::PermissionDenied => 13,
        io::ErrorKind::AlreadyExists => 17,
        io::ErrorKind::NotADirectory => 20,
        io::ErrorKind::IsADirectory => 21,
        io::ErrorKind::DirectoryNotEmpty => 39,
        io::ErrorKind::InvalidInput => 22,
        _ => 0,
    })
}

/// An OS error as PyTorch words it: the text, then the code in parentheses.
pub fn os_error(e: &io::Error) -> String {
    let code = error_code(e);
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text).to_string();
    format!("{text} ({code})")
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

    #[test]
    fn errors_read_as_pytorch_says_them() {
        let e = open_read("/no/such/tensh/file").unwrap_err();
        assert_eq!(os_error(&e), "No such file or directory (2)");
        assert_eq!(error_code(&io::Error::from(io::ErrorKind::NotFound)), 2);
    }
}
