//! POSIX shared memory as an OS primitive: a map of `nbytes` that other processes could
//! share. Knows nothing of storages (`storage` uses it to grow shared storages, `mapped` to
//! move a storage into shared memory).

use std::fs::OpenOptions;
use std::sync::atomic::{AtomicUsize, Ordering};

use memmap2::{MmapMut, MmapOptions};

use crate::core::error::{Result, TorchError};
use crate::platform::fs::os_error;

static SHM_COUNTER: AtomicUsize = AtomicUsize::new(0);

/// Reserves `len` bytes of `file`'s pages now (PyTorch does the same): a full `/dev/shm`
/// is PyTorch's error here, where a sparse file would be SIGBUS at the first write to a
/// page that cannot be had.
fn reserve(file: &std::fs::File, len: usize, shm_name: &str) -> Result<()> {
    use std::os::fd::AsRawFd;
    let len = libc::off_t::try_from(len).map_err(|_| {
        TorchError::runtime(format!(
            "unable to allocate shared memory(shm) for file <{shm_name}>: size {len} too large"
        ))
    })?;
    // SAFETY: `file` is open for writing and owns its descriptor for this call; the
    // function only changes the file's allocation and reports through its return value.
    let rc = unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len) };
    if rc != 0 {
        return Err(TorchError::runtime(format!(
            "unable to allocate shared memory(shm) for file <{shm_name}>: {}",
            os_error(&std::io::Error::from_raw_os_error(rc))
        )));
    }
    Ok(())
}

/// `nbytes` of POSIX shared memory: a file in `/dev/shm` (what `shm_open` makes on Linux),
/// unlinked at once so it lives exactly as long as its maps. Falls back to an anonymous
/// shared map where `/dev/shm` is missing.
pub fn shared_memory(nbytes: usize) -> Result<MmapMut> {
    let len = nbytes.max(1);
    let shm_name = format!(
        "/tensh_{}_{}",
        std::process::id(),
        SHM_COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let name = format!("/dev/shm{shm_name}");
    let created = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&name);
    let map = match created {
        Ok(file) => {
            let _ = std::fs::remove_file(&name);
            reserve(&file, len, &shm_name)?;
            // SAFETY: the file was just created and unlinked; only this process's maps can
            // reach it, and bytes are accessed through bounds-checked slices.
            unsafe { MmapOptions::new().len(len).map_mut(&file) }
        }
        Err(_) => MmapOptions::new().len(len).map_anon(),
    };
    map.map_err(|e| TorchError::runtime(format!("unable to map shared memory: {}", os_error(&e))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_that_cannot_be_reserved_are_pytorchs_error_not_a_later_sigbus() {
        // A descriptor that cannot be written stands in for a full /dev/shm: the reservation
        // fails, and the failure is PyTorch's message with the system's reason.
        let path = std::env::temp_dir().join(format!("tensh-reserve-{}", std::process::id()));
        std::fs::write(&path, b"").expect("creates");
        let read_only = std::fs::File::open(&path).expect("opens");
        let e = reserve(&read_only, 4096, "/x").expect_err("not writable");
        assert_eq!(
            e.to_string(),
            "RuntimeError: unable to allocate shared memory(shm) for file </x>: Bad file descriptor (9)"
        );
        let writable = OpenOptions::new().write(true).open(&path).expect("opens");
        reserve(&writable, 4096, "/x").expect("reserves");
        assert_eq!(writable.metadata().expect("metadata").len(), 4096);
        let _ = std::fs::remove_file(&path);
    }
}
