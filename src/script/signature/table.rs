//! The declarations: each op's overloads as PyTorch's argument parser prints them (taken
//! from PyTorch's own `TypeError`s through the conformance oracle). A method's function form
//! (`torch::narrow(x, ...)`) takes `Tensor input` first. Ops PyTorch implements without
//! arguments (`Tensor.abs()`) refuse any, in PyTorch's words.

use std::collections::HashMap;

use super::Signature;

/// How an op is declared.
enum Decl {
    /// Overload texts, in PyTorch's order.
    Overloads(&'static [&'static str]),
    /// Overload texts whose `Tensor` parameters also take numbers (arithmetic).
    Arithmetic(&'static [&'static str]),
    /// A method that takes no arguments at all.
    NoArgs,
}

use Decl::{Arithmetic, NoArgs, Overloads};

const MEMORY_FORMAT: &[&str] = &["*, torch.memory_format memory_format = None"];
const REDUCE_TO_DTYPE: &[&str] = &[
    "*, torch.dtype dtype = None",
    "tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None",
];
const EXTREME: &[&str] = &["", "Tensor other", "int dim, bool keepdim = False"];
const ALL_ANY: &[&str] = &[
    "",
    "tuple of ints dim = None, bool keepdim = False",
    "int dim, bool keepdim = False",
];
const ADD_SUB: &[&str] = &["Tensor other, *, Number alpha = 1"];
const TRANSPOSE: &[&str] = &["int dim0, int dim1"];
const MOVEDIM: &[&str] = &[
    "int source, int destination",
    "tuple of ints source, tuple of ints destination",
];
const OTHER: &[&str] = &["Tensor other"];
const DIRECTIONAL_SPLIT: &[&str] = &["int sections", "tuple of ints indices"];

/// Tensor methods, by name.
const METHODS: &[(&str, Decl)] = &[
    (
        "view",
        Overloads(&["torch.dtype dtype", "tuple of ints size"]),
    ),
    ("view_as", Overloads(OTHER)),
    ("reshape", Overloads(&["tuple of ints shape"])),
    ("reshape_as", Overloads(OTHER)),
    (
        "expand",
        Overloads(&["tuple of ints size, *, bool implicit = False"]),
    ),
    ("expand_as", Overloads(OTHER)),
    ("permute", Overloads(&["tuple of ints dims"])),
    ("transpose", Overloads(TRANSPOSE)),
    ("swapdims", Overloads(TRANSPOSE)),
    ("swapaxes", Overloads(&["int axis0, int axis1"])),
    ("movedim", Overloads(MOVEDIM)),
    ("moveaxis", Overloads(MOVEDIM)),
    (
        "narrow",
        Overloads(&[
            "int dim, Tensor start, int length",
            "int dim, int start, int length",
        ]),
    ),
    ("select", Overloads(&["int dim, int index"])),
    ("squeeze", Overloads(&["", "int dim", "tuple of ints dim"])),
    ("unsqueeze", Overloads(&["int dim"])),
    (
        "diagonal",
        Overloads(&["int offset = 0, int dim1 = 0, int dim2 = 1"]),
    ),
    ("unfold", Overloads(&["int dimension, int size, int step"])),
    (
        "as_strided",
        Overloads(&["tuple of ints size, tuple of ints stride, int storage_offset = None"]),
    ),
    (
        "flatten",
        Overloads(&["int start_dim = 0, int end_dim = -1"]),
    ),
    ("unbind", Overloads(&["int dim = 0"])),
    (
        "tensor_split",
        Overloads(&[
            "tuple of ints indices, int dim = 0",
            "Tensor tensor_indices_or_sections, int dim = 0",
            "int sections, int dim = 0",
        ]),
    ),
    ("hsplit", Overloads(DIRECTIONAL_SPLIT)),
    ("vsplit", Overloads(DIRECTIONAL_SPLIT)),
    ("dsplit", Overloads(DIRECTIONAL_SPLIT)),
    ("chunk", Overloads(&["int chunks, int dim = 0"])),
    (
        "split_with_sizes",
        Overloads(&["tuple of ints split_sizes, int dim = 0"]),
    ),
    ("sum", Overloads(REDUCE_TO_DTYPE)),
    ("mean", Overloads(REDUCE_TO_DTYPE)),
    (
        "prod",
        Overloads(&[
            "*, torch.dtype dtype = None",
            "int dim, bool keepdim = False, *, torch.dtype dtype = None",
        ]),
    ),
    ("max", Overloads(EXTREME)),
    ("min", Overloads(EXTREME)),
    (
        "argmax",
        Overloads(&["int dim = None, bool keepdim = False"]),
    ),
    (
        "argmin",
        Overloads(&["int dim = None, bool keepdim = False"]),
    ),
    ("all", Overloads(ALL_ANY)),
    ("any", Overloads(ALL_ANY)),
    ("add", Arithmetic(ADD_SUB)),
    ("sub", Arithmetic(ADD_SUB)),
    ("add_", Arithmetic(ADD_SUB)),
    ("sub_", Arithmetic(ADD_SUB)),
    ("matmul", Overloads(OTHER)),
    ("fill_", Overloads(&["Tensor value", "Number value"])),
    ("clone", Overloads(MEMORY_FORMAT)),
    ("contiguous", Overloads(MEMORY_FORMAT)),
    ("is_contiguous", Overloads(MEMORY_FORMAT)),
    ("size", Overloads(&["int dim = None"])),
    ("stride", Overloads(&["int dim = None"])),
    ("requires_grad_", Overloads(&["bool requires_grad = True"])),
    ("abs", NoArgs),
    ("exp", NoArgs),
    ("item", NoArgs),
    ("tolist", NoArgs),
    ("dim", NoArgs),
    ("numel", NoArgs),
    ("element_size", NoArgs),
    ("storage_offset", NoArgs),
    ("data_ptr", NoArgs),
    ("untyped_storage", NoArgs),
    ("t", NoArgs),
    ("detach", NoArgs),
    ("zero_", NoArgs),
];

