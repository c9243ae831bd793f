//! What a native process and a browser page do differently, behind one boundary: the clock,
//! files, memory maps and the heap's budget (and `varies`, the note that a value read the clock or an address). Everything above this layer calls these names and runs the same
//! on both.
//!
//! Native (`not(target_arch = "wasm32")`): the system's clock and files, files opened without
//! blocking, `memmap2` maps. In the page (`wasm32`): the clock is the page's
//! (`performance.now()`, `Date.now()`, through `web-time`), files live in an in-memory
//! file system (`memfs`) so that `torch.save`, `torch.load` and `from_file` still run, and a
//! "map" is bytes kept in step with its in-memory file.
//!
//! The rest of what is native only is switched off where it is declared: the terminal
//! (`repl::run`), signals (`core::memory::sigbus`, Ctrl-C), POSIX shared memory
//! (`core::memory::shm`), Jupyter and the command line (`jupyter`, `cli`); helper threads
//! are never started in the page (`core::kernels::pair`).

pub mod clock;
pub mod cmath;
pub mod fs;
pub mod heap;
pub mod map;
pub mod memfs;
pub mod varies;

/// The width of the terminal standard output shows, in columns, when it is one (natively:
/// the terminal's own size; `COLUMNS` when that cannot be read).
pub fn terminal_columns() -> Option<usize> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::io::IsTerminal;
        if !std::io::stdout().is_terminal() {
            return None;
        }
        // SAFETY: TIOCGWINSZ writes only the `winsize` it is given.
        let columns = unsafe {
            let mut size: libc::winsize = std::mem::zeroed();
            (libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) == 0)
                .then_some(size.ws_col as usize)
        };
        columns
            .filter(|&c| c > 0)
            .or_else(|| std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()))
    }
    #[cfg(target_arch = "wasm32")]
    None
}

/// This process's id (the page has none: 0).
pub fn process_id() -> u32 {
    #[cfg(not(target_arch = "wasm32"))]
    return std::process::id();
    #[cfg(target_arch = "wasm32")]
    return 0;
}
