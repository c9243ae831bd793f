//! Walking one or more strided layouts of the same shape together, in runs along the innermost
//! dimension, so that kernels see a start offset, a length and a step per operand instead of
//! doing index arithmetic per element.

/// One operand's strides and start offset (in elements).
pub type Operand<'a> = (&'a [i64], i64);

/// The dims of `sizes` with size-1 dims dropped and neighbours that are contiguous with each
/// other in every operand merged: `(size, strides per operand)`, outermost first.
pub fn merged_dims<const N: usize>(sizes: &[i64], strides: [&[i64]; N]) -> Vec<(i64, [i64; N])> {
    let mut dims: Vec<(i64, [i64; N])> = Vec::with_capacity(sizes.len());
    for (d, &size) in sizes.iter().enumerate() {
        if size == 1 {
            continue;
        }
        let here: [i64; N] = std::array::from_fn(|k| strides[k][d]);
        if let Some(last) = dims.last_mut()
            && (0..N).all(|k| last.1[k] == here[k] * size)
        {
            last.0 *= size;
            last.1 = here;
            continue;
        }
        dims.push((size, here));
    }
    dims
}

/// Calls `f(starts, len, steps)` once per run of the innermost dimension of `sizes` walked in
/// row-major order: `starts[k]` is operand k's element offset at the run's first element and
/// `steps[k]` its stride along the run. Dimensions of size 1 are dropped and dimensions that
/// are contiguous with each other in every operand are merged first, so a contiguous tensor is
/// one run. Nothing is called for an empty shape; a 0-d shape is one run of length 1.
///
/// Generic only in `N`: the walk is compiled once per operand count and calls each kernel
/// through `&mut dyn FnMut` once per run (not per element), so a kernel's many typed
/// closures do not each get a copy of the walk.
#[inline]
pub fn for_each_run<const N: usize>(
    sizes: &[i64],
    operands: [Operand<'_>; N],
    mut f: impl FnMut([i64; N], usize, [i64; N]),
) {
    walk_runs(sizes, operands, &mut f);
}

/// The walk behind [`for_each_run`].
fn walk_runs<const N: usize>(
    sizes: &[i64],
    operands: [Operand<'_>; N],
    f: &mut dyn FnMut([i64; N], usize, [i64; N]),
) {
    if sizes.contains(&0) {
        return;
    }
    let dims = merged_dims(sizes, operands.map(|o| o.0));
    let starts: [i64; N] = std::array::from_fn(|k| operands[k].1);
    let Some(&(inner_len, inner_steps)) = dims.last() else {
        f(starts, 1, [1; N]);
        return;
    };
    let outer = &dims[..dims.len() - 1];
    let mut counters = vec![0i64; outer.len()];
    let mut pos = starts;
    let mut runs: usize = 0;
    loop {
        f(pos, inner_len as usize, inner_steps);
        // Ctrl-C is seen every 1,024 runs (and after a long single run).
        runs = runs.wrapping_add(1);
        if runs & 1023 == 0 || inner_len >= 1 << 16 {
            crate::core::interrupt::check();
        }
        let mut d = outer.len();
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            counters[d] += 1;
            let (size, strides) = outer[d];
            for k in 0..N {
                pos[k] += strides[k];
            }
            if counters[d] < size {
                break;
            }
            counters[d] = 0;
            for k in 0..N {
                pos[k] -= strides[k] * size;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offsets(sizes: &[i64], strides: &[i64], offset: i64) -> Vec<i64> {
        let mut out = vec![];
        for_each_run(sizes, [(strides, offset)], |[s], n, [st]| {
            for i in 0..n as i64 {
                out.push(s + i * st);
            }
        });
        out
    }

    #[test]
    fn walks_in_row_major_order() {
        assert_eq!(offsets(&[2, 3], &[3, 1], 0), vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(offsets(&[3, 2], &[1, 3], 1), vec![1, 4, 2, 5, 3, 6]);
        assert_eq!(offsets(&[], &[], 4), vec![4]);
        assert_eq!(offsets(&[2, 0], &[1, 1], 0), Vec::<i64>::new());
        assert_eq!(offsets(&[2, 1, 2], &[1, 9, 0], 0), vec![0, 0, 1, 1]);
    }

    #[test]
    fn contiguous_is_one_run() {
        let mut runs = 0;
        for_each_run(&[4, 5, 6], [(&[30, 6, 1], 0)], |_, n, _| {
            runs += 1;
            assert_eq!(n, 120);
        });
        assert_eq!(runs, 1);
    }
}
