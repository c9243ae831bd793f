//! The products with an added term, `beta * input + alpha * product`: `addmm`, `addmv`,
//! `addr`, `baddbmm`, `addbmm` and their in-place forms. The product is the engine's
//! (`core::linalg`); `input` is broadcast to the product's shape (PyTorch's `expand`
//! message when it cannot be); `beta = 0` ignores `input` entirely (NaN included), as
//! PyTorch does. Results are recorded under PyTorch's node names.

use rhai::Dynamic;

use crate::core::autograd::{cast_grad, sum_to};
use crate::core::error::{Result, TorchError};
use crate::core::linalg;
use crate::core::ops::{Arg, BinaryOp, binary_untracked};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::detached;
use crate::core::tensor::record::record_formula;
use crate::core::views;
use crate::ops::args::Args;
use crate::ops::convert::to_scalar;
use crate::ops::errors::{IntoRhai, RhaiResult};
use crate::ops::registry::Registry;

/// Which product.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Product {
    /// `mat1 @ mat2`.
    Mm,
    /// `mat @ vec`.
    Mv,
    /// `outer(vec1, vec2)`.
    Outer,
    /// `bmm(batch1, batch2)`.
    Bmm,
    /// `bmm(batch1, batch2).sum(0)`.
    SumOfBmm,
}

impl Product {
    fn names(self) -> (&'static str, &'static str, &'static str, &'static str) {
        match self {
            Product::Mm => ("addmm", "mat1", "mat2", "AddmmBackward0"),
            Product::Mv => ("addmv", "mat", "vec", "AddmvBackward0"),
            Product::Outer => ("addr", "vec1", "vec2", "AddrBackward0"),
            Product::Bmm => ("baddbmm", "batch1", "batch2", "BaddbmmBackward0"),
            Product::SumOfBmm => ("addbmm", "batch1", "batch2", "AddbmmBackward0"),
        }
    }

    /// The product of the two operands, with PyTorch's checks.
    fn of(self, a: &Tensor, b: &Tensor) -> Result<Tensor> {
        match self {
            Product::Mm => {
                if a.ndim() != 2 {
                    return Err(TorchError::runtime(format!(
                        "addmm: self must be a matrix, got {}-D tensor",
                        a.ndim()
                    )));
                }
                let (sa, sb) = (a.sizes(), b.sizes());
                if b.ndim() == 2 && sa[1] != sb[0] {
                    return Err(TorchError::runtime(format!(
                        "addmm: mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
                        sa[0], sa[1], sb[0], sb[1]
                    )));
                }
                if a.dtype() != b.dtype() {
                    return Err(TorchError::runtime(format!(
                        "self and mat2 must have the same dtype, but got {} and {}",
                        a.dtype().cpp_name(),
                        b.dtype().cpp_name()
                    )));
                }
                linalg::mm(a, b)
            }
            Product::Mv => {
                if a.ndim() == 2 && b.ndim() == 1 && a.sizes()[1] != b.numel() {
                    return Err(TorchError::runtime(format!(
                        "size mismatch, got input ({}), mat ({}x{}), vec ({})",
                        a.sizes()[0],
                        a.sizes()[0],
                        a.sizes()[1],
                        b.numel()
                    )));
                }
                linalg::mv(a, b)
            }
            Product::Outer => {
                if a.ndim() != 1 || b.ndim() != 1 {
                    return Err(TorchError::runtime(format!(
                        "addr: Expected 1-D argument vec1, but got {}-D",
                        if a.ndim() != 1 { a.ndim() } else { b.ndim() }
                    )));
                }
                let col = views::unsqueeze(a, 1)?;
                let row = views::unsqueeze(b, 0)?;
                binary_untracked(BinaryOp::Mul, &Arg::Tensor(col), &Arg::Tensor(row))
            }
            Product::Bmm => linalg::bmm(a, b),
            Product::SumOfBmm => {
                let p = linalg::bmm(a, b)?;
                crate::core::reduce::reduce(
                    &p,
                    crate::core::reduce::Reduction::Sum,
                    Some(&[0]),
                    false,
                )
            }
        }
    }
}

/// Whether `s` is the number 1 (so a multiplication by it can be skipped).
fn is_one(s: Scalar) -> bool {
    match s {
        Scalar::Int(1) | Scalar::Bool(true) => true,
        Scalar::Float(x) => x == 1.0,
        _ => false,
    }
}

/// Whether `s` is zero.
fn is_zero(s: Scalar) -> bool {
    match s {
        Scalar::Int(0) | Scalar::Bool(false) => true,
        Scalar::Float(x) => x == 0.0,
        _ => false,
    }
}

/// `beta * input + alpha * product(a, b)`.
fn fused(
    p: Product,
    input: &Tensor,
    a: &Tensor,
    b: &Tensor,
    beta: Scalar,
    alpha: Scalar,
) -> Result<Tensor> {
    let (input, a, b) = (detached(input), detached(a), detached(b));
    // `baddbmm` broadcasts `input` to the result's shape before it checks the batches.
    if p == Product::Bmm && a.ndim() == 3 && b.ndim() == 3 {
        views::expand(&input, &[a.sizes()[0], a.sizes()[1], b.sizes()[2]])?;
    }
    let product = p.of(&a, &b)?;
    let scaled = if is_one(alpha) {
        product
    } else {
        binary_untracked(BinaryOp::Mul, &Arg::Tensor(product), &Arg::Number(alpha))?
    };
    let base = views::expand(&input, &scaled.sizes())?;
    if is_zero(beta) {
        // `input` is only checked to broadcast.
        return Ok(scaled);
    }
    let base = if is_one(beta) {
        base
    } else {
        binary_untracked(BinaryOp::Mul, &Arg::Tensor(base), &Arg::Number(beta))?
    };
    binary_untracked(BinaryOp::Add, &Arg::Tensor(base), &Arg::Tensor(scaled))
}

