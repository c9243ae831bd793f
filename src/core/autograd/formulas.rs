//! Gradient formulas: from a recorded op (`BackwardOp`) and the gradients of its outputs,
//! the gradients of its tensor inputs. Formulas compute with untracked ops, so gradients
//! never carry a graph of their own, and never call back into recording.

use crate::core::copy::{cast_copy, contiguous_copy, to_scalars};
use crate::core::dtype::DType;
use crate::core::element;
use crate::core::error::{Result, TorchError, wrap_dim};
use crate::core::layout::Layout;
use crate::core::memory::storage::Storage;
use crate::core::ops::{Arg, BinaryOp, binary_untracked as binary};
use crate::core::reduce::{Reduction, reduce};
use crate::core::scalar::Scalar;
use crate::core::strided::for_each_run;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::{Arith, BackwardOp, Saved, ViewReplay};
use crate::core::views::{expand, view};

/// The gradients of `op`'s tensor inputs (one per input, in recording order; `None`: no
/// gradient) from the gradients of its outputs (`None`: that output got none, so it counts
/// as zeros).
pub fn apply(op: &BackwardOp, grads: &[Option<Tensor>]) -> Result<Vec<Option<Tensor>>> {
    if let BackwardOp::View {
        input,
        dtype,
        storage_nbytes,
        outputs,
        replay,
        ..
    } = op
    {
        let grad = match replay {
            Some(replay) => replayed_view_grad(input, *dtype, replay, outputs, grads)?,
            None => storage_view_grad(input, *dtype, *storage_nbytes, outputs, grads)?,
        };
        return Ok(vec![Some(grad)]);
    }
    // Every other op has one output; without its gradient, no input gets one.
    match grads.first().and_then(Option::as_ref) {
        Some(g) => single_output(op, g),
        None => Ok(vec![None; input_count(op)]),
    }
}

