//! Strided kernels that move bytes: copy (with broadcasting and dtype conversion), fill,
//! gather into row-major order, clone and cast. Each walks runs of the innermost dimension
//! (`strided::for_each_run`), using `copy_from_slice` when a run is contiguous on both sides
//! and the dtypes agree, and checks bounds against the storage once before touching bytes.

use super::broadcast::broadcast_layout;
use super::dtype::DType;
use super::element;
use super::error::{Result, TorchError};
use super::layout::Layout;
use super::memory::storage::Storage;
use super::memory_format::MemoryFormat;
use super::scalar::Scalar;
use super::strided::for_each_run;
use super::tensor::Tensor;
use crate::core::layout::contiguous_strides;

/// Copies `src` (same shape) into `dst_bytes`, both described by layouts already checked
/// against their byte slices.
fn copy_runs(dst: &mut [u8], dd: DType, dl: &Layout, src: &[u8], sd: DType, sl: &Layout) {
    if dd == sd && copy_transposed(dst, dd.itemsize(), dl, src, sl) {
        return;
    }
    let (di, si) = (dd.itemsize() as i64, sd.itemsize() as i64);
    // A conversion from a one-byte dtype looks each element up in a table made once per
    // copy, when the copy has more elements than the table has entries (else converting
    // each element costs less than making the table).
    let table = if dl.numel() > 256 {
        byte_table(dd, sd)
    } else {
        None
    };
    // The conversion of elements between different dtypes, chosen once for the copy.
    let convert = element::converter(sd, dd);
    for_each_run(
        &dl.sizes,
        [(&dl.strides, dl.offset), (&sl.strides, sl.offset)],
        |[d0, s0], n, [ds, ss]| {
            if dd == sd && ds == 1 && ss == 1 {
                let (d, s) = ((d0 * di) as usize, (s0 * si) as usize);
                let len = n * di as usize;
                super::kernels::copy_bytes(&mut dst[d..d + len], &src[s..s + len]);
            } else if dd == sd {
                let w = di as usize;
                for i in 0..n as i64 {
                    let d = ((d0 + i * ds) * di) as usize;
                    let s = ((s0 + i * ss) * si) as usize;
                    dst[d..d + w].copy_from_slice(&src[s..s + w]);
                }
            } else if let Some(table) = &table {
                // A one-byte source: each element's converted bytes looked up.
                let w = di as usize;
                for i in 0..n as i64 {
                    let d = ((d0 + i * ds) * di) as usize;
                    let s = (s0 + i * ss) as usize;
                    let at = src[s] as usize * w;
                    dst[d..d + w].copy_from_slice(&table[at..at + w]);
                }
            } else {
                let (s0, ss, d0, ds) = (s0 as usize, ss as usize, d0 as usize, ds as usize);
                convert(src, s0, ss, dst, d0, ds, n);
            }
        },
    );
}

/// For a conversion from a one-byte dtype (bool, uint8, int8, the float8 dtypes): the
/// converted bytes of each of the 256 source values, `dd.itemsize()` bytes each, made once
/// per copy (exactly what converting each element would write).
fn byte_table(dd: DType, sd: DType) -> Option<Vec<u8>> {
    if sd.itemsize() != 1 || dd == sd {
        return None;
    }
    let w = dd.itemsize();
    let mut table = vec![0u8; 256 * w];
    for (b, out) in table.chunks_exact_mut(w).enumerate() {
        element::write(dd, out, element::read(sd, &[b as u8]));
    }
    Some(table)
}

/// The tiled path for a copy whose dims merge to two, into a row-major destination, from a
/// source read across its rows (its inner stride is not 1): a transpose. Returns false when
/// the copy is not of that shape.
fn copy_transposed(dst: &mut [u8], item: usize, dl: &Layout, src: &[u8], sl: &Layout) -> bool {
    use super::kernels::transpose::{Copy2d, copy_2d};
    let dims = super::strided::merged_dims(&dl.sizes, [&dl.strides, &sl.strides]);
    let [(rows, [d0, s0]), (cols, [d1, s1])] = dims[..] else {
        return false;
    };
    let positive = s0 > 0 && s1 > 0 && dl.offset >= 0 && sl.offset >= 0;
    if d1 != 1 || d0 != cols || s1 == 1 || !positive || rows * cols < 1024 {
        return false;
    }
    let c = Copy2d {
        rows: rows as usize,
        cols: cols as usize,
        dst_offset: dl.offset as usize,
        src_offset: sl.offset as usize,
        src_strides: [s0 as usize, s1 as usize],
    };
    match item {
        1 => copy_2d::<u8>(dst, src, c),
        2 => copy_2d::<i16>(dst, src, c),
        4 => copy_2d::<i32>(dst, src, c),
        8 => copy_2d::<i64>(dst, src, c),
        _ => return false,
    }
    true
}

