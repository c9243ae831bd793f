//! Registrations held back until a program names them.
//!
//! Registering a name with Rhai costs a few thousand instructions and some heap (each arity
//! is its own function, with its metadata), and tensh has over a thousand tensor methods and
//! `torch` functions: registering them all made start-up grow with the API. So the tensor
//! methods and `torch` functions (everything `Registry` adds) wait here, keyed by name, and
//! a session registers a name the first time a program it is about to run mentions it
//! (`register_mentioned`: every identifier of the text, strings included, so `Fn("abs")`
//! is covered). A method named only at run time (a name computed in a string) is still
//! found: the missing-function hook calls it from here (`call_method`), more slowly.
//!
//! Invariant: a name is either still pending here or fully registered (all its forms, in
//! the order they were added, so a later form overrides an earlier one exactly as eager
//! registration did).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use rhai::{Dynamic, Engine, Module, Shared};
use smallvec::SmallVec;

use super::args::Args;
use super::convert;
use super::errors::RhaiResult;
use super::registration::{self, FunctionBody};
use super::signature;
use crate::core::tensor::Tensor;

/// A tensor op's body: the tensor and the remaining arguments.
pub type TensorOp = std::rc::Rc<TensorOpBody>;

/// The function behind a [`TensorOp`].
pub type TensorOpBody = dyn Fn(&Tensor, Args) -> RhaiResult<Dynamic>;

/// One held-back registration.
enum Pending {
    /// A tensor method reading at most `max` positionals.
    Method { max: usize, op: TensorOp },
    /// `torch::name(tensor, ...)` over a tensor op.
    TensorFunction { max: usize, op: TensorOp },
    /// A `torch` function.
    Function { max: usize, body: FunctionBody },
}

/// Counts every change to what any engine of this process has registered (a new engine, a
/// name registered late), so caches of an engine's registrations (`missing`,
/// `rhai_errors`) know when to look again.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// The current registration generation (see `GENERATION`).
pub fn generation() -> u64 {
    GENERATION.load(Ordering::Relaxed)
}

/// Which engine, at which registration generation: a cache of what an engine has registered
/// holds while its stamp stays the same.
pub type Stamp = (usize, u64);

/// The stamp of `engine` now.
pub fn stamp(engine: &Engine) -> Stamp {
    (engine as *const Engine as usize, generation())
}

/// Marks a change to some engine's registrations.
pub fn bump_generation() {
    GENERATION.fetch_add(1, Ordering::Relaxed);
}

/// The held-back registrations of one engine, and its `torch` module (kept here so that
/// functions can be added to it after it is installed).
#[derive(Default)]
pub struct Deferred {
    pending: HashMap<Box<str>, Forms, Hasher>,
    torch: Option<Shared<Module>>,
}

/// The forms held back under one name (most names have one or two).
type Forms = SmallVec<[Pending; 2]>;

/// ahash (already Rhai's): a thousand names are added at every start.
type Hasher = ahash::RandomState;

impl Deferred {
    /// Holds back the tensor method `name`.
    pub fn method(&mut self, name: &str, max: usize, op: TensorOp) {
        self.push(name, Pending::Method { max, op });
    }

    /// Holds back `torch::name(tensor, ...)` over the tensor op `op`.
    pub fn tensor_function(&mut self, name: &str, max: usize, op: TensorOp) {
        self.push(name, Pending::TensorFunction { max, op });
    }

    /// Holds back the `torch` function `name`.
    pub fn function(&mut self, name: &str, max: usize, body: FunctionBody) {
        self.push(name, Pending::Function { max, body });
    }

    fn push(&mut self, name: &str, p: Pending) {
        match self.pending.get_mut(name) {
            Some(forms) => forms.push(p),
            None => {
                self.pending.insert(name.into(), smallvec::smallvec![p]);
            }
        }
    }

    /// Installs the `torch` module in `engine`, keeping a handle to add functions later.
    pub fn install_torch(&mut self, engine: &mut Engine, mut torch: Module) {
        torch.build_index();
        let torch: Shared<Module> = torch.into();
        engine.register_static_module("torch", torch.clone());
        self.torch = Some(torch);
    }

    /// The tensor op held back as the method (or `torch` function over a tensor) `name`,
    /// the last one added: for ops composed of another op's body (`view_copy`).
    pub fn tensor_op(&self, name: &str) -> Option<TensorOp> {
        self.pending.get(name)?.iter().rev().find_map(|p| match p {
            Pending::Method { op, .. } | Pending::TensorFunction { op, .. } => Some(op.clone()),
            Pending::Function { .. } => None,
        })
    }

