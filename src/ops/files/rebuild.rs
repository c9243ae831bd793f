//! What the callables a weights-only checkpoint may name make of the arguments a pickle
//! gives them (`REDUCE`, `NEWOBJ`): the tensor and parameter rebuilders, `torch.Size`,
//! `torch.device`, the dict, set, complex and bytes builtins. Every argument is checked as
//! Python and PyTorch check it, with their exception and words: a crafted file gets the
//! error PyTorch gives it, never a tensor PyTorch would refuse.

use std::rc::Rc;

use rhai::Dynamic;

use super::obj::{DictKind, Obj, dict_set, set_of};
use super::refusals::{no_attribute, set_overload_error, unpack, weights_only_error};
use crate::core::dtype::DType;
use crate::core::error::{ErrorKind, Result, TorchError};
use crate::core::layout::Layout;
use crate::core::memory::storage::Storage;
use crate::core::tensor::Tensor;
use crate::ops::storage::typed::{LEGACY_CLASSES, TypedStorage};
use crate::ops::values::{Device, PyComplex, Size};

/// How Python names a callable in its call errors: `set()`, `torch.Size()`.
fn callee(module: &str, name: &str) -> String {
    match module {
        "builtins" | "__builtin__" | "torch._utils" | "collections" | "_codecs" => {
            format!("{name}()")
        }
        _ => format!("{module}.{name}()"),
    }
}

