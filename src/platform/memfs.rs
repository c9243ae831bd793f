//! The page's file system: files held in memory by path, so that a lesson that saves, loads
//! and maps files runs in the browser as it does natively. There are no folders: any path
//! names a file (`/tmp/x.pt` needs no `/tmp`). A file's bytes are shared by every handle
//! and map of it, as an inode's are; removing or replacing the name leaves open handles
//! with the bytes they had.
//!
//! Compiled on every target (its tests run natively); only the page uses it (`fs`).

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::rc::Rc;

/// One file's bytes (what an inode is to a native file).
#[derive(Debug)]
pub struct Node {
    id: u64,
    bytes: RefCell<Vec<u8>>,
}

impl Node {
    /// The file's size in bytes.
    pub fn len(&self) -> usize {
        self.bytes.borrow().len()
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Copies the file's first `dst.len()` bytes into `dst`; false (and `dst` unchanged) when
    /// the file is shorter.
    pub fn read_into(&self, dst: &mut [u8]) -> bool {
        match self.bytes.borrow().get(..dst.len()) {
            Some(src) => {
                dst.copy_from_slice(src);
                true
            }
            None => false,
        }
    }

    /// Writes `src` over the file's first bytes, as far as the file reaches.
    pub fn write_from(&self, src: &[u8]) {
        let mut bytes = self.bytes.borrow_mut();
        let n = src.len().min(bytes.len());
        bytes[..n].copy_from_slice(&src[..n]);
    }
}

#[derive(Default)]
struct Table {
    files: BTreeMap<String, Rc<Node>>,
    /// Folders made by `create_dir` (a folder holding a file is there without being made;
    /// the root, `.` and `/tmp` are always there).
    dirs: std::collections::BTreeSet<String>,
    next_id: u64,
}

thread_local! {
    static TABLE: RefCell<Table> = RefCell::new(Table::default());
}

/// The table's key for a path: `./a` and `a` are one file.
fn key(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut text = text.as_ref();
    while let Some(rest) = text.strip_prefix("./") {
        text = rest;
    }
    text.to_string()
}

fn not_found() -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, "No such file or directory")
}

fn bad_descriptor() -> io::Error {
    io::Error::other("Bad file descriptor")
}

fn lookup(path: &Path) -> Option<Rc<Node>> {
    TABLE.with(|t| t.borrow().files.get(&key(path)).cloned())
}

/// Makes (or replaces) the file at `path` with these bytes; the new file.
fn insert(path: &Path, bytes: Vec<u8>) -> Rc<Node> {
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        t.next_id += 1;
        let node = Rc::new(Node {
            id: t.next_id,
            bytes: RefCell::new(bytes),
        });
        t.files.insert(key(path), node.clone());
        node
    })
}

/// Makes (or replaces) the file at `path` with these bytes: how the page hands a file in.
pub fn put(path: &str, bytes: Vec<u8>) {
    insert(Path::new(path), bytes);
}

/// Removes every file and folder (a fresh session's file system).
pub fn clear() {
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        t.files.clear();
        t.dirs.clear();
    });
}

/// `key` with a `/` after it: what every name inside the folder `key` starts with.
fn inside(key: &str) -> String {
    match key {
        "" | "." => String::new(),
        k if k.ends_with('/') => k.to_string(),
        k => format!("{k}/"),
    }
}

impl Table {
    fn is_dir(&self, key: &str) -> bool {
        if matches!(key, "" | "." | "/" | "/tmp") || self.dirs.contains(key) {
            return true;
        }
        let prefix = inside(key);
        self.files.keys().any(|k| k.starts_with(&prefix))
            || self.dirs.iter().any(|d| d.starts_with(&prefix))
    }

    /// Whether `key`'s folder is there (a name at the top is in the root).
    fn parent_is_dir(&self, key: &str) -> bool {
        match key.trim_end_matches('/').rsplit_once('/') {
            Some((parent, _)) => self.is_dir(if parent.is_empty() { "/" } else { parent }),
            None => true,
        }
    }
}

