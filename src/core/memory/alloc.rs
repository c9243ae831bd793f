//! Every allocation whose size comes from a script goes through here, so that a huge or
//! overflowing size is PyTorch's `RuntimeError` rather than a panic or an abort.

use crate::core::error::{Result, TorchError};
use crate::core::layout::fmt_list;

fn cannot_allocate(nbytes: u128) -> TorchError {
    TorchError::runtime(format!(
        "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate {nbytes} bytes. Error code 12 (Cannot allocate memory)"
    ))
}

pub use crate::core::layout::checked_numel;

/// PyTorch's error for a negative size when creating a tensor.
pub fn check_sizes(sizes: &[i64]) -> Result<()> {
    if let Some(&s) = sizes.iter().find(|&&s| s < 0) {
        return Err(TorchError::runtime(format!(
            "Trying to create tensor with negative dimension {s}: {}",
            fmt_list(sizes)
        )));
    }
    Ok(())
}

/// `n` (non-negative) bytes as a size in memory: on a 32-bit target (the browser page) a count
/// past the address space is PyTorch's out-of-memory error, as asking a 64-bit machine for
/// it would be.
pub fn byte_count(n: i64) -> Result<usize> {
    usize::try_from(n).map_err(|_| cannot_allocate(n.max(0) as u128))
}

/// Bytes for a contiguous tensor of `sizes`, or PyTorch's negative-size or overflow error.
pub fn contiguous_nbytes(sizes: &[i64], itemsize: usize) -> Result<usize> {
    check_sizes(sizes)?;
    // As PyTorch's product of sizes: a zero size makes it 0, never an overflow, whatever the
    // other sizes are (`torch.empty(2**62, 0, dtype=torch.float64)` is a valid empty tensor).
    if sizes.contains(&0) {
        return Ok(0);
    }
    let n = sizes
        .iter()
        .try_fold(itemsize as i64, |acc, &s| acc.checked_mul(s));
    match n {
        Some(n) => byte_count(n),
        None => Err(TorchError::runtime(format!(
            "Storage size calculation overflowed with sizes={}",
            fmt_list(sizes)
        ))),
    }
}

/// Bytes a strided layout at offset 0 spans (0 when empty), or PyTorch's overflow error
/// (`layout::storage_span_bytes`).
pub fn strided_nbytes(sizes: &[i64], strides: &[i64], itemsize: usize) -> Result<usize> {
    let n = crate::core::layout::storage_span_bytes(sizes, strides, 0, itemsize)?;
    // The span is at most i64::MAX; on a 32-bit target it may not fit a usize.
    usize::try_from(n).map_err(|_| cannot_allocate(n as u128))
}

/// `nbytes` zero bytes, or PyTorch's out-of-memory error. Zeroed pages are requested from the
/// allocator directly (`calloc`-like), so a large buffer costs nothing until it is touched.
pub fn zeroed_bytes(nbytes: usize) -> Result<Vec<u8>> {
    if nbytes == 0 {
        return Ok(Vec::new());
    }
    within_budget(nbytes)?;
    let layout =
        std::alloc::Layout::array::<u8>(nbytes).map_err(|_| cannot_allocate(nbytes as u128))?;
    // SAFETY: `layout` has a non-zero size (checked above). A null return means failure and is
    // turned into an error. Otherwise the block is `nbytes` initialised (zeroed) bytes with
    // alignment 1, allocated by the global allocator, which is exactly what
    // `Vec::<u8>::from_raw_parts(ptr, nbytes, nbytes)` requires to own and later free it.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout);
        if ptr.is_null() {
            return Err(cannot_allocate(nbytes as u128));
        }
        prefer_huge_pages(ptr, nbytes);
        Ok(Vec::from_raw_parts(ptr, nbytes, nbytes))
    }
}

