//! `torch.save(obj, f)`: a script's value as PyTorch's zip checkpoint. Every storage is
//! written once, as one record, however many tensors view it (a one-row slice of a big
//! tensor saves the whole storage, as in PyTorch); tensors refer to it by key with their
//! own offset, sizes and strides, so sharing survives a round trip.

use std::io::BufWriter;

use rhai::{Array, Dynamic, Map};

use super::archive::{self, Payload};
use super::pickle::{Pickled, dumps};
use crate::core::dtype::DType;
use crate::core::error::{ErrorKind, Result, TorchError};
use crate::core::memory::storage::Storage;
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::ops::storage::buffers::{BufferKind, PyBuffer};
use crate::ops::storage::typed::{LEGACY_CLASSES, TypedStorage};
use crate::ops::values::{Device, PyComplex, Size};

/// The storages met so far, in order: each with the dtype it was seen as.
struct Storages {
    seen: Vec<(Storage, DType)>,
}

impl Storages {
    /// The key of `storage` seen as `dtype` (a new key for a storage not seen before), or
    /// PyTorch's error when it was seen as another dtype.
    fn key(&mut self, storage: &Storage, dtype: DType) -> Result<usize> {
        if let Some(i) = self.seen.iter().position(|(s, _)| s.is_same(storage)) {
            if self.seen[i].1 != dtype {
                return Err(TorchError::runtime(
                    "Cannot save multiple tensors or storages that view the same data as different types",
                ));
            }
            return Ok(i);
        }
        self.seen.push((storage.clone(), dtype));
        Ok(self.seen.len() - 1)
    }
}

/// The legacy class of a dtype (`FloatStorage`), if it has one.
fn legacy_class(dtype: DType) -> Option<&'static str> {
    LEGACY_CLASSES
        .iter()
        .find(|(_, d)| *d == dtype)
        .map(|(c, _)| *c)
}

fn global(module: &'static str, name: &str) -> Pickled {
    Pickled::Global(module, name.to_string())
}

/// The persistent id of a storage record: `('storage', class, key, 'cpu', numel)`.
fn storage_id(class: Pickled, key: usize, numel: usize) -> Pickled {
    Pickled::Persistent(Box::new(Pickled::Tuple(vec![
        Pickled::Str("storage".into()),
        class,
        Pickled::Str(key.to_string()),
        Pickled::Str("cpu".into()),
        Pickled::Int(numel as i64),
    ])))
}

fn ints(v: &[i64]) -> Pickled {
    Pickled::Tuple(v.iter().map(|&i| Pickled::Int(i)).collect())
}

/// A tensor as PyTorch pickles it: `_rebuild_tensor_v2` (a dtype with a legacy storage
/// class) or `_rebuild_tensor_v3` (the others, with the dtype) over its storage's record, and
/// for a conjugate view the stored bytes with the metadata `{'conj': True}` after the other
/// arguments, as PyTorch writes one.
fn tensor(t: &Tensor, storages: &mut Storages) -> Result<Pickled> {
    let dtype = t.dtype();
    let storage = t.storage();
    let key = storages.key(&storage, dtype)?;
    let layout = t.layout();
    let hooks = Pickled::Call(Box::new(global("collections", "OrderedDict")), vec![]);
    let numel = storage.nbytes() / dtype.itemsize();
    let mut args = vec![
        Pickled::Int(layout.offset),
        ints(&layout.sizes),
        ints(&layout.strides),
        Pickled::Bool(t.requires_grad()),
        hooks,
    ];
    // PyTorch writes the conjugate and negative bits as `{"conj": True}` / `{"neg": True}`.
    let bit = if t.is_conj() {
        Some("conj")
    } else if t.is_neg() {
        Some("neg")
    } else {
        None
    };
    let metadata = bit.map(|b| Pickled::Dict(vec![(Pickled::Str(b.into()), Pickled::Bool(true))]));
    let call = match legacy_class(dtype) {
        Some(class) => {
            args.insert(0, storage_id(global("torch", class), key, numel));
            args.extend(metadata);
            Pickled::Call(Box::new(global("torch._utils", "_rebuild_tensor_v2")), args)
        }
        None => {
            let class = global("torch.storage", "UntypedStorage");
            args.insert(0, storage_id(class, key, storage.nbytes()));
            args.push(global("torch", dtype.short_name()));
            args.extend(metadata);
            Pickled::Call(Box::new(global("torch._utils", "_rebuild_tensor_v3")), args)
        }
    };
    Ok(call)
}

