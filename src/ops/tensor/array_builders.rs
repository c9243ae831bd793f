//! Functions that build a new array from another's elements: `nonzero_static` (the
//! nonzero indices, cut or padded to a fixed count), `combinations` (the `r`-element
//! combinations of a vector's entries), `vander` (powers of a vector's entries) and `polar`
//! (complex numbers from magnitudes and angles).

use num_complex::Complex64;
use rhai::Dynamic;

use crate::core::dtype::DType;
use crate::core::engine::elements;
use crate::core::error::{Result, TorchError};
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::detached;
use crate::core::views;
use crate::ops::args::Args;
use crate::ops::errors::IntoRhai;
use crate::ops::registry::Registry;

/// `x.nonzero_static(size=, fill_value=-1)`: `nonzero`'s `(count, ndim)` indices, the
/// first `size` rows, padded with `fill_value`.
fn nonzero_static(x: &Tensor, size: i64, fill: i64) -> Result<Tensor> {
    if size < 0 {
        return Err(TorchError::runtime(
            "nonzero_static: 'size' must be an non-negative integer",
        ));
    }
    let found = crate::core::selection::nonzero(&detached(x))?;
    let ndim = x.ndim();
    let values = elements::int64_values(&found)?;
    let count = (size as usize)
        .checked_mul(ndim)
        .ok_or_else(|| TorchError::runtime(format!("nonzero_static: size {size} is too large")))?;
    let mut out = crate::core::memory::alloc::vec_with_capacity::<i64>(count)?;
    out.extend(values.iter().take(count));
    out.resize(count, fill);
    elements::from_i64s(&out, vec![size, ndim as i64])
}

/// The index tuples of `combinations`, one after another: increasing (or, with
/// replacement, non-decreasing) `r`-tuples of `0..n`, in lexicographic order (stepped
/// without recursion: `r` may be large).
fn index_tuples(n: usize, r: usize, with_replacement: bool) -> Vec<i64> {
    let mut out = Vec::new();
    if n == 0 || (!with_replacement && r > n) {
        return out;
    }
    let gap = usize::from(!with_replacement);
    let mut idx: Vec<usize> = (0..r).map(|k| k * gap).collect();
    // The largest value position `k` may hold.
    let top = |k: usize| if with_replacement { n - 1 } else { n - r + k };
    loop {
        crate::core::interrupt::check_every(out.len());
        out.extend(idx.iter().map(|&i| i as i64));
        let Some(k) = (0..r).rev().find(|&k| idx[k] < top(k)) else {
            return out;
        };
        idx[k] += 1;
        for j in k + 1..r {
            idx[j] = idx[j - 1] + gap;
        }
    }
}

/// `torch.combinations(input, r=2, with_replacement=False)`.
/// `torch.combinations`, and the flat positions in `x` its elements were read from (`None`
/// for `r = 0`, whose empty result PyTorch makes apart from `x`).
fn combinations(x: &Tensor, r: i64, with_replacement: bool) -> Result<(Tensor, Option<Vec<i64>>)> {
    if x.ndim() != 1 {
        return Err(TorchError::runtime(format!(
            "Expect a 1D vector, but got shape {:?}",
            x.sizes()
        )));
    }
    if r < 0 {
        return Err(TorchError::runtime(format!(
            "Expect a non-negative number, but got {r}"
        )));
    }
    if r == 0 {
        return Ok((Tensor::zeros(vec![0], x.dtype())?, None));
    }
    let n = x.numel() as usize;
    if n == 0 || (!with_replacement && r as usize > n) {
        return Ok((Tensor::zeros(vec![0, r], x.dtype())?, Some(Vec::new())));
    }
    // The count is C(n + r - 1, r) with replacement, C(n, r) without; refuse what cannot
    // be held before enumerating. Each is a product over the smaller side (`n - 1`
    // factors, or `min(r, n - r)`), so a huge `r` costs no more than `n` steps.
    let (top, pick) = if with_replacement {
        (n as f64 + r as f64 - 1.0, (n - 1).min(r as usize))
    } else {
        (n as f64, (r as usize).min(n - r as usize))
    };
    let mut count: f64 = 1.0;
    for k in 0..pick {
        count = count * (top - k as f64) / (k + 1) as f64;
        if count > i64::MAX as f64 {
            break;
        }
    }
    if count > i64::MAX as f64 {
        return Err(TorchError::runtime(format!(
            "combinations: {count} combinations cannot be held"
        )));
    }
    let bytes = crate::core::memory::alloc::contiguous_nbytes(&[count as i64, r], 8)?;
    crate::core::memory::alloc::vec_with_capacity::<u8>(bytes.saturating_mul(2))?;
    let flat = index_tuples(n, r as usize, with_replacement);
    let rows = flat.len() as i64 / r;
    let picked = crate::core::engine::gather_rows::index_select(&detached(x), 0, &flat)?;
    Ok((views::reshape(&picked, &[rows, r])?, Some(flat)))
}

