//! `unique` and `unique_consecutive`: the distinct values (or slices along a dim) of a
//! tensor, with where each element went (`inverse`) and how many each stands for
//! (`counts`). Values are sorted with the engine's stable sort, so among equal values the
//! first keeps its bits (`-0.0` before `0.0`); NaN equals nothing, so each NaN stays.

use std::cmp::Ordering;

use super::copy;
use super::dtype::DType;
use super::element;
use super::engine::elements;
use super::error::{Result, TorchError, wrap_dim};
use super::tensor::Tensor;

/// The distinct values, and for every element the index of its value, and the count of
/// each value.
pub struct Unique {
    /// The distinct values (or slices).
    pub values: Tensor,
    /// Per element (or slice) of the input: the index of its value, shaped as the input
    /// (or as the dim's length).
    pub inverse: Tensor,
    /// How many elements (or slices) each value stands for.
    pub counts: Tensor,
}

/// Compares two elements of one dtype by value (NaN after everything, as the sort puts it).
type Compare = fn(&[u8], &[u8]) -> Ordering;

/// Whether two elements are equal by value (NaN equals nothing; `-0.0 == 0.0`).
type Equal = fn(&[u8], &[u8]) -> bool;

fn comparers(dtype: DType) -> Result<(Compare, Equal)> {
    if dtype.is_complex() {
        return Err(TorchError::not_implemented(format!(
            "\"unique\" not implemented for '{}'",
            dtype.cpp_name()
        )));
    }
    element::for_dtype!(dtype, D => {
        let pair: (Compare, Equal) = if D.is_floating_point() {
            (
                |a, b| {
                    let (x, y) = (element::read(D, a).to_f64(), element::read(D, b).to_f64());
                    x.partial_cmp(&y)
                        .unwrap_or_else(|| y.is_nan().cmp(&x.is_nan()).reverse())
                },
                |a, b| element::read(D, a).to_f64() == element::read(D, b).to_f64(),
            )
        } else if D == DType::UInt64 {
            (
                |a, b| {
                    let (x, y) = (element::read(D, a).to_i64(), element::read(D, b).to_i64());
                    (x as u64).cmp(&(y as u64))
                },
                |a, b| a == b,
            )
        } else {
            (
                |a, b| element::read(D, a).to_i64().cmp(&element::read(D, b).to_i64()),
                |a, b| a == b,
            )
        };
        Ok(pair)
    })
}

/// The input's slices along `d` as rows of element bytes (each `row` bytes), with the
/// other dims' sizes.
fn rows_along(t: &Tensor, d: usize) -> Result<(Vec<u8>, usize, usize)> {
    let moved = super::views::movedim(t, &[d as i64], &[0])?;
    let bytes = elements::image(&moved)?;
    let n = t.sizes()[d].max(0) as usize;
    let row = bytes.len().checked_div(n).unwrap_or(0);
    Ok((bytes, n, row))
}

/// Groups `n` rows (`row` bytes each, elements of `item` bytes) into runs of equal rows in
/// `order`: the first row of each run, each row's run, and each run's length.
fn group(
    bytes: &[u8],
    row: usize,
    item: usize,
    order: &[usize],
    equal: Equal,
) -> (Vec<usize>, Vec<i64>, Vec<i64>) {
    let same = |a: usize, b: usize| {
        bytes[a * row..(a + 1) * row]
            .chunks_exact(item.max(1))
            .zip(bytes[b * row..(b + 1) * row].chunks_exact(item.max(1)))
            .all(|(x, y)| equal(x, y))
    };
    let mut firsts: Vec<usize> = Vec::new();
    let mut counts: Vec<i64> = Vec::new();
    let mut inverse = vec![0i64; order.len()];
    for &i in order {
        match firsts.last() {
            Some(&f) if same(f, i) => {
                if let Some(c) = counts.last_mut() {
                    *c += 1;
                }
            }
            _ => {
                firsts.push(i);
                counts.push(1);
            }
        }
        inverse[i] = firsts.len() as i64 - 1;
    }
    (firsts, inverse, counts)
}

/// `unique` (sorted) or `unique_consecutive` (in order), over all elements (`dim` None)
/// or over slices along `dim`.
pub fn unique(t: &Tensor, dim: Option<i64>, consecutive: bool) -> Result<Unique> {
    let dtype = t.dtype();
    let (compare, equal) = comparers(dtype)?;
    let item = dtype.itemsize();
    let (bytes, n, row, d) = match dim {
        None => {
            let bytes = elements::image(t)?;
            let n = t.numel().max(0) as usize;
            (bytes, n, item, None)
        }
        Some(dim) => {
            let d = wrap_dim(dim, t.ndim().max(1))?;
            if t.ndim() == 0 {
                return Err(TorchError::index(format!(
                    "Dimension out of range (expected to be in range of [-1, 0], but got {dim})"
                )));
            }
            let (bytes, n, row) = rows_along(t, d)?;
            (bytes, n, row, Some(d))
        }
    };
    let mut order: Vec<usize> = (0..n).collect();
    if !consecutive {
        let key = |i: usize| &bytes[i * row..(i + 1) * row];
        order.sort_by(|&a, &b| {
            key(a)
                .chunks_exact(item.max(1))
                .zip(key(b).chunks_exact(item.max(1)))
                .map(|(x, y)| compare(x, y))
                .find(|o| *o != Ordering::Equal)
                .unwrap_or(Ordering::Equal)
        });
    }
    let (firsts, inverse, counts) = group(&bytes, row, item, &order, equal);
    let mut out = super::memory::alloc::vec_with_capacity(firsts.len() * row)?;
    for &f in &firsts {
        out.extend_from_slice(&bytes[f * row..(f + 1) * row]);
    }
    let k = firsts.len() as i64;
    let (values, inverse_sizes) = match d {
        None => (elements::from_image(out, vec![k], dtype), t.sizes()),
        Some(d) => {
            let mut moved_sizes = t.sizes();
            moved_sizes.remove(d);
            moved_sizes.insert(0, k);
            let moved = elements::from_image(out, moved_sizes, dtype);
            let back = super::views::movedim(&moved, &[0], &[d as i64])?;
            (copy::contiguous_copy(&back)?, vec![n as i64])
        }
    };
    Ok(Unique {
        values,
        inverse: elements::from_i64s(&inverse, inverse_sizes)?,
        counts: elements::from_i64s(&counts, vec![k])?,
    })
}
