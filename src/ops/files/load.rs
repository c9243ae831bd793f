//! `torch.load(f)`: PyTorch's zip checkpoints read as `weights_only=True` reads them. Only
//! the globals that mode allows are honoured (tensor and parameter rebuilding, the storage
//! classes, dtypes, `torch.Size`, `OrderedDict`, a few builtins); any other global stops
//! the load with PyTorch's `UnpicklingError` before anything from the file is built or run.
//! Tensors that shared a storage in the file share one storage after loading. With `mmap`,
//! the file is mapped once (privately: writes never reach it) and every storage is a window
//! of the map, so loading costs O(records), not O(bytes).

use std::collections::HashMap;

use rhai::{Array, Dynamic, ImmutableString, Map};

use super::archive;
use super::obj::{HashKey, Obj, drop_deep, hash_key};
use super::refusals::{refused_global, weights_only_error};
use super::unpickle::{Resolver, loads};
use super::weights_only::{Source, TorchResolver};
use crate::core::error::{ErrorKind, Result, TorchError};
use crate::core::memory::storage::Storage;
use crate::ops::storage::buffers::{BufferKind, PyBuffer};

/// Values a load may build, at most: a container named again by a memo reference costs
/// its size again (a Rhai list is a value, so each reference is a copy), while strings and
/// bytes are shared and cost one each.
const MAX_VALUES: usize = 10_000_000;

/// Nesting a load converts, at most (Python's default recursion limit).
const MAX_DEPTH: usize = 1000;

/// Turns what was read into Rhai values: shared strings and bytes stay shared (one
/// conversion per object, by identity), the values' total count stays within a budget.
struct Converter {
    budget: usize,
    strings: HashMap<usize, ImmutableString>,
    buffers: HashMap<usize, Storage>,
}

impl Converter {
    fn spend(&mut self, n: usize) -> Result<()> {
        self.budget = self.budget.checked_sub(n).ok_or_else(|| {
            TorchError::new(
                ErrorKind::Memory,
                "the file names more values than tensh loads",
            )
        })?;
        Ok(())
    }

    fn list(&mut self, items: &[Obj], depth: usize) -> Result<Dynamic> {
        self.spend(items.len())?;
        let mut out = Array::with_capacity(items.len().min(1 << 16));
        for i in items {
            out.push(self.value(i, depth + 1)?);
        }
        Ok(Dynamic::from_array(out))
    }

