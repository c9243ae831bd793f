//! Calls Rhai finds no function for, in Python's words. Rhai reports them as its own error,
//! which `catch (e)` would bind as an object map; Python raises `NameError` (no such
//! function), `AttributeError` (no such method on that type) or `TypeError` (a declared
//! method given more arguments than any of its forms takes, in PyTorch's message).
//!
//! Rhai calls the hook after any failed call, so it only answers when no function of that
//! name takes that many arguments at all: then nothing ran and the call is certainly
//! missing. Other failures keep their own error.

use std::collections::HashSet;

use rhai::{Dynamic, Engine, EvalContext};

use super::args::Args;
use super::errors::{RhaiResult, to_rhai};
use super::return_types::ReturnTuple;
use super::signature::Owner;
use super::storage::buffers::{BufferKind, PyBuffer};
use super::storage::typed::TypedStorage;
use super::values::{PyComplex, Size};
use crate::core::dtype::DType;
use crate::core::error::{ErrorKind, TorchError};
use crate::core::memory::storage::Storage;
use crate::core::tensor::Tensor;

thread_local! {
    /// `(name, arguments)` of every native function (computed at the first missing call).
    static NATIVE: std::cell::OnceCell<HashSet<(String, usize)>> = const { std::cell::OnceCell::new() };
}

/// Whether some native function (tensh's or Rhai's standard library's, outside modules)
/// is named `name` and takes `arity` arguments.
fn native_exists(engine: &Engine, name: &str, arity: usize) -> bool {
    NATIVE.with(|set| {
        set.get_or_init(|| {
            engine
                .collect_fn_metadata(
                    None,
                    |info| {
                        info.namespace
                            .is_empty()
                            .then(|| (info.metadata.name.to_string(), info.metadata.num_params))
                    },
                    true,
                )
                .into_iter()
                .collect()
        })
        .contains(&(name.to_string(), arity))
    })
}

/// The declarations' owner of a receiver (its `Owner` constant), with its Python type name
/// as `AttributeError` prints it.
fn owner_of(v: &Dynamic) -> Option<(&'static str, String)> {
    Some(if v.is::<Tensor>() {
        (Tensor::OWNER, "Tensor".into())
    } else if v.is::<Storage>() {
        (Storage::OWNER, "torch.storage.UntypedStorage".into())
    } else if v.is::<TypedStorage>() {
        (TypedStorage::OWNER, "torch.storage.TypedStorage".into())
    } else if v.is::<Size>() {
        (Size::OWNER, "torch.Size".into())
    } else if v.is::<PyComplex>() {
        (PyComplex::OWNER, "complex".into())
    } else if let Some(r) = v.read_lock::<ReturnTuple>() {
        (ReturnTuple::OWNER, format!("torch.return_types.{}", r.kind))
    } else if let Some(b) = v.read_lock::<PyBuffer>() {
        let class = match b.kind {
            BufferKind::Array(..) => "array.array",
            BufferKind::ByteArray => "bytearray",
            BufferKind::Bytes => "bytes",
        };
        (PyBuffer::OWNER, class.into())
    } else {
        return None;
    })
}

/// Python's name for the type of a value that is not a tensh receiver.
fn plain_type(v: &Dynamic) -> String {
    if v.is::<DType>() {
        "torch.dtype".into()
    } else {
        super::convert::py_type_name(v)
    }
}

fn error(kind: ErrorKind, message: String) -> Box<rhai::EvalAltResult> {
    to_rhai(TorchError { kind, message })
}

/// The hook: `Ok(None)` leaves Rhai's error as it is.
pub fn on_missing(
    name: &str,
    args: &mut [&mut Dynamic],
    is_method: bool,
    ctx: EvalContext,
) -> RhaiResult<Option<Dynamic>> {
    if native_exists(ctx.engine(), name, args.len()) {
        return Ok(None);
    }
    // A script's own function of that name (any arity up to Rhai's limit of arguments):
    // Rhai's message, which names the arguments, stays.
    let scripted = ctx
        .iter_namespaces()
        .any(|m| (0..=16).any(|n| m.get_script_fn(name, n).is_some()));
    if scripted {
        return Ok(None);
    }
    if is_method && let Some(receiver) = args.first() {
        let Some((owner, py_type)) = owner_of(receiver) else {
            let py_type = plain_type(receiver);
            return Err(error(
                ErrorKind::Attribute,
                format!("'{py_type}' object has no attribute '{name}'"),
            ));
        };
        if let Some(declared) = super::signature::lookup(owner, name) {
            let given = Args::new(args[1..].iter().map(|a| (**a).clone()).collect());
            declared.check(&given)?;
            return Ok(None);
        }
        return Err(error(
            ErrorKind::Attribute,
            format!("'{py_type}' object has no attribute '{name}'"),
        ));
    }
    let taken = (0..=9).any(|n| native_exists(ctx.engine(), name, n));
    if taken {
        return Ok(None);
    }
    Err(error(
        ErrorKind::Name,
        format!("name '{name}' is not defined"),
    ))
}
