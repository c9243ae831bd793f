//! The legacy typed storages (`tensor.storage()`, `torch::FloatStorage([...])`, and the casts
//! of an untyped storage): a dtype over an untyped storage's bytes. Using them warns once that
//! `TypedStorage` is deprecated, as PyTorch does.

use rhai::{Array, Dynamic, Engine, INT};

use crate::core::checked_scalar::check_fits_through_scalar_tensor;
use crate::core::dtype::DType;
use crate::core::element;
use crate::core::error::TorchError;
use crate::core::memory::storage::Storage;
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::ops::args::Args;
use crate::ops::convert::{scalar_to_dynamic, to_int_list, to_scalar};
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::ops::registration;
use crate::ops::registry::Registry;
use crate::ops::storage::index::{Access, StorageClass, StorageIndex};
pub use crate::ops::storage::typed_value::{LEGACY_CLASSES, TypedStorage};
use crate::print::storage_repr::typed_storage_repr;

/// Bytes of `n` (non-negative) elements of `dtype`: PyTorch's `ValueError` when the count
/// no longer fits in `i64` (it converts `n * itemsize` to a C `long long`).
fn typed_nbytes(n: i64, dtype: DType) -> RhaiResult<usize> {
    let bytes = n
        .checked_mul(dtype.itemsize() as i64)
        .ok_or_else(|| to_rhai(TorchError::value("Overflow when unpacking long long")))?;
    crate::core::memory::alloc::byte_count(bytes).map_err(to_rhai)
}

/// PyTorch's deprecation warning, shown once per session.
pub fn warn_deprecated() {
    crate::ops::warnings::warn_once(
        "typed_storage",
        "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only storage class. This should only matter to you if you are using storages directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()",
    );
}

impl crate::ops::signature::Owner for TypedStorage {
    const OWNER: &'static str = "TypedStorage";
}

impl TypedStorage {
    fn len(&self) -> usize {
        self.storage.nbytes() / self.dtype.itemsize()
    }

    /// Element `i` (negative counts from the end), or PyTorch's IndexError.
    fn get(&self, i: i64) -> RhaiResult<Scalar> {
        let j = StorageIndex::element(i, self.len(), StorageClass::Typed, Access::Read)?;
        let w = self.dtype.itemsize();
        Ok(self
            .storage
            .with_bytes(|b| element::read(self.dtype, &b[j * w..(j + 1) * w])))
    }

    /// Every element, decoded.
    pub fn values(&self) -> Vec<Scalar> {
        let w = self.dtype.itemsize();
        self.storage.with_bytes(|b| {
            b.chunks_exact(w)
                .map(|c| element::read(self.dtype, c))
                .collect()
        })
    }

    /// A new typed storage of `dtype` holding this one's elements converted (one typed copy,
    /// through the checked allocator: a storage too large to convert raises instead of
    /// aborting, as a `Vec` of its decoded values did).
    pub fn cast(&self, dtype: DType) -> RhaiResult<TypedStorage> {
        let n = (self.storage.nbytes() / self.dtype.itemsize()) as i64;
        let whole = Tensor::from_parts(
            self.storage.clone(),
            self.dtype,
            crate::core::layout::Layout::contiguous(vec![n]),
        );
        let converted = crate::core::copy::cast_copy(&whole, dtype).rhai()?;
        Ok(TypedStorage {
            storage: converted.storage(),
            dtype,
        })
    }

    /// A new typed storage of `dtype` holding `values` converted.
    pub fn from_values(values: &[Scalar], dtype: DType) -> RhaiResult<TypedStorage> {
        let w = dtype.itemsize();
        let mut bytes = crate::core::memory::alloc::zeroed_bytes(values.len() * w).rhai()?;
        for (chunk, v) in bytes.chunks_exact_mut(w).zip(values) {
            element::write(dtype, chunk, *v);
        }
        Ok(TypedStorage {
            storage: Storage::from_vec(bytes),
            dtype,
        })
    }
}

/// The cast methods of storages and the dtype each gives.
pub const STORAGE_CASTS: [(&str, DType); 16] = [
    ("bool", DType::Bool),
    ("byte", DType::UInt8),
    ("char", DType::Int8),
    ("short", DType::Int16),
    ("int", DType::Int32),
    ("long", DType::Int64),
    ("half", DType::Float16),
    ("bfloat16", DType::BFloat16),
    ("float", DType::Float32),
    ("double", DType::Float64),
    ("complex_float", DType::Complex64),
    ("complex_double", DType::Complex128),
    ("float8_e4m3fn", DType::Float8E4M3FN),
    ("float8_e4m3fnuz", DType::Float8E4M3FNUZ),
    ("float8_e5m2", DType::Float8E5M2),
    ("float8_e5m2fnuz", DType::Float8E5M2FNUZ),
];

