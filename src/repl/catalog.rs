//! What the engine offers, read from its own registrations: the `torch` functions and
//! constants, and each receiver type's methods and properties. Completion and `:help` use it,
//! so they never drift from what a script can call.

use std::any::TypeId;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use rhai::Engine;

/// Names a session can call, grouped as completion needs them.
#[derive(Debug, Default, Clone)]
pub struct Catalog {
    /// `torch::` functions (and sub-module paths such as `UntypedStorage::from_file`), with
    /// the argument counts each is registered for.
    pub functions: BTreeMap<String, BTreeSet<usize>>,
    /// Methods by receiver type, with the argument counts (receiver excluded).
    pub methods: HashMap<TypeId, BTreeMap<String, BTreeSet<usize>>>,
    /// Properties (getters) by receiver type.
    pub properties: HashMap<TypeId, BTreeSet<String>>,
    /// The receiver type names, for help (`Tensor`, `UntypedStorage`, ...).
    pub type_names: HashMap<TypeId, String>,
    /// `torch::` constants (dtypes, `inf`, `pi`, ...).
    pub constants: BTreeSet<String>,
    /// What a call or property returns, as PyTorch declares it (`returns.txt`): keys
    /// `Owner.name(...)` (a call with any arguments), `Owner.name()` (without arguments) and
    /// `Owner.name` (a property), values a receiver type's name.
    pub returns: HashMap<String, String>,
}

/// The return types read off PyTorch (`tools/declare_returns.py`).
const RETURNS: &str = include_str!("../ops/signature/returns.txt");

/// A Rhai name that is an operator or an internal hook, not something to complete.
fn is_internal(name: &str) -> bool {
    name.starts_with("index$")
        || name.starts_with("set$")
        || name == crate::script::caught::CAUGHT_HOOK
        || !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$')
}

impl Catalog {
    /// The catalog of every name a session can call, read once per thread from an engine
    /// with every name registered (a session registers its names only when a program names
    /// them).
    pub fn shared() -> std::rc::Rc<Catalog> {
        thread_local! {
            static CATALOG: std::cell::OnceCell<std::rc::Rc<Catalog>> =
                const { std::cell::OnceCell::new() };
        }
        CATALOG.with(|c| {
            c.get_or_init(|| {
                std::rc::Rc::new(Catalog::from_engine(
                    &crate::ops::engine::new_engine(),
                    &crate::ops::engine::receiver_types(),
                ))
            })
            .clone()
        })
    }

    /// Reads the registrations of `engine`; `type_names` names the receiver types whose
    /// methods are wanted.
    pub fn from_engine(engine: &Engine, type_names: &[(TypeId, &str)]) -> Catalog {
        let mut c = Catalog {
            type_names: type_names
                .iter()
                .map(|(id, n)| (*id, n.to_string()))
                .collect(),
            ..Catalog::default()
        };
        let mut constants = rhai::Module::new();
        crate::ops::torch_module::register_constants(&mut constants);
        c.constants = constants.iter_var().map(|(n, _)| n.to_string()).collect();
        c.returns = RETURNS
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split_once(' '))
            .map(|(k, v)| (k.to_string(), v.trim().to_string()))
            .collect();
        let entries = engine.collect_fn_metadata(
            None,
            |info| {
                Some((
                    info.namespace.to_string(),
                    info.metadata.name.to_string(),
                    info.metadata.param_types.first().copied(),
                    info.metadata.num_params,
                ))
            },
            false,
        );
        for (namespace, mut name, first, arity) in entries {
            // The reprs (and `print`/`debug` of the types whose repr can fail) are Rhai's
            // hooks, not methods a script calls.
            if is_internal(&name)
                || ["to_string", "to_debug", "print", "debug"].contains(&name.as_str())
            {
                continue;
            }
            name = crate::ops::renamed::as_written(&name).to_string();
            if let Some(module) = namespace.strip_prefix("torch") {
                let path = match module.strip_prefix("::") {
                    Some(sub) => format!("{sub}::{name}"),
                    None => name,
                };
                c.functions.entry(path).or_default().insert(arity);
                continue;
            }
            let Some(receiver) = first.filter(|id| c.type_names.contains_key(id)) else {
                continue;
            };
            if let Some(prop) = name.strip_prefix("get$") {
                c.properties
                    .entry(receiver)
                    .or_default()
                    .insert(prop.to_string());
            } else {
                c.methods
                    .entry(receiver)
                    .or_default()
                    .entry(name)
                    .or_default()
                    .insert(arity - 1);
            }
        }
        c
    }

    /// The type a link of a chain gives on a receiver of type `owner` (`Tensor`, or `torch`
    /// for a function): `args` is the call's argument text, `None` for a property.
    pub fn returned(&self, owner: &str, name: &str, args: Option<&str>) -> Option<&str> {
        let key = |form: &str| format!("{owner}.{name}{form}");
        let found = match args {
            Some(a) if a.trim().is_empty() => self
                .returns
                .get(&key("()"))
                .or_else(|| self.returns.get(&key("(...)"))),
            Some(_) => self.returns.get(&key("(...)")),
            // A property PyTorch also has as an operator (`real`, `mT`).
            None => self
                .returns
                .get(&key(""))
                .or_else(|| self.returns.get(&key("(...)"))),
        };
        found.map(String::as_str)
    }

    /// The receiver type named `name`, if known.
    pub fn type_named(&self, name: &str) -> Option<TypeId> {
        self.type_names
            .iter()
            .find(|(_, n)| n.as_str() == name)
            .map(|(id, _)| *id)
    }
}
