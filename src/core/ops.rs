//! Elementwise arithmetic and comparisons with broadcasting and PyTorch's type promotion,
//! in-place variants with PyTorch's checks, and the reductions experiments need.
//!
//! Values are computed in a wide domain (`i64`, `f64` or complex `f64`) after casting each
//! operand to the common dtype, then rounded once when written: for `+ - * /` this equals
//! computing in the narrow type, so results match PyTorch's bit for bit.

use super::binary_operands;
use super::broadcast::{broadcast_layout, broadcast_shapes};
use super::copy;
use super::creation::from_scalars;
use super::defaults::default_dtype;
use super::dtype::{DType, Kind};
use super::error::{Result, TorchError};
pub use super::operand::{Arg, BinaryOp};
use super::promotion::{Operand, can_cast, result_type};
use super::scalar::Scalar;
use super::tensor::Tensor;
use super::tensor::graph::{Arith, Saved};
use super::tensor::record;
use super::unbuilt_kernels;

impl BinaryOp {
    /// The name in PyTorch's kernel refusals (`"lt_cpu" not implemented for ...`).
    pub(crate) fn kernel_name(self) -> &'static str {
        match self {
            BinaryOp::Add => "add",
            BinaryOp::Sub => "sub",
            BinaryOp::Mul => "mul",
            BinaryOp::Div => "div",
            BinaryOp::Eq => "eq",
            BinaryOp::Ne => "ne",
            BinaryOp::Lt => "lt",
            BinaryOp::Le => "le",
            BinaryOp::Gt => "gt",
            BinaryOp::Ge => "ge",
        }
    }

    fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        )
    }
}

pub(crate) fn operand(a: &Arg) -> Operand {
    match a {
        // A number a `torch` function wrapped (`torch.floor_divide(2, t)`) promotes as the
        // number it was, as PyTorch's wrapped numbers do.
        Arg::Tensor(t) if t.ndim() == 0 && t.is_wrapped_number() => {
            match copy::to_scalars(t).ok().and_then(|v| v.first().copied()) {
                Some(n) => Operand::Number(n),
                None => Operand::ZeroDim(t.dtype()),
            }
        }
        Arg::Tensor(t) if t.ndim() == 0 => Operand::ZeroDim(t.dtype()),
        Arg::Tensor(t) => Operand::Dimensioned(t.dtype()),
        Arg::Number(s) => Operand::Number(*s),
    }
}

/// The type two operands of an elementwise op compute in, found in TensorIterator's order:
/// their shapes are broadcast first (a mismatch is refused before any dtype is looked at),
/// then their types are promoted. Each op's own dtype refusals come after.
pub(crate) fn common_type(a: &Arg, b: &Arg) -> Result<DType> {
    if let (Arg::Tensor(x), Arg::Tensor(y)) = (a, b) {
        broadcast_shapes(&x.sizes(), &y.sizes())?;
    }
    result_type(&[operand(a), operand(b)])
}

pub(crate) fn shape(a: &Arg) -> Vec<i64> {
    match a {
        Arg::Tensor(t) => t.sizes(),
        Arg::Number(_) => vec![],
    }
}

/// PyTorch's refusal of `-` with bool operands, checked before anything else about a
/// subtraction (its `alpha` included).
pub fn check_sub_bool(op: BinaryOp, a: &Arg, b: &Arg) -> Result<()> {
    let is_bool = |x: &Arg| match x {
        Arg::Tensor(t) => t.dtype() == DType::Bool,
        Arg::Number(s) => matches!(s, Scalar::Bool(_)),
    };
    if op == BinaryOp::Sub && is_bool(a) && is_bool(b) {
        return Err(TorchError::not_implemented(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.",
        ));
    }
    if op == BinaryOp::Sub && (is_bool(a) || is_bool(b)) {
        return Err(TorchError::not_implemented(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
        ));
    }
    Ok(())
}

/// The dtype an op computes in and the dtype of its result.
fn op_dtypes(op: BinaryOp, a: &Arg, b: &Arg) -> Result<(DType, DType)> {
    let common = common_type(a, b)?;
    if op == BinaryOp::Div && common.is_integral() {
        return Ok((default_dtype(), default_dtype()));
    }
    Ok((
        common,
        if op.is_comparison() {
            DType::Bool
        } else {
            common
        },
    ))
}

