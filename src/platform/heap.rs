//! How much heap the process holds, and the budget a script's growth is stopped at.
//!
//! [`CountingAllocator`] is the system allocator with a running count of the bytes it has
//! handed out and not had back. A script that grows a map, a list or a string a step at a
//! time never makes one allocation large enough to be refused, yet can exhaust memory;
//! the session checks [`over_budget`] between Rhai operations (as it checks Ctrl-C) and
//! stops such a script with `MemoryError` before the machine runs out. The budget is
//! three quarters of what is left when it is first asked for: of physical memory, or of
//! the address-space limit (`ulimit -v`) less the address space already in use (thread
//! stacks, the binary), whichever is smaller, so one more doubling step still fits.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes allocated and not yet freed.
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting live bytes.
pub struct CountingAllocator;

// SAFETY: every method forwards to `System` with the same arguments and only adds
// bookkeeping on an atomic counter; the pointers and layouts `System` returns and takes
// are passed through unchanged, so `System`'s guarantees are this allocator's.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as received (see the impl's comment).
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as received.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as received.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as received.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_add(new_size, Ordering::Relaxed);
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }
}

/// Heap bytes the process holds now.
pub fn live_bytes() -> usize {
    LIVE.load(Ordering::Relaxed)
}

#[cfg(not(target_arch = "wasm32"))]
/// Address space in use now, from `/proc/self/statm` (0 where it cannot be read).
fn address_space_in_use(page: u128) -> u128 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u128>().ok())
        .map_or(0, |pages| pages * page)
}

thread_local! {
    /// A lower budget for this thread's scripts (`set_thread_budget`).
    static THREAD_CAP: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
}

/// Caps the budget for scripts run on this thread at `bytes` (`usize::MAX`: no cap): the
/// in-process fuzz tests run thousands of programs beside other tests and must not take
/// gigabytes, which a program may legitimately ask for (`torch.eye(65536)`).
pub fn set_thread_budget(bytes: usize) {
    THREAD_CAP.with(|c| c.set(bytes));
}

/// Three quarters of the smaller of physical memory and what `RLIMIT_AS` leaves (or this
/// thread's cap, when lower).
pub fn budget() -> usize {
    machine_budget().min(THREAD_CAP.with(std::cell::Cell::get))
}

/// The page's budget: three quarters of what a 32-bit WebAssembly memory can reach (4 GiB).
#[cfg(target_arch = "wasm32")]
fn machine_budget() -> usize {
    3 << 30
}

/// [`budget`] without a thread's cap, measured once.
#[cfg(not(target_arch = "wasm32"))]
fn machine_budget() -> usize {
    static BUDGET: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *BUDGET.get_or_init(|| {
        // SAFETY: `sysconf` reads constants; `getrlimit` writes only the struct it is given.
        let (pages, page, limit) = unsafe {
            let mut r: libc::rlimit = std::mem::zeroed();
            let limit = if libc::getrlimit(libc::RLIMIT_AS, &mut r) == 0 {
                r.rlim_cur as u128
            } else {
                u128::MAX
            };
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
                limit,
            )
        };
        let physical = if pages > 0 && page > 0 {
            pages as u128 * page as u128
        } else {
            u128::MAX
        };
        let left = if limit == libc::RLIM_INFINITY as u128 {
            u128::MAX
        } else {
            let used = address_space_in_use(page.max(1) as u128);
            limit.saturating_sub(used) + live_bytes() as u128
        };
        let smaller = physical.min(left);
        usize::try_from(smaller / 4 * 3).unwrap_or(usize::MAX)
    })
}

/// Whether the heap has grown past the budget.
pub fn over_budget() -> bool {
    live_bytes() > budget()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_follows_allocations() {
        let before = live_bytes();
        let v: Vec<u8> = Vec::with_capacity(64 << 20);
        // Other test threads allocate too: the count moved by at least most of this one.
        assert!(live_bytes() + (16 << 20) > before + (64 << 20));
        drop(v);
        assert!(budget() > 0);
    }
}
