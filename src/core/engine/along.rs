//! Plans that split a tensor's dims in two: the *kept* dims, one output (or one lane) per
//! position, walked in row-major order, and the dims walked *along* for each position
//! (the reduced dims of a reduction, the sorted or scanned dim).

use crate::core::dtype::DType;
use crate::core::error::Result;
use crate::core::kernels::plain::with_elems_mut;
use crate::core::layout::Layout;
use crate::core::strided::for_each_run;
use crate::core::tensor::Tensor;

/// The split of a layout: kept dims and along dims, each with their sizes and strides.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Sizes of the kept dims (in their order in the tensor).
    pub kept_sizes: Vec<i64>,
    /// Strides of the kept dims.
    pub kept_strides: Vec<i64>,
    /// Sizes of the along dims (in their order in the tensor).
    pub along_sizes: Vec<i64>,
    /// Strides of the along dims.
    pub along_strides: Vec<i64>,
    /// The storage offset of element 0.
    pub offset: i64,
}

impl Plan {
    /// Splits `layout` into the dims in `along` and the others.
    pub fn new(layout: &Layout, along: &[usize]) -> Plan {
        let mut p = Plan {
            kept_sizes: vec![],
            kept_strides: vec![],
            along_sizes: vec![],
            along_strides: vec![],
            offset: layout.offset,
        };
        for d in 0..layout.ndim() {
            let (sizes, strides) = if along.contains(&d) {
                (&mut p.along_sizes, &mut p.along_strides)
            } else {
                (&mut p.kept_sizes, &mut p.kept_strides)
            };
            sizes.push(layout.sizes[d]);
            strides.push(layout.strides[d]);
        }
        p
    }

    /// Positions of the kept dims (outputs).
    pub fn outputs(&self) -> usize {
        self.kept_sizes.iter().map(|&s| s.max(0) as usize).product()
    }

    /// Elements along, per output.
    pub fn along_len(&self) -> usize {
        self.along_sizes
            .iter()
            .map(|&s| s.max(0) as usize)
            .product()
    }

    /// The storage offset of output `index`'s first element (row-major over kept dims).
    pub fn start_of(&self, mut index: usize) -> i64 {
        let mut off = self.offset;
        for d in (0..self.kept_sizes.len()).rev() {
            let size = self.kept_sizes[d].max(1) as usize;
            off += (index % size) as i64 * self.kept_strides[d];
            index /= size;
        }
        off
    }

    /// Calls `f(start)` with the storage offset of each output's first element, for outputs
    /// `first..first + count`, in order.
    pub fn for_each_start(&self, first: usize, count: usize, mut f: impl FnMut(i64)) {
        if count == 0 {
            return;
        }
        if first == 0 && count == self.outputs() {
            for_each_run(
                &self.kept_sizes,
                [(&self.kept_strides, self.offset)],
                |[s], n, [st]| {
                    for i in 0..n as i64 {
                        f(s + i * st);
                    }
                },
            );
            return;
        }
        for o in first..first + count {
            f(self.start_of(o));
        }
    }

    /// Calls `f(start, len, step)` for the runs along, from an output's first element at
    /// `start`, in row-major order of the along dims.
    pub fn for_each_along_run(&self, start: i64, f: impl FnMut([i64; 1], usize, [i64; 1])) {
        for_each_run(&self.along_sizes, [(&self.along_strides, start)], f);
    }
}

/// Runs `kernel` over `t`'s bytes (checked to hold its layout) with the bytes of two new
/// tensors of `shape`: values of `t`'s dtype and int64 indices, as the modes that return
/// both (extremes, sorts) need. `None` when `kernel` does not cover the dtype.
pub fn values_and_indices(
    t: &Tensor,
    shape: Vec<i64>,
    kernel: impl FnOnce(&[u8], &mut [u8], &mut [i64]) -> Option<()>,
) -> Result<Option<(Tensor, Tensor)>> {
    let (dtype, layout) = (t.dtype(), t.layout());
    let values = Tensor::zeros(shape.clone(), dtype)?;
    let indices = Tensor::zeros(shape, DType::Int64)?;
    let ran = t.storage().with_bytes(|bytes| -> Result<bool> {
        layout.check_in_bounds(dtype.itemsize(), bytes.len())?;
        let ran = values.storage().with_bytes_mut(|vb| {
            indices
                .storage()
                .with_bytes_mut(|ib| with_elems_mut::<i64, _>(ib, |ix| kernel(bytes, vb, ix)))
        });
        Ok(ran.is_some())
    })?;
    Ok(ran.then_some((values, indices)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_kept_and_along_dims() {
        let l = Layout::contiguous(vec![2, 3, 4]);
        let p = Plan::new(&l, &[1]);
        assert_eq!((p.outputs(), p.along_len()), (8, 3));
        let mut starts = vec![];
        p.for_each_start(0, 8, |s| starts.push(s));
        assert_eq!(starts, [0, 1, 2, 3, 12, 13, 14, 15]);
        let mut later = vec![];
        p.for_each_start(5, 3, |s| later.push(s));
        assert_eq!(later, [13, 14, 15]);
        let mut runs = vec![];
        p.for_each_along_run(13, |[s], n, [st]| runs.push((s, n, st)));
        assert_eq!(runs, [(13, 3, 4)]);
    }
}
