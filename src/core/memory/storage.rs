//! An untyped, shared, possibly resizable buffer of bytes: what `torch.UntypedStorage` is.
//!
//! A `Storage` is a cheap handle; clones share the same bytes, so a write through one tensor
//! is seen through every tensor and buffer over the same storage. All access goes through
//! `with_bytes`/`with_bytes_mut`, which hand out bounds-checked slices: no element is ever
//! read or written outside the buffer.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::core::error::{Result, TorchError};
use crate::platform::map::{self, MapMut};

/// Where a storage's bytes live.
#[derive(Debug)]
pub enum Backing {
    /// Bytes owned by the storage on the heap.
    Heap(Vec<u8>),
    /// A memory map of a file or of POSIX shared memory (`from_file`, `share_memory_`).
    /// Never resizable.
    Mapped {
        /// The SIGBUS guard of a file map (see `sigbus`). Declared before `map` so that it
        /// is dropped, and the guard removed, before the map is unmapped.
        fault_guard: Option<super::sigbus::Registration>,
        /// The mapping; shared maps write through to the file, private ones never do.
        map: MapMut,
        /// Bytes of the map that belong to the storage (a map is never empty, a storage may be).
        len: usize,
        /// The file name, for shared file maps (`storage.filename`).
        filename: Option<String>,
        /// Whether this is shared memory (`is_shared()`).
        shared_memory: bool,
        /// The file mapped, for file maps (`from_file`).
        origin: Option<FileOrigin>,
    },
    /// A fixed window `[start, start + len)` of another storage's bytes (what `frombuffer`
    /// with an offset or count makes). Never resizable.
    Window {
        /// The storage whose bytes these are.
        parent: Storage,
        /// First byte in the parent.
        start: usize,
        /// Length in bytes.
        len: usize,
    },
}

/// The file behind a file map: kept open so that its size can be checked before the map is
/// touched, and identified by device and inode so that two maps of one file are known to
/// share memory.
#[derive(Debug)]
pub struct FileOrigin {
    file: crate::platform::fs::File,
    id: (u64, u64),
}

impl FileOrigin {
    /// The origin of a map of `file`.
    pub fn new(file: crate::platform::fs::File) -> std::io::Result<FileOrigin> {
        let id = crate::platform::fs::file_id(&file)?;
        Ok(FileOrigin { file, id })
    }

    /// Whether the file still covers `len` bytes. Touching a page of a map past the end of
    /// its file raises SIGBUS; a file another process truncated is refused here instead
    /// (the check and the access are not atomic: a truncation in between is caught by the
    /// SIGBUS guard, `sigbus`).
    fn covers(&self, len: usize) -> bool {
        self.file.metadata().is_ok_and(|m| m.len() >= len as u64)
    }
}

/// How many of a map's `len` bytes may be touched: all of them, or none once the mapped
/// file shrank below the map.
fn live_len(len: usize, origin: &Option<FileOrigin>) -> usize {
    if origin.as_ref().is_none_or(|o| o.covers(len)) {
        len
    } else {
        0
    }
}

impl Backing {
    /// The bytes of a root backing (a window has none of its own). A file map whose file
    /// shrank below it has no bytes: every kernel's bounds check then refuses it.
    fn own(&self) -> &[u8] {
        match self {
            Backing::Heap(v) => v,
            Backing::Mapped {
                map, len, origin, ..
            } => &map[..live_len(*len, origin)],
            Backing::Window { .. } => &[],
        }
    }

    fn own_mut(&mut self) -> &mut [u8] {
        match self {
            Backing::Heap(v) => v,
            Backing::Mapped {
                map, len, origin, ..
            } => &mut map[..live_len(*len, origin)],
            Backing::Window { .. } => &mut [],
        }
    }

    /// Writes a map's bytes through to its file where the platform keeps them apart
    /// (`platform::map::sync_out`; nothing natively).
    #[inline]
    fn sync_out(&self) {
        if let Backing::Mapped { map, .. } = self {
            map::sync_out(map);
        }
    }

    /// Brings a map's bytes up to date with its file (see `sync_out`). A file that became
    /// shorter than the map leaves them as they were: `live_len` then hands out none.
    #[cfg(target_arch = "wasm32")]
    fn sync_in(&mut self) {
        if let Backing::Mapped { map, .. } = self {
            map::sync_in(map);
        }
    }

