//! Tensor-level random ops: filling a tensor in place (`uniform_`, `normal_`, `random_` in a
//! range, `bernoulli_`) and the factories built on them (`rand`, `randn`, `randint`,
//! `randperm`, `bernoulli`). Values are written in memory order, as PyTorch's serial kernels
//! visit elements after sorting dimensions by stride.

use super::distributions;
use super::generator::with_global;
use crate::core::copy::{to_scalars, write_through_negation};
use crate::core::dtype::DType;
use crate::core::element;
use crate::core::element::round_to;
use crate::core::error::{Result, TorchError};
use crate::core::scalar::Scalar;
use crate::core::strided::for_each_run;
use crate::core::tensor::Tensor;

/// Writes `next()` into every element of `t`, in memory order (Ctrl-C stops a long fill).
fn fill_with(t: &Tensor, next: impl FnMut() -> Scalar) -> Result<()> {
    let d = t.dtype();
    fill_slots(t, |v, slot| element::write(d, slot, v), next)
}

/// Writes `next()` into every element of `t` with `put` (which encodes one value into an
/// element's bytes, chosen once for the dtype), in memory order (Ctrl-C stops a long fill).
pub(super) fn fill_slots<V>(
    t: &Tensor,
    put: impl Fn(V, &mut [u8]),
    mut next: impl FnMut() -> V,
) -> Result<()> {
    // Random in-place ops refuse elements that share memory, as every in-place write does.
    crate::core::copy::check_no_internal_overlap(&t.layout())?;
    let (l, d) = (t.layout().in_memory_order(), t.dtype());
    let w = d.itemsize() as i64;
    t.storage().with_bytes_mut(|bytes| {
        l.check_in_bounds(d.itemsize(), bytes.len())?;
        for_each_run(&l.sizes, [(&l.strides, l.offset)], |[s0], n, [st]| {
            for i in 0..n as i64 {
                crate::core::interrupt::check_every(i as usize);
                let at = ((s0 + i * st) * w) as usize;
                put(next(), &mut bytes[at..]);
            }
        });
        Ok(())
    })
}

/// PyTorch's error unless `op`'s floating kernel exists for `t`'s dtype: the float dtypes
/// PyTorch's random kernels are built for (not the float8 ones).
fn require_floating(t: &Tensor, op: &str) -> Result<()> {
    if !t.dtype().is_floating_point() {
        return Err(crate::core::unbuilt_kernels::not_built(op, t.dtype()));
    }
    crate::core::unbuilt_kernels::require_random_kernel(op, t.dtype())
}

/// A complex tensor's real and imaginary parts as a real tensor with a last dim of 2 (what
/// PyTorch's random fills write into: each part drawn as a real number, in memory order).
fn parts_of_complex(t: &Tensor) -> Result<Tensor> {
    if t.is_conj() {
        return Err(TorchError::not_implemented(
            "tensh does not fill a conjugate view with random values yet: fill t.resolve_conj()",
        ));
    }
    crate::core::views::dtype::view_as_real(t)
}