/// The gradients of `beta * x + alpha * (m1 · m2)`: `beta · g` for `x` (summed down to
/// its sizes), and each operand's from the product's rule, times `alpha`.
fn gradients(
    p: Product,
    x: &Tensor,
    m1: &Tensor,
    m2: &Tensor,
    beta: Scalar,
    alpha: Scalar,
) -> impl Fn(&Tensor) -> Result<Vec<Option<Tensor>>> + 'static {
    let (x_sizes, x_dtype) = (x.sizes(), x.dtype());
    let (m1, m2) = (detached(m1), detached(m2));
    move |g| {
        let times = |t: Tensor, s: Scalar| {
            binary_untracked(BinaryOp::Mul, &Arg::Tensor(t), &Arg::Number(s))
        };
        let tr = |t: &Tensor| views::transpose(t, -1, -2);
        let gx = cast_grad(&sum_to(&times(g.clone(), beta)?, &x_sizes)?, x_dtype)?;
        let (g1, g2) = match p {
            Product::Mm | Product::Bmm => {
                (linalg::matmul(g, &tr(&m2)?)?, linalg::matmul(&tr(&m1)?, g)?)
            }
            Product::Mv => (
                linalg::matmul(&views::unsqueeze(g, 1)?, &views::unsqueeze(&m2, 0)?)?,
                linalg::matmul(&tr(&m1)?, g)?,
            ),
            Product::Outer => (linalg::matmul(g, &m2)?, linalg::matmul(&tr(g)?, &m1)?),
            Product::SumOfBmm => {
                let batches = m1.sizes()[0];
                let mut wide = g.sizes();
                wide.insert(0, batches);
                let spread = views::expand(&views::unsqueeze(g, 0)?, &wide)?;
                (
                    linalg::matmul(&spread, &tr(&m2)?)?,
                    linalg::matmul(&tr(&m1)?, &spread)?,
                )
            }
        };
        let g1 = cast_grad(&times(g1, alpha)?, m1.dtype())?;
        let g2 = cast_grad(&times(g2, alpha)?, m2.dtype())?;
        Ok(vec![Some(gx), Some(g1), Some(g2)])
    }
}

/// Reads the call (`input` is the receiver) and runs it, recorded.
fn call(p: Product, x: &Tensor, a: &Args, in_place: bool) -> RhaiResult<Dynamic> {
    let (name, first, second, node) = p.names();
    let func = if in_place {
        format!("{name}_")
    } else {
        name.to_string()
    };
    if a.get(2, "out_dtype").is_some_and(|v| !v.is_unit()) {
        return Err(crate::ops::errors::to_rhai(TorchError::not_implemented(
            format!("tensh does not implement the out_dtype argument of {name}()"),
        )));
    }
    let m1 = a.tensor(0, first, &func)?;
    let m2 = a.tensor(1, second, &func)?;
    let number = |key: &str| -> RhaiResult<Scalar> {
        match a.kw(key) {
            Some(v) if !v.is_unit() => to_scalar(v, key),
            _ => Ok(Scalar::Int(1)),
        }
    };
    let (beta, alpha) = (number("beta")?, number("alpha")?);
    let out = fused(p, x, &m1, &m2, beta, alpha).rhai()?;
    if in_place {
        if out.sizes() != x.sizes() {
            return Err(crate::ops::errors::to_rhai(TorchError::runtime(format!(
                "Bad in-place call: input tensor size {:?} and output tensor size {:?} should match",
                x.sizes(),
                out.sizes()
            ))));
        }
        crate::core::ops::check_in_place_result(x, &out.sizes(), out.dtype()).rhai()?;
        let formula = gradients(p, x, &m1, &m2, beta, alpha);
        crate::core::copy::copy_(x, &out).rhai()?;
        if x.dtype().is_floating_point() || x.dtype().is_complex() {
            crate::core::tensor::record::record_in_place(
                x,
                node,
                &[&m1, &m2],
                crate::core::tensor::graph::BackwardOp::formula(3, formula),
            );
        }
        return Ok(Dynamic::from(x.clone()));
    }
    let float = out.dtype().is_floating_point() || out.dtype().is_complex();
    if float && (x.requires_grad() || m1.requires_grad() || m2.requires_grad()) {
        let formula = gradients(p, x, &m1, &m2, beta, alpha);
        record_formula(&out, node, &[x, &m1, &m2], &[&m1, &m2], formula);
    }
    Ok(Dynamic::from(out))
}

/// Registers the products with an added term.
pub fn register(r: &mut Registry) {
    for p in [
        Product::Mm,
        Product::Mv,
        Product::Outer,
        Product::Bmm,
        Product::SumOfBmm,
    ] {
        let (name, ..) = p.names();
        r.method_and_function(name, 3, move |x, a| call(p, x, &a, false));
        r.method(&format!("{name}_"), 2, move |x, a| call(p, x, &a, true));
    }
}
