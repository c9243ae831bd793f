//! `torch.memory_format` and `torch.layout` as script values: the constants
//! (`torch::channels_last`, `torch::contiguous_format`, `torch::channels_last_3d`,
//! `torch::preserve_format`, `torch::strided`), their reprs and equality, a tensor's
//! `layout`, and the one reader of the `memory_format=` keyword every op uses.

use crate::ops::direct::Properties;
use rhai::{Engine, Module};

use super::args::Args;
use super::convert::py_type_name;
use super::errors::{RhaiResult, to_rhai, type_error};
use crate::core::error::TorchError;
use crate::core::memory_format::MemoryFormat;
use crate::core::tensor::Tensor;

/// `torch.layout`. tensh's tensors are strided; PyTorch's sparse layouts are not built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StridedLayout;

/// Python's type name of a memory format, as PyTorch's messages write it.
pub const MEMORY_FORMAT_TYPE: &str = "torch.memory_format";
/// Python's type name of a layout.
pub const LAYOUT_TYPE: &str = "torch.layout";

/// Adds the format and layout constants to the `torch` module.
pub fn register_constants(torch: &mut Module) {
    for f in [
        MemoryFormat::Contiguous,
        MemoryFormat::ChannelsLast,
        MemoryFormat::ChannelsLast3d,
        MemoryFormat::Preserve,
    ] {
        torch.set_var(f.name(), f);
    }
    torch.set_var("strided", StridedLayout);
}

/// Registers the types, their reprs, equality and `Tensor.layout`.
pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<MemoryFormat>(MEMORY_FORMAT_TYPE);
    engine.register_type_with_name::<StridedLayout>(LAYOUT_TYPE);
    for name in ["to_string", "to_debug", "print", "debug"] {
        engine.register_fn(name, |f: &mut MemoryFormat| format!("torch.{}", f.name()));
        engine.register_fn(name, |_: &mut StridedLayout| "torch.strided".to_string());
    }
    engine.register_fn("==", |a: MemoryFormat, b: MemoryFormat| a == b);
    engine.register_fn("!=", |a: MemoryFormat, b: MemoryFormat| a != b);
    engine.register_fn("==", |_: StridedLayout, _: StridedLayout| true);
    engine.register_fn("!=", |_: StridedLayout, _: StridedLayout| false);
}

/// Registers the `layout` property of tensors.
pub fn register_property(p: &mut Properties) {
    p.get("layout", |_: &Tensor| StridedLayout);
}

/// The `memory_format=` of a call to `op`: `default` when not given (or `None`), else the
/// format, or PyTorch's `TypeError` for a value of another type.
pub fn memory_format(op: &str, a: &Args, default: MemoryFormat) -> RhaiResult<MemoryFormat> {
    match a.kw("memory_format") {
        None => Ok(default),
        Some(v) => v.clone().try_cast::<MemoryFormat>().ok_or_else(|| {
            type_error(format!(
                "{op}(): argument 'memory_format' must be {MEMORY_FORMAT_TYPE}, not {}",
                py_type_name(v)
            ))
        }),
    }
}

/// Reads `layout=` for an op that declares it: strided (or `None`) is what tensh builds;
/// anything else is refused with PyTorch's `TypeError`.
pub fn check_layout(op: &str, a: &Args) -> RhaiResult<()> {
    match a.kw("layout") {
        Some(v) if !v.is::<StridedLayout>() => Err(type_error(format!(
            "{op}(): argument 'layout' must be {LAYOUT_TYPE}, not {}",
            py_type_name(v)
        ))),
        _ => Ok(()),
    }
}

/// `contiguous(memory_format=...)`'s refusal of `preserve_format` for a tensor that is not
/// already contiguous.
pub fn preserve_unsupported() -> Box<rhai::EvalAltResult> {
    to_rhai(TorchError::runtime(
        "preserve memory format is unsupported by the contiguous operator",
    ))
}
