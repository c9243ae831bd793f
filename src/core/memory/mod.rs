//! Where bytes live: storages (heap, file maps, shared memory, windows) and the allocation
//! gate that every script-sized allocation passes. Nothing here knows of tensors.

pub mod alloc;
pub mod mapped;
pub mod read;
#[cfg_attr(target_arch = "wasm32", path = "page_shm.rs")]
pub mod shm;
#[cfg_attr(target_arch = "wasm32", path = "page_sigbus.rs")]
pub mod sigbus;
pub mod storage;
