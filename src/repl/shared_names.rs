//! One namespace for the prompt's two languages: the variables of the language being left
//! are handed to the one being entered (`:rhai` after Python, `:python` after Rhai), so a
//! tensor made in one is there, the same tensor, in the other.
//!
//! Tensors, storages and tensh's other values cross as themselves (a view stays a view of
//! the same storage); numbers, strings, lists and dicts cross as copies. What has no
//! counterpart (a Python function, class, module or iterator; a list that holds itself) stays
//! behind. A value that came from Python and was not changed in Rhai is not handed back, so
//! a Python tuple stays a tuple across a visit to Rhai.

use std::collections::HashMap;

use rhai::Dynamic;

use crate::python::convert::{Arrays, from_dynamic, to_dynamic};
use crate::python::session::PythonSession;
use crate::python::value::Value;
use crate::script::session::Session;

/// How deep a Python list or dict may nest and still cross.
const DEEPEST: usize = 32;
/// How many items in all a Python value may hold and still cross (it is copied).
const MOST_ITEMS: usize = 1 << 20;

/// What Rhai was given from Python at the last crossing, by name.
#[derive(Default)]
pub struct Crossed(HashMap<String, Dynamic>);

impl Crossed {
    /// Hands Python's variables to Rhai's scope.
    pub fn into_rhai(&mut self, python: &PythonSession, rhai: &mut Session) {
        self.0.clear();
        for (name, value) in python.variables() {
            if name == "_" || name.starts_with("__") || !crosses(&value) {
                continue;
            }
            let Ok(d) = to_dynamic(&value) else { continue };
            let scope = rhai.scope_mut();
            if scope.is_constant(&name) == Some(true) {
                continue;
            }
            scope.set_value(name.clone(), d.clone());
            self.0.insert(name, d);
        }
    }

    /// Hands Rhai's variables to Python's globals (those Python gave and Rhai left as they
    /// were stay Python's own).
    pub fn into_python(&mut self, rhai: &Session, python: &mut PythonSession) {
        let mut seen = std::collections::HashSet::new();
        // The newest of each name (the scope lists shadowed `let`s too, newest first).
        let newest: Vec<(String, Dynamic)> = rhai
            .scope()
            .iter_raw()
            .filter(|(name, _, _)| !crate::ops::hidden::is_hidden_name(name))
            .filter(|(name, _, _)| seen.insert(name.to_string()))
            .map(|(name, _, v)| (name.to_string(), v.clone()))
            .collect();
        for (name, d) in newest {
            if self.0.get(&name).is_some_and(|given| same(given, &d)) {
                continue;
            }
            python.set_variable(&name, from_dynamic(d, Arrays::Lists));
        }
        self.0.clear();
    }
}

/// Whether `v` can cross to Rhai: a value Rhai has (lists and dicts of them, not too deep or
/// too large to copy).
fn crosses(v: &Value) -> bool {
    let mut budget = MOST_ITEMS;
    crosses_within(v, 0, &mut budget)
}

fn crosses_within(v: &Value, depth: usize, budget: &mut usize) -> bool {
    if depth > DEEPEST {
        return false;
    }
    let each = |items: &[Value], budget: &mut usize| {
        if items.len() > *budget {
            return false;
        }
        *budget -= items.len();
        items.iter().all(|x| crosses_within(x, depth + 1, budget))
    };
    match v {
        Value::None
        | Value::Bool(_)
        | Value::Int(_)
        | Value::Float(_)
        | Value::Complex(_)
        | Value::Str(_)
        | Value::Tensor(_)
        | Value::Host(_) => true,
        Value::List(items) => each(&items.borrow(), budget),
        Value::Tuple(items) => each(items, budget),
        Value::Dict(entries) => {
            let entries = entries.borrow();
            let mut values = Vec::new();
            for (k, v) in entries.iter() {
                if !matches!(k, Value::Str(_)) {
                    return false;
                }
                values.push(v.clone());
            }
            each(&values, budget)
        }
        _ => false,
    }
}

