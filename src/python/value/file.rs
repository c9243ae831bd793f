//! A Python file object: one `open()` returned (a file on disk), or an `io.BytesIO` /
//! `io.StringIO` (bytes in memory). Both read, write and seek alike, so `torch.save` and
//! `torch.load` take either.

use std::io::{Cursor, Read, Seek, SeekFrom, Write};

/// Where a file object's bytes are.
pub enum Backing {
    /// A file on disk.
    Disk(crate::platform::fs::File),
    /// Bytes in memory, with the position reads and writes start at.
    Memory(Cursor<Vec<u8>>),
}

impl Read for Backing {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Backing::Disk(f) => f.read(buf),
            Backing::Memory(c) => c.read(buf),
        }
    }
}

impl Write for Backing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Backing::Disk(f) => f.write(buf),
            Backing::Memory(c) => c.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Backing::Disk(f) => f.flush(),
            Backing::Memory(c) => c.flush(),
        }
    }
}

impl Seek for Backing {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        match self {
            Backing::Disk(f) => f.seek(pos),
            Backing::Memory(c) => c.seek(pos),
        }
    }
}

/// A file object.
pub struct PyFile {
    /// The path as given (`open()`'s), empty for one in memory.
    pub name: String,
    /// Its bytes, until `close()`.
    pub file: Option<Backing>,
    /// It reads and writes bytes (`b` in `open()`'s mode, or a `BytesIO`), not text.
    pub binary: bool,
    /// It lives in memory (`io.BytesIO`, `io.StringIO`).
    pub memory: bool,
}

impl PyFile {
    /// A file on disk, open.
    pub fn disk(name: &str, file: crate::platform::fs::File, binary: bool) -> PyFile {
        PyFile {
            name: name.to_string(),
            file: Some(Backing::Disk(file)),
            binary,
            memory: false,
        }
    }

    /// A file in memory holding `bytes`, positioned at its start.
    pub fn memory(bytes: Vec<u8>, binary: bool) -> PyFile {
        PyFile {
            name: String::new(),
            file: Some(Backing::Memory(Cursor::new(bytes))),
            binary,
            memory: true,
        }
    }

    /// The class name `type(f).__name__` gives.
    pub fn type_name(&self) -> &'static str {
        match (self.memory, self.binary) {
            (true, true) => "BytesIO",
            (true, false) => "StringIO",
            (false, true) => "BufferedWriter",
            (false, false) => "TextIOWrapper",
        }
    }
}
