//! PyTorch's CPU generator: MT19937 plus the cached second normal sample of the Box–Muller
//! pair, and the session's global instance (PyTorch's default generator).

use std::cell::RefCell;

use super::mt19937::Mt19937;

/// The state of one CPU generator.
#[derive(Debug, Clone)]
pub struct Generator {
    mt: Mt19937,
    initial_seed: u64,
    /// The unused second sample of the last double Box–Muller pair.
    pub next_double_normal: Option<f64>,
    /// The unused second sample of the last float Box–Muller pair.
    pub next_float_normal: Option<f32>,
    /// Seeded from the clock (`seed()`): every draw differs from run to run, and notes it
    /// (`platform::varies`).
    from_clock: bool,
}

impl Generator {
    /// A generator seeded as `manual_seed(seed)` does.
    pub fn new(seed: u64) -> Generator {
        Generator {
            mt: Mt19937::new(seed),
            initial_seed: seed,
            next_double_normal: None,
            next_float_normal: None,
            from_clock: false,
        }
    }

    /// A generator seeded from the clock and the process, as PyTorch's `seed()` seeds one
    /// from `/dev/urandom` (not reproducible by design).
    pub fn from_clock() -> Generator {
        crate::platform::varies::note();
        Generator {
            from_clock: true,
            ..Generator::new(clock_seed())
        }
    }

    /// Notes a draw that differs from run to run.
    #[inline]
    fn note_draw(&self) {
        if self.from_clock {
            crate::platform::varies::note();
        }
    }

    /// 32 random bits.
    pub fn random(&mut self) -> u32 {
        self.note_draw();
        self.mt.next_u32()
    }

    /// `out.len()` draws of 32 bits, the same as that many `random` calls.
    pub fn fill_random(&mut self, out: &mut [u32]) {
        self.note_draw();
        self.mt.fill(out);
    }

    /// 64 random bits: two draws, the first as the high half.
    pub fn random64(&mut self) -> u64 {
        self.note_draw();
        let hi = self.mt.next_u32() as u64;
        let lo = self.mt.next_u32() as u64;
        (hi << 32) | lo
    }

    /// The seed this generator was last seeded with.
    pub fn initial_seed(&self) -> u64 {
        self.initial_seed
    }

    /// PyTorch's serialised state (`get_rng_state`): 5056 bytes laid out as its
    /// `CPUGeneratorImplState` struct on x86-64.
    pub fn state_bytes(&self) -> Vec<u8> {
        let mut b = vec![0u8; STATE_SIZE];
        let (words, left, next) = self.mt.raw();
        b[0..8].copy_from_slice(&self.initial_seed.to_le_bytes());
        b[8..12].copy_from_slice(&left.to_le_bytes());
        b[12..16].copy_from_slice(&1i32.to_le_bytes());
        b[16..24].copy_from_slice(&(next as u64).to_le_bytes());
        for (i, w) in words.iter().enumerate() {
            b[24 + 8 * i..32 + 8 * i].copy_from_slice(&(*w as u64).to_le_bytes());
        }
        if let Some(y) = self.next_double_normal {
            b[5024..5032].copy_from_slice(&y.to_le_bytes());
            b[5040..5044].copy_from_slice(&1i32.to_le_bytes());
        }
        if let Some(f) = self.next_float_normal {
            b[5048..5052].copy_from_slice(&f.to_le_bytes());
            b[5052] = 1;
        }
        b
    }

    /// Restores a state made by `state_bytes` (`set_rng_state`).
    pub fn from_state_bytes(b: &[u8]) -> Option<Generator> {
        if b.len() != STATE_SIZE {
            return None;
        }
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
        let i32_at = |i: usize| i32::from_le_bytes(b[i..i + 4].try_into().unwrap_or([0; 4]));
        let mut words = [0u32; 624];
        for (i, w) in words.iter_mut().enumerate() {
            *w = u64_at(24 + 8 * i) as u32;
        }
        let mt = Mt19937::from_raw(words, i32_at(8), u64_at(16) as u32);
        let next_double_normal = (i32_at(5040) != 0).then(|| f64::from_bits(u64_at(5024)));
        let next_float_normal =
            (b[5052] != 0).then(|| f32::from_le_bytes(b[5048..5052].try_into().unwrap_or([0; 4])));
        Some(Generator {
            mt,
            initial_seed: u64_at(0),
            next_double_normal,
            next_float_normal,
            // A state given back is the same on every run.
            from_clock: false,
        })
    }
}

/// Bytes in PyTorch's CPU generator state.
pub const STATE_SIZE: usize = 5056;

thread_local! {
    // tensh starts as the conformance oracle does: seeded with 0.
    static GLOBAL: RefCell<Generator> = RefCell::new(Generator::new(0));
}

/// Runs `f` with the session's generator.
pub fn with_global<R>(f: impl FnOnce(&mut Generator) -> R) -> R {
    GLOBAL.with(|g| f(&mut g.borrow_mut()))
}

/// PyTorch's seed of a new `torch.Generator()` (`default_rng_seed_val`).
pub const DEFAULT_SEED: u64 = 67_280_421_310_721;

/// Runs `f` drawing from `g` instead of the session's generator (`generator=`): `g` takes
/// the session generator's place for the call, and each goes back to its own after it.
pub fn with_generator<R>(g: &mut Generator, f: impl FnOnce() -> R) -> R {
    GLOBAL.with(|cur| std::mem::swap(&mut *cur.borrow_mut(), g));
    let out = f();
    GLOBAL.with(|cur| std::mem::swap(&mut *cur.borrow_mut(), g));
    out
}

/// `torch.get_rng_state()` as bytes.
pub fn get_state() -> Vec<u8> {
    with_global(|g| g.state_bytes())
}

/// `torch.set_rng_state(bytes)`; false when the size is wrong.
pub fn set_state(bytes: &[u8]) -> bool {
    match Generator::from_state_bytes(bytes) {
        Some(g) => {
            with_global(|cur| *cur = g);
            true
        }
        None => false,
    }
}

/// `torch.manual_seed(seed)`.
pub fn manual_seed(seed: u64) {
    with_global(|g| *g = Generator::new(seed));
}

/// A seed from the clock and the process, below 2^63 (one round of splitmix64 over them, so
/// close clocks give distant seeds).
fn clock_seed() -> u64 {
    let nanos = crate::platform::clock::since_epoch().as_nanos() as u64;
    let mixed = nanos ^ (u64::from(crate::platform::process_id()) << 32) ^ 0x9e37_79b9_7f4a_7c15;
    let mut z = mixed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) & ((1 << 63) - 1)
}