/// `torch.vander(x, N=None, increasing=False)`: the columns `x**0 .. x**(N-1)` (reversed
/// unless `increasing`), built by running products as PyTorch builds them; integers and
/// bools in int64.
fn vander(x: &Tensor, n: Option<i64>, increasing: bool) -> Result<Tensor> {
    if x.ndim() != 1 {
        return Err(TorchError::runtime("x must be a one-dimensional tensor."));
    }
    let n = n.unwrap_or(x.numel());
    if n < 0 {
        return Err(TorchError::runtime("N must be non-negative."));
    }
    let dtype = if x.dtype().is_integral() {
        DType::Int64
    } else {
        x.dtype()
    };
    let rows = x.numel();
    let ones = crate::core::creation::full(&[rows, n], crate::core::scalar::Scalar::Int(1), dtype)?;
    if n > 1 {
        let cols = views::narrow(&ones, 1, 1, n - 1)?;
        let column = views::unsqueeze(&crate::core::copy::cast_copy(&detached(x), dtype)?, 1)?;
        crate::core::copy::copy_(&cols, &views::expand(&column, &[rows, n - 1])?)?;
    }
    let powers = crate::core::scan::cumprod(&ones, 1, None)?;
    if increasing {
        Ok(powers)
    } else {
        crate::core::flip::flip(&powers, &[1])
    }
}

/// `torch.polar(abs, angle)`: `abs * (cos(angle) + i sin(angle))`, both float tensors of
/// one dtype.
fn polar(magnitude: &Tensor, angle: &Tensor) -> Result<Tensor> {
    let (m, a) = (magnitude.dtype(), angle.dtype());
    let float = |d: DType| matches!(d, DType::Float16 | DType::Float32 | DType::Float64);
    if !float(m) || !float(a) {
        return Err(TorchError::not_implemented(format!(
            "Expected both inputs to be Half, Float or Double tensors but got {} and {}",
            m.cpp_name(),
            a.cpp_name()
        )));
    }
    if m != a {
        return Err(TorchError::runtime(format!(
            "Expected object of scalar type {} but got scalar type {} for second argument",
            m.cpp_name(),
            a.cpp_name()
        )));
    }
    let complex = match m {
        DType::Float16 => DType::Complex32,
        DType::Float32 => DType::Complex64,
        _ => DType::Complex128,
    };
    let shape = views::broadcast_shapes(&magnitude.sizes(), &angle.sizes())?;
    let round: fn(f64) -> f64 = match m {
        DType::Float64 => |v| v,
        _ => |v| v as f32 as f64,
    };
    let (mb, ab) = (
        elements::image(&crate::core::copy::cast_copy(
            &views::expand(&detached(magnitude), &shape)?,
            DType::Float64,
        )?)?,
        elements::image(&crate::core::copy::cast_copy(
            &views::expand(&detached(angle), &shape)?,
            DType::Float64,
        )?)?,
    );
    let mut out = crate::core::memory::alloc::vec_with_capacity::<u8>(mb.len() * 2)?;
    for (r, t) in mb.chunks_exact(8).zip(ab.chunks_exact(8)) {
        let r = f64::from_le_bytes(r.try_into().unwrap_or([0; 8]));
        let t = f64::from_le_bytes(t.try_into().unwrap_or([0; 8]));
        let c = Complex64::new(round(r * round(t.cos())), round(r * round(t.sin())));
        out.extend_from_slice(&c.re.to_le_bytes());
        out.extend_from_slice(&c.im.to_le_bytes());
    }
    let result = elements::from_image(out, shape, DType::Complex128);
    crate::core::copy::cast_copy(&result, complex)
}