/// `torch::TypedStorage(...)`: a typed storage of the `dtype=` keyword's dtype (the default
/// dtype without it), built as the legacy classes build theirs.
fn new_typed(a: &Args) -> RhaiResult<TypedStorage> {
    if a.pos.len() > 1 {
        return Err(to_rhai(TorchError::runtime(
            "TypedStorage.__init__ received an invalid combination of arguments. Expected one of:\n \
             * (*, torch.device device, torch.dtype dtype)\n \
             * (int size, *, torch.device device, torch.dtype dtype)\n \
             * (Sequence data, *, torch.device device, torch.dtype dtype)\n \
             * (*, UntypedStorage wrap_storage, torch.dtype dtype)\n\
             Too many positional arguments",
        )));
    }
    let dtype = a
        .dtype()?
        .unwrap_or_else(crate::core::defaults::default_dtype);
    let mut kw = a.kw.clone();
    kw.remove("dtype");
    let rest = Args::from_parts(a.pos.clone(), kw, a);
    new_legacy(dtype, &rest)
}

fn new_legacy(dtype: DType, a: &Args) -> RhaiResult<TypedStorage> {
    warn_deprecated();
    let class = class_name(dtype);
    if a.pos.len() > 1 {
        return Err(to_rhai(TorchError::runtime(format!(
            "<class '{class}'>.__new__ received an invalid combination of arguments. Expected one of:\n \
             * no arguments\n * (int size)\n * (Sequence data)\n * (*, UntypedStorage wrap_storage)\n\
             Too many positional arguments"
        ))));
    }
    if let Some(k) = ["wrap_storage", "dtype", "_internal"]
        .into_iter()
        .find(|k| a.kw(k).is_some())
    {
        return Err(to_rhai(TorchError::not_implemented(format!(
            "tensh does not implement the {k}= argument of {class}()"
        ))));
    }
    match a.get(0, "sequence") {
        None => TypedStorage::from_values(&[], dtype),
        Some(v) if v.is::<Array>() => {
            let items = v.clone().cast::<Array>();
            let values: Vec<Scalar> = items
                .iter()
                .map(|x| to_scalar(x, "element"))
                .collect::<RhaiResult<_>>()?;
            TypedStorage::from_values(&values, dtype)
        }
        Some(v) => {
            let n = to_int_list(v, "size")?.first().copied().unwrap_or(0);
            if n < 0 {
                return Err(to_rhai(TorchError::runtime(format!(
                    "Storage size must be non-negative, got {n}"
                ))));
            }
            Ok(TypedStorage {
                storage: Storage::zeroed(typed_nbytes(n, dtype)?).rhai()?,
                dtype,
            })
        }
    }
}

fn class_name(d: DType) -> String {
    LEGACY_CLASSES
        .iter()
        .find(|(_, x)| *x == d)
        .map(|(n, _)| format!("torch.{n}"))
        .unwrap_or_else(|| "torch.storage.TypedStorage".to_string())
}

/// `untyped_storage.<cast>()`: each byte read as `uint8`, converted to `dtype`.
pub fn cast_untyped(s: &Storage, dtype: DType) -> RhaiResult<TypedStorage> {
    warn_deprecated();
    let values: Vec<Scalar> = s
        .to_vec()
        .into_iter()
        .map(|b| Scalar::Int(b as i64))
        .collect();
    TypedStorage::from_values(&values, dtype)
}

