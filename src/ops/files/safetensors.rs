//! The safetensors format (`safetensors.torch.save_file` / `load_file`), through the
//! `safetensors` crate — the same Rust code the Python package wraps, so headers, tensor
//! order, padding and the deserializing errors are the package's own. tensh adds what the
//! package's Python layer does: tensors only, no shared memory, contiguous tensors, and
//! each loaded tensor a window of one private map of the file.
//! Unlike a torch checkpoint it holds no views: every tensor is saved contiguous and whole,
//! and tensors sharing memory are refused, as the Python package refuses them.

use std::borrow::Cow;
use std::collections::HashMap;

use ::safetensors::{Dtype, SafeTensorError, SafeTensors, View};
use rhai::{Dynamic, Map};

use crate::core::dtype::DType;
use crate::core::error::{ErrorKind, Result, TorchError};
use crate::core::layout::Layout;
use crate::core::memory::storage::Storage;
use crate::core::tensor::Tensor;

/// The format's dtypes and tensh's, both ways.
const DTYPES: [(Dtype, DType); 16] = [
    (Dtype::BOOL, DType::Bool),
    (Dtype::U8, DType::UInt8),
    (Dtype::I8, DType::Int8),
    (Dtype::I16, DType::Int16),
    (Dtype::U16, DType::UInt16),
    (Dtype::F16, DType::Float16),
    (Dtype::BF16, DType::BFloat16),
    (Dtype::I32, DType::Int32),
    (Dtype::U32, DType::UInt32),
    (Dtype::F32, DType::Float32),
    (Dtype::C64, DType::Complex64),
    (Dtype::F64, DType::Float64),
    (Dtype::I64, DType::Int64),
    (Dtype::U64, DType::UInt64),
    (Dtype::F8_E4M3, DType::Float8E4M3FN),
    (Dtype::F8_E5M2, DType::Float8E5M2),
];

/// The format's dtype for `dtype`; the package's `KeyError` for a dtype it has no name
/// for (complex128, complex32).
fn format_dtype(dtype: DType) -> Result<Dtype> {
    DTYPES
        .iter()
        .find(|(_, d)| *d == dtype)
        .map(|(f, _)| *f)
        .ok_or_else(|| TorchError::new(ErrorKind::Key, dtype.to_string()))
}

fn safetensor_error(message: impl Into<String>) -> TorchError {
    TorchError::new(ErrorKind::Safetensor, message)
}

/// The package's words for an error of the format: deserializing errors carry its prefix.
fn format_error(e: SafeTensorError, path: &str) -> TorchError {
    match e {
        SafeTensorError::IoError(io) => {
            super::read_error(&io, format!("No such file or directory: {path}"))
        }
        other => safetensor_error(format!("Error while deserializing header: {other}")),
    }
}

/// The names of tensors that share memory as the package finds them: tensors over the same
/// storage (same address and size, not empty), sorted by where their bytes start, and within
/// that, each run of tensors whose bytes begin before the previous tensor's end. Slices of
/// one storage that do not overlap are saved; only overlapping ones are refused.
fn overlapping_groups(entries: &[(String, Tensor)]) -> Result<Vec<Vec<&str>>> {
    let mut by_storage: Vec<((usize, usize), Vec<usize>)> = Vec::new();
    for (i, (_, t)) in entries.iter().enumerate() {
        let storage = t.storage();
        let key = (storage.data_ptr(), storage.nbytes());
        if key.0 == 0 || key.1 == 0 {
            continue;
        }
        match by_storage.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => by_storage.push((key, vec![i])),
        }
    }
    let mut groups = Vec::new();
    for (_, members) in by_storage.into_iter().filter(|(_, m)| m.len() > 1) {
        // Each tensor's bytes: from its first element to the end of its last in memory
        // order (the package flattens it with view(-1) to find the last one).
        let mut areas = Vec::with_capacity(members.len());
        for i in members {
            let (name, t) = &entries[i];
            let itemsize = t.dtype().itemsize();
            let start = t.storage().data_ptr() + t.layout().offset as usize * itemsize;
            let stop = if t.numel() == 0 {
                start
            } else {
                let flat = crate::core::views::view(t, &[-1])?;
                let last = flat.layout().offset + (flat.sizes()[0] - 1) * flat.strides()[0];
                t.storage().data_ptr() + last as usize * itemsize + itemsize
            };
            areas.push((start, stop, name.as_str()));
        }
        areas.sort();
        let mut run = vec![areas[0].2];
        let mut last_stop = areas[0].1;
        for &(start, stop, name) in &areas[1..] {
            if start >= last_stop {
                if run.len() > 1 {
                    groups.push(std::mem::take(&mut run));
                }
                run = vec![name];
            } else {
                run.push(name);
            }
            last_stop = stop;
        }
        if run.len() > 1 {
            run.sort();
            groups.push(run);
        }
    }
    for g in &mut groups {
        g.sort();
    }
    Ok(groups)
}

