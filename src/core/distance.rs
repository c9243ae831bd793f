//! `torch.cdist` and `torch.pdist`: p-norm distances between rows. `cdist` pairs every row
//! of `x1` with every row of `x2` (over broadcast batch dims); `pdist` pairs the rows of
//! one matrix, `i < j`, row-major. A distance sums `|a − b|^p` over the columns (`p = 0`
//! counts the columns that differ; `p = ∞` takes the largest difference) and takes the
//! `1/p`-th power, in `f64`, rounded once to the dtype. Gradients (`CdistBackward0`,
//! `PdistBackward0`) follow the same pairs: `sign(d)·|d|^(p−1)/dist^(p−1)` per column,
//! zero where the distance is zero.
//!
//! PyTorch sums the columns in vector lanes and, for `p = 2` with more than 25 rows,
//! through a matrix product: its last bits can differ from these (see
//! `docs/api-coverage.md`).

use super::dtype::DType;
use super::engine::elements::{f64_values, from_f64s};
use super::error::{Result, TorchError};
use super::tensor::Tensor;

/// The distance of rows `a` and `b`.
fn distance(a: &[f64], b: &[f64], p: f64) -> f64 {
    let diffs = a.iter().zip(b).map(|(x, y)| (x - y).abs());
    if p == 0.0 {
        diffs.filter(|&d| d != 0.0).count() as f64
    } else if p == 1.0 {
        diffs.sum()
    } else if p == 2.0 {
        diffs.map(|d| d * d).sum::<f64>().sqrt()
    } else if p.is_infinite() {
        diffs.fold(0.0, |m: f64, d| if d.is_nan() || d > m { d } else { m })
    } else {
        diffs.map(|d| d.powf(p)).sum::<f64>().powf(1.0 / p)
    }
}

/// `∂dist/∂a` for one column: `sign(d)·|d|^(p−1)/dist^(p−1)` (for `p = ∞`, the sign where
/// the column holds the largest difference).
fn slope(diff: f64, dist: f64, p: f64) -> f64 {
    if p == 0.0 || dist == 0.0 {
        return 0.0;
    }
    let sign = if diff > 0.0 {
        1.0
    } else if diff < 0.0 {
        -1.0
    } else {
        0.0
    };
    if p == 1.0 {
        sign
    } else if p == 2.0 {
        diff / dist
    } else if p.is_infinite() {
        if diff.abs() == dist { sign } else { 0.0 }
    } else if diff == 0.0 {
        0.0
    } else {
        sign * diff.abs().powf(p - 1.0) / dist.powf(p - 1.0)
    }
}

fn check_floating(t: &Tensor, op: &str, which: &str) -> Result<()> {
    if t.dtype().is_floating_point() {
        return Ok(());
    }
    Err(TorchError::runtime(format!(
        "{op} only supports floating-point dtypes{which}"
    )))
}

fn check_kernel(d: DType, op: &str) -> Result<()> {
    if matches!(d, DType::Float32 | DType::Float64) {
        return Ok(());
    }
    Err(TorchError::not_implemented(format!(
        "\"{op}\" not implemented for '{}'",
        d.cpp_name()
    )))
}

fn check_p(p: f64, op: &str) -> Result<()> {
    if p >= 0.0 {
        return Ok(());
    }
    Err(TorchError::runtime(format!(
        "{op} only supports non-negative p values"
    )))
}

/// The shapes of a `cdist`: batch (broadcast), rows of each side, columns.
#[derive(Debug, Clone)]
pub struct CdistShape {
    batch: Vec<i64>,
    rows1: usize,
    rows2: usize,
    columns: usize,
}

/// Checks `cdist`'s operands as PyTorch does and finds its shape.
pub fn cdist_shape(x1: &Tensor, x2: &Tensor, p: f64) -> Result<CdistShape> {
    for (t, name) in [(x1, "X1"), (x2, "X2")] {
        if t.ndim() < 2 {
            return Err(TorchError::runtime(format!(
                "cdist only supports at least 2D tensors, {name} got: {}D",
                t.ndim()
            )));
        }
    }
    let (s1, s2) = (x1.sizes(), x2.sizes());
    let (c1, c2) = (s1[s1.len() - 1], s2[s2.len() - 1]);
    if c1 != c2 {
        return Err(TorchError::runtime(format!(
            "X1 and X2 must have the same number of columns. X1: {c1} X2: {c2}"
        )));
    }
    check_floating(x1, "cdist", &format!(", X1 got: {}", x1.dtype().cpp_name()))?;
    check_floating(x2, "cdist", &format!(", X2 got: {}", x2.dtype().cpp_name()))?;
    if x1.dtype() != x2.dtype() {
        return Err(TorchError::runtime(format!(
            "expected scalar type {} but found {}",
            x1.dtype().cpp_name(),
            x2.dtype().cpp_name()
        )));
    }
    check_p(p, "cdist")?;
    check_kernel(x1.dtype(), "cdist")?;
    let batch = super::broadcast::broadcast_shapes(&s1[..s1.len() - 2], &s2[..s2.len() - 2])?;
    Ok(CdistShape {
        batch,
        rows1: s1[s1.len() - 2] as usize,
        rows2: s2[s2.len() - 2] as usize,
        columns: c1 as usize,
    })
}

