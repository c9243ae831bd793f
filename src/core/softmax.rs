//! `softmax`, `log_softmax` and `logsumexp` along dims, computed as PyTorch's CPU kernels
//! compute them: `softmax`/`log_softmax` in `float32` for the narrow floats (rounding the
//! steps PyTorch rounds), in the tensor's own float dtype otherwise; `logsumexp` as a
//! chain of ops in the result dtype; with the row's maximum taken off before `exp` so
//! large values do not overflow. Integer inputs: `softmax` refuses them as PyTorch does,
//! `logsumexp` computes in the default float dtype. Their gradients are in `formulas`.

use super::copy::cast_copy;
use super::dtype::DType;
use super::error::{Result, wrap_dim};
use super::ops::{Arg, BinaryOp, binary_untracked as binary};
use super::reduce::{Reduction, reduce};
use super::tensor::Tensor;
use super::tensor::graph::{BackwardOp, SoftmaxKind, detached, record};
use super::unary::{Unary, unary};

/// The dtype a float op on `d` computes in: `float32` for the 16-bit floats.
fn compute_dtype(d: DType) -> DType {
    match d {
        DType::Float16 | DType::BFloat16 => DType::Float32,
        other => other,
    }
}

/// `x - max(x, dims)` (keeping dims) and the max; `x` already in its compute dtype. With
/// `guard`, an infinite max shifts by 0 instead (`logsumexp` of a row of `-inf` is `-inf`,
/// where `softmax` of one is NaN, as in PyTorch).
fn shifted(x: &Tensor, dims: &[i64], guard: bool) -> Result<(Tensor, Tensor)> {
    let max = reduce(x, Reduction::Max, Some(dims), true)?;
    if !guard {
        let s = binary(
            BinaryOp::Sub,
            &Arg::Tensor(x.clone()),
            &Arg::Tensor(max.clone()),
        )?;
        return Ok((s, max));
    }
    let finite = unary(&max, Unary::Abs)?;
    let inf = Arg::Number(super::scalar::Scalar::Float(f64::INFINITY));
    let is_inf = binary(BinaryOp::Eq, &Arg::Tensor(finite), &inf)?;
    let max = super::pointwise::where_(
        &is_inf,
        &Arg::Number(super::scalar::Scalar::Float(0.0)),
        &Arg::Tensor(max),
    )?;
    let s = binary(
        BinaryOp::Sub,
        &Arg::Tensor(x.clone()),
        &Arg::Tensor(max.clone()),
    )?;
    Ok((s, max))
}

/// `softmax(x, dim)` (`log` false) or `log_softmax(x, dim)`, with `dtype=` converting the
/// input first.
pub fn softmax(x: &Tensor, dim: i64, dtype: Option<DType>, log: bool) -> Result<Tensor> {
    let input = match dtype {
        Some(d) if d != x.dtype() => {
            // PyTorch converts first: a cast autograd sees.
            let c = cast_copy(x, d)?;
            if d.is_floating_point() {
                super::tensor::record::record_copy(&c, x, "ToCopyBackward0");
            }
            c
        }
        _ => x.clone(),
    };
    let d = input.dtype();
    let dim = wrap_dim(dim, input.ndim().max(1))? as i64;
    if input.numel() == 0 {
        // Nothing to normalize: PyTorch returns an empty result of any dtype unchecked.
        return cast_copy(&input, d);
    }
    // PyTorch's CPU kernels are built for the float dtypes only (complex refused too).
    if !d.is_floating_point() {
        let last = input.ndim() <= 1 || dim == input.ndim() as i64 - 1;
        let kernel = format!(
            "{}softmax{}kernel_impl",
            if log { "log_" } else { "" },
            if last { "_lastdim_" } else { "_" }
        );
        return Err(super::unbuilt_kernels::not_built(&kernel, d));
    }
    let work = compute_dtype(d);
    let xw = if work == d {
        input.clone()
    } else {
        cast_copy(&input, work)?
    };
    if xw.numel() == 0 {
        return cast_copy(&xw, d);
    }
    let dims: Vec<i64> = if xw.ndim() == 0 { vec![] } else { vec![dim] };
    let (s, _) = shifted(&xw, &dims, false)?;
    let e = unary(&s, Unary::Exp)?;
    let total = reduce(&e, Reduction::Sum, Some(&dims), true)?;
    // For the 16-bit floats PyTorch's kernels round some steps to the dtype: along the last
    // dim `log_softmax` rounds the row sum and its log; along another dim `softmax` rounds
    // each `exp` it divides (the sum adds the unrounded ones). Everything else is float32.
    let narrow = work != d;
    let last = xw.ndim() <= 1 || dim == xw.ndim() as i64 - 1;
    let round = |t: &Tensor| -> Result<Tensor> {
        if narrow {
            cast_copy(&cast_copy(t, d)?, work)
        } else {
            Ok(t.clone())
        }
    };
    let out = if log {
        let l = if last {
            round(&unary(&round(&total)?, Unary::Log)?)?
        } else {
            unary(&total, Unary::Log)?
        };
        binary(BinaryOp::Sub, &Arg::Tensor(s), &Arg::Tensor(l))?
    } else {
        let numerator = if last { e } else { round(&e)? };
        binary(BinaryOp::Div, &Arg::Tensor(numerator), &Arg::Tensor(total))?
    };
    let out = if out.dtype() == d {
        out
    } else {
        cast_copy(&out, d)?
    };
    // PyTorch's kernel reads a contiguous copy of its input and writes a row-major result,
    // whatever the input's layout.
    let out = super::result_layout::row_major(out)?;
    let (kind, name) = if log {
        (SoftmaxKind::LogSoftmax, "LogSoftmaxBackward0")
    } else {
        (SoftmaxKind::Softmax, "SoftmaxBackward0")
    };
    let op = BackwardOp::Softmax {
        kind,
        input: detached(&input),
        output: detached(&out),
        dims,
        keepdim: true,
    };
    record(&[&out], name, &[&input], op);
    Ok(out)
}

