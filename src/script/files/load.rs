//! `torch.load(f)`: PyTorch's zip checkpoints read as `weights_only=True` reads them. Only
//! the globals that mode allows are honoured (tensor and parameter rebuilding, the storage
//! classes, dtypes, `torch.Size`, `OrderedDict`, a few builtins); any other global stops
//! the load with PyTorch's `UnpicklingError` before anything from the file is built or run.
//! Tensors that shared a storage in the file share one storage after loading. With `mmap`,
//! the file is mapped once (privately: writes never reach it) and every storage is a window
//! of the map, so loading costs O(records), not O(bytes).

use std::collections::HashMap;
use std::rc::Rc;

use rhai::{Array, Dynamic, Map};

use super::archive::{self, Index, Span};
use super::unpickle::{Obj, Resolver, loads};
use crate::core::dtype::DType;
use crate::core::error::{ErrorKind, Result, TorchError};
use crate::core::layout::Layout;
use crate::core::memory::storage::Storage;
use crate::core::tensor::Tensor;
use crate::script::storage::buffers::{BufferKind, PyBuffer};
use crate::script::storage::typed::{LEGACY_CLASSES, TypedStorage};
use crate::script::values::{Device, PyComplex, Size};

const DOCS_TAIL: &str = "Check the documentation of torch.load to learn more about types accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.";

const RERUN: &str = "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.";

/// Modules whose globals PyTorch refuses outright.
const BLOCKED_MODULES: [&str; 5] = ["sys", "os", "posix", "nt", "subprocess"];

fn unpickling(message: String) -> TorchError {
    TorchError::new(ErrorKind::Unpickling, message)
}

/// PyTorch's refusal of a global a weights-only load does not allow.
fn refused_global(module: &str, name: &str) -> TorchError {
    let full = format!("{module}.{name}");
    if BLOCKED_MODULES.contains(&module) {
        return unpickling(format!(
            "Weights only load failed. {RERUN}\n\n\nTrying to load unsupported GLOBAL {full} whose module {module} is blocked.\n\n{DOCS_TAIL}"
        ));
    }
    weights_only_error(&format!(
        "Unsupported global: GLOBAL {full} was not an allowed global by default. Please use `torch.serialization.add_safe_globals([{full}])` or the `torch.serialization.safe_globals([{full}])` context manager to allowlist this global if you trust this class/function."
    ))
}

/// PyTorch's weights-only refusal with the unpickler's own words in it. PyTorch words it by
/// kind: a global outside the allow-list gets the two ways to load it anyway; anything else
/// (an opcode, a malformed record) asks for an issue to be filed.
fn weights_only_error(detail: &str) -> TorchError {
    if detail.contains("was not an allowed global by default") {
        return unpickling(format!(
            "Weights only load failed. This file can still be loaded, to do so you have two options, \u{1b}[1mdo those steps only if you trust the source of the checkpoint\u{1b}[0m. \n\t(1) {RERUN}\n\t(2) Alternatively, to load with `weights_only=True` please check the recommended steps in the following error message.\n\tWeightsUnpickler error: {detail}\n\n{DOCS_TAIL}"
        ));
    }
    unpickling(format!(
        "Weights only load failed. {RERUN}\nPlease file an issue with the following so that we can make `weights_only=True` compatible with your use case: WeightsUnpickler error: \n\n{detail}\n\n{DOCS_TAIL}"
    ))
}

/// Where records' bytes come from.
enum Source {
    /// The open file: each storage reads its own record.
    File(std::fs::File),
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
struct TorchResolver {
    index: Index,
    source: Source,
    storages: HashMap<String, Loaded>,
}

fn int(o: &Obj, what: &str) -> Result<i64> {
    match o {
        Obj::Int(i) => Ok(*i),
        Obj::Bool(b) => Ok(*b as i64),
        _ => Err(weights_only_error(&format!("{what} must be an int"))),
    }
}

fn ints(o: &Obj, what: &str) -> Result<Vec<i64>> {
    match o {
        Obj::Tuple(items) => items.iter().map(|i| int(i, what)).collect(),
        Obj::List(items) => items.borrow().iter().map(|i| int(i, what)).collect(),
        _ => Err(weights_only_error(&format!(
            "{what} must be a tuple of ints"
        ))),
    }
}

fn made<T: Clone + 'static>(o: &Obj) -> Option<T> {
    match o {
        Obj::Made(d) => d.read_lock::<T>().map(|v| v.clone()),
        _ => None,
    }
}

