//! `cumsum(dim, dtype=None)`: running sums along one dimension, as a fresh contiguous tensor.
//! Integer and bool inputs sum in `int64` unless `dtype` says otherwise. Like PyTorch on the
//! CPU, a floating sum runs in `f64` and each partial sum is rounded to the output dtype as
//! it is written (so `float32` `[1e8, 4, 4, 4]` gives `1e8, 1e8, 100000008, 100000016`).

use super::copy::cast_copy;
use super::dtype::DType;
use super::error::{Result, wrap_dim};
use super::tensor::Tensor;
use super::tensor::graph::{BackwardOp, detached, record};
use super::views::conj::resolve_conj;

/// `t.cumsum(dim, dtype=dtype)`.
pub fn cumsum(t: &Tensor, dim: i64, dtype: Option<DType>) -> Result<Tensor> {
    let out = scan(t, dim, dtype, false)?;
    let op = BackwardOp::Cumsum {
        dim: wrap_dim(dim, t.ndim().max(1))? as i64,
        dtype: t.dtype(),
    };
    record(&[&out], "CumsumBackward0", &[t], op);
    Ok(out)
}

/// `t.cumprod(dim, dtype=dtype)`: running products, accumulated as `cumsum`'s sums are
/// (floats in `f64` rounded as written, integers wrapping in `int64`). Recorded without a
/// gradient formula yet.
pub fn cumprod(t: &Tensor, dim: i64, dtype: Option<DType>) -> Result<Tensor> {
    let out = scan(t, dim, dtype, true)?;
    if t.requires_grad() && (out.dtype().is_floating_point() || out.dtype().is_complex()) {
        let (x, product, input) = (detached(t), detached(&out), t.dtype());
        super::tensor::record::record_formula(&out, "CumprodBackward0", &[t], &[t], move |g| {
            let grad = cumprod_backward(g, &x, &product, dim)?;
            Ok(vec![Some(cast_copy(&grad, input)?)])
        });
    }
    Ok(out)
}

/// The running sums or products of `t` along `dim`.
fn scan(t: &Tensor, dim: i64, dtype: Option<DType>, product: bool) -> Result<Tensor> {
    let ndim = t.ndim();
    // A 0-d tensor takes dim 0 or -1, as PyTorch allows.
    let d = wrap_dim(dim, ndim.max(1))?;
    let input = t.dtype();
    let out_dtype = dtype.unwrap_or(if input.is_integral() {
        DType::Int64
    } else {
        input
    });
    let (kernel, name) = if product {
        (
            super::engine::scan::cumprod_kernel(out_dtype),
            "cumprod_out_cpu",
        )
    } else {
        (
            super::engine::scan::cumsum_kernel(out_dtype),
            "cumsum_out_cpu",
        )
    };
    let kernel = kernel.ok_or_else(|| super::unbuilt_kernels::not_built(name, out_dtype))?;
    let source = detached(t);
    // The input's bytes are read in place when they already are the output's dtype, row-major
    // and without conjugate or negative bits; else a converted copy is made first.
    let source = if source.dtype() == out_dtype && source.is_contiguous() && source.is_resolved() {
        source
    } else {
        cast_copy(&resolve_conj(&source)?, out_dtype)?
    };
    let out = Tensor::zeros(source.sizes(), out_dtype)?;
    let sizes = out.sizes();
    let numel = usize::try_from(out.numel()).unwrap_or(0);
    if numel > 0 {
        let n = if ndim == 0 { 1 } else { sizes[d] as usize };
        let inner: usize = sizes
            .get(d + 1..)
            .unwrap_or(&[])
            .iter()
            .map(|&s| s as usize)
            .product();
        let outer = numel / (n * inner);
        let l = source.layout();
        let item = out_dtype.itemsize();
        source.storage().with_bytes(|src| -> Result<()> {
            l.check_in_bounds(item, src.len())?;
            let src = &src[l.offset as usize * item..(l.offset as usize + numel) * item];
            out.storage()
                .with_bytes_mut(|bytes| kernel(src, bytes, outer, n, inner));
            Ok(())
        })?;
    }
    Ok(out)
}

/// The gradient of `cumsum` along `dim`: element `k`'s is the sum of the output's gradients
/// from `k` on, a cumulative sum taken from the end.
pub fn cumsum_backward(g: &Tensor, dim: i64) -> Result<Tensor> {
    if g.ndim() == 0 {
        return Ok(g.clone());
    }
    let reversed = super::flip::flip(g, &[dim])?;
    super::flip::flip(&cumsum(&reversed, dim, None)?, &[dim])
}