/// `a op b` for operands of any dtypes: each converted to the type the kernel computes
/// in (`binary_operands`), one typed kernel, the result rounded once to `out_dtype`.
fn converted(
    op: BinaryOp,
    a: &Arg,
    b: &Arg,
    compute_dtype: DType,
    out_dtype: DType,
    out_shape: &[i64],
) -> Result<Tensor> {
    let ordering = matches!(
        op,
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
    );
    if compute_dtype.is_complex() && ordering {
        return Err(TorchError::not_implemented(format!(
            "\"{}_cpu\" not implemented for '{}'",
            op.kernel_name(),
            compute_dtype.cpp_name()
        )));
    }
    let kernel = binary_operands::kernel_dtype(compute_dtype);
    let a = binary_operands::prepare(op, a, compute_dtype, kernel)?;
    let b = binary_operands::prepare(op, b, compute_dtype, kernel)?;
    let kernel_out = if op.is_comparison() {
        DType::Bool
    } else {
        kernel
    };
    let out = super::ops_fast::try_binary(op, &a, &b, kernel, kernel_out, out_shape)?.ok_or_else(
        || {
            TorchError::runtime(format!(
                "tensh: no kernel computes {} in {kernel}",
                op.kernel_name()
            ))
        },
    )?;
    if out.dtype() == out_dtype {
        Ok(out)
    } else {
        copy::cast_copy(&out, out_dtype)
    }
}

/// `a op b` for tensors and numbers: a new tensor, recorded for autograd.
pub fn binary(op: BinaryOp, a: &Arg, b: &Arg) -> Result<Tensor> {
    let out = binary_untracked(op, a, b)?;
    record_binary(&out, op, a, b);
    Ok(out)
}

/// `a op b` without recording (gradient formulas use it on gradients).
pub fn binary_untracked(op: BinaryOp, a: &Arg, b: &Arg) -> Result<Tensor> {
    check_sub_bool(op, a, b)?;
    let out_shape = broadcast_shapes(&shape(a), &shape(b))?;
    let (compute_dtype, out_dtype) = op_dtypes(op, a, b)?;
    if let Some(kernel) = unbuilt_kernels::binary_kernel(op) {
        unbuilt_kernels::require_kernel(kernel, compute_dtype)?;
    }
    if op == BinaryOp::Div {
        unbuilt_kernels::require_complex_half_kernel("div_cpu", out_dtype)?;
    }
    let out = match super::ops_fast::try_binary(op, a, b, compute_dtype, out_dtype, &out_shape)? {
        Some(t) => t,
        None => converted(op, a, b, compute_dtype, out_dtype, &out_shape)?,
    };
    // A number is wrapped as an operand (`x + 1`, `x == 1`).
    let wrapped = a.is_number() || b.is_number();
    super::result_layout::in_operands_order(out, &super::operand::tensors_of(a, b), wrapped)
}

/// Whether `a` can take, in place, a result of this shape and dtype: PyTorch checks the
/// shape (the broadcast of the operands must be `a`'s own), then the dtype (`a` must hold
/// the result type).
pub fn check_in_place_result(a: &Tensor, shape: &[i64], dtype: DType) -> Result<()> {
    let own = a.sizes();
    if shape != own.as_slice() {
        return Err(TorchError::runtime(format!(
            "output with shape {own:?} doesn't match the broadcast shape {shape:?}"
        )));
    }
    if !can_cast(dtype, a.dtype()) {
        return Err(TorchError::runtime(format!(
            "result type {} can't be cast to the desired output type {}",
            dtype.cpp_name(),
            a.dtype().cpp_name()
        )));
    }
    Ok(())
}