    /// Whether `name` is still held back.
    pub fn is_pending(&self, name: &str) -> bool {
        self.pending.contains_key(name)
    }

    /// Registers every held-back name that `text` mentions (as an identifier anywhere, in
    /// strings and comments too: a name registered needlessly costs only time).
    pub fn register_mentioned(&mut self, engine: &mut Engine, text: &str) {
        if self.pending.is_empty() {
            return;
        }
        let mut found = Vec::new();
        for word in identifiers(text) {
            if let Some((name, forms)) = self.pending.remove_entry(word) {
                found.push((name, forms));
            }
        }
        self.register(engine, found);
    }

    /// Registers everything still held back (for completion and help, which list names).
    pub fn register_all(&mut self, engine: &mut Engine) {
        let all: Vec<_> = self.pending.drain().collect();
        self.register(engine, all);
    }

    fn register(&mut self, engine: &mut Engine, found: Vec<(Box<str>, Forms)>) {
        if found.is_empty() {
            return;
        }
        let mut functions = Vec::new();
        for (name, forms) in found {
            for form in forms {
                match form {
                    Pending::Method { max, op } => {
                        registration::method::<Tensor>(engine, &name, max, move |t, a| op(t, a))
                    }
                    other => functions.push((name.clone(), other)),
                }
            }
        }
        if !functions.is_empty() {
            self.add_to_torch(engine, functions);
        }
        bump_generation();
    }

    /// Adds functions to the installed `torch` module and installs it again (the engine's
    /// handle is dropped first, so the module is changed in place rather than copied).
    fn add_to_torch(&mut self, engine: &mut Engine, functions: Vec<(Box<str>, Pending)>) {
        let mut torch = self.torch.take().unwrap_or_default();
        engine.register_static_module("torch", Shared::new(Module::new()));
        let module = Shared::make_mut(&mut torch);
        for (name, form) in functions {
            match form {
                Pending::TensorFunction { max, op } => {
                    register_tensor_function(module, &name, max, op)
                }
                Pending::Function { max, body } => {
                    registration::function_boxed(module, &name, max, body)
                }
                Pending::Method { .. } => {}
            }
        }
        module.build_index();
        engine.register_static_module("torch", torch.clone());
        self.torch = Some(torch);
    }

    /// Calls the held-back tensor method `name` on `args` (the receiver first) without
    /// registering it: for a call by a name the program computed, which `register_mentioned`
    /// could not see. `None` if `name` is no held-back method of that receiver.
    pub fn call_method(
        &self,
        name: &str,
        args: &mut [&mut Dynamic],
    ) -> Option<RhaiResult<Dynamic>> {
        let (max, op) = self.pending.get(name)?.iter().rev().find_map(|p| match p {
            Pending::Method { max, op } => Some((*max, op.clone())),
            _ => None,
        })?;
        let (receiver, rest) = args.split_first_mut()?;
        let t = receiver.read_lock::<Tensor>()?.clone();
        let given = Args::new(rest.iter().map(|a| (**a).clone()).collect());
        Some(registration::call_method_once::<Tensor>(
            name,
            max,
            &t,
            given,
            Box::new(move |t, a| op(t, a)),
        ))
    }
}

/// Registers `torch::name(input, ...)`: the tensor op called on its first argument (a
/// number too where PyTorch's arithmetic takes one, `torch.add(1, 2)`), checked as a whole
/// against `torch.name`.
///
/// An in-place function (`torch.exp_`, `torch.zero_`) refuses what its method refuses (a
/// leaf that requires grad, ...): the `mutates:` line of its own declaration, or else of
/// the method of the same name.
fn register_tensor_function(module: &mut Module, name: &str, max: usize, op: TensorOp) {
    use signature::Owner;
    let numbers_as_input = signature::lookup("torch", name).is_some_and(|d| d.numbers());
    let mutation = signature::lookup("torch", name)
        .and_then(signature::Declaration::mutation)
        .or_else(|| {
            signature::lookup("Tensor", name)
                .filter(|_| name.ends_with('_'))
                .and_then(signature::Declaration::mutation)
        });
    registration::function(module, name, max + 1, move |mut a| {
        let input = a.take_first("input");
        let t = if numbers_as_input && !input.is::<Tensor>() && !input.is_unit() {
            let s = convert::to_scalar(&input, "input")?;
            let dtype = crate::core::creation::scalar_dtype(s);
            crate::core::creation::full(&[], s, dtype).map_err(super::errors::to_rhai)?
        } else {
            convert::to_tensor(&input, "input")?
        };
        match mutation {
            None => op(&t, a),
            Some(m) => t.mutating(m, || op(&t, a)),
        }
    });
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
