//! PyTorch's words for what a weights-only load refuses, and the Python errors its
//! allowed callables raise on wrong arguments.

use super::obj::Obj;
use crate::core::error::{ErrorKind, Result, TorchError};

const DOCS_TAIL: &str = "Check the documentation of torch.load to learn more about types accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.";

const RERUN: &str = "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.";

/// Modules whose globals PyTorch refuses outright.
const BLOCKED_MODULES: [&str; 5] = ["sys", "os", "posix", "nt", "subprocess"];

fn unpickling(message: String) -> TorchError {
    TorchError::new(ErrorKind::Unpickling, message)
}

/// PyTorch's refusal of a global a weights-only load does not allow.
pub fn refused_global(module: &str, name: &str) -> TorchError {
    let full = if module == "builtins" || module == "__builtin__" {
        name.to_string()
    } else {
        format!("{module}.{name}")
    };
    if BLOCKED_MODULES.contains(&module) {
        return unpickling(format!(
            "Weights only load failed. {RERUN}\n\n\nTrying to load unsupported GLOBAL {module}.{name} whose module {module} is blocked.\n\n{DOCS_TAIL}"
        ));
    }
    weights_only_error(&format!(
        "Unsupported global: GLOBAL {full} was not an allowed global by default. Please use `torch.serialization.add_safe_globals([{full}])` or the `torch.serialization.safe_globals([{full}])` context manager to allowlist this global if you trust this class/function."
    ))
}

/// PyTorch's weights-only refusal with the unpickler's own words in it. PyTorch words it by
/// kind: a global outside the allow-list gets the two ways to load it anyway; anything else
/// (an opcode, a malformed record) asks for an issue to be filed.
pub fn weights_only_error(detail: &str) -> TorchError {
    if detail.contains("was not an allowed global by default") {
        return unpickling(format!(
            "Weights only load failed. This file can still be loaded, to do so you have two options, \u{1b}[1mdo those steps only if you trust the source of the checkpoint\u{1b}[0m. \n\t(1) {RERUN}\n\t(2) Alternatively, to load with `weights_only=True` please check the recommended steps in the following error message.\n\tWeightsUnpickler error: {detail}\n\n{DOCS_TAIL}"
        ));
    }
    unpickling(format!(
        "Weights only load failed. {RERUN}\nPlease file an issue with the following so that we can make `weights_only=True` compatible with your use case: WeightsUnpickler error: \n\n{detail}\n\n{DOCS_TAIL}"
    ))
}

/// Python's `AttributeError` for `o.attribute` on a value that has no such attribute.
pub fn no_attribute(o: &Obj, attribute: &str) -> TorchError {
    let message = match o {
        Obj::Global(m, n) => format!("type object '{m}.{n}' has no attribute '{attribute}'"),
        other => format!(
            "'{}' object has no attribute '{attribute}'",
            other.type_name()
        ),
    };
    TorchError::new(ErrorKind::Attribute, message)
}

/// A list of items as Python unpacks it into `expected` names, or its `ValueError`.
pub fn unpack(items: &[Obj], expected: usize) -> Result<()> {
    match items.len().cmp(&expected) {
        std::cmp::Ordering::Less => Err(TorchError::value(format!(
            "not enough values to unpack (expected {expected}, got {})",
            items.len()
        ))),
        std::cmp::Ordering::Greater => Err(TorchError::value(format!(
            "too many values to unpack (expected {expected})"
        ))),
        std::cmp::Ordering::Equal => Ok(()),
    }
}

/// PyTorch's `set_()` overload error for arguments that match no overload.
pub fn set_overload_error(args: &[Obj]) -> TorchError {
    let got: Vec<String> = args.iter().map(Obj::type_name).collect();
    TorchError::type_error(format!(
        "set_() received an invalid combination of arguments - got ({}), but expected one of:\n * ()\n * (torch.Storage source)\n * (torch.Storage source, int storage_offset, tuple of ints size, tuple of ints stride = None)\n * (Tensor source)\n * (Tensor source, int storage_offset, tuple of ints size, tuple of ints stride = None)\n",
        got.join(", ")
    ))
}
