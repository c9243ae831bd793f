//! Moving elements by index: `index_select` (whole blocks named by an index along a dim) and
//! `gather` (one element per index). Elements are moved as fixed-size byte groups chosen
//! once per call from the item size, so one kernel serves every dtype; contiguous blocks
//! are copied whole. Index tensors are read in their own dtype (int64 or int32).

use crate::core::dtype::DType;
use crate::core::error::{Result, TorchError};
use crate::core::interrupt;
use crate::core::kernels::{PARALLEL_MIN_BYTES, pair};
use crate::core::layout::Layout;
use crate::core::strided::for_each_run;
use crate::core::tensor::Tensor;

/// The values of an int64 or int32 index tensor in row-major order.
pub fn index_values(index: &Tensor) -> Result<Vec<i64>> {
    let l = index.layout();
    let mut out = crate::core::memory::alloc::vec_with_capacity(l.numel().max(0) as usize)?;
    let wide = index.dtype() == DType::Int64;
    index.storage().with_bytes(|bytes| -> Result<()> {
        l.check_in_bounds(index.dtype().itemsize(), bytes.len())?;
        for_each_run(&l.sizes, [(&l.strides, l.offset)], |[s], n, [st]| {
            for k in 0..n as i64 {
                let at = (s + k * st) as usize;
                out.push(if wide {
                    i64::from_le_bytes(bytes[at * 8..at * 8 + 8].try_into().unwrap_or([0; 8]))
                } else {
                    i32::from_le_bytes(bytes[at * 4..at * 4 + 4].try_into().unwrap_or([0; 4]))
                        as i64
                });
            }
        });
        Ok(())
    })?;
    Ok(out)
}

/// Copies the elements of `sizes`/`strides` from `start` in `src` (row-major) to the front
/// of `out`, `S` bytes each; returns the bytes written.
fn copy_block<const S: usize>(
    src: &[u8],
    sizes: &[i64],
    strides: &[i64],
    start: i64,
    out: &mut [u8],
) -> usize {
    let mut w = 0;
    for_each_run(sizes, [(strides, start)], |[s], n, [st]| {
        let s = s as usize;
        if st == 1 {
            out[w..w + n * S].copy_from_slice(&src[s * S..(s + n) * S]);
        } else {
            for k in 0..n {
                let at = (s + k * st as usize) * S;
                out[w + k * S..w + (k + 1) * S].copy_from_slice(&src[at..at + S]);
            }
        }
        w += n * S;
    });
    w
}

/// Runs `$body` with `$S` the item size as a constant.
macro_rules! with_item_size {
    ($size:expr, $S:ident => $body:expr) => {
        match $size {
            1 => {
                const $S: usize = 1;
                $body
            }
            2 => {
                const $S: usize = 2;
                $body
            }
            4 => {
                const $S: usize = 4;
                $body
            }
            8 => {
                const $S: usize = 8;
                $body
            }
            _ => {
                const $S: usize = 16;
                $body
            }
        }
    };
}

/// The blocks of `index_select`: for each position of the dims before `dim`, the block of
/// the dims after it at each index (already checked to be in range), into `out` in order.
fn select_blocks<const S: usize>(src: &[u8], l: &Layout, dim: usize, idx: &[i64], out: &mut [u8]) {
    let (outer_sizes, outer_strides) = (&l.sizes[..dim], &l.strides[..dim]);
    let (inner_sizes, inner_strides) = (&l.sizes[dim + 1..], &l.strides[dim + 1..]);
    let block = inner_sizes.iter().product::<i64>().max(0) as usize * S;
    let step = l.strides[dim];
    let run = |idx: &[i64], out: &mut [u8], outer_start: i64| {
        for (k, &i) in idx.iter().enumerate() {
            if k & 0xfff == 0 {
                interrupt::check();
            }
            copy_block::<S>(
                src,
                inner_sizes,
                inner_strides,
                outer_start + i * step,
                &mut out[k * block..],
            );
        }
    };
    let per_outer = idx.len() * block;
    let mut o = 0;
    for_each_run(outer_sizes, [(outer_strides, l.offset)], |[s], n, [st]| {
        for j in 0..n as i64 {
            let out = &mut out[o * per_outer..(o + 1) * per_outer];
            let start = s + j * st;
            if per_outer >= PARALLEL_MIN_BYTES && idx.len() >= 2 {
                let half = idx.len() / 2;
                let (o1, o2) = out.split_at_mut(half * block);
                pair::join(
                    || run(&idx[..half], o1, start),
                    || run(&idx[half..], o2, start),
                );
            } else {
                run(idx, out, start);
            }
            o += 1;
        }
    });
}

