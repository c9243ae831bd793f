//! `torch.Size` as the tuple it is in PyTorch: `+` with a tuple or another size (on either
//! side) and `*` by an int give a `torch.Size`, whose items must be ints, with PyTorch's
//! messages for anything else.

use super::{Flow, Interpreter};
use crate::ops::values::Size;
use crate::python::number::BinOp;
use crate::python::value::Value;

fn is_size(v: &Value) -> bool {
    v.is_host::<Size>()
}

impl Interpreter {
    /// `a op b` where one side is a `torch.Size` and the operator makes sequences (`+`,
    /// `*`); `None` where this is not such a case.
    pub(super) fn size_arithmetic(
        &mut self,
        op: BinOp,
        a: &Value,
        b: &Value,
    ) -> Flow<Option<Value>> {
        if !(is_size(a) || is_size(b)) {
            return Ok(None);
        }
        match op {
            BinOp::Add => {
                let other = if is_size(a) { b } else { a };
                if !(matches!(other, Value::Tuple(_)) || is_size(other)) {
                    if !is_size(a) {
                        // `[1] + size` and the like: the left operand's own refusal.
                        return Ok(None);
                    }
                    return self.raise(
                        "TypeError",
                        format!(
                            "can only concatenate tuple (not {}) to torch.Size",
                            other.type_name()
                        ),
                    );
                }
                let mut items = self.collect(a)?;
                items.extend(self.collect(b)?);
                self.size_of(items).map(Some)
            }
            BinOp::Mul => {
                let (size, times) = if is_size(a) { (a, b) } else { (b, a) };
                let Some(n) = times.as_int() else {
                    return self.raise(
                        "TypeError",
                        format!(
                            "can't multiply sequence by non-int of type '{}'",
                            times.type_name()
                        ),
                    );
                };
                let items = self.collect(size)?;
                let repeated = self.repeat(&Value::list(items), n)?;
                let items = self.collect(&repeated)?;
                self.size_of(items).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// A `torch.Size` of `items`, each an int (a one-element integer tensor counts, as its
    /// `__index__`), or PyTorch's `TypeError` naming the first that is not.
    fn size_of(&mut self, items: Vec<Value>) -> Flow<Value> {
        let mut sizes = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let n = match item {
                Value::Int(n) => *n,
                Value::Tensor(t) => self.tensor_as_index(t)?,
                other => {
                    return self.raise(
                        "TypeError",
                        format!(
                            "torch.Size() takes an iterable of 'int' (item {i} is '{}')",
                            other.type_name()
                        ),
                    );
                }
            };
            sizes.push(n);
        }
        Ok(Value::Host(rhai::Dynamic::from(Size(sizes))))
    }
}
