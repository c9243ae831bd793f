//! Questions about a tensor and the session whose answers are fixed by tensh's model: no
//! other device, layout or storage kind than dense CPU memory (`is_sparse`, `is_meta`,
//! `is_pinned()`, ...), no inference mode or distribution, default settings for
//! anomaly detection; and a tensor's place in its graph
//! (`output_nr`), its legacy fields (`name`, `volatile`) and pointers.

use crate::ops::direct::Properties;
use rhai::Dynamic;

use crate::core::tensor::Tensor;
use crate::ops::registry::Registry;
use crate::ops::values::Device;
use crate::ops::warnings::warn_once;

/// Properties that are `False` for every dense CPU tensor.
const FALSE_PROPERTIES: [&str; 13] = [
    "is_meta",
    "is_mkldnn",
    "is_mps",
    "is_mtia",
    "is_nested",
    "is_quantized",
    "is_sparse",
    "is_sparse_csr",
    "is_vulkan",
    "is_xla",
    "is_xpu",
    "is_ipu",
    "is_maia",
];

/// Registers the properties (getters without parentheses).
pub fn register_properties(p: &mut Properties) {
    for name in FALSE_PROPERTIES {
        p.get(name, |_: &Tensor| false);
    }
    p.get("output_nr", |x: &Tensor| x.grad_state().output_nr as i64);
    p.get("name", |_: &Tensor| ());
    p.get("volatile", |_: &Tensor| {
        warn_once(
            "volatile_removed",
            "volatile was removed (Variable.volatile is always False)",
        );
        false
    });
    p.get("grad_dtype", |x: &Tensor| x.dtype());
}

/// Registers the methods and `torch` functions.
pub fn register(r: &mut Registry) {
    for name in ["is_inference", "is_distributed"] {
        r.method_and_function(name, 0, |_, _| Ok(Dynamic::from(false)));
    }
    r.method("is_pinned", 1, |_, a| {
        if let Some(d) = a.get(0, "device").filter(|d| !d.is_unit()) {
            crate::ops::placement::device("is_pinned", d)?;
        }
        Ok(Dynamic::from(false))
    });
    r.method("const_data_ptr", 0, |x, _| {
        Ok(Dynamic::from(x.data_ptr() as i64))
    });
    r.method("dense_dim", 0, |x, _| Ok(Dynamic::from(x.ndim() as i64)));
    r.method("sparse_dim", 0, |_, _| Ok(Dynamic::from(0_i64)));
    r.function("get_default_device", 0, |_| Ok(Dynamic::from(Device::CPU)));
    for name in ["is_anomaly_enabled", "is_vulkan_available"] {
        r.function(name, 0, |_| Ok(Dynamic::from(false)));
    }
    r.function("is_anomaly_check_nan_enabled", 0, |_| {
        Ok(Dynamic::from(true))
    });
    r.function("typename", 1, |a| {
        // `None` is an object too (`NoneType`): a unit argument is not a missing one.
        let v = match a.pos.first().or_else(|| a.kw.get("obj")) {
            Some(v) => v,
            None => a.req(0, "obj", "typename")?,
        };
        let name = match v.clone().try_cast::<Tensor>() {
            Some(t) => t.dtype().legacy_tensor_type(),
            None => crate::ops::convert::py_type_name(v),
        };
        Ok(Dynamic::from(name))
    });
}
