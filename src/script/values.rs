//! Script-side values that Python has and Rhai lacks: `torch.Size`, `torch.device`, and
//! Python's `complex`.

use num_complex::Complex64;

use crate::print::number::complex_repr;

/// `torch.Size`: prints `torch.Size([4, 4])`, indexes like a list.
#[derive(Debug, Clone, PartialEq)]
pub struct Size(pub Vec<i64>);

impl Size {
    /// PyTorch's repr.
    pub fn repr(&self) -> String {
        let parts: Vec<String> = self.0.iter().map(|s| s.to_string()).collect();
        format!("torch.Size([{}])", parts.join(", "))
    }
}

/// `torch.device`: tensh tensors live on the CPU.
#[derive(Debug, Clone, PartialEq)]
pub struct Device;

impl Device {
    /// PyTorch's repr.
    pub fn repr(&self) -> String {
        "device(type='cpu')".to_string()
    }
}

/// A Python `complex` number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PyComplex(pub Complex64);

impl PyComplex {
    /// Python's repr: `(1+2j)`.
    pub fn repr(&self) -> String {
        complex_repr(self.0.re, self.0.im)
    }
}

/// Registers `Size` indexing, `len`, equality and iteration, and dtype equality.
pub fn register(engine: &mut rhai::Engine) {
    use super::errors::{RhaiResult, to_rhai};
    use crate::core::error::TorchError;
    use rhai::{Array, Dynamic, INT};
    engine.register_indexer_get(|s: &mut Size, i: INT| -> RhaiResult<INT> {
        let n = s.0.len() as i64;
        let j = if i < 0 { i + n } else { i };
        s.0.get(j.max(0) as usize)
            .copied()
            .filter(|_| j >= 0)
            .ok_or_else(|| to_rhai(TorchError::index("tuple index out of range")))
    });
    super::args::method::<Size>(engine, "len", 0, |s, _| Ok(Dynamic::from(s.0.len() as INT)));
    super::args::method::<Size>(engine, "numel", 0, |s, _| {
        Ok(Dynamic::from(s.0.iter().product::<i64>()))
    });
    super::args::method::<Size>(engine, "tolist", 0, |s, _| {
        Ok(Dynamic::from_array(
            s.0.iter().map(|&x| Dynamic::from(x)).collect(),
        ))
    });
    engine.register_fn("==", |a: Size, b: Size| a == b);
    engine.register_fn("!=", |a: Size, b: Size| a != b);
    engine.register_fn("==", |a: Size, b: Array| {
        a.0.len() == b.len() && a.0.iter().zip(&b).all(|(x, y)| y.as_int() == Ok(*x))
    });
    engine.register_fn("==", |a: Array, b: Size| {
        b.0.len() == a.len() && b.0.iter().zip(&a).all(|(x, y)| y.as_int() == Ok(*x))
    });
    engine.register_iterator::<Size>();
    engine.register_fn(
        "==",
        |a: crate::core::dtype::DType, b: crate::core::dtype::DType| a == b,
    );
    engine.register_fn(
        "!=",
        |a: crate::core::dtype::DType, b: crate::core::dtype::DType| a != b,
    );
}

impl IntoIterator for Size {
    type Item = i64;
    type IntoIter = std::vec::IntoIter<i64>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}
