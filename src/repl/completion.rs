//! Completion in the language a session reads now: Rhai's (`complete`) or Python's
//! (`complete_python`), over what the session knows of its names.

use std::any::TypeId;

use super::catalog::Catalog;
use super::complete::complete;

/// What completion knows of a session's names, in the language it reads now.
#[derive(Debug, Clone)]
pub enum SessionNames {
    /// Rhai's variables with their types (functions as `name(`).
    Rhai(Vec<(String, TypeId)>),
    /// Python's globals.
    Python(Vec<crate::python::interp::Known>),
}

impl SessionNames {
    /// Whether the session reads Python.
    pub fn is_python(&self) -> bool {
        matches!(self, SessionNames::Python(_))
    }
}

/// Completions for the text before `pos` in the session's language.
pub fn complete_in(
    line: &str,
    pos: usize,
    catalog: &Catalog,
    names: &SessionNames,
) -> (usize, Vec<String>) {
    match names {
        SessionNames::Rhai(variables) => complete(line, pos, catalog, variables),
        SessionNames::Python(globals) => {
            super::complete_python::complete(line, pos, catalog, globals)
        }
    }
}
