//! The allow-list of a weights-only `torch.load`, as PyTorch 2.15 keeps it: which globals a
//! checkpoint may name, what `BUILD` may apply a state to, what a persistent id (a storage
//! record) must look like, and PyTorch's words for each refusal. The allowed callables
//! themselves are in `rebuild`.

use std::collections::{HashMap, HashSet};

use rhai::Dynamic;

use super::archive::{Index, Span};
use super::obj::{DictKind, Obj};
use super::rebuild::{Loading, build_parameter, build_tensor};
use super::refusals::{no_attribute, refused_global, unpack, weights_only_error};
use super::unpickle::Resolver;
use crate::core::dtype::DType;
use crate::core::error::{ErrorKind, Result, TorchError};
use crate::core::memory::storage::Storage;
use crate::core::tensor::Tensor;
use crate::ops::storage::typed::{LEGACY_CLASSES, TypedStorage};

/// Where records' bytes come from.
pub enum Source {
    /// The open file: each storage reads its own record.
    File(crate::platform::fs::File),
    /// The file mapped privately: each storage is a window of the map.
    Mapped(Storage),
}

/// A storage read from a record, with how it was first typed.
struct Loaded {
    storage: Storage,
    /// The itemsize its bytes were swapped by (big-endian files), once.
    swapped: Option<usize>,
}

/// The weights-only allow-list and what it builds.
pub struct TorchResolver {
    index: Index,
    source: Source,
    storages: HashMap<String, Loaded>,
    /// The tensors `_rebuild_parameter` made (a `BUILD` on a parameter differs).
    parameters: HashSet<usize>,
}

impl TorchResolver {
    /// A resolver reading storages from `source`, as `index` locates them.
    pub fn new(index: Index, source: Source) -> TorchResolver {
        TorchResolver {
            index,
            source,
            storages: HashMap::new(),
            parameters: HashSet::new(),
        }
    }

    /// The storage of record `key`, read once (later ids with the same key share it); in
    /// a big-endian file its bytes are swapped once, in units of `unit` bytes (the item
    /// size, or a complex number's component size). A first read checks the record holds
    /// `nbytes`, as PyTorch does.
    fn storage(&mut self, key: &str, unit: usize, nbytes: Option<i64>) -> Result<Storage> {
        if !self.storages.contains_key(key) {
            let Span { start, len } = self.index.record(key)?;
            if let Some(n) = nbytes
                && n != len as i64
            {
                return Err(TorchError::runtime(format!(
                    "record size ({len} bytes) does not match expected size ({n} bytes = {n} elements * 1 bytes/element) for dtype Byte"
                )));
            }
            let storage = match &mut self.source {
                Source::File(file) => {
                    // Read straight into the storage's buffer, unwritten until the read.
                    let mut v = crate::core::memory::alloc::vec_with_capacity(len)?;
                    crate::core::memory::read::read_run(file, start as u64, len, &mut v)
                        .map_err(|_| {
                            TorchError::runtime(format!(
                                "PytorchStreamReader failed reading file data/{key}: file read failed"
                            ))
                        })?;
                    Storage::fixed(v)
                }
                Source::Mapped(map) => map.window(start, len),
            };
            self.storages.insert(
                key.to_string(),
                Loaded {
                    storage,
                    swapped: None,
                },
            );
        }
        let big = self.index.big_endian;
        let loaded = self
            .storages
            .get_mut(key)
            .ok_or_else(|| TorchError::runtime(format!("storage {key} was not read")))?;
        if big && unit > 1 && loaded.swapped.is_none() {
            loaded
                .storage
                .with_bytes_mut(|b| b.chunks_exact_mut(unit).for_each(|c| c.reverse()));
            loaded.swapped = Some(unit);
        }
        Ok(loaded.storage.clone())
    }

    /// Swaps an untyped record's bytes by `dtype` (its first tensor's), in a big-endian file.
    fn swap_untyped(&mut self, storage: &Storage, dtype: DType) -> Result<()> {
        if self.index.big_endian
            && let Some(key) = self
                .storages
                .iter()
                .find(|(_, l)| l.storage.is_same(storage))
                .map(|(k, _)| k.clone())
        {
            self.storage(&key, swap_unit(dtype), None)?;
        }
        Ok(())
    }
}

/// The byte run a big-endian file reverses: an element, or each half of a complex one.
fn swap_unit(dtype: DType) -> usize {
    if dtype.is_complex() {
        dtype.itemsize() / 2
    } else {
        dtype.itemsize()
    }
}

