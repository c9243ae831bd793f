//! PyTorch's memory formats: the orders in which a new tensor's dims are laid out in memory
//! (`torch.contiguous_format`, `torch.channels_last`, `torch.channels_last_3d`), and
//! `torch.preserve_format`, which asks for the layout of the tensor a copy is made from.
//!
//! A format is not stored on a tensor: it is read from the strides (`is_contiguous(memory_format=...)`)
//! and used to choose the strides of a new tensor (`contiguous`, `clone`, `to`, `empty`,
//! the `*_like` factories).

use super::error::{Result, TorchError};
use super::layout::Layout;
use crate::core::layout::contiguous_strides;

/// One of PyTorch's memory formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemoryFormat {
    /// Row-major: the last dim is innermost.
    Contiguous,
    /// NCHW sizes laid out as NHWC: channels innermost (4-d tensors).
    ChannelsLast,
    /// NCDHW sizes laid out as NDHWC (5-d tensors).
    ChannelsLast3d,
    /// The layout of the tensor being copied.
    Preserve,
}

impl MemoryFormat {
    /// The name after `torch.` (`channels_last`).
    pub fn name(self) -> &'static str {
        match self {
            MemoryFormat::Contiguous => "contiguous_format",
            MemoryFormat::ChannelsLast => "channels_last",
            MemoryFormat::ChannelsLast3d => "channels_last_3d",
            MemoryFormat::Preserve => "preserve_format",
        }
    }

    /// For the channels-last formats: the rank they need and their dims from innermost to
    /// outermost (channels first, then the spatial dims from the last, then the batch).
    fn channels_last_order(self) -> Option<(usize, &'static [usize])> {
        match self {
            MemoryFormat::ChannelsLast => Some((4, &[1, 3, 2, 0])),
            MemoryFormat::ChannelsLast3d => Some((5, &[1, 4, 3, 2, 0])),
            MemoryFormat::Contiguous | MemoryFormat::Preserve => None,
        }
    }

    /// The strides of a new tensor of `sizes` in this format (row-major for `Contiguous`
    /// and `Preserve`), or PyTorch's error when a channels-last format meets another rank.
    /// Channels-last strides are the plain products of the inner sizes (a size of 0 gives
    /// strides of 0 outside it, as in PyTorch).
    pub fn strides(self, sizes: &[i64]) -> Result<Vec<i64>> {
        let Some((rank, order)) = self.channels_last_order() else {
            return Ok(contiguous_strides(sizes));
        };
        if sizes.len() != rank {
            return Err(TorchError::runtime(format!(
                "required rank {rank} tensor to use {} format",
                self.name()
            )));
        }
        let mut strides = vec![0i64; rank];
        let mut step = 1i64;
        for &d in order {
            strides[d] = step;
            step = step.saturating_mul(sizes[d]);
        }
        Ok(strides)
    }

    /// `is_contiguous(memory_format=self)`: whether the strides are exactly this format's
    /// (size-1 dims aside). `Preserve` asks the default question, as PyTorch does.
    pub fn is_contiguous(self, l: &Layout) -> bool {
        let Some((rank, order)) = self.channels_last_order() else {
            return l.is_contiguous();
        };
        if l.ndim() != rank {
            return false;
        }
        let mut expected = 1i64;
        for &d in order {
            if l.sizes[d] == 1 {
                continue;
            }
            if l.strides[d] != expected {
                return false;
            }
            expected = expected.saturating_mul(l.sizes[d]);
        }
        true
    }

    /// Whether the strides order the dims as this channels-last format does, allowing gaps
    /// (a slice of a channels-last tensor): strides never decrease from the channels dim
    /// outwards, each at least the extent of the one inside it. Ambiguous layouts (a
    /// channels dim of stride 0, a batch dim with the channels' stride, an empty dim) are
    /// not channels-last, so that row-major stays the default guess.
    fn strides_like(self, l: &Layout) -> bool {
        let Some((rank, order)) = self.channels_last_order() else {
            return false;
        };
        if l.ndim() != rank || l.strides[1] == 0 {
            return false;
        }
        let mut min = 0i64;
        for &d in order {
            if l.sizes[d] == 0 || l.strides[d] < min {
                return false;
            }
            if d == 0 && min == l.strides[1] {
                return false;
            }
            min = l.strides[d];
            if l.sizes[d] > 1 {
                min = min.saturating_mul(l.sizes[d]);
            }
        }
        true
    }

    /// The format a layout's strides suggest: channels-last when they order the dims that
    /// way, else row-major.
    pub fn suggested_by(l: &Layout) -> MemoryFormat {
        if MemoryFormat::ChannelsLast.strides_like(l) {
            MemoryFormat::ChannelsLast
        } else if MemoryFormat::ChannelsLast3d.strides_like(l) {
            MemoryFormat::ChannelsLast3d
        } else {
            MemoryFormat::Contiguous
        }
    }

    /// The layout (offset 0) of a new tensor made from one laid out as `source` in this
    /// format. `Preserve` keeps the source's strides when it is non-overlapping and dense,
    /// and otherwise lays the dims out densely in the order of the source's strides (a
    /// transposed slice stays transposed).
    pub fn layout_from(self, source: &Layout) -> Result<Layout> {
        let sizes = source.sizes.clone();
        let strides = match self {
            MemoryFormat::Preserve if source.is_non_overlapping_and_dense() => {
                source.strides.clone()
            }
            MemoryFormat::Preserve => {
                dense_strides_in_order(&sizes, &[source.strides.to_vec()]).into()
            }
            _ => self.strides(&sizes)?.into(),
        };
        Ok(Layout {
            sizes,
            strides,
            offset: 0,
        })
    }
}