/// Raises PyTorch's error for writing through a tensor whose elements alias each other.
pub fn check_no_internal_overlap(layout: &Layout) -> Result<()> {
    if layout.has_internal_overlap() {
        return Err(super::why::note(
            TorchError::runtime(
                "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.",
            ),
            super::why::Case::OverlappingWrite {
                layout: layout.clone(),
            },
        ));
    }
    Ok(())
}

/// `dst.copy_(src)`: broadcasts `src` to `dst`'s shape and converts dtypes. When both share a
/// storage, `src` is first gathered into a fresh buffer so overlapping copies are exact.
pub fn copy_(dst: &Tensor, src: &Tensor) -> Result<()> {
    if !dst.is_resolved() || !src.is_resolved() {
        return copy_lazy(dst, src);
    }
    let dl = dst.layout();
    check_no_internal_overlap(&dl)?;
    super::overlap::check_no_partial_overlap(dst, src)?;
    let src = if src.storage().shares_memory(&dst.storage()) {
        contiguous_copy(src)?
    } else {
        src.clone()
    };
    let sl = broadcast_layout(&src.layout(), &dl.sizes)?;
    let (dd, sd) = (dst.dtype(), src.dtype());
    let (ds, ss) = (dst.storage(), src.storage());
    let src_bytes_len = ss.nbytes();
    sl.check_in_bounds(sd.itemsize(), src_bytes_len)?;
    ss.with_bytes(|sb| {
        // The source is another storage (ensured above), so this nested borrow is disjoint.
        ds.with_bytes_mut(|db| {
            dl.check_in_bounds(dd.itemsize(), db.len())?;
            copy_runs(db, dd, &dl, sb, sd, &sl);
            Ok(())
        })
    })
}

/// `copy_` where either side has the conjugate or negative bit: the source's values
/// resolved, in the destination's dtype, with the destination's bits applied again so that
/// its stored form reads back as those values.
fn copy_lazy(dst: &Tensor, src: &Tensor) -> Result<()> {
    check_no_internal_overlap(&dst.layout())?;
    super::overlap::check_no_partial_overlap(dst, src)?;
    let sizes = dst.sizes();
    let src = broadcast_layout(&src.layout(), &sizes).map(|l| src.alias(l))?;
    // Resolving in the source's own dtype first reads the bytes once (no recursion here).
    let resolved = if src.is_resolved() {
        src
    } else {
        contiguous_copy(&src)?
    };
    let resolved = cast_copy(&resolved, dst.dtype())?;
    resolved
        .storage()
        .with_bytes_mut(|b| apply_bits_in_place(dst, b));
    copy_(&dst.as_stored(), &resolved)
}

/// `t` itself when its values are its stored bytes, else a contiguous copy holding its
/// values (for kernels that read storage bytes directly).
pub fn resolved(t: &Tensor) -> Result<Tensor> {
    if t.is_resolved() {
        Ok(t.clone())
    } else {
        // Laid out as `clone()` lays it out, so results shaped like the input (sorts) keep
        // a dense input's strides.
        clone_tensor(t)
    }
}

/// Runs `write` on the stored form of the negative view `t`, then negates the elements it
/// reaches, so that `t` reads what `write` wrote (random fills, which draw in `t`'s own
/// element order).
pub fn write_through_negation(t: &Tensor, write: impl FnOnce(&Tensor) -> Result<()>) -> Result<()> {
    let stored = t.as_stored();
    write(&stored)?;
    let values = contiguous_copy(&stored)?;
    values
        .storage()
        .with_bytes_mut(|b| negate_in_place(t.dtype(), b));
    copy_(&stored, &values)
}

/// Applies `t`'s conjugate and negative bits to elements of its dtype in `bytes`: turns
/// values into the stored form, or the stored form into values (each bit is its own
/// inverse).
pub fn apply_bits_in_place(t: &Tensor, bytes: &mut [u8]) {
    if t.is_conj() {
        conjugate_in_place(t.dtype(), bytes);
    }
    if t.is_neg() {
        negate_in_place(t.dtype(), bytes);
    }
}

