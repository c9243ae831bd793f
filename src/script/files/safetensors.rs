//! The safetensors format (`safetensors.torch.save_file` / `load_file`): an 8-byte
//! little-endian header length, a JSON header naming each tensor's dtype, shape and byte
//! range (padded with spaces to 8 bytes), then the tensors' bytes, largest alignment first.
//! Unlike a torch checkpoint it holds no views: every tensor is saved contiguous and whole,
//! and tensors sharing memory are refused, as the Python package refuses them.

use std::io::Write;

use rhai::{Dynamic, Map};

use crate::core::dtype::DType;
use crate::core::error::{ErrorKind, Result, TorchError};
use crate::core::layout::Layout;
use crate::core::tensor::Tensor;

/// The format's name for each dtype it stores.
const DTYPES: [(&str, DType); 17] = [
    ("BOOL", DType::Bool),
    ("U8", DType::UInt8),
    ("I8", DType::Int8),
    ("I16", DType::Int16),
    ("U16", DType::UInt16),
    ("F16", DType::Float16),
    ("BF16", DType::BFloat16),
    ("I32", DType::Int32),
    ("U32", DType::UInt32),
    ("F32", DType::Float32),
    ("C64", DType::Complex64),
    ("F64", DType::Float64),
    ("I64", DType::Int64),
    ("U64", DType::UInt64),
    ("F8_E4M3", DType::Float8E4M3FN),
    ("F8_E5M2", DType::Float8E5M2),
    ("C128", DType::Complex128),
];

fn format_name(dtype: DType) -> Result<&'static str> {
    DTYPES
        .iter()
        .find(|(_, d)| *d == dtype)
        .map(|(n, _)| *n)
        .ok_or_else(|| {
            TorchError::new(
                ErrorKind::Value,
                format!("safetensors does not store {dtype}"),
            )
        })
}

fn safetensor_error(message: impl Into<String>) -> TorchError {
    TorchError::new(ErrorKind::Safetensor, message)
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
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
                    crate::script::convert::py_type_name(v)
                ),
            ));
        };
        entries.push((name.to_string(), t));
    }
    // Tensors sharing memory: the package names each group.
    let mut groups: Vec<Vec<&str>> = Vec::new();
    for (i, (name, t)) in entries.iter().enumerate() {
        if t.numel() == 0 {
            continue;
        }
        let shares = entries[..i]
            .iter()
            .find(|(_, u)| u.numel() > 0 && u.storage().shares_memory(&t.storage()));
        if let Some((first, _)) = shares {
            if let Some(g) = groups.iter_mut().find(|g| g.contains(&first.as_str())) {
                g.push(name);
            } else {
                groups.push(vec![first, name]);
            }
        }
    }
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
    // Largest alignment first, then by name: the package's order.
    entries.sort_by(|(a, x), (b, y)| {
        y.dtype()
            .itemsize()
            .cmp(&x.dtype().itemsize())
            .then_with(|| a.cmp(b))
    });
    let mut header = String::from("{");
    if let Some(meta) = metadata {
        let items: Vec<String> = meta
            .iter()
            .map(|(k, v)| format!("{}:{}", json_string(k), json_string(&v.to_string())))
            .collect();
        header.push_str(&format!("\"__metadata__\":{{{}}}", items.join(",")));
    }
    let mut offset = 0usize;
    for (name, t) in &entries {
        let begin = offset;
        offset += t.numel() as usize * t.dtype().itemsize();
        let shape: Vec<String> = t.sizes().iter().map(|s| s.to_string()).collect();
        if header.len() > 1 {
            header.push(',');
        }
        header.push_str(&format!(
            "{}:{{\"dtype\":\"{}\",\"shape\":[{}],\"data_offsets\":[{},{}]}}",
            json_string(name),
            format_name(t.dtype())?,
            shape.join(","),
            begin,
            offset
        ));
    }
    header.push('}');
    while header.len() % 8 != 0 {
        header.push(' ');
    }
    let io_error = |e: std::io::Error| {
        TorchError::runtime(format!(
            "cannot write {path}: {}",
            crate::core::memory::shm::os_error(&e)
        ))
    };
    let file = std::fs::File::create(path).map_err(io_error)?;
    let mut out = std::io::BufWriter::new(file);
    out.write_all(&(header.len() as u64).to_le_bytes())
        .and_then(|_| out.write_all(header.as_bytes()))
        .map_err(io_error)?;
    // Each tensor is contiguous (checked above): its bytes are one run of its storage,
    // written from the storage itself.
    for (_, t) in &entries {
        let itemsize = t.dtype().itemsize();
        let start = t.layout().offset as usize * itemsize;
        let len = t.numel() as usize * itemsize;
        t.storage()
            .with_bytes(|b| match b.get(start..start + len) {
                Some(run) => out.write_all(run),
                None => Err(std::io::Error::other("tensor outside its storage")),
            })
            .map_err(io_error)?;
    }
    out.flush().map_err(io_error)
}

