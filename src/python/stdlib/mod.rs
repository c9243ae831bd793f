//! The standard library modules tensh writes in Python (run by tensh's own interpreter
//! when first imported: `interp::modules`). Each is tensh's own code, written from
//! CPython's documented behaviour.

/// The Python source of the module `name`, if tensh writes it in Python.
pub fn source(name: &str) -> Option<&'static str> {
    Some(match name {
        "functools" => include_str!("functools.py"),
        "itertools" => include_str!("itertools.py"),
        "operator" => include_str!("operator.py"),
        "contextlib" => include_str!("contextlib.py"),
        "typing" => include_str!("typing.py"),
        "abc" => include_str!("abc.py"),
        "dataclasses" => include_str!("dataclasses.py"),
        "collections" => include_str!("collections.py"),
        "copy" => include_str!("copy.py"),
        "random" => include_str!("random.py"),
        "json" => include_str!("json.py"),
        "re" => include_str!("re.py"),
        "enum" => include_str!("enum.py"),
        "tempfile" => include_str!("tempfile.py"),
        "pathlib" => include_str!("pathlib.py"),
        "torch.nn" => include_str!("torch_nn.py"),
        "torch.nn.init" => include_str!("torch_nn_init.py"),
        "torch.optim" => include_str!("torch_optim.py"),
        "torch.testing" => include_str!("torch_testing.py"),
        "_grad_modes" => include_str!("_grad_modes.py"),
        "_sys_info" => include_str!("_sys_info.py"),
        "_warning_message" => include_str!("_warning_message.py"),
        _ => return None,
    })
}

/// The sub-module `name` of the `torch` module at `path` (`torch::nn`, `init`) when tensh
/// writes it in Python: its dotted name (`torch.nn.init`). Asked on every `torch`
/// attribute read, so it compares in place, allocating nothing.
pub fn torch_submodule(path: &str, name: &str) -> Option<&'static str> {
    TORCH_SUBMODULES.iter().copied().find(|dotted| {
        dotted
            .rsplit_once('.')
            .is_some_and(|(parent, last)| last == name && parent.split('.').eq(path.split("::")))
    })
}

/// The `torch` sub-modules written in Python.
const TORCH_SUBMODULES: &[&str] = &["torch.nn", "torch.nn.init", "torch.optim", "torch.testing"];

/// The names of the modules written in Python, for the docs and the tests.
pub const MODULES: &[&str] = &[
    "functools",
    "itertools",
    "operator",
    "contextlib",
    "typing",
    "abc",
    "dataclasses",
    "collections",
    "copy",
    "random",
    "json",
    "re",
    "enum",
    "tempfile",
    "pathlib",
];