    /// The (device, inode) of a mapped file.
    fn file_id(&self) -> Option<(u64, u64)> {
        match self {
            Backing::Mapped {
                origin: Some(o), ..
            } => Some(o.id),
            _ => None,
        }
    }
}

#[derive(Debug)]
struct StorageCell {
    backing: RefCell<Backing>,
    resizable: Cell<bool>,
}

/// A shared handle to a storage's bytes. Equality of handles is identity (`is_same`).
#[derive(Debug, Clone)]
pub struct Storage(Rc<StorageCell>);

impl Storage {
    /// A new resizable heap storage of `nbytes` zero bytes, or the out-of-memory error.
    pub fn zeroed(nbytes: usize) -> Result<Storage> {
        Ok(Storage::from_vec(super::alloc::zeroed_bytes(nbytes)?))
    }

    /// A new resizable heap storage owning these bytes.
    pub fn from_vec(bytes: Vec<u8>) -> Storage {
        Storage(Rc::new(StorageCell {
            backing: RefCell::new(Backing::Heap(bytes)),
            resizable: Cell::new(true),
        }))
    }

    /// A storage over a buffer that belongs to someone else (a script's `bytearray`): shared
    /// like any storage, but not resizable by torch.
    pub fn external(bytes: Vec<u8>) -> Storage {
        Storage::fixed(bytes)
    }

    /// A storage of these bytes that `resize_` refuses: what `torch.load` makes of a record
    /// (PyTorch's loaded storages are not resizable).
    pub fn fixed(bytes: Vec<u8>) -> Storage {
        let s = Storage::from_vec(bytes);
        s.0.resizable.set(false);
        s
    }

    /// A storage over a memory map.
    /// `len` is the storage's size; the map must be at least that long.
    pub fn mapped(
        map: MapMut,
        len: usize,
        filename: Option<String>,
        shared_memory: bool,
        origin: Option<FileOrigin>,
    ) -> Storage {
        let len = len.min(map.len());
        // Only a file can be truncated under its map by another process.
        let fault_guard = origin
            .as_ref()
            .and_then(|_| super::sigbus::register(map.as_ptr(), map.len()));
        Storage(Rc::new(StorageCell {
            backing: RefCell::new(Backing::Mapped {
                fault_guard,
                map,
                len,
                filename,
                shared_memory,
                origin,
            }),
            resizable: Cell::new(false),
        }))
    }

    /// Moves the bytes into `map` in place (`share_memory_`): every tensor over this storage
    /// now reads and writes the new memory. The map must be at least as long.
    pub fn move_into(&self, mut map: MapMut) {
        let bytes = self.to_vec();
        let len = bytes.len().min(map.len());
        map[..len].copy_from_slice(&bytes[..len]);
        *self.0.backing.borrow_mut() = Backing::Mapped {
            fault_guard: None,
            map,
            len,
            filename: None,
            shared_memory: true,
            origin: None,
        };
    }

    /// The file a shared file map was made from.
    pub fn filename(&self) -> Option<String> {
        match &*self.0.backing.borrow() {
            Backing::Mapped { filename, .. } => filename.clone(),
            // A window is a storage of its own over part of another's memory: as PyTorch's
            // storage slices, it has no file name and is not reported as shared.
            Backing::Window { .. } | Backing::Heap(_) => None,
        }
    }

    /// Whether the bytes live in shared memory (`is_shared()`): shared memory or a shared
    /// file map.
    pub fn is_shared(&self) -> bool {
        match &*self.0.backing.borrow() {
            // PyTorch reports every mapped storage as shared, private file maps included.
            Backing::Mapped { .. } => true,
            Backing::Window { .. } | Backing::Heap(_) => false,
        }
    }

    /// A storage over `len` bytes of this one from `start`: shares memory, not resizable.
    pub fn window(&self, start: usize, len: usize) -> Storage {
        let (parent, start) = match &*self.0.backing.borrow() {
            Backing::Window {
                parent, start: s, ..
            } => (parent.clone(), s + start),
            _ => (self.clone(), start),
        };
        Storage(Rc::new(StorageCell {
            backing: RefCell::new(Backing::Window { parent, start, len }),
            resizable: Cell::new(false),
        }))
    }