/// Whether `path` is a folder.
pub fn is_dir(path: &Path) -> bool {
    TABLE.with(|t| t.borrow().is_dir(&key(path)))
}

/// Makes the folder `path` (its own folder must be there).
pub fn create_dir(path: &Path) -> io::Result<()> {
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        let k = key(path);
        if t.files.contains_key(&k) || t.is_dir(&k) {
            return Err(io::Error::new(io::ErrorKind::AlreadyExists, "File exists"));
        }
        if !t.parent_is_dir(&k) {
            return Err(not_found());
        }
        t.dirs.insert(k);
        Ok(())
    })
}

/// Removes the empty folder `path`.
pub fn remove_dir(path: &Path) -> io::Result<()> {
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        let k = key(path);
        if t.files.contains_key(&k) {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                "Not a directory",
            ));
        }
        if !t.is_dir(&k) {
            return Err(not_found());
        }
        let prefix = inside(&k);
        if t.files.keys().any(|f| f.starts_with(&prefix))
            || t.dirs.iter().any(|d| d.starts_with(&prefix))
        {
            return Err(io::Error::new(
                io::ErrorKind::DirectoryNotEmpty,
                "Directory not empty",
            ));
        }
        t.dirs.remove(&k);
        Ok(())
    })
}

/// A copy of the bytes of the file at `path`.
pub fn get(path: &str) -> Option<Vec<u8>> {
    lookup(Path::new(path)).map(|n| n.bytes.borrow().clone())
}

/// The size of the file at `path`.
pub fn len(path: &Path) -> io::Result<u64> {
    lookup(path).map(|n| n.len() as u64).ok_or_else(not_found)
}

/// Removes the name `path`.
pub fn remove(path: &Path) -> io::Result<()> {
    TABLE.with(|t| {
        t.borrow_mut()
            .files
            .remove(&key(path))
            .map(drop)
            .ok_or_else(not_found)
    })
}

/// The first component of every name under the folder `path` (a file `d/a/b` gives `a`
/// for `d`), each once.
pub fn names_under(path: &Path) -> Vec<String> {
    let prefix = inside(&key(path));
    TABLE.with(|t| {
        let mut out: Vec<String> = Vec::new();
        let t = t.borrow();
        for name in t.files.keys().chain(t.dirs.iter()) {
            if let Some(rest) = name.strip_prefix(&prefix) {
                let first = rest.split('/').next().unwrap_or(rest).to_string();
                if !first.is_empty() && !out.contains(&first) {
                    out.push(first);
                }
            }
        }
        out
    })
}

/// Gives the file at `from` the name `to` (replacing a file there).
pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        let node = t.files.remove(&key(from)).ok_or_else(not_found)?;
        t.files.insert(key(to), node);
        Ok(())
    })
}

/// How to open a file: `std::fs::OpenOptions`'s builder.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    read: bool,
    write: bool,
    append: bool,
    truncate: bool,
    create: bool,
    create_new: bool,
}

impl OpenOptions {
    /// Nothing allowed yet.
    pub fn new() -> OpenOptions {
        OpenOptions::default()
    }
    /// Open for reading.
    pub fn read(&mut self, on: bool) -> &mut OpenOptions {
        self.read = on;
        self
    }
    /// Open for writing.
    pub fn write(&mut self, on: bool) -> &mut OpenOptions {
        self.write = on;
        self
    }
    /// Every write goes to the end.
    pub fn append(&mut self, on: bool) -> &mut OpenOptions {
        self.append = on;
        self
    }
    /// Empty the file on opening.
    pub fn truncate(&mut self, on: bool) -> &mut OpenOptions {
        self.truncate = on;
        self
    }
    /// Make the file if missing.
    pub fn create(&mut self, on: bool) -> &mut OpenOptions {
        self.create = on;
        self
    }
    /// Make the file, refusing one that exists.
    pub fn create_new(&mut self, on: bool) -> &mut OpenOptions {
        self.create_new = on;
        self
    }

