//! Calls Rhai finds no function for, in Python's words. Rhai reports them as its own error,
//! which `catch (e)` would bind as an object map; Python raises `NameError` (no such
//! function), `AttributeError` (no such method on that type) or `TypeError` (a declared
//! method given more arguments than any of its forms takes, in PyTorch's message).
//!
//! Rhai calls the hook after any failed call, so it only answers when no function of that
//! name takes that many arguments at all: then nothing ran and the call is certainly
//! missing. Other failures keep their own error.

use std::any::TypeId;
use std::collections::HashMap;

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

/// The first parameter's type of every form of every native function, by `(name,
/// arguments)`.
type NativeForms = HashMap<(String, usize), Vec<TypeId>>;

thread_local! {
    /// `NativeForms` of the engine last asked about, with the engine's address and the
    /// registration generation it was read at (computed at a missing call, again after
    /// names were registered late: `op_table`).
    static NATIVE: std::cell::RefCell<Option<(super::generation::Stamp, NativeForms)>> =
        const { std::cell::RefCell::new(None) };
}

/// The first parameter types of the native functions (tensh's or Rhai's standard
/// library's, outside modules) named `name` taking `arity` arguments; `None` if there are
/// none.
fn native_firsts(engine: &Engine, name: &str, arity: usize) -> Option<Vec<TypeId>> {
    let key = super::generation::stamp(engine);
    NATIVE.with(|cell| {
        let mut cached = cell.borrow_mut();
        if cached.as_ref().is_none_or(|(k, _)| *k != key) {
            let mut all: NativeForms = HashMap::new();
            let forms = engine.collect_fn_metadata(
                None,
                |info| {
                    let m = info.metadata;
                    info.namespace.is_empty().then(|| {
                        (
                            (m.name.to_string(), m.num_params),
                            m.param_types.first().copied(),
                        )
                    })
                },
                true,
            );
            for (key, first) in forms {
                all.entry(key).or_default().extend(first);
            }
            *cached = Some((key, all));
        }
        cached
            .as_ref()
            .and_then(|(_, all)| all.get(&(name.to_string(), arity)).cloned())
    })
}

/// Whether some native function is named `name` and takes `arity` arguments.
fn native_exists(engine: &Engine, name: &str, arity: usize) -> bool {
    native_firsts(engine, name, arity).is_some()
}

/// Whether some form of the native `name` taking `arity` arguments takes `receiver` first.
fn native_takes(engine: &Engine, name: &str, arity: usize, receiver: &Dynamic) -> bool {
    let id = receiver.type_id();
    native_firsts(engine, name, arity).is_some_and(|firsts| {
        firsts
            .iter()
            .any(|t| *t == id || *t == TypeId::of::<Dynamic>())
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
    let answer = answer(name, args, is_method, ctx);
    // The raise this hook followed (or its own error) is accounted for.
    super::errors::forget_raised();
    answer
}

fn answer(
    name: &str,
    args: &mut [&mut Dynamic],
    is_method: bool,
    ctx: EvalContext,
) -> RhaiResult<Option<Dynamic>> {
    // A form exists for these arguments' count: for a method, it must take this receiver
    // (otherwise the receiver has no such method); for a function, some other argument's
    // type is wrong, which Rhai's error says (in Python's words, see `rhai_errors`).
    // (Rhai also calls the hook after a native method raised, with a receiver taken by
    // value already moved out and left as `()`: then the method's own error stands. A
    // receiver that is `()` with nothing raised is Python's `None`.)
    let raised = super::errors::take_raised();
    let takes_receiver = is_method
        && args.first().is_some_and(|r| {
            (r.is_unit() && raised) || native_takes(ctx.engine(), name, args.len(), r)
        });
    if (!is_method && native_exists(ctx.engine(), name, args.len())) || takes_receiver {
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
        if let Some(unbuilt) = super::pytorch_names::not_built(owner, name) {
            return Err(to_rhai(unbuilt));
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
