//! The two-operand mode of the engine: `f(x, y)` elementwise over two broadcast operands
//! (tensors of any layout and dtype, or Python numbers), into a new row-major result.
//!
//! The op's function works on *lanes*, the type its compute dtype is read in (`f64` for
//! floats, `i64` for integers and bools, complex `f64`), a chunk at a time: the engine walks
//! the operands' runs in place (no image of either operand is made), converts a chunk of
//! each into the compute dtype and then into lanes with typed run converters chosen once per
//! call, hands the chunks to the op (one call per chunk: the op's loop is its own, typed and
//! free of any dtype), and converts the results into the output dtype. Large results are
//! split between both threads; Ctrl-C is checked between chunks.
//!
//! The values are exactly those of casting each operand to the compute dtype, reading it
//! as a lane, and casting the lane's result to the output dtype.

use num_complex::Complex64;

use crate::core::broadcast::{broadcast_layout, broadcast_shapes};
use crate::core::copy::{conjugate_in_place, negate_in_place};
use crate::core::dtype::DType;
use crate::core::element::{self, ConvertRun};
use crate::core::error::Result;
use crate::core::interrupt;
use crate::core::kernels::pair;
use crate::core::kernels::plain::{Plain, bytes_of, bytes_of_mut};
use crate::core::layout::{Layout, contiguous_strides};
use crate::core::memory::alloc;
use crate::core::operand::Arg;
use crate::core::strided::for_each_run;
use crate::core::tensor::Tensor;

/// A type an op computes in, with the dtype whose elements it reads exactly.
pub trait ZipLane: Plain + Send + Sync {
    /// The dtype of the lane.
    const DTYPE: DType;
}

impl ZipLane for f64 {
    const DTYPE: DType = DType::Float64;
}

impl ZipLane for i64 {
    const DTYPE: DType = DType::Int64;
}

impl ZipLane for Complex64 {
    const DTYPE: DType = DType::Complex128;
}

/// An op's function over a chunk: `out[i] = f(x[i], y[i])` for every `i` (the three slices
/// have the same length), or the op's error.
pub type ChunkFn<'f, L> = &'f (dyn Fn(&[L], &[L], &mut [L]) -> Result<()> + Sync);

/// The chunk function of an element function that cannot fail.
pub fn each<L: Copy>(
    f: impl Fn(L, L) -> L + Sync,
) -> impl Fn(&[L], &[L], &mut [L]) -> Result<()> + Sync {
    move |x, y, out| {
        for ((o, &a), &b) in out.iter_mut().zip(x).zip(y) {
            *o = f(a, b);
        }
        Ok(())
    }
}

/// The chunk function of an element function that can fail (the first error stops it).
pub fn each_checked<L: Copy>(
    f: impl Fn(L, L) -> Result<L> + Sync,
) -> impl Fn(&[L], &[L], &mut [L]) -> Result<()> + Sync {
    move |x, y, out| {
        for ((o, &a), &b) in out.iter_mut().zip(x).zip(y) {
            *o = f(a, b)?;
        }
        Ok(())
    }
}

/// Elements per chunk.
const CHUNK: usize = 1024;

/// Elements from which the work is split between both threads.
const PARALLEL_MIN: usize = 1 << 16;

/// One operand, read in place.
enum Source<'a> {
    /// A tensor's storage bytes, walked through its broadcast layout.
    Tensor {
        bytes: &'a [u8],
        /// From the tensor's dtype to the compute dtype (`None`: already in it, no bits).
        to_compute: Option<ConvertRun>,
        /// Conjugate and negative bits to apply in the compute dtype.
        conj: bool,
        neg: bool,
    },
    /// A number, already a lane.
    Number,
}

/// `f` over `a` and `b` broadcast together, computed in `compute` on lanes `L`, stored as
/// `out`: a new row-major tensor of the broadcast shape.
pub fn zip<L: ZipLane>(
    a: &Arg,
    b: &Arg,
    compute: DType,
    out: DType,
    f: ChunkFn<'_, L>,
) -> Result<Tensor> {
    zip_n::<L, 2>([a, b], compute, out, &|[x, y], o| f(x, y, o))
}

/// An op's function over a chunk of `N` operands: `out[i] = f(xs[0][i], xs[1][i], ...)`
/// (every slice has the same length), or the op's error.
pub type ChunkFnN<'f, L, const N: usize> = &'f (dyn Fn([&[L]; N], &mut [L]) -> Result<()> + Sync);

