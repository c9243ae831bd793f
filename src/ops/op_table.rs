//! The op table: every tensor method and `torch` function tensh has, by name, with its
//! forms (a method of tensors, a `torch` function over a tensor, a `torch` function), each
//! checked against its declaration before its body runs. The two fronts call it side by side:
//!
//! - **Rhai** finds an op through the engine, where the table registers it the first time a
//!   program about to run mentions its name (`register_mentioned`: every identifier of the
//!   text, strings included, so `Fn("abs")` is covered). Registering a name with Rhai costs
//!   a few thousand instructions and some heap (each arity is its own function, with its
//!   metadata), and there are over a thousand names, so registering them all at start made
//!   start-up grow with the API. A method named only at run time (a name computed in a
//!   string) is still found: the missing-function hook calls it from here (`call_method`).
//! - **Python** calls an entry directly (`method`, `function`): the same check and body,
//!   with no program, no code text and no engine in between.
//!
//! Invariant: an entry registered with the engine has all its forms registered, in the order
//! they were added, so a later form overrides an earlier one of the same arity exactly as
//! eager registration did; a direct call picks the same form (`OpTable::method_for`).

use std::cell::OnceCell;
use std::collections::HashMap;
use std::rc::Rc;

use rhai::{Dynamic, Engine, Module, Shared};
use smallvec::SmallVec;

use super::args::Args;
use super::convert;
use super::direct::Direct;
use super::errors::RhaiResult;
use super::registration::{self, Function, FunctionBody, Method};
use super::signature;
use crate::core::tensor::Tensor;

/// A tensor op's body: the tensor and the remaining arguments.
pub type TensorOp = std::rc::Rc<TensorOpBody>;

/// Calls the tensor op `op` on `x` with the positionals `args`, for an op composed of
/// others (`torch.nn.functional`, `torch.linalg`): its result, which must be a tensor.
pub fn call_tensor_op(op: &TensorOp, x: &Tensor, args: Vec<Dynamic>) -> RhaiResult<Tensor> {
    op(x, Args::new(args.into()))?
        .try_cast::<Tensor>()
        .ok_or_else(|| {
            super::errors::to_rhai(crate::core::error::TorchError::runtime(
                "expected a tensor result",
            ))
        })
}

/// The function behind a [`TensorOp`].
pub type TensorOpBody = dyn Fn(&Tensor, Args) -> RhaiResult<Dynamic>;

/// One form of an op, and its checked callable, made the first time it is registered or
/// called (most of the thousand forms never are in a session).
#[derive(Clone)]
enum Form {
    /// A tensor method reading at most `max` positionals.
    Method {
        max: usize,
        op: TensorOp,
        checked: OnceCell<Rc<Method<Tensor>>>,
    },
    /// `torch::name(tensor, ...)` over a tensor op.
    TensorFunction {
        max: usize,
        op: TensorOp,
        checked: OnceCell<Rc<Function>>,
    },
    /// A `torch` function.
    Function {
        max: usize,
        body: FunctionBody,
        checked: OnceCell<Rc<Function>>,
    },
}

impl Form {
    /// The checked method of this form, if it is a method (`name`: the op's name).
    fn method(&self, name: &str) -> Option<Rc<Method<Tensor>>> {
        match self {
            Form::Method { max, op, checked } => Some(
                checked
                    // The op is the method's body as it is: no closure around it.
                    .get_or_init(|| Rc::new(Method::new(name, *max, op.clone())))
                    .clone(),
            ),
            _ => None,
        }
    }

    /// The checked `torch` function of this form, if it is one (`name`: the op's name).
    fn function(&self, name: &str) -> Option<Rc<Function>> {
        match self {
            Form::TensorFunction { max, op, checked } => Some(
                checked
                    .get_or_init(|| {
                        Rc::new(Function::new(
                            name,
                            max + 1,
                            tensor_function(name, op.clone()),
                        ))
                    })
                    .clone(),
            ),
            Form::Function { max, body, checked } => Some(
                checked
                    .get_or_init(|| Rc::new(Function::new(name, *max, body.clone())))
                    .clone(),
            ),
            Form::Method { .. } => None,
        }
    }
}

/// One name's forms, and whether the engine has them registered.
struct Entry {
    forms: Forms,
    registered: bool,
}

