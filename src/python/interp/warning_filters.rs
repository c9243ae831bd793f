//! Python's warnings filters (`warnings.simplefilter`, `filterwarnings`, `catch_warnings`),
//! applied alike to `warnings.warn` and to PyTorch's own warnings (`script::warnings`
//! collects those while Python runs; the interpreter takes them after each op and
//! statement). The first filter whose category and message match decides: `error` raises
//! the warning as its exception, `ignore` drops it, `always` shows it each time, `default`
//! once per place, `module` once per file, `once` once; with none matching, `default`.
//! A shown warning goes to the list of the innermost `catch_warnings(record=True)`, else to
//! stderr as CPython prints it. Changing the filters forgets what was shown, as CPython's
//! registries are invalidated.

use std::collections::HashSet;
use std::rc::Rc;

use super::expr::CallArgs;
use super::{Flow, Interpreter};
use crate::python::exception::PyException;
use crate::python::types::{self, TypeObject};
use crate::python::value::Value;

/// What a filter does with the warnings it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Action {
    Error,
    Ignore,
    Always,
    Default,
    Module,
    Once,
}

impl Action {
    /// The action named `name`, as `simplefilter` takes it.
    pub(super) fn named(name: &str) -> Option<Action> {
        Some(match name {
            "error" => Action::Error,
            "ignore" => Action::Ignore,
            "always" => Action::Always,
            "default" => Action::Default,
            "module" => Action::Module,
            "once" => Action::Once,
            _ => return None,
        })
    }
}

/// One filter: an action for warnings of a category (or a subclass) whose message matches.
#[derive(Debug, Clone)]
pub(super) struct Filter {
    pub action: Action,
    pub category: Rc<TypeObject>,
    /// A regular expression the message must match at its start, ignoring case (`None`:
    /// any message).
    pub message: Option<Rc<str>>,
}

/// The filters in force and the warnings shown under them.
#[derive(Debug, Clone, Default)]
pub(super) struct WarningFilters {
    filters: Vec<Filter>,
    /// What `default`, `module` and `once` have shown: (message, category, file, line),
    /// with the parts an action does not distinguish left empty.
    shown: HashSet<(String, Rc<str>, Rc<str>, usize)>,
}

impl WarningFilters {
    /// CPython's filters at start for a program's own code: deprecation warnings shown
    /// (its code is `__main__`), pending deprecations, imports and resources ignored.
    pub(super) fn python_defaults() -> WarningFilters {
        let mut filters = WarningFilters::default();
        for name in [
            "ResourceWarning",
            "ImportWarning",
            "PendingDeprecationWarning",
        ] {
            if let Some(category) = types::named(name) {
                filters.filters.push(Filter {
                    action: Action::Ignore,
                    category,
                    message: None,
                });
            }
        }
        filters
    }

    /// Adds `filter` first (or last, with `append`), as `simplefilter`/`filterwarnings` do.
    pub(super) fn add(&mut self, filter: Filter, append: bool) {
        if append {
            self.filters.push(filter);
        } else {
            self.filters.insert(0, filter);
        }
        self.shown.clear();
    }

    /// `resetwarnings()`: no filters at all.
    pub(super) fn reset(&mut self) {
        self.filters.clear();
        self.shown.clear();
    }

    /// The action for a warning of `category` saying `message`.
    fn action_for(&self, category: &Rc<TypeObject>, message: &str) -> Action {
        self.filters
            .iter()
            .find(|f| {
                category.is_subclass_of(&f.category)
                    && f.message.as_ref().is_none_or(|m| {
                        super::regex_module::matches_start_ignoring_case(m, message)
                            .unwrap_or(false)
                    })
            })
            .map_or(Action::Default, |f| f.action)
    }
}

