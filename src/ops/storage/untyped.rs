//! `torch.UntypedStorage` in scripts: the constructor, methods, indexing and slicing.

use crate::core::memory::alloc::byte_count;
use std::rc::Rc;

use rhai::{Array, Dynamic, Engine, INT};

use crate::core::copy::fill_layout;
use crate::core::dtype::DType;
use crate::core::error::TorchError;
use crate::core::layout::Layout;
use crate::core::memory::storage::Storage;
use crate::ops::args::Args;
use crate::ops::convert::{py_type_name, to_int, to_int_list};
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai, type_error};
use crate::ops::op_table::OpTable;
use crate::ops::registration;
use crate::ops::registry::Registry;
use crate::ops::storage::index::{Access, StorageClass, StorageIndex};
use crate::print::storage_repr::untyped_storage_repr;

fn new_storage(a: &Args) -> RhaiResult<Storage> {
    match a.get(0, "size") {
        None => Storage::zeroed(0).rhai(),
        Some(v) if v.is::<Array>() => {
            let items = to_int_list(v, "sequence")?;
            Ok(Storage::from_vec(
                items.into_iter().map(|i| i as u8).collect(),
            ))
        }
        Some(v) => {
            let n = to_int(v, "size")?;
            if n < 0 {
                return Err(to_rhai(TorchError::runtime(format!(
                    "[enforce fail at alloc_cpu.cpp:98] ((ptrdiff_t)nbytes) >= 0. alloc_cpu() seems to have been called with negative number: {}",
                    n as u64
                ))));
            }
            Storage::zeroed(byte_count(n).rhai()?).rhai()
        }
    }
}