/// `f` over `N` operands broadcast together (the modes of `zip` with more operands, as
/// `lerp` and `addcmul` have), computed in `compute` on lanes `L`, stored as `out`.
pub fn zip_n<L: ZipLane, const N: usize>(
    args: [&Arg; N],
    compute: DType,
    out: DType,
    f: ChunkFnN<'_, L, N>,
) -> Result<Tensor> {
    const { assert!(N >= 1 && N <= 3, "the engine zips one to three operands") };
    let mut sizes: Vec<i64> = Vec::new();
    for a in args {
        sizes = broadcast_shapes(&sizes, &shape(a))?;
    }
    let n = alloc::checked_numel(&sizes)?.max(0) as usize;
    let mut res = alloc::zeroed_bytes(alloc::contiguous_nbytes(&sizes, out.itemsize())?)?;
    if n > 0 {
        let mut layouts = Vec::with_capacity(N);
        let mut numbers = Vec::with_capacity(N);
        for a in args {
            let (l, v) = prepared::<L>(a, &sizes, compute)?;
            layouts.push(l);
            numbers.push(v);
        }
        let storages: Vec<_> = args
            .iter()
            .map(|a| a.as_tensor().map(Tensor::storage))
            .collect();
        with_all_bytes(
            &storages,
            Vec::with_capacity(N),
            &mut |bytes: &[&[u8]]| {
                let sources: Vec<Source> = args
                    .iter()
                    .zip(bytes)
                    .map(|(a, b)| source(a, b, compute))
                    .collect();
                let job = Job {
                    sources: &sources,
                    layouts: &layouts,
                    numbers: &numbers,
                    compute,
                    to_out: element::converter(L::DTYPE, out),
                    to_lane: element::converter(compute, L::DTYPE),
                    out_item: out.itemsize(),
                    f,
                };
                job.run(&sizes, &mut res, n)
            },
        )?;
    }
    Ok(Tensor::from_parts(
        crate::core::memory::storage::Storage::from_vec(res),
        out,
        Layout::contiguous(sizes),
    ))
}

/// The sizes of an operand (a number has none).
fn shape(a: &Arg) -> Vec<i64> {
    a.as_tensor().map(Tensor::sizes).unwrap_or_default()
}

/// The operand's broadcast layout (checked against its storage), and for a number its
/// value as a lane (cast to `compute` first).
fn prepared<L: ZipLane>(a: &Arg, sizes: &[i64], compute: DType) -> Result<(Layout, L)> {
    Ok(match a {
        Arg::Tensor(t) => {
            let l = broadcast_layout(&t.layout(), sizes)?;
            l.check_in_bounds(t.dtype().itemsize(), t.storage().nbytes())?;
            (l, L::default())
        }
        Arg::Number(s) => {
            let (bytes, _) = element::encode(compute, *s);
            let mut lane = [L::default()];
            element::converter(compute, L::DTYPE)(&bytes, 0, 0, bytes_of_mut(&mut lane), 0, 1, 1);
            (Layout::contiguous(sizes.to_vec()), lane[0])
        }
    })
}

fn source<'a>(a: &Arg, bytes: &'a [u8], compute: DType) -> Source<'a> {
    match a {
        Arg::Number(_) => Source::Number,
        Arg::Tensor(t) => {
            let (conj, neg) = (t.is_conj(), t.is_neg());
            let to_compute = (t.dtype() != compute || conj || neg)
                .then(|| element::converter(t.dtype(), compute));
            Source::Tensor {
                bytes,
                to_compute,
                conj,
                neg,
            }
        }
    }
}

/// Runs `f` with every storage's bytes borrowed (an empty slice for a number), the
/// borrows nested one storage at a time.
fn with_all_bytes<R>(
    storages: &[Option<crate::core::memory::storage::Storage>],
    held: Vec<&[u8]>,
    f: &mut dyn FnMut(&[&[u8]]) -> R,
) -> R {
    let Some((first, rest)) = storages.split_first() else {
        return f(&held);
    };
    match first {
        Some(s) => s.with_bytes(|b| {
            let mut inner: Vec<&[u8]> = held.clone();
            inner.push(b);
            with_all_bytes(rest, inner, f)
        }),
        None => {
            let mut inner = held;
            inner.push(&[]);
            with_all_bytes(rest, inner, f)
        }
    }
}

/// Everything a walk over (part of) the output needs.
struct Job<'a, 'f, L, const N: usize> {
    /// Each operand's source, its broadcast layout, its lane value if a number.
    sources: &'a [Source<'a>],
    layouts: &'a [Layout],
    numbers: &'a [L],
    compute: DType,
    to_out: ConvertRun,
    to_lane: ConvertRun,
    out_item: usize,
    f: ChunkFnN<'f, L, N>,
}

impl<L: ZipLane, const N: usize> Job<'_, '_, L, N> {
    /// Walks the whole output, split in two along its first dim of size ≥ 2 when large.
    fn run(&self, sizes: &[i64], res: &mut [u8], n: usize) -> Result<()> {
        let offsets: [i64; N] = std::array::from_fn(|i| self.layouts[i].offset);
        let split = sizes.iter().position(|&s| s >= 2);
        let Some(d) = split.filter(|_| n >= PARALLEL_MIN && pair::threads() >= 2) else {
            return self.walk(sizes, 0, offsets, res);
        };
        let half = sizes[d] / 2;
        let inner: i64 = sizes[d + 1..].iter().product();
        let mut first = sizes.to_vec();
        first[d] = half;
        let mut second = sizes.to_vec();
        second[d] = sizes[d] - half;
        let at = (half * inner) as usize * self.out_item;
        let (r1, r2) = res.split_at_mut(at);
        let later: [i64; N] =
            std::array::from_fn(|i| offsets[i] + half * self.layouts[i].strides[d]);
        let (a, b) = pair::join(
            || self.walk(&first, 0, offsets, r1),
            || self.walk(&second, 0, later, r2),
        );
        a.and(b)
    }

