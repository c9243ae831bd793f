//! Gradients of the reductions that are neither sums nor picks: `var`, `std` and `prod`,
//! each written as PyTorch's formula composes it (so the rounding steps agree).

use super::grad_ops::{cmp, div, keep, mul, n, sub, t, unreduce};
use crate::core::error::Result;
use crate::core::flip::flip;
use crate::core::ops::BinaryOp;
use crate::core::reduce::{Reduction, reduce};
use crate::core::tensor::Tensor;
use crate::core::views::{expand, narrow, reshape};

/// The number of elements each result of a reduction over `dims` of `sizes` reads.
fn reduced_count(sizes: &[i64], dims: &[usize]) -> f64 {
    dims.iter()
        .map(|&d| sizes.get(d).map_or(1.0, |&s| s as f64))
        .product()
}

/// The gradient of `var(dims, correction, keepdim)`: `2 / (N - correction) · g · (x - mean)`.
pub fn var_grad(
    g: &Tensor,
    x: &Tensor,
    dims: &[usize],
    correction: f64,
    keepdim: bool,
) -> Result<Tensor> {
    let g = unreduce(g, x.ndim(), dims, keepdim)?;
    let dof = reduced_count(&x.sizes(), dims) - correction;
    let reduced: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
    let mean = if x.ndim() == 0 {
        x.clone()
    } else {
        reduce(x, Reduction::Mean, Some(&reduced), true)?
    };
    let scaled = mul(n(2.0 / dof), t(&g))?;
    mul(t(&scaled), t(&sub(t(x), t(&mean))?))
}

/// Records `out`, `x`'s variance (`std`: standard deviation) over `dims` with
/// `correction`, under `node`, with its gradient.
pub fn record_spread(
    out: &Tensor,
    node: &str,
    x: &Tensor,
    dims: Vec<usize>,
    correction: f64,
    keepdim: bool,
    std: bool,
) {
    if std {
        super::tracked::single_with_output(out, node, x, move |g, x, out| {
            std_grad(g, x, out, &dims, correction, keepdim)
        });
    } else {
        super::tracked::single(out, node, x, move |g, x| {
            var_grad(g, x, &dims, correction, keepdim)
        });
    }
}

/// The gradient of `mean(dims, keepdim)`: `g / N` at every element.
pub fn mean_grad(g: &Tensor, x: &Tensor, dims: &[usize], keepdim: bool) -> Result<Tensor> {
    let g = unreduce(g, x.ndim(), dims, keepdim)?;
    let count = reduced_count(&x.sizes(), dims);
    expand(&div(t(&g), n(count))?, &x.sizes())
}

/// The gradient of `nansum(dims, keepdim)`: `g` where `x` is not NaN.
pub fn nansum_grad(g: &Tensor, x: &Tensor, dims: &[usize], keepdim: bool) -> Result<Tensor> {
    let g = unreduce(g, x.ndim(), dims, keepdim)?;
    // A product with the mask, as PyTorch's (an infinite `g` gives NaN at a NaN).
    let number = cmp(BinaryOp::Eq, t(x), t(x))?;
    mul(t(&expand(&g, &x.sizes())?), t(&number))
}

/// The gradient of `logcumsumexp` along `dim` (`out` its result): element `i` gets
/// `Σ_{j ≥ i} g_j exp(x_i - out_j)`, summed in log space from the end, the positive and
/// negative parts of `g` apart.
pub fn logcumsumexp_grad(g: &Tensor, x: &Tensor, out: &Tensor, dim: i64) -> Result<Tensor> {
    use super::grad_ops::{apply, select};
    use crate::core::unary_math::Unary;
    if x.ndim() == 0 {
        return Ok(g.clone());
    }
    let lowest = match g.dtype() {
        crate::core::dtype::DType::Float64 => f64::MIN,
        crate::core::dtype::DType::Float16 => -65504.0,
        _ => f32::MIN as f64,
    };
    let log_abs = apply(Unary::Log, &apply(Unary::Abs, g)?)?;
    let from_end = |v: &Tensor| -> Result<Tensor> {
        let flipped = flip(v, &[dim])?;
        flip(&crate::core::log_scan::logcumsumexp(&flipped, dim)?, &[dim])
    };
    let part = |o: BinaryOp| -> Result<Tensor> {
        let logs = select(&cmp(o, t(g), n(0.0))?, t(&log_abs), n(lowest))?;
        let summed = from_end(&sub(t(&logs), t(out))?)?;
        apply(Unary::Exp, &super::grad_ops::add(t(&summed), t(x))?)
    };
    sub(t(&part(BinaryOp::Gt)?), t(&part(BinaryOp::Lt)?))
}

/// The gradient of `std(...)`, `result` being the standard deviations: `var`'s, from
/// `g / (2 · result)` (zero where the result is zero).
pub fn std_grad(
    g: &Tensor,
    x: &Tensor,
    result: &Tensor,
    dims: &[usize],
    correction: f64,
    keepdim: bool,
) -> Result<Tensor> {
    let halved = div(t(g), t(&mul(t(result), n(2.0))?))?;
    let nonzero = cmp(BinaryOp::Ne, t(result), n(0.0))?;
    let g_var = keep(&nonzero, &halved)?;
    var_grad(&g_var, x, dims, correction, keepdim)
}

/// The gradient of `prod` over `dim` (`None`: everything), `result` the products: without
/// a zero in the input, `g · result / x`; otherwise each element's gradient is the product
/// of the others in its row, from products running in from both ends.
pub fn prod_grad(
    g: &Tensor,
    x: &Tensor,
    result: &Tensor,
    dim: Option<usize>,
    keepdim: bool,
) -> Result<Tensor> {
    if x.ndim() == 0 {
        return Ok(g.clone());
    }
    let dims: Vec<usize> = match dim {
        Some(d) => vec![d],
        None => (0..x.ndim()).collect(),
    };
    let keep_dims = keepdim && dim.is_some();
    let g = unreduce(g, x.ndim(), &dims, keep_dims)?;
    let result = unreduce(result, x.ndim(), &dims, keep_dims)?;
    let zeros = cmp(BinaryOp::Eq, t(x), n(0.0))?;
    if crate::core::engine::elements::any_nonzero(&zeros)? {
        let others = match dim {
            Some(d) => products_of_others(x, d as i64)?,
            None => {
                let flat = reshape(x, &[-1])?;
                reshape(&products_of_others(&flat, 0)?, &x.sizes())?
            }
        };
        return mul(t(&expand(&g, &x.sizes())?), t(&others));
    }
    mul(t(&g), t(&div(t(&result), t(x))?))
}

/// For each element along `dim`, the product of the other elements of its row: the
/// product of those before it times the product of those after it.
fn products_of_others(x: &Tensor, dim: i64) -> Result<Tensor> {
    use crate::core::join::cat;
    use crate::core::scan::cumprod;
    let size = x.sizes()[crate::core::error::wrap_dim(dim, x.ndim())?];
    if size == 0 {
        return Ok(x.clone());
    }
    let mut one_sizes = x.sizes();
    one_sizes[dim as usize] = 1;
    let ones =
        crate::core::creation::full(&one_sizes, crate::core::scalar::Scalar::Int(1), x.dtype())?;
    let before = cat(&[ones.clone(), narrow(x, dim, 0, size - 1)?], dim)?;
    let before = cumprod(&before, dim, None)?;
    let after = cat(&[ones, flip(&narrow(x, dim, 1, size - 1)?, &[dim])?], dim)?;
    let after = flip(&cumprod(&after, dim, None)?, &[dim])?;
    mul(t(&before), t(&after))
}