/// The formulas of ops with one output.
fn single_output(op: &BackwardOp, g: &Tensor) -> Result<Vec<Option<Tensor>>> {
    Ok(match op {
        BackwardOp::Arith { op, a, b } => arith_grads(*op, a, b, g)?,
        BackwardOp::Formula { grads, .. } => (grads.0)(g)?,
        BackwardOp::Neg => vec![Some(binary(BinaryOp::Mul, &t(g), &number(-1))?)],
        BackwardOp::Scaled { f, saved: None } => {
            // `frac` passes the gradient on; the others' is zero, whatever the gradient
            // (PyTorch's `zeros_like(grad)`: no NaN from an infinite gradient).
            if f.gradient_is_zero() {
                vec![Some(crate::core::creation::full(
                    &g.sizes(),
                    Scalar::Int(0),
                    g.dtype(),
                )?)]
            } else {
                vec![Some(binary(BinaryOp::Mul, &t(g), &number(1))?)]
            }
        }
        BackwardOp::Scaled {
            f,
            saved: Some(saved),
        } if f.gradient_selects() => {
            // Not a product: PyTorch's formula picks the gradient or zero, so an infinite or
            // NaN gradient stays out where the factor is zero, and a NaN output lets it in
            // (`relu`: `threshold_backward(grad, result, 0)` passes it unless result <= 0).
            let grad = if f.gradient_is_zero() {
                crate::core::creation::full(&g.sizes(), Scalar::Int(0), saved.dtype())?
            } else {
                let stopped = binary(BinaryOp::Le, &t(saved), &number(0))?;
                crate::core::pointwise::where_(&stopped, &number(0), &t(g))?
            };
            vec![Some(cast_grad(&grad, saved.dtype())?)]
        }
        BackwardOp::Scaled {
            f,
            saved: Some(saved),
        } => {
            let Some(factor) = crate::core::unary::gradient_factor(*f, saved)? else {
                return Err(TorchError::not_implemented(format!(
                    "tensh has no gradient formula for {}() of a complex tensor yet, so backward() cannot pass through it",
                    f.name()
                )));
            };
            let grad = binary(BinaryOp::Mul, &t(g), &t(&factor))?;
            vec![Some(cast_grad(&grad, factor.dtype())?)]
        }
        BackwardOp::Pow { input, exponent } => {
            let e = *exponent;
            let powered =
                crate::core::pointwise::pow(&t(input), &Arg::Number(Scalar::Float(e - 1.0)))?;
            let scaled = binary(BinaryOp::Mul, &t(&powered), &Arg::Number(Scalar::Float(e)))?;
            let grad = binary(BinaryOp::Mul, &t(g), &t(&scaled))?;
            vec![Some(cast_grad(&grad, input.dtype())?)]
        }
        BackwardOp::Reduce {
            mean,
            sizes,
            dtype,
            dims,
            keepdim,
        } => {
            let grad = expand_reduced(g, sizes, dims.as_deref(), *keepdim)?;
            let grad = if *mean {
                let count = sizes.iter().product::<i64>() / g.numel().max(1);
                binary(BinaryOp::Div, &t(&grad), &number(count))?
            } else {
                grad
            };
            vec![Some(cast_grad(&grad, *dtype)?)]
        }
        BackwardOp::Copy { sizes, dtype } => {
            let shaped = view(&contiguous_copy(g)?, sizes)?;
            vec![Some(cast_grad(&shaped, *dtype)?)]
        }
        BackwardOp::Overwritten => vec![Some(zeros_like(g)?)],
        BackwardOp::Conj => vec![Some(contiguous_copy(&g.conj_view())?)],
        BackwardOp::Flip { dims } => vec![Some(crate::core::flip::flip(g, dims)?)],
        BackwardOp::Cumsum { dim, dtype } => {
            let grad = crate::core::scan::cumsum_backward(g, *dim)?;
            vec![Some(cast_grad(&grad, *dtype)?)]
        }
        BackwardOp::Triangle { upper, diagonal } => {
            vec![Some(crate::core::triangle::triangle(g, *upper, *diagonal)?)]
        }
        BackwardOp::Repeat { sizes, repeats } => {
            vec![Some(crate::core::repeat::repeat_backward(
                g, sizes, repeats,
            )?)]
        }
        BackwardOp::MatMul { a, b } => matmul_grads(a, b, g)?,
        BackwardOp::Softmax {
            kind,
            input,
            output,
            dims,
            keepdim,
        } => vec![Some(super::softmax_grad::gradient(
            *kind, input, output, dims, *keepdim, g,
        )?)],
        BackwardOp::Join {
            dim,
            stacked,
            parts,
        } => join_grads(*dim, *stacked, parts, g)?,
        BackwardOp::CopyFrom { sizes, dtype } => {
            let to_src = cast_grad(&sum_to(g, sizes)?, *dtype)?;
            vec![Some(zeros_like(g)?), Some(to_src)]
        }
        BackwardOp::CopySlices {
            base,
            view,
            dtype,
            storage_nbytes,
            inner,
        } => copy_slices_grads(base, view, *dtype, *storage_nbytes, inner, g)?,
        BackwardOp::Unsupported { op } => {
            return Err(TorchError::not_implemented(format!(
                "tensh has no gradient formula for {op}() yet, so backward() cannot pass through it"
            )));
        }
        BackwardOp::View { .. } => apply(op, &[Some(g.clone())])?,
    })
}

fn input_count(op: &BackwardOp) -> usize {
    match op {
        BackwardOp::Arith { a, b, .. } => [a, b].iter().filter_map(|s| s.as_tensor()).count(),
        BackwardOp::CopyFrom { .. } | BackwardOp::MatMul { .. } => 2,
        BackwardOp::CopySlices { inner, .. } => input_count(inner),
        BackwardOp::Join { parts, .. } => parts.len(),
        BackwardOp::Formula { inputs, .. } => *inputs,
        _ => 1,
    }
}

/// The gradients of `cat`/`stack`: each input's slice of `g` along `dim`.
fn join_grads(
    dim: usize,
    stacked: bool,
    parts: &[(Vec<i64>, DType, bool)],
    g: &Tensor,
) -> Result<Vec<Option<Tensor>>> {
    let mut at = 0;
    let mut grads = Vec::with_capacity(parts.len());
    for (sizes, dtype, skipped) in parts {
        if *skipped {
            grads.push(Some(Tensor::zeros(sizes.clone(), *dtype)?));
            continue;
        }
        let grad = if stacked {
            at += 1;
            crate::core::views::select(g, dim as i64, at - 1)?
        } else {
            let len = sizes[dim];
            at += len;
            crate::core::views::narrow(g, dim as i64, at - len, len)?
        };
        grads.push(Some(cast_grad(&grad, *dtype)?));
    }
    Ok(grads)
}