/// Negates the elements of `dtype` stored in `bytes` (the host being little-endian): IEEE
/// floats and complex parts by flipping each sign bit (exact, zeros and NaNs included); the
/// `fnuz` float8 formats, which have no negative zero, leave zero and their NaN alone;
/// integers wrap. Bools have no negation and are left alone (PyTorch cannot resolve a
/// negative bool view either).
pub fn negate_in_place(dtype: DType, bytes: &mut [u8]) {
    fn wrapping<const N: usize>(bytes: &mut [u8]) {
        for e in bytes.chunks_exact_mut(N) {
            let mut v = [0u8; 16];
            v[..N].copy_from_slice(e);
            let negated = u128::from_le_bytes(v).wrapping_neg().to_le_bytes();
            e.copy_from_slice(&negated[..N]);
        }
    }
    match dtype {
        DType::Bool => {}
        DType::UInt8 | DType::Int8 => wrapping::<1>(bytes),
        DType::Int16 | DType::UInt16 => wrapping::<2>(bytes),
        DType::Int32 | DType::UInt32 => wrapping::<4>(bytes),
        DType::Int64 | DType::UInt64 => wrapping::<8>(bytes),
        DType::Float8E4M3FNUZ | DType::Float8E5M2FNUZ => {
            for b in bytes.iter_mut().filter(|b| **b & 0x7f != 0) {
                *b ^= 0x80;
            }
        }
        DType::Float8E4M3FN | DType::Float8E5M2 => bytes.iter_mut().for_each(|b| *b ^= 0x80),
        DType::Float16
        | DType::BFloat16
        | DType::Float32
        | DType::Float64
        | DType::Complex32
        | DType::Complex64
        | DType::Complex128 => {
            let part = if dtype.is_complex() {
                dtype.itemsize() / 2
            } else {
                dtype.itemsize()
            };
            for p in bytes.chunks_exact_mut(part) {
                p[part - 1] ^= 0x80;
            }
        }
    }
}

/// Conjugates the complex elements of `dtype` stored in `bytes` by flipping the sign bit of
/// each imaginary part (the last byte of each element, the host being little-endian). A
/// real dtype is left alone.
pub fn conjugate_in_place(dtype: DType, bytes: &mut [u8]) {
    if !dtype.is_complex() {
        return;
    }
    let w = dtype.itemsize();
    for element in bytes.chunks_exact_mut(w) {
        element[w - 1] ^= 0x80;
    }
}

/// Writes `value` into every element of `dst` (PyTorch allows this on expanded tensors).
pub fn fill_(dst: &Tensor, value: Scalar) -> Result<()> {
    let (dl, dd) = (dst.layout(), dst.dtype());
    // A conjugate view stores the conjugate of what it is given, taken as a complex number:
    // `zero_()` through one stores `0-0j` (a `-0.` imaginary part), as PyTorch does; a
    // negative view stores the negation (`-0.` for a zero).
    let value = if dst.is_conj() {
        Scalar::Complex(value.to_complex().conj())
    } else {
        value
    };
    let value = if dst.is_neg() {
        -Scalar::Float(value.to_f64())
    } else {
        value
    };
    fill_layout(&dst.storage(), dd, &dl, value)
}

/// Writes `value` into every element a layout reaches, after the bounds check.
pub fn fill_layout(storage: &Storage, dtype: DType, layout: &Layout, value: Scalar) -> Result<()> {
    let (pattern, w) = element::encode(dtype, value);
    let pattern = &pattern[..w];
    // Writing one value is idempotent, so a stride-0 (expanded) dim needs one pass, not one
    // per index: collapse it to size 1.
    let sizes: Vec<i64> = layout
        .sizes
        .iter()
        .zip(&layout.strides)
        .map(|(&s, &st)| if st == 0 && s > 0 { 1 } else { s })
        .collect();
    storage.with_bytes_mut(|bytes| {
        layout.check_in_bounds(w, bytes.len())?;
        for_each_run(
            &sizes,
            [(&layout.strides, layout.offset)],
            |[s0], n, [st]| {
                if st == 1 {
                    let start = s0 as usize * w;
                    fill_run(&mut bytes[start..start + n * w], pattern);
                } else {
                    for i in 0..n as i64 {
                        let at = ((s0 + i * st) as usize) * w;
                        bytes[at..at + w].copy_from_slice(pattern);
                    }
                }
            },
        );
        Ok(())
    })
}