/// `index_select`'s result: the blocks of `t` (not empty, not 0-d) at `idx` (in range)
/// along `dim`, as a new contiguous tensor.
pub fn index_select(t: &Tensor, dim: usize, idx: &[i64]) -> Result<Tensor> {
    let t = &resolved(t)?;
    let l = t.layout();
    let mut sizes = l.sizes.to_vec();
    sizes[dim] = idx.len() as i64;
    let out = Tensor::zeros(sizes, t.dtype())?;
    if out.numel() == 0 {
        // Nothing to move: the input's outer dims are not walked (they may be 2^62 long).
        return Ok(out);
    }
    let size = t.dtype().itemsize();
    t.storage().with_bytes(|src| -> Result<()> {
        l.check_in_bounds(size, src.len())?;
        out.storage().with_bytes_mut(
            |o| with_item_size!(size, S => select_blocks::<S>(src, &l, dim, idx, o)),
        );
        Ok(())
    })?;
    Ok(out)
}

/// A conjugate or negative view materialised (moved bytes would lose the bit); others as
/// they are.
fn resolved(t: &Tensor) -> Result<Tensor> {
    crate::core::copy::resolved(t)
}

/// `gather`'s result: `out[p] = t[p with dim replaced by index[p]]` for each position `p`
/// of `index` (its sizes checked against `t`'s), a new contiguous tensor shaped as `index`.
/// `t` has at least one dim here (a 0-d input is seen as one element of 1-d).
pub fn gather(t: &Tensor, dim: usize, index: &Tensor) -> Result<Tensor> {
    let t = &resolved(t)?;
    let l = t.layout();
    let il = index.layout();
    let out = Tensor::zeros(il.sizes.to_vec(), t.dtype())?;
    let size = t.dtype().itemsize();
    let (bound, step) = (l.sizes[dim], l.strides[dim]);
    let mut base_strides = l.strides.to_vec();
    base_strides[dim] = 0;
    let wide = index.dtype() == DType::Int64;
    let mut bad = None;
    t.storage().with_bytes(|src| -> Result<()> {
        l.check_in_bounds(size, src.len())?;
        index.storage().with_bytes(|ib| -> Result<()> {
            il.check_in_bounds(index.dtype().itemsize(), ib.len())?;
            out.storage().with_bytes_mut(|o| {
                with_item_size!(size, S => {
                    let mut w = 0;
                    let operands = [(&il.strides[..], il.offset), (&base_strides[..], l.offset)];
                    for_each_run(&il.sizes, operands, |[is, bs], n, [ist, bst]| {
                        for k in 0..n as i64 {
                            if bad.is_some() {
                                return;
                            }
                            let at = (is + k * ist) as usize;
                            let i = if wide {
                                i64::from_le_bytes(ib[at * 8..at * 8 + 8].try_into().unwrap_or([0; 8]))
                            } else {
                                i32::from_le_bytes(ib[at * 4..at * 4 + 4].try_into().unwrap_or([0; 4])) as i64
                            };
                            if i < 0 || i >= bound {
                                bad = Some(i);
                                return;
                            }
                            let from = (bs + k * bst + i * step) as usize * S;
                            o[w..w + S].copy_from_slice(&src[from..from + S]);
                            w += S;
                        }
                    });
                })
            });
            Ok(())
        })
    })?;
    if let Some(i) = bad {
        return Err(TorchError::runtime(format!(
            "index {i} is out of bounds for dimension {dim} with size {bound}"
        )));
    }
    Ok(out)
}
