//! `polygamma(n, x)` (the `n`-th derivative of digamma) and `mvlgamma(x, p)` (the log of
//! the multivariate gamma function), with their in-place forms and gradients.

use num_complex::Complex64;
use rhai::Dynamic;

use crate::core::copy::cast_copy;
use crate::core::engine::map::{ElementMap, map_in_place};
use crate::core::error::{Result, TorchError};
use crate::core::ops::{Arg, BinaryOp, binary_untracked as binary};
use crate::core::reduce::{Reduction, reduce};
use crate::core::scalar::Scalar;
use crate::core::special_functions as sf;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::detached;
use crate::core::tensor::record::record_formula;
use crate::core::unary::{Unary, unary};
use crate::ops::args::Args;
use crate::ops::errors::{IntoRhai, RhaiResult};
use crate::ops::registry::Registry;
use crate::ops::tensor::in_place_writes;

/// `ψ⁽ⁿ⁾` at each element, `float32` and narrower in `f32` arithmetic where PyTorch's
/// kernel uses it (digamma and trigamma), else from the `f64` value.
struct Polygamma(i64);

impl ElementMap for Polygamma {
    fn f64(&self, x: f64) -> f64 {
        match self.0 {
            1 => sf::trigamma(x),
            n => sf::polygamma(n, x),
        }
    }
    fn f32(&self, x: f32) -> f32 {
        match self.0 {
            1 => sf::trigamma(x),
            n => sf::polygamma(n, x as f64) as f32,
        }
    }
    fn complex(&self, z: Complex64) -> Complex64 {
        z
    }
    fn int(&self, i: i64) -> i64 {
        i
    }
    fn uint(&self, u: u64) -> u64 {
        u
    }
}

/// `torch.polygamma(n, x)` as a new tensor (integers give the default float dtype).
fn polygamma(n: i64, x: &Tensor) -> Result<Tensor> {
    if n < 0 {
        return Err(TorchError::runtime(
            "polygamma(n, x) does not support negative n.",
        ));
    }
    if n == 0 {
        return unary(x, Unary::Digamma);
    }
    let dtype = x.dtype();
    if dtype.is_complex() {
        let kernel = if n == 1 { "trigamma" } else { "polygamma" };
        return Err(crate::core::unbuilt_kernels::not_built(kernel, dtype));
    }
    let out_dtype = if dtype.is_floating_point() {
        dtype
    } else {
        crate::core::defaults::default_dtype()
    };
    let out = cast_copy(&detached(x), out_dtype)?;
    let out = crate::core::copy::contiguous_copy(&out)?;
    out.storage()
        .with_bytes_mut(|b| map_in_place(out_dtype, b, &Polygamma(n)));
    Ok(out)
}

/// `torch.mvlgamma(x, p)`: `Σ_{j<p} lgamma(x − j/2) + p(p−1)/4 · ln π`, summed in
/// PyTorch's order (from `x − (p−1)/2` up to `x`).
fn mvlgamma(x: &Tensor, p: i64) -> Result<Tensor> {
    if p < 1 {
        return Err(TorchError::runtime(
            "p has to be greater than or equal to 1",
        ));
    }
    let dtype = if x.dtype().is_floating_point() {
        x.dtype()
    } else {
        crate::core::defaults::default_dtype()
    };
    // `p` offsets, and `p` values per element: both asked of the heap budget first.
    crate::core::memory::alloc::contiguous_nbytes(&[x.numel(), p], 8)
        .and_then(crate::core::memory::alloc::zeroed_bytes)?;
    let mut offsets = crate::core::memory::alloc::vec_with_capacity::<Scalar>(p as usize)?;
    offsets.extend((0..p).map(|j| Scalar::Float(-(p - 1 - j) as f64 / 2.0)));
    let offsets = crate::core::creation::from_scalars(&offsets, vec![p], dtype)?;
    let column = crate::core::views::unsqueeze(&cast_copy(&detached(x), dtype)?, -1)?;
    let args = binary(BinaryOp::Add, &Arg::Tensor(offsets), &Arg::Tensor(column))?;
    let logs = unary(&args, Unary::Lgamma)?;
    let last = logs.ndim() as i64 - 1;
    let sum = reduce(&logs, Reduction::Sum, Some(&[last]), false)?;
    let constant = (p * (p - 1)) as f64 * std::f64::consts::PI.ln() / 4.0;
    binary(
        BinaryOp::Add,
        &Arg::Tensor(sum),
        &Arg::Number(Scalar::Float(constant)),
    )
}