/// `x`'s values with its batch dims broadcast to `batch`, row-major.
fn batched_values(x: &Tensor, batch: &[i64]) -> Result<Vec<f64>> {
    let s = x.sizes();
    let mut sizes = batch.to_vec();
    sizes.extend_from_slice(&s[s.len() - 2..]);
    f64_values(&super::views::expand(
        &super::tensor::graph::detached(x),
        &sizes,
    )?)
}

/// `torch.cdist(x1, x2, p)` on checked operands.
pub fn cdist(x1: &Tensor, x2: &Tensor, p: f64, shape: &CdistShape) -> Result<Tensor> {
    let (a, b) = (
        batched_values(x1, &shape.batch)?,
        batched_values(x2, &shape.batch)?,
    );
    let (m, r1, r2) = (shape.columns, shape.rows1, shape.rows2);
    let batches = shape.batch.iter().product::<i64>().max(0) as usize;
    let mut out = super::memory::alloc::vec_with_capacity::<f64>(batches * r1 * r2)?;
    for k in 0..batches {
        for i in 0..r1 {
            super::interrupt::check_every(out.len());
            let row = &a[(k * r1 + i) * m..(k * r1 + i + 1) * m];
            for j in 0..r2 {
                let other = &b[(k * r2 + j) * m..(k * r2 + j + 1) * m];
                out.push(distance(row, other, p));
            }
        }
    }
    let mut sizes = shape.batch.clone();
    sizes.extend([r1 as i64, r2 as i64]);
    super::copy::cast_copy(&from_f64s(&out, sizes)?, x1.dtype())
}

/// The gradients of `cdist`'s operands (at their broadcast batch shape) from the result's
/// gradient `g` and the result `dist`.
pub fn cdist_grads(
    x1: &Tensor,
    x2: &Tensor,
    p: f64,
    shape: &CdistShape,
    dist: &Tensor,
    g: &Tensor,
) -> Result<(Tensor, Tensor)> {
    let (a, b) = (
        batched_values(x1, &shape.batch)?,
        batched_values(x2, &shape.batch)?,
    );
    let (dists, grads) = (f64_values(dist)?, f64_values(g)?);
    let (m, r1, r2) = (shape.columns, shape.rows1, shape.rows2);
    let mut ga = vec![0.0; a.len()];
    let mut gb = vec![0.0; b.len()];
    let batches = shape.batch.iter().product::<i64>().max(0) as usize;
    for k in 0..batches {
        for i in 0..r1 {
            super::interrupt::check_every(i);
            for j in 0..r2 {
                let cell = (k * r1 + i) * r2 + j;
                let (d, gr) = (dists[cell], grads[cell]);
                for c in 0..m {
                    let (pa, pb) = ((k * r1 + i) * m + c, (k * r2 + j) * m + c);
                    let s = gr * slope(a[pa] - b[pb], d, p);
                    ga[pa] += s;
                    gb[pb] -= s;
                }
            }
        }
    }
    let sizes = |rows: usize| {
        let mut s = shape.batch.clone();
        s.extend([rows as i64, m as i64]);
        s
    };
    let d = x1.dtype();
    Ok((
        super::copy::cast_copy(&from_f64s(&ga, sizes(r1))?, d)?,
        super::copy::cast_copy(&from_f64s(&gb, sizes(r2))?, d)?,
    ))
}

/// Checks `pdist`'s operand as PyTorch does.
pub fn check_pdist(x: &Tensor, p: f64) -> Result<()> {
    if x.ndim() != 2 {
        return Err(TorchError::runtime(format!(
            "pdist only supports 2D tensors, got: {}D",
            x.ndim()
        )));
    }
    check_floating(x, "pdist", "")?;
    check_p(p, "pdist")?;
    check_kernel(x.dtype(), "pdist")
}

/// The pairs `i < j` of `n` rows, row-major.
fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).flat_map(move |i| (i + 1..n).map(move |j| (i, j)))
}

/// `torch.pdist(x, p)` on a checked operand.
pub fn pdist(x: &Tensor, p: f64) -> Result<Tensor> {
    let v = f64_values(x)?;
    let s = x.sizes();
    let (n, m) = (s[0] as usize, s[1] as usize);
    let count = n * n.saturating_sub(1) / 2;
    let mut out = super::memory::alloc::vec_with_capacity::<f64>(count)?;
    for (i, j) in pairs(n) {
        super::interrupt::check_every(out.len());
        out.push(distance(&v[i * m..(i + 1) * m], &v[j * m..(j + 1) * m], p));
    }
    super::copy::cast_copy(&from_f64s(&out, vec![count as i64])?, x.dtype())
}

/// The gradient of `pdist`'s operand from the result's gradient `g` and the result `dist`.
pub fn pdist_grad(x: &Tensor, p: f64, dist: &Tensor, g: &Tensor) -> Result<Tensor> {
    let v = f64_values(x)?;
    let (dists, grads) = (f64_values(dist)?, f64_values(g)?);
    let s = x.sizes();
    let (n, m) = (s[0] as usize, s[1] as usize);
    let mut out = vec![0.0; v.len()];
    for (k, (i, j)) in pairs(n).enumerate() {
        super::interrupt::check_every(k);
        for c in 0..m {
            let ds = grads[k] * slope(v[i * m + c] - v[j * m + c], dists[k], p);
            out[i * m + c] += ds;
            out[j * m + c] -= ds;
        }
    }
    super::copy::cast_copy(&from_f64s(&out, s)?, x.dtype())
}
