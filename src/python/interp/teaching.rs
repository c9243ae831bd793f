//! What the prompt asks of the interpreter beyond running code: `explain(...)`, and the
//! names completion offers ([`Known`]).
//!
//! `explain(...)` in Python: the teaching picture of a tensor's memory, as the Rhai front
//! draws it (`script::explain_api`). Like Rhai's, it is read at the call so it can name what
//! the call wrote (`explain(y.T)` draws `y.T`) and the caller's other views of the storage.
//!
//! - `explain(t)`, `explain([a, b])`, `explain({"w": w})`: the picture(s);
//! - `explain(t, [1, 2])`: one element's arithmetic;
//! - `explain(t, byte=10)`, `explain(t, dtype=torch.int32)`, `explain(t, svg="fig.svg")`,
//!   or the same options as a dict (`explain(t, {"byte": 10})`, as Rhai's map).

use std::rc::Rc;

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::Ranged;

use super::{Flow, Interpreter};
use crate::core::tensor::Tensor;
use crate::python::convert::to_dynamic;
use crate::python::exception::PyException;
use crate::python::function::Scope;
use crate::python::value::Value;

/// What completion knows of one global variable.
#[derive(Debug, Clone)]
pub struct Known {
    /// The variable's name.
    pub name: String,
    /// The type of the tensh value it holds (a tensor, a storage, ...).
    pub host: Option<std::any::TypeId>,
    /// The `torch` path it names (`torch`, `torch.linalg`), for `torch` and its modules.
    pub torch_path: Option<String>,
    /// The attribute names of a module, class or instance (`dir()`'s).
    pub attributes: Option<Vec<String>>,
    /// Whether it can be called (completion then offers `name(`).
    pub callable: bool,
}

impl Interpreter {
    /// The globals as completion knows them (no code of the user's runs to find them).
    pub fn known_globals(&mut self) -> Vec<Known> {
        let globals = self.globals();
        globals
            .into_iter()
            .filter(|(name, _)| name != "_" && !name.starts_with("__"))
            .map(|(name, value)| {
                let attributes = match &value {
                    Value::Module(m) => Some(self.module_names(m)),
                    Value::Class(_) | Value::Instance(_) => match self.attribute_names(&value) {
                        Ok(Value::List(items)) => Some(
                            items
                                .borrow()
                                .iter()
                                .filter_map(|v| match v {
                                    Value::Str(s) => Some(s.to_string()),
                                    _ => None,
                                })
                                .collect(),
                        ),
                        _ => None,
                    },
                    _ => None,
                };
                Known {
                    host: match &value {
                        Value::Tensor(_) => Some(std::any::TypeId::of::<Tensor>()),
                        Value::Host(d) => Some(d.type_id()),
                        _ => None,
                    },
                    torch_path: match &value {
                        Value::HostPath(p) if p.starts_with("torch") => Some(p.to_string()),
                        _ => None,
                    },
                    attributes,
                    callable: matches!(
                        value,
                        Value::Function(_)
                            | Value::Builtin(_)
                            | Value::Class(_)
                            | Value::Type(_)
                            | Value::Bound(_)
                    ),
                    name,
                }
            })
            .collect()
    }

    /// Whether `function` is the builtin `explain` (a call of it is read by `explain_call`).
    pub(super) fn is_explain(function: &Value) -> bool {
        matches!(function, Value::Builtin(name) if &**name == "explain")
    }

    /// Runs the call `c` of the builtin `explain`.
    pub(super) fn explain_call(
        &mut self,
        c: &'static ast::ExprCall,
        scope: &Rc<Scope>,
    ) -> Flow<Value> {
        let args = &c.arguments;
        if args.args.is_empty() || args.args.len() > 2 {
            return self.raise(
                "TypeError",
                format!(
                    "explain() takes 1 or 2 positional arguments but {} were given",
                    args.args.len()
                ),
            );
        }
        if let Some(Expr::Starred(_)) = args.args.first() {
            return self.raise(
                "TypeError",
                "explain() takes its tensor as written, not *args",
            );
        }
        let first_text = self.frames.last().map(|f| {
            let range = args.args[0].range();
            f.source.text()[usize::from(range.start())..usize::from(range.end())].to_string()
        });
        let first = self.eval(&args.args[0], scope)?;
        let second = match args.args.get(1) {
            Some(e) => Some(self.eval(e, scope)?),
            None => None,
        };
        let mut keywords = Vec::new();
        for k in args.keywords.iter() {
            let Some(name) = &k.arg else {
                return self.raise("TypeError", "explain() takes its options by name, not **");
            };
            keywords.push((name.as_str().into(), self.eval(&k.value, scope)?));
        }
        self.explain(first, first_text, second, keywords, scope)
    }

    /// `explain(first, second, **keywords)` seen from `scope`; `first_text` is how the call
    /// wrote `first`, when it is known.
    pub(super) fn explain(
        &mut self,
        first: Value,
        first_text: Option<String>,
        second: Option<Value>,
        keywords: Vec<(Rc<str>, Value)>,
        scope: &Rc<Scope>,
    ) -> Flow<Value> {
        let mut options = rhai::Map::new();
        for (name, value) in keywords {
            options.insert((&*name).into(), self.lift(to_dynamic(&value))?);
        }
        let second = match (second, options.is_empty()) {
            (Some(_), false) => {
                return self.raise(
                    "TypeError",
                    "explain() takes an index list or options, not both",
                );
            }
            (Some(v), true) => Some(self.lift(to_dynamic(&v))?),
            (None, false) => Some(rhai::Dynamic::from(options)),
            (None, true) => None,
        };
        let first = self.lift(to_dynamic(&first))?;
        let visible = Self::visible_tensors(scope);
        crate::ops::explain_api::explain_value(first, first_text, second, &visible)
            .map_err(|e| self.throw(PyException::from_rhai(&e)))?;
        Ok(Value::None)
    }

    /// The tensors the variables seen from `scope` hold (its own first, then each enclosing
    /// scope's), each scope's by name.
    fn visible_tensors(scope: &Rc<Scope>) -> Vec<(String, Tensor)> {
        let mut found = Vec::new();
        let mut at = Some(scope.clone());
        while let Some(s) = at {
            let mut here: Vec<(String, Tensor)> = s
                .vars
                .borrow()
                .iter()
                .filter(|(name, _)| !name.starts_with('_'))
                .filter_map(|(name, v)| match v {
                    Value::Tensor(t) => Some((name.to_string(), t.clone())),
                    _ => None,
                })
                .collect();
            here.sort_by(|a, b| a.0.cmp(&b.0));
            found.extend(here);
            at = s.parent.clone();
        }
        found
    }
}