/// Registers the type, its methods, the legacy classes and `tensor.storage()`.
pub fn register(r: &mut Registry) {
    let engine: &mut Engine = r.engine;
    engine.register_type_with_name::<TypedStorage>("TypedStorage");
    for name in ["to_string", "to_debug", "print", "debug"] {
        engine.register_fn(name, |t: &mut TypedStorage| -> RhaiResult<String> {
            warn_deprecated();
            crate::ops::limits::check_repr(t.len(), 3)?;
            Ok(typed_storage_repr(&t.values(), &t.dtype.to_string()))
        });
    }
    engine.register_get("dtype", |t: &mut TypedStorage| t.dtype);
    engine.register_get("device", |_: &mut TypedStorage| {
        crate::ops::values::Device::CPU
    });
    engine.register_get("is_cuda", |_: &mut TypedStorage| false);
    engine.register_get("filename", |t: &mut TypedStorage| {
        t.storage.filename().map_or(Dynamic::UNIT, Dynamic::from)
    });
    engine.register_indexer_get(
        |t: &mut TypedStorage, idx: Dynamic| -> RhaiResult<Dynamic> {
            match StorageIndex::read(&idx, StorageClass::Typed)? {
                StorageIndex::At(i) => Ok(scalar_to_dynamic(t.get(i)?)),
                StorageIndex::Slice { .. } => Err(to_rhai(TorchError::runtime(
                    "slices are only supported in UntypedStorage.__getitem__",
                ))),
            }
        },
    );
    engine.register_indexer_set(
        |t: &mut TypedStorage, idx: Dynamic, v: Dynamic| -> RhaiResult<()> {
            let value = to_scalar(&v, "value")?;
            let (first, count) = match StorageIndex::read(&idx, StorageClass::Typed)? {
                StorageIndex::At(i) => (
                    StorageIndex::element(i, t.len(), StorageClass::Typed, Access::Write)?,
                    1,
                ),
                StorageIndex::Slice { start, stop } => StorageIndex::range(start, stop, t.len()),
            };
            // Written through a tensor over the storage, as PyTorch does: its overflow check.
            check_fits_through_scalar_tensor(t.dtype, value).rhai()?;
            let w = t.dtype.itemsize();
            t.storage.with_bytes_mut(|b| {
                for chunk in b[first * w..(first + count) * w].chunks_exact_mut(w) {
                    element::write(t.dtype, chunk, value);
                }
            });
            Ok(())
        },
    );
    let m = |engine: &mut Engine,
             name: &str,
             max: usize,
             f: fn(&TypedStorage, Args) -> RhaiResult<Dynamic>| {
        registration::method::<TypedStorage>(engine, name, max, move |t, a| {
            warn_deprecated();
            f(t, a)
        })
    };
    m(engine, "size", 0, |t, _| Ok(Dynamic::from(t.len() as INT)));
    m(engine, "len", 0, |t, _| Ok(Dynamic::from(t.len() as INT)));
    m(engine, "nbytes", 0, |t, _| {
        Ok(Dynamic::from(t.storage.nbytes() as INT))
    });
    m(engine, "element_size", 0, |t, _| {
        Ok(Dynamic::from(t.dtype.itemsize() as INT))
    });
    m(engine, "data_ptr", 0, |t, _| {
        crate::platform::varies::note();
        Ok(Dynamic::from(t.storage.data_ptr() as INT))
    });
    m(engine, "tolist", 0, |t, _| {
        crate::ops::limits::check_list("tolist()", t.len())?;
        Ok(Dynamic::from(
            t.values()
                .into_iter()
                .map(scalar_to_dynamic)
                .collect::<Array>(),
        ))
    });
    m(engine, "untyped", 0, |t, _| {
        Ok(Dynamic::from(t.storage.clone()))
    });
    m(engine, "type", 0, |t, a| match a.get(0, "dtype") {
        None => Ok(Dynamic::from(class_name(t.dtype))),
        Some(target) => super::type_conversion::convert(&t.storage, target),
    });
    m(engine, "pickle_storage_type", 0, |t, _| {
        // Only dtypes with a legacy class have a name; PyTorch's lookup of the others
        // raises KeyError, whose text Python quotes.
        match LEGACY_CLASSES.iter().find(|(_, x)| *x == t.dtype) {
            Some((name, _)) => Ok(Dynamic::from(name.to_string())),
            None => Err(to_rhai(TorchError::new(
                crate::core::error::ErrorKind::Key,
                format!("'dtype {} is not recognized'", t.dtype),
            ))),
        }
    });
    m(engine, "clone", 0, |t, _| {
        Ok(Dynamic::from(TypedStorage {
            storage: Storage::from_vec(t.storage.to_vec()),
            dtype: t.dtype,
        }))
    });
    m(engine, "fill_", 1, |t, a| {
        let v = to_scalar(a.req(0, "value", "fill_")?, "value")?;
        // PyTorch fills a typed storage through a tensor over it: the same overflow check.
        check_fits_through_scalar_tensor(t.dtype, v).rhai()?;
        let l = crate::core::layout::Layout::contiguous(vec![t.len() as i64]);
        crate::core::copy::fill_layout(&t.storage, t.dtype, &l, v).rhai()?;
        Ok(Dynamic::from(t.clone()))
    });
    m(engine, "resize_", 1, |t, a| {
        let n = a.int(0, "size", "resize_")?;
        if n < 0 {
            return Err(to_rhai(TorchError::runtime(format!(
                "Storage size must be non-negative, got {n}"
            ))));
        }
        t.storage.resize(typed_nbytes(n, t.dtype)?).rhai()?;
        // Python's `TypedStorage.resize_` returns None.
        Ok(Dynamic::UNIT)
    });
    m(
        engine,
        crate::ops::renamed::IS_SHARED_INTERNAL,
        0,
        |t, _| Ok(Dynamic::from(t.storage.is_shared())),
    );
    m(engine, "share_memory_", 0, |t, _| {
        crate::core::memory::mapped::share_memory(&t.storage).rhai()?;
        Ok(Dynamic::from(t.clone()))
    });
    m(engine, "is_pinned", 0, |_, _| Ok(Dynamic::from(false)));
    m(engine, "cpu", 0, |t, _| Ok(Dynamic::from(t.clone())));
    m(engine, "get_device", 0, |_, _| Ok(Dynamic::from(-1 as INT)));
    m(engine, "resizable", 0, |t, _| {
        Ok(Dynamic::from(t.storage.resizable()))
    });
    m(engine, "copy_", 2, |t, a| {
        // The bytes of a typed or untyped source, which must have the same size in bytes.
        let src = a.req(0, "source", "copy_")?;
        let bytes = match src.clone().try_cast::<TypedStorage>() {
            Some(typed) => typed.storage,
            None => src.clone().try_cast::<Storage>().ok_or_else(|| {
                crate::ops::errors::type_error(format!(
                    "copy_(): argument 'src' (position 1) must be torch.Storage, not {}",
                    crate::ops::convert::py_type_name(src)
                ))
            })?,
        };
        if bytes.nbytes() != t.storage.nbytes() {
            return Err(to_rhai(TorchError::runtime(format!(
                "size does not match, self was {} bytes but src was {} bytes",
                t.storage.nbytes(),
                bytes.nbytes()
            ))));
        }
        let copied = bytes.to_vec();
        t.storage.with_bytes_mut(|b| b.copy_from_slice(&copied));
        Ok(Dynamic::from(t.clone()))
    });
    engine.register_get("is_sparse", |_: &mut TypedStorage| false);
    engine.register_get("_untyped_storage", |t: &mut TypedStorage| t.storage.clone());
    for (name, dtype) in STORAGE_CASTS {
        registration::method::<TypedStorage>(engine, name, 0, move |t, _| {
            warn_deprecated();
            Ok(Dynamic::from(t.cast(dtype)?))
        });
        registration::method::<Storage>(engine, name, 0, move |s, _| {
            Ok(Dynamic::from(cast_untyped(s, dtype)?))
        });
    }
    r.method("storage", 0, |x: &Tensor, _| {
        warn_deprecated();
        Ok(Dynamic::from(TypedStorage {
            storage: x.storage(),
            dtype: x.dtype(),
        }))
    });
    for (name, dtype) in LEGACY_CLASSES {
        r.function(name, 1, move |a| Ok(Dynamic::from(new_legacy(dtype, &a)?)));
    }
    // `torch.Storage` is the legacy class of the default dtype.
    r.function("Storage", 1, |a| {
        let dtype = crate::core::defaults::default_dtype();
        Ok(Dynamic::from(new_legacy(dtype, &a)?))
    });
    r.function("TypedStorage", 1, |a| Ok(Dynamic::from(new_typed(&a)?)));
}

