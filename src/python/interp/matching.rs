//! The `match` statement: each `case` pattern tried against the subject in order (values by
//! `==`, `None`/`True`/`False` by identity, sequences, mappings, classes with their
//! `__match_args__`, `|` alternatives, captures and `_`), the first that matches and whose
//! guard holds running its block.

use std::rc::Rc;

use ruff_python_ast::{self as ast, Pattern, Singleton};

use super::{Flow, Interpreter};
use crate::python::function::Scope;
use crate::python::value::Value;

/// The builtin classes whose one positional sub-pattern matches the subject itself
/// (`case int(n)`), as CPython's.
const SELF_MATCHING: &[&str] = &[
    "bool",
    "bytearray",
    "bytes",
    "dict",
    "float",
    "frozenset",
    "int",
    "list",
    "set",
    "str",
    "tuple",
];

impl Interpreter {
    /// `match subject: case ...`.
    pub(super) fn match_statement(
        &mut self,
        m: &'static ast::StmtMatch,
        scope: &Rc<Scope>,
    ) -> Flow<()> {
        let subject = self.eval(&m.subject, scope)?;
        for case in &m.cases {
            self.set_line(case);
            if !self.matches(&case.pattern, &subject, scope)? {
                continue;
            }
            if let Some(guard) = &case.guard
                && !self.eval_truth(guard, scope)?
            {
                continue;
            }
            return self.exec_block(&case.body, scope);
        }
        Ok(())
    }

