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
//! The handler may only touch async-signal-safe state: the registry is a list of chunks of
//! atomics that only grows (chunks are never freed), and the only call it makes is `mmap`,
//! a plain system call.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};

/// Slots per chunk of the registry. Chunks are added as maps need them, so there is no
/// limit on how many file maps are guarded at once.
const CHUNK: usize = 256;

/// A run of guard slots, and the next run. Chunks are leaked, never freed: the handler may
/// walk them at any moment, and their number only follows the most maps ever live at once.
struct Chunk {
    /// Slot `i` guards `[starts[i], starts[i] + lens[i])` when `starts[i] != 0`.
    starts: [AtomicUsize; CHUNK],
    lens: [AtomicUsize; CHUNK],
    /// Claimed slots (a slot is claimed before its range is published).
    claimed: [AtomicBool; CHUNK],
    next: AtomicPtr<Chunk>,
}

impl Chunk {
    const fn new() -> Chunk {
        Chunk {
            starts: [const { AtomicUsize::new(0) }; CHUNK],
            lens: [const { AtomicUsize::new(0) }; CHUNK],
            claimed: [const { AtomicBool::new(false) }; CHUNK],
            next: AtomicPtr::new(std::ptr::null_mut()),
        }
    }

    /// The chunk after this one, if any.
    fn next(&self) -> Option<&'static Chunk> {
        let p = self.next.load(Ordering::Acquire);
        // SAFETY: `next` is only ever null or a pointer from `Box::leak`, never freed.
        (!p.is_null()).then(|| unsafe { &*p })
    }

    /// Claims a free slot of this chunk.
    fn claim(&self) -> Option<usize> {
        (0..CHUNK).find(|&i| {
            self.claimed[i]
                .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
        })
    }
}

/// The first chunk of the registry.
static FIRST: Chunk = Chunk::new();
/// Set by the handler when it replaced a page.
static FAULTED: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();
static PAGE: AtomicUsize = AtomicUsize::new(4096);

/// The action that was installed for SIGBUS before ours, to chain to.
static mut PREVIOUS: Option<libc::sigaction> = None;

/// A guarded address range; dropping it removes the guard (before the map is unmapped).
#[derive(Debug)]
pub struct Registration {
    chunk: &'static Chunk,
    slot: usize,
}

impl std::fmt::Debug for Chunk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Chunk")
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.chunk.starts[self.slot].store(0, Ordering::Release);
        self.chunk.lens[self.slot].store(0, Ordering::Release);
        self.chunk.claimed[self.slot].store(false, Ordering::Release);
    }
}

/// A free slot: in an existing chunk, else in a new chunk appended to the registry.
fn claim_slot() -> (&'static Chunk, usize) {
    let mut chunk: &'static Chunk = &FIRST;
    loop {
        if let Some(slot) = chunk.claim() {
            return (chunk, slot);
        }
        match chunk.next() {
            Some(next) => chunk = next,
            None => {
                let fresh: &'static Chunk = Box::leak(Box::new(Chunk::new()));
                fresh.claimed[0].store(true, Ordering::Release);
                let appended = chunk.next.compare_exchange(
                    std::ptr::null_mut(),
                    fresh as *const Chunk as *mut Chunk,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                );
                if appended.is_ok() {
                    return (fresh, 0);
                }
                // Another thread appended first: give the slot back (the chunk stays
                // unreachable, a few kilobytes) and go on from its chunk.
                fresh.claimed[0].store(false, Ordering::Release);
            }
        }
    }
}

/// Guards the `len` bytes at `start` (a live file map); `None` only for an empty range,
/// which nothing can fault in. There is no limit on how many maps are guarded.
pub fn register(start: *const u8, len: usize) -> Option<Registration> {
    if len == 0 || start.is_null() {
        return None;
    }
    INSTALL.call_once(install);
    let (chunk, slot) = claim_slot();
    chunk.lens[slot].store(len, Ordering::Release);
    chunk.starts[slot].store(start as usize, Ordering::Release);
    Some(Registration { chunk, slot })
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

/// Whether a guarded range holds `addr` (atomics only: safe in a signal handler).
fn guarded(addr: usize) -> bool {
    let mut chunk = Some(&FIRST);
    while let Some(c) = chunk {
        let hit = (0..CHUNK).any(|i| {
            let start = c.starts[i].load(Ordering::Acquire);
            start != 0 && addr >= start && addr - start < c.lens[i].load(Ordering::Acquire)
        });
        if hit {
            return true;
        }
        chunk = c.next();
    }
    false
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

    /// The fault flag is global: the tests that truncate maps take turns.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

    /// A file of 8192 bytes of `fill` at `path`, open for writing, and a map of it.
    fn mapped_file(path: &std::path::Path, fill: u8) -> (std::fs::File, memmap2::MmapMut) {
        std::fs::write(path, vec![fill; 8192]).unwrap();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .unwrap();
        // SAFETY: the test owns the file; truncating it under the map is what is tested.
        let map = unsafe { memmap2::MmapMut::map_mut(&file).unwrap() };
        (file, map)
    }

    #[test]
    fn a_file_truncated_during_an_access_reads_zeros_instead_of_killing() {
        let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let dir = std::env::temp_dir().join(format!("tensh-sigbus-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (file, map) = mapped_file(&dir.join("f.bin"), 7);
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

    #[test]
    fn more_maps_than_a_chunk_holds_are_all_guarded() {
        let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let dir = std::env::temp_dir().join(format!("tensh-sigbus-many-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut live = Vec::new();
        for i in 0..3 * CHUNK {
            let (file, map) = mapped_file(&dir.join(format!("f{i}.bin")), 1);
            let guard = register(map.as_ptr(), map.len()).expect("always a slot");
            live.push((file, map, guard));
        }
        // The last map, in the third chunk: truncated, then read past the new end.
        let (file, map, _) = live.last().expect("maps");
        file.set_len(0).unwrap();
        // SAFETY: the address is inside the live map (8192 bytes long).
        let read = unsafe { std::ptr::read_volatile(map.as_ptr().add(5000)) };
        assert_eq!(read, 0);
        assert!(take_fault());
        drop(live);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
