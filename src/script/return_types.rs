//! PyTorch's named tuples (`torch.return_types.max(values=..., indices=...)`): what
//! `max(dim)`, `min(dim)` and their kind return. Fields are read by name (`m.values`) or by
//! position (`m[0]`, `m[-1]`); printing follows PyTorch's repr.

use rhai::{Dynamic, Engine, INT};

use crate::core::error::TorchError;
use crate::script::errors::{RhaiResult, to_rhai};
use crate::script::registration;
use crate::script::signature::Owner;

/// A named tuple of `torch.return_types`.
#[derive(Debug, Clone)]
pub struct ReturnTuple {
    /// The type's name (`max`), printed after `torch.return_types.`.
    pub kind: &'static str,
    /// The fields in order, with their names.
    pub fields: Vec<(&'static str, Dynamic)>,
}

impl Owner for ReturnTuple {
    const OWNER: &'static str = "return_types";
}

impl ReturnTuple {
    /// PyTorch's repr: each field on its own line, `name=repr`.
    fn repr(&self) -> RhaiResult<String> {
        let mut out = format!("torch.return_types.{}(", self.kind);
        for (k, (name, value)) in self.fields.iter().enumerate() {
            let sep = if k + 1 == self.fields.len() { ")" } else { "," };
            let text = match value.clone().try_cast::<crate::core::tensor::Tensor>() {
                Some(t) => crate::print::tensor_repr::tensor_repr(&t).map_err(to_rhai)?,
                None => value.to_string(),
            };
            out.push_str(&format!("\n{name}={text}{sep}"));
        }
        Ok(out)
    }

    /// Field `i` (negative counts from the end), or Python's IndexError.
    fn at(&self, i: INT) -> RhaiResult<Dynamic> {
        let n = self.fields.len() as i64;
        let j = if i < 0 { i + n } else { i };
        if !(0..n).contains(&j) {
            return Err(to_rhai(TorchError::index("tuple index out of range")));
        }
        Ok(self.fields[j as usize].1.clone())
    }

    /// The field called `name`, or Python's AttributeError.
    fn field(&self, name: &str) -> RhaiResult<Dynamic> {
        self.fields
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| {
                to_rhai(TorchError::attribute(format!(
                    "'torch.return_types.{}' object has no attribute '{name}'",
                    self.kind
                )))
            })
    }
}

impl IntoIterator for ReturnTuple {
    type Item = Dynamic;
    type IntoIter = std::vec::IntoIter<Dynamic>;
    fn into_iter(self) -> Self::IntoIter {
        self.fields
            .into_iter()
            .map(|(_, v)| v)
            .collect::<Vec<_>>()
            .into_iter()
    }
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
