//! Making new tensors: from nested data (with PyTorch's dtype inference), filled shapes,
//! ranges, identity matrices, and `empty_strided`.

use super::checked_scalar::{TypeNaming, check_fits};
use super::copy;
use super::defaults::{default_complex_dtype, default_dtype};
use super::dtype::DType;
use super::element;
use super::error::{Result, TorchError};
use super::layout::{Layout, contiguous_strides};
use super::memory::storage::Storage;
use super::scalar::Scalar;
use super::tensor::Tensor;
use crate::core::layout::Dims;

/// Nested Python data for `torch.tensor`: a number or a list of data.
#[derive(Debug, Clone)]
pub enum Data {
    /// One number.
    Scalar(Scalar),
    /// A list (possibly empty).
    List(Vec<Data>),
}

/// The dtype PyTorch infers for a Python number.
pub fn scalar_dtype(s: Scalar) -> DType {
    match s {
        Scalar::Bool(_) => DType::Bool,
        Scalar::Int(_) | Scalar::UInt(_) => DType::Int64,
        Scalar::Float(_) => default_dtype(),
        Scalar::Complex(_) => default_complex_dtype(),
    }
}

fn shape_of(data: &Data, depth: usize, shape: &mut Vec<i64>) {
    if let Data::List(items) = data {
        if shape.len() == depth {
            shape.push(items.len() as i64);
        }
        if let Some(first) = items.first() {
            shape_of(first, depth + 1, shape);
        }
    }
}

fn flatten(data: &Data, depth: usize, shape: &[i64], out: &mut Vec<Scalar>) -> Result<()> {
    match data {
        Data::Scalar(s) => {
            if depth != shape.len() {
                return Err(TorchError::type_error(format!(
                    "expected a sequence at dim {depth}"
                )));
            }
            out.push(*s);
        }
        Data::List(items) => {
            if depth >= shape.len() {
                return Err(TorchError::value(format!(
                    "expected sequence of length {} at dim {} (got {})",
                    0,
                    depth,
                    items.len()
                )));
            }
            if items.len() as i64 != shape[depth] {
                return Err(TorchError::value(format!(
                    "expected sequence of length {} at dim {} (got {})",
                    shape[depth],
                    depth,
                    items.len()
                )));
            }
            for item in items {
                flatten(item, depth + 1, shape, out)?;
            }
        }
    }
    Ok(())
}

/// `torch.tensor(data, dtype=...)`: infers bool < int64 < default float < default complex.
pub fn tensor_from_data(data: &Data, dtype: Option<DType>) -> Result<Tensor> {
    let mut shape = vec![];
    shape_of(data, 0, &mut shape);
    let mut values = vec![];
    flatten(data, 0, &shape, &mut values)?;
    let inferred = values.iter().fold(None::<DType>, |acc, &v| {
        let d = scalar_dtype(v);
        Some(match acc {
            None => d,
            Some(a) => rank_max(a, d),
        })
    });
    if let Some(d) = dtype {
        for v in &values {
            check_fits(d, *v, TypeNaming::DType)?;
        }
    }
    let dtype = dtype.or(inferred).unwrap_or_else(default_dtype);
    from_scalars(&values, shape, dtype)
}

fn rank_max(a: DType, b: DType) -> DType {
    let rank = |d: DType| match d {
        DType::Bool => 0,
        DType::Int64 => 1,
        d if d.is_complex() => 3,
        _ => 2,
    };
    if rank(a) >= rank(b) { a } else { b }
}

/// A contiguous tensor of `sizes` holding `values` in row-major order.
pub fn from_scalars(values: &[Scalar], sizes: Vec<i64>, dtype: DType) -> Result<Tensor> {
    let w = dtype.itemsize();
    let mut bytes = super::memory::alloc::zeroed_bytes(values.len() * w)?;
    for (chunk, v) in bytes.chunks_exact_mut(w).zip(values) {
        element::write(dtype, chunk, *v);
    }
    Ok(Tensor::from_parts(
        Storage::from_vec(bytes),
        dtype,
        Layout::contiguous(sizes),
    ))
}

/// `torch.full(sizes, value)` (and `zeros`, `ones`, `empty`, which are full of 0 or 1).
pub fn full(sizes: &[i64], value: Scalar, dtype: DType) -> Result<Tensor> {
    super::memory::alloc::check_sizes(sizes)?;
    // One element is filled on PyTorch's path that leaves float16 and bfloat16 unchecked.
    let one = sizes.iter().try_fold(1i64, |n, &s| n.checked_mul(s)) == Some(1);
    super::checked_scalar::check_converts(dtype, value, !one)?;
    let t = Tensor::zeros(sizes.to_vec(), dtype)?;
    if value.to_bool() || matches!(value, Scalar::Float(f) if f.is_sign_negative()) {
        copy::fill_(&t, value)?;
    }
    Ok(t)
}

