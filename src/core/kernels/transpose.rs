//! Copying a 2-d strided source into a row-major destination in square tiles, so both sides
//! stay in cache when the source is read across its rows (a transpose). Large copies split
//! the destination's rows over two threads.

use super::PARALLEL_MIN;
use super::lane::Lane;

/// Tile side, in elements. Measured on a 4096² float32 `copy_` from a transpose: element by
/// element, 16 → 34 ms, 32 → 30 ms, 64 → 28 ms; in 8×8 blocks, 64 → 16 ms, 128 → 10–13 ms,
/// 256 → 8–12 ms, 512 → 9 ms (the machine is noisy).
const TILE: usize = 256;

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

/// Side of the blocks a tile is moved in when the source's rows are contiguous.
const BLOCK: usize = 8;

/// Copies the tiles of rows `row_range`; `dst` starts at the first of those rows.
fn tiles<T: Lane>(dst: &mut [u8], src: &[u8], c: Copy2d, row_range: std::ops::Range<usize>) {
    let mut r0 = row_range.start;
    while r0 < row_range.end {
        let r1 = (r0 + TILE).min(row_range.end);
        let mut c0 = 0;
        while c0 < c.cols {
            let c1 = (c0 + TILE).min(c.cols);
            let tile = Tile {
                rows: r0..r1,
                cols: c0..c1,
                first_row: row_range.start,
            };
            if c.src_strides[0] == 1 {
                tile_in_blocks::<T>(dst, src, c, tile);
            } else {
                tile_by_element::<T>(dst, src, c, tile);
            }
            c0 = c1;
        }
        r0 = r1;
    }
}

/// One tile: its rows and columns, and the row `dst` starts at.
struct Tile {
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
    first_row: usize,
}

/// Element by element (any strides).
fn tile_by_element<T: Lane>(dst: &mut [u8], src: &[u8], c: Copy2d, t: Tile) {
    let [rs, cs] = c.src_strides;
    for r in t.rows {
        let d_row = (r - t.first_row) * c.cols;
        let s_row = c.src_offset + r * rs;
        for col in t.cols.clone() {
            let v = T::load(&src[(s_row + col * cs) * T::SIZE..]);
            v.store(&mut dst[(d_row + col) * T::SIZE..]);
        }
    }
}

/// A source whose row stride is 1 (a transpose of a row-major tensor): whole `BLOCK` ×
/// `BLOCK` blocks are read as `BLOCK` contiguous source runs, turned in registers, and
/// written as `BLOCK` contiguous destination runs; the tile's ragged edges go element by
/// element.
fn tile_in_blocks<T: Lane>(dst: &mut [u8], src: &[u8], c: Copy2d, t: Tile) {
    let cs = c.src_strides[1];
    let full_rows = t.rows.start + (t.rows.len() / BLOCK) * BLOCK;
    let full_cols = t.cols.start + (t.cols.len() / BLOCK) * BLOCK;
    let run = BLOCK * T::SIZE;
    for r in (t.rows.start..full_rows).step_by(BLOCK) {
        for col in (t.cols.start..full_cols).step_by(BLOCK) {
            // block[k][j] is the element at row r + j, column col + k.
            let mut block = [[T::load(&src[c.src_offset * T::SIZE..]); BLOCK]; BLOCK];
            for (k, lane) in block.iter_mut().enumerate() {
                let s = (c.src_offset + r + (col + k) * cs) * T::SIZE;
                let s = &src[s..s + run];
                for (j, v) in lane.iter_mut().enumerate() {
                    *v = T::load(&s[j * T::SIZE..]);
                }
            }
            for j in 0..BLOCK {
                let d = ((r + j - t.first_row) * c.cols + col) * T::SIZE;
                let d = &mut dst[d..d + run];
                for (k, lane) in block.iter().enumerate() {
                    lane[j].store(&mut d[k * T::SIZE..]);
                }
            }
        }
    }
    let edge = |rows, cols| Tile {
        rows,
        cols,
        first_row: t.first_row,
    };
    tile_by_element::<T>(
        dst,
        src,
        c,
        edge(t.rows.start..full_rows, full_cols..t.cols.end),
    );
    tile_by_element::<T>(dst, src, c, edge(full_rows..t.rows.end, t.cols.clone()));
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
    fn strided_rows_go_element_by_element() {
        let (rows, cols) = (37usize, 300usize);
        let src: Vec<u8> = (0..rows * cols * 2)
            .flat_map(|i| (i as u16).to_le_bytes())
            .collect();
        let mut dst = vec![0u8; rows * cols * 2];
        let c = Copy2d {
            rows,
            cols,
            dst_offset: 0,
            src_offset: 1,
            src_strides: [2, rows * 2],
        };
        copy_2d::<i16>(&mut dst, &src, c);
        for r in 0..rows {
            for col in 0..cols {
                let want = (1 + 2 * r + col * rows * 2) as u16 as i16;
                assert_eq!(i16::load(&dst[(r * cols + col) * 2..]), want);
            }
        }
    }

    #[test]
    fn transposes_in_tiles_on_one_and_two_threads() {
        for n in [3usize, 33, 256, 700] {
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
