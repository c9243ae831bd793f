//! A file truncated under a live map, mid-operation: the SIGBUS guard.
//!
//! Touching a page of a file map past the end of its file raises SIGBUS, which kills the
//! process. Storages check the file's size before handing out its bytes
//! (`storage::FileOrigin::covers`), which refuses a file truncated between two statements;
//! this module covers the rest, a truncation by another process *during* an operation.
//! Each file map registers its address range here; a SIGBUS inside a registered range is
//! answered by mapping zero pages over the lost page, so the faulting read or write
//! completes (reading zeros, or writing to memory that no longer reaches the file) and
//! the next access to the storage finds the file short and refuses it. A SIGBUS anywhere
//! else goes to the handler that was installed before (Rust's own), or kills the process
//! as it would have.
//!
//! The handler may only touch async-signal-safe state: the registry is a fixed array of
//! atomics, and the only call it makes is `mmap`, a plain system call.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How many file maps can be guarded at once; maps beyond it are still checked between
/// statements, only not mid-operation.
const SLOTS: usize = 512;

/// Slot `i` guards `[STARTS[i], STARTS[i] + LENS[i])` when `STARTS[i] != 0`.
static STARTS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
static LENS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
/// Claimed slots (a slot is claimed before its range is published).
static CLAIMED: [AtomicBool; SLOTS] = [const { AtomicBool::new(false) }; SLOTS];
/// Set by the handler when it replaced a page.
static FAULTED: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();
static PAGE: AtomicUsize = AtomicUsize::new(4096);

/// The action that was installed for SIGBUS before ours, to chain to.
static mut PREVIOUS: Option<libc::sigaction> = None;

/// A guarded address range; dropping it removes the guard (before the map is unmapped).
#[derive(Debug)]
pub struct Registration {
    slot: usize,
}

impl Drop for Registration {
    fn drop(&mut self) {
        STARTS[self.slot].store(0, Ordering::Release);
        LENS[self.slot].store(0, Ordering::Release);
        CLAIMED[self.slot].store(false, Ordering::Release);
    }
}

/// Guards the `len` bytes at `start` (a live file map); `None` when every slot is taken or
/// the range is empty.
pub fn register(start: *const u8, len: usize) -> Option<Registration> {
    if len == 0 || start.is_null() {
        return None;
    }
    INSTALL.call_once(install);
    let slot = (0..SLOTS).find(|&i| {
        CLAIMED[i]
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    })?;
    LENS[slot].store(len, Ordering::Release);
    STARTS[slot].store(start as usize, Ordering::Release);
    Some(Registration { slot })
}

/// Whether the handler replaced a page since the last call (and clears it).
pub fn take_fault() -> bool {
    FAULTED.swap(false, Ordering::AcqRel)
}

fn install() {
    // SAFETY: `sysconf` has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if page > 0 {
        PAGE.store(page as usize, Ordering::Relaxed);
    }
    // SAFETY: a zeroed `sigaction` is a valid value to fill in; `sigaction` is given valid
    // pointers; `PREVIOUS` is written here once (inside `Once`), before the handler that
    // reads it can run.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigbus as *const () as usize;
        action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        libc::sigemptyset(&mut action.sa_mask);
        let mut previous: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGBUS, &action, &mut previous) == 0 {
            PREVIOUS = Some(previous);
        }
    }
}

/// The guarded range holding `addr`, if any.
fn guarded(addr: usize) -> bool {
    (0..SLOTS).any(|i| {
        let start = STARTS[i].load(Ordering::Acquire);
        start != 0 && addr >= start && addr - start < LENS[i].load(Ordering::Acquire)
    })
}

extern "C" fn on_sigbus(sig: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid `siginfo_t` to an SA_SIGINFO handler.
    let addr = unsafe { (*info).si_addr() } as usize;
    if guarded(addr) {
        let page = PAGE.load(Ordering::Relaxed);
        let at = addr & !(page - 1);
        // SAFETY: the page lies inside a live map tensh owns (it is registered until the map
        // is dropped); replacing it with a private zero page keeps the address range mapped
        // and valid for bytes, so the faulting access completes when the handler returns.
        let r = unsafe {
            libc::mmap(
                at as *mut libc::c_void,
                page,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        if r != libc::MAP_FAILED {
            FAULTED.store(true, Ordering::Release);
            return;
        }
    }
    // Not ours: what would have happened without this handler.
    // SAFETY: `PREVIOUS` was written before this handler was installed and never after.
    let previous = unsafe { *std::ptr::addr_of!(PREVIOUS) };
    match previous {
        Some(p) if p.sa_flags & libc::SA_SIGINFO != 0 && p.sa_sigaction > 1 => {
            // SAFETY: an SA_SIGINFO handler has exactly this signature.
            let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                unsafe { std::mem::transmute(p.sa_sigaction) };
            f(sig, info, context);
        }
        Some(p) if p.sa_sigaction > 1 => {
            // SAFETY: a plain handler takes the signal number.
            let f: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(p.sa_sigaction) };
            f(sig);
        }
        _ => {
            // The default action: returning re-runs the access, which then kills as before.
            // SAFETY: `signal` is async-signal-safe.
            unsafe {
                libc::signal(libc::SIGBUS, libc::SIG_DFL);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_truncated_during_an_access_reads_zeros_instead_of_killing() {
        let dir = std::env::temp_dir().join(format!("tensh-sigbus-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f.bin");
        std::fs::write(&path, vec![7u8; 8192]).unwrap();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        // SAFETY: the test owns the file; the truncation below is what is being tested.
        let map = unsafe { memmap2::MmapMut::map_mut(&file).unwrap() };
        let guard = register(map.as_ptr(), map.len()).expect("a slot");
        assert_eq!(map[4096], 7);
        file.set_len(0).unwrap();
        // The page is gone from the file: without the guard this read is a SIGBUS.
        // SAFETY: the address is inside the live map (8192 bytes long).
        let read = unsafe { std::ptr::read_volatile(map.as_ptr().add(4096 + 10)) };
        assert_eq!(read, 0);
        assert!(take_fault());
        drop(guard);
        drop(map);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
