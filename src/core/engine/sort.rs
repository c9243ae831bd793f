//! Sorting along a dim: each lane's elements become order-preserving integer keys (PyTorch's
//! order: `-0.` equal to `0.`, every NaN after every number and equal to other NaNs), packed
//! with their index so that an unstable sort of the packed items is PyTorch's stable sort
//! (equal keys fall back to the index). Descending flips the key, not the index, so equal
//! elements keep their order both ways, as PyTorch's CPU sort does.
//!
//! Long lanes are sorted in blocks, on both threads, then merged pairwise; Ctrl-C is
//! checked between blocks and every block of merged items.

use half::{bf16, f16};

use super::along::Plan;
use super::ordered::Ordered;
use crate::core::interrupt;
use crate::core::kernels::{PARALLEL_MIN, pair};

/// Items sorted at once before merging: about 40 ms of work.
const BLOCK: usize = 1 << 20;

/// An element with an order-preserving key of `KEY_BITS` bits.
pub trait SortKey: Ordered {
    /// Bits the key uses (it is below `2^KEY_BITS`).
    const KEY_BITS: u32;
    /// The key: `a < b` as PyTorch sorts iff `a.key() < b.key()`.
    fn key(self) -> u64;
}

macro_rules! unsigned_key {
    ($($t:ty),*) => {$(
        impl SortKey for $t {
            const KEY_BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn key(self) -> u64 { self as u64 }
        }
    )*};
}
unsigned_key!(u8, u16, u32, u64);

macro_rules! signed_key {
    ($($t:ty => $u:ty),*) => {$(
        impl SortKey for $t {
            const KEY_BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn key(self) -> u64 { ((self as $u) ^ (1 << (<$t>::BITS - 1))) as u64 }
        }
    )*};
}
signed_key!(i8 => u8, i16 => u16, i32 => u32, i64 => u64);

/// The order-preserving bits of a float's bit pattern `b` of `bits` bits (zero and NaN
/// already normalised by the caller).
#[inline(always)]
fn float_key(b: u64, bits: u32) -> u64 {
    let sign = 1u64 << (bits - 1);
    let all = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    if b & sign != 0 { !b & all } else { b | sign }
}

impl SortKey for f32 {
    const KEY_BITS: u32 = 32;
    #[inline(always)]
    fn key(self) -> u64 {
        if self.is_nan() {
            return u32::MAX as u64;
        }
        let x = if self == 0.0 { 0.0f32 } else { self };
        float_key(x.to_bits() as u64, 32)
    }
}

impl SortKey for f64 {
    const KEY_BITS: u32 = 64;
    #[inline(always)]
    fn key(self) -> u64 {
        if self.is_nan() {
            return u64::MAX;
        }
        let x = if self == 0.0 { 0.0f64 } else { self };
        float_key(x.to_bits(), 64)
    }
}

impl SortKey for f16 {
    const KEY_BITS: u32 = 32;
    #[inline(always)]
    fn key(self) -> u64 {
        self.to_f32().key()
    }
}

impl SortKey for bf16 {
    const KEY_BITS: u32 = 32;
    #[inline(always)]
    fn key(self) -> u64 {
        self.to_f32().key()
    }
}

/// A sortable item: a key and the element's index, ordered by key then index.
trait Item: Ord + Copy + Send + Sync {
    fn new(key: u64, index: usize) -> Self;
    fn index(self) -> usize;
}

/// Key (at most 32 bits) and index (below 2^32) in one word.
impl Item for u64 {
    #[inline(always)]
    fn new(key: u64, index: usize) -> Self {
        (key << 32) | index as u64
    }
    #[inline(always)]
    fn index(self) -> usize {
        (self & 0xffff_ffff) as usize
    }
}

impl Item for (u64, u64) {
    #[inline(always)]
    fn new(key: u64, index: usize) -> Self {
        (key, index as u64)
    }
    #[inline(always)]
    fn index(self) -> usize {
        self.1 as usize
    }
}

/// Merges the sorted halves `a` and `b` into `out`.
fn merge<I: Item>(a: &[I], b: &[I], out: &mut [I]) {
    let (mut i, mut j) = (0, 0);
    for (k, o) in out.iter_mut().enumerate() {
        if k % BLOCK == BLOCK - 1 {
            interrupt::check();
        }
        *o = if j >= b.len() || (i < a.len() && a[i] <= b[j]) {
            i += 1;
            a[i - 1]
        } else {
            j += 1;
            b[j - 1]
        };
    }
}

