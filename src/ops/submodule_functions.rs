//! The functions of `torch`'s sub-modules (`torch::nn::functional::relu`,
//! `torch::autograd::grad`, `torch::special::expit`, `torch::linalg::vector_norm`), kept as
//! the op table keeps `torch`'s own: a function's checked callable is made the first time it
//! is called or registered, and it is registered with the engine's `torch` module only when
//! a program mentions its name, so start-up does not grow with the sub-modules.
//!
//! Invariant: every sub-module a function is added to exists in the installed `torch`
//! module from the start (empty until its functions are registered), so `torch::nn` and
//! `torch.nn` resolve before any function of theirs is used.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::rc::Rc;

use rhai::Module;

use super::registration::{self, Function, FunctionBody};

/// One function of a sub-module.
struct Entry {
    /// The sub-module's path under `torch` (`nn::functional`).
    module: Box<str>,
    /// The function's name in it (`relu`).
    name: Box<str>,
    /// How many arguments it reads at most.
    max: usize,
    body: FunctionBody,
    checked: OnceCell<Rc<Function>>,
    registered: bool,
}

impl Entry {
    /// The checked callable, made on first use (checked against the declaration of
    /// `module::name` under `torch`).
    fn function(&self) -> Rc<Function> {
        self.checked
            .get_or_init(|| {
                let declared = format!("{}::{}", self.module, self.name);
                Rc::new(Function::new(&declared, self.max, self.body.clone()))
            })
            .clone()
    }
}

/// The sub-modules' functions, by full path (`torch::nn::functional::relu`).
#[derive(Default)]
pub struct SubmoduleFunctions {
    entries: HashMap<Box<str>, Entry, ahash::RandomState>,
    /// The full paths of each bare name (`relu` → `torch::nn::functional::relu`), for
    /// finding what a program's text mentions.
    by_name: HashMap<Box<str>, Vec<Box<str>>, ahash::RandomState>,
    unregistered: usize,
}

impl SubmoduleFunctions {
    /// Adds `name` to the sub-module `module` (a path under `torch`, `nn::functional`).
    pub fn add(&mut self, module: &str, name: &str, max: usize, body: FunctionBody) {
        let full: Box<str> = format!("torch::{module}::{name}").into();
        self.by_name
            .entry(name.into())
            .or_default()
            .push(full.clone());
        let entry = Entry {
            module: module.into(),
            name: name.into(),
            max,
            body,
            checked: OnceCell::new(),
            registered: false,
        };
        if self.entries.insert(full, entry).is_none() {
            self.unregistered += 1;
        }
    }

    /// The checked function at the full path `path`, if it is one of these.
    pub fn function(&self, path: &str) -> Option<Rc<Function>> {
        self.entries.get(path).map(Entry::function)
    }

    /// Whether some function is not registered with the engine yet.
    pub fn any_unregistered(&self) -> bool {
        self.unregistered > 0
    }

    /// The unregistered functions named `word`.
    pub fn mentioned(&self, word: &str) -> Vec<Box<str>> {
        self.by_name.get(word).map_or_else(Vec::new, |paths| {
            paths
                .iter()
                .filter(|p| self.entries.get(*p).is_some_and(|e| !e.registered))
                .cloned()
                .collect()
        })
    }

    /// Every unregistered function.
    pub fn all_unregistered(&self) -> Vec<Box<str>> {
        self.entries
            .iter()
            .filter(|(_, e)| !e.registered)
            .map(|(p, _)| p.clone())
            .collect()
    }

    /// Makes every sub-module a function was added to, empty, in `torch` (before it is
    /// installed: the invariant above).
    pub fn make_modules(&self, torch: &mut Module) {
        let mut made: Vec<&str> = Vec::new();
        for entry in self.entries.values() {
            if made.contains(&&*entry.module) {
                continue;
            }
            made.push(&entry.module);
            let parts: Vec<&str> = entry.module.split("::").collect();
            make_submodule(torch, &parts);
        }
    }

    /// Registers the functions at `paths` into their sub-modules of `torch`; returns
    /// whether any was registered.
    pub fn register(&mut self, torch: &mut Module, paths: &[Box<str>]) -> bool {
        let mut any = false;
        for path in paths {
            let Some(entry) = self.entries.get_mut(path) else {
                continue;
            };
            if entry.registered {
                continue;
            }
            entry.registered = true;
            self.unregistered -= 1;
            let function = entry.function();
            let parts: Vec<&str> = entry.module.split("::").collect();
            add_to_submodule(torch, &parts, &entry.name, &function);
            any = true;
        }
        any
    }
}

/// Makes the sub-module of `module` at `parts` where it is missing.
fn make_submodule(module: &mut Module, parts: &[&str]) {
    let Some((first, rest)) = parts.split_first() else {
        return;
    };
    let mut sub = module.get_sub_module(first).cloned().unwrap_or_default();
    make_submodule(&mut sub, rest);
    module.set_sub_module(*first, sub);
}

/// Registers `function` as `name` in the sub-module of `module` at `parts`, made where it
/// is missing (each level is copied, changed and put back: Rhai keeps sub-modules
/// shared).
fn add_to_submodule(module: &mut Module, parts: &[&str], name: &str, function: &Function) {
    let Some((first, rest)) = parts.split_first() else {
        registration::register_checked_function(module, name, function);
        return;
    };
    let mut sub = module.get_sub_module(first).cloned().unwrap_or_default();
    add_to_submodule(&mut sub, rest, name, function);
    sub.build_index();
    module.set_sub_module(*first, sub);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the sub-module at `parts` holds anything.
    fn holds_anything(torch: &Module, parts: &[&str]) -> bool {
        let mut module = torch;
        for part in parts {
            match module.get_sub_module(part) {
                Some(m) => module = m,
                None => return false,
            }
        }
        !module.is_empty()
    }

    #[test]
    fn a_function_is_registered_only_once_mentioned_and_its_module_exists_before() {
        let mut functions = SubmoduleFunctions::default();
        let body: FunctionBody = Rc::new(|_| Ok(rhai::Dynamic::UNIT));
        functions.add("nn::functional", "relu", 2, body);
        let mut torch = Module::new();
        functions.make_modules(&mut torch);
        assert!(torch.get_sub_module("nn").is_some());
        assert!(!holds_anything(&torch, &["nn", "functional"]));
        assert!(functions.mentioned("gelu").is_empty());
        let mentioned = functions.mentioned("relu");
        assert_eq!(mentioned.len(), 1);
        assert!(functions.register(&mut torch, &mentioned));
        assert!(holds_anything(&torch, &["nn", "functional"]));
        assert!(!functions.any_unregistered());
        assert!(functions.mentioned("relu").is_empty(), "registered once");
        assert!(functions.function("torch::nn::functional::relu").is_some());
    }
}