/// Fills a contiguous run with copies of `pattern` (one element's bytes); a large run is
/// split between the two threads.
fn fill_run(run: &mut [u8], pattern: &[u8]) {
    let w = pattern.len();
    if run.len() < super::kernels::PARALLEL_MIN_BYTES {
        return fill_run_here(run, pattern);
    }
    let (first, second) = run.split_at_mut(run.len() / w / 2 * w);
    super::kernels::pair::join(
        || fill_run_here(first, pattern),
        || fill_run_here(second, pattern),
    );
}

/// `fill_run` on this thread: a memset when the element is one repeated byte (zeros, bytes,
/// bools), else a block of elements written once and copied along the run.
fn fill_run_here(run: &mut [u8], pattern: &[u8]) {
    if pattern.iter().all(|&b| b == pattern[0]) {
        run.fill(pattern[0]);
        return;
    }
    const BLOCK_ELEMENTS: usize = 64;
    let block_len = (BLOCK_ELEMENTS * pattern.len()).min(run.len());
    let (block, rest) = run.split_at_mut(block_len);
    for chunk in block.chunks_exact_mut(pattern.len()) {
        chunk.copy_from_slice(pattern);
    }
    let mut rest = rest.chunks_exact_mut(block_len);
    for chunk in rest.by_ref() {
        chunk.copy_from_slice(block);
    }
    let tail = rest.into_remainder();
    tail.copy_from_slice(&block[..tail.len()]);
}

/// Every element in row-major order, decoded.
pub fn to_scalars(t: &Tensor) -> Result<Vec<Scalar>> {
    // Out-of-bounds layouts are refused before room for their elements is asked for.
    let l = t.layout();
    l.check_in_bounds(t.dtype().itemsize(), t.storage().nbytes())?;
    let mut out = super::memory::alloc::vec_with_capacity(l.numel().max(0) as usize)?;
    for_each_scalar(t, |v| out.push(v))?;
    Ok(out)
}

/// The elements as `i64`, in row-major order: a helper for unit tests of the kernels.
#[cfg(test)]
pub(crate) fn int_values(t: &Tensor) -> Vec<i64> {
    to_scalars(t)
        .expect("a tensor inside its storage")
        .into_iter()
        .map(Scalar::to_i64)
        .collect()
}

/// Visits every element in row-major order (conjugated and negated when the tensor's bits
/// say so), reading each straight from the storage: no copy of the tensor is made, so a
/// reduction over a broadcast view of 2^28 elements takes no memory.
pub fn for_each_scalar(t: &Tensor, mut f: impl FnMut(Scalar)) -> Result<()> {
    let (l, d, s) = (t.layout(), t.dtype(), t.storage());
    let w = d.itemsize() as i64;
    let (conj, neg) = (t.is_conj(), t.is_neg());
    s.with_bytes(|bytes| {
        l.check_in_bounds(d.itemsize(), bytes.len())?;
        for_each_run(&l.sizes, [(&l.strides, l.offset)], |[s0], n, [st]| {
            for i in 0..n as i64 {
                let v = element::read(d, &bytes[((s0 + i * st) * w) as usize..]);
                let v = if conj { v.conj() } else { v };
                f(if neg { -v } else { v });
            }
        });
        Ok(())
    })
}

/// Elements converted at a time by [`for_each_chunk_as`].
const CHUNK: usize = 4096;

/// Visits every element in row-major order, converted to `dtype` (as a cast converts) a
/// chunk of up to `CHUNK` elements at a time: `f` gets each chunk's bytes, conjugated and
/// negated when the tensor's bits say so. The elements are read straight from the storage
/// by a typed conversion chosen once, so a reduction over a broadcast view of 2^28
/// elements takes no memory and no `Scalar`.
pub fn for_each_chunk_as(t: &Tensor, dtype: DType, f: impl FnMut(&[u8])) -> Result<()> {
    chunks_as(t, &t.layout(), dtype, f)
}

/// [`for_each_chunk_as`] in memory order (dims from largest to smallest stride), the order
/// PyTorch's reductions visit elements in: a transposed tensor is read along its rows.
pub fn for_each_chunk_in_memory_order(
    t: &Tensor,
    dtype: DType,
    f: impl FnMut(&[u8]),
) -> Result<()> {
    chunks_as(t, &t.layout().in_memory_order(), dtype, f)
}

