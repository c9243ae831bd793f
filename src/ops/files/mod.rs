//! Files in PyTorch's own formats: `torch::save` and `torch::load` (the zip checkpoint of
//! `torch.save`, read as `weights_only=True` reads it: no code from a file ever runs).

pub mod archive;
pub mod load;
pub mod obj;
pub mod pickle;
pub mod rebuild;
pub mod refusals;
pub mod safetensors;
pub mod save;
pub mod unpickle;
pub mod weights_only;

use std::rc::Rc;

use rhai::Dynamic;

use super::errors::{IntoRhai, to_rhai};
use super::registry::Registry;
use crate::core::error::TorchError;

/// The error for a file that could not be read: `FileNotFoundError` with `missing` (each
/// reader words it its own way) when it does not exist, else a `RuntimeError`.
fn read_error(e: &std::io::Error, missing: String) -> TorchError {
    if e.kind() == std::io::ErrorKind::NotFound {
        TorchError::new(crate::core::error::ErrorKind::FileNotFound, missing)
    } else {
        TorchError::runtime(crate::platform::fs::os_error(e))
    }
}

/// A path argument: a string (PyTorch also takes `os.PathLike` and open files).
fn path_of(v: &Dynamic, func: &str) -> super::errors::RhaiResult<String> {
    if v.is_string() {
        Ok(v.to_string())
    } else {
        Err(to_rhai(TorchError::type_error(format!(
            "{func}(): tensh takes a file name (str), got {}",
            super::convert::py_type_name(v)
        ))))
    }
}

/// The `safetensors` module: `safetensors::save_file(tensors, path, #{metadata})` and
/// `safetensors::load_file(path)` (the Python package's `safetensors.torch` functions).
pub fn safetensors_module(ops: &mut super::op_table::OpTable) -> rhai::Module {
    let mut m = rhai::Module::new();
    let full = "safetensors::save_file";
    ops.module_function(
        &mut m,
        full,
        "save_file",
        3,
        Rc::new(|a| {
            let tensors = a.req(0, "tensors", "save_file")?;
            let Some(map) = tensors.read_lock::<rhai::Map>() else {
                return Err(to_rhai(TorchError::type_error(format!(
                    "save_file(): tensors must be a map of name to tensor, got {}",
                    super::convert::py_type_name(tensors)
                ))));
            };
            let path = path_of(a.req(1, "filename", "save_file")?, "save_file")?;
            let metadata = a
                .get(2, "metadata")
                .map(|m| m.read_lock::<rhai::Map>().map(|m| m.clone()));
            let metadata = match metadata {
                None => None,
                Some(Some(m)) => Some(m),
                Some(None) => {
                    return Err(to_rhai(TorchError::type_error(
                        "save_file(): metadata must be a map of strings",
                    )));
                }
            };
            safetensors::save_file(&map, &path, metadata.as_ref()).rhai()?;
            Ok(Dynamic::UNIT)
        }),
    );
    let full = "safetensors::load_file";
    ops.module_function(
        &mut m,
        full,
        "load_file",
        2,
        Rc::new(|a| {
            let path = path_of(a.req(0, "filename", "load_file")?, "load_file")?;
            safetensors::load_file(&path).rhai()
        }),
    );
    m
}

/// The bytes of a Python file object (`io.BytesIO`, a file `open()` returned) as
/// `torch.save` and `torch.load` take it for `f`: for `load`, what the file holds from its
/// position on; for `save`, where the archive is written (the front then writes it into the
/// file). Shared, so the front sees what the op wrote.
#[derive(Debug, Clone, Default)]
pub struct FileObject(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

impl FileObject {
    /// A file object's bytes.
    pub fn holding(bytes: Vec<u8>) -> FileObject {
        FileObject(std::rc::Rc::new(std::cell::RefCell::new(bytes)))
    }

    /// The bytes, taken (the object is left empty).
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut self.0.borrow_mut())
    }
}

/// Where `torch.save` writes or `torch.load` reads: a path, or a file object's bytes.
enum Target {
    Path(String),
    Object(FileObject),
}

/// `f` as a path or a file object.
fn target_of(f: &Dynamic, function: &str) -> super::errors::RhaiResult<Target> {
    if let Some(object) = f.read_lock::<FileObject>() {
        return Ok(Target::Object(object.clone()));
    }
    Ok(Target::Path(path_of(f, function)?))
}

/// Registers `torch::save` and `torch::load`.
pub fn register(r: &mut Registry) {
    r.function("save", 2, |a| {
        // `None` is a value to save, so the object is read without `get`'s unit filter.
        let obj = a
            .pos
            .first()
            .or_else(|| a.kw.get("obj"))
            .cloned()
            .ok_or_else(|| {
                to_rhai(TorchError::type_error(
                    "save() missing 2 required positional arguments: 'obj' and 'f'",
                ))
            })?;
        match target_of(a.req(1, "f", "save")?, "save")? {
            Target::Path(path) => save::save(&obj, &path).rhai()?,
            Target::Object(sink) => {
                let bytes = save::save_bytes(&obj).rhai()?;
                *sink.0.borrow_mut() = bytes;
            }
        }
        Ok(Dynamic::UNIT)
    });
    r.function("load", 1, |a| {
        let target = target_of(a.req(0, "f", "load")?, "load")?;
        if !a.bool_or(usize::MAX, "weights_only", true)? {
            return Err(to_rhai(TorchError::new(
                crate::core::error::ErrorKind::NotImplemented,
                "tensh never runs code from a file: torch::load reads what weights_only=True allows, and weights_only=false is refused",
            )));
        }
        if let Some(loc) = a.get(usize::MAX, "map_location")
            && !loc
                .read_lock::<super::values::Device>()
                .map_or(loc.to_string() == "cpu", |d| d.kind == "cpu")
        {
            return Err(to_rhai(TorchError::runtime(format!(
                "tensh has only the CPU: map_location must be \"cpu\", got {loc}"
            ))));
        }
        check_pickle_load_args(&a)?;
        let mmap = a.bool_or(usize::MAX, "mmap", false)?;
        match target {
            Target::Path(path) => load::load(&path, load::LoadOptions { mmap }).rhai(),
            Target::Object(_) if mmap => Err(to_rhai(TorchError::value(
                "f must be a file path in order to use the mmap argument",
            ))),
            Target::Object(object) => load::load_bytes(object.take()).rhai(),
        }
    });
}

/// `torch.load`'s `**pickle_load_args`: with `weights_only`, PyTorch warns that they only
/// work without it, then hands them to its restricted unpickler, which takes `encoding`
/// alone (and tensh's reader has no use for it: its strings are UTF-8 or bytes).
fn check_pickle_load_args(a: &crate::ops::args::Args) -> super::errors::RhaiResult<()> {
    const LOAD_PARAMS: [&str; 5] = ["f", "map_location", "pickle_module", "weights_only", "mmap"];
    let mut extra =
        a.kw.keys()
            .filter(|k| !LOAD_PARAMS.contains(&k.as_str()))
            .peekable();
    if extra.peek().is_none() {
        return Ok(());
    }
    crate::ops::warnings::warn_once(
        "pickle_load_args",
        "pickle_load_args only works if `weights_only=False`.",
    );
    match extra.find(|k| k.as_str() != "encoding") {
        Some(k) => Err(crate::ops::errors::type_error(format!(
            "Unpickler.__init__() got an unexpected keyword argument '{k}'"
        ))),
        None => Ok(()),
    }
}