/// Registers the builders.
pub fn register(r: &mut Registry) {
    r.method_and_function("nonzero_static", 0, |x, a| {
        let size = a.int(usize::MAX, "size", "nonzero_static")?;
        let fill = a.int_or(usize::MAX, "fill_value", -1)?;
        Ok(Dynamic::from(nonzero_static(x, size, fill).rhai()?))
    });
    r.tensor_function("combinations", 2, |x, a: Args| {
        let r = a.int_or(0, "r", 2)?;
        let repeat = a.bool_or(1, "with_replacement", false)?;
        let (out, positions) = combinations(x, r, repeat).rhai()?;
        if let Some(positions) = positions {
            // Each element was read from one element of `x`: its gradient goes back there.
            let sizes = x.sizes();
            crate::core::autograd::tracked::single(&out, "IndexBackward0", x, move |g, _| {
                crate::core::autograd::selection_grads::to_positions(g, &sizes, &positions)
            });
        }
        Ok(Dynamic::from(out))
    });
    r.tensor_function("vander", 2, |x, a: Args| {
        let n = a.opt_int(0, "N")?;
        let increasing = a.bool_or(1, "increasing", false)?;
        let out = vander(x, n, increasing).rhai()?;
        let (rows, width) = (x.numel(), out.sizes().get(1).copied().unwrap_or(0));
        let float = out.dtype().is_floating_point() || out.dtype().is_complex();
        if width >= 2 && float && x.requires_grad() {
            // PyTorch composes `vander` of a cumulative product written in place into a
            // view of a buffer its backward reads, so its backward always refuses, in
            // these words.
            let refused = format!(
                "one of the variables needed for gradient computation has been modified by an inplace operation: [torch.{}Tensor [{rows}, {}]], which is output 0 of AsStrided, is at version 3; expected version 2 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).",
                out.dtype().cpp_name(),
                width - 1
            );
            let node = if increasing { "CopySlices" } else { "FlipBackward0" };
            crate::core::tensor::record::record_formula(&out, node, &[x], &[], move |_| {
                Err(TorchError::runtime(refused.clone()))
            });
        }
        Ok(Dynamic::from(out))
    });
    r.tensor_function("polar", 1, |x, a: Args| {
        let angle = a.tensor(0, "angle", "polar")?;
        let out = polar(x, &angle).rhai()?;
        if x.requires_grad() || angle.requires_grad() {
            // With `z = abs · e^(i angle)`: `abs` gets `Re(conj(g) · z / |z|)`, `angle`
            // gets `Re(conj(g) · i z)`.
            let (z, a_like, b_like) = (detached(&out), detached(x), detached(&angle));
            let formula = move |g: &Tensor| {
                use crate::core::autograd::grad_ops::{mul, t};
                let conj = crate::core::views::conj::conj_physical(g)?;
                let unit = crate::core::unary::unary(&z, crate::core::unary_math::Unary::Sgn)?;
                let turned = mul(
                    t(&z),
                    crate::core::ops::Arg::Number(crate::core::scalar::Scalar::Complex(
                        num_complex::Complex64::new(0.0, 1.0),
                    )),
                )?;
                let real = |v: Tensor| -> Result<Tensor> {
                    crate::core::copy::contiguous_copy(&crate::core::views::dtype::real(&v)?)
                };
                let ga = real(mul(t(&conj), t(&unit))?)?;
                let gb = real(mul(t(&conj), t(&turned))?)?;
                Ok(vec![
                    Some(crate::core::autograd::sum_to(&ga, &a_like.sizes())?),
                    Some(crate::core::autograd::sum_to(&gb, &b_like.sizes())?),
                ])
            };
            crate::core::tensor::record::record_formula(
                &out,
                "PolarBackward0",
                &[x, &angle],
                &[],
                formula,
            );
        }
        Ok(Dynamic::from(out))
    });
}
