//! `torch.Generator`: a random generator of its own (PyTorch's `torch._C.Generator`):
//! `torch::Generator()`, `torch::default_generator` and the generator's methods. The value
//! and the `generator=` argument live in `generator_object`.

use std::cell::RefCell;
use std::rc::Rc;

use rhai::Dynamic;

use super::generator_object::GeneratorObject;
use crate::core::dtype::DType;
use crate::core::error::TorchError;
use crate::core::random::generator::{DEFAULT_SEED, Generator};
use crate::core::tensor::Tensor;
use crate::ops::errors::{RhaiResult, to_rhai, type_error};
use crate::ops::registry::Registry;

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
            crate::ops::convert::py_type_name(v)
        )))),
    }
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
        |_: &mut GeneratorObject| -> RhaiResult<crate::ops::values::Device> {
            crate::ops::placement::parse_device("cpu").map_err(to_rhai)
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
        let fresh = Generator::from_clock();
        let seed = fresh.initial_seed();
        g.with_state(|s| *s = fresh);
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
                    crate::ops::convert::py_type_name(&state)
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
            crate::ops::placement::device("Generator", d)?;
        }
        Ok(Dynamic::from(GeneratorObject::Own(Rc::new(RefCell::new(
            Generator::new(DEFAULT_SEED),
        )))))
    });
}
