//! `torch.cdist` and `torch.pdist` (`core::distance`), recorded for autograd as
//! `CdistBackward0` and `PdistBackward0`, with `cdist`'s `compute_mode` checked as
//! PyTorch's Python wrapper checks it.

use rhai::Dynamic;

use crate::core::autograd::sum_to;
use crate::core::distance::{cdist, cdist_grads, cdist_shape, check_pdist, pdist, pdist_grad};
use crate::core::error::TorchError;
use crate::core::tensor::graph::detached;
use crate::core::tensor::record::record_formula;
use crate::ops::convert::to_float;
use crate::ops::errors::{IntoRhai, to_rhai};
use crate::ops::registry::Registry;

/// `cdist`'s modes: whether to use a matrix product for Euclidean distances.
const MODES: [&str; 3] = [
    "use_mm_for_euclid_dist_if_necessary",
    "use_mm_for_euclid_dist",
    "donot_use_mm_for_euclid_dist",
];

/// Registers `torch.cdist` and `torch.pdist`.
pub fn register(r: &mut Registry) {
    r.function("cdist", 4, |a| {
        let x1 = a.tensor(0, "x1", "cdist")?;
        let x2 = a.tensor(1, "x2", "cdist")?;
        let p = a.get(2, "p").map_or(Ok(2.0), |v| to_float(v, "p"))?;
        if let Some(mode) = a.get(3, "compute_mode").filter(|v| !v.is_unit()) {
            let mode = mode.to_string();
            if !MODES.contains(&mode.as_str()) {
                return Err(to_rhai(TorchError::value(format!(
                    "{mode} is not a valid value for compute_mode"
                ))));
            }
        }
        let shape = cdist_shape(&x1, &x2, p).rhai()?;
        let out = cdist(&x1, &x2, p, &shape).rhai()?;
        if x1.requires_grad() || x2.requires_grad() {
            let (s1, s2, result) = (detached(&x1), detached(&x2), detached(&out));
            let (size1, size2) = (x1.sizes(), x2.sizes());
            record_formula(&out, "CdistBackward0", &[&x1, &x2], &[&x1, &x2], move |g| {
                let (g1, g2) = cdist_grads(&s1, &s2, p, &shape, &result, g)?;
                Ok(vec![Some(sum_to(&g1, &size1)?), Some(sum_to(&g2, &size2)?)])
            });
        }
        Ok(Dynamic::from(out))
    });
    r.tensor_function("pdist", 1, |x, a| {
        let p = a.get(0, "p").map_or(Ok(2.0), |v| to_float(v, "p"))?;
        check_pdist(x, p).rhai()?;
        let out = pdist(x, p).rhai()?;
        if x.requires_grad() {
            let (saved, result) = (detached(x), detached(&out));
            record_formula(&out, "PdistBackward0", &[x], &[x], move |g| {
                Ok(vec![Some(pdist_grad(&saved, p, &result, g)?)])
            });
        }
        Ok(Dynamic::from(out))
    });
}
