//! A name's node remembers where its variable was found: the position in the scope's
//! variables (`Variables` keeps positions), and whether it was the scope the name is read
//! in or the module a function sits in. The next time the node runs, the variable at that
//! position is taken if its key is still that name; anything else (a scope laid out
//! otherwise by another call, a deleted name, no hint yet) goes the whole way through
//! `lookup`/`bind` and leaves a new hint. So a hint only ever saves hashing: what is read
//! and bound is what `lookup` and `bind` would give.
//!
//! Why a remembered position is right:
//! - in the scope read in: `lookup` looks there first, and `bind` binds there when the
//!   hint was left by a binding into that scope;
//! - in the module, from a function defined at module level: `lookup` finds the name in
//!   the module when the function's scope does not hold it and it is no local of the body.
//!   A node lies in one body, so every scope it is read in as a function's has that body's
//!   locals; a function's scope holds no name outside them unless `Scope::unlisted` says so,
//!   and then the hint is not used.
//!
//! The hint lives in the node's `node_index`, which nothing else in tensh reads (ruff's
//! parser leaves it unset).

use std::rc::Rc;

use ruff_python_ast::{ExprName, NodeIndex};

use super::{Flow, Interpreter};
use crate::python::function::{Scope, ScopeKind};
use crate::python::value::Value;

/// The hint's bit saying the position is in the module, not the scope read in.
const IN_MODULE: u32 = 1 << 30;

/// The largest position a hint holds (a scope with more variables is only looked up).
const MAX_POSITION: usize = (IN_MODULE - 1) as usize;

/// Where a hint was found: the scope read in, or the module a function sits in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
    Here,
    Module,
}

/// The hint `n` holds, if any.
fn hint_of(n: &ExprName) -> Option<(Place, usize)> {
    let hint = n.node_index.load().as_u32()?;
    let place = if hint & IN_MODULE == 0 {
        Place::Here
    } else {
        Place::Module
    };
    Some((place, (hint & !IN_MODULE) as usize))
}

/// Leaves a hint on `n`.
fn leave_hint(n: &ExprName, place: Place, position: usize) {
    if position > MAX_POSITION {
        return;
    }
    let bit = match place {
        Place::Here => 0,
        Place::Module => IN_MODULE,
    };
    n.node_index.set(NodeIndex::from(position as u32 | bit));
}

/// The scope a hint at `place` points into, from `scope`: the module only for the scope of
/// a function defined at module level that holds no unlisted name.
fn hinted_scope(place: Place, scope: &Scope) -> Option<&Scope> {
    match place {
        Place::Here => Some(scope),
        Place::Module => match (&scope.kind, &scope.parent) {
            (ScopeKind::Function(_), Some(module))
                if module.parent.is_none() && !scope.unlisted.get() =>
            {
                Some(module)
            }
            _ => None,
        },
    }
}

impl Interpreter {
    /// The value of the name `n` read in `scope`, as `lookup` gives it.
    pub(super) fn read_name(&self, n: &ExprName, scope: &Rc<Scope>) -> Flow<Value> {
        let name = n.id.as_str();
        if let Some((place, position)) = hint_of(n)
            && let Some(at) = hinted_scope(place, scope)
            && let Some((key, value)) = at.vars.borrow().get_index(position)
            && **key == *name
        {
            return Ok(value.clone());
        }
        let value = self.lookup(name, scope)?;
        if let Some(position) = scope.vars.borrow().get_index_of(name) {
            leave_hint(n, Place::Here, position);
        } else if let Some(module) = hinted_scope(Place::Module, scope)
            && let Some(position) = module.vars.borrow().get_index_of(name)
        {
            leave_hint(n, Place::Module, position);
        }
        Ok(value)
    }

    /// Binds the name `n` to `value` in `scope`, as `bind` does.
    pub(super) fn bind_name(&self, n: &ExprName, value: Value, scope: &Rc<Scope>) {
        let name = n.id.as_str();
        if let Some((Place::Here, position)) = hint_of(n) {
            let mut vars = scope.vars.borrow_mut();
            if let Some((key, slot)) = vars.get_index_mut(position)
                && **key == *name
            {
                let old = std::mem::replace(slot, value);
                drop(vars);
                drop(old);
                return;
            }
        }
        self.bind(name, value, scope);
        if let Some(position) = self.bound_here(name, scope) {
            leave_hint(n, Place::Here, position);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hint_keeps_its_place_and_position() {
        let parsed = ruff_python_parser::parse_expression("x").expect("parses");
        let ruff_python_ast::Expr::Name(n) = parsed.expr() else {
            panic!("a name")
        };
        assert_eq!(hint_of(n), None);
        leave_hint(n, Place::Module, 7);
        assert_eq!(hint_of(n), Some((Place::Module, 7)));
        leave_hint(n, Place::Here, MAX_POSITION);
        assert_eq!(hint_of(n), Some((Place::Here, MAX_POSITION)));
        leave_hint(n, Place::Module, MAX_POSITION + 1);
        assert_eq!(
            hint_of(n),
            Some((Place::Here, MAX_POSITION)),
            "too far: unchanged"
        );
    }
}
