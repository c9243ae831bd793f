//! `out[i] = f(a[i], b[i])` over broadcast operands, and its in-place form
//! `out[i] = f(out[i], b[i])`: a flat loop over slices when every tensor operand is contiguous
//! in the output's shape (split over two threads when large), else runs of the innermost
//! dimension.

use super::PARALLEL_MIN;
use super::lane::Lane;
use crate::core::layout::Dims;
use crate::core::layout::Layout;
use crate::core::strided::for_each_run;

/// An operand: tensor bytes with a layout already broadcast to the output's shape and
/// checked to lie within `bytes`, or one value for every element.
pub enum Src<'a, T> {
    /// A tensor's storage bytes and its (broadcast) layout.
    Strided(&'a [u8], Layout),
    /// A number.
    Const(T),
}

/// A flat view of an operand over `n` elements, when it has one.
enum Flat<'a, T> {
    Slice(&'a [u8]),
    Const(T),
}

fn flat<'a, T: Lane>(src: &Src<'a, T>, sizes: &[i64], n: usize) -> Option<Flat<'a, T>> {
    match src {
        Src::Const(v) => Some(Flat::Const(*v)),
        Src::Strided(bytes, l) if l.sizes[..] == *sizes && l.is_contiguous() => {
            let start = usize::try_from(l.offset).ok()? * T::SIZE;
            bytes.get(start..start + n * T::SIZE).map(Flat::Slice)
        }
        Src::Strided(..) => None,
    }
}

/// The flat loop for one output range. Four shapes of operands, each its own loop so the
/// compiler sees a plain zip over chunks.
fn flat_loop<T: Lane, R: Lane>(f: impl Fn(T, T) -> R, a: &Flat<T>, b: &Flat<T>, out: &mut [u8]) {
    let outs = out.chunks_exact_mut(R::SIZE);
    match (a, b) {
        (Flat::Slice(x), Flat::Slice(y)) => {
            for ((o, x), y) in outs
                .zip(x.chunks_exact(T::SIZE))
                .zip(y.chunks_exact(T::SIZE))
            {
                f(T::load(x), T::load(y)).store(o);
            }
        }
        (Flat::Slice(x), Flat::Const(y)) => {
            for (o, x) in outs.zip(x.chunks_exact(T::SIZE)) {
                f(T::load(x), *y).store(o);
            }
        }
        (Flat::Const(x), Flat::Slice(y)) => {
            for (o, y) in outs.zip(y.chunks_exact(T::SIZE)) {
                f(*x, T::load(y)).store(o);
            }
        }
        (Flat::Const(x), Flat::Const(y)) => {
            let v = f(*x, *y);
            for o in outs {
                v.store(o);
            }
        }
    }
}

fn split<'a, T: Lane>(f: &Flat<'a, T>, at: usize) -> (Flat<'a, T>, Flat<'a, T>) {
    match f {
        Flat::Slice(s) => {
            let (x, y) = s.split_at((at * T::SIZE).min(s.len()));
            (Flat::Slice(x), Flat::Slice(y))
        }
        Flat::Const(v) => (Flat::Const(*v), Flat::Const(*v)),
    }
}

/// Computes `out = f(a, b)` elementwise; `out` is a contiguous buffer of `sizes`.
pub fn binary<T: Lane, R: Lane>(
    f: impl Fn(T, T) -> R + Send + Sync + Copy,
    a: &Src<T>,
    b: &Src<T>,
    out: &mut [u8],
    sizes: &[i64],
) {
    let n = out.len() / R::SIZE;
    if let (Some(fa), Some(fb)) = (flat(a, sizes, n), flat(b, sizes, n)) {
        if n < PARALLEL_MIN {
            flat_loop(f, &fa, &fb, out);
            return;
        }
        let half = n / 2;
        let (o1, o2) = out.split_at_mut(half * R::SIZE);
        let (a1, a2) = split(&fa, half);
        let (b1, b2) = split(&fb, half);
        super::pair::join(|| flat_loop(f, &a2, &b2, o2), || flat_loop(f, &a1, &b1, o1));
        return;
    }
    let zeros = vec![0i64; sizes.len()];
    let out_layout = Layout::contiguous(Dims::from_slice(sizes));
    let operand = |s: &Src<T>| -> (Vec<i64>, i64) {
        match s {
            Src::Strided(_, l) => (l.strides.to_vec(), l.offset),
            Src::Const(_) => (zeros.clone(), 0),
        }
    };
    let (sa, oa) = operand(a);
    let (sb, ob) = operand(b);
    let load = |s: &Src<T>, i: i64| -> T {
        match s {
            Src::Strided(bytes, _) => T::load(&bytes[i as usize * T::SIZE..]),
            Src::Const(v) => *v,
        }
    };
    for_each_run(
        sizes,
        [(&out_layout.strides, 0), (&sa, oa), (&sb, ob)],
        |[o0, a0, b0], len, [_, da, db]| {
            let base = o0 as usize * R::SIZE;
            let outs = out[base..base + len * R::SIZE].chunks_exact_mut(R::SIZE);
            for (i, o) in outs.enumerate() {
                let i = i as i64;
                f(load(a, a0 + i * da), load(b, b0 + i * db)).store(o);
            }
        },
    );
}