/// A Python buffer as pickle's protocol 2 writes it: `array.array(typecode, [values])`, and
/// `bytes`/`bytearray` through `_codecs.encode` of their bytes as a latin-1 string.
fn buffer(b: &PyBuffer) -> Pickled {
    let latin1 = || {
        let text: String = b
            .storage
            .to_vec()
            .iter()
            .map(|&byte| char::from(byte))
            .collect();
        Pickled::Call(
            Box::new(global("_codecs", "encode")),
            vec![Pickled::Str(text), Pickled::Str("latin1".into())],
        )
    };
    match b.kind {
        BufferKind::Array(code, _) => {
            let values = b
                .values()
                .into_iter()
                .map(|v| match v {
                    Scalar::Float(f) => Pickled::Float(f),
                    other => Pickled::Int(other.to_i64()),
                })
                .collect();
            Pickled::Call(
                Box::new(global("array", "array")),
                vec![Pickled::Str(code.to_string()), Pickled::List(values)],
            )
        }
        BufferKind::ByteArray => {
            Pickled::Call(Box::new(global("__builtin__", "bytearray")), vec![latin1()])
        }
        BufferKind::Bytes => latin1(),
    }
}

/// The pickled form of `value`, registering the storages it refers to.
fn pickled(value: &Dynamic, storages: &mut Storages, depth: usize) -> Result<Pickled> {
    if depth > 1000 {
        return Err(TorchError::new(
            ErrorKind::Recursion,
            "maximum recursion depth exceeded while pickling an object",
        ));
    }
    if value.is_unit() {
        return Ok(Pickled::None);
    }
    if let Ok(b) = value.as_bool() {
        return Ok(Pickled::Bool(b));
    }
    if let Ok(i) = value.as_int() {
        return Ok(Pickled::Int(i));
    }
    if let Ok(f) = value.as_float() {
        return Ok(Pickled::Float(f));
    }
    if value.is_string() {
        return Ok(Pickled::Str(value.to_string()));
    }
    if let Some(t) = value.read_lock::<Tensor>() {
        return tensor(&t, storages);
    }
    if let Some(s) = value.read_lock::<Storage>() {
        let key = storages.key(&s, DType::UInt8)?;
        return Ok(storage_id(
            global("torch.storage", "UntypedStorage"),
            key,
            s.nbytes(),
        ));
    }
    if let Some(s) = value.read_lock::<TypedStorage>() {
        let class = legacy_class(s.dtype).ok_or_else(|| {
            TorchError::new(
                ErrorKind::NotImplemented,
                format!("tensh cannot save a TypedStorage of {} yet", s.dtype),
            )
        })?;
        let key = storages.key(&s.storage, s.dtype)?;
        let numel = s.storage.nbytes() / s.dtype.itemsize();
        return Ok(storage_id(global("torch", class), key, numel));
    }
    if let Some(size) = value.read_lock::<Size>() {
        return Ok(Pickled::Call(
            Box::new(global("torch", "Size")),
            vec![ints(&size.0)],
        ));
    }
    if let Some(d) = value.read_lock::<DType>() {
        return Ok(global("torch", d.short_name()));
    }
    if let Some(d) = value.read_lock::<Device>() {
        let mut args = vec![Pickled::Str(d.kind.to_string())];
        args.extend(d.index.map(Pickled::Int));
        return Ok(Pickled::Call(Box::new(global("torch", "device")), args));
    }
    if let Some(b) = value.read_lock::<PyBuffer>() {
        return Ok(buffer(&b));
    }
    if let Some(c) = value.read_lock::<PyComplex>() {
        return Ok(Pickled::Call(
            Box::new(global("__builtin__", "complex")),
            vec![Pickled::Float(c.0.re), Pickled::Float(c.0.im)],
        ));
    }
    if let Some(items) = value.read_lock::<Array>() {
        let items: Result<Vec<Pickled>> = items
            .iter()
            .map(|v| pickled(v, storages, depth + 1))
            .collect();
        return Ok(Pickled::List(items?));
    }
    if let Some(map) = value.read_lock::<Map>() {
        let mut entries = Vec::with_capacity(map.len());
        for (k, v) in map.iter() {
            entries.push((
                Pickled::Str(k.to_string()),
                pickled(v, storages, depth + 1)?,
            ));
        }
        return Ok(Pickled::Dict(entries));
    }
    Err(TorchError::type_error(format!(
        "cannot pickle '{}' object",
        crate::ops::convert::py_type_name(value)
    )))
}