/// `torch.empty_strided(sizes, strides)`: a zeroed storage just big enough for the layout.
pub fn empty_strided(sizes: &[i64], strides: &[i64], dtype: DType) -> Result<Tensor> {
    super::memory::alloc::check_sizes(sizes)?;
    if sizes.len() != strides.len() {
        return Err(TorchError::runtime(
            "mismatch in length of strides and shape",
        ));
    }
    let nbytes = super::memory::alloc::strided_nbytes(sizes, strides, dtype.itemsize())?;
    let layout = Layout {
        sizes: Dims::from_slice(sizes),
        strides: Dims::from_slice(strides),
        offset: 0,
    };
    Ok(Tensor::from_parts(Storage::zeroed(nbytes)?, dtype, layout))
}

/// `uninitialized` for a dense tensor (`torch.empty` in any memory format, `new_empty`,
/// `x.new(...)`, `empty_permuted`): PyTorch allocates it contiguously in memory order and
/// then gives it its strides, so its bytes are counted from `physical`, its sizes in memory
/// order, and an overflow names those sizes and no strides.
pub fn uninitialized_dense(
    sizes: &[i64],
    strides: &[i64],
    physical: &[i64],
    dtype: DType,
) -> Result<Tensor> {
    super::memory::alloc::contiguous_nbytes(physical, dtype.itemsize())?;
    uninitialized(sizes, strides, dtype)
}

/// `uninitialized_dense` with contiguous strides.
pub fn uninitialized_contiguous(sizes: &[i64], dtype: DType) -> Result<Tensor> {
    uninitialized_dense(sizes, &contiguous_strides(sizes), sizes, dtype)
}

/// Memory a factory leaves uninitialized (`torch.empty`, `empty_strided`, `new_empty`,
/// ...): tensh gives zeros, and under deterministic algorithms PyTorch's fill
/// (`defaults::uninitialized_value`) over the whole storage.
pub fn uninitialized(sizes: &[i64], strides: &[i64], dtype: DType) -> Result<Tensor> {
    let t = empty_strided(sizes, strides, dtype)?;
    fill_uninitialized(&t.storage(), 0, dtype)?;
    Ok(t)
}

/// Writes the deterministic fill into `storage`'s elements of `dtype` from byte `from` on,
/// when deterministic algorithms are on (new memory stays zeroed otherwise).
pub fn fill_uninitialized(storage: &Storage, from: usize, dtype: DType) -> Result<()> {
    let Some(value) = super::defaults::uninitialized_value(dtype) else {
        return Ok(());
    };
    let w = dtype.itemsize();
    let first = from.div_ceil(w) as i64;
    let n = (storage.nbytes() / w) as i64 - first;
    if n <= 0 {
        return Ok(());
    }
    let layout = Layout {
        sizes: Dims::from_slice(&[n]),
        strides: Dims::from_slice(&[1]),
        offset: first,
    };
    super::copy::fill_(&Tensor::from_parts(storage.clone(), dtype, layout), value)
}

/// `torch.arange(start, end, step)`; the dtype is int64 unless a bound is a float.
pub fn arange(start: Scalar, end: Scalar, step: Scalar, dtype: Option<DType>) -> Result<Tensor> {
    if let Some(d) = dtype.filter(|d| {
        d.is_complex()
            || matches!(
                d,
                DType::Bool | DType::UInt16 | DType::UInt32 | DType::UInt64
            )
    }) {
        return Err(TorchError::not_implemented(format!(
            "\"arange_cpu\" not implemented for '{}'",
            d.cpp_name()
        )));
    }
    let any_float = start.is_floating() || end.is_floating() || step.is_floating();
    let dtype = dtype.unwrap_or(if any_float {
        default_dtype()
    } else {
        DType::Int64
    });
    let (s, e, st) = (start.to_f64(), end.to_f64(), step.to_f64());
    if st == 0.0 {
        return Err(TorchError::runtime("step must be nonzero"));
    }
    if !s.is_finite() || !e.is_finite() {
        return Err(TorchError::runtime(format!(
            "unsupported range: {s} -> {e}"
        )));
    }
    if (st > 0.0 && e < s) || (st < 0.0 && e > s) {
        return Err(TorchError::runtime(
            "upper bound and lower bound inconsistent with step sign",
        ));
    }
    // The element count as PyTorch computes it: integer bounds in wrapping int64 arithmetic
    // (so a range wider than int64 can come out empty, as there), float bounds in double;
    // a count that is negative or past int64 is PyTorch's error.
    let n = if dtype.is_integral() && !any_float {
        let (s, e, st) = (start.to_i64(), end.to_i64(), step.to_i64());
        let n = e
            .wrapping_sub(s)
            .wrapping_add(st)
            .wrapping_sub(st.signum())
            .wrapping_div(st);
        (n >= 0).then_some(n)
    } else {
        let n = ((e - s) / st).ceil();
        (n.is_finite() && n < i64::MAX as f64).then_some(n as i64)
    };
    let n = n.ok_or_else(|| TorchError::runtime("invalid size, possible overflow?"))?;
    let t = Tensor::zeros(vec![n], dtype)?;
    let integral = dtype.is_integral() && !any_float;
    let (s_int, st_int) = (start.to_i64(), step.to_i64());
    t.storage().with_bytes_mut(|bytes| {
        for (i, out) in bytes.chunks_exact_mut(dtype.itemsize()).enumerate() {
            let value = if integral {
                Scalar::Int(s_int.wrapping_add((i as i64).wrapping_mul(st_int)))
            } else {
                Scalar::Float(s + st * i as f64)
            };
            element::write(dtype, out, value);
        }
    });
    Ok(t)
}