/// `t.uniform_(from, to)`; a complex tensor draws its real and imaginary parts each in
/// `[from, to)`.
pub fn uniform_(t: &Tensor, from: f64, to: f64) -> Result<()> {
    if t.is_neg() {
        return write_through_negation(t, |s| uniform_(s, from, to));
    }
    if t.dtype().is_complex() {
        return uniform_(&parts_of_complex(t)?, from, to);
    }
    require_floating(t, "check_uniform_bounds")?;
    let bounds = match t.dtype() {
        DType::Float16 => Some(("c10::Half", 65504.0)),
        DType::BFloat16 => Some(("c10::BFloat16", 3.3895313892515355e38)),
        DType::Float32 => Some(("float", f32::MAX as f64)),
        _ => None,
    };
    if let Some((name, max)) = bounds {
        if !(-max..=max).contains(&from) {
            return Err(TorchError::runtime(format!(
                "from is out of bounds for {name}"
            )));
        }
        if !(-max..=max).contains(&to) {
            return Err(TorchError::runtime(format!(
                "to is out of bounds for {name}"
            )));
        }
    }
    if from > to {
        return Err(TorchError::runtime(format!(
            "uniform_ expects to return a [from, to) range, but found from={from} > to={to}"
        )));
    }
    let d = t.dtype();
    if t.is_contiguous() {
        // Written straight into the bytes, each dtype stored as `element::write` stores it:
        // same draws, same rounding as the one-value-at-a-time path below.
        let fill: Option<distributions::UniformFill> = match d {
            DType::Float32 => Some(distributions::uniform_f32_fill),
            DType::Float64 => Some(distributions::uniform_f64_fill),
            DType::Float16 => Some(|g, out, from, to| {
                distributions::uniform_24_fill(g, out, DType::Float16, from, to, |x| {
                    half::f16::from_f32(x as f32).to_le_bytes()
                })
            }),
            DType::BFloat16 => Some(|g, out, from, to| {
                distributions::uniform_24_fill(g, out, DType::BFloat16, from, to, |x| {
                    half::bf16::from_f32(x as f32).to_le_bytes()
                })
            }),
            _ => None,
        };
        if let Some(fill) = fill {
            return with_global(|g| t.with_dense_bytes_mut(|out| fill(g, out, from, to)));
        }
    }
    with_global(|g| fill_with(t, || Scalar::Float(distributions::uniform(g, d, from, to))))
}

/// `t.normal_(mean, std)`: the batched path for contiguous float/double tensors of 16 or more
/// elements, the cached double pair otherwise. A complex tensor draws its real and
/// imaginary parts as reals of mean `mean` and standard deviation `std / sqrt(2)` (so that
/// the complex value's variance is `std²`), as PyTorch does.
pub fn normal_(t: &Tensor, mean: f64, std: f64) -> Result<()> {
    if t.is_neg() {
        return write_through_negation(t, |s| normal_(s, mean, std));
    }
    if std < 0.0 {
        return Err(TorchError::runtime(format!(
            "normal expects std >= 0.0, but found std {std}"
        )));
    }
    if t.dtype().is_complex() {
        return normal_(&parts_of_complex(t)?, mean, std / std::f64::consts::SQRT_2);
    }
    require_floating(t, "normal_kernel_cpu")?;
    let d = t.dtype();
    let n = t.numel().max(0) as usize;
    with_global(|g| {
        if t.is_contiguous() && d == DType::Float32 && n >= 16 {
            t.with_dense_bytes_mut(|out| {
                distributions::normal_f32_fill(g, out, mean as f32, std as f32)
            })
        } else if t.is_contiguous() {
            let values = distributions::normal_values(g, n, d, mean, std)?;
            let mut it = values.into_iter();
            fill_with(t, || Scalar::Float(it.next().unwrap_or(0.0)))
        } else {
            fill_with(t, || {
                Scalar::Float(round_to(d, distributions::normal_scalar(g, mean, std)))
            })
        }
    })
}

