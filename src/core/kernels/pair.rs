//! Running two halves of a kernel at once: the caller takes one half, a helper thread kept
//! alive for the whole process takes the other.
//!
//! Starting a thread per kernel call (`std::thread::scope`) costs tens of microseconds on
//! small virtual machines, a few percent of a 64 MiB sum. The helper is started once, on
//! first use, and waits for work on a channel.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, RecvError, Sender, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

/// Work for the helper, with its borrows erased to `'static` (see `join`).
type Job = Box<dyn FnOnce() + Send + 'static>;

/// The helper's queue, started on first use; `None` when the thread could not be started.
static HELPER: Mutex<Option<Sender<Job>>> = Mutex::new(None);

/// The threads kernels may use (`torch.set_num_threads`): two by default, as on this
/// machine's PyTorch; one runs every kernel on the calling thread. More than two are taken as
/// two (kernels split in two at most). The page has one thread: there, one.
static THREADS: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(DEFAULT_THREADS);

/// How many threads kernels use until told otherwise.
pub const DEFAULT_THREADS: usize = if cfg!(target_arch = "wasm32") { 1 } else { 2 };

/// Sets how many threads kernels use (`n` ≥ 1).
pub fn set_threads(n: usize) {
    THREADS.store(n.max(1), std::sync::atomic::Ordering::Relaxed);
}

/// How many threads kernels were told to use (`torch.get_num_threads()`).
pub fn threads() -> usize {
    THREADS.load(std::sync::atomic::Ordering::Relaxed)
}

thread_local! {
    /// True on the helper thread: a kernel it runs must not queue work for itself.
    static ON_HELPER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `a` on this thread and `b` on the helper at the same time, returning both results
/// once both are done. If `a` or `b` panics, the panic resumes here after both have
/// finished. Falls back to running both here when the helper is unavailable.
///
/// Only this shell is generic: it keeps the results in slots and hands both halves to
/// [`join_erased`] as trait objects, so the many kernels that split their work share one
/// compiled copy of the hand-off.
#[inline]
pub fn join<RA, RB>(a: impl FnOnce() -> RA, b: impl FnOnce() -> RB + Send) -> (RA, RB)
where
    RB: Send,
{
    let mut ra = None;
    let mut rb = None;
    {
        let mut a = Some(a);
        let ra_slot = &mut ra;
        let rb_slot = &mut rb;
        join_erased(
            &mut || *ra_slot = a.take().map(|a| a()),
            Box::new(move || *rb_slot = Some(b())),
        );
    }
    match (ra, rb) {
        (Some(ra), Some(rb)) => (ra, rb),
        // `join_erased` returns only after running both halves to completion (a panic in
        // either resumes instead), so both slots are filled.
        _ => unreachable!("join_erased returned without running both halves"),
    }
}

/// [`join`] on type-erased halves: `a` runs here, `b` on the helper.
fn join_erased(a: &mut dyn FnMut(), b: Box<dyn FnOnce() + Send + '_>) {
    // The page never starts a helper (it has no threads, nor a clock `std` can read).
    if cfg!(target_arch = "wasm32") || ON_HELPER.with(|h| h.get()) || threads() < 2 {
        a();
        b();
        return;
    }
    let (done_tx, done_rx) = mpsc::channel::<thread::Result<()>>();
    let job: Box<dyn FnOnce() + Send + '_> = Box::new(move || {
        let _ = done_tx.send(panic::catch_unwind(AssertUnwindSafe(b)));
    });
    // SAFETY: only the lifetime changes. The job borrows from this call's caller; it is
    // either run by the helper, which then sends on `done_tx`, or dropped unrun (the helper
    // gone), which drops `done_tx`. Either way `done_rx.recv()` below returns only after the
    // job and its borrows are finished with, and this function does not return (or unwind:
    // `a`'s panic is caught) before that `recv`.
    let job: Job = unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + '_>, Job>(job) };
    if let Err(job) = submit(job) {
        job();
    }
    let ra = panic::catch_unwind(AssertUnwindSafe(a));
    let rb = spin_then_wait(&done_rx);
    match (ra, rb) {
        (Ok(()), Ok(Ok(()))) => {}
        (Err(p), _) | (_, Ok(Err(p))) => panic::resume_unwind(p),
        (Ok(()), Err(_)) => panic::resume_unwind(Box::new("kernel helper dropped its work")),
    }
}