/// Sorts `items` in blocks (both threads), then merges runs pairwise.
fn sort_items<I: Item>(items: &mut Vec<I>) {
    if items.len() <= BLOCK {
        items.sort_unstable();
        return;
    }
    // Sort the blocks, alternating between the threads two at a time.
    let mut chunks = items.chunks_mut(BLOCK);
    loop {
        interrupt::check();
        match (chunks.next(), chunks.next()) {
            (Some(a), Some(b)) => {
                pair::join(|| a.sort_unstable(), || b.sort_unstable());
            }
            (Some(a), None) => a.sort_unstable(),
            _ => break,
        }
    }
    let mut run = BLOCK;
    let mut other: Vec<I> = items.clone();
    while run < items.len() {
        {
            let src = &items[..];
            let mut outs = other.chunks_mut(2 * run);
            let mut srcs = src.chunks(2 * run);
            loop {
                match (outs.next(), srcs.next(), outs.next(), srcs.next()) {
                    (Some(o1), Some(s1), Some(o2), Some(s2)) => {
                        let (a1, b1) = s1.split_at(run.min(s1.len()));
                        let (a2, b2) = s2.split_at(run.min(s2.len()));
                        pair::join(|| merge(a1, b1, o1), || merge(a2, b2, o2));
                    }
                    (Some(o1), Some(s1), None, None) => {
                        let (a1, b1) = s1.split_at(run.min(s1.len()));
                        merge(a1, b1, o1);
                    }
                    _ => break,
                }
            }
        }
        std::mem::swap(items, &mut other);
        run *= 2;
    }
}

/// Sorts one lane of `len` elements starting at `start` with step `step` in `bytes`;
/// writes the sorted values (as `T`s) to `values` and the indices to `indices`.
#[allow(clippy::too_many_arguments)]
fn sort_lane<T: SortKey, I: Item>(
    bytes: &[u8],
    start: usize,
    len: usize,
    step: usize,
    descending: bool,
    items: &mut Vec<I>,
    values: &mut [u8],
    indices: &mut [i64],
) {
    let all = if T::KEY_BITS == 64 {
        u64::MAX
    } else {
        (1u64 << T::KEY_BITS) - 1
    };
    let load = |i: usize| T::load(&bytes[(start + i * step) * T::SIZE..]);
    items.clear();
    for from in (0..len).step_by(BLOCK) {
        interrupt::check();
        items.extend((from..len.min(from + BLOCK)).map(|i| {
            let k = load(i).key();
            I::new(if descending { all - k } else { k }, i)
        }));
    }
    sort_items(items);
    for (k, item) in items.iter().enumerate() {
        if k % BLOCK == BLOCK - 1 {
            interrupt::check();
        }
        let i = item.index();
        load(i).store(&mut values[k * T::SIZE..]);
        indices[k] = i as i64;
    }
}

/// Sorts the lanes `first..first + count` of `plan` (one along dim), writing each lane's
/// values and indices consecutively.
fn lanes<T: SortKey, I: Item>(
    bytes: &[u8],
    plan: &Plan,
    first: usize,
    descending: bool,
    values: &mut [u8],
    indices: &mut [i64],
) {
    let len = plan.along_len();
    let step = plan.along_strides.first().copied().unwrap_or(1) as usize;
    let mut items = Vec::with_capacity(len);
    let mut o = 0;
    plan.for_each_start(first, indices.len() / len.max(1), |start| {
        interrupt::check();
        let (v, i) = (
            &mut values[o * len * T::SIZE..],
            &mut indices[o * len..(o + 1) * len],
        );
        sort_lane::<T, I>(
            bytes,
            start as usize,
            len,
            step,
            descending,
            &mut items,
            v,
            i,
        );
        o += 1;
    });
}

/// Sorts every lane of `plan` (exactly one along dim, every element inside `bytes`), lane
/// after lane in `values` (`T`s) and `indices`; many lanes are split between the threads.
pub fn sort_lanes<T: SortKey>(
    bytes: &[u8],
    plan: &Plan,
    descending: bool,
    values: &mut [u8],
    indices: &mut [i64],
) {
    let len = plan.along_len();
    let n = plan.outputs();
    let run = |first: usize, v: &mut [u8], i: &mut [i64]| {
        if T::KEY_BITS <= 32 && len <= u32::MAX as usize {
            lanes::<T, u64>(bytes, plan, first, descending, v, i)
        } else {
            lanes::<T, (u64, u64)>(bytes, plan, first, descending, v, i)
        }
    };
    if n >= 2 && n * len >= PARALLEL_MIN {
        let half = n / 2;
        let (v1, v2) = values.split_at_mut(half * len * T::SIZE);
        let (i1, i2) = indices.split_at_mut(half * len);
        pair::join(|| run(0, v1, i1), || run(half, v2, i2));
    } else {
        run(0, values, indices);
    }
}