/// `load_file(path)`: every tensor of the file, each in its own storage.
pub fn load_file(path: &str) -> Result<Dynamic> {
    let size = std::fs::metadata(path)
        .map_err(|e| super::read_error(&e, format!("No such file or directory: {path}")))?
        .len() as usize;
    if size < 8 {
        return Err(safetensor_error(
            "Error while deserializing header: header too small",
        ));
    }
    // As the package does: the file is mapped privately once, and each tensor's storage is
    // its byte range of the map (loading costs O(tensors); writes never reach the file).
    let map = crate::core::memory::mapped::from_file(path, false, size)?;
    let (entries, data_start) = map.with_bytes(read_header)?;
    let mut out = Map::new();
    for (name, dtype, shape, begin, end) in entries {
        let storage = map.window(data_start + begin, end - begin);
        let t = Tensor::from_parts(storage, dtype, Layout::contiguous(shape));
        out.insert(name.as_str().into(), Dynamic::from(t));
    }
    Ok(Dynamic::from_map(out))
}

/// One tensor of a file: name, dtype, shape, and its byte range within the data.
type Entry = (String, DType, Vec<i64>, usize, usize);

/// The tensors a file's header describes (checked against the file's size), and where the
/// data begins.
fn read_header(bytes: &[u8]) -> Result<(Vec<Entry>, usize)> {
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap_or_default());
    let header_end = usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_add(8))
        .filter(|&end| end <= bytes.len())
        .ok_or_else(|| {
            safetensor_error("Error while deserializing header: invalid header length")
        })?;
    let header: serde_json::Value = serde_json::from_slice(&bytes[8..header_end])
        .map_err(|e| safetensor_error(format!("Error while deserializing header: {e}")))?;
    let serde_json::Value::Object(fields) = header else {
        return Err(safetensor_error(
            "Error while deserializing header: header is not a JSON object",
        ));
    };
    let data_len = bytes.len() - header_end;
    let mut entries = Vec::with_capacity(fields.len());
    for (name, info) in &fields {
        if name == "__metadata__" {
            continue;
        }
        let bad = || {
            safetensor_error(format!(
                "Error while deserializing header: invalid entry for `{name}`"
            ))
        };
        let dtype_name = info.get("dtype").and_then(|d| d.as_str()).ok_or_else(bad)?;
        let dtype = DTYPES
            .iter()
            .find(|(n, _)| *n == dtype_name)
            .map(|(_, d)| *d)
            .ok_or_else(|| {
                safetensor_error(format!(
                    "Error while deserializing header: unknown dtype {dtype_name}"
                ))
            })?;
        let shape: Vec<i64> = info
            .get("shape")
            .and_then(|s| s.as_array())
            .ok_or_else(bad)?
            .iter()
            .map(|v| v.as_i64().filter(|&s| s >= 0).ok_or_else(bad))
            .collect::<Result<_>>()?;
        let offsets: Vec<usize> = info
            .get("data_offsets")
            .and_then(|s| s.as_array())
            .ok_or_else(bad)?
            .iter()
            .map(|v| {
                v.as_u64()
                    .and_then(|o| usize::try_from(o).ok())
                    .ok_or_else(bad)
            })
            .collect::<Result<_>>()?;
        let [begin, end] = offsets[..] else {
            return Err(bad());
        };
        let nbytes = crate::core::memory::alloc::contiguous_nbytes(&shape, dtype.itemsize())?;
        if begin > end || end > data_len || end - begin != nbytes {
            return Err(safetensor_error(format!(
                "Error while deserializing header: invalid offset for tensor `{name}`"
            )));
        }
        entries.push((name.clone(), dtype, shape, begin, end));
    }
    Ok((entries, header_end))
}
