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

impl IntoIterator for Size {
    type Item = i64;
    type IntoIter = std::vec::IntoIter<i64>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}