/// The elements of `t` walked row-major through `l` (its layout or a permutation of it).
fn chunks_as(t: &Tensor, l: &Layout, dtype: DType, mut f: impl FnMut(&[u8])) -> Result<()> {
    let (d, s) = (t.dtype(), t.storage());
    let convert = element::converter(d, dtype);
    let w = dtype.itemsize();
    let mut chunk = vec![0u8; CHUNK * w];
    s.with_bytes(|bytes| {
        l.check_in_bounds(d.itemsize(), bytes.len())?;
        for_each_run(&l.sizes, [(&l.strides, l.offset)], |[s0], n, [st]| {
            let (mut at, step) = (s0 as usize, st as usize);
            let mut left = n;
            while left > 0 {
                let k = left.min(CHUNK);
                convert(bytes, at, step, &mut chunk, 0, 1, k);
                let part = &mut chunk[..k * w];
                if t.is_conj() {
                    conjugate_in_place(dtype, part);
                }
                if t.is_neg() {
                    negate_in_place(dtype, part);
                }
                f(part);
                at += k * step;
                left -= k;
            }
        });
        Ok(())
    })
}

/// The raw bytes of every element in row-major order (a contiguous image of the tensor).
pub fn to_contiguous_bytes(t: &Tensor) -> Result<Vec<u8>> {
    let (l, d, s) = (t.layout(), t.dtype(), t.storage());
    let mut out = super::memory::alloc::zeroed_bytes(super::memory::alloc::contiguous_nbytes(
        &l.sizes,
        d.itemsize(),
    )?)?;
    let target = Layout::contiguous(l.sizes.clone());
    s.with_bytes(|bytes| {
        l.check_in_bounds(d.itemsize(), bytes.len())?;
        copy_runs(&mut out, d, &target, bytes, d, &l);
        Ok(())
    })?;
    apply_bits_in_place(t, &mut out);
    Ok(out)
}

/// A new contiguous tensor with the same values and dtype (`clone()` of a non-dense tensor).
pub fn contiguous_copy(t: &Tensor) -> Result<Tensor> {
    cast_copy(t, t.dtype())
}

/// A new contiguous tensor with the values converted to `dtype`.
pub fn cast_copy(t: &Tensor, dtype: DType) -> Result<Tensor> {
    let sizes = t.sizes();
    if dtype == t.dtype() {
        let bytes = to_contiguous_bytes(t)?;
        return Ok(Tensor::from_parts(
            Storage::from_vec(bytes),
            dtype,
            Layout::contiguous(sizes),
        ));
    }
    let out = Tensor::zeros(sizes, dtype)?;
    copy_(&out, t)?;
    Ok(out)
}

/// `t.clone()`: a copy laid out as PyTorch's preserve format lays it out.
pub fn clone_tensor(t: &Tensor) -> Result<Tensor> {
    copy_in_format(t, t.dtype(), MemoryFormat::Preserve)
}

/// A copy of `t` converted to `dtype` and laid out as `format` asks (`clone`, `to`, the
/// casts, `contiguous`): a dense tensor kept as it is under `Preserve` is one copy of its
/// bytes; anything else is one strided pass into the new layout.
pub fn copy_in_format(t: &Tensor, dtype: DType, format: MemoryFormat) -> Result<Tensor> {
    let l = t.layout();
    if format == MemoryFormat::Preserve && dtype == t.dtype() && l.is_non_overlapping_and_dense() {
        return dense_bytes_copy(t, l);
    }
    let target = format.layout_from(&l)?;
    if target.strides[..] == contiguous_strides(&target.sizes)[..] {
        return cast_copy(t, dtype);
    }
    // `target` is dense from offset 0, so a contiguous allocation of its sizes holds it.
    let out = Tensor::zeros(target.sizes.to_vec(), dtype)?;
    out.set_layout(target);
    copy_(&out, t)?;
    Ok(out)
}

