//! Reading a run of a file straight into a fresh storage buffer: no intermediate buffer,
//! no zero-fill pass, and a large run read by two threads at once (each reads its half at
//! its own offset), so the copy out of the page cache is shared.

use std::io;

use crate::platform::fs::File;

/// Reads the `len` bytes of `file` from offset `start` into `buf`, which must be empty:
/// afterwards `buf` holds exactly those bytes. The bytes go straight into `buf`'s unwritten
/// capacity (reserved here if short), so a large buffer reused from the heap is neither
/// zeroed nor copied twice. Fails with `UnexpectedEof` when the file ends first, leaving
/// `buf` empty. The file's cursor is not used, so its position is unchanged.
pub fn read_run(file: &File, start: u64, len: usize, buf: &mut Vec<u8>) -> io::Result<()> {
    buf.clear();
    buf.try_reserve_exact(len)
        .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
    // The page's in-memory files are read in one copy (they are not `Sync`, and the page has
    // no second thread).
    #[cfg(target_arch = "wasm32")]
    {
        buf.resize(len, 0);
        if file.read_at(buf, start)? < len {
            buf.clear();
            return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
        }
        Ok(())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let spare = &mut buf.spare_capacity_mut()[..len];
        if len < crate::core::kernels::PARALLEL_MIN_BYTES {
            pread_exact(file, spare, start)?;
        } else {
            let half = len / 2;
            let (first, second) = spare.split_at_mut(half);
            let (a, b) = crate::core::kernels::pair::join(
                || pread_exact(file, first, start),
                || pread_exact(file, second, start + half as u64),
            );
            a.and(b)?;
        }
        // SAFETY: `pread_exact` returned Ok for every part, so each of the first `len` bytes
        // of the spare capacity was written by the kernel; `len` is within the capacity
        // reserved above.
        unsafe { buf.set_len(len) };
        Ok(())
    }
}

/// Fills `buf` from `file` at `offset` with positional reads (safe from two threads at
/// once), retrying short reads and interruptions.
#[cfg(not(target_arch = "wasm32"))]
fn pread_exact(
    file: &File,
    mut buf: &mut [std::mem::MaybeUninit<u8>],
    mut offset: u64,
) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    while !buf.is_empty() {
        let offset_arg = libc::off_t::try_from(offset)
            .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
        // SAFETY: `buf` is `buf.len()` bytes of writable memory owned by the caller for the
        // length of the call; `pread` writes at most that many bytes and never reads them,
        // so uninitialised bytes are fine.
        let n = unsafe {
            libc::pread(
                file.as_raw_fd(),
                buf.as_mut_ptr().cast(),
                buf.len(),
                offset_arg,
            )
        };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if n == 0 {
            return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
        }
        let n = n as usize;
        buf = &mut buf[n..];
        offset += n as u64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_of(name: &str, bytes: &[u8]) -> (std::path::PathBuf, File) {
        let path = std::env::temp_dir().join(format!("tensh-read-{name}-{}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        let file = File::open(&path).unwrap();
        (path, file)
    }

    fn read_run_of(file: &File, start: u64, len: usize) -> io::Result<Vec<u8>> {
        let mut buf = Vec::new();
        read_run(file, start, len, &mut buf).map(|_| buf)
    }

    #[test]
    fn small_and_large_runs_read_their_bytes() {
        let bytes: Vec<u8> = (0..3_000_017u32).map(|i| (i * 7 % 251) as u8).collect();
        let (path, file) = file_of("runs", &bytes);
        assert_eq!(read_run_of(&file, 5, 100).unwrap(), &bytes[5..105]);
        assert_eq!(read_run_of(&file, 0, 0).unwrap(), Vec::<u8>::new());
        // Above the two-thread threshold, with an odd length and offset.
        let big = read_run_of(&file, 13, 2_999_999).unwrap();
        assert_eq!(big, &bytes[13..13 + 2_999_999]);
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn a_run_past_the_end_is_an_eof_error_and_leaves_the_buffer_empty() {
        let bytes = vec![1u8; 2_100_000];
        let (path, file) = file_of("eof", &bytes);
        let mut buf = vec![9u8; 3];
        let small = read_run(&file, 2_099_990, 20, &mut buf).unwrap_err();
        assert_eq!(small.kind(), io::ErrorKind::UnexpectedEof);
        assert!(buf.is_empty());
        // The second half runs past the end.
        let large = read_run(&file, 100, 2_100_000, &mut buf).unwrap_err();
        assert_eq!(large.kind(), io::ErrorKind::UnexpectedEof);
        assert!(buf.is_empty());
        std::fs::remove_file(path).unwrap();
    }
}