/// PyTorch's first refusal of `a op= b` when `a` cannot hold the promoted type of `a` and
/// `b` ("result type Float can't be cast to the desired output type Long"), asked before the
/// op's own dtype refusals (a bitwise op of floats, a floor division of complex numbers).
/// Only when the operands broadcast to `a`'s shape: otherwise the op reports the shape
/// first, as PyTorch does.
pub fn check_in_place_promotion(a: &Tensor, b: &Arg) -> Result<()> {
    let own = a.sizes();
    if super::broadcast::broadcast_shapes(&own, &shape(b))
        .ok()
        .as_deref()
        != Some(own.as_slice())
    {
        return Ok(());
    }
    let dtype = super::promotion::result_type(&[operand(&Arg::Tensor(a.clone())), operand(b)])?;
    check_in_place_result(a, &own, dtype)
}

/// `a.add_(b)` and friends: computes in the promoted dtype and writes back into `a`, which
/// must be able to hold the result and must not alias itself.
pub fn binary_(op: BinaryOp, a: &Tensor, b: &Arg) -> Result<()> {
    let lhs = Arg::Tensor(a.clone());
    check_sub_bool(op, &lhs, b)?;
    // PyTorch's iterator checks the written tensor's overlap before its shape and dtypes.
    copy::check_no_internal_overlap(&a.layout())?;
    let out_shape = a.sizes();
    let result_shape = match b {
        Arg::Tensor(other) => broadcast_shapes(&out_shape, &other.sizes())?,
        Arg::Number(_) => out_shape.clone(),
    };
    let (compute_dtype, out_dtype) = op_dtypes(op, &lhs, b)?;
    if let Some(kernel) = unbuilt_kernels::binary_kernel(op) {
        unbuilt_kernels::require_kernel(kernel, compute_dtype)?;
    }
    if op == BinaryOp::Div {
        unbuilt_kernels::require_complex_half_kernel("div_cpu", out_dtype)?;
    }
    check_in_place_result(a, &result_shape, out_dtype)?;
    if let Arg::Tensor(other) = b {
        broadcast_layout(&other.layout(), &out_shape)?;
    }
    copy::check_no_internal_overlap(&a.layout())?;
    if let Arg::Tensor(other) = b {
        super::overlap::check_no_partial_overlap(a, other)?;
    }
    // The caller (a declared method or an in-place operator) counts the write.
    let operand_tracks = matches!(b, Arg::Tensor(other) if other.requires_grad());
    record::check_inplace_with(a, operand_tracks)?;
    if !super::ops_fast::try_binary_inplace(op, a, b, compute_dtype, out_dtype)? {
        let tmp = binary_untracked(op, &lhs, b)?;
        copy::copy_(a, &tmp)?;
    }
    record_inplace(op, a, b);
    Ok(())
}

/// Records `out = a op b` for the four ops with formulas (comparisons record nothing).
fn record_binary(out: &Tensor, op: BinaryOp, a: &Arg, b: &Arg) {
    let Some(arith) = arith_of(op) else { return };
    let tracked = |x: &Arg| x.as_tensor().is_some_and(Tensor::requires_grad);
    if !tracked(a) && !tracked(b) {
        return;
    }
    record::record_arith(out, arith, &saved(a), &saved(b));
}

/// The op's arithmetic with a gradient formula (comparisons have none).
fn arith_of(op: BinaryOp) -> Option<Arith> {
    match op {
        BinaryOp::Add => Some(Arith::Add),
        BinaryOp::Sub => Some(Arith::Sub),
        BinaryOp::Mul => Some(Arith::Mul),
        BinaryOp::Div => Some(Arith::Div),
        _ => None,
    }
}

/// An operand as its formula keeps it.
fn saved(x: &Arg) -> Saved {
    match x {
        Arg::Tensor(t) => Saved::Tensor(t.clone()),
        Arg::Number(n) => Saved::Number(*n),
    }
}

/// After `a.op_(b)`: `a` now holds the op's output (see `record::record_in_place`). A
/// formula that would need `a`'s overwritten values is recorded without one rather than
/// computed wrongly.
fn record_inplace(op: BinaryOp, a: &Tensor, b: &Arg) {
    let Some(arith) = arith_of(op) else { return };
    record::record_arith_in_place(a, arith, &saved(b));
}

/// `-t`.
pub fn neg(t: &Tensor) -> Result<Tensor> {
    let out = negated(t)?;
    record::record_neg(&out, t);
    Ok(out)
}

