//! The arithmetic every `explain` picture shares: walking a layout's indices to the storage
//! elements they read, the range of storage a layout touches, and which storage slots a
//! picture of a long storage shows.

use crate::core::interrupt;
use crate::core::layout::Layout;

/// Elements walked at most to map indices to slots; bigger tensors are summarised.
pub const MAX_WALK: i64 = 1 << 22;

/// Slots shown at the start and at the end of a long storage.
pub const HEAD_SLOTS: usize = 12;
/// Indices listed per slot before "+N more".
pub const INDICES_PER_SLOT: usize = 3;
/// Slots shown at the end of the used range of a long storage.
pub const TAIL_SLOTS: usize = 4;

/// A Python tuple of integers: `(2, 3)`, `(4,)`, `()`.
pub fn tuple(v: &[i64]) -> String {
    match v {
        [one] => format!("({one},)"),
        _ => format!("({})", join(v)),
    }
}

/// An index as a list: `[1, 2]`.
pub fn index_text(v: &[i64]) -> String {
    format!("[{}]", join(v))
}

fn join(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

/// Calls `f(index, element)` for every index of `layout` in row-major order, `element`
/// being the storage element (in units of the dtype) the index reads. Returns false, having
/// walked nothing, when the layout has more than [`MAX_WALK`] elements.
pub fn each_element(layout: &Layout, mut f: impl FnMut(&[i64], i64)) -> bool {
    let numel = layout.numel();
    if numel > MAX_WALK {
        return false;
    }
    let ndim = layout.sizes.len();
    let mut index = vec![0i64; ndim];
    for n in 0..numel {
        interrupt::check_every(n as usize);
        // In bounds by the layout's own check: offset + sum(i*stride) fits its storage.
        let elem = index
            .iter()
            .zip(&layout.strides)
            .fold(layout.offset, |acc, (i, s)| {
                acc.saturating_add(i.saturating_mul(*s))
            });
        f(&index, elem);
        for d in (0..ndim).rev() {
            index[d] += 1;
            if index[d] < layout.sizes[d] {
                break;
            }
            index[d] = 0;
        }
    }
    true
}

/// The lowest and highest storage elements the layout reads, if it has elements.
pub fn used_range(layout: &Layout) -> Option<(i64, i64)> {
    if layout.numel() == 0 {
        return None;
    }
    let (mut lo, mut hi) = (layout.offset, layout.offset);
    for (size, stride) in layout.sizes.iter().zip(&layout.strides) {
        let span = stride.saturating_mul(size - 1);
        if span < 0 {
            lo = lo.saturating_add(span);
        } else {
            hi = hi.saturating_add(span);
        }
    }
    Some((lo, hi))
}

/// The slots to draw out of `slots`: all of a short storage; else the first slots in use
/// (with one before), the last slot in use and the three before it, and the storage's first
/// and last slot. `used` is the lowest and highest slot any pictured tensor reads.
pub fn shown_slots(slots: usize, used: Option<(usize, usize)>) -> Vec<usize> {
    if slots <= HEAD_SLOTS + TAIL_SLOTS + 1 {
        return (0..slots).collect();
    }
    let mut shown = vec![0, slots - 1];
    match used {
        Some((lo, hi)) => {
            let lo = lo.min(slots - 1);
            let hi = hi.min(slots - 1);
            shown.extend(lo.saturating_sub(1)..(lo + HEAD_SLOTS).min(slots));
            shown.extend(hi.saturating_sub(TAIL_SLOTS - 1)..=hi);
        }
        None => shown.extend(0..HEAD_SLOTS),
    }
    shown.sort_unstable();
    shown.dedup();
    shown
}

/// The "... N more slots ..." line before `shown[k]` when slots between it and the one
/// shown before it are left out.
pub fn gap_line(shown: &[usize], k: usize) -> Option<String> {
    let skipped = shown[k] - shown[k.checked_sub(1)?] - 1;
    (skipped > 0).then(|| format!("{:>6}  ... {skipped} more slots ...", ""))
}

/// The bytes `[first, last)` a layout of `itemsize`-byte elements reads, if any.
pub fn used_bytes(layout: &Layout, itemsize: usize) -> Option<(usize, usize)> {
    let (lo, hi) = used_range(layout)?;
    let item = itemsize as i64;
    let first = usize::try_from(lo.saturating_mul(item)).ok()?;
    let last = usize::try_from(hi.saturating_add(1).saturating_mul(item)).ok()?;
    Some((first, last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_in_row_major_order() {
        let layout = Layout {
            sizes: smallvec::smallvec![2, 2],
            strides: smallvec::smallvec![1, 2],
            offset: 1,
        };
        let mut seen = Vec::new();
        assert!(each_element(&layout, |i, e| seen.push((i.to_vec(), e))));
        assert_eq!(
            seen,
            vec![
                (vec![0, 0], 1),
                (vec![0, 1], 3),
                (vec![1, 0], 2),
                (vec![1, 1], 4)
            ]
        );
        assert_eq!(used_range(&layout), Some((1, 4)));
        assert_eq!(used_bytes(&layout, 2), Some((2, 10)));
    }

    #[test]
    fn long_storages_show_the_used_slots_and_both_ends() {
        let shown = shown_slots(100, Some((50, 60)));
        assert!(shown.contains(&0) && shown.contains(&99));
        assert!(shown.contains(&49) && shown.contains(&50) && shown.contains(&60));
        assert!(!shown.contains(&30));
        assert_eq!(shown_slots(5, None), vec![0, 1, 2, 3, 4]);
        assert!(tuple(&[4]) == "(4,)" && tuple(&[]) == "()" && index_text(&[1, 2]) == "[1, 2]");
    }
}
