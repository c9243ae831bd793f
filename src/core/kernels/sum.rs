//! Summing floats in PyTorch's order, so `sum()` prints PyTorch's last digits.
//!
//! PyTorch's CPU sum keeps a float accumulator for float32 (double for float64) and limits
//! rounding error by *cascading*: partial sums are kept at several levels and each level is
//! only added into the next after a fixed number of steps. Its order, which this file
//! restates, is:
//! - The whole range is split into one chunk per thread (two on the reference machine) when
//!   it has at least `GRAIN` elements; chunk sums are added in order at the end.
//! - In a chunk, elements are taken as vectors of `lanes` (8 floats or 4 doubles, AVX2's
//!   width); vectors are grouped four at a time, and the groups are summed with four cascade
//!   levels (below). The leftover vectors go into the first of the four accumulators, then
//!   the four are added in order, giving one vector.
//! - The chunk's sum starts from the elements after the last whole vector, added one by one,
//!   then adds the vector's lanes in order.
//! - A chunk shorter than one vector is summed the same way with single elements in place of
//!   vectors (groups of four elements, cascade, leftovers, then the four accumulators).
//!
//! Cascade levels: with `m` groups, a level is `2^p` groups where `p = max(4, ceil(log2 m) /
//! 4)`. Level 0 accumulates `2^p` groups, then is added into level 1 and cleared; level 1 is
//! passed up the same way only when the group count is a multiple of `2^(2p)`, and so on.
//! Groups after the last whole level go into level 0; at the end levels 1..3 are added into
//! level 0.

/// Elements below which PyTorch sums on one thread.
pub const GRAIN: usize = 32768;
/// Threads on the reference machine; chunking follows it so results do not depend on the
/// machine tensh runs on.
pub const THREADS: usize = 2;

use super::lane::Arith;

/// A float type the cascade sums in, with its AVX2 vector width.
pub trait SumFloat: Arith {
    /// Vector lanes in PyTorch's AVX2 kernel.
    const LANES: usize;
}

impl SumFloat for f32 {
    const LANES: usize = 8;
}

impl SumFloat for f64 {
    const LANES: usize = 4;
}

fn ceil_log2(m: usize) -> u32 {
    if m <= 1 {
        0
    } else {
        usize::BITS - (m - 1).leading_zeros()
    }
}

/// Adds one group of `N` values (little-endian bytes) into `acc`.
#[inline(always)]
fn add_group<T: SumFloat, const N: usize>(acc: &mut [T; N], bytes: &[u8]) {
    for (a, v) in acc.iter_mut().zip(bytes.chunks_exact(T::SIZE)) {
        *a = a.add(T::load(v));
    }
}

/// The cascade over the first `m` groups of `N` values in `x` (four items of `N / 4`
/// lanes each). Returns the `N` accumulators.
#[inline(always)]
fn cascade<T: SumFloat, const N: usize>(x: &[u8], m: usize) -> [T; N] {
    const LEVELS: usize = 4;
    let group_bytes = N * T::SIZE;
    let power = (ceil_log2(m) / LEVELS as u32).max(4);
    let step = 1usize << power;
    let mask = step - 1;
    let mut acc = [[T::ZERO; N]; LEVELS];
    let mut groups = x.chunks_exact(group_bytes).take(m);
    let mut i = 0;
    while i + step <= m {
        for g in groups.by_ref().take(step) {
            add_group(&mut acc[0], g);
        }
        i += step;
        for j in 1..LEVELS {
            let (lower, upper) = acc.split_at_mut(j);
            for (hi, lo) in upper[0].iter_mut().zip(lower[j - 1].iter_mut()) {
                *hi = hi.add(*lo);
                *lo = T::ZERO;
            }
            if i & (mask << (j as u32 * power)) != 0 {
                break;
            }
        }
    }
    for g in groups {
        add_group(&mut acc[0], g);
    }
    let (first, rest) = acc.split_at_mut(1);
    for level in rest.iter() {
        for (a, v) in first[0].iter_mut().zip(level) {
            *a = a.add(*v);
        }
    }
    first[0]
}

/// The cascade for items of `w` lanes, as a vector of `4 * w` accumulators.
#[inline(always)]
fn cascade_items<T: SumFloat>(x: &[u8], m: usize, w: usize) -> Vec<T> {
    match w {
        1 => cascade::<T, 4>(x, m).to_vec(),
        2 => cascade::<T, 8>(x, m).to_vec(),
        4 => cascade::<T, 16>(x, m).to_vec(),
        _ => cascade::<T, 32>(x, m).to_vec(),
    }
}