/// Whether Rhai's `now` is still what Python gave (`given`): the same tensh value, or an
/// equal number, string, list or map.
fn same(given: &Dynamic, now: &Dynamic) -> bool {
    if given.type_id() != now.type_id() {
        return false;
    }
    if let (Some(a), Some(b)) = (
        given.read_lock::<crate::core::tensor::Tensor>(),
        now.read_lock::<crate::core::tensor::Tensor>(),
    ) {
        return a.ptr_eq(&b);
    }
    if let (Some(a), Some(b)) = (
        given.read_lock::<rhai::Array>(),
        now.read_lock::<rhai::Array>(),
    ) {
        return a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| same(x, y));
    }
    if let (Some(a), Some(b)) = (given.read_lock::<rhai::Map>(), now.read_lock::<rhai::Map>()) {
        return a.len() == b.len() && a.iter().all(|(k, x)| b.get(k).is_some_and(|y| same(x, y)));
    }
    if let (Ok(a), Ok(b)) = (given.as_int(), now.as_int()) {
        return a == b;
    }
    if let (Ok(a), Ok(b)) = (given.as_float(), now.as_float()) {
        return a.to_bits() == b.to_bits();
    }
    if let (Ok(a), Ok(b)) = (given.as_bool(), now.as_bool()) {
        return a == b;
    }
    if let (Some(a), Some(b)) = (
        given.read_lock::<rhai::ImmutableString>(),
        now.read_lock::<rhai::ImmutableString>(),
    ) {
        return *a == *b;
    }
    if let (Some(a), Some(b)) = (
        given.read_lock::<crate::core::memory::storage::Storage>(),
        now.read_lock::<crate::core::memory::storage::Storage>(),
    ) {
        return a.is_same(&b);
    }
    if let (Some(a), Some(b)) = (
        given.read_lock::<crate::ops::storage::typed::TypedStorage>(),
        now.read_lock::<crate::ops::storage::typed::TypedStorage>(),
    ) {
        return a.storage.is_same(&b.storage) && a.dtype == b.dtype;
    }
    // Another small tensh value (a dtype, a device, a size): equal when it prints the same.
    given.is_unit() || format!("{given:?}") == format!("{now:?}")
}

#[cfg(test)]
mod tests {
    use crate::ops::output;
    use crate::repl::console::Console;

    fn run(c: &mut Console, lines: &[&str]) -> String {
        output::start_capture();
        for l in lines {
            crate::repl::lines::feed(c, l);
        }
        output::take_capture()
    }

    #[test]
    fn a_tensor_made_in_python_is_the_same_tensor_in_rhai_and_back() {
        let mut c = Console::new();
        c.set_python(true);
        run(
            &mut c,
            &[
                "import torch",
                "x = torch.arange(6).view(2, 3)",
                "t = (1, 2)",
                "d = {'a': [1, 2.5]}",
                "g = (i for i in range(3))",
            ],
        );
        let rhai = run(
            &mut c,
            &[
                ":rhai",
                "x.t().is_contiguous()",
                "let y = x.t();",
                "y[0][1] = 10;",
                "d.a",
                "type_of(g)",
            ],
        );
        assert!(rhai.contains("false\n"), "{rhai}");
        assert!(rhai.contains("[1, 2.5]"), "{rhai}");
        // A generator has no Rhai counterpart: it stays behind.
        assert!(
            rhai.contains("NameError: name 'g' is not defined"),
            "{rhai}"
        );
        let python = run(
            &mut c,
            &[
                ":python",
                "x",
                "y.data_ptr() == x.data_ptr()",
                "t",
                "type(g).__name__",
            ],
        );
        assert!(
            python.contains("tensor([[ 0,  1,  2],\n        [10,  4,  5]])"),
            "{python}"
        );
        assert!(python.contains("True\n(1, 2)\n'generator'\n"), "{python}");
    }

    #[test]
    fn vars_and_explain_speak_python_at_a_python_prompt() {
        let mut c = Console::new();
        c.set_python(true);
        let shown = run(
            &mut c,
            &[
                "import torch",
                "x = torch.arange(6).view(2, 3)",
                "y = x.T",
                "n = 3",
                "s = 'hi'",
                ":vars",
                "explain(y)",
                ":explain x[1, 2]",
                "explain(x, dtype=torch.int32)",
            ],
        );
        for line in [
            "n: int = 3",
            "s: str = 'hi'",
            "x: Tensor  size=[2, 3] dtype=torch.int64 stride=[3, 1] offset=0 storage=#1 (48 bytes)",
            "y: Tensor  size=[3, 2] dtype=torch.int64 stride=[1, 3] offset=0 storage=#1 (48 bytes)",
            "storage: 48 bytes; shared with x",
            "element [1, 2] starts at byte 0 + 24*1 + 8*2 = 40",
            "x.view(torch.int32) reads them as size (2, 6), stride (6, 1), offset 0",
        ] {
            assert!(shown.contains(line), "{line:?} not in\n{shown}");
        }
        assert!(!shown.contains("torch::"), "{shown}");
    }
}
