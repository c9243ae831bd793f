//! The recording side of autograd: what each kind of op saves, under PyTorch's node names.
//! Every op that returns tensors records through `graph::record`, here or directly; the
//! formulas that read these records are in `core::autograd`.

use super::Tensor;
use super::graph::{Arith, BackwardOp, Saved, detached, record};

/// True when any of `inputs` requires grad (so an op on them must record).
pub fn any_requires_grad(inputs: &[&Tensor]) -> bool {
    inputs.iter().any(|t| t.requires_grad())
}

/// Records `out = a op b`, where either side may be a number. Every binary op calls this:
/// without an operand that requires grad it returns before building anything.
pub fn record_arith(out: &Tensor, op: Arith, a: &Saved, b: &Saved) {
    let (ta, tb) = (a.as_tensor(), b.as_tensor());
    if !ta.is_some_and(Tensor::requires_grad) && !tb.is_some_and(Tensor::requires_grad) {
        return;
    }
    let a_number = ta.is_none();
    let name = match op {
        Arith::Add => "AddBackward0",
        Arith::Sub if a_number => "RsubBackward1",
        Arith::Sub => "SubBackward0",
        Arith::Mul => "MulBackward0",
        // `1 / x` is a reciprocal times a number in PyTorch.
        Arith::Div if a_number => "MulBackward0",
        Arith::Div => "DivBackward0",
    };
    // Edges come from the operands as given; the formula only needs their values.
    let inputs: Vec<&Tensor> = ta.into_iter().chain(tb).collect();
    let saved = BackwardOp::Arith {
        op,
        a: a.detached(),
        b: b.detached(),
    };
    record(&[out], name, &inputs, saved);
}

/// Records `out = -x`.
pub fn record_neg(out: &Tensor, x: &Tensor) {
    record(&[out], "NegBackward0", &[x], BackwardOp::Neg);
}

/// Records `out = x ** exponent` for a number exponent.
pub fn record_pow(out: &Tensor, x: &Tensor, exponent: f64) {
    let input = detached(x);
    record(
        &[out],
        "PowBackward0",
        &[x],
        BackwardOp::Pow { input, exponent },
    );
}

fn record_reduction(out: &Tensor, x: &Tensor, dims: Option<&[i64]>, keepdim: bool, mean: bool) {
    let all = dims.is_none_or(|d| d.is_empty());
    let name = match (mean, all) {
        (false, true) => "SumBackward0",
        (false, false) => "SumBackward1",
        (true, true) => "MeanBackward0",
        (true, false) => "MeanBackward1",
    };
    let op = BackwardOp::Reduce {
        mean,
        sizes: x.sizes(),
        dtype: x.dtype(),
        dims: dims.map(<[i64]>::to_vec),
        keepdim,
    };
    record(&[out], name, &[x], op);
}

/// Records `out = x.sum(dims, keepdim)` (`None`: all elements).
pub fn record_sum(out: &Tensor, x: &Tensor, dims: Option<&[i64]>, keepdim: bool) {
    record_reduction(out, x, dims, keepdim, false);
}

/// Records `out = x.mean(dims, keepdim)`.
pub fn record_mean(out: &Tensor, x: &Tensor, dims: Option<&[i64]>, keepdim: bool) {
    record_reduction(out, x, dims, keepdim, true);
}

/// Records `out`, a copy of `x` (`clone`, a copying `reshape`, a conversion).
pub fn record_copy(out: &Tensor, x: &Tensor, name: &str) {
    let op = BackwardOp::Copy {
        sizes: x.sizes(),
        dtype: x.dtype(),
    };
    record(&[out], name, &[x], op);
}

/// Records `outs`, views of `x`'s storage made by one op, as outputs of one node.
#[inline]
pub fn record_views(outs: &[Tensor], x: &Tensor, name: &str) {
    if x.requires_grad() {
        record_views_of_tracked(outs, x, name);
    }
}

fn record_views_of_tracked(outs: &[Tensor], x: &Tensor, name: &str) {
    let op = BackwardOp::View {
        input: x.layout(),
        dtype: x.dtype(),
        storage_nbytes: x.storage().nbytes(),
        outputs: outs.iter().map(|o| (o.layout(), o.dtype())).collect(),
    };
    let refs: Vec<&Tensor> = outs.iter().collect();
    record(&refs, name, &[x], op);
}

/// Records `out`, a view of `x`'s storage.
pub fn record_view(out: &Tensor, x: &Tensor, name: &str) {
    record_views(std::slice::from_ref(out), x, name);
}

/// Records an op tensh has no formula for: its output requires grad as in PyTorch, and
/// `backward` through it raises instead of guessing.
pub fn record_without_formula(out: &Tensor, name: &str, op: &str, inputs: &[&Tensor]) {
    let op = BackwardOp::Unsupported { op: op.to_string() };
    record(&[out], name, inputs, op);
}

/// PyTorch's error for an in-place op on a leaf that requires grad.
pub fn check_inplace(t: &Tensor) -> crate::core::error::Result<()> {
    let leaf = t.with(|i| i.grad.requires_grad && i.grad.grad_fn.is_none());
    if leaf {
        return Err(crate::core::error::TorchError::runtime(
            "a leaf Variable that requires grad is being used in an in-place operation.",
        ));
    }
    Ok(())
}