/// Python's check of a call's positional count against `required` and `optional` names.
fn positional(name: &str, args: &[Obj], required: &[&str], optional: usize) -> Result<()> {
    let (n, lo, hi) = (args.len(), required.len(), required.len() + optional);
    if n < lo {
        let missing: Vec<String> = required[n..].iter().map(|m| format!("'{m}'")).collect();
        let list = match missing.as_slice() {
            [one] => one.clone(),
            [a, b] => format!("{a} and {b}"),
            [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
            [] => String::new(),
        };
        let s = if missing.len() == 1 { "" } else { "s" };
        return Err(TorchError::type_error(format!(
            "{name}() missing {} required positional argument{s}: {list}",
            missing.len()
        )));
    }
    if n > hi {
        let takes = if lo == hi {
            format!("{lo} positional argument{}", if lo == 1 { "" } else { "s" })
        } else {
            format!("from {lo} to {hi} positional arguments")
        };
        return Err(TorchError::type_error(format!(
            "{name}() takes {takes} but {n} were given"
        )));
    }
    Ok(())
}

/// What the callables need from the load they run in.
pub trait Loading {
    /// Swaps an untyped record's bytes by `dtype` (its first tensor's), in a big-endian file.
    fn swap_untyped(&mut self, storage: &Storage, dtype: DType) -> Result<()>;
    /// Remembers that `tensor` is a parameter (a `BUILD` on it differs).
    fn mark_parameter(&mut self, tensor: &Tensor);
}

/// The required parameters of `_rebuild_tensor_v3`; `_rebuild_tensor_v2` has the first six.
const REBUILD_TENSOR: [&str; 7] = [
    "storage",
    "storage_offset",
    "size",
    "stride",
    "requires_grad",
    "backward_hooks",
    "dtype",
];

/// `callable(*args)` for an allowed callable.
pub fn call(r: &mut dyn Loading, callable: Obj, args: Obj) -> Result<Obj> {
    let (module, name) = match &callable {
        Obj::Global(m, n) => (m.clone(), n.clone()),
        Obj::Made(d) if d.is::<DType>() => {
            return Err(TorchError::type_error(
                "'torch.dtype' object is not callable",
            ));
        }
        other => {
            return Err(refuse_call(other));
        }
    };
    if module.as_ref() == "torch" && LEGACY_CLASSES.iter().any(|(c, _)| *c == &*name) {
        return Err(TorchError::type_error(
            "'StorageType' object is not callable",
        ));
    }
    let args = args.items().ok_or_else(|| {
        TorchError::type_error(format!(
            "{} argument after * must be an iterable, not {}",
            callee(&module, &name),
            args.type_name()
        ))
    })?;
    match (&*module, &*name) {
        ("torch._utils", "_rebuild_tensor_v2") => {
            positional("_rebuild_tensor_v2", &args, &REBUILD_TENSOR[..6], 1)?;
            let s = storage_of(&args[0])?;
            let dtype = s.dtype;
            rebuild_tensor(s, dtype, &args, args.get(6))
        }
        ("torch._utils", "_rebuild_tensor_v3") => {
            positional("_rebuild_tensor_v3", &args, &REBUILD_TENSOR, 1)?;
            let dtype = match &args[6] {
                Obj::Made(d) if d.is::<DType>() => d.clone().cast::<DType>(),
                other => {
                    return Err(TorchError::type_error(format!(
                        "empty(): argument 'dtype' must be torch.dtype, not {}",
                        other.type_name()
                    )));
                }
            };
            let s = storage_of(&args[0])?;
            // An untyped record's bytes are swapped by the dtype of its first tensor.
            r.swap_untyped(&s.storage, dtype)?;
            rebuild_tensor(s, dtype, &args, args.get(7))
        }
        ("torch._utils", "_rebuild_parameter") => {
            positional(
                "_rebuild_parameter",
                &args,
                &["data", "requires_grad", "backward_hooks"],
                0,
            )?;
            let t = match &args[0] {
                Obj::Made(d) if d.is::<Tensor>() => d.clone().cast::<Tensor>(),
                other => return Err(no_attribute(other, "detach")),
            };
            let Obj::Bool(requires_grad) = args[1] else {
                return Err(TorchError::type_error(format!(
                    "_make_subclass(): argument 'require_grad' (position 3) must be bool, not {}",
                    args[1].type_name()
                )));
            };
            let p = crate::core::tensor::graph::detached(&t);
            set_requires_grad(&p, requires_grad, "Only")?;
            r.mark_parameter(&p);
            Ok(Obj::Made(Dynamic::from(p)))
        }
        ("collections", kind @ ("OrderedDict" | "Counter")) => {
            let kind = if kind == "Counter" {
                DictKind::Counter
            } else {
                DictKind::Ordered
            };
            dict_from(kind, &args)
        }
        ("torch", "Size") => size(&args),
        ("torch", "device") => device(&args),
        (_, "complex") => complex(&args),
        (_, "set") => {
            if args.len() > 1 {
                return Err(TorchError::type_error(format!(
                    "set expected at most 1 argument, got {}",
                    args.len()
                )));
            }
            match args.first() {
                None => Ok(Obj::Set(Rc::default())),
                Some(x) => set_of(x).unwrap_or_else(|| Err(not_iterable(x))),
            }
        }
        (_, "bytearray") => bytearray(&args),
        ("_codecs", "encode") => match args.as_slice() {
            [Obj::Str(s), ..] => {
                let bytes: Option<Vec<u8>> =
                    s.chars().map(|c| u8::try_from(c as u32).ok()).collect();
                let bytes = bytes.ok_or_else(|| {
                    TorchError::new(
                        ErrorKind::UnicodeDecode,
                        "'latin-1' codec can't encode characters: ordinal not in range(256)",
                    )
                })?;
                Ok(Obj::Bytes(Rc::new(bytes)))
            }
            _ => Err(TorchError::type_error(
                "encode() argument 'obj' must be str",
            )),
        },
        ("torch.storage", "UntypedStorage") if args.is_empty() => {
            Ok(Obj::Made(Dynamic::from(Storage::external(Vec::new()))))
        }
        _ => Err(refuse_call(&callable)),
    }
}

/// The refusal of a call to something that is not an allowed function.
fn refuse_call(callable: &Obj) -> TorchError {
    let shown = match callable {
        Obj::Global(m, n) => format!("{m}.{n}"),
        other => other.py_str(),
    };
    weights_only_error(&format!(
        "Trying to call reduce for unrecognized function {shown}"
    ))
}

/// Python's error for a value that does not iterate.
fn not_iterable(x: &Obj) -> TorchError {
    TorchError::type_error(format!("'{}' object is not iterable", x.type_name()))
}

/// `list(x)`, or Python's error for a value that does not iterate.
fn iterate(x: &Obj) -> Result<Vec<Obj>> {
    x.items().ok_or_else(|| not_iterable(x))
}

/// The storage a rebuild function was given, or the error of reading its `dtype`.
fn storage_of(o: &Obj) -> Result<TypedStorage> {
    match o {
        Obj::Made(d) if d.is::<TypedStorage>() => Ok(d.clone().cast::<TypedStorage>()),
        other => Err(no_attribute(other, "dtype")),
    }
}

/// Sets `requires_grad` as a parameter or a tensor does (`capital` starts the message:
/// `Only` for parameters, `only` for tensors, as PyTorch words the two).
pub fn set_requires_grad(t: &Tensor, requires_grad: bool, capital: &str) -> Result<()> {
    if requires_grad {
        let dtype = t.dtype();
        if !(dtype.is_floating_point() || dtype.is_complex()) {
            return Err(TorchError::runtime(format!(
                "{capital} Tensors of floating point and complex dtype can require gradients"
            )));
        }
    }
    t.with_grad_mut(|g| g.requires_grad = requires_grad);
    Ok(())
}

/// `_rebuild_tensor_v2/v3`: `torch.empty(0, dtype).set_(storage, offset, size, stride)`,
/// then `requires_grad`.
fn rebuild_tensor(
    s: TypedStorage,
    dtype: DType,
    args: &[Obj],
    metadata: Option<&Obj>,
) -> Result<Obj> {
    let layout = checked_layout(&args[1], &args[2], &args[3], dtype, &s.storage)?;
    let t = with_metadata(Tensor::from_parts(s.storage, dtype, layout), metadata)?;
    match &args[4] {
        Obj::Bool(b) => set_requires_grad(&t, *b, "only")?,
        _ => return Err(TorchError::runtime("requires_grad must be a bool")),
    }
    Ok(Obj::Made(Dynamic::from(t)))
}

/// A rebuilt tensor with the bits its `metadata` argument sets (PyTorch writes
/// `{'conj': True}` for a conjugate view and `{'neg': True}` for a negative view; an empty or
/// missing dict sets nothing, and other keys are ignored). Applied before `requires_grad`.
fn with_metadata(mut t: Tensor, metadata: Option<&Obj>) -> Result<Tensor> {
    let entries = match metadata {
        None | Some(Obj::None) => return Ok(t),
        Some(Obj::Dict(_, entries)) => entries.borrow().iter().cloned().collect::<Vec<_>>(),
        Some(other) => {
            return Err(TorchError::type_error(format!(
                "metadata must be a dict, not {}",
                other.type_name()
            )));
        }
    };
    for (key, value) in entries {
        let on = matches!(value, Obj::Bool(true));
        match &key {
            Obj::Str(k) if &**k == "conj" && on && t.dtype().is_complex() && !t.is_conj() => {
                t = t.conj_view();
            }
            Obj::Str(k) if &**k == "neg" && on && t.dtype() != DType::Bool => {
                t.set_neg_bit(true);
            }
            Obj::Str(k) if &**k == "neg" && on => {
                // PyTorch loads it, then cannot read it ("neg_cpu" has no bool kernel).
                return Err(TorchError::not_implemented(
                    "\"neg_cpu\" not implemented for 'Bool'",
                ));
            }
            // PyTorch reads only the keys it knows.
            _ => {}
        }
    }
    Ok(t)
}

/// The ints of a size or stride argument (a tuple or list of ints), if it is one.
fn int_list(o: &Obj) -> Option<Vec<i64>> {
    let items = match o {
        Obj::Tuple(t) => (**t).clone(),
        Obj::List(l) => l.borrow().clone(),
        _ => return None,
    };
    items
        .iter()
        .map(|i| match i {
            Obj::Int(i) => Some(*i),
            _ => None,
        })
        .collect()
}

/// The layout `set_(storage, offset, size, stride)` gives, with PyTorch's checks in its
/// order: argument types, equal lengths, the offset, sizes, strides, then the bounds of a
/// storage a checkpoint cannot resize.
pub fn checked_layout(
    offset: &Obj,
    size: &Obj,
    stride: &Obj,
    dtype: DType,
    storage: &Storage,
) -> Result<Layout> {
    let storage_obj = Obj::Made(Dynamic::from(storage.clone()));
    let bad_types = || {
        set_overload_error(&[
            storage_obj.clone(),
            offset.clone(),
            size.clone(),
            stride.clone(),
        ])
    };
    let Obj::Int(offset) = *offset else {
        return Err(bad_types());
    };
    let (Some(sizes), Some(strides)) = (int_list(size), int_list(stride)) else {
        return Err(bad_types());
    };
    if sizes.len() != strides.len() {
        return Err(TorchError::runtime(format!(
            "unequal size length ({}) and stride length ({})",
            sizes.len(),
            strides.len()
        )));
    }
    if offset < 0 {
        return Err(TorchError::runtime(format!(
            "Tensor: invalid storage offset {offset}"
        )));
    }
    if sizes.iter().any(|&s| s < 0) {
        return Err(TorchError::runtime(
            "numel: integer multiplication overflow",
        ));
    }
    let layout = Layout {
        sizes: sizes.into(),
        strides: strides.into(),
        offset,
    }
    .checked(dtype.itemsize())?;
    if layout
        .check_in_bounds(dtype.itemsize(), storage.nbytes())
        .is_err()
    {
        return Err(TorchError::runtime(
            "Trying to resize storage that is not resizable",
        ));
    }
    Ok(layout)
}

/// `OrderedDict(...)` / `Counter(...)`: empty, from a dict, or from `(key, value)` pairs.
fn dict_from(kind: DictKind, args: &[Obj]) -> Result<Obj> {
    let out = Obj::dict(kind);
    let Obj::Dict(_, entries) = &out else {
        return Ok(out);
    };
    match args {
        [] => {}
        [Obj::Dict(_, d)] => {
            for (k, v) in d.borrow().iter() {
                dict_set(entries, k.clone(), v.clone())?;
            }
        }
        [items] if kind == DictKind::Ordered => {
            for pair in iterate(items)? {
                let kv = iterate(&pair)?;
                unpack(&kv, 2)?;
                dict_set(entries, kv[0].clone(), kv[1].clone())?;
            }
        }
        [_] => {
            return Err(TorchError::not_implemented(
                "tensh reads a Counter saved from a dict only",
            ));
        }
        more => {
            return Err(TorchError::type_error(format!(
                "expected at most 1 arguments, got {}",
                more.len()
            )));
        }
    }
    Ok(out)
}

/// `torch.Size(iterable)`.
fn size(args: &[Obj]) -> Result<Obj> {
    let dims = match args {
        [] => Vec::new(),
        [x] => {
            let mut dims = Vec::new();
            for (i, item) in iterate(x)?.iter().enumerate() {
                match item {
                    Obj::Int(v) => dims.push(*v),
                    Obj::Bool(b) => dims.push(*b as i64),
                    Obj::BigInt(_) => {
                        return Err(TorchError::value("Overflow when unpacking long long"));
                    }
                    other => {
                        return Err(TorchError::type_error(format!(
                            "torch.Size() takes an iterable of 'int' (item {i} is '{}')",
                            other.type_name()
                        )));
                    }
                }
            }
            dims
        }
        more => {
            return Err(TorchError::type_error(format!(
                "tuple expected at most 1 argument, got {}",
                more.len()
            )));
        }
    };
    Ok(Obj::Made(Dynamic::from(Size(dims))))
}

/// `torch.device(type)`, `torch.device(type, index)` or `torch.device(index)` (a CUDA one).
fn device(args: &[Obj]) -> Result<Obj> {
    let device = match args {
        [Obj::Str(text)] => crate::ops::placement::parse_device(text)?,
        [Obj::Str(text), Obj::Int(i)] => {
            let mut d = crate::ops::placement::parse_device(text)?;
            d.index = Some(*i);
            d
        }
        [Obj::Int(i)] => Device {
            kind: "cuda",
            index: Some(*i),
        },
        other => {
            let got: Vec<String> = other.iter().map(Obj::type_name).collect();
            return Err(TorchError::type_error(format!(
                "device() received an invalid combination of arguments - got ({}), but expected one of:\n * (torch.device device)\n * (str type, int index = -1)\n",
                got.join(", ")
            )));
        }
    };
    Ok(Obj::Made(Dynamic::from(device)))
}

/// `complex(re, im)` of numbers.
fn complex(args: &[Obj]) -> Result<Obj> {
    let number = |o: &Obj| match o {
        Obj::Float(f) => Ok(*f),
        Obj::Int(i) => Ok(*i as f64),
        Obj::Bool(b) => Ok(*b as i64 as f64),
        other => Err(TorchError::type_error(format!(
            "complex() argument must be a string or a number, not '{}'",
            other.type_name()
        ))),
    };
    let (re, im) = match args {
        [] => (0.0, 0.0),
        [Obj::Str(_), _] => {
            return Err(TorchError::type_error(
                "complex() can't take second arg if first is a string",
            ));
        }
        [re] => (number(re)?, 0.0),
        [re, im] => (number(re)?, number(im)?),
        more => {
            return Err(TorchError::type_error(format!(
                "complex() takes at most 2 arguments ({} given)",
                more.len()
            )));
        }
    };
    Ok(Obj::Made(Dynamic::from(PyComplex(
        num_complex::Complex64::new(re, im),
    ))))
}

/// `bytearray()`, `bytearray(n)` (n zeros), `bytearray(bytes)`, `bytearray(list of ints)`.
fn bytearray(args: &[Obj]) -> Result<Obj> {
    let bytes = match args {
        [] => Vec::new(),
        [Obj::Int(n)] => {
            if *n < 0 {
                return Err(TorchError::value("negative count"));
            }
            let mut v = crate::core::memory::alloc::vec_with_capacity(*n as usize)?;
            v.resize(*n as usize, 0);
            v
        }
        [Obj::Str(_)] => {
            return Err(TorchError::type_error(
                "string argument without an encoding",
            ));
        }
        [Obj::Bytes(b) | Obj::ByteArray(b)] => b.to_vec(),
        [x] => iterate(x)?
            .iter()
            .map(|i| match i {
                Obj::Int(v @ 0..=255) => Ok(*v as u8),
                Obj::Int(_) => Err(TorchError::value("byte must be in range(0, 256)")),
                other => Err(TorchError::type_error(format!(
                    "'{}' object cannot be interpreted as an integer",
                    other.type_name()
                ))),
            })
            .collect::<Result<Vec<u8>>>()?,
        _ => {
            return Err(TorchError::type_error(
                "bytearray() takes at most 3 arguments",
            ));
        }
    };
    Ok(Obj::ByteArray(Rc::new(bytes)))
}

/// The items a `BUILD` state gives `set_(*state)` or a parameter's `__setstate__`, or
/// Python's error for a state that does not iterate.
fn state_items(state: &Obj, callee: &str) -> Result<Vec<Obj>> {
    state.items().ok_or_else(|| {
        TorchError::type_error(format!(
            "{callee} argument after * must be an iterable, not {}",
            state.type_name()
        ))
    })
}

/// `tensor.set_(*state)`: no items empties the tensor; a storage with its layout moves it
/// there; anything else is PyTorch's overload error.
pub fn build_tensor(t: &Tensor, state: &Obj) -> Result<()> {
    let items = state_items(state, "Tensor.set_()")?;
    match items.as_slice() {
        [] => {
            t.replace(
                Storage::external(Vec::new()),
                Layout::contiguous(vec![0i64]),
            );
            Ok(())
        }
        [Obj::Made(s), offset, size, stride] if s.is::<TypedStorage>() => {
            let s = s.clone().cast::<TypedStorage>();
            let layout = checked_layout(offset, size, stride, t.dtype(), &s.storage)?;
            t.replace(s.storage, layout);
            Ok(())
        }
        other => Err(set_overload_error(other)),
    }
}

/// A parameter's `__setstate__`: three items, the second its `requires_grad`.
pub fn build_parameter(t: &Tensor, state: &Obj) -> Result<()> {
    let items = state_items(state, "Parameter.__setstate__()")?;
    unpack(&items, 3)?;
    let Obj::Bool(requires_grad) = items[1] else {
        return Err(TorchError::runtime("requires_grad must be a bool"));
    };
    set_requires_grad(t, requires_grad, "Only")
}
