//! Storages over memory maps: files (`from_file`, shared or private) and POSIX shared memory
//! (`share_memory_`), through memmap2.

use std::fs::OpenOptions;
use std::sync::atomic::{AtomicUsize, Ordering};

use memmap2::{MmapMut, MmapOptions};

use super::error::{Result, TorchError};
use super::storage::Storage;

fn os_error(e: &std::io::Error) -> String {
    let code = e.raw_os_error().unwrap_or(0);
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text).to_string();
    format!("{text} ({code})")
}

/// `UntypedStorage.from_file(filename, shared, nbytes)`: a shared map writes through to the
/// file (created, and extended to `nbytes`, when needed); a private map is copy-on-write and
/// never changes the file. `nbytes == 0` gives an empty storage, as in PyTorch.
pub fn from_file(filename: &str, shared: bool, nbytes: usize) -> Result<Storage> {
    let mode = if shared { "read-write" } else { "read-only" };
    let file = OpenOptions::new()
        .read(true)
        .write(shared)
        .create(shared)
        .truncate(false)
        .open(filename)
        .map_err(|e| {
            TorchError::runtime(format!(
                "unable to open file <{filename}> in {mode} mode: {}",
                os_error(&e)
            ))
        })?;
    let size = file.metadata().map(|m| m.len() as usize).unwrap_or(0);
    if size < nbytes {
        if shared {
            file.set_len(nbytes as u64).map_err(|e| {
                TorchError::runtime(format!(
                    "unable to resize file <{filename}> to the right size: {}",
                    os_error(&e)
                ))
            })?;
        } else {
            return Err(TorchError::runtime(format!(
                "file <{filename}> size <{size}> is smaller than the required mapping size <{nbytes}>"
            )));
        }
    }
    if nbytes == 0 {
        let map = MmapOptions::new()
            .len(1)
            .map_anon()
            .map_err(|e| TorchError::runtime(os_error(&e)))?;
        return Ok(Storage::mapped(
            map,
            0,
            shared.then(|| filename.to_string()),
            false,
        ));
    }
    // SAFETY: memmap2 maps are unsafe because another process may change the file under the
    // map. tensh reads and writes the map only as bytes (every value is valid for u8), through
    // bounds-checked slices, so a concurrent change can alter values but never memory safety.
    let map = unsafe {
        if shared {
            MmapOptions::new().len(nbytes).map_mut(&file)
        } else {
            MmapOptions::new().len(nbytes).map_copy(&file)
        }
    }
    .map_err(|e| {
        TorchError::runtime(format!(
            "unable to mmap {nbytes} bytes from file <{filename}>: {}",
            os_error(&e)
        ))
    })?;
    Ok(Storage::mapped(
        map,
        nbytes,
        shared.then(|| filename.to_string()),
        false,
    ))
}

static SHM_COUNTER: AtomicUsize = AtomicUsize::new(0);

/// `nbytes` of POSIX shared memory: a file in `/dev/shm` (what `shm_open` makes on Linux),
/// unlinked at once so it lives exactly as long as its maps. Falls back to an anonymous
/// shared map where `/dev/shm` is missing.
pub fn shared_memory(nbytes: usize) -> Result<MmapMut> {
    let len = nbytes.max(1);
    let name = format!(
        "/dev/shm/tensh_{}_{}",
        std::process::id(),
        SHM_COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let created = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&name);
    let map = match created {
        Ok(file) => {
            let _ = std::fs::remove_file(&name);
            file.set_len(len as u64).map_err(|e| {
                TorchError::runtime(format!("unable to size shared memory: {}", os_error(&e)))
            })?;
            // SAFETY: the file was just created and unlinked; only this process's maps can
            // reach it, and bytes are accessed through bounds-checked slices.
            unsafe { MmapOptions::new().len(len).map_mut(&file) }
        }
        Err(_) => MmapOptions::new().len(len).map_anon(),
    };
    map.map_err(|e| TorchError::runtime(format!("unable to map shared memory: {}", os_error(&e))))
}

/// `storage.share_memory_()`: moves the bytes into shared memory (no-op when already shared).
pub fn share_memory(storage: &Storage) -> Result<()> {
    if storage.is_shared() {
        return Ok(());
    }
    let map = shared_memory(storage.nbytes())?;
    storage.move_into(map);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_and_private_file_maps() {
        let dir = std::env::temp_dir().join(format!("tensh-mapped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.bin");
        let p = path.to_str().unwrap();
        let s = from_file(p, true, 8).unwrap();
        s.with_bytes_mut(|b| b.fill(7));
        assert_eq!(std::fs::read(&path).unwrap(), vec![7; 8]);
        let r = from_file(p, false, 8).unwrap();
        r.with_bytes_mut(|b| b.fill(1));
        assert_eq!(std::fs::read(&path).unwrap(), vec![7; 8]);
        assert!(from_file(p, false, 9).is_err());
        assert!(from_file(dir.join("missing").to_str().unwrap(), false, 1).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sparse_multi_gib_file_maps_without_reading() {
        let dir = std::env::temp_dir().join(format!("tensh-sparse-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.bin");
        let nbytes = 8usize << 30;
        let f = std::fs::File::create(&path).unwrap();
        f.set_len(nbytes as u64).unwrap();
        let s = from_file(path.to_str().unwrap(), false, nbytes).unwrap();
        assert_eq!(s.nbytes(), nbytes);
        assert_eq!(s.byte(nbytes - 1), Some(0));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn empty_storages_stay_empty_when_shared() {
        let s = Storage::from_vec(vec![]);
        share_memory(&s).unwrap();
        assert_eq!(s.nbytes(), 0);
        s.resize(3).unwrap();
        assert_eq!(s.to_vec(), vec![0, 0, 0]);
    }

    #[test]
    fn share_memory_keeps_bytes() {
        let s = Storage::from_vec(vec![1, 2, 3]);
        share_memory(&s).unwrap();
        assert!(s.is_shared());
        assert_eq!(s.to_vec(), vec![1, 2, 3]);
    }
}
