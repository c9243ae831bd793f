//! Tensor methods PyTorch keeps from its older API: `x.new(...)` (the legacy constructor
//! in the receiver's dtype), `storage_type()`, `to_dense()` (a strided tensor is dense
//! already), the non-in-place `resize`/`resize_as` (deprecated; they only change the
//! shape) and `reinforce` (removed, with PyTorch's explanation).

use rhai::Dynamic;

use crate::core::tensor::graph::detached;

use crate::core::creation;
use crate::core::error::TorchError;
use crate::core::layout::Layout;
use crate::core::memory::storage::Storage;
use crate::core::tensor::Tensor;
use crate::ops::args::Args;
use crate::ops::convert::{factory_data, py_type_name, to_dtype};
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai, type_error};
use crate::ops::registry::Registry;
use crate::ops::storage::typed::TypedStorage;
use crate::ops::values::StorageClass;
use crate::ops::warnings::warn_once;

/// `x.new(...)`: no argument, an empty tensor; integers, that shape uninitialized; a
/// storage, a tensor over all of it; a tensor of the receiver's dtype, that tensor; any
/// other sequence, its data. Always in the receiver's dtype, never requiring grad.
fn new(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    if let Some(d) = a.kw("device") {
        crate::ops::placement::device("new", d)?;
    }
    let dtype = x.dtype();
    let Some(first) = a.pos.first() else {
        return Ok(Dynamic::from(
            creation::full(&[0], crate::core::scalar::Scalar::Int(0), dtype).rhai()?,
        ));
    };
    if a.pos.len() == 1 {
        let storage = first
            .read_lock::<Storage>()
            .map(|s| s.clone())
            .or_else(|| first.read_lock::<TypedStorage>().map(|t| t.storage.clone()));
        if let Some(storage) = storage {
            let n = (storage.nbytes() / dtype.itemsize()) as i64;
            return Ok(Dynamic::from(Tensor::from_parts(
                storage,
                dtype,
                Layout::contiguous(vec![n]),
            )));
        }
        if let Some(t) = first.clone().try_cast::<Tensor>() {
            if t.dtype() != dtype {
                let options = |d: crate::core::dtype::DType| {
                    format!(
                        "TensorOptions(dtype={}, device=cpu, layout=Strided, requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt))",
                        d.c_type_name()
                    )
                };
                return Err(type_error(format!(
                    "expected {} (got {})",
                    options(dtype),
                    options(t.dtype())
                )));
            }
            return Ok(Dynamic::from(t));
        }
        if first.is_array() {
            let data = factory_data(first)?;
            return Ok(Dynamic::from(
                creation::tensor_from_data(&data, Some(dtype)).rhai()?,
            ));
        }
        if first.as_int().is_err() && !first.is::<crate::ops::values::Size>() {
            return Err(type_error(format!(
                "new(): data must be a sequence (got {})",
                py_type_name(first)
            )));
        }
    }
    sized(x, a)
}

/// `x.new(2, 3)`: an uninitialized tensor of those sizes in `x`'s dtype (a negative size
/// gets PyTorch's error from the allocation).
fn sized(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let sizes = a.sizes("size")?;
    Ok(Dynamic::from(
        creation::uninitialized_contiguous(&sizes, x.dtype()).rhai()?,
    ))
}

/// `x.resize(*sizes)`: the same elements in the given shape (a view of a contiguous
/// tensor), under PyTorch's deprecation warning; the element count must not change.
fn resize_shape(x: &Tensor, sizes: Vec<i64>, op: &'static str) -> RhaiResult<Dynamic> {
    warn_once(
        if op == "resize" {
            "resize_not_in_place"
        } else {
            "resize_as_not_in_place"
        },
        &format!("non-inplace {op} is deprecated"),
    );
    let product = |s: &[i64]| s.iter().try_fold(1_i64, |p, &d| p.checked_mul(d));
    let shape = |s: &[i64]| s.iter().map(i64::to_string).collect::<Vec<_>>().join("x");
    let requested = product(&sizes);
    if requested != Some(x.numel()) {
        return Err(to_rhai(TorchError::runtime(format!(
            "requested resize to {} ({} elements in total), but the given tensor has a size of {} ({} elements). autograd's resize can only change the shape of a given tensor, while preserving the number of elements. ",
            shape(&sizes),
            requested.map_or("?".into(), |n| n.to_string()),
            shape(&x.sizes()),
            x.numel()
        ))));
    }
    let out = crate::core::views::reshape(&detached(x), &sizes).rhai()?;
    let input_sizes = x.sizes().to_vec();
    crate::core::autograd::tracked::single(&out, "ResizeBackward", x, move |g, _| {
        crate::core::views::reshape(g, &input_sizes)
    });
    Ok(Dynamic::from(out))
}

/// The `torch.<Name>Storage` class of `x`'s storage (`None` for dtypes without one).
fn storage_type(x: &Tensor) -> Dynamic {
    crate::ops::storage::typed::LEGACY_CLASSES
        .iter()
        .find(|(_, d)| *d == x.dtype())
        .map_or(Dynamic::UNIT, |(name, _)| Dynamic::from(StorageClass(name)))
}

/// Registers the methods.
pub fn register(r: &mut Registry) {
    r.method("new", 8, |x, a| new(x, &a));
    r.method("storage_type", 0, |x, _| {
        crate::ops::storage::typed::warn_deprecated();
        Ok(storage_type(x))
    });
    r.method("to_dense", 1, |x, a| {
        // Only a masked tensor's gradient depends on `masked_grad=`.
        let _ = a.kw("masked_grad");
        let dtype = match a.get(0, "dtype").filter(|d| !d.is_unit()) {
            Some(d) => to_dtype(d)?,
            None => x.dtype(),
        };
        if dtype == x.dtype() {
            return Ok(Dynamic::from(x.clone()));
        }
        let out = crate::core::copy::cast_copy(&detached(x), dtype).rhai()?;
        crate::core::autograd::tracked::single(&out, "ToCopyBackward0", x, |g, _| Ok(g.clone()));
        Ok(Dynamic::from(out))
    });
    r.method("resize", 8, |x, a| {
        resize_shape(x, a.sizes("sizes")?, "resize")
    });
    r.method("resize_as", 1, |x, a| {
        let template = a.tensor(0, "tensor", "resize_as")?;
        resize_shape(x, template.sizes().to_vec(), "resize_as")
    });
    r.method("reinforce", 1, |_, _| {
        Err(to_rhai(TorchError::runtime(REINFORCE_REMOVED)))
    });
}

/// PyTorch's message for `reinforce`, which it removed.
const REINFORCE_REMOVED: &str = "reinforce() was removed.
Use torch.distributions instead.
See https://pytorch.org/docs/main/distributions.html

Instead of:

probs = policy_network(state)
action = probs.multinomial()
next_state, reward = env.step(action)
action.reinforce(reward)
action.backward()

Use:

probs = policy_network(state)
# NOTE: categorical is equivalent to what used to be called multinomial
m = torch.distributions.Categorical(probs)
action = m.sample()
next_state, reward = env.step(action)
loss = -m.log_prob(action) * reward
loss.backward()
";
