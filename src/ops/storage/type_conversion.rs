//! `storage.type(T)` with a target: what PyTorch's Python code does, step by step. The
//! target is a dotted name (`"torch.ByteStorage"`, `"torch.UntypedStorage"`); a typed
//! storage hands the call to its untyped storage; the untyped storage returns itself for
//! its own class, and otherwise makes `T(n)` with `n` its byte count and copies its bytes
//! in. So only one-byte element types fit (`ByteStorage`, `CharStorage`, `BoolStorage`)
//! and every wider type raises `copy_`'s size mismatch, as in PyTorch.

use rhai::Dynamic;

use super::typed_value::{LEGACY_CLASSES, TypedStorage};
use crate::core::defaults::default_dtype;
use crate::core::dtype::DType;
use crate::core::error::{ErrorKind, TorchError};
use crate::core::memory::storage::Storage;
use crate::ops::convert::py_type_name;
use crate::ops::errors::{RhaiResult, to_rhai};
use crate::ops::placement::NO_NVIDIA_DRIVER;

/// What a dotted name passed to `type()` names.
enum Target {
    /// `torch.UntypedStorage`.
    Untyped,
    /// A typed storage class of this dtype (`torch.FloatStorage`, `torch.TypedStorage`).
    Typed(DType),
}

/// `untyped.type(target)`, for an untyped storage or the untyped storage of a typed one.
pub fn convert(bytes: &Storage, target: &Dynamic) -> RhaiResult<Dynamic> {
    let Some(name) = target.read_lock::<rhai::ImmutableString>() else {
        // PyTorch asks any other value whether it is sparse.
        return Err(to_rhai(TorchError::attribute(format!(
            "'{}' object has no attribute 'is_sparse'",
            py_type_name(target)
        ))));
    };
    match resolve(&name)? {
        Target::Untyped => Ok(Dynamic::from(bytes.clone())),
        Target::Typed(dtype) => {
            let n = bytes.nbytes();
            let wanted = n.saturating_mul(dtype.itemsize());
            if wanted != n {
                return Err(to_rhai(TorchError::runtime(format!(
                    "size does not match, self was {wanted} bytes but src was {n} bytes"
                ))));
            }
            Ok(Dynamic::from(TypedStorage {
                storage: Storage::from_vec(bytes.to_vec()),
                dtype,
            }))
        }
    }
}

/// The class a dotted name imports, or Python's error for one that is not a CPU storage
/// class.
fn resolve(name: &str) -> RhaiResult<Target> {
    let (module, class) = name.rsplit_once('.').unwrap_or(("", name));
    if name.split('.').next() != Some("torch") {
        let first = name.split('.').next().unwrap_or(name);
        return Err(to_rhai(TorchError::new(
            ErrorKind::ModuleNotFound,
            format!("No module named '{first}'"),
        )));
    }
    if module.starts_with("torch.cuda") {
        return Err(to_rhai(TorchError::runtime(NO_NVIDIA_DRIVER)));
    }
    match (module, class) {
        ("torch" | "torch.storage", "UntypedStorage") => return Ok(Target::Untyped),
        ("torch" | "torch.storage", "TypedStorage") => return Ok(Target::Typed(default_dtype())),
        _ => {}
    }
    if module == "torch"
        && let Some((_, dtype)) = LEGACY_CLASSES.iter().find(|(n, _)| *n == class)
    {
        return Ok(Target::Typed(*dtype));
    }
    if module == "torch" && class.ends_with("Tensor") {
        // A tensor type: PyTorch ends up calling `Tensor.copy_` with the storage.
        return Err(to_rhai(TorchError::type_error(
            "copy_(): argument 'other' (position 1) must be Tensor, not torch.storage.UntypedStorage",
        )));
    }
    if module == "torch" && DType::from_name(class).is_some() {
        return Err(to_rhai(TorchError::attribute(
            "'torch.dtype' object has no attribute 'is_sparse'",
        )));
    }
    Err(to_rhai(TorchError::attribute(format!(
        "module '{module}' has no attribute '{class}'"
    ))))
}