/// The op table of one engine, and its `torch` module (kept here so that functions can be
/// added to it after it is installed).
#[derive(Default)]
pub struct OpTable {
    entries: HashMap<Box<str>, Entry, Hasher>,
    /// Tensor properties and operators, registered with the engine at once (there are few).
    pub direct: Direct,
    /// How many entries the engine has not registered yet.
    unregistered: usize,
    torch: Option<Shared<Module>>,
    /// Functions of sub-modules and other modules (`torch::UntypedStorage::from_file`,
    /// `safetensors::load_file`), by their full path: few, registered at once.
    paths: HashMap<Box<str>, Rc<Function>, Hasher>,
    /// The functions of `torch.nn.functional`, `torch.autograd`, `torch.special` and
    /// `torch.linalg`: many, registered when a program mentions them.
    submodules: super::submodule_functions::SubmoduleFunctions,
}

/// The forms of one name (most names have one or two).
type Forms = SmallVec<[Form; 2]>;

/// ahash (already Rhai's): a thousand names are added at every start.
type Hasher = ahash::RandomState;

impl OpTable {
    /// Adds the tensor method `name`.
    pub fn method(&mut self, name: &str, max: usize, op: TensorOp) {
        let checked = OnceCell::new();
        self.push(name, Form::Method { max, op, checked });
    }

    /// Adds `torch::name(tensor, ...)` over the tensor op `op`.
    pub fn tensor_function(&mut self, name: &str, max: usize, op: TensorOp) {
        let checked = OnceCell::new();
        self.push(name, Form::TensorFunction { max, op, checked });
    }

    /// Adds the `torch` function `name`.
    pub fn function(&mut self, name: &str, max: usize, body: FunctionBody) {
        let checked = OnceCell::new();
        self.push(name, Form::Function { max, body, checked });
    }

    fn push(&mut self, name: &str, form: Form) {
        // A form added may be the one a call now picks (`method_for`).
        super::generation::bump();
        match self.entries.get_mut(name) {
            Some(entry) => {
                entry.forms.push(form);
                if entry.registered {
                    // Added after the engine took the name: not to be lost.
                    entry.registered = false;
                    self.unregistered += 1;
                }
            }
            None => {
                self.entries.insert(
                    name.into(),
                    Entry {
                        forms: smallvec::smallvec![form],
                        registered: false,
                    },
                );
                self.unregistered += 1;
            }
        }
    }

    /// Adds the function `path` of `module` (`UntypedStorage::from_file`, its declaration's
    /// name under `torch`), registering it with `module` at once and keeping it under
    /// `full` (`torch::UntypedStorage::from_file`) for direct calls.
    pub fn module_function(
        &mut self,
        module: &mut Module,
        full: &str,
        path: &str,
        max: usize,
        body: FunctionBody,
    ) {
        let f = Rc::new(Function::new(path, max, body));
        registration::register_checked_function(module, path, &f);
        self.paths.insert(full.into(), f);
    }

    /// Adds `name` to the `torch` sub-module at `module` (`nn::functional`), registered
    /// with the engine when a program mentions it and callable directly at once
    /// (`torch::nn::functional::name`).
    pub fn submodule_function(&mut self, module: &str, name: &str, max: usize, body: FunctionBody) {
        self.submodules.add(module, name, max, body);
    }

    /// The function of a module other than `torch` itself at `path`
    /// (`torch::UntypedStorage::from_file`, `torch::nn::functional::relu`), if there is one.
    pub fn path_function(&self, path: &str) -> Option<Rc<Function>> {
        self.paths
            .get(path)
            .cloned()
            .or_else(|| self.submodules.function(path))
    }

    /// The constant `torch::name` (or `torch::module::name`) of the installed `torch`
    /// module, if it has one: read from the module, as a program's `torch::float32` is.
    pub fn constant(&self, path: &str) -> Option<Dynamic> {
        let mut parts = path.split("::");
        if parts.next()? != "torch" {
            return None;
        }
        let mut module: &Module = self.torch.as_ref()?;
        let mut name = parts.next()?;
        for next in parts {
            module = module.get_sub_module(name)?;
            name = next;
        }
        module.get_var(name)
    }

    /// Whether the installed `torch` module has a constant or a sub-module `name`.
    pub fn has_torch_member(&self, name: &str) -> bool {
        self.torch
            .as_ref()
            .is_some_and(|m| m.contains_var(name) || m.get_sub_module(name).is_some())
    }

    /// Installs the `torch` module in `engine`, keeping a handle to add functions later.
    pub fn install_torch(&mut self, engine: &mut Engine, mut torch: Module) {
        self.submodules.make_modules(&mut torch);
        torch.build_index();
        let torch: Shared<Module> = torch.into();
        engine.register_static_module("torch", torch.clone());
        self.torch = Some(torch);
    }

    /// The tensor op of the method (or `torch` function over a tensor) `name`, the last one
    /// added: for ops composed of another op's body (`view_copy`).
    pub fn tensor_op(&self, name: &str) -> Option<TensorOp> {
        self.entries
            .get(name)?
            .forms
            .iter()
            .rev()
            .find_map(|f| match f {
                Form::Method { op, .. } | Form::TensorFunction { op, .. } => Some(op.clone()),
                Form::Function { .. } => None,
            })
    }