    /// The storage that owns the memory (itself unless this is a window).
    fn root(&self) -> Storage {
        match &*self.0.backing.borrow() {
            Backing::Window { parent, .. } => parent.clone(),
            _ => self.clone(),
        }
    }

    /// Whether the two storages may be backed by the same memory: the same storage, windows
    /// of it, or two maps of one file (the same pages at two addresses). Kernels use this
    /// to copy a source aside before writing, so that no slice is ever read while the same
    /// bytes are written through another.
    pub fn shares_memory(&self, other: &Storage) -> bool {
        let (a, b) = (self.root(), other.root());
        if Rc::ptr_eq(&a.0, &b.0) {
            return true;
        }
        let id = |s: &Storage| s.0.backing.borrow().file_id();
        matches!((id(&a), id(&b)), (Some(x), Some(y)) if x == y)
    }

    /// Size in bytes.
    pub fn nbytes(&self) -> usize {
        self.with_bytes(|b| b.len())
    }

    /// Whether `resize_` may change this storage.
    pub fn resizable(&self) -> bool {
        self.0.resizable.get()
    }

    /// The address of the first byte; 0 for an empty storage, as PyTorch reports.
    pub fn data_ptr(&self) -> usize {
        self.with_bytes(|bytes| {
            if bytes.is_empty() {
                0
            } else {
                bytes.as_ptr() as usize
            }
        })
    }

    /// A number naming this storage while it lives: equal for two handles exactly when
    /// `is_same` holds (a key to group tensors by storage).
    pub fn identity(&self) -> usize {
        Rc::as_ptr(&self.0).cast::<()>() as usize
    }

    /// Whether two handles name the same storage.
    pub fn is_same(&self, other: &Storage) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    /// The storage that owns these bytes and where they start in it: a window's parent
    /// (always a root) and the window's start; any other storage, itself and 0.
    pub fn root_and_start(&self) -> (Storage, usize) {
        match &*self.0.backing.borrow() {
            Backing::Window { parent, start, .. } => (parent.clone(), *start),
            _ => (self.clone(), 0),
        }
    }

