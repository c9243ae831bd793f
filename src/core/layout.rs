//! Sizes, strides (in elements) and a storage offset: where each element of a tensor lives.
//!
//! Invariant kept by every constructor of a tensor's layout: for a layout with at least one
//! element, every reachable element's byte range `[(offset + Σ idx[i]·stride[i])·itemsize, +
//! itemsize)` lies inside the storage — checked by `check_in_bounds`, which every op that
//! builds a layout from user numbers (`set_`, `as_strided`, `frombuffer`) calls, and which
//! every kernel calls again before touching bytes (storages can shrink under a view).
//! Strides are kept exactly as PyTorch produces them: size-1 strides are never canonicalised,
//! because `stride()` is printed.

use smallvec::SmallVec;

use super::error::{Result, TorchError};

/// One number per dimension (sizes, strides), kept inline up to five dimensions: a view
/// of a tensor with few dimensions (nearly all) allocates nothing for its geometry.
pub type Dims = SmallVec<[i64; 5]>;

/// A tensor's geometry over its storage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Extent of each dimension.
    pub sizes: Dims,
    /// Elements to step in storage per index step, per dimension.
    pub strides: Dims,
    /// Index of the first element in the storage, in elements.
    pub offset: i64,
}

/// Row-major strides for `sizes` (size-0 and size-1 dims count as 1, as PyTorch does).
pub fn contiguous_strides(sizes: &[i64]) -> Vec<i64> {
    let mut strides = vec![1; sizes.len()];
    fill_contiguous_strides(sizes, &mut strides);
    strides
}

/// Writes the row-major strides of `sizes` into `strides` (of the same length).
fn fill_contiguous_strides(sizes: &[i64], strides: &mut [i64]) {
    let mut acc = 1i64;
    for (stride, &size) in strides.iter_mut().zip(sizes).rev() {
        *stride = acc;
        acc = acc.saturating_mul(size.max(1));
    }
}

/// The element count of `sizes`, or PyTorch's overflow error. PyTorch multiplies sizes as
/// unsigned numbers, so a negative size is an overflow too.
pub fn checked_numel(sizes: &[i64]) -> Result<i64> {
    sizes
        .iter()
        .try_fold(
            1i64,
            |acc, &s| if s < 0 { None } else { acc.checked_mul(s) },
        )
        .ok_or_else(|| TorchError::runtime("numel: integer multiplication overflow"))
}

/// Number of elements of a shape.
pub fn numel(sizes: &[i64]) -> i64 {
    sizes.iter().product()
}