/// Records `out = polygamma(n, x)` with its formula (`ψ⁽ⁿ⁺¹⁾`).
fn recorded_polygamma(n: i64, x: &Tensor, out: &Tensor) {
    if !x.requires_grad() {
        return;
    }
    let input = detached(x);
    record_formula(out, "PolygammaBackward0", &[x], &[x], move |g| {
        let factor = polygamma(n + 1, &input)?;
        let grad = binary(BinaryOp::Mul, &Arg::Tensor(g.clone()), &Arg::Tensor(factor))?;
        Ok(vec![Some(crate::core::autograd::cast_grad(
            &grad,
            input.dtype(),
        )?)])
    });
}

/// Records `out = mvlgamma(x, p)` with its formula (`Σ_j digamma(x − j/2)`).
fn recorded_mvlgamma(p: i64, x: &Tensor, out: &Tensor) {
    if !x.requires_grad() {
        return;
    }
    let input = detached(x);
    record_formula(out, "MvlgammaBackward0", &[x], &[x], move |g| {
        let mut total: Option<Tensor> = None;
        for j in 0..p {
            let shifted = binary(
                BinaryOp::Sub,
                &Arg::Tensor(input.clone()),
                &Arg::Number(Scalar::Float(j as f64 / 2.0)),
            )?;
            let d = unary(&shifted, Unary::Digamma)?;
            total = Some(match total {
                Some(t) => binary(BinaryOp::Add, &Arg::Tensor(t), &Arg::Tensor(d))?,
                None => d,
            });
        }
        let factor = total.ok_or_else(|| TorchError::runtime("mvlgamma: p < 1"))?;
        let grad = binary(BinaryOp::Mul, &Arg::Tensor(g.clone()), &Arg::Tensor(factor))?;
        Ok(vec![Some(crate::core::autograd::cast_grad(
            &grad,
            input.dtype(),
        )?)])
    });
}

/// `x.op_(k)`: `op` computed from `x`'s stand-in and recorded there by `record`, then
/// written back into `x` with PyTorch's checks and the same formula.
fn written(
    x: &Tensor,
    k: i64,
    op: fn(&Tensor, i64) -> Result<Tensor>,
    record: fn(i64, &Tensor, &Tensor),
    node: &str,
) -> RhaiResult<Dynamic> {
    let source = in_place_writes::source(x, &[]).rhai()?;
    let out = op(&source, k).rhai()?;
    record(k, &source, &out);
    in_place_writes::write_back_named(x, &[], &out, Some(node))?;
    Ok(Dynamic::from(x.clone()))
}

/// Registers `polygamma` and `mvlgamma` with their in-place forms.
pub fn register(r: &mut Registry) {
    r.method("polygamma", 1, |x, a: Args| {
        let n = a.int(0, "n", "polygamma")?;
        let out = polygamma(n, x).rhai()?;
        recorded_polygamma(n, x, &out);
        Ok(Dynamic::from(out))
    });
    r.method("polygamma_", 1, |x, a: Args| {
        let n = a.int(0, "n", "polygamma_")?;
        written(
            x,
            n,
            |s, n| polygamma(n, s),
            recorded_polygamma,
            "PolygammaBackward1",
        )
    });
    r.function("polygamma", 2, |a| {
        let n = a.int(0, "n", "polygamma")?;
        let x = a.tensor(1, "input", "polygamma")?;
        let out = polygamma(n, &x).rhai()?;
        recorded_polygamma(n, &x, &out);
        Ok(Dynamic::from(out))
    });
    r.method_and_function("mvlgamma", 1, |x, a: Args| {
        let p = a.int(0, "p", "mvlgamma")?;
        let out = mvlgamma(x, p).rhai()?;
        recorded_mvlgamma(p, x, &out);
        Ok(Dynamic::from(out))
    });
    r.method("mvlgamma_", 1, |x, a: Args| {
        let p = a.int(0, "p", "mvlgamma_")?;
        written(x, p, mvlgamma, recorded_mvlgamma, "MvlgammaBackward0")
    });
}