impl Interpreter {
    /// Issues a warning of `category` saying `message` from the running line, through the
    /// filters.
    pub(super) fn issue_warning(&mut self, category: Rc<TypeObject>, message: String) -> Flow<()> {
        let action = self.warning_filters.action_for(&category, &message);
        let (file, line, text) = match self.frames.last() {
            Some(f) => (
                f.source.name.clone(),
                f.line(),
                f.source.line_text(f.line()).trim().to_string(),
            ),
            None => (Rc::from(""), 0, String::new()),
        };
        let key = match action {
            Action::Error => {
                let e = PyException::of_class(category, vec![Value::str(message)]);
                return Err(self.throw(e));
            }
            Action::Ignore => return Ok(()),
            Action::Always => None,
            Action::Default => Some((message.clone(), category.name.clone(), file.clone(), line)),
            Action::Module => Some((message.clone(), category.name.clone(), file.clone(), 0)),
            Action::Once => Some((message.clone(), category.name.clone(), Rc::from(""), 0)),
        };
        if let Some(key) = key
            && !self.warning_filters.shown.insert(key)
        {
            return Ok(());
        }
        if let Some(list) = self.warning_records.last().cloned() {
            return self.record_warning(&list, category, message, &file, line);
        }
        // CPython's `showwarning`: the source line below, where there is one to read (a
        // prompt's `<stdin>` has none).
        let below = if file.starts_with('<') || text.is_empty() {
            String::new()
        } else {
            format!("  {text}\n")
        };
        crate::ops::output::stderr_raw(&format!(
            "{file}:{line}: {}: {message}\n{below}",
            category.name
        ));
        Ok(())
    }

    /// Puts a shown warning in a `catch_warnings(record=True)` block's list, as a
    /// `warnings.WarningMessage`.
    fn record_warning(
        &mut self,
        list: &Value,
        category: Rc<TypeObject>,
        message: String,
        file: &Rc<str>,
        line: usize,
    ) -> Flow<()> {
        let warning = PyException::of_class(category.clone(), vec![Value::str(message)]);
        let module = self.import_source_module("_warning_message")?;
        let make = self.get_attribute(&module, "WarningMessage")?;
        let record = self.call_value(
            &make,
            CallArgs {
                args: vec![
                    Value::Exception(Rc::new(warning)),
                    Value::Type(category),
                    Value::str(file.to_string()),
                    Value::Int(line as i64),
                ],
                keywords: Vec::new(),
            },
        )?;
        self.call_method(
            list,
            "append",
            CallArgs {
                args: vec![record],
                keywords: Vec::new(),
            },
        )?;
        Ok(())
    }

    /// `warnings.simplefilter(action, category=Warning, lineno=0, append=False)` and
    /// `warnings.filterwarnings(action, message="", category=Warning, module="", lineno=0,
    /// append=False)`.
    pub(super) fn add_warning_filter(
        &mut self,
        function: &str,
        args: &[Value],
        keywords: &[(Rc<str>, Value)],
    ) -> Flow<()> {
        let names: &[&str] = if function == "warnings.simplefilter" {
            &["action", "category", "lineno", "append"]
        } else {
            &[
                "action", "message", "category", "module", "lineno", "append",
            ]
        };
        let argument = |name: &str| -> Option<Value> {
            let at = names.iter().position(|n| *n == name)?;
            args.get(at).cloned().or_else(|| {
                keywords
                    .iter()
                    .find(|(k, _)| &**k == name)
                    .map(|(_, v)| v.clone())
            })
        };
        let short = function.trim_start_matches("warnings.");
        let action = match argument("action") {
            Some(Value::Str(a)) => match Action::named(&a) {
                Some(action) => action,
                None => return self.raise("AssertionError", format!("invalid action: '{a}'")),
            },
            _ => {
                return self.raise(
                    "TypeError",
                    format!("{short}() missing required argument 'action'"),
                );
            }
        };
        // CPython's assertions (its `filterwarnings`; its `simplefilter` checks later).
        let category = match argument("category") {
            None => types::builtin("Warning"),
            Some(Value::Type(t)) if t.is_subclass_of(&types::builtin("Warning")) => t,
            Some(Value::Type(_)) => {
                return self.raise("AssertionError", "category must be a Warning subclass");
            }
            Some(_) => return self.raise("AssertionError", "category must be a class"),
        };
        let message = match argument("message") {
            Some(Value::Str(m)) if !m.is_empty() => Some(m),
            None | Some(Value::Str(_)) => None,
            Some(_) => return self.raise("AssertionError", "message must be a string"),
        };
        let append = match argument("append") {
            Some(v) => self.truthy(&v)?,
            None => false,
        };
        self.warning_filters.add(
            Filter {
                action,
                category,
                message,
            },
            append,
        );
        Ok(())
    }

    /// PyTorch's warnings from the ops run since the last call, issued here as Python's
    /// (`UserWarning`s, from the running line). Kept out of line: its callers run for
    /// every statement and op, and it rarely has work.
    #[cold]
    #[inline(never)]
    pub(super) fn issue_torch_warnings(&mut self) -> Flow<()> {
        if !crate::ops::warnings::has_pending() {
            return Ok(());
        }
        for message in crate::ops::warnings::take_pending() {
            self.issue_warning(types::builtin("UserWarning"), message)?;
        }
        Ok(())
    }
}
