//! Memory maps: of a file (shared, writing through, or private, copy-on-write) and anonymous
//! ones. Natively these are `memmap2` maps. In the page a map is a buffer of its own kept in
//! step with its in-memory file: `sync_in` before the bytes are read, `sync_out` after they
//! are written (both do nothing natively, where the system keeps a map and its file one).

#[cfg(not(target_arch = "wasm32"))]
pub use memmap2::MmapMut as MapMut;

/// Maps the first `len` bytes of `file` (which is at least that long): `shared` writes go to
/// the file, private ones never do.
#[cfg(not(target_arch = "wasm32"))]
pub fn map_file(file: &super::fs::File, shared: bool, len: usize) -> std::io::Result<MapMut> {
    use memmap2::MmapOptions;
    // SAFETY: memmap2 maps are unsafe because another process may change the file under the
    // map. tensh reads and writes the map only as bytes (every value is valid for u8), through
    // bounds-checked slices, so a concurrent change can alter values but never memory safety.
    // A file truncated below the map would fault (SIGBUS) on access: the storage keeps the
    // file (`FileOrigin`) and checks its size before handing out the bytes, and a truncation
    // in the middle of an access is answered by the SIGBUS guard (`core::memory::sigbus`).
    // Two maps of one file alias; `Storage::shares_memory` knows them by `fs::file_id`.
    unsafe {
        if shared {
            MmapOptions::new().len(len).map_mut(file)
        } else {
            MmapOptions::new().len(len).map_copy(file)
        }
    }
}

/// An anonymous private map of `len` zero bytes.
#[cfg(not(target_arch = "wasm32"))]
pub fn anonymous(len: usize) -> std::io::Result<MapMut> {
    memmap2::MmapOptions::new().len(len).map_anon()
}

/// Brings the map's bytes up to date with its file (natively they are the file's).
#[cfg(not(target_arch = "wasm32"))]
#[inline]
pub fn sync_in(_: &mut MapMut) {}

/// Writes the map's bytes through to its file, if it is a shared file map.
#[cfg(not(target_arch = "wasm32"))]
#[inline]
pub fn sync_out(_: &MapMut) {}

#[cfg(target_arch = "wasm32")]
pub use page::{MapMut, anonymous, map_file, sync_in, sync_out};

/// The page's maps (compiled everywhere so that their tests run natively).
pub mod page {
    use std::io;
    use std::ops::{Deref, DerefMut};
    use std::rc::Rc;

    use super::super::memfs::Node;

    /// A map's bytes, and the in-memory file a shared map writes through to.
    #[derive(Debug)]
    pub struct MapMut {
        bytes: Vec<u8>,
        file: Option<Rc<Node>>,
    }

    impl Deref for MapMut {
        type Target = [u8];
        fn deref(&self) -> &[u8] {
            &self.bytes
        }
    }

    impl DerefMut for MapMut {
        fn deref_mut(&mut self) -> &mut [u8] {
            &mut self.bytes
        }
    }

    /// A map of the first `len` bytes of `file`'s bytes.
    pub fn map_file(
        file: &super::super::memfs::File,
        shared: bool,
        len: usize,
    ) -> io::Result<MapMut> {
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(len)
            .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
        bytes.resize(len, 0);
        let node = file.node();
        if !node.read_into(&mut bytes) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "Invalid argument",
            ));
        }
        Ok(MapMut {
            bytes,
            file: shared.then_some(node),
        })
    }

    /// `len` zero bytes of no file.
    pub fn anonymous(len: usize) -> io::Result<MapMut> {
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(len)
            .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
        bytes.resize(len, 0);
        Ok(MapMut { bytes, file: None })
    }

    /// Reads a shared map's file into it (left as it was when the file has become shorter:
    /// the storage then hands out no bytes, see `Storage`'s `live_len`).
    pub fn sync_in(map: &mut MapMut) {
        if let Some(node) = &map.file {
            let _ = node.read_into(&mut map.bytes);
        }
    }

    /// Writes a shared map's bytes to its file.
    pub fn sync_out(map: &MapMut) {
        if let Some(node) = &map.file {
            node.write_from(&map.bytes);
        }
    }

    #[cfg(test)]
    mod tests {
        use super::super::super::memfs;
        use super::*;

        #[test]
        fn a_shared_page_map_writes_through_and_a_private_one_does_not() {
            let path = "/tmp/page-map-test.bin";
            memfs::put(path, vec![1, 2, 3, 4]);
            let file = memfs::File::open(path).unwrap();
            let mut shared = map_file(&file, true, 4).unwrap();
            let mut private = map_file(&file, false, 4).unwrap();
            shared[0] = 9;
            sync_out(&shared);
            private[1] = 8;
            sync_out(&private);
            assert_eq!(memfs::get(path).unwrap(), vec![9, 2, 3, 4]);
            memfs::put(path, vec![5; 4]);
            sync_in(&mut shared);
            assert_eq!(
                &shared[..],
                &[9, 2, 3, 4],
                "a replaced name leaves the map its bytes"
            );
            assert!(map_file(&file, false, 5).is_err());
            assert_eq!(&anonymous(2).unwrap()[..], &[0, 0]);
        }
    }
}