/// `t.random_(low, high)`: integers in `[low, high)`.
pub fn random_from_to_(t: &Tensor, low: i64, high: i64) -> Result<()> {
    if t.is_neg() {
        return write_through_negation(t, |s| random_from_to_(s, low, high));
    }
    if low >= high {
        return Err(TorchError::runtime(format!(
            "random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )));
    }
    let d = t.dtype();
    if d.is_complex() {
        return Err(TorchError::runtime(
            "check_random_bounds handles only integral, floating-point and boolean types",
        ));
    }
    crate::core::unbuilt_kernels::require_random_kernel("random_update_from_to", d)?;
    let bounds: Option<(&str, i128, i128)> = match d {
        DType::Int8 => Some(("signed char", i8::MIN as i128, i8::MAX as i128)),
        DType::UInt8 => Some(("unsigned char", 0, u8::MAX as i128)),
        DType::Int16 => Some(("short int", i16::MIN as i128, i16::MAX as i128)),
        DType::Int32 => Some(("int", i32::MIN as i128, i32::MAX as i128)),
        DType::Float16 => Some(("c10::Half", -65504, 65504)),
        DType::Bool => Some(("bool", 0, 1)),
        _ => None,
    };
    if let Some((name, min, max)) = bounds {
        if !(min..=max).contains(&(high as i128 - 1)) {
            return Err(TorchError::runtime(format!(
                "to - 1 is out of bounds for {name}"
            )));
        }
        if !(min..=max).contains(&(low as i128)) {
            return Err(TorchError::runtime(format!(
                "from is out of bounds for {name}"
            )));
        }
    }
    let range = (high as i128 - low as i128) as u64;
    let put = element::int_writer(d);
    with_global(|g| fill_slots(t, put, || distributions::int_from_to(g, range, low)))
}

/// `torch.randperm(n)`.
pub fn randperm(n: i64, dtype: DType) -> Result<Tensor> {
    if dtype == DType::Bool || dtype.is_complex() {
        return Err(crate::core::unbuilt_kernels::not_built("randperm", dtype));
    }
    crate::core::unbuilt_kernels::require_random_kernel("randperm", dtype)?;
    crate::core::memory::alloc::contiguous_nbytes(&[n], dtype.itemsize())?;
    // The result first, through `core::alloc`: a size no memory holds is PyTorch's error.
    let out = Tensor::zeros(vec![n], dtype)?;
    let values = with_global(|g| distributions::permutation(g, n))?;
    let mut it = values.into_iter();
    fill_with(&out, || Scalar::Int(it.next().unwrap_or(0)))?;
    Ok(out)
}

/// `t.bernoulli_(p)` for a number `p`: each element 1 with probability `p` (a double draw
/// per element, as PyTorch's serial kernel).
pub fn bernoulli_scalar_(t: &Tensor, p: f64) -> Result<()> {
    if t.is_neg() {
        return write_through_negation(t, |s| bernoulli_scalar_(s, p));
    }
    if !(0.0..=1.0).contains(&p) {
        return Err(TorchError::runtime(format!(
            "bernoulli_ expects p to be in [0, 1], but got p={}",
            crate::core::cpp_format::stream_double(p)
        )));
    }
    crate::core::unbuilt_kernels::require_kernel("bernoulli_scalar_cpu_", t.dtype())?;
    crate::core::unbuilt_kernels::require_random_kernel("bernoulli_scalar_cpu_", t.dtype())?;
    if t.dtype().is_complex() {
        return Err(crate::core::unbuilt_kernels::not_built(
            "bernoulli_scalar_cpu_",
            t.dtype(),
        ));
    }
    with_global(|g| fill_with(t, || Scalar::Bool(distributions::bernoulli(g, p, true))))
}

/// `t.bernoulli_(p)` for a floating tensor `p` broadcast to `t`'s sizes: element by element
/// with its own probability, drawn as `torch.bernoulli(p)` draws.
pub fn bernoulli_tensor_(t: &Tensor, p: &Tensor) -> Result<()> {
    if t.is_neg() {
        return write_through_negation(t, |s| bernoulli_tensor_(s, p));
    }
    require_floating(p, "bernoulli_tensor_cpu_p_")?;
    let expanded = crate::core::views::expand(p, &t.sizes())?;
    // The probabilities in the order `fill_with` visits `t`'s elements.
    let dims = t.layout().memory_order_dims();
    let ordered = Tensor::from_parts(
        expanded.storage(),
        expanded.dtype(),
        expanded.layout().permuted(&dims),
    );
    let probs = to_scalars(&ordered)?;
    if probs.iter().any(|s| !(0.0..=1.0).contains(&s.to_f64())) {
        return Err(TorchError::runtime(
            "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)",
        ));
    }
    let double = p.dtype() == DType::Float64;
    let mut it = probs.into_iter();
    with_global(|g| {
        fill_with(t, || {
            let prob = it.next().map(|s| s.to_f64()).unwrap_or(0.0);
            Scalar::Bool(distributions::bernoulli(g, prob, double))
        })
    })
}

/// `torch.bernoulli(p)`: a tensor like `p` of 0s and 1s drawn with probabilities `p`.
pub fn bernoulli(p: &Tensor) -> Result<Tensor> {
    require_floating(p, "bernoulli_tensor_cpu_p_")?;
    let out = Tensor::zeros(p.sizes(), p.dtype())?;
    bernoulli_tensor_(&out, p)?;
    Ok(out)
}