    /// Whether `pattern` matches `v`, binding its captures in `scope` as it goes.
    fn matches(&mut self, pattern: &'static Pattern, v: &Value, scope: &Rc<Scope>) -> Flow<bool> {
        match pattern {
            Pattern::MatchValue(p) => {
                let value = self.eval(&p.value, scope)?;
                self.values_equal(v, &value)
            }
            Pattern::MatchSingleton(p) => Ok(matches!(
                (p.value, v),
                (Singleton::None, Value::None)
                    | (Singleton::True, Value::Bool(true))
                    | (Singleton::False, Value::Bool(false))
            )),
            Pattern::MatchAs(p) => {
                if let Some(inner) = &p.pattern
                    && !self.matches(inner, v, scope)?
                {
                    return Ok(false);
                }
                if let Some(name) = &p.name {
                    self.bind(name.as_str(), v.clone(), scope);
                }
                Ok(true)
            }
            Pattern::MatchOr(p) => {
                for alternative in &p.patterns {
                    if self.matches(alternative, v, scope)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Pattern::MatchStar(_) => Ok(true),
            Pattern::MatchSequence(p) => self.matches_sequence(&p.patterns, v, scope),
            Pattern::MatchMapping(p) => self.matches_mapping(p, v, scope),
            Pattern::MatchClass(p) => self.matches_class(p, v, scope),
        }
    }

    /// A sequence pattern: a list, tuple, range or `torch.Size` (not a string, bytes or
    /// mapping) of the right length, each item matching, a starred name taking the rest.
    fn matches_sequence(
        &mut self,
        patterns: &'static [Pattern],
        v: &Value,
        scope: &Rc<Scope>,
    ) -> Flow<bool> {
        let is_sequence = match v {
            Value::List(_) | Value::Tuple(_) | Value::Range(..) => true,
            Value::Instance(i) => matches!(i.base, Some(Value::List(_) | Value::Tuple(_))),
            Value::Host(d) => {
                d.is::<crate::ops::values::Size>()
                    || d.is::<crate::ops::return_tuple::ReturnTuple>()
            }
            _ => false,
        };
        if !is_sequence {
            return Ok(false);
        }
        let items = self.collect(v)?;
        let star = patterns
            .iter()
            .position(|p| matches!(p, Pattern::MatchStar(_)));
        match star {
            None => {
                if items.len() != patterns.len() {
                    return Ok(false);
                }
                for (p, item) in patterns.iter().zip(&items) {
                    if !self.matches(p, item, scope)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Some(at) => {
                let after = patterns.len() - at - 1;
                if items.len() < at + after {
                    return Ok(false);
                }
                for (p, item) in patterns[..at].iter().zip(&items) {
                    if !self.matches(p, item, scope)? {
                        return Ok(false);
                    }
                }
                let tail = items.len() - after;
                for (p, item) in patterns[at + 1..].iter().zip(&items[tail..]) {
                    if !self.matches(p, item, scope)? {
                        return Ok(false);
                    }
                }
                if let Pattern::MatchStar(s) = &patterns[at]
                    && let Some(name) = &s.name
                {
                    self.bind(name.as_str(), Value::list(items[at..tail].to_vec()), scope);
                }
                Ok(true)
            }
        }
    }

    /// A mapping pattern: a dict holding each key, its value matching; `**rest` the others.
    fn matches_mapping(
        &mut self,
        p: &'static ast::PatternMatchMapping,
        v: &Value,
        scope: &Rc<Scope>,
    ) -> Flow<bool> {
        let entries = match v {
            Value::Dict(d) => d.clone(),
            Value::Instance(i) => match &i.base {
                Some(Value::Dict(d)) => d.clone(),
                _ => return Ok(false),
            },
            _ => return Ok(false),
        };
        let mut seen = Vec::with_capacity(p.keys.len());
        for (key, pattern) in p.keys.iter().zip(&p.patterns) {
            let key = self.eval(key, scope)?;
            let Some(value) = self.dict_get(&entries, &key)? else {
                return Ok(false);
            };
            if !self.matches(pattern, &value, scope)? {
                return Ok(false);
            }
            seen.push(key);
        }
        if let Some(rest) = &p.rest {
            let mut others = Vec::new();
            for (k, value) in entries.borrow().pairs() {
                let mut taken = false;
                for s in &seen {
                    if super::operators::same_object(s, &k) || self.values_equal(s, &k)? {
                        taken = true;
                        break;
                    }
                }
                if !taken {
                    others.push((k, value));
                }
            }
            let others = self.dict_of(others)?;
            self.bind(rest.as_str(), Value::Dict(others), scope);
        }
        Ok(true)
    }

    /// A class pattern: `v` an instance of the class, its positional sub-patterns matched
    /// against the attributes `__match_args__` names (or `v` itself for `int(x)` and the
    /// like), its keyword sub-patterns against the attributes they name.
    fn matches_class(
        &mut self,
        p: &'static ast::PatternMatchClass,
        v: &Value,
        scope: &Rc<Scope>,
    ) -> Flow<bool> {
        let class = self.eval(&p.cls, scope)?;
        if !matches!(class, Value::Type(_) | Value::Class(_)) {
            return self.raise("TypeError", "called match pattern must be a class");
        }
        let isinstance =
            self.call_builtin("isinstance", vec![v.clone(), class.clone()], Vec::new())?;
        if !self.truthy(&isinstance)? {
            return Ok(false);
        }
        let positional = &p.arguments.patterns;
        if !positional.is_empty() {
            let self_matching =
                matches!(&class, Value::Type(t) if SELF_MATCHING.contains(&&*t.name));
            if self_matching {
                if positional.len() > 1 {
                    let name = match &class {
                        Value::Type(t) => t.name.to_string(),
                        _ => String::new(),
                    };
                    return self.raise(
                        "TypeError",
                        format!(
                            "{name}() accepts 1 positional sub-pattern ({} given)",
                            positional.len()
                        ),
                    );
                }
                if !self.matches(&positional[0], v, scope)? {
                    return Ok(false);
                }
            } else {
                let names = match self.get_attribute(&class, "__match_args__") {
                    Ok(names) => self.collect(&names)?,
                    Err(_) => Vec::new(),
                };
                if positional.len() > names.len() {
                    let name = match &class {
                        Value::Class(c) => c.name.to_string(),
                        Value::Type(t) => t.name.to_string(),
                        _ => String::new(),
                    };
                    return self.raise(
                        "TypeError",
                        format!(
                            "{name}() accepts {} positional sub-pattern{} ({} given)",
                            names.len(),
                            if names.len() == 1 { "" } else { "s" },
                            positional.len()
                        ),
                    );
                }
                for (pattern, name) in positional.iter().zip(&names) {
                    let Value::Str(attr) = name else {
                        return self.raise("TypeError", "__match_args__ elements must be strings");
                    };
                    let attr = attr.clone();
                    if !self.has_attribute(v, &attr)? {
                        return Ok(false);
                    }
                    let value = self.get_attribute(v, &attr)?;
                    if !self.matches(pattern, &value, scope)? {
                        return Ok(false);
                    }
                }
            }
        }
        for keyword in &p.arguments.keywords {
            let attr = keyword.attr.as_str();
            if !self.has_attribute(v, attr)? {
                return Ok(false);
            }
            let value = self.get_attribute(v, attr)?;
            if !self.matches(&keyword.pattern, &value, scope)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