/// Whether a call is of the method (`x.narrow(...)`) or of the `torch` function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Form {
    /// `x.name(...)`.
    Method,
    /// `torch::name(x, ...)`.
    Function,
}

fn build(name: &'static str, decl: &Decl, form: Form) -> Signature {
    match (decl, form) {
        (Overloads(texts), Form::Method) => Signature::new(name, texts),
        (Overloads(texts), Form::Function) => {
            let prefixed: Vec<&'static str> = texts
                .iter()
                .map(|t| {
                    let full = if t.is_empty() {
                        "Tensor input".to_string()
                    } else {
                        format!("Tensor input, {t}")
                    };
                    &*Box::leak(full.into_boxed_str())
                })
                .collect();
            Signature::new(name, &prefixed)
        }
        (Arithmetic(texts), form) => build(name, &Overloads(texts), form).numbers_as_tensors(),
        (NoArgs, Form::Method) => Signature::no_args(name),
        (NoArgs, Form::Function) => Signature::new(name, &["Tensor input"]),
    }
}

thread_local! {
    static PARSED: std::cell::RefCell<HashMap<(&'static str, Form), &'static Signature>> =
        std::cell::RefCell::new(HashMap::new());
}

/// The declared signature of `name` in this form, parsed once per thread and kept for the
/// life of the process (registrations hold it).
pub fn lookup(name: &str, form: Form) -> Option<&'static Signature> {
    let (key, decl) = METHODS.iter().find(|(n, _)| *n == name)?;
    Some(PARSED.with(|p| {
        *p.borrow_mut()
            .entry((key, form))
            .or_insert_with(|| Box::leak(Box::new(build(key, decl, form))))
    }))
}

/// Every declared method name.
pub fn declared() -> impl Iterator<Item = &'static str> {
    METHODS.iter().map(|(n, _)| *n)
}