/// Registers the `UntypedStorage` type, constructor and methods.
pub fn register(r: &mut Registry) {
    let engine: &mut Engine = r.engine;
    engine.register_type_with_name::<Storage>("UntypedStorage");
    for name in ["to_string", "to_debug", "print", "debug"] {
        engine.register_fn(name, |s: &mut Storage| -> RhaiResult<String> {
            // One line per byte, of at least three characters (` 0` and its newline).
            crate::ops::limits::check_repr(s.nbytes(), 3)?;
            Ok(untyped_storage_repr(&s.to_vec()))
        });
    }
    engine.register_indexer_get(|s: &mut Storage, i: INT| -> RhaiResult<INT> {
        let j = StorageIndex::element(i, s.nbytes(), StorageClass::Untyped, Access::Read)?;
        Ok(s.byte(j).unwrap_or(0) as INT)
    });
    engine.register_indexer_get(|s: &mut Storage, idx: Dynamic| -> RhaiResult<Dynamic> {
        match StorageIndex::read(&idx, StorageClass::Untyped)? {
            StorageIndex::At(i) => {
                let j = StorageIndex::element(i, s.nbytes(), StorageClass::Untyped, Access::Read)?;
                Ok(Dynamic::from(s.byte(j).unwrap_or(0) as INT))
            }
            StorageIndex::Slice { start, stop } => {
                let (first, count) = StorageIndex::range(start, stop, s.nbytes());
                Ok(Dynamic::from(s.window(first, count)))
            }
        }
    });
    engine.register_indexer_set(|s: &mut Storage, i: INT, v: Dynamic| -> RhaiResult<()> {
        let j = StorageIndex::element(i, s.nbytes(), StorageClass::Untyped, Access::Write)?;
        let value = to_int(&v, "value")?;
        s.set_byte(j, value as u8);
        Ok(())
    });
    engine.register_indexer_set(
        |s: &mut Storage, idx: Dynamic, v: Dynamic| -> RhaiResult<()> {
            let value = to_int(&v, "value")? as u8;
            match StorageIndex::read(&idx, StorageClass::Untyped)? {
                StorageIndex::At(i) => {
                    let j =
                        StorageIndex::element(i, s.nbytes(), StorageClass::Untyped, Access::Write)?;
                    s.set_byte(j, value);
                }
                StorageIndex::Slice { start, stop } => {
                    let (first, count) = StorageIndex::range(start, stop, s.nbytes());
                    s.with_bytes_mut(|b| b[first..first + count].fill(value));
                }
            }
            Ok(())
        },
    );
    registration::method::<Storage>(engine, "size", 0, |s, _| {
        Ok(Dynamic::from(s.nbytes() as INT))
    });
    registration::method::<Storage>(engine, "nbytes", 0, |s, _| {
        Ok(Dynamic::from(s.nbytes() as INT))
    });
    registration::method::<Storage>(engine, "len", 0, |s, _| {
        Ok(Dynamic::from(s.nbytes() as INT))
    });
    registration::method::<Storage>(engine, "element_size", 0, |_, _| {
        Ok(Dynamic::from(1 as INT))
    });
    registration::method::<Storage>(engine, "data_ptr", 0, |s, _| {
        crate::platform::varies::note();
        Ok(Dynamic::from(s.data_ptr() as INT))
    });
    registration::method::<Storage>(engine, "resizable", 0, |s, _| {
        Ok(Dynamic::from(s.resizable()))
    });
    registration::method::<Storage>(engine, "tolist", 0, |s, _| {
        crate::ops::limits::check_list("tolist()", s.nbytes())?;
        Ok(Dynamic::from(
            s.to_vec()
                .into_iter()
                .map(|b| Dynamic::from(b as INT))
                .collect::<Array>(),
        ))
    });
    registration::method::<Storage>(engine, "clone", 0, |s, _| {
        Ok(Dynamic::from(Storage::from_vec(s.try_to_vec().rhai()?)))
    });
    registration::method::<Storage>(engine, "fill_", 1, |s, a| {
        let v = crate::ops::convert::to_scalar(a.req(0, "value", "fill_")?, "value")?;
        let layout = Layout::contiguous(vec![s.nbytes() as i64]);
        fill_layout(s, DType::UInt8, &layout, v).rhai()?;
        Ok(Dynamic::from(s.clone()))
    });
    registration::method::<Storage>(engine, "copy_", 2, |s, a| {
        let src = a.req(0, "src", "copy_")?;
        let Some(src) = src.clone().try_cast::<Storage>() else {
            return Err(type_error(format!(
                "copy_(): argument 'src' must be UntypedStorage, not {}",
                py_type_name(src)
            )));
        };
        if src.nbytes() != s.nbytes() {
            return Err(to_rhai(TorchError::runtime(format!(
                "size does not match, self was {} bytes but src was {} bytes",
                s.nbytes(),
                src.nbytes()
            ))));
        }
        let bytes = src.copy_bytes().rhai()?;
        s.with_bytes_mut(|b| b.copy_from_slice(&bytes));
        Ok(Dynamic::from(s.clone()))
    });
    registration::method::<Storage>(engine, "resize_", 1, |s, a| {
        let n = a.int(0, "size", "resize_")?;
        if n < 0 {
            return Err(to_rhai(TorchError::runtime(format!(
                "[enforce fail at alloc_cpu.cpp:98] ((ptrdiff_t)nbytes) >= 0. alloc_cpu() seems to have been called with negative number: {}",
                n as u64
            ))));
        }
        s.resize(byte_count(n).rhai()?).rhai()?;
        Ok(Dynamic::from(s.clone()))
    });
    engine.register_get("device", |_: &mut Storage| crate::ops::values::Device::CPU);
    engine.register_get("is_cuda", |_: &mut Storage| false);
    r.function("UntypedStorage", 2, |a| Ok(Dynamic::from(new_storage(&a)?)));
}