/// Queues `job` on the helper, starting it if needed; gives the job back when it cannot run
/// there.
fn submit(job: Job) -> Result<(), Job> {
    let mut helper = HELPER.lock().unwrap_or_else(|p| p.into_inner());
    if helper.is_none() {
        *helper = start();
    }
    let Some(tx) = helper.as_ref() else {
        return Err(job);
    };
    tx.send(job).map_err(|e| {
        *helper = None;
        e.0
    })
}

/// Starts the helper thread.
fn start() -> Option<Sender<Job>> {
    let (tx, rx) = mpsc::channel::<Job>();
    thread::Builder::new()
        .name("tensh-kernel".into())
        .spawn(move || serve(rx))
        .ok()
        .map(|_| tx)
}

/// How long a thread keeps polling before it sleeps: waking a sleeping thread costs tens of
/// microseconds on small virtual machines, while kernels often come back to back.
const SPIN: Duration = Duration::from_micros(100);

/// The next message on `rx`: polled for up to `SPIN`, then waited for. `Err` when every
/// sender is gone.
fn spin_then_wait<T>(rx: &Receiver<T>) -> Result<T, RecvError> {
    let start = Instant::now();
    loop {
        for _ in 0..64 {
            match rx.try_recv() {
                Ok(v) => return Ok(v),
                Err(TryRecvError::Disconnected) => return Err(RecvError),
                Err(TryRecvError::Empty) => std::hint::spin_loop(),
            }
        }
        if start.elapsed() > SPIN {
            return rx.recv();
        }
    }
}

/// The helper's loop: runs jobs until every sender is gone.
fn serve(rx: Receiver<Job>) {
    ON_HELPER.with(|h| h.set(true));
    while let Ok(job) = spin_then_wait(&rx) {
        // Jobs catch their own panics; this only keeps the helper alive regardless.
        let _: Result<(), Box<dyn Any + Send>> = panic::catch_unwind(AssertUnwindSafe(job));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_halves_see_borrowed_data() {
        let data: Vec<u64> = (0..1000).collect();
        let (lo, hi) = data.split_at(500);
        let (a, b) = join(|| lo.iter().sum::<u64>(), || hi.iter().sum::<u64>());
        assert_eq!(a + b, 999 * 1000 / 2);
    }

    #[test]
    fn halves_write_disjoint_slices() {
        let mut out = vec![0u32; 64];
        let (x, y) = out.split_at_mut(32);
        join(|| x.fill(1), || y.fill(2));
        assert_eq!(out.iter().sum::<u32>(), 32 + 64);
    }

    #[test]
    fn a_panicking_half_resumes_after_both_finish() {
        let finished = std::sync::atomic::AtomicBool::new(false);
        let r = panic::catch_unwind(AssertUnwindSafe(|| {
            join(
                || panic!("first half"),
                || finished.store(true, std::sync::atomic::Ordering::SeqCst),
            )
        }));
        assert!(r.is_err());
        assert!(finished.load(std::sync::atomic::Ordering::SeqCst));
        let r = panic::catch_unwind(|| join(|| 1, || -> u8 { panic!("second half") }));
        assert!(r.is_err());
        assert_eq!(join(|| 3, || 4), (3, 4));
    }

    #[test]
    fn many_callers_share_the_helper() {
        let handles: Vec<_> = (0..4u64)
            .map(|k| thread::spawn(move || (0..200).map(|i| join(|| i, || k).1).sum::<u64>()))
            .collect();
        for (k, h) in handles.into_iter().enumerate() {
            assert_eq!(h.join().unwrap(), 200 * k as u64);
        }
    }
}