    /// Walks the output part of `sizes` whose first elements are at `out_start` and
    /// `starts` (one per operand), writing into `res` (that part's bytes).
    fn walk(&self, sizes: &[i64], out_start: i64, starts: [i64; N], res: &mut [u8]) -> Result<()> {
        let out_strides = contiguous_strides(sizes);
        let mut bufs = Buffers::<L, N>::new(self.compute, self.numbers);
        let mut failed = None;
        let mut walked = vec![(out_strides.as_slice(), out_start)];
        walked.extend((0..N).map(|i| (self.layouts[i].strides.as_slice(), starts[i])));
        walk_operands(sizes, &walked, &mut |first: &[i64], len, steps: &[i64]| {
            let mut done = 0;
            while done < len && failed.is_none() {
                interrupt::check();
                let k = (len - done).min(CHUNK);
                let at = |start: i64, step: i64| (start + done as i64 * step) as usize;
                for i in 0..N {
                    self.lanes(
                        &self.sources[i],
                        at(first[i + 1], steps[i + 1]),
                        steps[i + 1] as usize,
                        k,
                        &mut bufs.compute,
                        &mut bufs.operands[i],
                    );
                }
                let chunks: [&[L]; N] = std::array::from_fn(|i| &bufs.operands[i][..k]);
                if let Err(e) = (self.f)(chunks, &mut bufs.out[..k]) {
                    failed = Some(e);
                    break;
                }
                (self.to_out)(
                    bytes_of(&bufs.out[..k]),
                    0,
                    1,
                    res,
                    at(first[0], steps[0]),
                    steps[0] as usize,
                    k,
                );
                done += k;
            }
        });
        failed.map_or(Ok(()), Err)
    }

    /// Fills `lanes[..k]` with `k` elements of `src` from element `start`, `step` apart.
    #[allow(clippy::too_many_arguments)]
    fn lanes(
        &self,
        src: &Source,
        start: usize,
        step: usize,
        k: usize,
        tmp: &mut [u8],
        lanes: &mut [L],
    ) {
        let Source::Tensor {
            bytes,
            to_compute,
            conj,
            neg,
        } = src
        else {
            // A number's lanes were filled once and are never written.
            return;
        };
        let lanes = bytes_of_mut(&mut lanes[..k]);
        match to_compute {
            None => (self.to_lane)(bytes, start, step, lanes, 0, 1, k),
            Some(convert) => {
                let tmp = &mut tmp[..k * self.compute.itemsize()];
                convert(bytes, start, step, tmp, 0, 1, k);
                if *conj {
                    conjugate_in_place(self.compute, tmp);
                }
                if *neg {
                    negate_in_place(self.compute, tmp);
                }
                (self.to_lane)(tmp, 0, 1, lanes, 0, 1, k);
            }
        }
    }
}

/// A walk's scratch: a chunk in the compute dtype, each operand's lanes, the results.
struct Buffers<L, const N: usize> {
    compute: Vec<u8>,
    operands: [Vec<L>; N],
    out: Vec<L>,
}

impl<L: ZipLane, const N: usize> Buffers<L, N> {
    /// Buffers for one chunk; a number operand's lanes hold its value throughout.
    fn new(compute: DType, numbers: &[L]) -> Self {
        Buffers {
            compute: vec![0; CHUNK * compute.itemsize()],
            operands: std::array::from_fn(|i| vec![numbers[i]; CHUNK]),
            out: vec![L::default(); CHUNK],
        }
    }
}

/// A run's visitor: the run's first element in each walked tensor, its length, the steps.
type RunFn<'a> = dyn FnMut(&[i64], usize, &[i64]) + 'a;

/// `for_each_run` over the output and up to 3 operands (the arities the engine's ops
/// have), the runs' starts and steps handed over as slices.
fn walk_operands(sizes: &[i64], walked: &[(&[i64], i64)], f: &mut RunFn<'_>) {
    match walked {
        [o, a] => for_each_run(sizes, [*o, *a], |s, len, st| f(&s, len, &st)),
        [o, a, b] => for_each_run(sizes, [*o, *a, *b], |s, len, st| f(&s, len, &st)),
        [o, a, b, c] => for_each_run(sizes, [*o, *a, *b, *c], |s, len, st| f(&s, len, &st)),
        // `zip_n` asserts 1 ≤ N ≤ 3 at compile time.
        _ => unreachable!("the engine zips one to three operands"),
    }
}