/// Buffers from this size up ask the kernel for 2 MiB pages.
#[cfg(target_os = "linux")]
const HUGE_PAGE_MIN: usize = 4 << 20;
/// The size of a transparent huge page on x86-64 Linux.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Asks Linux to back the 2 MiB-aligned interior of a large buffer with transparent huge
/// pages: first touching 64 MiB then takes 32 page faults instead of 16,384, which on small
/// virtual machines is most of the cost of a fresh tensor (`clone`, `rand`, results of
/// elementwise ops). Only advice: the bytes and their contents are unchanged, and a refusal
/// (other systems, huge pages disabled) is ignored.
fn prefer_huge_pages(ptr: *mut u8, nbytes: usize) {
    #[cfg(target_os = "linux")]
    if nbytes >= HUGE_PAGE_MIN {
        let start = (ptr as usize).next_multiple_of(HUGE_PAGE);
        let end = (ptr as usize + nbytes) / HUGE_PAGE * HUGE_PAGE;
        if end > start {
            // SAFETY: `[start, end)` lies inside the block just allocated for the caller
            // (`start >= ptr`, `end <= ptr + nbytes`) and is page-aligned; MADV_HUGEPAGE
            // changes how those pages are backed, never what they hold.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, nbytes);
}

/// A copy of `src` in a fresh buffer, or PyTorch's out-of-memory error. The buffer comes from
/// `zeroed_bytes`, so a large copy is backed by huge pages where Linux allows them (copying
/// 64 MiB into plain `malloc` memory takes 16,384 page faults, most of the copy's time), and
/// a large copy runs on both threads (`kernels::copy_bytes`).
pub fn copied_bytes(src: &[u8]) -> Result<Vec<u8>> {
    let mut out = zeroed_bytes(src.len())?;
    crate::core::kernels::copy_bytes(&mut out, src);
    Ok(out)
}

/// PyTorch's out-of-memory error for a request that would take the heap past its budget
/// (`heap::budget`, three quarters of what the machine and `RLIMIT_AS` allow). Zeroed
/// pages cost nothing until touched, so without this a request the system grants
/// lazily (two 16 GiB buffers on a 24 GiB machine) ends with the kernel killing the
/// process once they are written, where the script should get a `RuntimeError`.
fn within_budget(nbytes: usize) -> Result<()> {
    let after = crate::platform::heap::live_bytes().saturating_add(nbytes);
    if after > crate::platform::heap::budget() {
        return Err(cannot_allocate(nbytes as u128));
    }
    Ok(())
}

/// An empty vector with room for `n` items, or PyTorch's out-of-memory error.
pub fn vec_with_capacity<T>(n: usize) -> Result<Vec<T>> {
    within_budget(n.saturating_mul(std::mem::size_of::<T>()))?;
    let mut v: Vec<T> = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| cannot_allocate((n as u128) * std::mem::size_of::<T>() as u128))?;
    // A large buffer filled by a read (a storage loaded from a file) is backed by huge
    // pages too: 256 MiB read into 4 KiB pages took 65,536 page faults.
    prefer_huge_pages(
        v.as_mut_ptr().cast::<u8>(),
        v.capacity() * std::mem::size_of::<T>(),
    );
    Ok(v)
}

/// Resizes `v` to `len`, zero-filling growth, or PyTorch's out-of-memory error. Growth takes
/// a fresh zeroed buffer (so the new part is not touched) and copies the old bytes over.
pub fn grow_zeroed(v: &mut Vec<u8>, len: usize) -> Result<()> {
    if len <= v.len() {
        v.truncate(len);
        return Ok(());
    }
    let mut bigger = zeroed_bytes(len)?;
    bigger[..v.len()].copy_from_slice(v);
    *v = bigger;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_are_exact_on_one_thread_and_on_two() {
        for n in [0, 7, 3 << 20] {
            let src: Vec<u8> = (0..n).map(|i| (i * 31 % 251) as u8).collect();
            assert_eq!(copied_bytes(&src).unwrap(), src);
        }
    }

    #[test]
    fn huge_sizes_are_errors() {
        assert!(
            zeroed_bytes(1 << 62)
                .unwrap_err()
                .message
                .contains("can't allocate memory")
        );
        assert_eq!(zeroed_bytes(3).unwrap(), vec![0, 0, 0]);
        assert!(
            contiguous_nbytes(&[1 << 40, 1 << 40], 4)
                .unwrap_err()
                .message
                .starts_with("Storage size calculation")
        );
        assert!(checked_numel(&[1 << 40, 1 << 40]).is_err());
        assert!(strided_nbytes(&[1 << 62], &[1 << 62], 1).is_err());
        assert!(vec_with_capacity::<u64>(usize::MAX / 4).is_err());
    }
}
