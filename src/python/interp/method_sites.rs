//! A method call site on a tensh value (`w.view(16)`, `s.nbytes()` in a loop) remembers the
//! method it called, so the next run of the same node calls it without looking the name up
//! again.
//!
//! Invariant: a remembered method is only used for the node it was found at, on a receiver
//! of the type it was found for, with as many arguments (as `Args::given` counts them), and
//! while the registration generation (`script::generation`) is the one it was
//! found under. A lookup by name under those conditions gives the same method (each kind of
//! method is found by receiver type, name and count alone, and every change to the tables
//! changes the generation), so a remembered method only ever saves the lookup.
//!
//! The site's place in the list lives in the attribute node's `node_index`, which nothing
//! else in tensh reads on attribute nodes (`name_hints` uses it on name nodes). The site
//! keeps the node's address beside it, so an index read off another tree (another session's,
//! or a freed tree's node at a reused address holding no index) is never taken as its own.

use std::any::TypeId;

use ruff_python_ast::{ExprAttribute, NodeIndex};

use crate::python::host::{FoundMethod, registration_generation};

/// The most sites kept at once; past it the list starts again, so a session of many cells
/// holds a bounded list (a site forgotten is only looked up again).
const MAX_SITES: usize = 1 << 14;

/// The call sites that have remembered a method.
#[derive(Default)]
pub(super) struct MethodSites {
    sites: Vec<Site>,
}

/// One call site's remembered method and what it was found for.
struct Site {
    node: *const ExprAttribute,
    receiver: TypeId,
    given: usize,
    generation: u64,
    found: FoundMethod,
}

impl MethodSites {
    /// The method `node` remembered for a receiver of type `receiver` and `given`
    /// arguments, if it still holds.
    pub(super) fn found(
        &self,
        node: &ExprAttribute,
        receiver: TypeId,
        given: usize,
    ) -> Option<&FoundMethod> {
        let site = self.sites.get(node.node_index.load().as_u32()? as usize)?;
        (std::ptr::eq(site.node, node)
            && site.receiver == receiver
            && site.given == given
            && site.generation == registration_generation())
        .then_some(&site.found)
    }

    /// Whether `node` remembers a method for a receiver of type `receiver` (for any number
    /// of arguments, under any generation): the name is a method of that type's, so no
    /// property of it.
    pub(super) fn knows(&self, node: &ExprAttribute, receiver: TypeId) -> bool {
        node.node_index
            .load()
            .as_u32()
            .and_then(|i| self.sites.get(i as usize))
            .is_some_and(|site| std::ptr::eq(site.node, node) && site.receiver == receiver)
    }

    /// Remembers `found` at `node`, for a receiver of type `receiver` and `given` arguments.
    pub(super) fn keep(
        &mut self,
        node: &ExprAttribute,
        receiver: TypeId,
        given: usize,
        found: FoundMethod,
    ) {
        let site = Site {
            node,
            receiver,
            given,
            generation: registration_generation(),
            found,
        };
        if let Some(i) = node.node_index.load().as_u32().map(|i| i as usize)
            && self
                .sites
                .get(i)
                .is_some_and(|s| std::ptr::eq(s.node, node))
        {
            self.sites[i] = site;
            return;
        }
        if self.sites.len() >= MAX_SITES {
            self.sites.clear();
        }
        node.node_index
            .set(NodeIndex::from(self.sites.len() as u32));
        self.sites.push(site);
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use rhai::Dynamic;

    use super::*;

    fn attribute(code: &str) -> &'static ExprAttribute {
        let parsed = Box::leak(Box::new(
            ruff_python_parser::parse_expression(code).expect("parses"),
        ));
        let ruff_python_ast::Expr::Attribute(a) = parsed.expr() else {
            panic!("an attribute")
        };
        a
    }

    fn found() -> FoundMethod {
        FoundMethod::Value(Rc::new(|_: &Dynamic, _| Ok(Dynamic::UNIT)))
    }

    #[test]
    fn a_site_holds_for_its_node_type_count_and_generation_only() {
        let (here, there) = (attribute("s.nbytes"), attribute("s.nbytes"));
        let (storage, tensor) = (TypeId::of::<u8>(), TypeId::of::<u16>());
        let mut sites = MethodSites::default();
        assert!(sites.found(here, storage, 0).is_none());
        sites.keep(here, storage, 0, found());
        assert!(sites.found(here, storage, 0).is_some());
        assert!(sites.found(here, storage, 1).is_none(), "another count");
        assert!(
            sites.found(here, tensor, 0).is_none(),
            "another receiver type"
        );
        assert!(sites.knows(here, storage) && !sites.knows(here, tensor));
        // Another node given this one's index is not taken for it.
        there.node_index.set(here.node_index.load());
        assert!(sites.found(there, storage, 0).is_none());
        assert!(!sites.knows(there, storage));
        // Keeping at the same node again replaces its site.
        sites.keep(here, tensor, 2, found());
        assert_eq!(sites.sites.len(), 1);
        assert!(sites.found(here, tensor, 2).is_some());
        crate::ops::generation::bump();
        assert!(
            sites.found(here, tensor, 2).is_none(),
            "registrations changed"
        );
        assert!(sites.knows(here, tensor));
    }
}