/// `logsumexp(x, dims, keepdim)`: `log(sum(exp(x)))` over `dims`, stably; integer inputs
/// compute in the default float dtype.
pub fn logsumexp(x: &Tensor, dims: &[i64], keepdim: bool) -> Result<Tensor> {
    let d = x.dtype();
    // The dims are checked first.
    super::reduce::reduced_dims(x.ndim(), Some(dims))?;
    let out_dtype = if d.is_floating_point() || d.is_complex() {
        d
    } else {
        super::defaults::default_dtype()
    };
    // PyTorch composes it of whole-tensor ops in the result dtype (each rounding to it).
    let work = out_dtype;
    let xw = if d == work {
        x.clone()
    } else {
        cast_copy(x, work)?
    };
    let ndim = xw.ndim();
    let mut wrapped = Vec::with_capacity(dims.len());
    for &dim in dims {
        wrapped.push(wrap_dim(dim, ndim.max(1))? as i64);
    }
    let dims: Vec<i64> = if ndim == 0 { vec![] } else { wrapped };
    let (s, max) = if xw.numel() == 0 {
        // An empty reduction: the sum of no terms is 0, its log -inf.
        let zeros = reduce(&xw, Reduction::Sum, Some(&dims), true)?;
        (xw.clone(), zeros)
    } else if d.is_complex() {
        // Shifted by the largest real part (a real number), as PyTorch's complex form is.
        let (_, max) = shifted(&super::views::dtype::real(&xw)?, &dims, true)?;
        let s = binary(
            BinaryOp::Sub,
            &Arg::Tensor(xw.clone()),
            &Arg::Tensor(max.clone()),
        )?;
        (s, max)
    } else {
        shifted(&xw, &dims, true)?
    };
    let e = unary(&s, Unary::Exp)?;
    let total = reduce(&e, Reduction::Sum, Some(&dims), true)?;
    let l = unary(&total, Unary::Log)?;
    let out = binary(BinaryOp::Add, &Arg::Tensor(l), &Arg::Tensor(max))?;
    let out = if keepdim || ndim == 0 {
        out
    } else {
        let mut sizes = Vec::new();
        for (i, &s) in out.sizes().iter().enumerate() {
            if !dims.contains(&(i as i64)) {
                sizes.push(s);
            }
        }
        super::views::reshape(&out, &sizes)?
    };
    let out = if out.dtype() == out_dtype {
        out
    } else {
        cast_copy(&out, out_dtype)?
    };
    let op = BackwardOp::Softmax {
        kind: SoftmaxKind::LogSumExp,
        input: detached(x),
        output: detached(&out),
        dims,
        keepdim,
    };
    record(&[&out], "LogsumexpBackward0", &[x], op);
    Ok(out)
}