/// Registers `from_file`, `byteswap`, sharing and the remaining storage methods.
pub fn register_files_and_sharing(r: &mut Registry) {
    let engine: &mut Engine = r.engine;
    registration::method::<Storage>(engine, "byteswap", 1, |s, a| {
        let d = crate::ops::convert::to_dtype(a.req(0, "dtype", "byteswap")?)?;
        let w = d.itemsize();
        let unit = if d.is_complex() { w / 2 } else { w };
        if s.nbytes() % w != 0 {
            return Err(to_rhai(TorchError::runtime(format!(
                "the length of data is not a multiple of {w}"
            ))));
        }
        s.with_bytes_mut(|b| b.chunks_exact_mut(unit).for_each(|c| c.reverse()));
        Ok(Dynamic::UNIT)
    });
    registration::method::<Storage>(
        engine,
        crate::ops::renamed::IS_SHARED_INTERNAL,
        0,
        |s, _| Ok(Dynamic::from(s.is_shared())),
    );
    registration::method::<Storage>(engine, "share_memory_", 0, |s, _| {
        crate::core::memory::mapped::share_memory(s).rhai()?;
        Ok(Dynamic::from(s.clone()))
    });
    registration::method::<Storage>(engine, "type", 0, |s, a| match a.get(0, "dtype") {
        None => Ok(Dynamic::from("torch.storage.UntypedStorage".to_string())),
        Some(target) => super::type_conversion::convert(s, target),
    });
    registration::method::<Storage>(engine, "is_pinned", 0, |_, _| Ok(Dynamic::from(false)));
    engine.register_get("is_sparse", |_: &mut Storage| false);
    engine.register_get("is_sparse_csr", |_: &mut Storage| false);
    registration::method::<Storage>(engine, "cpu", 0, |s, _| Ok(Dynamic::from(s.clone())));
    registration::method::<Storage>(engine, "untyped", 0, |s, _| Ok(Dynamic::from(s.clone())));
    registration::method::<Storage>(engine, "get_device", 0, |_, _| Ok(Dynamic::UNIT));
    engine.register_get("filename", |s: &mut Storage| {
        s.filename().map_or(Dynamic::UNIT, Dynamic::from)
    });
    r.method(crate::ops::renamed::IS_SHARED_INTERNAL, 0, |x, _| {
        Ok(Dynamic::from(x.storage().is_shared()))
    });
    r.method("share_memory_", 0, |x, _| {
        crate::core::memory::mapped::share_memory(&x.storage()).rhai()?;
        Ok(Dynamic::from(x.clone()))
    });
}

/// The `torch::UntypedStorage` sub-module: `torch::UntypedStorage::from_file(...)`.
pub fn untyped_storage_module(ops: &mut OpTable) -> rhai::Module {
    let mut m = rhai::Module::new();
    let path = "UntypedStorage::from_file";
    let full = "torch::UntypedStorage::from_file";
    ops.module_function(
        &mut m,
        full,
        path,
        3,
        Rc::new(|a| {
            let filename = a.pos.first().or_else(|| a.kw.get("filename"));
            let filename = filename.ok_or_else(|| {
                type_error("from_file() missing required argument 'filename' (pos 1)")
            })?;
            let Some(name) = filename
                .read_lock::<rhai::ImmutableString>()
                .map(|s| s.to_string())
            else {
                let given = match filename.read_lock::<crate::ops::storage::buffers::PyBuffer>() {
                    Some(b) => b.python_type().to_string(),
                    None if filename.is_unit() => "None".to_string(),
                    None => py_type_name(filename),
                };
                return Err(to_rhai(TorchError::type_error(format!(
                    "argument 1 must be str, not {given}"
                ))));
            };
            let shared = a.bool_or(1, "shared", false)?;
            let nbytes = a.int_or(2, "nbytes", 0)?;
            if nbytes < 0 {
                return Err(to_rhai(TorchError::runtime(format!(
                    "nbytes must be non-negative, got {nbytes}"
                ))));
            }
            Ok(Dynamic::from(
                crate::core::memory::mapped::from_file(&name, shared, byte_count(nbytes).rhai()?)
                    .rhai()?,
            ))
        }),
    );
    let path = "UntypedStorage::from_buffer";
    let full = "torch::UntypedStorage::from_buffer";
    ops.module_function(&mut m, full, path, 2, Rc::new(|a| from_buffer(&a)));
    m
}

use crate::ops::placement::NO_NVIDIA_DRIVER;

/// `mps` on storages, `new`, and the tensor's `cuda`/`pin_memory` (tensh runs on the CPU
/// only: each raises what PyTorch raises without the device). The storages' other device
/// methods are in `devices`.
pub fn register_devices(r: &mut Registry) {
    let engine: &mut Engine = r.engine;
    registration::method::<Storage>(engine, "mps", 0, |_, _| {
        Err(to_rhai(TorchError::runtime(
            "torch.UntypedStorage(): Storage device not recognized: mps",
        )))
    });
    registration::method::<Storage>(engine, "new", 0, |_, _| {
        Ok(Dynamic::from(Storage::zeroed(0).rhai()?))
    });
    r.method("cuda", 2, |_, _| {
        Err(to_rhai(TorchError::runtime(NO_NVIDIA_DRIVER)))
    });
    r.method("pin_memory", 1, |_, _| {
        Err(to_rhai(TorchError::runtime(NO_NVIDIA_DRIVER)))
    });
}