/// One contiguous tensor as the crate writes it: its bytes, borrowed from its storage.
struct Contiguous<'a> {
    bytes: &'a [u8],
    dtype: Dtype,
    shape: Vec<usize>,
}

impl View for &Contiguous<'_> {
    fn dtype(&self) -> Dtype {
        self.dtype
    }
    fn shape(&self) -> &[usize] {
        &self.shape
    }
    fn data(&self) -> Cow<'_, [u8]> {
        Cow::Borrowed(self.bytes)
    }
    fn data_len(&self) -> usize {
        self.bytes.len()
    }
}

/// `save_file(tensors, path, metadata)`.
pub fn save_file(tensors: &Map, path: &str, metadata: Option<&Map>) -> Result<()> {
    let mut entries: Vec<(String, Tensor)> = Vec::with_capacity(tensors.len());
    for (name, v) in tensors {
        let Some(t) = v.read_lock::<Tensor>().map(|t| t.clone()) else {
            return Err(TorchError::new(
                ErrorKind::Value,
                format!(
                    "Key `{name}` is invalid, expected torch.Tensor but received <class '{}'>",
                    crate::ops::convert::py_type_name(v)
                ),
            ));
        };
        entries.push((name.to_string(), t));
    }
    let groups = overlapping_groups(&entries)?;
    if !groups.is_empty() {
        let sets: Vec<String> = groups
            .iter()
            .map(|g| {
                let names: Vec<String> = g.iter().map(|n| format!("'{n}'")).collect();
                format!("{{{}}}", names.join(", "))
            })
            .collect();
        return Err(TorchError::runtime(format!(
            "\n            Some tensors share memory, this will lead to duplicate memory on disk and potential differences when loading them again: [{}].\n            A potential way to correctly save your model is to use `save_model`.\n            More information at https://huggingface.co/docs/safetensors/torch_shared_tensors\n            ",
            sets.join(", ")
        )));
    }
    for (name, t) in &entries {
        if !t.layout().is_contiguous() {
            return Err(TorchError::new(
                ErrorKind::Value,
                format!(
                    "You are trying to save a non contiguous tensor: `{name}` which is not allowed. It either means you are trying to save tensors which are reference of each other in which case it's recommended to save only the full tensors, and reslice at load time, or simply call `.contiguous()` on your tensor to pack it before saving."
                ),
            ));
        }
    }
    let metadata: Option<HashMap<String, String>> = match metadata {
        None => None,
        Some(meta) => Some(
            meta.iter()
                .map(|(k, v)| match v.read_lock::<rhai::ImmutableString>() {
                    Some(text) => Ok((k.to_string(), text.to_string())),
                    None => Err(TorchError::type_error(format!(
                        "argument 'metadata': '{}' object is not an instance of 'str'",
                        crate::ops::convert::py_type_name(v)
                    ))),
                })
                .collect::<Result<_>>()?,
        ),
    };
    // Each tensor's bytes are one run of its storage's root (checked contiguous above);
    // the roots are borrowed for the length of the write, so nothing is copied.
    let roots: Vec<(Storage, usize)> = entries
        .iter()
        .map(|(_, t)| t.storage().root_and_start())
        .collect();
    let guards: Vec<_> = roots.iter().map(|(s, _)| s.borrow_root_bytes()).collect();
    let views = entries
        .iter()
        .zip(roots.iter().zip(&guards))
        .map(|((name, t), ((_, window_start), bytes))| {
            let dtype = format_dtype(t.dtype())?;
            let shape = t.sizes().iter().map(|&s| s as usize).collect();
            // The tensors here are contiguous, so their window is their bytes; an empty one
            // has none, wherever its offset lies.
            let window = t.layout().byte_window(t.dtype().itemsize());
            let (start, end) = (window_start + window.start, window_start + window.end);
            // Checked layouts keep a tensor inside its storage, and a window inside its
            // root, so the run is in bounds; `get` keeps that a check, not an assumption.
            let bytes = bytes.get(start..end).ok_or_else(|| {
                TorchError::runtime("safetensors: a tensor lies outside its storage")
            })?;
            Ok((
                name.as_str(),
                Contiguous {
                    bytes,
                    dtype,
                    shape,
                },
            ))
        })
        .collect::<Result<Vec<_>>>()?;
    // The crate orders the tensors (largest alignment first, then by name), writes the
    // header padded to 8 bytes, and replaces the file only once it is whole.
    #[cfg(not(target_arch = "wasm32"))]
    return ::safetensors::serialize_to_file(
        views.iter().map(|(n, v)| (*n, v)),
        metadata,
        std::path::Path::new(path),
    )
    .map_err(|e| safetensor_error(format!("Error while serializing: {e}")));
    // The page's files are the platform's (`platform::memfs`): the crate makes the bytes.
    #[cfg(target_arch = "wasm32")]
    {
        let bytes = ::safetensors::serialize(views.iter().map(|(n, v)| (*n, v)), metadata)
            .map_err(|e| safetensor_error(format!("Error while serializing: {e}")))?;
        crate::platform::fs::write(path, bytes)
            .map_err(|e| safetensor_error(format!("Error while serializing: {e}")))
    }
}