/// `n` items of `w` lanes (contiguous in `x`): four per group through the cascade, leftover
/// items into the first accumulator, then the four accumulators added in order.
#[inline(always)]
fn row_sum<T: SumFloat>(x: &[u8], n: usize, w: usize) -> Vec<T> {
    let m = n / 4;
    let acc = cascade_items::<T>(x, m, w);
    let mut parts: Vec<Vec<T>> = acc.chunks_exact(w).map(<[T]>::to_vec).collect();
    for item in m * 4..n {
        let bytes = &x[item * w * T::SIZE..(item + 1) * w * T::SIZE];
        for (a, v) in parts[0].iter_mut().zip(bytes.chunks_exact(T::SIZE)) {
            *a = a.add(T::load(v));
        }
    }
    let mut total = parts[0].clone();
    for p in &parts[1..] {
        for (t, v) in total.iter_mut().zip(p) {
            *t = t.add(*v);
        }
    }
    total
}

/// One chunk's sum: whole vectors through `row_sum`, then the tail elements one by one, then
/// the vector's lanes in order.
#[inline(always)]
fn chunk_sum<T: SumFloat>(x: &[u8]) -> T {
    let n = x.len() / T::SIZE;
    if n < T::LANES {
        return row_sum::<T>(x, n, 1)[0];
    }
    let vectors = n / T::LANES;
    let lanes = row_sum::<T>(x, vectors, T::LANES);
    let mut total = T::ZERO;
    for v in x[vectors * T::LANES * T::SIZE..].chunks_exact(T::SIZE) {
        total = total.add(T::load(v));
    }
    for v in lanes {
        total = total.add(v);
    }
    total
}

/// The sum of the contiguous elements in `x` in PyTorch's order, the two chunks of a large
/// input computed on two threads.
pub fn cascade_sum<T: SumFloat>(x: &[u8]) -> T {
    let n = x.len() / T::SIZE;
    if n < GRAIN {
        return chunk_sum(x);
    }
    let chunk = n.div_ceil(THREADS);
    let (first, second) = x.split_at(chunk * T::SIZE);
    let (a, b) = super::pair::join(
        || fast_chunk_sum::<T>(first),
        || fast_chunk_sum::<T>(second),
    );
    T::ZERO.add(a).add(b)
}

/// `chunk_sum`, compiled for AVX2 when the CPU has it (the same adds in the same order, so
/// the same result; wider registers hold the 32 accumulators).
fn fast_chunk_sum<T: SumFloat>(x: &[u8]) -> T {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked just above), the only requirement of
        // calling a function compiled with that target feature.
        return unsafe { chunk_sum_avx2::<T>(x) };
    }
    chunk_sum(x)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn chunk_sum_avx2<T: SumFloat>(x: &[u8]) -> T {
    chunk_sum(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn small_sums_are_exact_for_integers() {
        for n in [0usize, 1, 3, 7, 8, 9, 31, 33, 100, 1000] {
            let v: Vec<f32> = (0..n).map(|i| i as f32).collect();
            assert_eq!(
                cascade_sum::<f32>(&bytes(&v)),
                (n * n.saturating_sub(1) / 2) as f32
            );
        }
    }

    #[test]
    fn tail_elements_come_before_the_lanes() {
        // 9 floats: one vector of 8 and one tail element. The tail is added first, so a
        // huge tail absorbs the small lanes differently than sequential order would.
        let mut v = vec![1.0f32; 8];
        v.push(1.0e8);
        let sequential: f32 = v.iter().fold(0.0, |a, b| a + b);
        let cascade = cascade_sum::<f32>(&bytes(&v));
        assert_eq!(sequential, 1.0e8 + 8.0);
        assert_eq!(cascade, 1.0e8);
    }

    #[test]
    fn large_inputs_use_two_chunks() {
        let v: Vec<f32> = (0..GRAIN * 3).map(|i| (i % 7) as f32).collect();
        let expected: f64 = v.iter().map(|x| *x as f64).sum();
        assert_eq!(cascade_sum::<f32>(&bytes(&v)) as f64, expected);
    }
}
