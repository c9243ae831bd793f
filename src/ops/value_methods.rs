//! The methods of values other than tensors — storages, typed storages, buffers, named
//! tuples, complex numbers — that `registration::method` registers with the engine, kept
//! here as well by receiver type and name, so a direct call (the Python front's
//! `s.nbytes()`) reaches the method's checked callable without the engine resolving a
//! call by name and argument types each time.
//!
//! Invariant: a direct call picks the form a program's call would. Each method is
//! registered for every arity up to its maximum and the engine keeps the last registration
//! of an arity, so the form for `given` arguments is the last one kept whose maximum reaches
//! `given`; a call no kept form takes is left to the engine. The engine has no other forms
//! of these names for these receiver types (a test in `session` checks it).
//!
//! The bodies capture nothing of a session, so the table is the thread's: every engine the
//! thread builds keeps the same methods again (`forget_all` before it starts).

use std::any::TypeId;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use rhai::Dynamic;

use super::args::Args;
use super::errors::RhaiResult;

/// A kept method, called with the receiver (of the type it is kept for) and the call's
/// arguments.
pub type ValueMethod = dyn Fn(&Dynamic, Args) -> RhaiResult<Dynamic>;

/// One registered form: the most arguments it takes and its callable.
struct Form {
    arity: usize,
    call: Rc<ValueMethod>,
}

/// Hashed with ahash (already Rhai's): a direct call looks its method up every time, and
/// std's SipHash was most of such a call's cost.
type Hasher = ahash::RandomState;

/// One receiver type's methods: name → its forms in registration order.
type TypeMethods = HashMap<Box<str>, Vec<Form>, Hasher>;

thread_local! {
    /// Receiver type → its methods.
    static METHODS: RefCell<HashMap<TypeId, TypeMethods, Hasher>> =
        RefCell::new(HashMap::default());
}

/// Forgets every kept method (an engine is about to register them all again).
pub fn forget_all() {
    super::generation::bump();
    METHODS.with(|m| m.borrow_mut().clear());
}

/// Keeps `call` as the method `name` of the receiver type `owner`, taking up to `arity`
/// arguments (the keyword map counted as one).
pub fn keep(owner: TypeId, name: &str, arity: usize, call: Rc<ValueMethod>) {
    super::generation::bump();
    METHODS.with(|m| {
        m.borrow_mut()
            .entry(owner)
            .or_default()
            .entry(name.into())
            .or_default()
            .push(Form { arity, call })
    });
}

/// The kept form of `receiver`'s method `name` (as a script writes it) for a call of
/// `given` arguments, if any. It stays the form for such a call while the registration
/// generation (`generation`) stays the same (keeping and forgetting change it).
pub fn method_for(receiver: &Dynamic, name: &str, given: usize) -> Option<Rc<ValueMethod>> {
    let name = super::renamed::as_registered(name);
    METHODS.with(|m| {
        m.borrow()
            .get(&receiver.type_id())?
            .get(name)?
            .iter()
            .rev()
            .find(|f| f.arity >= given)
            .map(|f| f.call.clone())
    })
}

/// Every kept method, as (receiver type, name, the arities of its forms).
#[cfg(test)]
pub fn kept() -> Vec<(TypeId, String, Vec<usize>)> {
    METHODS.with(|m| {
        m.borrow()
            .iter()
            .flat_map(|(owner, names)| {
                names.iter().map(|(name, forms)| {
                    (
                        *owner,
                        name.to_string(),
                        forms.iter().map(|f| f.arity).collect(),
                    )
                })
            })
            .collect()
    })
}