    /// The Rhai value of `o`, `depth` levels down.
    fn value(&mut self, o: &Obj, depth: usize) -> Result<Dynamic> {
        if depth > MAX_DEPTH {
            return Err(TorchError::new(
                ErrorKind::Recursion,
                "maximum recursion depth exceeded while loading",
            ));
        }
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
            Obj::Str(s) => {
                let key = s.as_ptr() as usize;
                let shared = self
                    .strings
                    .entry(key)
                    .or_insert_with(|| ImmutableString::from(&**s));
                Dynamic::from(shared.clone())
            }
            Obj::Bytes(b) | Obj::ByteArray(b) => {
                let kind = if matches!(o, Obj::Bytes(_)) {
                    BufferKind::Bytes
                } else {
                    BufferKind::ByteArray
                };
                let key = std::rc::Rc::as_ptr(b) as usize;
                let storage = match self.buffers.get(&key) {
                    Some(s) => s.clone(),
                    None => {
                        let s = Storage::external(b.to_vec());
                        self.buffers.insert(key, s.clone());
                        s
                    }
                };
                Dynamic::from(PyBuffer { kind, storage })
            }
            Obj::List(l) | Obj::Set(l) => self.list(&l.borrow(), depth)?,
            Obj::Tuple(t) => self.list(t, depth)?,
            Obj::Dict(_, d) => {
                let d = d.borrow();
                self.spend(d.len())?;
                let mut m = Map::new();
                for (k, v) in d.iter() {
                    m.insert(map_key(k)?.into(), self.value(v, depth + 1)?);
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
}

/// A dict key as a tensh map's string key: a string as itself, any other hashable key as
/// Python's `repr` of it (`1`, `None`, `(1, 2)`), as an int key has always been.
fn map_key(k: &Obj) -> Result<String> {
    fn repr(key: &HashKey, o: &Obj) -> Option<String> {
        Some(match (key, o) {
            (HashKey::Str(s), _) => format!("'{s}'"),
            (_, Obj::Bool(b)) => if *b { "True" } else { "False" }.into(),
            (_, Obj::Float(f)) => crate::print::number::float_repr(*f),
            (HashKey::None, _) => "None".into(),
            (HashKey::Int(i), _) => i.to_string(),
            (HashKey::Tuple(keys), Obj::Tuple(items)) => {
                let parts: Option<Vec<String>> = keys
                    .iter()
                    .zip(items.iter())
                    .map(|(k, o)| repr(k, o))
                    .collect();
                let parts = parts?;
                if parts.len() == 1 {
                    format!("({},)", parts[0])
                } else {
                    format!("({})", parts.join(", "))
                }
            }
            _ => return None,
        })
    }
    let key = hash_key(k)?;
    if let (HashKey::Str(s), Obj::Str(_)) = (&key, k) {
        return Ok(s.to_string());
    }
    repr(&key, k).ok_or_else(|| {
        TorchError::type_error(format!(
            "tensh maps have string keys: this dict has a key of type '{}'",
            k.type_name()
        ))
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
    // PyTorch 2.15 hands a path ending `.safetensors` to the safetensors loader whatever the
    // file holds: a dict of tensors, or the package's errors (its options are ignored).
    if path.ends_with(".safetensors") {
        return super::safetensors::load_file(path);
    }
    let not_found = |e: std::io::Error| {
        super::read_error(&e, format!("[Errno 2] No such file or directory: '{path}'"))
    };
    let size = crate::platform::fs::len(path).map_err(not_found)? as usize;
    if size == 0 {
        // PyTorch's reader finds nothing to unpickle and says no more.
        return Err(TorchError::new(ErrorKind::Eof, ""));
    }
    let mut file = crate::platform::fs::open_read(path).map_err(not_found)?;
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
    unpickled(index, source)
}

/// `torch.load(f)` for a file object `f`: `bytes` is what it holds from its position on.
pub fn load_bytes(bytes: Vec<u8>) -> Result<Dynamic> {
    if bytes.is_empty() {
        return Err(TorchError::new(ErrorKind::Eof, ""));
    }
    if !archive::is_zip(&bytes[..bytes.len().min(4)]) {
        return Err(legacy_error(&bytes[..bytes.len().min(1 << 20)]));
    }
    let size = bytes.len() as u64;
    let index = archive::index(std::io::Cursor::new(&bytes[..]), size)?;
    // The records are read as windows of the bytes, as of a mapped file.
    unpickled(index, Source::Mapped(Storage::from_vec(bytes)))
}

/// The value an archive's pickle describes, its storages read from `source`.
fn unpickled(index: archive::Index, source: Source) -> Result<Dynamic> {
    let mut index = index;
    let pickle = std::mem::take(&mut index.pickle);
    let mut resolver = TorchResolver::new(index, source);
    let (obj, _) = loads(&pickle, &mut resolver)?;
    let mut converter = Converter {
        budget: MAX_VALUES,
        strings: HashMap::new(),
        buffers: HashMap::new(),
    };
    let value = converter.value(&obj, 0);
    drop_deep([obj]);
    value
}

/// The start of a file that is not an archive (enough for the legacy format's header).
fn read_start(path: &str) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut v = Vec::new();
    crate::platform::fs::open_read(path)
        .and_then(|f| f.take(1 << 20).read_to_end(&mut v))
        .map_err(|e| TorchError::runtime(crate::platform::fs::os_error(&e)))?;
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
        fn call(&mut self, callable: Obj, _: Obj) -> Result<Obj> {
            Err(weights_only_error(&format!(
                "Trying to call reduce for unrecognized function {}",
                callable.py_str()
            )))
        }
        fn build(&mut self, target: Obj, _: Obj) -> Result<Obj> {
            Ok(target)
        }
        fn persistent(&mut self, _: Obj) -> Result<Obj> {
            Err(weights_only_error("unsupported persistent id"))
        }
        fn refuse(&self, detail: &str) -> TorchError {
            weights_only_error(detail)
        }
    }
    match loads(bytes, &mut Nothing) {
        Err(e) => e,
        Ok((obj, _)) => {
            let legacy = matches!(&obj, Obj::BigInt(magic) if magic.as_slice() == LEGACY_MAGIC);
            drop_deep([obj]);
            if legacy {
                TorchError::new(
                    ErrorKind::NotImplemented,
                    "this file is in PyTorch's legacy format (torch.save before 1.6), which tensh does not read; save it again with a current PyTorch",
                )
            } else {
                TorchError::runtime("Invalid magic number; corrupt file?")
            }
        }
    }
}

/// `0x1950a86a20f9469cfc6c`, the legacy format's magic number, as `LONG1` stores it.
const LEGACY_MAGIC: [u8; 10] = [0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19];