/// The gradients of `a.matmul(b)`: a 1-d `a` acts as a row and a 1-d `b` as a column, so
/// `g` gets those dims back; then `g @ bᵀ` and `aᵀ @ g`, summed over broadcast batch dims
/// down to each operand's sizes.
fn matmul_grads(a: &Tensor, b: &Tensor, g: &Tensor) -> Result<Vec<Option<Tensor>>> {
    use crate::core::linalg::matmul;
    use crate::core::views::{transpose, unsqueeze};
    let a2 = if a.ndim() == 1 {
        unsqueeze(a, 0)?
    } else {
        a.clone()
    };
    let b2 = if b.ndim() == 1 {
        unsqueeze(b, 1)?
    } else {
        b.clone()
    };
    let mut g2 = contiguous_copy(g)?;
    if a.ndim() == 1 {
        let at = g2.ndim().saturating_sub(usize::from(b.ndim() != 1)) as i64;
        g2 = unsqueeze(&g2, at)?;
    }
    if b.ndim() == 1 {
        g2 = unsqueeze(&g2, g2.ndim() as i64)?;
    }
    let grad_a = matmul(&g2, &transpose(&b2, -1, -2)?)?;
    let grad_b = matmul(&transpose(&a2, -1, -2)?, &g2)?;
    let shaped = |grad: &Tensor, operand: &Tensor, wide: &Tensor| -> Result<Tensor> {
        let summed = sum_to(grad, &wide.sizes())?;
        let reshaped = view(&contiguous_copy(&summed)?, &operand.sizes())?;
        cast_grad(&reshaped, operand.dtype())
    };
    Ok(vec![
        Some(shaped(&grad_a, a, &a2)?),
        Some(shaped(&grad_b, b, &b2)?),
    ])
}

/// Zeros of `g`'s sizes and dtype.
fn zeros_like(g: &Tensor) -> Result<Tensor> {
    Tensor::zeros(g.sizes(), g.dtype())
}

/// `CopySlices`: the base's gradient `g` is laid out in a scratch storage at the base's
/// layout; the view's region is read out and given to the inner op's formula, whose
/// gradient for the view's previous values is written back over the region; the scratch
/// read at the base's layout is the gradient of the base's previous values. The inner
/// op's other inputs get the rest of its gradients.
fn copy_slices_grads(
    base: &Layout,
    region: &Layout,
    dtype: DType,
    nbytes: usize,
    inner: &BackwardOp,
    g: &Tensor,
) -> Result<Vec<Option<Tensor>>> {
    let item = dtype.itemsize();
    base.check_in_bounds(item, nbytes)?;
    region.check_in_bounds(item, nbytes)?;
    let scratch = Storage::zeroed(nbytes)?;
    let at = |layout: &Layout| Tensor::from_parts(scratch.clone(), dtype, layout.clone());
    crate::core::copy::copy_(&at(base), &cast_grad(g, dtype)?)?;
    let grad_region = contiguous_copy(&at(region))?;
    let mut grads = match inner {
        BackwardOp::View { .. } => apply(inner, &[Some(grad_region.clone())])?,
        _ => single_output(inner, &grad_region)?,
    };
    let previous = grads.first_mut().and_then(Option::take);
    match previous {
        Some(p) => crate::core::copy::copy_(&at(region), &p)?,
        None => crate::core::copy::fill_(&at(region), Scalar::Int(0))?,
    }
    let mut out = vec![Some(contiguous_copy(&at(base))?)];
    out.extend(grads.into_iter().skip(1));
    Ok(out)
}

fn t(x: &Tensor) -> Arg {
    Arg::Tensor(x.clone())
}

fn number(n: i64) -> Arg {
    Arg::Number(Scalar::Int(n))
}