impl TorchResolver {
    /// The storage of record `key`, read once (later ids with the same key share it); in
    /// a big-endian file its bytes are swapped once, in units of `unit` bytes (the item
    /// size, or a complex number's component size).
    fn storage(&mut self, key: &str, unit: usize) -> Result<Storage> {
        if !self.storages.contains_key(key) {
            let Span { start, len } = self.index.record(key)?;
            let storage = match &mut self.source {
                Source::File(file) => {
                    use std::io::{Read, Seek, SeekFrom};
                    // Read into reserved, unwritten capacity: no zero-fill pass first.
                    let mut v = crate::core::memory::alloc::vec_with_capacity(len)?;
                    file.seek(SeekFrom::Start(start as u64))
                        .and_then(|_| (&mut *file).take(len as u64).read_to_end(&mut v))
                        .and_then(|n| {
                            if n == len {
                                Ok(())
                            } else {
                                Err(std::io::Error::from(std::io::ErrorKind::UnexpectedEof))
                            }
                        })
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

    /// `_rebuild_tensor_v2/v3`: a tensor over a loaded storage.
    fn rebuild(&self, storage: Storage, dtype: DType, args: &[Obj]) -> Result<Obj> {
        let offset = int(&args[1], "storage_offset")?;
        let sizes = ints(&args[2], "size")?;
        let strides = ints(&args[3], "stride")?;
        let requires_grad = matches!(args.get(4), Some(Obj::Bool(true)));
        if sizes.len() != strides.len() {
            return Err(weights_only_error("size and stride differ in length"));
        }
        let layout = Layout {
            sizes: sizes.into(),
            strides: strides.into(),
            offset,
        }
        .checked(dtype.itemsize())?;
        layout.check_in_bounds(dtype.itemsize(), storage.nbytes())?;
        let t = Tensor::from_parts(storage, dtype, layout);
        if requires_grad {
            if !(dtype.is_floating_point() || dtype.is_complex()) {
                return Err(TorchError::runtime(
                    "only Tensors of floating point and complex dtype can require gradients",
                ));
            }
            t.with_grad_mut(|g| g.requires_grad = true);
        }
        Ok(Obj::Made(Dynamic::from(t)))
    }
}

impl Resolver for TorchResolver {
    fn global(&mut self, module: &str, name: &str) -> Result<Obj> {
        let allowed = match (module, name) {
            (
                "torch._utils",
                "_rebuild_tensor_v2" | "_rebuild_tensor_v3" | "_rebuild_parameter",
            )
            | ("collections", "OrderedDict" | "Counter")
            | ("torch", "Size" | "device")
            | ("torch.storage", "UntypedStorage" | "TypedStorage")
            | ("__builtin__" | "builtins", "complex" | "set" | "frozenset" | "bytearray")
            | ("_codecs", "encode") => true,
            ("torch", class) if LEGACY_CLASSES.iter().any(|(c, _)| *c == class) => true,
            ("torch", dtype) if DType::from_name(dtype).is_some() => {
                let d = DType::from_name(dtype).unwrap_or(DType::Float32);
                return Ok(Obj::Made(Dynamic::from(d)));
            }
            _ => false,
        };
        if !allowed {
            return Err(refused_global(module, name));
        }
        Ok(Obj::Global(module.into(), name.into()))
    }

    fn call(&mut self, callable: Obj, args: Vec<Obj>) -> Result<Obj> {
        let Obj::Global(module, name) = &callable else {
            return Err(weights_only_error(
                "Trying to call reduce for unrecognized function",
            ));
        };
        match (&**module, &**name, args.as_slice()) {
            ("torch._utils", "_rebuild_tensor_v2", [storage, _, _, _, _, ..]) => {
                let s = made::<TypedStorage>(storage)
                    .ok_or_else(|| weights_only_error("_rebuild_tensor_v2 expects a storage"))?;
                self.rebuild(s.storage, s.dtype, &args)
            }
            ("torch._utils", "_rebuild_tensor_v3", [storage, _, _, _, _, _, dtype, ..]) => {
                let dtype = made::<DType>(dtype)
                    .ok_or_else(|| weights_only_error("_rebuild_tensor_v3 expects a dtype"))?;
                let s = made::<TypedStorage>(storage)
                    .ok_or_else(|| weights_only_error("_rebuild_tensor_v3 expects a storage"))?;
                // An untyped record's bytes are swapped by the dtype of its first tensor.
                if self.index.big_endian
                    && let Some(key) = self
                        .storages
                        .iter()
                        .find(|(_, l)| l.storage.is_same(&s.storage))
                        .map(|(k, _)| k.clone())
                {
                    self.storage(&key, swap_unit(dtype))?;
                }
                self.rebuild(s.storage, dtype, &args)
            }
            ("torch._utils", "_rebuild_parameter", [data, requires_grad, ..]) => {
                let t = made::<Tensor>(data)
                    .ok_or_else(|| weights_only_error("_rebuild_parameter expects a tensor"))?;
                if matches!(requires_grad, Obj::Bool(true)) {
                    t.with_grad_mut(|g| g.requires_grad = true);
                }
                Ok(Obj::Made(Dynamic::from(t)))
            }
            ("collections", "OrderedDict" | "Counter", []) => Ok(Obj::Dict(Rc::default())),
            ("collections", "Counter", [Obj::Dict(d)]) => Ok(Obj::Dict(d.clone())),
            ("collections", "OrderedDict", [items]) => {
                let pairs = to_list(items)?
                    .into_iter()
                    .map(|p| match p {
                        Obj::Tuple(kv) if kv.len() == 2 => Ok((kv[0].clone(), kv[1].clone())),
                        _ => Err(weights_only_error("OrderedDict items must be pairs")),
                    })
                    .collect::<Result<Vec<_>>>()?;
                Ok(Obj::Dict(Rc::new(std::cell::RefCell::new(pairs))))
            }
            ("torch", "Size", [sizes]) => Ok(Obj::Made(Dynamic::from(Size(ints(sizes, "size")?)))),
            ("torch", "device", [..]) => Ok(Obj::Made(Dynamic::from(Device::CPU))),
            (_, "complex", [re, im]) => {
                let f = |o: &Obj| match o {
                    Obj::Float(f) => Ok(*f),
                    Obj::Int(i) => Ok(*i as f64),
                    _ => Err(weights_only_error("complex() takes numbers")),
                };
                Ok(Obj::Made(Dynamic::from(PyComplex(
                    num_complex::Complex64::new(f(re)?, f(im)?),
                ))))
            }
            (_, "set" | "frozenset", [items]) => {
                Ok(Obj::Set(Rc::new(std::cell::RefCell::new(to_list(items)?))))
            }
            (_, "set" | "frozenset", []) => Ok(Obj::Set(Rc::default())),
            ("_codecs", "encode", [Obj::Str(s), _]) => {
                let bytes: Option<Vec<u8>> =
                    s.chars().map(|c| u8::try_from(c as u32).ok()).collect();
                let bytes = bytes.ok_or_else(|| weights_only_error("bytes out of latin-1"))?;
                Ok(Obj::Bytes(Rc::new(bytes)))
            }
            (_, "bytearray", [Obj::Bytes(b)]) => Ok(Obj::Bytes(b.clone())),
            _ => Err(weights_only_error(&format!(
                "Trying to call reduce for unrecognized function {module}.{name}"
            ))),
        }
    }

    fn build(&mut self, target: Obj, _state: Obj) -> Result<Obj> {
        // An OrderedDict's attributes (a state dict's `_metadata`) and a parameter's state
        // have no place in a Rhai value: the object itself is what was saved.
        Ok(target)
    }

    fn persistent(&mut self, id: Obj) -> Result<Obj> {
        let Obj::Tuple(parts) = &id else {
            return Err(weights_only_error("persistent id must be a tuple"));
        };
        let [
            Obj::Str(kind),
            class,
            Obj::Str(key),
            Obj::Str(location),
            _numel,
        ] = parts.as_slice()
        else {
            return Err(weights_only_error("unsupported persistent id"));
        };
        if &**kind != "storage" {
            return Err(weights_only_error(&format!(
                "Unknown saved id type: {kind}"
            )));
        }
        if !location.starts_with("cpu") {
            return Err(TorchError::runtime(
                "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.",
            ));
        }
        let dtype = match class {
            Obj::Global(m, n) if &**m == "torch" => LEGACY_CLASSES
                .iter()
                .find(|(c, _)| *c == &**n)
                .map(|(_, d)| *d),
            Obj::Global(m, n) if &**m == "torch.storage" && &**n == "UntypedStorage" => None,
            _ => return Err(weights_only_error("unsupported storage class")),
        };
        let storage = self.storage(key, dtype.map_or(1, swap_unit))?;
        Ok(Obj::Made(Dynamic::from(TypedStorage {
            storage,
            dtype: dtype.unwrap_or(DType::UInt8),
        })))
    }

    fn unsupported(&self, opcode: u8) -> TorchError {
        weights_only_error(&format!("Unsupported operand {opcode}"))
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

fn to_list(o: &Obj) -> Result<Vec<Obj>> {
    match o {
        Obj::List(l) | Obj::Set(l) => Ok(l.borrow().clone()),
        Obj::Tuple(t) => Ok((**t).clone()),
        _ => Err(weights_only_error("expected a list")),
    }
}

/// Values a load may build, at most (memo references can make a small file name one list
/// many times).
const MAX_VALUES: usize = 10_000_000;

/// The Rhai value of what was read.
fn to_value(o: &Obj, budget: &mut usize, depth: usize) -> Result<Dynamic> {
    if depth > 1000 {
        return Err(TorchError::new(
            ErrorKind::Recursion,
            "maximum recursion depth exceeded while loading",
        ));
    }
    *budget = budget.checked_sub(1).ok_or_else(|| {
        TorchError::new(
            ErrorKind::Memory,
            "the file names more values than tensh loads",
        )
    })?;
    let list = |items: &[Obj], budget: &mut usize| -> Result<Dynamic> {
        let mut out = Array::with_capacity(items.len().min(1 << 16));
        for i in items {
            out.push(to_value(i, budget, depth + 1)?);
        }
        Ok(Dynamic::from_array(out))
    };
    Ok(match o {
        Obj::None => Dynamic::UNIT,
        Obj::Bool(b) => Dynamic::from(*b),
        Obj::Int(i) => Dynamic::from(*i),
        Obj::BigInt(_) => {
            return Err(TorchError::new(
                ErrorKind::Overflow,
                "Python int too large to convert to C long",
            ));
        }
        Obj::Float(f) => Dynamic::from(*f),
        Obj::Str(s) => Dynamic::from(s.to_string()),
        Obj::Bytes(b) => Dynamic::from(PyBuffer {
            kind: BufferKind::Bytes,
            storage: Storage::external(b.to_vec()),
        }),
        Obj::List(l) | Obj::Set(l) => list(&l.borrow(), budget)?,
        Obj::Tuple(t) => list(t, budget)?,
        Obj::Dict(d) => {
            let mut m = Map::new();
            for (k, v) in d.borrow().iter() {
                let key = match k {
                    Obj::Str(s) => s.to_string(),
                    Obj::Int(i) => i.to_string(),
                    _ => {
                        return Err(TorchError::type_error(
                            "tensh maps have string keys: this dict has other keys",
                        ));
                    }
                };
                m.insert(key.into(), to_value(v, budget, depth + 1)?);
            }
            Dynamic::from_map(m)
        }
        Obj::Global(m, n) => {
            return Err(weights_only_error(&format!(
                "tensh has no value for the global {m}.{n}"
            )));
        }
        Obj::Made(d) => d.clone(),
    })
}

/// Options of `torch.load`.
#[derive(Debug, Clone, Copy, Default)]
pub struct LoadOptions {
    /// Map the file instead of reading it.
    pub mmap: bool,
}

/// `torch.load(path)`.
pub fn load(path: &str, options: LoadOptions) -> Result<Dynamic> {
    let not_found = |e: std::io::Error| {
        super::read_error(&e, format!("[Errno 2] No such file or directory: '{path}'"))
    };
    let size = std::fs::metadata(path).map_err(not_found)?.len() as usize;
    if size == 0 {
        // PyTorch's reader finds nothing to unpickle and says no more.
        return Err(TorchError::new(ErrorKind::Eof, ""));
    }
    let mut file = std::fs::File::open(path).map_err(not_found)?;
    let mut head = [0u8; 4];
    {
        use std::io::Read;
        let n = file.read(&mut head).map_err(not_found)?;
        if !archive::is_zip(&head[..n]) {
            return Err(legacy_error(&read_start(path)?));
        }
    }
    let (index, source) = if options.mmap {
        let map = crate::core::memory::mapped::from_file(path, false, size)?;
        let index = map.with_bytes(|b| archive::index(std::io::Cursor::new(b), size as u64))?;
        (index, Source::Mapped(map))
    } else {
        let index = archive::index(&mut file, size as u64)?;
        (index, Source::File(file))
    };
    let mut index = index;
    let pickle = std::mem::take(&mut index.pickle);
    let mut resolver = TorchResolver {
        index,
        source,
        storages: HashMap::new(),
    };
    let (obj, _) = loads(&pickle, &mut resolver)?;
    let mut budget = MAX_VALUES;
    to_value(&obj, &mut budget, 0)
}

/// The start of a file that is not an archive (enough for the legacy format's header).
fn read_start(path: &str) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut v = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(1 << 20).read_to_end(&mut v))
        .map_err(|e| TorchError::runtime(crate::core::memory::shm::os_error(&e)))?;
    Ok(v)
}

/// What PyTorch's legacy reader says about a file that is not a zip archive: it unpickles
/// the start, expecting its magic number. tensh reads the same way, so garbage fails as
/// it does in PyTorch; a real legacy file is refused with a clear error.
fn legacy_error(bytes: &[u8]) -> TorchError {
    struct Nothing;
    impl Resolver for Nothing {
        fn global(&mut self, module: &str, name: &str) -> Result<Obj> {
            Err(refused_global(module, name))
        }
        fn call(&mut self, _: Obj, _: Vec<Obj>) -> Result<Obj> {
            Err(weights_only_error(
                "Trying to call reduce for unrecognized function",
            ))
        }
        fn build(&mut self, target: Obj, _: Obj) -> Result<Obj> {
            Ok(target)
        }
        fn persistent(&mut self, _: Obj) -> Result<Obj> {
            Err(weights_only_error("unsupported persistent id"))
        }
        fn unsupported(&self, opcode: u8) -> TorchError {
            weights_only_error(&format!("Unsupported operand {opcode}"))
        }
    }
    match loads(bytes, &mut Nothing) {
        Err(e) => e,
        Ok((Obj::BigInt(magic), _)) if magic.as_slice() == LEGACY_MAGIC => TorchError::new(
            ErrorKind::NotImplemented,
            "this file is in PyTorch's legacy format (torch.save before 1.6), which tensh does not read; save it again with a current PyTorch",
        ),
        Ok(_) => TorchError::runtime("Invalid magic number; corrupt file?"),
    }
}

/// `0x1950a86a20f9469cfc6c`, the legacy format's magic number, as `LONG1` stores it.
const LEGACY_MAGIC: [u8; 10] = [0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19];
