//! The 32-bit Mersenne Twister (MT19937), seeded as PyTorch's CPU generator seeds it.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// MT19937 state, with PyTorch's bookkeeping: `left` draws remain before the next twist
/// (1 right after seeding) and `next` indexes the word to temper next.
#[derive(Clone)]
pub struct Mt19937 {
    state: [u32; N],
    left: i32,
    next: u32,
}

impl std::fmt::Debug for Mt19937 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mt19937 {{ left: {}, next: {} }}", self.left, self.next)
    }
}

/// MT19937's output tempering of one state word.
#[inline(always)]
fn temper(mut y: u32) -> u32 {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c_5680;
    y ^= (y << 15) & 0xefc6_0000;
    y ^ (y >> 18)
}

impl Mt19937 {
    /// Seeds from the low 32 bits of `seed` (the standard initialisation).
    pub fn new(seed: u64) -> Mt19937 {
        let mut state = [0u32; N];
        state[0] = seed as u32;
        for j in 1..N {
            let prev = state[j - 1];
            state[j] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(j as u32);
        }
        Mt19937 {
            state,
            left: 1,
            next: 0,
        }
    }

    /// Seeds from the words of `key` as the reference `init_by_array` does (CPython's
    /// `random.seed(n)` passes the 32-bit words of `abs(n)`, least significant first).
    pub fn from_key(key: &[u32]) -> Mt19937 {
        let mut mt = Mt19937::new(19_650_218);
        let s = &mut mt.state;
        let (mut i, mut j) = (1usize, 0usize);
        let len = key.len().max(1);
        for _ in 0..N.max(len) {
            let prev = s[i - 1];
            s[i] = (s[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key.get(j).copied().unwrap_or(0))
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                s[0] = s[N - 1];
                i = 1;
            }
            if j >= len {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = s[i - 1];
            s[i] =
                (s[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                s[0] = s[N - 1];
                i = 1;
            }
        }
        s[0] = 0x8000_0000;
        mt
    }

    fn twist(&mut self) {
        let mix = |a: u32, b: u32, c: u32| {
            let y = (a & UPPER_MASK) | (b & LOWER_MASK);
            c ^ (y >> 1) ^ if y & 1 != 0 { MATRIX_A } else { 0 }
        };
        for i in 0..N - M {
            self.state[i] = mix(self.state[i], self.state[i + 1], self.state[i + M]);
        }
        for i in N - M..N - 1 {
            self.state[i] = mix(self.state[i], self.state[i + 1], self.state[i + M - N]);
        }
        self.state[N - 1] = mix(self.state[N - 1], self.state[0], self.state[M - 1]);
        self.left = N as i32;
        self.next = 0;
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        self.left -= 1;
        if self.left <= 0 || self.next as usize >= N {
            self.twist();
        }
        let y = self.state[self.next as usize];
        self.next += 1;
        temper(y)
    }

    /// The next `out.len()` outputs, the same as that many `next_u32` calls, tempering the
    /// state words between twists in one vectorisable pass.
    pub fn fill(&mut self, out: &mut [u32]) {
        let mut i = 0;
        while i < out.len() {
            // Calls before one must twist: each lowers `left` (a call twists when it reaches
            // 0) and raises `next` (it twists at N).
            let ready = ((self.left - 1).max(0) as usize).min(N - self.next as usize);
            if ready == 0 {
                out[i] = self.next_u32();
                i += 1;
                continue;
            }
            let take = ready.min(out.len() - i);
            let start = self.next as usize;
            for (o, &y) in out[i..i + take]
                .iter_mut()
                .zip(&self.state[start..start + take])
            {
                *o = temper(y);
            }
            self.left -= take as i32;
            self.next += take as u32;
            i += take;
        }
    }

    /// The state words, `left` and `next` (for `get_rng_state`).
    pub fn raw(&self) -> (&[u32; N], i32, u32) {
        (&self.state, self.left, self.next)
    }

    /// Restores state words, `left` and `next` (for `set_rng_state`); out-of-range positions
    /// are clamped so drawing can never index outside the state.
    pub fn from_raw(state: [u32; N], left: i32, next: u32) -> Mt19937 {
        Mt19937 {
            state,
            left: left.clamp(1, N as i32),
            next: next.min(N as u32),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_sequence() {
        // The standard MT19937 check value: the 10000th output for seed 5489.
        let mut mt = Mt19937::new(5489);
        let mut last = 0;
        for _ in 0..10000 {
            last = mt.next_u32();
        }
        assert_eq!(last, 4_123_659_995);
    }

    #[test]
    fn bulk_fill_matches_single_draws() {
        for (seed, skip, n) in [
            (0u64, 0usize, 5000usize),
            (7, 1, 623),
            (7, 623, 2),
            (3, 100, 1250),
        ] {
            let mut one = Mt19937::new(seed);
            let mut bulk = one.clone();
            for _ in 0..skip {
                one.next_u32();
                bulk.next_u32();
            }
            let mut out = vec![0; n];
            bulk.fill(&mut out);
            let single: Vec<u32> = (0..n).map(|_| one.next_u32()).collect();
            assert_eq!(out, single);
            assert_eq!(bulk.next_u32(), one.next_u32());
            let mut restored = Mt19937::from_raw(*bulk.raw().0, bulk.raw().1, bulk.raw().2);
            assert_eq!(restored.next_u32(), one.next_u32());
        }
    }
}
