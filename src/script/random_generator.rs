//! `torch.Generator`: a random generator of its own (PyTorch's `torch._C.Generator`), and
//! the `generator=` argument of every random op. A call given one draws from it instead of
//! the session's generator (`core::random::generator::with_generator`), so each op needs
//! nothing of its own for it.

use std::cell::RefCell;
use std::rc::Rc;

use rhai::Dynamic;

use crate::core::dtype::DType;
use crate::core::error::TorchError;
use crate::core::random::generator::{DEFAULT_SEED, Generator, with_generator};
use crate::core::tensor::Tensor;
use crate::script::args::Args;
use crate::script::errors::{RhaiResult, to_rhai, type_error};
use crate::script::registry::Registry;

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
    fn with_state<R>(&self, f: impl FnOnce(&mut Generator) -> R) -> R {
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

    fn repr(&self) -> String {
        let address = match self {
            GeneratorObject::Own(g) => Rc::as_ptr(g) as usize,
            // A fixed address: the session's generator is one object for the whole session.
            GeneratorObject::Default => 0x7f00_0000_1000,
        };
        format!("<torch._C.Generator object at {address:#x}>")
    }
}

/// The generator a call passes (positionally or as `generator=`), if any, or PyTorch's
/// refusal of a `generator=` that is not one. Reading the keyword counts as honouring it
/// (`keyword_audit`).
pub fn passed(a: &Args, op: &str) -> RhaiResult<Option<GeneratorObject>> {
    let positional = a
        .pos
        .iter()
        .find_map(|v| v.read_lock::<GeneratorObject>().map(|g| g.clone()));
    if positional.is_some() {
        return Ok(positional);
    }
    match a.kw("generator") {
        None => Ok(None),
        Some(v) => match v.read_lock::<GeneratorObject>() {
            Some(g) => Ok(Some(g.clone())),
            None => Err(type_error(format!(
                "{op}(): argument 'generator' must be torch.Generator, not {}",
                crate::script::convert::py_type_name(v)
            ))),
        },
    }
}

/// A seed argument as PyTorch's `manual_seed` reads it: an int of 64 bits (negative ones
/// wrap), refused otherwise.
fn seed_of(v: &Dynamic) -> RhaiResult<u64> {
    if v.is_bool() {
        return Ok(u64::from(v.as_bool().unwrap_or(false)));
    }
    match v.as_int() {
        Ok(i) => Ok(i as u64),
        Err(_) => Err(to_rhai(TorchError::runtime(format!(
            "manual_seed expected a long, but got {}",
            crate::script::convert::py_type_name(v)
        )))),
    }
}

/// A fresh seed for `seed()`: from the clock and the process, as PyTorch reads
/// `/dev/urandom` (not reproducible by design).
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mixed = nanos ^ (u64::from(std::process::id()) << 32) ^ 0x9e37_79b9_7f4a_7c15;
    // One round of splitmix64, so close clocks give distant seeds.
    let mut z = mixed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) & ((1 << 63) - 1)
}

/// Registers `torch::Generator(device="cpu")` and the generator's methods.
pub fn register(r: &mut Registry) {
    r.engine
        .register_type_with_name::<GeneratorObject>("Generator");
    for name in ["to_string", "to_debug"] {
        r.engine
            .register_fn(name, |g: &mut GeneratorObject| g.repr());
    }
    r.engine
        .register_fn("==", |a: GeneratorObject, b: GeneratorObject| a.same(&b));
    r.engine.register_get(
        "device",
        |_: &mut GeneratorObject| -> RhaiResult<crate::script::values::Device> {
            crate::script::placement::parse_device("cpu").map_err(to_rhai)
        },
    );
    r.engine.register_fn(
        "manual_seed",
        |g: &mut GeneratorObject, seed: Dynamic| -> RhaiResult<GeneratorObject> {
            let seed = seed_of(&seed)?;
            g.with_state(|s| *s = Generator::new(seed));
            Ok(g.clone())
        },
    );
    r.engine.register_fn("seed", |g: &mut GeneratorObject| {
        let seed = fresh_seed();
        g.with_state(|s| *s = Generator::new(seed));
        seed as i64
    });
    r.engine
        .register_fn("initial_seed", |g: &mut GeneratorObject| {
            g.with_state(|s| s.initial_seed()) as i64
        });
    r.engine
        .register_fn("get_state", |g: &mut GeneratorObject| {
            let bytes = g.with_state(|s| s.state_bytes());
            let n = bytes.len() as i64;
            Tensor::from_parts(
                crate::core::memory::storage::Storage::from_vec(bytes),
                DType::UInt8,
                crate::core::layout::Layout::contiguous(vec![n]),
            )
        });
    r.engine.register_fn(
        "set_state",
        |g: &mut GeneratorObject, state: Dynamic| -> RhaiResult<GeneratorObject> {
            let Some(t) = state.clone().try_cast::<Tensor>() else {
                return Err(type_error(format!(
                    "expected a torch.ByteTensor, but got {}",
                    crate::script::convert::py_type_name(&state)
                )));
            };
            let bytes = crate::core::copy::to_scalars(&t)
                .map_err(to_rhai)?
                .iter()
                .map(|s| s.to_f64() as u8)
                .collect::<Vec<u8>>();
            match Generator::from_state_bytes(&bytes) {
                Some(state) => {
                    g.with_state(|s| *s = state);
                    Ok(g.clone())
                }
                None => Err(to_rhai(TorchError::runtime(format!(
                    "Expected a CPUGeneratorImplState of size 5056 but found the input RNG state size to be {}",
                    bytes.len()
                )))),
            }
        },
    );
    r.engine
        .register_fn("clone_state", |g: &mut GeneratorObject| {
            GeneratorObject::Own(Rc::new(RefCell::new(g.with_state(|s| s.clone()))))
        });
    r.torch
        .set_var("default_generator", GeneratorObject::Default);
    r.function("Generator", 1, |a| {
        if let Some(d) = a.get(0, "device").filter(|d| !d.is_unit()) {
            crate::script::placement::device("Generator", d)?;
        }
        Ok(Dynamic::from(GeneratorObject::Own(Rc::new(RefCell::new(
            Generator::new(DEFAULT_SEED),
        )))))
    });
}