    /// Whether `name` is in the table and not yet registered with the engine.
    pub fn is_pending(&self, name: &str) -> bool {
        self.entries.get(name).is_some_and(|e| !e.registered)
    }

    /// Whether `name` is an op of the table (registered with the engine or not).
    pub fn contains(&self, name: &str) -> bool {
        self.entries.contains_key(name)
    }

    /// The checked tensor method `name` that the engine would call with `given` arguments
    /// (the keyword map counted as one), if the table has one: the last form added that
    /// takes that many. `None` also when no form takes that many (the engine then answers
    /// with its own error, or a form it registered itself).
    pub fn method_for(&self, name: &str, given: usize) -> Option<Rc<Method<Tensor>>> {
        self.latest(name, Form::method, |m| m.arity() >= given)
    }

    /// The checked tensor method `name` for a direct call with `given` arguments: the one
    /// `method_for` picks, else the last added, whose declaration check answers a call of
    /// more arguments than the engine registers (a direct call has no arity limit:
    /// `view(1, 1, ..., 1)` with twenty sizes).
    pub fn method_for_direct(&self, name: &str, given: usize) -> Option<Rc<Method<Tensor>>> {
        self.method_for(name, given)
            .or_else(|| self.latest(name, Form::method, |_| true))
    }

    /// The checked `torch` function `name` for `given` arguments, as `method_for`.
    pub fn function_for(&self, name: &str, given: usize) -> Option<Rc<Function>> {
        self.latest(name, Form::function, |f| f.arity() >= given)
    }

    /// The checked `torch` function `name` for a direct call, as `method_for_direct`.
    pub fn function_for_direct(&self, name: &str, given: usize) -> Option<Rc<Function>> {
        self.function_for(name, given)
            .or_else(|| self.latest(name, Form::function, |_| true))
    }

    /// The checked callable of the last form of `name` that `of` makes one of (a method, a
    /// function) and that `takes`.
    fn latest<C>(
        &self,
        name: &str,
        of: impl Fn(&Form, &str) -> Option<Rc<C>>,
        takes: impl Fn(&C) -> bool,
    ) -> Option<Rc<C>> {
        let forms = &self.entries.get(name)?.forms;
        forms
            .iter()
            .rev()
            .filter_map(|f| of(f, name))
            .find(|c| takes(c))
    }

    /// Whether the table has a `torch` function `name` (of any arity).
    pub fn has_function(&self, name: &str) -> bool {
        self.entries
            .get(name)
            .is_some_and(|e| e.forms.iter().any(|f| !matches!(f, Form::Method { .. })))
    }

    /// Registers every unregistered name that `text` mentions (as an identifier anywhere,
    /// in strings and comments too: a name registered needlessly costs only time).
    pub fn register_mentioned(&mut self, engine: &mut Engine, text: &str) {
        let submodules = self.submodules.any_unregistered();
        if self.unregistered == 0 && !submodules {
            return;
        }
        let mut found = Vec::new();
        let mut paths = Vec::new();
        for word in identifiers(text) {
            if let Some((name, entry)) = self.entries.get_key_value(word)
                && !entry.registered
                && !found.iter().any(|n| n == name)
            {
                found.push(name.clone());
            }
            if submodules {
                paths.extend(self.submodules.mentioned(word));
            }
        }
        self.register(engine, found);
        self.register_paths(engine, paths);
    }

    /// Registers the sub-modules' functions at `paths` with the installed `torch` module.
    fn register_paths(&mut self, engine: &mut Engine, paths: Vec<Box<str>>) {
        if paths.is_empty() {
            return;
        }
        let submodules = &mut self.submodules;
        let mut registered = false;
        change_torch(&mut self.torch, engine, |torch| {
            registered = submodules.register(torch, &paths);
        });
        if registered {
            super::generation::bump();
        }
    }

    /// Registers every name not yet registered (for completion and help, which list names).
    pub fn register_all(&mut self, engine: &mut Engine) {
        let all: Vec<Box<str>> = self
            .entries
            .iter()
            .filter(|(_, e)| !e.registered)
            .map(|(n, _)| n.clone())
            .collect();
        self.register(engine, all);
        let paths = self.submodules.all_unregistered();
        self.register_paths(engine, paths);
    }

