//! Autograd for ops registered as methods: after a tensor op returns, its output is recorded
//! (`core::autograd`) when the receiver requires grad and the op did not record itself. View
//! ops get the view rule, copies their reshape-and-cast rule, and ops tensh has no formula
//! for get PyTorch's node name with a formula that raises when used.

use crate::core::autograd::{record_copy, record_view, record_without_formula};
use crate::core::tensor::Tensor;

/// PyTorch's node name for a view op's output.
fn view_node(method: &str, had_args: bool) -> Option<&'static str> {
    Some(match method {
        "view" | "view_as" | "flatten" | "reshape" | "reshape_as" | "unflatten" => "ViewBackward0",
        "expand" | "expand_as" => "ExpandBackward0",
        "transpose" | "swapaxes" | "swapdims" => "TransposeBackward0",
        "t" => "TBackward0",
        "permute" | "movedim" | "moveaxis" => "PermuteBackward0",
        "narrow" => "SliceBackward0",
        "select" => "SelectBackward0",
        "squeeze" if had_args => "SqueezeBackward1",
        "squeeze" => "SqueezeBackward0",
        "unsqueeze" => "UnsqueezeBackward0",
        "diagonal" => "DiagonalBackward0",
        "unfold" => "UnfoldBackward0",
        "as_strided" => "AsStridedBackward0",
        _ => return None,
    })
}

/// PyTorch's node name for an op tensh records without a formula.
fn unsupported_node(method: &str, input: &Tensor, had_args: bool) -> Option<&'static str> {
    Some(match method {
        "exp" => "ExpBackward0",
        "abs" => "AbsBackward0",
        "sqrt" => "SqrtBackward0",
        "log" => "LogBackward0",
        "sin" => "SinBackward0",
        "cos" => "CosBackward0",
        "prod" if had_args => "ProdBackward1",
        "prod" => "ProdBackward0",
        "max" => "MaxBackward1",
        "min" => "MinBackward1",
        "clamp" => "ClampBackward1",
        "remainder" => "RemainderBackward0",
        "pow" => "PowBackward1",
        "matmul" if input.ndim() == 1 => "DotBackward0",
        "matmul" if input.ndim() == 2 => "MmBackward0",
        "matmul" => "UnsafeViewBackward0",
        _ => return None,
    })
}

/// Records `out`, the result of `input.method(...)`, for autograd where PyTorch would.
pub fn track(method: &str, input: &Tensor, had_args: bool, out: &Tensor) {
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
    let shares = out.storage().shares_memory(&input.storage());
    if shares && out.dtype() == input.dtype() {
        if let Some(name) = view_node(method, had_args) {
            record_view(out, input, name);
        }
        return;
    }
    match method {
        "reshape" | "reshape_as" | "flatten" => record_copy(out, input, "UnsafeViewBackward0"),
        "clone" | "contiguous" => record_copy(out, input, "CloneBackward0"),
        "to" | "float" | "double" | "half" | "bfloat16" | "type" => {
            record_copy(out, input, "ToCopyBackward0")
        }
        _ => {
            if let Some(name) = unsupported_node(method, input, had_args) {
                record_without_formula(out, name, method, std::slice::from_ref(input));
            }
        }
    }
}