/// `load_file(path)`: every tensor of the file, each in its own storage.
pub fn load_file(path: &str) -> Result<Dynamic> {
    let size = crate::platform::fs::len(path)
        .map_err(|e| super::read_error(&e, format!("No such file or directory: {path}")))?
        as usize;
    if size < 8 {
        return Err(safetensor_error(
            "Error while deserializing header: header too small",
        ));
    }
    // As the package does: the file is mapped privately once, and each tensor's storage is
    // its byte range of the map (loading costs O(tensors); writes never reach the file).
    let map = crate::core::memory::mapped::from_file(path, false, size)?;
    let entries = map.with_bytes(|bytes| {
        let (n, metadata) = SafeTensors::read_metadata(bytes).map_err(|e| format_error(e, path))?;
        let data_start = 8 + n;
        metadata
            .tensors()
            .into_iter()
            .map(|(name, info)| {
                let dtype = DTYPES
                    .iter()
                    .find(|(f, _)| *f == info.dtype)
                    .map(|(_, d)| *d)
                    .ok_or_else(|| {
                        TorchError::not_implemented(format!(
                            "tensh has no dtype for the safetensors type {:?} (tensor `{name}`)",
                            info.dtype
                        ))
                    })?;
                let shape = info
                    .shape
                    .iter()
                    .map(|&s| {
                        i64::try_from(s)
                            .map_err(|_| format_error(SafeTensorError::ValidationOverflow, path))
                    })
                    .collect::<Result<Vec<i64>>>()?;
                let (begin, end) = info.data_offsets;
                Ok((name, dtype, shape, data_start + begin, end - begin))
            })
            .collect::<Result<Vec<_>>>()
    })?;
    let mut out = Map::new();
    for (name, dtype, shape, begin, len) in entries {
        let storage = map.window(begin, len);
        let t = Tensor::from_parts(storage, dtype, Layout::contiguous(shape));
        out.insert(name.as_str().into(), Dynamic::from(t));
    }
    Ok(Dynamic::from_map(out))
}