    fn register(&mut self, engine: &mut Engine, names: Vec<Box<str>>) {
        if names.is_empty() {
            return;
        }
        let mut functions = Vec::new();
        for name in names {
            let Some(entry) = self.entries.get_mut(&name) else {
                continue;
            };
            entry.registered = true;
            self.unregistered -= 1;
            for form in &entry.forms {
                match form.method(&name) {
                    Some(m) => registration::register_checked_method(engine, &name, m),
                    None => functions.extend(form.function(&name).map(|f| (name.clone(), f))),
                }
            }
        }
        if !functions.is_empty() {
            self.add_to_torch(engine, functions);
        }
        super::generation::bump();
    }

    /// Adds functions to the installed `torch` module and installs it again (the engine's
    /// handle is dropped first, so the module is changed in place rather than copied).
    fn add_to_torch(&mut self, engine: &mut Engine, functions: Vec<(Box<str>, Rc<Function>)>) {
        change_torch(&mut self.torch, engine, |module| {
            for (name, f) in functions {
                registration::register_checked_function(module, &name, &f);
            }
        });
    }

    /// Calls the tensor method `name` on `args` (the receiver first) without registering
    /// it: for a call by a name the program computed, which `register_mentioned` could not
    /// see. `None` if `name` is no unregistered method of that receiver in the table (Rhai
    /// also calls the missing-function hook after a registered method failed, its
    /// arguments moved out: that call is not to be run again).
    pub fn call_method(
        &self,
        name: &str,
        args: &mut [&mut Dynamic],
    ) -> Option<RhaiResult<Dynamic>> {
        if !self.is_pending(name) {
            return None;
        }
        let (receiver, rest) = args.split_first_mut()?;
        let t = receiver.read_lock::<Tensor>()?.clone();
        let method = self.method_for_direct(name, rest.len())?;
        let given = Args::new(rest.iter().map(|a| (**a).clone()).collect());
        Some(method.call(&t, given))
    }
}

/// The body of `torch::name(input, ...)`: the tensor op called on its first argument (a
/// number too where PyTorch's arithmetic takes one, `torch.add(1, 2)`), checked as a whole
/// against `torch.name`.
///
/// An in-place function (`torch.exp_`, `torch.zero_`) refuses what its method refuses (a
/// leaf that requires grad, ...): the `mutates:` line of its own declaration, or else of
/// the method of the same name.
fn tensor_function(name: &str, op: TensorOp) -> FunctionBody {
    use signature::Owner;
    let numbers_as_input = signature::lookup("torch", name).is_some_and(|d| d.numbers());
    let mutation = signature::lookup("torch", name)
        .and_then(signature::Declaration::mutation)
        .or_else(|| {
            signature::lookup("Tensor", name)
                .filter(|_| name.ends_with('_'))
                .and_then(signature::Declaration::mutation)
        });
    Rc::new(move |mut a: Args| {
        let input = a.take_first("input");
        let t = if numbers_as_input && !input.is::<Tensor>() && !input.is_unit() {
            let s = convert::to_scalar(&input, "input")?;
            let dtype = crate::core::creation::scalar_dtype(s);
            let wrapped =
                crate::core::creation::full(&[], s, dtype).map_err(super::errors::to_rhai)?;
            wrapped.mark_wrapped_number();
            wrapped
        } else {
            convert::to_tensor(&input, "input")?
        };
        match mutation {
            None => op(&t, a),
            Some(m) => t.mutating(m, || op(&t, a)),
        }
    })
}

/// Changes the installed `torch` module `torch` with `change` and installs it again (the
/// engine's handle is dropped first, so the module is changed in place rather than copied).
fn change_torch(
    torch: &mut Option<Shared<Module>>,
    engine: &mut Engine,
    change: impl FnOnce(&mut Module),
) {
    let mut installed = torch.take().unwrap_or_default();
    engine.register_static_module("torch", Shared::new(Module::new()));
    let module = Shared::make_mut(&mut installed);
    change(module);
    module.build_index();
    engine.register_static_module("torch", installed.clone());
    *torch = Some(installed);
}

/// The identifiers of `text` (runs of letters, digits and `_` not starting with a digit).
fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii_alphabetic() || b == b'_' {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                // Both ends are at ASCII bytes, so the slice is on character boundaries.
                return Some(&text[start..i]);
            }
            if b.is_ascii_digit() {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                continue;
            }
            i += 1;
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::identifiers;

    #[test]
    fn identifiers_are_found_anywhere_in_the_text() {
        let words: Vec<&str> =
            identifiers("let y = x.abs_(); torch::log1p(x, 2e5) // Fn(\"cumsum\") é_1 3d")
                .collect();
        assert_eq!(
            words,
            [
                "let", "y", "x", "abs_", "torch", "log1p", "x", "Fn", "cumsum", "_1"
            ]
        );
    }
}
