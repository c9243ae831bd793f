//! `torch.nn.functional`'s `linear`, `one_hot` and `normalize`, composed of the table's
//! ops as ATen composes them (a 2-d `linear` with a bias is one `addmm`, so its node is
//! `AddmmBackward0`; without one it is `matmul`).

use std::rc::Rc;

use rhai::Dynamic;

use super::{Functions, call, number, tensor};
use crate::core::dtype::DType;
use crate::core::error::TorchError;
use crate::core::tensor::Tensor;
use crate::ops::errors::{IntoRhai, to_rhai, type_error};

/// Adds the three.
pub fn add_all(f: &mut Functions) {
    let (addmm, matmul, t, add) = (f.op("addmm"), f.op("matmul"), f.op("t"), f.op("add"));
    f.add(
        "linear",
        3,
        Rc::new(move |a| {
            let x = tensor(&a, 0, "input", "linear")?;
            let w = tensor(&a, 1, "weight", "linear")?;
            let bias = match a.get(2, "bias") {
                None => None,
                Some(v) => Some(v.clone().try_cast::<Tensor>().ok_or_else(|| {
                    type_error(format!(
                        "linear(): argument 'bias' (position 3) must be Tensor, not {}",
                        crate::ops::convert::py_type_name(v)
                    ))
                })?),
            };
            let wt = call(&t, &w, vec![])?;
            if x.ndim() == 2
                && let Some(b) = &bias
            {
                return Ok(Dynamic::from(call(
                    &addmm,
                    b,
                    vec![Dynamic::from(x), Dynamic::from(wt)],
                )?));
            }
            let product = call(&matmul, &x, vec![Dynamic::from(wt)])?;
            Ok(Dynamic::from(match bias {
                Some(b) => call(&add, &product, vec![Dynamic::from(b)])?,
                None => product,
            }))
        }),
    );
    f.add(
        "one_hot",
        2,
        Rc::new(|a| {
            let x = tensor(&a, 0, "input", "one_hot")?;
            let classes = match a.get(1, "num_classes") {
                None => -1,
                Some(v) => crate::ops::convert::to_int(v, "num_classes")?,
            };
            Ok(Dynamic::from(one_hot(&x, classes).rhai()?))
        }),
    );
    let (norm, clamp_min, expand_as, div) = (
        f.op("norm"),
        f.op("clamp_min"),
        f.op("expand_as"),
        f.op("div"),
    );
    f.add(
        "normalize",
        5,
        Rc::new(move |a| {
            let x = tensor(&a, 0, "input", "normalize")?;
            let p = number(&a, 1, "p", "normalize", 2.0)?;
            let dim = match a.get(2, "dim") {
                None => 1,
                Some(v) => crate::ops::convert::to_int(v, "dim")?,
            };
            let eps = number(&a, 3, "eps", "normalize", 1e-12)?;
            if a.get(4, "out").is_some() {
                return Err(to_rhai(TorchError::not_implemented(
                    "tensh's normalize does not take out= yet",
                )));
            }
            let norms = call(
                &norm,
                &x,
                vec![Dynamic::from(p), Dynamic::from(dim), Dynamic::from(true)],
            )?;
            let floor = call(&clamp_min, &norms, vec![Dynamic::from(eps)])?;
            let spread = call(&expand_as, &floor, vec![Dynamic::from(x.clone())])?;
            Ok(Dynamic::from(call(&div, &x, vec![Dynamic::from(spread)])?))
        }),
    );
}

/// `one_hot(x, num_classes)`: an int64 tensor with a last dim of the classes, 1 at each
/// element's class (`num_classes = -1`: one more than the largest).
fn one_hot(x: &Tensor, classes: i64) -> crate::core::error::Result<Tensor> {
    if x.dtype() != DType::Int64 {
        return Err(TorchError::runtime(
            "one_hot is only applicable to index tensor of type LongTensor.",
        ));
    }
    let values: Vec<i64> = crate::core::copy::to_scalars(x)?
        .iter()
        .map(|v| v.to_i64())
        .collect();
    if values.is_empty() && classes <= 0 {
        return Err(TorchError::runtime(
            "Can not infer total number of classes from empty tensor.",
        ));
    }
    if values.iter().any(|&v| v < 0) {
        return Err(TorchError::runtime("Class values must be non-negative."));
    }
    let largest = values.iter().copied().max().unwrap_or(-1);
    let classes = if classes == -1 {
        largest + 1
    } else {
        if largest >= classes {
            return Err(TorchError::runtime(
                "Class values must be smaller than num_classes.",
            ));
        }
        classes
    };
    let mut sizes = x.sizes();
    sizes.push(classes);
    let mut bytes = crate::core::memory::alloc::zeroed_bytes(
        crate::core::memory::alloc::contiguous_nbytes(&sizes, 8)?,
    )?;
    for (row, &class) in values.iter().enumerate() {
        let at = (row * classes as usize + class as usize) * 8;
        bytes[at..at + 8].copy_from_slice(&1_i64.to_le_bytes());
    }
    let layout = crate::core::layout::Layout::contiguous(sizes.as_slice());
    Ok(Tensor::from_parts(
        crate::core::memory::storage::Storage::from_vec(bytes),
        DType::Int64,
        layout,
    ))
}