/// A copy of a non-overlapping and dense tensor with the same strides: its elements are
/// the bytes of one block of the storage, copied as they are (conjugates resolved).
fn dense_bytes_copy(t: &Tensor, l: Layout) -> Result<Tensor> {
    let d = t.dtype();
    let window = l.byte_window(d.itemsize());
    let mut bytes = t.storage().with_bytes(|b| {
        l.check_in_bounds(d.itemsize(), b.len())?;
        crate::core::memory::alloc::copied_bytes(&b[window])
    })?;
    apply_bits_in_place(t, &mut bytes);
    let layout = Layout {
        sizes: l.sizes,
        strides: l.strides,
        offset: 0,
    };
    Ok(Tensor::from_parts(Storage::from_vec(bytes), d, layout))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_in_place_is_exact_for_every_dtype() {
        let mut f = [1.5f32.to_le_bytes(), 0.0f32.to_le_bytes()].concat();
        negate_in_place(DType::Float32, &mut f);
        assert_eq!(f32::from_le_bytes(f[..4].try_into().unwrap()), -1.5);
        assert!(f32::from_le_bytes(f[4..].try_into().unwrap()).is_sign_negative());
        let mut c = [2.0f64.to_le_bytes(), (-3.0f64).to_le_bytes()].concat();
        negate_in_place(DType::Complex128, &mut c);
        assert_eq!(f64::from_le_bytes(c[..8].try_into().unwrap()), -2.0);
        assert_eq!(f64::from_le_bytes(c[8..].try_into().unwrap()), 3.0);
        let mut i = [i16::MIN.to_le_bytes(), 7i16.to_le_bytes()].concat();
        negate_in_place(DType::Int16, &mut i);
        assert_eq!(i, [i16::MIN.to_le_bytes(), (-7i16).to_le_bytes()].concat());
        // fnuz float8: zero has no negative and 0x80 is the NaN; both stay.
        let mut e = vec![0x00, 0x80, 0x38];
        negate_in_place(DType::Float8E4M3FNUZ, &mut e);
        assert_eq!(e, vec![0x00, 0x80, 0xb8]);
    }

    fn arange(n: i64, dtype: DType) -> Tensor {
        let t = Tensor::zeros(vec![n], dtype).unwrap();
        let s = t.storage();
        s.with_bytes_mut(|b| {
            for i in 0..n {
                element::write(
                    dtype,
                    &mut b[(i as usize) * dtype.itemsize()..],
                    Scalar::Int(i),
                );
            }
        });
        t
    }

    #[test]
    fn copies_a_transpose() {
        let t = arange(6, DType::Int64);
        let m = t.alias(Layout {
            sizes: smallvec::smallvec![3, 2],
            strides: smallvec::smallvec![1, 3],
            offset: 0,
        });
        let c = contiguous_copy(&m).unwrap();
        let v: Vec<i64> = to_scalars(&c).unwrap().iter().map(|s| s.to_i64()).collect();
        assert_eq!(v, vec![0, 3, 1, 4, 2, 5]);
    }

    #[test]
    fn partial_overlap_is_refused_and_non_dense_overlap_is_exact() {
        let t = arange(4, DType::Int32);
        let head = t.alias(Layout {
            sizes: smallvec::smallvec![3],
            strides: smallvec::smallvec![1],
            offset: 0,
        });
        let tail = t.alias(Layout {
            sizes: smallvec::smallvec![3],
            strides: smallvec::smallvec![1],
            offset: 1,
        });
        assert!(copy_(&tail, &head).is_err());
        // Every other element, read back to front: not dense, so PyTorch lets it through and
        // the source must be read before any write.
        let evens = t.alias(Layout {
            sizes: smallvec::smallvec![2],
            strides: smallvec::smallvec![2],
            offset: 0,
        });
        let odds = t.alias(Layout {
            sizes: smallvec::smallvec![2],
            strides: smallvec::smallvec![2],
            offset: 1,
        });
        copy_(&evens, &odds).unwrap();
        copy_(
            &odds,
            &t.alias(Layout {
                sizes: smallvec::smallvec![2],
                strides: smallvec::smallvec![1],
                offset: 0,
            }),
        )
        .unwrap();
        let v: Vec<i64> = to_scalars(&t).unwrap().iter().map(|s| s.to_i64()).collect();
        assert_eq!(v, vec![1, 1, 3, 1]);
    }

    #[test]
    fn out_of_bounds_is_an_error_not_a_read() {
        let t = arange(4, DType::Int32);
        let bad = t.alias(Layout {
            sizes: smallvec::smallvec![5],
            strides: smallvec::smallvec![1],
            offset: 0,
        });
        assert!(to_scalars(&bad).is_err());
        assert!(fill_(&bad, Scalar::Int(1)).is_err());
        let e = t.alias(Layout {
            sizes: smallvec::smallvec![2, 4],
            strides: smallvec::smallvec![0, 1],
            offset: 0,
        });
        assert!(fill_(&e, Scalar::Int(1)).is_ok());
        assert!(copy_(&e, &t).is_err());
    }
}