/// `torch::UntypedStorage::from_buffer(buffer, #{dtype: ...})`: a resizable copy of the bytes.
pub fn from_buffer(a: &Args) -> RhaiResult<Dynamic> {
    let byte_order = a.get(1, "byte_order");
    if let Some(order) = byte_order
        && !order.is_string()
    {
        return Err(type_error(format!(
            "argument 2 must be str, not {}",
            py_type_name(order)
        )));
    }
    let buf = a.req(0, "buffer", "from_buffer")?;
    let Some(b) = buf
        .clone()
        .try_cast::<crate::ops::storage::buffers::PyBuffer>()
    else {
        return Err(type_error(format!(
            "a bytes-like object is required, not '{}'",
            py_type_name(buf)
        )));
    };
    let bytes = b.storage.to_vec();
    let count = a.get(3, "count").map(|v| to_int(v, "count")).transpose()?;
    let offset = a
        .get(4, "offset")
        .map(|v| to_int(v, "offset"))
        .transpose()?;
    let Some(dtype) = a.get(2, "dtype") else {
        if byte_order.is_some() || count.is_some() || offset.is_some() {
            return Err(to_rhai(TorchError::runtime(
                "argument 'dtype' cannot be None",
            )));
        }
        return Ok(Dynamic::from(Storage::from_vec(bytes)));
    };
    let dtype = crate::ops::convert::to_dtype(dtype)?;
    let read = ReadAs {
        dtype,
        big_endian: byte_order_is_big(byte_order, dtype)?,
        count: count.unwrap_or(-1),
        offset: offset.unwrap_or(0),
    };
    Ok(Dynamic::from(Storage::from_vec(read.bytes_of(&bytes)?)))
}

/// Whether `from_buffer` reads big-endian elements; a dtype wider than a byte needs an order.
fn byte_order_is_big(order: Option<&Dynamic>, dtype: DType) -> RhaiResult<bool> {
    let Some(order) = order else {
        if dtype.itemsize() > 1 {
            return Err(to_rhai(TorchError::runtime(
                "function missing required argument 'byte_order' (pos 2)",
            )));
        }
        return Ok(false);
    };
    match order.clone().into_string().unwrap_or_default().as_str() {
        "big" => Ok(cfg!(target_endian = "little")),
        "little" => Ok(cfg!(target_endian = "big")),
        "native" => Ok(false),
        other => Err(to_rhai(TorchError::value(format!(
            "invalid byte_order '{other}' (expected 'big', 'little', or 'native')"
        )))),
    }
}

/// How `from_buffer` reads a buffer as elements of a dtype.
struct ReadAs {
    dtype: DType,
    /// Whether each element's bytes are swapped (the order differs from this machine's).
    big_endian: bool,
    /// Elements to read; negative: all after `offset`.
    count: i64,
    /// Bytes skipped at the start.
    offset: i64,
}

impl ReadAs {
    /// The storage bytes, with PyTorch's checks and messages.
    fn bytes_of(&self, buf: &[u8]) -> RhaiResult<Vec<u8>> {
        let len = buf.len() as i64;
        let size = self.dtype.itemsize() as i64;
        if self.offset < 0 || self.offset > len {
            return Err(to_rhai(TorchError::value(format!(
                "offset must be non-negative and no greater than buffer length ({}) , but got {len}",
                self.offset
            ))));
        }
        let available = len - self.offset;
        let count = if self.count < 0 {
            if available % size != 0 {
                return Err(to_rhai(TorchError::value(format!(
                    "buffer size ({len}) must be a multiple of element size ({size})"
                ))));
            }
            available / size
        } else {
            if self.count.checked_mul(size).is_none_or(|n| n > available) {
                return Err(to_rhai(TorchError::value(format!(
                    "buffer has only {available} elements after offset {}, but specified a size of {}",
                    self.offset, self.count
                ))));
            }
            self.count
        };
        // In range: 0 <= offset <= len and count * size <= len - offset, checked above.
        let start = self.offset as usize;
        let mut out = buf[start..start + (count * size) as usize].to_vec();
        if self.big_endian {
            // A complex number is two floats, each swapped on its own.
            let part = if self.dtype.is_complex() {
                size / 2
            } else {
                size
            } as usize;
            out.chunks_mut(part.max(1)).for_each(<[u8]>::reverse);
        }
        if self.dtype == DType::Bool {
            out.iter_mut().for_each(|b| *b = u8::from(*b != 0));
        }
        Ok(out)
    }
}