/// `t.sort(dim, descending)` on the engine (`dim` already wrapped; `t` not empty): the
/// values and indices as new tensors laid out as `empty_like(t)`, or `None` for dtypes the
/// engine does not cover (float8).
pub fn sort_tensor(
    t: &crate::core::tensor::Tensor,
    dim: usize,
    descending: bool,
) -> crate::core::error::Result<Option<(crate::core::tensor::Tensor, crate::core::tensor::Tensor)>>
{
    use crate::core::result_layout::like_input;
    use crate::core::tensor::Tensor;
    // The kernel reads storage bytes: a conjugate or negative view's values first.
    let t = &crate::core::copy::resolved(t)?;
    let dtype = t.dtype();
    let along: Vec<usize> = if t.ndim() == 0 { vec![] } else { vec![dim] };
    let plan = Plan::new(&t.layout(), &along);
    let mut lanes_shape = plan.kept_sizes.clone();
    lanes_shape.push(plan.along_len() as i64);
    let Some((values, indices)) = super::along::values_and_indices(
        t,
        lanes_shape,
        |bytes, vb, ix| crate::with_ordered!(dtype, T => sort_lanes::<T>(bytes, &plan, descending, vb, ix)),
    )?
    else {
        return Ok(None);
    };
    // The lanes' dim moves back to `dim` (a new layout over the same fresh storage).
    let back = |x: &Tensor| -> crate::core::error::Result<Tensor> {
        let l = x.layout();
        let (mut sizes, mut strides) = (l.sizes.to_vec(), l.strides.to_vec());
        let (size, stride) = (sizes.pop().unwrap_or(1), strides.pop().unwrap_or(1));
        if t.ndim() > 0 {
            sizes.insert(dim, size);
            strides.insert(dim, stride);
        }
        let placed = x.alias(crate::core::layout::Layout {
            sizes: sizes.into(),
            strides: strides.into(),
            offset: 0,
        });
        like_input(placed, t)
    };
    Ok(Some((back(&values)?, back(&indices)?)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::layout::Layout;

    fn sorted(v: &[f32], descending: bool) -> (Vec<f32>, Vec<i64>) {
        let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        let plan = Plan::new(&Layout::contiguous(vec![v.len() as i64]), &[0]);
        let mut values = vec![0u8; v.len() * 4];
        let mut indices = vec![0; v.len()];
        sort_lanes::<f32>(&bytes, &plan, descending, &mut values, &mut indices);
        (values.chunks_exact(4).map(f32::load).collect(), indices)
    }

    #[test]
    fn nan_last_zeros_equal_and_stable_both_ways() {
        let v = [1.0, f32::NAN, -0.0, 0.0, -3.0, 1.0, f32::NAN];
        let (_, i) = sorted(&v, false);
        assert_eq!(i, [4, 2, 3, 0, 5, 1, 6]);
        let (_, i) = sorted(&v, true);
        assert_eq!(i, [1, 6, 0, 5, 2, 3, 4]);
    }

    #[test]
    fn keys_keep_the_order_of_every_type() {
        assert!((-5i8).key() < 3i8.key() && (i64::MIN).key() < (-1i64).key());
        assert!((-1.5f64).key() < (-0.0f64).key() && (-0.0f64).key() == 0.0f64.key());
        assert!(f64::INFINITY.key() < f64::NAN.key());
        assert!(f16::from_f32(-2.0).key() < f16::from_f32(0.5).key());
    }

    #[test]
    fn long_lanes_merge_their_blocks() {
        let n = 3 * BLOCK + 17;
        let v: Vec<f32> = (0..n).map(|i| ((i * 7919) % 1000) as f32).collect();
        let (values, indices) = sorted(&v, false);
        assert!(values.windows(2).all(|w| w[0] <= w[1]));
        for w in indices.windows(2) {
            let (a, b) = (w[0] as usize, w[1] as usize);
            assert!(v[a] < v[b] || (v[a] == v[b] && a < b), "stable");
        }
    }
}
