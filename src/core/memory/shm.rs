//! POSIX shared memory as an OS primitive: a map of `nbytes` that other processes could
//! share. Knows nothing of storages (`storage` uses it to grow shared storages, `mapped` to
//! move a storage into shared memory).

use std::fs::OpenOptions;
use std::sync::atomic::{AtomicUsize, Ordering};

use memmap2::{MmapMut, MmapOptions};

use crate::core::error::{Result, TorchError};

/// An OS error as PyTorch words it: the text, then the code in parentheses.
pub fn os_error(e: &std::io::Error) -> String {
    let code = e.raw_os_error().unwrap_or(0);
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text).to_string();
    format!("{text} ({code})")
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
