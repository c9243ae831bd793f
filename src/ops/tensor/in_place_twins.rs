//! In-place twins of ops whose out-of-place form tensh has (`bitwise_and_`, `cumsum_`,
//! `tril_`, `conj_physical_`, `float_power_`, ...): the op's own body runs, its result is
//! checked against the tensor (PyTorch's wording for each kind of op) and written back,
//! and the write is recorded under the op's node. So each twin's arguments, checks and
//! values are its op's.

use rhai::Dynamic;

use crate::core::error::TorchError;
use crate::core::tensor::Tensor;
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::ops::op_table::TensorOp;
use crate::ops::registry::Registry;
use crate::ops::tensor::in_place_writes;

/// How a twin words a result its tensor cannot hold.
#[derive(Clone, Copy)]
enum Check {
    /// As TensorIterator ops: "result type Float can't be cast to the desired output type
    /// Long".
    Castable,
    /// As the scans: "Bad in-place call: input tensor dtype long int and output tensor
    /// dtype float should match".
    SameDtype,
    /// As `float_power_`: the result is double (or complex double) and so must be the base.
    FloatPower,
}

/// The in-place twins and the ops they write back.
const TWINS: &[(&str, &str, Check)] = &[
    ("bitwise_and_", "bitwise_and", Check::Castable),
    ("bitwise_or_", "bitwise_or", Check::Castable),
    ("bitwise_xor_", "bitwise_xor", Check::Castable),
    ("bitwise_not_", "bitwise_not", Check::Castable),
    ("cumsum_", "cumsum", Check::SameDtype),
    ("cumprod_", "cumprod", Check::SameDtype),
    ("tril_", "tril", Check::Castable),
    ("triu_", "triu", Check::Castable),
    ("conj_physical_", "conj_physical", Check::Castable),
    ("float_power_", "float_power", Check::FloatPower),
];

/// Writes `out` (the op's result) into `x` after `check`, recording it.
fn write_back(
    x: &Tensor,
    out: &Tensor,
    check: Check,
    name: &str,
    others: &[Tensor],
) -> RhaiResult<Dynamic> {
    match check {
        Check::SameDtype if x.dtype() == crate::core::dtype::DType::Bool => {
            return Err(to_rhai(TorchError::not_implemented(format!(
                "\"{}_out_cpu\" not implemented for 'Bool'",
                name.trim_end_matches('_')
            ))));
        }
        Check::SameDtype if out.dtype() != x.dtype() => {
            return Err(to_rhai(TorchError::runtime(format!(
                "Bad in-place call: input tensor dtype {} and output tensor dtype {} should match",
                x.dtype().c_type_name(),
                out.dtype().c_type_name()
            ))));
        }
        Check::FloatPower if out.dtype() != x.dtype() => {
            return Err(to_rhai(TorchError::runtime(format!(
                "the base given to float_power_ has dtype {} but the operation's result requires dtype {}",
                x.dtype().cpp_name(),
                out.dtype().cpp_name()
            ))));
        }
        _ => {}
    }
    // The shape, and for `Castable` the dtype (the others checked theirs above); the
    // write is recorded with the op's formula.
    let others: Vec<&Tensor> = others.iter().collect();
    in_place_writes::write_back(x, &others, out)?;
    Ok(Dynamic::from(x.clone()))
}

/// The twins' ops that PyTorch runs on its element iterator, which refuses a written tensor
/// whose elements share memory before anything else.
const ITERATED: &[&str] = &[
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_not",
    "conj_physical",
    "float_power",
];

/// The twins' ops that take a second operand (`other`), whose promotion with the tensor
/// is checked first.
const BINARY: &[&str] = &["bitwise_and", "bitwise_or", "bitwise_xor"];

/// An operand whose promotion with `x` `x` cannot hold: PyTorch's cast check comes before
/// the op's kernel's dtype check (`core::ops::check_in_place_promotion`). An operand that is
/// no tensor or number is left to the op.
fn refuse_uncastable_promotion(x: &Tensor, other: &Dynamic) -> RhaiResult<()> {
    match super::math::arg(other, "other") {
        Ok(other) => crate::core::ops::check_in_place_promotion(x, &other).rhai(),
        Err(_) => Ok(()),
    }
}

/// Registers the in-place twins (each as a method, and as a `torch` function where
/// PyTorch has one).
pub fn register(r: &mut Registry) {
    for &(name, of, check) in TWINS {
        let Some(op) = r.ops.tensor_op(of) else {
            continue;
        };
        let op: TensorOp = op;
        r.method(name, 8, move |x, a| {
            if ITERATED.contains(&of) {
                // PyTorch's iterator checks the written tensor's overlap first.
                crate::core::copy::check_no_internal_overlap(&x.layout()).rhai()?;
            }
            if BINARY.contains(&of)
                && let Some(other) = a.get(0, "other")
            {
                refuse_uncastable_promotion(x, other)?;
            }
            // The op's own node (on its result) names the recorded write, and its
            // formula reads `x`'s values from before it.
            let others: Vec<Tensor> = a
                .pos
                .iter()
                .chain(a.kw.values())
                .filter_map(|v| v.clone().try_cast::<Tensor>())
                .collect();
            let tensors: Vec<&Tensor> = others.iter().collect();
            if matches!(of, "tril" | "triu")
                && x.layout().has_internal_overlap()
                && !x.requires_grad()
            {
                // Elements that share memory (an expanded tensor): PyTorch's kernel zeroes
                // the other triangle in place, so only those elements are written.
                let all = crate::core::creation::full(
                    &x.sizes(),
                    crate::core::scalar::Scalar::Bool(true),
                    crate::core::dtype::DType::Bool,
                )
                .rhai()?;
                let kept = op(&all, a)?
                    .try_cast::<Tensor>()
                    .ok_or_else(|| to_rhai(TorchError::runtime("tril: no tensor result")))?;
                let zeroed = crate::core::selection::logical_not(&kept).rhai()?;
                crate::core::index::masked_fill_through(
                    x,
                    &zeroed,
                    crate::core::scalar::Scalar::Int(0),
                )
                .rhai()?;
                return Ok(Dynamic::from(x.clone()));
            }
            let source = in_place_writes::source(x, &tensors).rhai()?;
            let out = op(&source, a)?;
            match out.try_cast::<Tensor>() {
                Some(out) => write_back(x, &out, check, name, &others),
                None => Ok(Dynamic::from(x.clone())),
            }
        });
    }
}