/// PyTorch's list formatting in messages: `[2, 3]`.
pub fn fmt_list(v: &[i64]) -> String {
    let parts: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

impl Layout {
    /// A row-major layout of `sizes` at offset 0.
    pub fn contiguous(sizes: impl Into<Dims>) -> Layout {
        let sizes = sizes.into();
        let mut strides = Dims::from_elem(1, sizes.len());
        fill_contiguous_strides(&sizes, &mut strides);
        Layout {
            sizes,
            strides,
            offset: 0,
        }
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.sizes.len()
    }

    /// Number of elements.
    pub fn numel(&self) -> i64 {
        numel(&self.sizes)
    }

    /// PyTorch's `is_contiguous()`: row-major, ignoring size-1 dims; any empty tensor is.
    pub fn is_contiguous(&self) -> bool {
        if self.numel() == 0 {
            return true;
        }
        let mut expected = 1;
        for d in (0..self.ndim()).rev() {
            if self.sizes[d] != 1 {
                if self.strides[d] != expected {
                    return false;
                }
                expected *= self.sizes[d];
            }
        }
        true
    }

    /// Bytes of storage this layout needs beyond its offset: 0 when empty, else
    /// `(1 + Σ (size-1)·stride) · itemsize`.
    pub fn span_bytes(&self, itemsize: usize) -> i64 {
        if self.sizes.contains(&0) {
            return 0;
        }
        let last: i64 = self
            .sizes
            .iter()
            .zip(&self.strides)
            .map(|(s, st)| (s - 1) * st)
            .sum();
        (last + 1) * itemsize as i64
    }

    /// The bytes of storage this layout reaches: from its first element's byte to one past
    /// its last. An empty layout reaches no bytes, and its window is `0..0` wherever its
    /// offset lies: PyTorch lets a view with no elements start at or past the end of its
    /// storage (`t[5:5]` of a 5-element `t`, a diagonal's empty slice), so no reader may
    /// turn such an offset into a slice position. For a layout that passed
    /// [`Layout::check_in_bounds`] against a storage, the window lies inside it.
    pub fn byte_window(&self, itemsize: usize) -> std::ops::Range<usize> {
        if self.sizes.contains(&0) {
            return 0..0;
        }
        let start = self.offset.max(0) as usize * itemsize;
        start..start + self.span_bytes(itemsize).max(0) as usize
    }

    /// The single bounds check: the layout's elements all lie within `storage_nbytes`.
    /// The error is PyTorch's `setStorage` message.
    pub fn check_in_bounds(&self, itemsize: usize, storage_nbytes: usize) -> Result<()> {
        if self.sizes.contains(&0) {
            return Ok(());
        }
        // i128: no product of i64 sizes and strides can overflow it, so a huge layout can
        // never wrap around into a small, wrongly accepted one.
        let last: i128 = self
            .sizes
            .iter()
            .zip(&self.strides)
            .map(|(&s, &st)| (s as i128 - 1) * st as i128)
            .sum();
        let lowest: i128 = self
            .sizes
            .iter()
            .zip(&self.strides)
            .map(|(&s, &st)| (s as i128 - 1) * (st as i128).min(0))
            .sum();
        let needed = (last + 1 + self.offset as i128) * itemsize as i128;
        if needed > storage_nbytes as i128 || self.offset as i128 + lowest < 0 {
            return Err(TorchError::runtime(format!(
                "setStorage: sizes {}, strides {}, storage offset {}, and itemsize {} requiring a storage size of {} are out of bounds for storage of size {}",
                fmt_list(&self.sizes),
                fmt_list(&self.strides),
                self.offset,
                itemsize,
                needed,
                storage_nbytes
            )));
        }
        Ok(())
    }

    /// Checks what every layout a view op computes must satisfy before a tensor is made
    /// with it, and returns it: the bytes it spans from the storage's start (offset, plus
    /// one element, plus `(size - 1) * stride` per dim, times the item size) are computed
    /// as PyTorch does, in unsigned 64-bit arithmetic that must not overflow and must stay
    /// within `i64` (so a negative size or stride is an overflow too), and the element count
    /// must fit in `i64`. Errors are PyTorch's.
    #[inline]
    pub fn checked(self, itemsize: usize) -> Result<Layout> {
        if self.cannot_overflow() {
            Ok(self)
        } else {
            self.checked_exactly(itemsize)
        }
    }

    /// At most four dims, sizes below 2^15, strides and offset below 2^40: the count is
    /// below 2^60 and the span times any item size below 2^62, so neither can overflow.
    /// (A negative value, read as unsigned, is never below those bounds.)
    #[inline]
    fn cannot_overflow(&self) -> bool {
        let mut small = self.sizes.len() <= 4 && (self.offset as u64) < 1 << 40;
        for (&s, &st) in self.sizes.iter().zip(&self.strides) {
            small &= (s as u64) < 1 << 15 && (st as u64) < 1 << 40;
        }
        small
    }

    /// `checked` for layouts that might overflow, with PyTorch's messages.
    fn checked_exactly(self, itemsize: usize) -> Result<Layout> {
        storage_span_bytes(&self.sizes, &self.strides, self.offset, itemsize)?;
        checked_numel(&self.sizes)?;
        Ok(self)
    }

    /// Whether no two indices reach the same element and the elements fill a dense block.
    /// As in PyTorch, a contiguous layout is (so any empty one is, whatever its strides:
    /// `clone()` and `empty_like` keep an empty tensor's strides).
    pub fn is_non_overlapping_and_dense(&self) -> bool {
        if self.is_contiguous() {
            return true;
        }
        if self.ndim() == 1 {
            return self.sizes[0] < 2 || self.strides[0] == 1;
        }
        let mut dims: Vec<usize> = (0..self.ndim()).collect();
        dims.sort_by_key(|&d| (self.strides[d], self.sizes[d]));
        let mut expected = 1;
        for d in dims {
            if self.sizes[d] == 1 {
                continue;
            }
            if self.strides[d] != expected {
                return false;
            }
            expected *= self.sizes[d];
        }
        true
    }

    /// The dims from largest to smallest stride (a stable sort: ties keep their order).
    pub fn memory_order_dims(&self) -> Vec<usize> {
        let mut dims: Vec<usize> = (0..self.ndim()).collect();
        dims.sort_by(|&a, &b| self.strides[b].cmp(&self.strides[a]));
        dims
    }

    /// This layout with its dims in the order `dims` (a permutation of them).
    pub fn permuted(&self, dims: &[usize]) -> Layout {
        Layout {
            sizes: dims.iter().map(|&d| self.sizes[d]).collect(),
            strides: dims.iter().map(|&d| self.strides[d]).collect(),
            offset: self.offset,
        }
    }

    /// This layout with its dims from largest to smallest stride: walking it row-major
    /// visits the elements in memory order (as PyTorch's kernels visit them).
    pub fn in_memory_order(&self) -> Layout {
        self.permuted(&self.memory_order_dims())
    }

    /// Whether some element is reachable from two indices in a way PyTorch detects: a stride
    /// of 0 over a dim of size > 1 in a tensor that is not dense.
    pub fn has_internal_overlap(&self) -> bool {
        if self.is_non_overlapping_and_dense() {
            return false;
        }
        self.sizes
            .iter()
            .zip(&self.strides)
            .any(|(&s, &st)| s > 1 && st == 0)
    }
}

/// Bytes from a storage's start to the end of the last element a layout reaches (0 when it
/// has no elements), or PyTorch's `Storage size calculation overflowed` error: the sum is
/// taken in unsigned 64-bit numbers, so negative sizes, strides and offsets overflow.
pub fn storage_span_bytes(
    sizes: &[i64],
    strides: &[i64],
    offset: i64,
    itemsize: usize,
) -> Result<u64> {
    if sizes.contains(&0) {
        return Ok(0);
    }
    let unsigned = |v: i64| u64::try_from(v).ok();
    let start = unsigned(offset).and_then(|o| o.checked_add(1));
    let span = start
        .and_then(|start| {
            sizes.iter().zip(strides).try_fold(start, |acc, (&s, &st)| {
                let steps = unsigned(s.checked_sub(1)?)?;
                acc.checked_add(steps.checked_mul(unsigned(st)?)?)
            })
        })
        .and_then(|n| n.checked_mul(itemsize as u64))
        .filter(|&n| n <= i64::MAX as u64);
    span.ok_or_else(|| {
        TorchError::runtime(format!(
            "Storage size calculation overflowed with sizes={} and strides={}",
            fmt_list(sizes),
            fmt_list(strides)
        ))
    })
}

fn invalid_shape(shape: &[i64], numel: i64) -> TorchError {
    TorchError::runtime(format!(
        "shape '{}' is invalid for input of size {}",
        fmt_list(shape),
        numel
    ))
}

/// Replaces one `-1` in `shape` with what makes its product `numel`, with PyTorch's errors.
pub fn infer_size(shape: &[i64], numel: i64) -> Result<Vec<i64>> {
    let mut product = 1i64;
    let mut inferred = None;
    for (d, &s) in shape.iter().enumerate() {
        let index = d;
        if s == -1 {
            if inferred.is_some() {
                return Err(TorchError::runtime("only one dimension can be inferred"));
            }
            inferred = Some(d);
        } else if s >= 0 {
            // A product past i64 can't be any tensor's element count: the shape is invalid.
            product = product
                .checked_mul(s)
                .ok_or_else(|| invalid_shape(shape, numel))?;
        } else {
            return Err(TorchError::runtime(format!(
                "invalid shape dimension {s} at index {index} of shape {}",
                fmt_list(shape)
            )));
        }
    }
    let fits = numel == product || (inferred.is_some() && product > 0 && numel % product == 0);
    if !fits {
        return Err(invalid_shape(shape, numel));
    }
    let mut out = shape.to_vec();
    if let Some(d) = inferred {
        if product == 0 {
            return Err(TorchError::runtime(format!(
                "cannot reshape tensor of 0 elements into shape {} because the unspecified dimension size -1 can be any value and is ambiguous",
                fmt_list(shape)
            )));
        }
        out[d] = numel / product;
    }
    Ok(out)
}

/// Strides that let a tensor of `old_sizes`/`old_strides` be viewed as `new_sizes` without
/// copying, or `None` when some new dimension would span two non-adjacent chunks of memory.
///
/// Walks the old dims from the innermost, grouping them into chunks that are contiguous with
/// each other; each chunk must be covered exactly by a run of new dims, which then get strides
/// that step within the chunk.
pub fn view_strides(old_sizes: &[i64], old_strides: &[i64], new_sizes: &[i64]) -> Option<Vec<i64>> {
    if old_sizes.is_empty() {
        return Some(vec![1; new_sizes.len()]);
    }
    let total = numel(old_sizes);
    if total == 0 && old_sizes == new_sizes {
        return Some(old_strides.to_vec());
    }
    let mut new_strides = vec![0i64; new_sizes.len()];
    if total == 0 {
        for d in (0..new_sizes.len()).rev() {
            new_strides[d] = if d + 1 == new_sizes.len() {
                1
            } else {
                new_sizes[d + 1].max(1) * new_strides[d + 1]
            };
        }
        return Some(new_strides);
    }
    let mut view_d = new_sizes.len() as i64 - 1;
    let mut chunk_stride = *old_strides.last()?;
    let mut tensor_numel = 1i64;
    let mut view_numel = 1i64;
    for d in (0..old_sizes.len()).rev() {
        tensor_numel *= old_sizes[d];
        let chunk_ends =
            d == 0 || (old_sizes[d - 1] != 1 && old_strides[d - 1] != tensor_numel * chunk_stride);
        if chunk_ends {
            while view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d as usize] == 1) {
                new_strides[view_d as usize] = view_numel * chunk_stride;
                view_numel *= new_sizes[view_d as usize];
                view_d -= 1;
            }
            if view_numel != tensor_numel {
                return None;
            }
            if d > 0 {
                chunk_stride = old_strides[d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    if view_d != -1 {
        return None;
    }
    Some(new_strides)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contiguity() {
        let cases: &[(&[i64], &[i64], bool)] = &[
            (&[2, 3], &[3, 1], true),
            (&[2, 3], &[1, 2], false),
            (&[1, 3], &[99, 1], true),
            (&[0, 3], &[7, 7], true),
            (&[], &[], true),
            (&[3, 1], &[1, 5], true),
        ];
        for (sizes, strides, want) in cases {
            let l = Layout {
                sizes: Dims::from_slice(sizes),
                strides: Dims::from_slice(strides),
                offset: 0,
            };
            assert_eq!(l.is_contiguous(), *want, "{sizes:?} {strides:?}");
        }
    }

    /// One line per case: old sizes, old strides, new sizes, the strides PyTorch gives or None.
    #[test]
    #[allow(clippy::type_complexity)]
    fn view_stride_table() {
        let cases: &[(&[i64], &[i64], &[i64], Option<&[i64]>)] = &[
            (&[4, 4], &[4, 1], &[16], Some(&[1])),
            (&[4, 4], &[4, 1], &[2, 8], Some(&[8, 1])),
            (&[3, 2, 4], &[4, 12, 1], &[3, 2, 2, 2], Some(&[4, 12, 2, 1])),
            (&[3, 2, 4], &[4, 12, 1], &[3, 8], None),
            (&[3, 2, 4], &[4, 12, 1], &[24], None),
            (&[2, 3], &[1, 2], &[6], None),
            (&[2, 3], &[1, 2], &[2, 3, 1], Some(&[1, 2, 2])),
            (&[], &[], &[1, 1], Some(&[1, 1])),
            (&[0], &[1], &[0, 3], Some(&[3, 1])),
            (&[1, 3, 1, 2], &[6, 2, 2, 1], &[3, 2], Some(&[2, 1])),
            (&[5], &[2], &[5, 1], Some(&[2, 2])),
            (&[6], &[1], &[2, 3], Some(&[3, 1])),
        ];
        for (os, ost, ns, want) in cases {
            let got = view_strides(os, ost, ns);
            assert_eq!(got.as_deref(), *want, "{os:?} {ost:?} -> {ns:?}");
        }
    }

    #[test]
    fn infers_one_dim() {
        assert_eq!(infer_size(&[3, -1], 12).unwrap(), vec![3, 4]);
        assert_eq!(
            infer_size(&[-1, -1], 12).unwrap_err().message,
            "only one dimension can be inferred"
        );
        assert_eq!(
            infer_size(&[5, -1], 12).unwrap_err().message,
            "shape '[5, -1]' is invalid for input of size 12"
        );
        assert!(
            infer_size(&[-1, 0], 0)
                .unwrap_err()
                .message
                .contains("ambiguous")
        );
        assert_eq!(infer_size(&[0, 3], 0).unwrap(), vec![0, 3]);
    }

    #[test]
    fn bounds() {
        let l = Layout {
            sizes: smallvec::smallvec![3],
            strides: smallvec::smallvec![1],
            offset: 0,
        };
        assert_eq!(
            l.check_in_bounds(4, 8).unwrap_err().message,
            "setStorage: sizes [3], strides [1], storage offset 0, and itemsize 4 requiring a storage size of 12 are out of bounds for storage of size 8"
        );
        assert!(l.check_in_bounds(4, 12).is_ok());
        let empty = Layout {
            sizes: smallvec::smallvec![0],
            strides: smallvec::smallvec![1],
            offset: 100,
        };
        assert!(empty.check_in_bounds(4, 0).is_ok());
    }

    #[test]
    fn overlap() {
        let e = Layout {
            sizes: smallvec::smallvec![2, 3],
            strides: smallvec::smallvec![1, 0],
            offset: 0,
        };
        assert!(e.has_internal_overlap());
        let t = Layout {
            sizes: smallvec::smallvec![3, 2],
            strides: smallvec::smallvec![1, 3],
            offset: 0,
        };
        assert!(!t.has_internal_overlap());
    }
}
