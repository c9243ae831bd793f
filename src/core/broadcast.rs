//! Broadcasting: the shape two shapes broadcast to, and a layout expanded to a shape with
//! stride 0 along the broadcast dims. Pure layout arithmetic, used by views, copies and
//! the elementwise ops alike.

use super::error::{Result, TorchError};
use super::layout::{Layout, fmt_list};
use crate::core::layout::Dims;

/// The layout of `src` broadcast (expanded) to `target` sizes. The shapes must broadcast to
/// exactly `target`: the error is PyTorch's message for whichever rule fails.
pub fn broadcast_layout(src: &Layout, target: &[i64]) -> Result<Layout> {
    if src.sizes[..] == *target {
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
        sizes: Dims::from_slice(target),
        strides: strides.into(),
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

/// `torch.broadcast_shapes(*shapes)`: the shape all of `shapes` broadcast to, with the
/// messages of PyTorch's Python implementation (shapes are taken in order; the first
/// one that cannot be combined with those before it is named, with the shape so far).
pub fn broadcast_shapes_of(shapes: &[Vec<i64>]) -> Result<Vec<i64>> {
    let width = shapes.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = vec![1i64; width];
    for (index, shape) in shapes.iter().enumerate() {
        for back in 1..=shape.len() {
            let size = shape[shape.len() - back];
            let slot = &mut out[width - back];
            if size < 0 {
                return Err(TorchError::value(
                    "Attempting to broadcast a dimension with negative length!",
                ));
            }
            if size == 1 || size == *slot {
                continue;
            }
            if *slot != 1 {
                return Err(TorchError::runtime(format!(
                    "Attempting to broadcast a dimension of length {size} at -{back}! Mismatching argument at index {index} had {}; but expected shape should be broadcastable to {}",
                    python_tuple(shape),
                    fmt_list(&out)
                )));
            }
            *slot = size;
        }
    }
    Ok(out)
}

/// A Python tuple of ints as Python prints it: `(3,)`, `(4, 3)`.
fn python_tuple(v: &[i64]) -> String {
    match v {
        [one] => format!("({one},)"),
        _ => {
            let parts: Vec<String> = v.iter().map(i64::to_string).collect();
            format!("({})", parts.join(", "))
        }
    }
}

#[cfg(test)]
mod broadcast_shapes_tests {
    use super::broadcast_shapes_of;

    #[test]
    fn combines_in_order_and_names_the_first_misfit() {
        assert_eq!(
            broadcast_shapes_of(&[vec![2, 0], vec![3, 1, 1]]).unwrap(),
            vec![3, 2, 0]
        );
        assert_eq!(broadcast_shapes_of(&[]).unwrap(), Vec::<i64>::new());
        let e = broadcast_shapes_of(&[vec![1, 3], vec![4, 2], vec![5, 1, 1]]).unwrap_err();
        assert!(e.to_string().contains("length 2 at -1! Mismatching argument at index 1 had (4, 2); but expected shape should be broadcastable to [1, 1, 3]"), "{e}");
    }
}