/// The in-place loop for one range: `out[i] = f(out[i], b[i])`.
fn assign_loop<T: Lane>(f: impl Fn(T, T) -> T, out: &mut [u8], b: &Flat<T>) {
    let outs = out.chunks_exact_mut(T::SIZE);
    match b {
        Flat::Slice(y) => {
            for (o, y) in outs.zip(y.chunks_exact(T::SIZE)) {
                f(T::load(o), T::load(y)).store(o);
            }
        }
        Flat::Const(y) => {
            for o in outs {
                f(T::load(o), *y).store(o);
            }
        }
    }
}

/// Computes `out = f(out, b)` elementwise, in place: `out` is a contiguous buffer of `sizes`
/// holding the left operand, and `b` is read from other memory.
pub fn binary_assign<T: Lane>(
    f: impl Fn(T, T) -> T + Send + Sync + Copy,
    out: &mut [u8],
    b: &Src<T>,
    sizes: &[i64],
) {
    let n = out.len() / T::SIZE;
    if let Some(fb) = flat(b, sizes, n) {
        if n < PARALLEL_MIN {
            assign_loop(f, out, &fb);
            return;
        }
        let half = n / 2;
        let (o1, o2) = out.split_at_mut(half * T::SIZE);
        let (b1, b2) = split(&fb, half);
        super::pair::join(|| assign_loop(f, o2, &b2), || assign_loop(f, o1, &b1));
        return;
    }
    // A number is always flat, so `b` is a strided (broadcast or permuted) tensor here.
    let Src::Strided(bytes, l) = b else { return };
    let out_layout = Layout::contiguous(Dims::from_slice(sizes));
    for_each_run(
        sizes,
        [(&out_layout.strides, 0), (&l.strides, l.offset)],
        |[o0, b0], len, [_, db]| {
            let base = o0 as usize * T::SIZE;
            let outs = out[base..base + len * T::SIZE].chunks_exact_mut(T::SIZE);
            for (i, o) in outs.enumerate() {
                let y = T::load(&bytes[(b0 + i as i64 * db) as usize * T::SIZE..]);
                f(T::load(o), y).store(o);
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::kernels::lane::Arith;

    fn bytes_of(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    fn floats(b: &[u8]) -> Vec<f32> {
        b.chunks_exact(4).map(f32::load).collect()
    }

    #[test]
    fn flat_and_broadcast_agree() {
        let a = bytes_of(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let row = bytes_of(&[10.0, 20.0, 30.0]);
        let mut out = vec![0u8; 24];
        let la = Layout::contiguous(vec![2, 3]);
        let lrow = Layout {
            sizes: smallvec::smallvec![2, 3],
            strides: smallvec::smallvec![0, 1],
            offset: 0,
        };
        binary(
            f32::add,
            &Src::Strided(&a, la),
            &Src::Strided(&row, lrow),
            &mut out,
            &[2, 3],
        );
        assert_eq!(floats(&out), [11.0, 22.0, 33.0, 14.0, 25.0, 36.0]);
        binary(
            f32::mul,
            &Src::Const(2.0),
            &Src::Strided(&a, Layout::contiguous(vec![2, 3])),
            &mut out,
            &[2, 3],
        );
        assert_eq!(floats(&out), [2.0, 4.0, 6.0, 8.0, 10.0, 12.0]);
    }

    #[test]
    fn in_place_matches_the_out_of_place_result() {
        let a = bytes_of(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let col = bytes_of(&[10.0, 20.0]);
        // `col` broadcast down the columns: not flat, so the run path.
        let lcol = Layout {
            sizes: smallvec::smallvec![2, 3],
            strides: smallvec::smallvec![1, 0],
            offset: 0,
        };
        let mut expected = vec![0u8; 24];
        binary(
            f32::sub,
            &Src::Strided(&a, Layout::contiguous(vec![2, 3])),
            &Src::Strided(&col, lcol.clone()),
            &mut expected,
            &[2, 3],
        );
        let mut inplace = a.clone();
        binary_assign(f32::sub, &mut inplace, &Src::Strided(&col, lcol), &[2, 3]);
        assert_eq!(floats(&inplace), floats(&expected));
        assert_eq!(floats(&inplace), [-9.0, -8.0, -7.0, -16.0, -15.0, -14.0]);
        binary_assign(f32::mul, &mut inplace, &Src::Const(-1.0), &[2, 3]);
        assert_eq!(floats(&inplace), [9.0, 8.0, 7.0, 16.0, 15.0, 14.0]);
    }

    #[test]
    fn large_in_place_ops_split_over_threads() {
        let n = PARALLEL_MIN + 5;
        let mut a: Vec<u8> = (0..n).flat_map(|i| (i as f32).to_le_bytes()).collect();
        let b: Vec<u8> = (0..n)
            .flat_map(|i| (2.0 * i as f32).to_le_bytes())
            .collect();
        let lb = Layout::contiguous(vec![n as i64]);
        binary_assign(f32::add, &mut a, &Src::Strided(&b, lb), &[n as i64]);
        let got = floats(&a);
        assert!(got.iter().enumerate().all(|(i, v)| *v == 3.0 * i as f32));
    }

    #[test]
    fn large_inputs_split_over_threads_give_the_same_result() {
        let n = PARALLEL_MIN + 3;
        let a: Vec<u8> = (0..n).flat_map(|i| (i as f32).to_le_bytes()).collect();
        let mut out = vec![0u8; n * 4];
        binary(
            f32::sub,
            &Src::Strided(&a, Layout::contiguous(vec![n as i64])),
            &Src::Const(1.0),
            &mut out,
            &[n as i64],
        );
        let got = floats(&out);
        assert!(got.iter().enumerate().all(|(i, v)| *v == i as f32 - 1.0));
    }
}
