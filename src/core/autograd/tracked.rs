//! Recording an op's output together with its gradient formula, for the common shapes of
//! formula: one tensor input, or two operands of which either may be a number. Each
//! formula gets detached handles of the values it reads (no graph, so no cycle through
//! the node), and its gradients come back summed down to each input's sizes (undoing
//! broadcasting) in each input's dtype.

use super::formulas::{cast_grad, sum_to};
use crate::core::error::Result;
use crate::core::ops::Arg;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::detached;
use crate::core::tensor::record::record_formula;

/// Whether `out` can carry a gradient (float or complex) and an input asks for one.
fn wanted(out: &Tensor, inputs: &[&Tensor]) -> bool {
    (out.dtype().is_floating_point() || out.dtype().is_complex())
        && inputs.iter().any(|t| t.requires_grad())
}

/// Records `out = f(x)` under `name`; `grad(g, x)` is `x`'s gradient from the output's.
pub fn single(
    out: &Tensor,
    name: &str,
    x: &Tensor,
    grad: impl Fn(&Tensor, &Tensor) -> Result<Tensor> + 'static,
) {
    if !wanted(out, &[x]) {
        return;
    }
    let (xd, sizes, dtype) = (detached(x), x.sizes(), x.dtype());
    record_formula(out, name, &[x], &[x], move |g| {
        let gx = sum_to(&grad(g, &xd)?, &sizes)?;
        Ok(vec![Some(cast_grad(&gx, dtype)?)])
    });
}

/// Records `out = f(x)` under `name` where the formula also reads the output's values:
/// `grad(g, x, out)`.
pub fn single_with_output(
    out: &Tensor,
    name: &str,
    x: &Tensor,
    grad: impl Fn(&Tensor, &Tensor, &Tensor) -> Result<Tensor> + 'static,
) {
    let od = detached(out);
    single(out, name, x, move |g, x| grad(g, x, &od));
}

/// `out`, computed by tracked steps, under the node name PyTorch's single op gives it: a
/// node passing the gradient through unchanged is put on top of the steps' own.
pub fn renamed(out: Tensor, name: &str) -> Tensor {
    if out.grad_state().grad_fn.is_none() {
        return out;
    }
    let top = detached(&out);
    record_formula(&top, name, &[&out], &[], |g| Ok(vec![Some(g.clone())]));
    top
}

/// The values a two-operand formula reads: each operand (a number stays a number) and
/// the output.
pub struct Operands {
    /// The first operand.
    pub a: Arg,
    /// The second operand.
    pub b: Arg,
    /// The op's result.
    pub out: Tensor,
}

fn detached_arg(x: &Arg) -> Arg {
    match x {
        Arg::Tensor(t) => Arg::Tensor(detached(t)),
        Arg::Number(n) => Arg::Number(*n),
    }
}

/// Records `out = f(a, b)` under `name`; `grad(g, operands)` gives the gradients of `a`
/// and `b` (each used only when that operand is a tensor that requires grad, so it may
/// be `None` otherwise).
pub fn pair(
    out: &Tensor,
    name: &str,
    a: &Arg,
    b: &Arg,
    grad: impl Fn(&Tensor, &Operands) -> Result<(Option<Tensor>, Option<Tensor>)> + 'static,
) {
    let inputs: Vec<&Tensor> = [a, b].into_iter().filter_map(Arg::as_tensor).collect();
    if !wanted(out, &inputs) {
        return;
    }
    let operands = Operands {
        a: detached_arg(a),
        b: detached_arg(b),
        out: detached(out),
    };
    let shape = |x: &Arg| {
        x.as_tensor()
            .map(|t| (t.sizes(), t.dtype(), t.requires_grad()))
    };
    let (sa, sb) = (shape(a), shape(b));
    record_formula(out, name, &inputs, &inputs, move |g| {
        let (ga, gb) = grad(g, &operands)?;
        let mut grads = Vec::new();
        for (side, grad) in [(&sa, ga), (&sb, gb)] {
            if let Some((sizes, dtype, wants)) = side {
                grads.push(match grad {
                    Some(gr) if *wants => Some(cast_grad(&sum_to(&gr, sizes)?, *dtype)?),
                    _ => None,
                });
            }
        }
        Ok(grads)
    });
}