/// Whether `module.name` is a global the weights-only loader allows by default.
fn allowed(module: &str, name: &str) -> bool {
    match (module, name) {
        ("torch._utils", "_rebuild_tensor_v2" | "_rebuild_tensor_v3" | "_rebuild_parameter")
        | ("collections", "OrderedDict" | "Counter")
        | ("torch", "Size" | "device")
        | ("torch.storage", "UntypedStorage" | "TypedStorage")
        | ("__builtin__" | "builtins", "complex" | "set" | "bytearray")
        | ("_codecs", "encode") => true,
        ("torch", class) => LEGACY_CLASSES.iter().any(|(c, _)| *c == class),
        _ => false,
    }
}

impl Loading for TorchResolver {
    fn swap_untyped(&mut self, storage: &Storage, dtype: DType) -> Result<()> {
        TorchResolver::swap_untyped(self, storage, dtype)
    }
    fn mark_parameter(&mut self, tensor: &Tensor) {
        self.parameters.insert(tensor.id());
    }
}

impl Resolver for TorchResolver {
    fn global(&mut self, module: &str, name: &str) -> Result<Obj> {
        if module == "torch"
            && let Some(d) = DType::from_name(name)
        {
            return Ok(Obj::Made(Dynamic::from(d)));
        }
        if !allowed(module, name) {
            return Err(refused_global(module, name));
        }
        Ok(Obj::Global(module.into(), name.into()))
    }

    fn call(&mut self, callable: Obj, args: Obj) -> Result<Obj> {
        super::rebuild::call(self, callable, args)
    }

    fn build(&mut self, target: Obj, state: Obj) -> Result<Obj> {
        match &target {
            Obj::Made(d) if d.is::<Tensor>() => {
                let t = d.clone().cast::<Tensor>();
                if self.parameters.contains(&t.id()) {
                    build_parameter(&t, &state)?;
                } else {
                    build_tensor(&t, &state)?;
                }
                Ok(target)
            }
            // An OrderedDict's attributes (a state dict's `_metadata`) and a storage's have
            // no place in a Rhai value: the object itself is what was saved.
            Obj::Dict(DictKind::Ordered | DictKind::Counter, _) | Obj::Set(_) => Ok(target),
            Obj::Made(d) if d.is::<TypedStorage>() || d.is::<Storage>() => Ok(target),
            other => Err(self.refuse(&format!(
                "Can only build Tensor, Parameter, OrderedDict or types allowlisted via `add_safe_globals`, but got <class '{}'>",
                other.type_name()
            ))),
        }
    }

    fn persistent(&mut self, id: Obj) -> Result<Obj> {
        let parts = match &id {
            Obj::Tuple(parts) => parts.clone(),
            Obj::Int(_) => {
                return Err(TorchError::new(
                    ErrorKind::Assertion,
                    "saved_id must be a tuple, got int",
                ));
            }
            other => {
                return Err(self.refuse(&format!(
                    "persistent_load id must be tuple or int, but got <class '{}'>",
                    other.type_name()
                )));
            }
        };
        let kind = parts
            .first()
            .ok_or_else(|| TorchError::index("tuple index out of range"))?;
        if !matches!(kind, Obj::Str(k) if &**k == "storage") {
            return Err(self.refuse(&format!(
                "Only persistent_load of storage is allowed, but got <class '{}'>",
                kind.type_name()
            )));
        }
        unpack(&parts[1..], 4)?;
        let [class, key, location, numel] = &parts[1..] else {
            return Err(TorchError::value(
                "not enough values to unpack (expected 4)",
            ));
        };
        let dtype = match class {
            Obj::Global(m, n) if &**m == "torch" => LEGACY_CLASSES
                .iter()
                .find(|(c, _)| *c == &**n)
                .map(|(_, d)| *d)
                .ok_or_else(|| no_attribute(class, "dtype"))?,
            Obj::Global(m, n) if &**m == "torch.storage" && &**n == "UntypedStorage" => {
                DType::UInt8
            }
            other => return Err(no_attribute(other, "dtype")),
        };
        let location = match location {
            Obj::Str(l) => l.to_string(),
            other => other.py_str(),
        };
        if location.starts_with("cuda") {
            return Err(TorchError::runtime(
                "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.",
            ));
        }
        if !location.starts_with("cpu") {
            return Err(TorchError::not_implemented(format!(
                "tensh keeps storages on the CPU only: this file has one on '{location}'"
            )));
        }
        let nbytes = match numel {
            Obj::Int(n) => n.checked_mul(dtype.itemsize() as i64),
            _ => None,
        };
        let unit = if matches!(class, Obj::Global(m, _) if &**m == "torch.storage") {
            1
        } else {
            swap_unit(dtype)
        };
        let storage = self.storage(&key.py_str(), unit, nbytes)?;
        Ok(Obj::Made(Dynamic::from(TypedStorage { storage, dtype })))
    }

    fn refuse(&self, detail: &str) -> TorchError {
        weights_only_error(detail)
    }
}