    /// A shared borrow of a root storage's bytes that lasts as long as the guard, for
    /// writers that hand slices to another library (safetensors) without copying them.
    /// Invariant: no script code runs while a guard lives, so nothing writes or resizes the
    /// storage meanwhile. A window has no bytes of its own: borrow its `root_and_start()` instead
    /// (asked of a window, this is empty).
    pub fn borrow_root_bytes(&self) -> std::cell::Ref<'_, [u8]> {
        #[cfg(target_arch = "wasm32")]
        self.sync_in();
        std::cell::Ref::map(self.0.backing.borrow(), |b| match b {
            Backing::Window { .. } => &[][..],
            root => root.own(),
        })
    }

    /// Runs `f` on the bytes. Must not be nested inside `with_bytes_mut` of the same storage;
    /// the kernels take one borrow per storage and handle self-overlap explicitly.
    #[inline]
    pub fn with_bytes<R>(&self, f: impl FnOnce(&[u8]) -> R) -> R {
        let mut f = Some(f);
        let mut r = None;
        self.visit_bytes(&mut |b| r = f.take().map(|f| f(b)));
        // `visit_bytes` calls its visitor exactly once.
        r.unwrap_or_else(|| unreachable!("visit_bytes did not call its visitor"))
    }

    /// Runs `f` on the bytes, mutably. See `with_bytes` for the nesting rule.
    #[inline]
    pub fn with_bytes_mut<R>(&self, f: impl FnOnce(&mut [u8]) -> R) -> R {
        let mut f = Some(f);
        let mut r = None;
        self.visit_bytes_mut(&mut |b| r = f.take().map(|f| f(b)));
        // `visit_bytes_mut` calls its visitor exactly once.
        r.unwrap_or_else(|| unreachable!("visit_bytes_mut did not call its visitor"))
    }

    /// Calls `visit` once with the bytes (the borrow behind `with_bytes`, compiled once
    /// rather than once per caller's closure).
    fn visit_bytes(&self, visit: &mut dyn FnMut(&[u8])) {
        #[cfg(target_arch = "wasm32")]
        self.sync_in();
        match &*self.0.backing.borrow() {
            // A window's parent is always a root (see `window`), never another window.
            Backing::Window { parent, start, len } => visit(
                parent
                    .0
                    .backing
                    .borrow()
                    .own()
                    .get(*start..start + len)
                    .unwrap_or(&[]),
            ),
            root => visit(root.own()),
        }
    }

    /// Calls `visit` once with the bytes, mutably.
    fn visit_bytes_mut(&self, visit: &mut dyn FnMut(&mut [u8])) {
        #[cfg(target_arch = "wasm32")]
        self.sync_in();
        match &mut *self.0.backing.borrow_mut() {
            Backing::Window { parent, start, len } => {
                let mut root = parent.0.backing.borrow_mut();
                visit(
                    root.own_mut()
                        .get_mut(*start..*start + *len)
                        .unwrap_or(&mut []),
                );
                root.sync_out();
            }
            root => {
                visit(root.own_mut());
                root.sync_out();
            }
        }
    }

    /// Brings a map of an in-memory file up to date with the file before its bytes are
    /// used (the page's maps are copies: `platform::map`). Skipped while the storage is
    /// borrowed, by an access that already did it.
    #[cfg(target_arch = "wasm32")]
    fn sync_in(&self) {
        let root = self.root();
        if let Ok(mut backing) = root.0.backing.try_borrow_mut() {
            backing.sync_in();
        }
    }

    /// A copy of all bytes in a buffer from `alloc` (PyTorch's error if there is no room).
    pub fn copy_bytes(&self) -> Result<Vec<u8>> {
        self.with_bytes(super::alloc::copied_bytes)
    }

    /// A copy of all bytes (for small storages: reprs and lists, bounded by their limits).
    pub fn to_vec(&self) -> Vec<u8> {
        self.with_bytes(|b| b.to_vec())
    }

    /// A copy of all bytes, or PyTorch's out-of-memory error when there is no room for it
    /// (for copies a script asks for, whatever the storage's size).
    pub fn try_to_vec(&self) -> Result<Vec<u8>> {
        self.with_bytes(|b| {
            let mut v = super::alloc::vec_with_capacity(b.len())?;
            v.extend_from_slice(b);
            Ok(v)
        })
    }

    /// Changes the size to `nbytes`, keeping the common prefix and zero-filling growth.
    pub fn resize(&self, nbytes: usize) -> Result<()> {
        if !self.resizable() {
            return Err(TorchError::runtime(
                "Trying to resize storage that is not resizable",
            ));
        }
        match &mut *self.0.backing.borrow_mut() {
            Backing::Heap(v) => super::alloc::grow_zeroed(v, nbytes)?,
            Backing::Mapped {
                map,
                len,
                shared_memory: true,
                ..
            } => {
                let mut bigger = super::shm::shared_memory(nbytes)?;
                let keep = nbytes.min(*len);
                bigger[..keep].copy_from_slice(&map[..keep]);
                *map = bigger;
                *len = nbytes;
            }
            _ => {
                return Err(TorchError::runtime(
                    "Trying to resize storage that is not resizable",
                ));
            }
        }
        Ok(())
    }

    /// Reads byte `i`, if it exists.
    pub fn byte(&self, i: usize) -> Option<u8> {
        self.with_bytes(|b| b.get(i).copied())
    }

    /// Writes byte `i`; false when out of range.
    pub fn set_byte(&self, i: usize, value: u8) -> bool {
        self.with_bytes_mut(|b| match b.get_mut(i) {
            Some(slot) => {
                *slot = value;
                true
            }
            None => false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_and_resizable() {
        let s = Storage::zeroed(4).unwrap();
        let t = s.clone();
        assert!(t.set_byte(1, 7));
        assert_eq!(s.to_vec(), vec![0, 7, 0, 0]);
        assert!(s.is_same(&t));
        s.resize(6).unwrap();
        assert_eq!(t.nbytes(), 6);
        assert!(!t.set_byte(6, 1));
        assert_eq!(Storage::zeroed(0).unwrap().data_ptr(), 0);
        let e = Storage::external(vec![1]);
        assert!(e.resize(2).is_err());
        let w = s.window(1, 2);
        assert_eq!(w.to_vec(), vec![7, 0]);
        assert!(w.shares_memory(&s) && !w.is_same(&s));
        assert_eq!(w.data_ptr(), s.data_ptr() + 1);
    }
}