/// `x` conjugated when complex.
fn conj_arg(x: Arg) -> Result<Arg> {
    Ok(match x {
        Arg::Tensor(t) if t.dtype().is_complex() => {
            Arg::Tensor(crate::core::views::conj::conj_physical(&t)?)
        }
        Arg::Number(Scalar::Complex(z)) => Arg::Number(Scalar::Complex(z.conj())),
        other => other,
    })
}

fn arg(s: &Saved) -> Arg {
    match s {
        Saved::Tensor(x) => Arg::Tensor(x.clone()),
        Saved::Number(n) => Arg::Number(*n),
    }
}

/// The gradients of `a op b` for each tensor operand, summed down to its sizes and cast to
/// its dtype.
fn arith_grads(op: Arith, a: &Saved, b: &Saved, g: &Tensor) -> Result<Vec<Option<Tensor>>> {
    // Complex operands enter conjugated (PyTorch's convention: `g · conj(b)` for `a · b`).
    let (xa, xb) = (conj_arg(arg(a))?, conj_arg(arg(b))?);
    let (ga, gb) = match op {
        Arith::Add => (g.clone(), g.clone()),
        Arith::Sub => (g.clone(), binary(BinaryOp::Mul, &t(g), &number(-1))?),
        Arith::Mul => (
            binary(BinaryOp::Mul, &t(g), &xb)?,
            binary(BinaryOp::Mul, &t(g), &xa)?,
        ),
        Arith::Div => {
            let ga = binary(BinaryOp::Div, &t(g), &xb)?;
            let b2 = binary(BinaryOp::Mul, &xb, &xb)?;
            let num = binary(BinaryOp::Mul, &t(g), &xa)?;
            let quotient = binary(BinaryOp::Div, &t(&num), &t(&b2))?;
            (ga, binary(BinaryOp::Mul, &t(&quotient), &number(-1))?)
        }
    };
    let mut grads = Vec::new();
    for (side, grad) in [(a, ga), (b, gb)] {
        if let Saved::Tensor(x) = side {
            let reduced = sum_to(&grad, &x.sizes())?;
            grads.push(Some(cast_grad(&reduced, x.dtype())?));
        }
    }
    Ok(grads)
}

/// A gradient in its input's dtype (gradients of float32 inputs stay float32).
pub fn cast_grad(g: &Tensor, d: DType) -> Result<Tensor> {
    if g.dtype() == d {
        Ok(g.clone())
    } else {
        cast_copy(g, d)
    }
}

/// `grad` summed down to `sizes` (undoing broadcasting).
pub fn sum_to(grad: &Tensor, sizes: &[i64]) -> Result<Tensor> {
    let g = grad.sizes();
    if g == sizes {
        return Ok(grad.clone());
    }
    let Some(lead) = g.len().checked_sub(sizes.len()) else {
        // A source with extra leading 1s (`t[0] = v` with `v` of sizes `[1, n]`): the
        // same elements, reshaped.
        return view(&contiguous_copy(grad)?, sizes);
    };
    let mut dims: Vec<i64> = (0..lead as i64).collect();
    for (i, &s) in sizes.iter().enumerate() {
        if s == 1 && g[lead + i] != 1 {
            dims.push((lead + i) as i64);
        }
    }
    let summed = if dims.is_empty() {
        grad.clone()
    } else {
        reduce(grad, Reduction::Sum, Some(&dims), true)?
    };
    view(&contiguous_copy(&summed)?, sizes)
}

/// The output gradient expanded back over reduced dims (`keepdim` restored first).
fn expand_reduced(
    g: &Tensor,
    input: &[i64],
    dims: Option<&[i64]>,
    keepdim: bool,
) -> Result<Tensor> {
    let mut kept = input.to_vec();
    if let Some(d) = dims.filter(|d| !d.is_empty()) {
        for &dim in d {
            // A 0-d input takes dim 0 or -1 (PyTorch wraps them as over one element) and
            // has no size to restore.
            let at = wrap_dim(dim, input.len())?;
            if let Some(size) = kept.get_mut(at) {
                *size = 1;
            }
        }
    } else {
        kept.iter_mut().for_each(|s| *s = 1);
    }
    let shaped = if keepdim || g.sizes() == kept {
        g.clone()
    } else {
        view(&contiguous_copy(g)?, &kept)?
    };
    contiguous_copy(&expand(&shaped, input)?)
}

