//! Where bytes live: storages (heap, file maps, shared memory, windows) and the allocation
//! gate that every script-sized allocation passes. Nothing here knows of tensors.

pub mod alloc;
pub mod heap;
pub mod mapped;
pub mod open;
pub mod read;
pub mod shm;
pub mod sigbus;
pub mod storage;