/// A number for `.data/serialization_id`: PyTorch writes a random one per file.
fn serialization_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut digits = String::new();
    while digits.len() < 40 {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_usize(digits.len());
        digits.push_str(&format!("{:019}", h.finish() % 10_000_000_000_000_000_000));
    }
    digits.truncate(40);
    digits
}

/// The archive folder PyTorch names after the file: its name without the extension.
fn folder_name(path: &str) -> String {
    let base = std::path::Path::new(path)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "archive".into());
    if base.is_empty() {
        "archive".into()
    } else {
        base
    }
}

/// `torch.save(value, path)`.
pub fn save(value: &Dynamic, path: &str) -> Result<()> {
    let parent = std::path::Path::new(path)
        .parent()
        .filter(|p| !p.as_os_str().is_empty());
    if let Some(dir) = parent
        && !crate::platform::fs::is_dir(dir)
    {
        return Err(TorchError::runtime(format!(
            "Parent directory {} does not exist.",
            dir.display()
        )));
    }
    let records = Records::of(value)?;
    let io_error = |e: std::io::Error| {
        TorchError::runtime(format!(
            "File {path} cannot be opened: {}",
            crate::platform::fs::os_error(&e)
        ))
    };
    let file = crate::platform::fs::create(path).map_err(io_error)?;
    archive::write(BufWriter::new(file), &folder_name(path), &records.list()).map_err(io_error)
}

/// `torch.save(value, f)` for a file object `f`: the archive's bytes (its folder named
/// `archive`, as PyTorch names it when `f` has no file name).
pub fn save_bytes(value: &Dynamic) -> Result<Vec<u8>> {
    let records = Records::of(value)?;
    let mut bytes = std::io::Cursor::new(Vec::new());
    archive::write(&mut bytes, "archive", &records.list())
        .map_err(|e| TorchError::runtime(e.to_string()))?;
    Ok(bytes.into_inner())
}

/// What an archive of `value` holds before it is written: the pickle, the storages met,
/// and the serialization id.
struct Records {
    pickle: Vec<u8>,
    storages: Storages,
    id: String,
}

impl Records {
    fn of(value: &Dynamic) -> Result<Records> {
        let mut storages = Storages { seen: Vec::new() };
        let pickle = dumps(&pickled(value, &mut storages, 0)?);
        Ok(Records {
            pickle,
            storages,
            id: serialization_id(),
        })
    }

    /// The archive's records in PyTorch's order.
    fn list(&self) -> Vec<(String, Payload<'_>)> {
        let mut records: Vec<(String, Payload)> = vec![
            ("data.pkl".into(), Payload::Bytes(&self.pickle)),
            (".format_version".into(), Payload::Bytes(b"1")),
            (".storage_alignment".into(), Payload::Bytes(b"64")),
            ("byteorder".into(), Payload::Bytes(b"little")),
        ];
        for (key, (storage, _)) in self.storages.seen.iter().enumerate() {
            records.push((format!("data/{key}"), Payload::Storage(storage)));
        }
        records.push(("version".into(), Payload::Bytes(b"3\n")));
        records.push((
            ".data/serialization_id".into(),
            Payload::Bytes(self.id.as_bytes()),
        ));
        records
    }
}
