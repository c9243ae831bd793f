//! The `torch.Generator` value, and the `generator=` argument of every random op: a call
//! given one draws from it instead of the session's generator
//! (`core::random::generator::with_generator`), so each op needs nothing of its own for
//! it. Its methods are registered by `random_generator`.

use std::cell::RefCell;
use std::rc::Rc;

use crate::core::random::generator::{Generator, with_generator};
use crate::ops::args::Args;
use crate::ops::errors::{RhaiResult, type_error};

/// A `torch.Generator` value: a generator of its own (handles to one share its state), or
/// `torch.default_generator`, the session's.
#[derive(Debug, Clone)]
pub enum GeneratorObject {
    /// Made by `torch.Generator()`.
    Own(Rc<RefCell<Generator>>),
    /// `torch.default_generator`.
    Default,
}

impl GeneratorObject {
    /// Runs `f` drawing from this generator.
    pub fn drawing<R>(&self, f: impl FnOnce() -> R) -> R {
        match self {
            GeneratorObject::Own(g) => with_generator(&mut g.borrow_mut(), f),
            GeneratorObject::Default => f(),
        }
    }

    /// Runs `f` on the generator's state.
    pub fn with_state<R>(&self, f: impl FnOnce(&mut Generator) -> R) -> R {
        match self {
            GeneratorObject::Own(g) => f(&mut g.borrow_mut()),
            GeneratorObject::Default => crate::core::random::generator::with_global(f),
        }
    }

    /// Whether both are the same generator (Python's `is`).
    pub fn same(&self, other: &GeneratorObject) -> bool {
        match (self, other) {
            (GeneratorObject::Own(a), GeneratorObject::Own(b)) => Rc::ptr_eq(a, b),
            (GeneratorObject::Default, GeneratorObject::Default) => true,
            _ => false,
        }
    }

    /// Python's default repr, the address the generator's.
    pub fn repr(&self) -> String {
        let address = match self {
            GeneratorObject::Own(g) => {
                crate::platform::varies::note();
                Rc::as_ptr(g) as usize as u64
            }
            // A fixed address: the session's generator is one object for the whole session.
            GeneratorObject::Default => 0x7f00_0000_1000u64,
        };
        format!("<torch._C.Generator object at {address:#x}>")
    }
}

/// The generator a call passes (positionally or as `generator=`), if any, or PyTorch's
/// refusal of a `generator=` that is not one. Reading the keyword counts as honouring it
/// (`keyword_audit`).
pub fn passed(a: &Args, op: &str) -> RhaiResult<Option<GeneratorObject>> {
    if let Some(g) = positional(a) {
        return Ok(Some(g));
    }
    match a.kw("generator") {
        None => Ok(None),
        Some(v) => match v.read_lock::<GeneratorObject>() {
            Some(g) => Ok(Some(g.clone())),
            None => Err(type_error(format!(
                "{op}(): argument 'generator' must be torch.Generator, not {}",
                crate::ops::convert::py_type_name(v)
            ))),
        },
    }
}

/// A generator passed positionally (the few ops whose `generator` is not keyword-only):
/// one check of each argument's type.
pub fn positional(a: &Args) -> Option<GeneratorObject> {
    a.pos
        .iter()
        .find_map(|v| v.read_lock::<GeneratorObject>().map(|g| g.clone()))
}
