//! Broadcasting: the shape two shapes broadcast to, and a layout expanded to a shape with
//! stride 0 along the broadcast dims. Pure layout arithmetic, used by views, copies and
//! the elementwise ops alike.

use super::error::{Result, TorchError};
use super::layout::{Layout, fmt_list};

/// The layout of `src` broadcast (expanded) to `target` sizes. The shapes must broadcast to
/// exactly `target`: the error is PyTorch's message for whichever rule fails.
pub fn broadcast_layout(src: &Layout, target: &[i64]) -> Result<Layout> {
    if src.sizes == target {
        return Ok(src.clone());
    }
    let out = broadcast_shapes(target, &src.sizes)?;
    if out != target {
        return Err(TorchError::runtime(format!(
            "output with shape {} doesn't match the broadcast shape {}",
            fmt_list(target),
            fmt_list(&out)
        )));
    }
    let (n, m) = (target.len(), src.ndim());
    let mut strides = vec![0; n];
    for (i, stride) in strides.iter_mut().enumerate().skip(n - m) {
        let j = i - (n - m);
        if src.sizes[j] == target[i] {
            *stride = src.strides[j];
        }
    }
    Ok(Layout {
        sizes: target.to_vec(),
        strides,
        offset: src.offset,
    })
}

/// The broadcast shape of two shapes, with PyTorch's error.
pub fn broadcast_shapes(a: &[i64], b: &[i64]) -> Result<Vec<i64>> {
    let width = a.len().max(b.len());
    let mut out = vec![0; width];
    // Right to left, so the innermost mismatch is the one reported, as PyTorch does.
    for k in (0..width).rev() {
        let ai = k as i64 - (width - a.len()) as i64;
        let bi = k as i64 - (width - b.len()) as i64;
        let av = if ai >= 0 { a[ai as usize] } else { 1 };
        let bv = if bi >= 0 { b[bi as usize] } else { 1 };
        out[k] = if av == bv || bv == 1 {
            av
        } else if av == 1 {
            bv
        } else {
            return Err(TorchError::runtime(format!(
                "The size of tensor a ({av}) must match the size of tensor b ({bv}) at non-singleton dimension {k}"
            )));
        };
    }
    Ok(out)
}