/// `torch.linspace(start, end, steps)`: computed from both ends toward the middle.
pub fn linspace(start: f64, end: f64, steps: i64, dtype: DType) -> Result<Tensor> {
    if steps < 0 {
        return Err(TorchError::runtime("number of steps must be non-negative"));
    }
    if steps == 1 {
        return from_scalars(&[Scalar::Float(start)], vec![1], dtype);
    }
    let step = if steps > 1 {
        (end - start) / (steps - 1) as f64
    } else {
        0.0
    };
    let half = steps / 2;
    super::memory::alloc::contiguous_nbytes(&[steps], dtype.itemsize())?;
    let mut values = super::memory::alloc::vec_with_capacity(steps as usize)?;
    // PyTorch's kernel is a fused multiply-add from the nearer end, in the tensor's precision
    // (float for everything but double).
    if dtype == DType::Float64 {
        values.extend((0..steps).map(|i| {
            let v = if i < half {
                step.mul_add(i as f64, start)
            } else {
                (-step).mul_add((steps - i - 1) as f64, end)
            };
            Scalar::Float(v)
        }));
    } else {
        // The ends are first rounded to the tensor's dtype, then the steps computed in float.
        let round = |x: f64| {
            let (bytes, _) = element::encode(dtype, Scalar::Float(x));
            element::read(dtype, &bytes).to_f64() as f32
        };
        let (s, e) = (round(start), round(end));
        let st = if steps > 1 {
            (e - s) / (steps - 1) as f32
        } else {
            0.0
        };
        values.extend((0..steps).map(|i| {
            let v = if i < half {
                st.mul_add(i as f32, s)
            } else {
                (-st).mul_add((steps - i - 1) as f32, e)
            };
            Scalar::Float(v as f64)
        }));
    }
    from_scalars(&values, vec![steps], dtype)
}

/// `torch.eye(n, m)`.
pub fn eye(n: i64, m: i64, dtype: DType) -> Result<Tensor> {
    if n < 0 {
        return Err(TorchError::runtime(format!(
            "n must be greater or equal to 0, got {n}"
        )));
    }
    if m < 0 {
        return Err(TorchError::runtime(format!(
            "m must be greater or equal to 0, got {m}"
        )));
    }
    let t = Tensor::zeros(vec![n, m], dtype)?;
    let diag = super::views::diagonal(&t, 0, 0, 1)?;
    copy::fill_(&diag, Scalar::Int(1))?;
    Ok(t)
}

/// `torch.frombuffer(buffer, dtype, count, offset)`: a tensor sharing the buffer's memory,
/// with PyTorch's `ValueError`s for impossible windows. `buffer` is the whole buffer's storage.
pub fn frombuffer(buffer: &Storage, dtype: DType, count: i64, offset: i64) -> Result<Tensor> {
    let len = buffer.nbytes() as i64;
    let elsize = dtype.itemsize() as i64;
    if len <= 0 || count == 0 {
        return Err(TorchError::value(format!(
            "both buffer length ({len}) and count ({count}) must not be 0"
        )));
    }
    if offset < 0 || offset >= len {
        return Err(TorchError::value(format!(
            "offset ({offset} bytes) must be non-negative and no greater than buffer length ({len} bytes) minus 1"
        )));
    }
    if count <= 0 && (len - offset) % elsize != 0 {
        return Err(TorchError::value(format!(
            "buffer length ({} bytes) after offset ({offset} bytes) must be a multiple of element size ({elsize})",
            len - offset
        )));
    }
    let count = if count < 0 {
        (len - offset) / elsize
    } else {
        count
    };
    // Checked: a count whose byte length overflows is as impossible as one past the end
    // (PyTorch's own arithmetic wraps there and makes a tensor past its buffer).
    let fits = count
        .checked_mul(elsize)
        .and_then(|n| n.checked_add(offset))
        .is_some_and(|end| end <= len);
    if !fits {
        return Err(TorchError::value(format!(
            "requested buffer length ({count} * {elsize} bytes) after offset ({offset} bytes) must not be greater than actual buffer length ({len} bytes)"
        )));
    }
    let nbytes = (count * elsize) as usize;
    let storage = if offset == 0 && nbytes as i64 == len {
        buffer.clone()
    } else {
        buffer.window(offset as usize, nbytes)
    };
    Ok(Tensor::from_parts(
        storage,
        dtype,
        Layout::contiguous(vec![count]),
    ))
}
