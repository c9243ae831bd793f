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

/// `torch.device`: a device type and an optional index. tensh's tensors and storages all
/// live on the CPU (`Device::CPU`); other devices can be named as values, as in PyTorch
/// without an accelerator, but putting anything on them is refused where it is asked.
#[derive(Debug, Clone, PartialEq)]
pub struct Device {
    /// The device type, one of PyTorch's names (`cpu`, `cuda`, `meta`, ...).
    pub kind: &'static str,
    /// The index (`cuda:1` is 1), `None` where none was given.
    pub index: Option<i64>,
}

impl Device {
    /// Where every tensh tensor lives.
    pub const CPU: Device = Device {
        kind: "cpu",
        index: None,
    };

    /// PyTorch's repr: `device(type='cpu')`, `device(type='cuda', index=1)`.
    pub fn repr(&self) -> String {
        match self.index {
            Some(i) => format!("device(type='{}', index={i})", self.kind),
            None => format!("device(type='{}')", self.kind),
        }
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

/// A legacy storage class as a value (`x.storage_type()` is `torch.FloatStorage`), which
/// prints as Python prints a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StorageClass(pub &'static str);

impl StorageClass {
    /// `<class 'torch.FloatStorage'>`.
    pub fn repr(&self) -> String {
        format!("<class 'torch.{}'>", self.0)
    }
}
