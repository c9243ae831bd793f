//! `torch.segment_reduce` (`core::segment_reduce`), recorded for autograd as
//! `SegmentReduceBackward0`.

use rhai::Dynamic;

use crate::core::segment_reduce::{
    SegmentReduction, Segments, plan, segment_reduce, segment_reduce_grad,
};
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::detached;
use crate::core::tensor::record::record_formula;
use crate::ops::convert::{to_float, to_int, to_tensor};
use crate::ops::errors::{IntoRhai, to_rhai};
use crate::ops::registry::Registry;

/// Registers `torch.segment_reduce`.
pub fn register(r: &mut Registry) {
    r.tensor_function("segment_reduce", 1, |data, a| {
        let name = a.req(0, "reduce", "segment_reduce")?;
        let name = name.clone().into_string().unwrap_or_default();
        let reduction = SegmentReduction::parse(&name).rhai()?;
        let tensor_kw = |k: &str| -> crate::ops::errors::RhaiResult<Option<Tensor>> {
            match a.kw(k).filter(|v| !v.is_unit()) {
                Some(v) => Ok(Some(to_tensor(v, k)?)),
                None => Ok(None),
            }
        };
        let (lengths, indices, offsets) = (
            tensor_kw("lengths")?,
            tensor_kw("indices")?,
            tensor_kw("offsets")?,
        );
        if indices.is_some() {
            return Err(to_rhai(crate::core::error::TorchError::runtime(
                "segment_reduce(): indices based reduction is not supported yet.",
            )));
        }
        // Offsets win when both are given, as in PyTorch.
        let segments = match (&offsets, &lengths) {
            (Some(o), _) => Segments::Offsets(o),
            (None, Some(l)) => Segments::Lengths(l),
            (None, None) => {
                return Err(to_rhai(crate::core::error::TorchError::runtime(
                    "segment_reduce(): Either lengths or offsets must be defined.",
                )));
            }
        };
        let axis = a.kw("axis").map_or(Ok(0), |v| to_int(v, "axis"))?;
        let unchecked = a.kw("unsafe").is_some_and(|v| v.as_bool().unwrap_or(false));
        let initial = match a.kw("initial").filter(|v| !v.is_unit()) {
            Some(v) => Some(to_float(v, "initial")?),
            None => None,
        };
        let plan = plan(data, &segments, axis, unchecked).rhai()?;
        let out = segment_reduce(data, reduction, &plan, initial).rhai()?;
        if data.requires_grad() {
            let (saved, result) = (detached(data), detached(&out));
            record_formula(&out, "SegmentReduceBackward0", &[data], &[data], move |g| {
                let grad = segment_reduce_grad(&saved, reduction, &plan, &result, g, initial)?;
                Ok(vec![Some(grad)])
            });
        }
        Ok(Dynamic::from(out))
    });
}