/// The sub-module of a typed storage class (`torch::FloatStorage::from_buffer(...)`,
/// `torch::TypedStorage::from_buffer(..., #{dtype: ...})`): `from_buffer` reads as
/// `UntypedStorage::from_buffer` does, with the class's dtype.
pub fn class_module(
    ops: &mut crate::ops::op_table::OpTable,
    class: &'static str,
    dtype: Option<DType>,
) -> rhai::Module {
    let mut m = rhai::Module::new();
    let path = format!("{class}::from_buffer");
    let full = format!("torch::{path}");
    let body = std::rc::Rc::new(move |mut a: crate::ops::args::Args| {
        warn_deprecated();
        let dtype = match dtype {
            Some(d) => {
                if a.kw("dtype").is_some() {
                    return Err(to_rhai(TorchError::runtime(
                        "from_buffer: 'dtype' can only be specified in UntypedStorage.from_buffer and TypedStorage.from_buffer",
                    )));
                }
                d
            }
            None => a
                .dtype()?
                .unwrap_or_else(crate::core::defaults::default_dtype),
        };
        a.kw.insert("dtype".into(), Dynamic::from(dtype));
        let storage = crate::ops::storage::untyped::from_buffer(&a)?.cast::<Storage>();
        Ok(Dynamic::from(TypedStorage { storage, dtype }))
    });
    ops.module_function(&mut m, &full, &path, 5, body);
    m
}
