//! The page's shared memory (`shm.rs` natively): there is no other process to share with, so
//! `share_memory_` moves a storage into an anonymous buffer of the platform's maps, which
//! reports itself shared as PyTorch's does.

use crate::core::error::{Result, TorchError};
use crate::platform::fs::os_error;
use crate::platform::map::{self, MapMut};

/// `nbytes` of "shared" memory (at least one byte, as natively).
pub fn shared_memory(nbytes: usize) -> Result<MapMut> {
    map::anonymous(nbytes.max(1))
        .map_err(|e| TorchError::runtime(format!("unable to map shared memory: {}", os_error(&e))))
}
