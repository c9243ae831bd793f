//! The value behind PyTorch's named tuples (`torch.return_types.max(values=..., indices=...)`):
//! a kind and named fields, with PyTorch's repr. `return_types` registers it for scripts.

use rhai::{Dynamic, INT};

use crate::core::error::TorchError;
use crate::ops::errors::{RhaiResult, to_rhai};

/// A named tuple of `torch.return_types`.
#[derive(Debug, Clone)]
pub struct ReturnTuple {
    /// The type's name (`max`), printed after `torch.return_types.`.
    pub kind: &'static str,
    /// The fields in order, with their names.
    pub fields: Vec<(&'static str, Dynamic)>,
}

impl ReturnTuple {
    /// PyTorch's repr: each field on its own line, `name=repr`.
    pub fn repr(&self) -> RhaiResult<String> {
        let mut out = format!("torch.return_types.{}(", self.kind);
        for (k, (name, value)) in self.fields.iter().enumerate() {
            let sep = if k + 1 == self.fields.len() { ")" } else { "," };
            let text = match value.read_lock::<rhai::Array>() {
                // A tuple field (`histogramdd`'s `bin_edges`): Python's tuple repr.
                Some(items) => {
                    let parts = items.iter().map(repr_of).collect::<RhaiResult<Vec<_>>>()?;
                    match parts.as_slice() {
                        [one] => format!("({one},)"),
                        _ => format!("({})", parts.join(", ")),
                    }
                }
                None => repr_of(value)?,
            };
            out.push_str(&format!("\n{name}={text}{sep}"));
        }
        Ok(out)
    }

    /// Field `i` (negative counts from the end), or Python's IndexError.
    pub fn at(&self, i: INT) -> RhaiResult<Dynamic> {
        let n = self.fields.len() as i64;
        let j = if i < 0 { i + n } else { i };
        if !(0..n).contains(&j) {
            return Err(to_rhai(TorchError::index("tuple index out of range")));
        }
        Ok(self.fields[j as usize].1.clone())
    }

    /// The field called `name`, or Python's AttributeError.
    pub fn field(&self, name: &str) -> RhaiResult<Dynamic> {
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

/// A field's repr: a tensor's as PyTorch prints it, anything else as displayed.
fn repr_of(value: &Dynamic) -> RhaiResult<String> {
    Ok(
        match value.clone().try_cast::<crate::core::tensor::Tensor>() {
            Some(t) => crate::print::tensor_repr::tensor_repr(&t).map_err(to_rhai)?,
            None => value.to_string(),
        },
    )
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
