//! The parts of the op table the engine registers at once: tensor properties (`t.shape`)
//! and the operators between tensors and numbers (`a + b`, `a += b`). Each is registered
//! with the engine and kept here, so the Python front reads a property or applies an
//! operator with the same body and no program.

use std::collections::HashMap;
use std::rc::Rc;

use rhai::{Dynamic, Engine, Variant};

use super::errors::RhaiResult;
use crate::core::operand::Arg;
use crate::core::tensor::Tensor;

/// A tensor property's getter (`t.shape`).
pub type Getter = Rc<dyn Fn(&Tensor) -> RhaiResult<Dynamic>>;

/// An operator between a tensor and a tensor or a number, on either side (`a + b`).
pub type Operator = Rc<dyn Fn(Arg, Arg) -> RhaiResult<Tensor>>;

/// A compound assignment into a tensor (`a += b`).
pub type InPlaceOperator = Rc<dyn Fn(&Tensor, Arg) -> RhaiResult<()>>;

/// Tensor properties and operators, by name and symbol.
#[derive(Default)]
pub struct Direct {
    properties: HashMap<&'static str, Getter, ahash::RandomState>,
    operators: HashMap<Box<str>, Operator, ahash::RandomState>,
    in_place: HashMap<Box<str>, InPlaceOperator, ahash::RandomState>,
}

impl Direct {
    /// The getter of the tensor property `name`, if tensors have one.
    pub fn property(&self, name: &str) -> Option<Getter> {
        self.properties.get(name).cloned()
    }

    /// The operator `symbol` between tensors and numbers, if there is one.
    pub fn operator(&self, symbol: &str) -> Option<Operator> {
        self.operators.get(symbol).cloned()
    }

    /// The compound assignment of the operator `symbol` (`+` for `+=`) into a tensor, if
    /// there is one.
    pub fn in_place_operator(&self, symbol: &str) -> Option<InPlaceOperator> {
        self.in_place.get(symbol).cloned()
    }

    /// Keeps the operator `symbol` (the last one registered under a symbol is the engine's).
    pub fn add_operator(&mut self, symbol: &str, f: Operator) {
        self.operators.insert(symbol.into(), f);
    }

    /// Keeps the compound assignment `assignment` (`+=`), by its operator's symbol (`+`).
    pub fn add_in_place_operator(&mut self, assignment: &str, f: InPlaceOperator) {
        let symbol = assignment.strip_suffix('=').unwrap_or(assignment);
        self.in_place.insert(symbol.into(), f);
    }
}

/// Where tensor properties are registered: with the engine, and in `Direct` for reads
/// without a program.
pub struct Properties<'a> {
    /// The engine.
    pub engine: &'a mut Engine,
    /// Where the getters are kept.
    pub direct: &'a mut Direct,
}

impl Properties<'_> {
    /// The property `name` of tensors, read by `get`.
    pub fn get<R: Variant + Clone>(
        &mut self,
        name: &'static str,
        get: impl Fn(&Tensor) -> R + 'static,
    ) {
        self.fallible(name, move |t| Ok(get(t)));
    }

    /// The property `name` of tensors, read by `get`, which may raise.
    pub fn fallible<R: Variant + Clone>(
        &mut self,
        name: &'static str,
        get: impl Fn(&Tensor) -> RhaiResult<R> + 'static,
    ) {
        let get = Rc::new(get);
        let read = get.clone();
        self.engine
            .register_get(name, move |t: &mut Tensor| read(t));
        self.direct
            .properties
            .insert(name, Rc::new(move |t| get(t).map(Dynamic::from)));
    }
}