/// The view rule: the view op is replayed on a zeroed contiguous tensor of the input's sizes
/// and dtype, each output's gradient is added in at its replayed layout (adding, so
/// stride-0 and overlapping views accumulate), and that tensor is the input's gradient.
/// Each input element gets the gradients of the output elements that read it, even where
/// the input's own layout overlaps (`w.expand(2)` viewed again: two input elements over
/// one storage element keep one gradient each, as PyTorch's per-op formulas give).
fn replayed_view_grad(
    input: &Layout,
    dtype: DType,
    replay: &ViewReplay,
    outputs: &[(Layout, DType)],
    grads: &[Option<Tensor>],
) -> Result<Tensor> {
    let nbytes = crate::core::memory::alloc::contiguous_nbytes(&input.sizes, dtype.itemsize())?;
    let scratch = Storage::zeroed(nbytes)?;
    let probe = Tensor::from_parts(
        scratch.clone(),
        dtype,
        Layout::contiguous(input.sizes.clone()),
    );
    let views = (replay.0)(&probe)?;
    let same = views.len() == outputs.len()
        && views
            .iter()
            .zip(outputs)
            .all(|(v, (l, d))| *v.sizes() == l.sizes[..] && v.dtype() == *d);
    if !same {
        return Err(TorchError::runtime(
            "internal error: a view op replayed for its gradient gave other views",
        ));
    }
    let placed: Vec<(Layout, DType)> = views.iter().map(|v| (v.layout(), v.dtype())).collect();
    add_grads_at(&scratch, nbytes, &placed, grads)?;
    Ok(probe)
}

/// The view rule without a replay (`as_strided`, whose arguments address the storage
/// itself): each output's gradient is added into a zeroed storage of the same size at the
/// output's layout and dtype; reading that storage at the input's layout and dtype gives
/// the input's gradient.
fn storage_view_grad(
    input: &Layout,
    dtype: DType,
    nbytes: usize,
    outputs: &[(Layout, DType)],
    grads: &[Option<Tensor>],
) -> Result<Tensor> {
    let scratch = Storage::zeroed(nbytes)?;
    add_grads_at(&scratch, nbytes, outputs, grads)?;
    input.check_in_bounds(dtype.itemsize(), nbytes)?;
    contiguous_copy(&Tensor::from_parts(scratch, dtype, input.clone()))
}

/// Adds each output's gradient into `scratch` (`nbytes` long, zeroed) at the output's
/// layout and dtype. Which element starts (byte offsets) a gradient has reached is kept:
/// the first value is stored as it is (so `-0.0` stays `-0.0`, as PyTorch's plain reshape
/// of the gradient keeps it); later ones, from overlapping or stride-0 views, are added.
fn add_grads_at(
    scratch: &Storage,
    nbytes: usize,
    outputs: &[(Layout, DType)],
    grads: &[Option<Tensor>],
) -> Result<()> {
    let mut reached = vec![false; nbytes];
    for ((layout, d), grad) in outputs.iter().zip(grads) {
        let Some(grad) = grad else { continue };
        let item = d.itemsize();
        layout.check_in_bounds(item, nbytes)?;
        let values = to_scalars(&cast_grad(grad, *d)?)?;
        let mut values = values.iter();
        scratch.with_bytes_mut(|bytes| {
            // Row-major walk of the output's elements, matching `values`' order.
            for_each_run(
                &layout.sizes,
                [(&layout.strides, layout.offset)],
                |[start], n, [step]| {
                    for (i, v) in (0..n as i64).zip(values.by_ref()) {
                        let offset = (start + i * step) as usize * item;
                        let at = &mut bytes[offset..];
                        let first = !std::mem::replace(&mut reached[offset], true);
                        let value = if first {
                            *v
                        } else {
                            add_scalars(element::read(*d, at), *v)
                        };
                        element::write(*d, at, value);
                    }
                },
            );
        });
    }
    Ok(())
}

fn add_scalars(a: Scalar, b: Scalar) -> Scalar {
    match (a, b) {
        (Scalar::Complex(x), y) | (y, Scalar::Complex(x)) => Scalar::Complex(x + y.to_complex()),
        (x, y) => Scalar::Float(x.to_f64() + y.to_f64()),
    }
}
