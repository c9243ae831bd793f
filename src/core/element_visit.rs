//! `apply_`, `map_` and `map2_`: a script function called on each element of a tensor, in
//! its logical (row-major) order, its result written back at once (so a later element of
//! an overlapping view reads it, as in PyTorch). The visit reads and writes one element at
//! a time and holds no borrow of any storage between them, so the script function may
//! read or write the tensors itself. The script fronts call the function; this module
//! checks the operands as PyTorch does and moves the elements. As in PyTorch, the writes
//! leave the version counter alone.

use super::dtype::DType;
use super::element;
use super::error::{Result, TorchError};
use super::scalar::Scalar;
use super::strided::for_each_run;
use super::tensor::Tensor;

/// The element offsets (in items) of `t`'s storage, in logical order.
fn logical_offsets(t: &Tensor) -> Result<Vec<i64>> {
    let layout = t.layout();
    let mut offsets = super::memory::alloc::vec_with_capacity::<i64>(t.numel().max(0) as usize)?;
    for_each_run(
        &layout.sizes,
        [(&layout.strides, layout.offset)],
        |[start], n, [step]| offsets.extend((0..n as i64).map(|i| start + i * step)),
    );
    Ok(offsets)
}

/// One tensor visited: it and the storage offsets of its elements.
struct Visited {
    tensor: Tensor,
    offsets: Vec<i64>,
}

impl Visited {
    fn read(&self, k: usize) -> Result<Scalar> {
        let item = self.tensor.dtype().itemsize();
        let at = self.offsets.get(k).copied().unwrap_or(-1);
        let d = self.tensor.dtype();
        self.tensor.storage().with_bytes(|b| {
            usize::try_from(at)
                .ok()
                .and_then(|at| b.get(at * item..(at + 1) * item))
                .map(|bytes| element::read(d, bytes))
                .ok_or_else(|| TorchError::runtime("element outside the tensor's storage"))
        })
    }
}

/// A visit of a target tensor (written) and the tensors read beside it.
pub struct Visit {
    target: Visited,
    others: Vec<Visited>,
}

impl Visit {
    /// Checks the operands of `method` (`apply_`, `map_`, `map2_`): the target must not
    /// require grad; each other tensor (named as PyTorch names it) must have the target's
    /// dtype and is broadcast to its shape.
    pub fn new(target: &Tensor, others: &[(&Tensor, &str)], method: &str) -> Result<Visit> {
        if target.requires_grad() {
            return Err(TorchError::runtime(format!(
                "Can't call {method}() on Variable that requires grad. Use var.detach().{method}() instead."
            )));
        }
        let mut visited = Vec::with_capacity(others.len());
        for (other, name) in others {
            if other.dtype() != target.dtype() {
                return Err(TorchError::type_error(format!(
                    "{method}: expected {} for {name} (got {})",
                    target.dtype().legacy_tensor_type(),
                    other.dtype().legacy_tensor_type()
                )));
            }
            let spread =
                super::views::expand(&super::tensor::graph::detached(other), &target.sizes())?;
            let offsets = logical_offsets(&spread)?;
            visited.push(Visited {
                tensor: spread,
                offsets,
            });
        }
        Ok(Visit {
            target: Visited {
                tensor: target.clone(),
                offsets: logical_offsets(target)?,
            },
            others: visited,
        })
    }

    /// The number of elements visited.
    pub fn len(&self) -> usize {
        self.target.offsets.len()
    }

    /// Whether there is no element to visit.
    pub fn is_empty(&self) -> bool {
        self.target.offsets.is_empty()
    }

    /// The target's dtype (what a result is converted to).
    pub fn dtype(&self) -> DType {
        self.target.tensor.dtype()
    }

    /// Element `k` of the target, then of each other tensor, as they are now.
    pub fn values(&self, k: usize) -> Result<Vec<Scalar>> {
        std::iter::once(&self.target)
            .chain(&self.others)
            .map(|v| v.read(k))
            .collect()
    }

    /// Writes `value` (converted to the target's dtype) as element `k` of the target.
    pub fn write(&self, k: usize, value: Scalar) -> Result<()> {
        let d = self.dtype();
        let item = d.itemsize();
        let at = self.target.offsets.get(k).copied().unwrap_or(-1);
        self.target.tensor.storage().with_bytes_mut(|b| {
            let slot = usize::try_from(at)
                .ok()
                .and_then(|at| b.get_mut(at * item..(at + 1) * item))
                .ok_or_else(|| TorchError::runtime("element outside the tensor's storage"))?;
            element::write(d, slot, element::cast(d, value));
            Ok(())
        })
    }
}

/// PyTorch's refusal of a script function's result that is not a number, for a target of
/// `dtype` (`type_name`: Python's name of the result's type).
pub fn refused_result(dtype: DType, type_name: &str) -> TorchError {
    if dtype.is_floating_point() || dtype.is_complex() {
        TorchError::type_error(format!("must be real number, not {type_name}"))
    } else {
        TorchError::type_error(format!(
            "'{type_name}' object cannot be interpreted as an integer"
        ))
    }
}

/// PyTorch's refusal of a call of `method` (`apply_`, `map_`, `map2_`) whose arguments do
/// not fit: `given` holds Python's type name of each positional argument (`"Tensor"` for
/// a tensor, `"function"` for something callable), `keywords` whether any was given by
/// keyword. `None` when the call fits.
pub fn refused_call(method: &str, given: &[&str], keywords: bool) -> Option<TorchError> {
    let params: &[&str] = match method {
        "apply_" => &["callable"],
        "map_" => &["other", "callable"],
        _ => &["x", "y", "callable"],
    };
    if method == "apply_" {
        if keywords {
            return Some(TorchError::type_error(
                "TensorBase.apply_() takes no keyword arguments",
            ));
        }
        if given.len() != 1 {
            return Some(TorchError::type_error(format!(
                "TensorBase.apply_() takes exactly one argument ({} given)",
                given.len()
            )));
        }
    }
    if keywords || given.len() < params.len() {
        let missing: Vec<String> = params[given.len().min(params.len())..]
            .iter()
            .map(|p| format!("\"{p}\""))
            .collect();
        // PyTorch's wording: "arguments" for one missing, "argument" for more.
        let noun = if missing.len() == 1 {
            "arguments"
        } else {
            "argument"
        };
        return Some(TorchError::type_error(format!(
            "{method}() missing {} required positional {noun}: {}",
            missing.len(),
            missing.join(", ")
        )));
    }
    if given.len() > params.len() {
        return Some(TorchError::type_error(format!(
            "{method}() takes {} positional arguments but {} were given",
            params.len(),
            given.len()
        )));
    }
    for (k, (param, ty)) in params.iter().zip(given).enumerate() {
        if *param == "callable" {
            if *ty != "function" {
                return Some(TorchError::type_error(format!(
                    "'{ty}' object is not callable"
                )));
            }
        } else if *ty != "Tensor" {
            return Some(TorchError::type_error(format!(
                "{method}(): argument '{param}' (position {}) must be Tensor, not {ty}",
                k + 1
            )));
        }
    }
    None
}
