//! PyTorch's named tuples (`torch.return_types.max(values=..., indices=...)`): what
//! `max(dim)`, `min(dim)` and their kind return. Fields are read by name (`m.values`) or by
//! position (`m[0]`, `m[-1]`); printing follows PyTorch's repr.

use rhai::{Dynamic, Engine, INT};

use crate::ops::registration;
pub use crate::ops::return_tuple::ReturnTuple;
use crate::ops::signature::Owner;

impl Owner for ReturnTuple {
    const OWNER: &'static str = "return_types";
}

/// Registers the named tuples: repr, fields by name and position, `len`, `list(m)` as
/// `m.tolist()`, iteration.
pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<ReturnTuple>("return_types");
    for name in ["to_string", "to_debug"] {
        engine.register_fn(name, |r: &mut ReturnTuple| r.repr());
    }
    engine.register_indexer_get(|r: &mut ReturnTuple, i: INT| r.at(i));
    // `m.values`: with no getter of that name, Rhai reads the property through this indexer.
    engine.register_indexer_get(|r: &mut ReturnTuple, name: &str| r.field(name));
    registration::method::<ReturnTuple>(engine, "len", 0, |r, _| {
        Ok(Dynamic::from(r.fields.len() as INT))
    });
    registration::method::<ReturnTuple>(engine, "tolist", 0, |r, _| {
        Ok(Dynamic::from_array(
            r.fields.iter().map(|(_, v)| v.clone()).collect(),
        ))
    });
    engine.register_iterator::<ReturnTuple>();
}