    /// Opens `path` as the options say.
    pub fn open(&self, path: impl AsRef<Path>) -> io::Result<File> {
        let path = path.as_ref();
        let writes = self.write || self.append;
        if !self.read && !writes {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "Invalid argument",
            ));
        }
        let node = match lookup(path) {
            Some(_) if self.create_new => {
                return Err(io::Error::new(io::ErrorKind::AlreadyExists, "File exists"));
            }
            Some(node) => node,
            None if TABLE.with(|t| {
                let t = t.borrow();
                !t.parent_is_dir(&key(path)) || t.is_dir(&key(path))
            }) =>
            {
                // No folder to make it in, or a folder there.
                return Err(not_found());
            }
            None if writes && (self.create || self.create_new) => insert(path, Vec::new()),
            None => return Err(not_found()),
        };
        if self.truncate && writes {
            node.bytes.borrow_mut().clear();
        }
        Ok(File {
            node,
            pos: Cell::new(0),
            read: self.read,
            write: writes,
            append: self.append,
        })
    }
}

/// The size of a file, as `std::fs::Metadata` gives it.
#[derive(Debug, Clone, Copy)]
pub struct Metadata {
    len: u64,
}

impl Metadata {
    /// The size in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }
    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// An open file: its bytes and a cursor.
#[derive(Debug)]
pub struct File {
    node: Rc<Node>,
    pos: Cell<u64>,
    read: bool,
    write: bool,
    append: bool,
}

impl File {
    /// Opens `path` for reading.
    pub fn open(path: impl AsRef<Path>) -> io::Result<File> {
        OpenOptions::new().read(true).open(path)
    }

    /// The file's size.
    pub fn metadata(&self) -> io::Result<Metadata> {
        Ok(Metadata {
            len: self.node.len() as u64,
        })
    }

    /// Makes the file `len` bytes long (zeros added, or the end cut).
    pub fn set_len(&self, len: u64) -> io::Result<()> {
        if !self.write {
            return Err(bad_descriptor());
        }
        let len = usize::try_from(len).map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
        let mut bytes = self.node.bytes.borrow_mut();
        let have = bytes.len();
        if len > have {
            bytes
                .try_reserve_exact(len - have)
                .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
        }
        bytes.resize(len, 0);
        Ok(())
    }

    /// The number of the file's bytes (two handles of one file share it).
    pub fn id(&self) -> u64 {
        self.node.id
    }

    /// The bytes this handle reads and writes.
    pub fn node(&self) -> Rc<Node> {
        self.node.clone()
    }

    /// Reads from `offset` into `buf` without moving the cursor; the count read.
    pub fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        if !self.read {
            return Err(bad_descriptor());
        }
        let bytes = self.node.bytes.borrow();
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        let n = buf.len().min(bytes.len() - start);
        buf[..n].copy_from_slice(&bytes[start..start + n]);
        Ok(n)
    }
}

impl Read for File {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.read_at(buf, self.pos.get())?;
        self.pos.set(self.pos.get() + n as u64);
        Ok(n)
    }
}

