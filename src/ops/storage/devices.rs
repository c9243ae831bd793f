//! The device methods of both storage classes (`cuda`, `pin_memory`, `hpu`, `to`,
//! `is_hpu`): a typed storage hands them to its untyped storage in PyTorch, so one
//! registration serves both and they cannot drift apart.

use rhai::{Dynamic, Engine};

use crate::core::error::TorchError;
use crate::core::memory::storage::Storage;
use crate::ops::errors::to_rhai;
use crate::ops::placement::NO_NVIDIA_DRIVER;
use crate::ops::registration;
use crate::ops::storage::typed::TypedStorage;

/// Registers the device methods on `UntypedStorage` and `TypedStorage`.
pub fn register(engine: &mut Engine) {
    storage_devices::<Storage>(engine);
    storage_devices::<TypedStorage>(engine);
}

/// One storage class's device methods: on a CPU-only machine `to` keeps the storage itself for the CPU and
/// the others raise what PyTorch raises without their device.
fn storage_devices<T: rhai::Variant + Clone + crate::ops::signature::Owner>(engine: &mut Engine) {
    registration::method::<T>(engine, "cuda", 2, |_, _| {
        Err(to_rhai(TorchError::runtime(
            "invalid argument to exchangeDevice",
        )))
    });
    registration::method::<T>(engine, "pin_memory", 1, |_, _| {
        Err(to_rhai(TorchError::runtime(NO_NVIDIA_DRIVER)))
    });
    registration::method::<T>(engine, "hpu", 2, |_, _| {
        Err(to_rhai(TorchError {
            kind: crate::core::error::ErrorKind::Assertion,
            message: "HPU device module is not loaded".into(),
        }))
    });
    registration::method::<T>(engine, "to", 1, |s, a| {
        if let Some(d) = a.kw("device") {
            crate::ops::placement::device("to", d)?;
        }
        Ok(Dynamic::from(s.clone()))
    });
    engine.register_get("is_hpu", |_: &mut T| false);
}