/// `t.neg_()`: `-t` written back into `t` (through a conjugate bit, as every write is), with
/// `neg`'s checks first, recorded as an in-place `NegBackward0`.
pub fn neg_(t: &Tensor) -> Result<Tensor> {
    let out = negated(t)?;
    copy::copy_(t, &out)?;
    if t.requires_grad() {
        record::record_in_place(
            t,
            "NegBackward0",
            &[],
            super::tensor::graph::BackwardOp::Neg,
        );
    }
    Ok(t.clone())
}

/// `-t` as a new tensor, not recorded; bool refused as PyTorch refuses it.
fn negated(t: &Tensor) -> Result<Tensor> {
    unbuilt_kernels::require_kernel("neg_cpu", t.dtype())?;
    if t.dtype() == DType::Bool {
        return Err(TorchError::not_implemented(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
        ));
    }
    // A copy laid out as `clone` lays it out, each element's sign flipped: exact for
    // zeros (`-0.`, `-0.-0.j`) and NaNs, as PyTorch's `-x`; integers wrap.
    let out = copy::clone_tensor(t)?;
    let dtype = out.dtype();
    out.storage()
        .with_bytes_mut(|bytes| copy::negate_in_place(dtype, bytes));
    // Laid out as PyTorch's one-input kernels lay out their result (a contiguous input
    // with odd strides on size-1 dims gives a row-major result, not a clone's layout).
    super::result_layout::in_inputs_order(out, &[t])
}

/// `torch.equal(a, b)`: same shape and equal values.
pub fn equal(a: &Tensor, b: &Tensor) -> Result<bool> {
    unbuilt_kernels::require_complex_half_kernel("equal_notnan_cpu", a.dtype())?;
    if a.sizes() != b.sizes() {
        return Ok(false);
    }
    let eq = binary(
        BinaryOp::Eq,
        &Arg::Tensor(a.clone()),
        &Arg::Tensor(b.clone()),
    )?;
    Ok(super::engine::elements::image(&eq)?.iter().all(|&b| b != 0))
}

/// `t.sum()`: every element added; integers and bool sum to int64.
pub fn sum_all(t: &Tensor) -> Result<Tensor> {
    let d = t.dtype();
    unbuilt_kernels::require_complex_half_kernel("sum_cpu", d)?;
    let out = if d.is_integral() { DType::Int64 } else { d };
    let total = match super::ops_fast::try_sum_float(t)? {
        Some(total) => total,
        None => sum_scalars(t, out)?,
    };
    let result = from_scalars(&[total], vec![], out)?;
    record::record_sum(&result, t, None, false);
    Ok(result)
}

/// The general sum: every element in memory order (as PyTorch reads them), straight from the storage (a
/// broadcast view is never materialised), converted a chunk at a time by a typed kernel and
/// accumulated in f64 (floats), i64 (integers, wrapping) or complex f64.
fn sum_scalars(t: &Tensor, out: DType) -> Result<Scalar> {
    Ok(match out.kind() {
        Kind::Complex => {
            let mut acc = num_complex::Complex64::new(0.0, 0.0);
            copy::for_each_chunk_in_memory_order(t, DType::Complex128, |b| {
                for x in b.chunks_exact(16) {
                    let (re, im) = x.split_at(8);
                    acc += num_complex::Complex64::new(le_f64(re), le_f64(im));
                }
            })?;
            Scalar::Complex(acc)
        }
        Kind::Float => {
            let mut acc = 0.0f64;
            copy::for_each_chunk_in_memory_order(t, DType::Float64, |b| {
                acc = b.chunks_exact(8).fold(acc, |a, x| a + le_f64(x));
            })?;
            Scalar::Float(acc)
        }
        _ => {
            let mut acc = 0i64;
            copy::for_each_chunk_in_memory_order(t, DType::Int64, |b| {
                acc = b.chunks_exact(8).fold(acc, |a, x| {
                    a.wrapping_add(i64::from_le_bytes(x.try_into().unwrap_or([0; 8])))
                });
            })?;
            Scalar::Int(acc)
        }
    })
}

/// The `f64` in the first 8 bytes of `x` (little-endian).
fn le_f64(x: &[u8]) -> f64 {
    f64::from_le_bytes(x[..8].try_into().unwrap_or([0; 8]))
}