/// The dims of `shape`, innermost first, in the order the inputs' strides give: an
/// insertion sort whose comparison asks each input in turn and skips those that cannot
/// tell (a stride of 0); equal strides put the smaller dim inside. With no input able to
/// tell, row-major order stays.
pub fn order(shape: &[i64], inputs: &[Vec<i64>]) -> Vec<usize> {
    let n = shape.len();
    let mut perm: Vec<usize> = (0..n).rev().collect();
    let swap = |d0: usize, d1: usize| -> i32 {
        for strides in inputs {
            let (s0, s1) = (strides[d0], strides[d1]);
            if s0 == 0 || s1 == 0 {
                continue;
            }
            if s0 != s1 {
                return if s0 < s1 { -1 } else { 1 };
            }
            if shape[d0] > shape[d1] {
                return 1;
            }
        }
        0
    };
    for i in 1..n {
        let mut d1 = i;
        for d0 in (0..i).rev() {
            match swap(perm[d0], perm[d1]) {
                c if c > 0 => {
                    perm.swap(d0, d1);
                    d1 = d0;
                }
                c if c < 0 => break,
                _ => {}
            }
        }
    }
    perm
}

/// Dense strides for `shape` with the dims laid out in the order `inputs`' strides give
/// (`order`): PyTorch's layout for a result made from strided inputs.
pub fn dense_strides_in_order(shape: &[i64], inputs: &[Vec<i64>]) -> Vec<i64> {
    let mut dense = vec![0i64; shape.len()];
    let mut step = 1i64;
    for d in order(shape, inputs) {
        dense[d] = step;
        step = step.saturating_mul(shape[d].max(1));
    }
    dense
}

#[cfg(test)]
mod tests {
    use super::MemoryFormat::*;
    use super::*;
    use crate::core::layout::Dims;

    fn layout(sizes: &[i64], strides: &[i64]) -> Layout {
        Layout {
            sizes: Dims::from_slice(sizes),
            strides: Dims::from_slice(strides),
            offset: 0,
        }
    }

    #[test]
    fn channels_last_strides_put_channels_innermost() {
        assert_eq!(ChannelsLast.strides(&[1, 2, 3, 4]).unwrap(), [24, 1, 8, 2]);
        assert_eq!(ChannelsLast.strides(&[2, 0, 3, 4]).unwrap(), [0, 1, 0, 0]);
        assert_eq!(
            ChannelsLast3d.strides(&[1, 2, 3, 4, 5]).unwrap(),
            [120, 1, 40, 10, 2]
        );
        let e = ChannelsLast.strides(&[2, 3, 4]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "RuntimeError: required rank 4 tensor to use channels_last format"
        );
    }

    #[test]
    fn contiguity_in_a_format_ignores_size_one_dims() {
        assert!(ChannelsLast.is_contiguous(&layout(&[2, 3, 1, 1], &[3, 1, 1, 1])));
        assert!(!ChannelsLast.is_contiguous(&layout(&[1, 2, 3, 4], &[24, 12, 4, 1])));
        assert!(!ChannelsLast.is_contiguous(&layout(&[2, 3, 4], &[12, 4, 1])));
        assert!(Preserve.is_contiguous(&layout(&[2, 3], &[3, 1])));
    }

    #[test]
    fn a_slice_of_a_channels_last_tensor_suggests_channels_last() {
        let sliced = layout(&[2, 2, 3, 2], &[24, 1, 8, 4]);
        assert_eq!(MemoryFormat::suggested_by(&sliced), ChannelsLast);
        let rows = layout(&[2, 2, 2, 4], &[16, 8, 4, 1]);
        assert_eq!(MemoryFormat::suggested_by(&rows), Contiguous);
        // Rows sliced apart wider than the batch stride: not channels-last any more.
        let wide = layout(&[2, 2, 2, 4], &[24, 1, 16, 2]);
        assert_eq!(MemoryFormat::suggested_by(&wide), Contiguous);
        // N111: ambiguous, so row-major.
        let n111 = layout(&[3, 1, 1, 1], &[1, 1, 1, 1]);
        assert_eq!(MemoryFormat::suggested_by(&n111), Contiguous);
    }

    #[test]
    fn preserve_keeps_dense_strides_and_orders_the_rest() {
        let t = layout(&[4, 3], &[1, 4]);
        assert_eq!(Preserve.layout_from(&t).unwrap().strides[..], [1, 4]);
        let sliced_t = layout(&[2, 3], &[2, 4]);
        assert_eq!(Preserve.layout_from(&sliced_t).unwrap().strides[..], [1, 2]);
        assert_eq!(
            Contiguous.layout_from(&sliced_t).unwrap().strides[..],
            [3, 1]
        );
    }
}