impl Write for File {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.write {
            return Err(bad_descriptor());
        }
        let mut bytes = self.node.bytes.borrow_mut();
        if self.append {
            self.pos.set(bytes.len() as u64);
        }
        let start = usize::try_from(self.pos.get())
            .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
        let end = start
            .checked_add(buf.len())
            .ok_or_else(|| io::Error::from(io::ErrorKind::OutOfMemory))?;
        let have = bytes.len();
        if end > have {
            bytes
                .try_reserve(end - have)
                .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
            bytes.resize(end, 0);
        }
        bytes[start..end].copy_from_slice(buf);
        self.pos.set(end as u64);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Seek for File {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let len = self.node.len() as i128;
        let at = match to {
            SeekFrom::Start(n) => n as i128,
            SeekFrom::End(d) => len + d as i128,
            SeekFrom::Current(d) => self.pos.get() as i128 + d as i128,
        };
        let at = u64::try_from(at)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "Invalid argument"))?;
        self.pos.set(at);
        Ok(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_shared_by_their_handles() {
        let path = "/tmp/memfs-test-shared.bin";
        let mut w = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .unwrap();
        w.write_all(b"hello").unwrap();
        let mut r = File::open(format!("./{path}").trim_start_matches("./")).unwrap();
        let mut text = String::new();
        r.read_to_string(&mut text).unwrap();
        assert_eq!(text, "hello");
        assert_eq!(r.id(), w.id());
        w.set_len(8).unwrap();
        assert_eq!(len(Path::new(path)).unwrap(), 8);
        let mut buf = [9u8; 4];
        assert_eq!(r.read_at(&mut buf, 6).unwrap(), 2);
        assert_eq!(buf, [0, 0, 9, 9]);
        r.seek(SeekFrom::End(-3)).unwrap();
        assert!(r.write(b"x").is_err(), "read-only handle");
        remove(Path::new(path)).unwrap();
        assert!(File::open(path).is_err());
        assert_eq!(
            w.metadata().unwrap().len(),
            8,
            "an open handle keeps its bytes"
        );
    }

    #[test]
    fn opening_follows_the_options() {
        let path = "memfs-test-options.bin";
        assert_eq!(
            File::open(path).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        put(path, vec![1, 2, 3]);
        let e = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        let mut a = OpenOptions::new().append(true).open(path).unwrap();
        a.write_all(&[4]).unwrap();
        assert_eq!(get(path).unwrap(), vec![1, 2, 3, 4]);
        let node = a.node();
        let mut two = [0u8; 2];
        assert!(node.read_into(&mut two));
        node.write_from(&[7, 7, 7, 7, 7, 7]);
        assert_eq!(get(path).unwrap(), vec![7; 4]);
        assert!(OpenOptions::new().open(path).is_err(), "no access asked");
    }

    #[test]
    fn folders_are_made_listed_and_removed() {
        let dir = Path::new("/tmp/memfs-test-dir");
        assert!(!is_dir(dir));
        assert_eq!(
            OpenOptions::new()
                .write(true)
                .create(true)
                .open(dir.join("a.bin"))
                .unwrap_err()
                .kind(),
            io::ErrorKind::NotFound,
            "no folder to make the file in"
        );
        create_dir(dir).unwrap();
        assert_eq!(
            create_dir(dir).unwrap_err().kind(),
            io::ErrorKind::AlreadyExists
        );
        assert_eq!(
            create_dir(&dir.join("x/y")).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        create_dir(&dir.join("sub")).unwrap();
        put("/tmp/memfs-test-dir/a.bin", vec![1]);
        let mut names = names_under(dir);
        names.sort();
        assert_eq!(names, ["a.bin", "sub"]);
        assert_eq!(
            remove_dir(dir).unwrap_err().kind(),
            io::ErrorKind::DirectoryNotEmpty
        );
        assert_eq!(
            remove_dir(&dir.join("a.bin")).unwrap_err().kind(),
            io::ErrorKind::NotADirectory
        );
        rename(&dir.join("a.bin"), &dir.join("sub/b.bin")).unwrap();
        assert_eq!(get("/tmp/memfs-test-dir/sub/b.bin").unwrap(), vec![1]);
        remove(&dir.join("sub/b.bin")).unwrap();
        remove_dir(&dir.join("sub")).unwrap();
        remove_dir(dir).unwrap();
        assert!(!is_dir(dir));
        assert!(
            is_dir(Path::new("/tmp")),
            "the temporary folder is always there"
        );
    }
}