/// The gradient of `cumprod` along `dim` (`out` its result): element `i`'s is the sum
/// over `j >= i` of `g[j]` times the product of `x[..=j]` without `x[i]`. Without zeros
/// that is PyTorch's `cumsum from the end of (g · out), divided by x`; with zeros, each
/// lane is walked from its end (`S[i] = g[i] + x[i+1] · S[i+1]`, times the product of
/// the elements before `i`), in `f64`.
pub fn cumprod_backward(g: &Tensor, x: &Tensor, out: &Tensor, dim: i64) -> Result<Tensor> {
    use super::ops::{Arg, BinaryOp, binary_untracked};
    let conj = |t: &Tensor| -> Result<Tensor> {
        if t.dtype().is_complex() {
            super::views::conj::conj_physical(t)
        } else {
            Ok(t.clone())
        }
    };
    if x.ndim() == 0 || x.numel() == 0 {
        return Ok(g.clone());
    }
    let zero = binary_untracked(
        BinaryOp::Eq,
        &Arg::Tensor(x.clone()),
        &Arg::Number(super::scalar::Scalar::Int(0)),
    )?;
    let any_zero = super::engine::elements::any_nonzero(&zero)?;
    if !any_zero || x.dtype().is_complex() {
        let weighted = binary_untracked(
            BinaryOp::Mul,
            &Arg::Tensor(g.clone()),
            &Arg::Tensor(conj(out)?),
        )?;
        let summed = cumsum_backward(&weighted, dim)?;
        return binary_untracked(BinaryOp::Div, &Arg::Tensor(summed), &Arg::Tensor(conj(x)?));
    }
    let d = wrap_dim(dim, x.ndim())? as i64;
    let last = x.ndim() as i64 - 1;
    let lanes = |t: &Tensor| -> Result<Vec<f64>> {
        let moved = super::views::movedim(&cast_copy(t, DType::Float64)?, &[d], &[last])?;
        super::engine::elements::f64_values(&moved)
    };
    let (xs, gs) = (lanes(x)?, lanes(g)?);
    let n = x.sizes()[d as usize] as usize;
    let mut grads = vec![0.0; xs.len()];
    for ((xl, gl), out) in xs.chunks(n).zip(gs.chunks(n)).zip(grads.chunks_mut(n)) {
        super::interrupt::check_every(0);
        let mut tail = 0.0;
        for i in (0..n).rev() {
            tail = if i + 1 < n {
                gl[i] + xl[i + 1] * tail
            } else {
                gl[i]
            };
            out[i] = tail;
        }
        // After the lane's first zero every gradient is zero (exactly: +0, as PyTorch's).
        let mut before = 1.0;
        for i in 0..n {
            out[i] = if before == 0.0 { 0.0 } else { out[i] * before };
            before *= xl[i];
        }
    }
    let mut moved_sizes = x.sizes();
    let along = moved_sizes.remove(d as usize);
    moved_sizes.push(along);
    let lanes_back = super::engine::elements::from_f64s(&grads, moved_sizes)?;
    super::copy::contiguous_copy(&super::views::movedim(&lanes_back, &[last], &[d])?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::copy::to_scalars;
    use crate::core::element;
    use crate::core::scalar::Scalar;

    fn floats(values: &[f64], dtype: DType) -> Tensor {
        let t = Tensor::zeros(vec![values.len() as i64], dtype).unwrap();
        let item = dtype.itemsize();
        t.storage().with_bytes_mut(|b| {
            for (i, &v) in values.iter().enumerate() {
                element::write(dtype, &mut b[i * item..(i + 1) * item], Scalar::Float(v));
            }
        });
        t
    }

    #[test]
    fn float32_sums_run_in_f64_and_round_as_written() {
        let t = floats(&[1e8, 4.0, 4.0, 4.0, 4.0], DType::Float32);
        let got: Vec<f64> = to_scalars(&cumsum(&t, 0, None).unwrap())
            .unwrap()
            .into_iter()
            .map(Scalar::to_f64)
            .collect();
        assert_eq!(got, [1e8, 1e8, 100000008.0, 100000016.0, 100000016.0]);
    }

    #[test]
    fn integers_sum_in_int64_and_the_gradient_sums_from_the_end() {
        let t = floats(&[1.0, 2.0, 3.0], DType::Int8);
        let c = cumsum(&t, 0, None).unwrap();
        assert_eq!(c.dtype(), DType::Int64);
        let got: Vec<i64> = to_scalars(&c)
            .unwrap()
            .into_iter()
            .map(Scalar::to_i64)
            .collect();
        assert_eq!(got, [1, 3, 6]);
        let g = cumsum_backward(&floats(&[1.0, 10.0, 100.0], DType::Float32), 0).unwrap();
        let got: Vec<f64> = to_scalars(&g)
            .unwrap()
            .into_iter()
            .map(Scalar::to_f64)
            .collect();
        assert_eq!(got, [111.0, 110.0, 100.0]);
    }
}
