//! The functions of one argument as methods and `torch` functions (`x.exp()`,
//! `torch::floor(x)`) and their in-place forms (`x.exp_()`), recorded for autograd.

use rhai::Dynamic;

use crate::core::copy;
use crate::core::error::Result;
use crate::core::ops::check_in_place_result;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::{BackwardOp, detached, record};
use crate::core::tensor::record::{record_in_place_saving, record_unary};
use crate::core::tensor::version::SavedVersion;
use crate::core::unary::{Unary, round_decimals, unary};
use crate::ops::args::Args;
use crate::ops::errors::{IntoRhai, RhaiResult};
use crate::ops::registry::Registry;

/// `f(x)`, or `x.round(decimals=n)`.
fn compute(x: &Tensor, f: Unary, decimals: Option<i64>) -> Result<Tensor> {
    match decimals {
        Some(n) => round_decimals(x, n),
        None => unary(x, f),
    }
}

/// Whether autograd records `out`, made from `x`.
fn tracked(x: &Tensor, out: &Tensor) -> bool {
    x.requires_grad() && (out.dtype().is_floating_point() || out.dtype().is_complex())
}

/// `x.f()`.
fn out_of_place(x: &Tensor, f: Unary, decimals: Option<i64>) -> Result<Tensor> {
    let out = compute(x, f, decimals)?;
    if tracked(x, &out) {
        if decimals.is_some() {
            // `round(decimals=n)` is PyTorch's second overload; its gradient is zero.
            let op = BackwardOp::Scaled { f, saved: None };
            record(&[&out], "RoundBackward1", &[x], op);
        } else {
            record_unary(&out, x, f);
        }
    }
    Ok(out)
}

/// `x.f_()`: computed, checked against `x`'s dtype, written back into `x`. A formula
/// reading the result reads `x` as written; one reading the input reads a copy of the
/// values before the write.
fn in_place(x: &Tensor, f: Unary, decimals: Option<i64>) -> Result<Tensor> {
    if f == Unary::Abs && x.dtype().is_complex() {
        // The magnitudes are real: PyTorch refuses to write them back into complex storage.
        return Err(crate::core::error::TorchError::runtime(
            "In-place abs is not supported for complex tensors.",
        ));
    }
    let out = compute(x, f, decimals)?;
    check_in_place_result(x, &out.sizes(), out.dtype())?;
    let reads = if decimals.is_some() {
        None
    } else {
        f.reads_output()
    };
    let track = tracked(x, &out);
    let before = match reads {
        Some(false) if track => Some(copy::contiguous_copy(x)?),
        _ => None,
    };
    copy::copy_(x, &out)?;
    if track {
        let name = if decimals.is_some() {
            "RoundBackward1"
        } else {
            f.node()
        };
        let (saved, version) = match reads {
            Some(true) => (Some(detached(x)), vec![SavedVersion::output(x, name)]),
            _ => (before, Vec::new()),
        };
        record_in_place_saving(x, name, &[], BackwardOp::Scaled { f, saved }, version);
    }
    Ok(x.clone())
}

/// `decimals=` of `round` (keyword only).
fn decimals(f: Unary, a: &Args) -> RhaiResult<Option<i64>> {
    if f != Unary::Round {
        return Ok(None);
    }
    match a.kw("decimals") {
        Some(_) => Ok(Some(a.int(usize::MAX, "decimals", "round")?)),
        None => Ok(None),
    }
}

/// Registers every function of one argument, its `torch` form and its in-place method.
pub fn register(r: &mut Registry) {
    for (name, f) in Unary::ALL {
        let max = usize::from(f == Unary::Round);
        r.method_and_function(name, max, move |x, a| {
            let n = decimals(f, &a)?;
            Ok(Dynamic::from(out_of_place(x, f, n).rhai()?))
        });
        let in_place_name = format!("{name}_");
        r.method(&in_place_name, max, move |x, a| {
            let n = decimals(f, &a)?;
            Ok(Dynamic::from(in_place(x, f, n).rhai()?))
        });
    }
}
