//! Autograd for ops registered as methods that do not record themselves in `core`: after
//! such an op returns, its output is recorded when the receiver requires grad. Copies get
//! their reshape-and-cast rule, and ops tensh has no formula for get PyTorch's node name
//! with a formula that raises when used. View ops never reach this: every view records
//! itself where it is made (`core::views`).

use crate::core::tensor::Tensor;
use crate::core::tensor::record::{record_copy, record_without_formula};

/// PyTorch's node name for an op tensh records without a formula.
fn unsupported_node(method: &str, input: &Tensor, had_args: bool) -> Option<&'static str> {
    Some(match method {
        "prod" if had_args => "ProdBackward1",
        "prod" => "ProdBackward0",
        "max" => "MaxBackward1",
        "min" => "MinBackward1",
        "clamp" => "ClampBackward1",
        "remainder" => "RemainderBackward0",
        "index_select" => "IndexSelectBackward0",
        "gather" => "GatherBackward0",
        "masked_fill" => "MaskedFillBackward0",
        "masked_select" => "MaskedSelectBackward0",
        "roll" => "RollBackward0",
        "amax" => "AmaxBackward0",
        "amin" => "AminBackward0",
        "diag" if input.ndim() == 1 => "DiagEmbedBackward0",
        "pow" => "PowBackward1",
        "matmul" if input.ndim() == 1 => "DotBackward0",
        "matmul" if input.ndim() == 2 => "MmBackward0",
        "matmul" => "UnsafeViewBackward0",
        _ => return None,
    })
}

/// Records `out`, the result of `input.method(...)`, for autograd where PyTorch would.
pub fn track(method: &str, input: &Tensor, had_args: bool, out: &Tensor) {
    if !crate::core::tensor::grad_mode::is_enabled() {
        return;
    }
    let requires = input.requires_grad();
    if !requires || out.ptr_eq(input) || out.grad_state().grad_fn.is_some() {
        return;
    }
    if matches!(
        method,
        "detach" | "requires_grad_" | "data" | "argmax" | "argmin" | "all" | "any"
    ) || out.dtype() == crate::core::dtype::DType::Bool
        || out.dtype().is_integral()
    {
        return;
    }
    // Views record themselves where they are made (`core::views`).
    if out.storage().shares_memory(&input.storage()) {
        return;
    }
    match method {
        "clone" | "contiguous" => record_copy(out, input, "CloneBackward0"),
        "to" | "float" | "double" | "half" | "bfloat16" | "type" | "type_as" => {
            record_copy(out, input, "ToCopyBackward0")
        }
        _ => {
            if let Some(name) = unsupported_node(method, input, had_args) {
                record_without_formula(out, name, method, &[input]);
            }
        }
    }
}
