//! Where a result is put: the `device=`, `pin_memory=` and `layout=` keywords, read the same way for
//! every op that declares them (factories, `*_like`, `new_*`, `to`), before the op's body
//! runs. tensh has one device, the CPU: `"cpu"`, `"cpu:1"` and `torch.device` values are
//! accepted; CUDA (and pinned memory, which needs it) raise what PyTorch raises on a machine
//! without a GPU; other known device types are refused in words; malformed strings get
//! PyTorch's parse errors.

use rhai::Dynamic;

use super::args::Args;
use super::convert::py_type_name;
use super::errors::{RhaiResult, to_rhai, type_error};
use super::values::Device;
use crate::core::error::TorchError;

/// PyTorch's message where CUDA is asked for and there is none.
pub const NO_NVIDIA_DRIVER: &str = "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx";

/// The device types PyTorch's device strings name, in its error's order.
const DEVICE_TYPES: &[&str] = &[
    "cpu",
    "cuda",
    "ipu",
    "xpu",
    "mkldnn",
    "opengl",
    "opencl",
    "ideep",
    "hip",
    "ve",
    "fpga",
    "maia",
    "xla",
    "lazy",
    "vulkan",
    "mps",
    "meta",
    "hpu",
    "mtia",
    "privateuseone",
];

/// Reads `device=`, `pin_memory=` and `layout=` of a call to `op` (the name in its
/// messages).
pub fn check(op: &str, a: &Args) -> RhaiResult<()> {
    super::formats::check_layout(op, a)?;
    if let Some(d) = a.kw("device") {
        device(op, d)?;
    }
    if a.kw("pin_memory")
        .is_some_and(|p| p.as_bool().unwrap_or(false))
    {
        return Err(to_rhai(TorchError::runtime(NO_NVIDIA_DRIVER)));
    }
    Ok(())
}

/// Accepts a value naming the CPU; anything else gets PyTorch's error.
pub fn device(op: &str, d: &Dynamic) -> RhaiResult<()> {
    if let Some(dev) = d.read_lock::<Device>() {
        return on_kind(dev.kind);
    }
    if let Ok(i) = d.as_int() {
        return Err(to_rhai(TorchError::runtime(if i < 0 {
            "Device index must not be negative"
        } else {
            NO_NVIDIA_DRIVER
        })));
    }
    let Some(text) = d
        .read_lock::<rhai::ImmutableString>()
        .map(|s| s.to_string())
    else {
        return Err(type_error(format!(
            "{op}(): argument 'device' must be torch.device, not {}",
            py_type_name(d)
        )));
    };
    on_kind(parse(&text)?.kind)
}

/// Accepts the CPU; other device types get PyTorch's error (CUDA) or tensh's refusal.
fn on_kind(kind: &str) -> RhaiResult<()> {
    match kind {
        "cpu" => Ok(()),
        "cuda" => Err(to_rhai(TorchError::runtime(NO_NVIDIA_DRIVER))),
        other => Err(to_rhai(TorchError::not_implemented(format!(
            "tensh has no '{other}' device: its tensors live on the CPU"
        )))),
    }
}

/// `torch.device(type, index=None)` or `torch.device(device)`: the value, with PyTorch's
/// parse errors. Naming a device is allowed for every device type PyTorch knows; using one
/// other than the CPU is refused where it is used.
pub fn make(a: &Args) -> RhaiResult<Device> {
    let first = a.req(0, "type", "device")?;
    if let Some(d) = first.read_lock::<Device>() {
        return Ok(d.clone());
    }
    let text = first.to_string();
    let mut dev = parse(&text)?;
    if let Some(i) = a.get(1, "index").filter(|i| !i.is_unit()) {
        let i = i.as_int().map_err(|_| {
            type_error(format!(
                "device(): argument 'index' (position 2) must be int, not {}",
                py_type_name(i)
            ))
        })?;
        if dev.index.is_some() {
            return Err(to_rhai(TorchError::runtime(format!(
                "type (string) must not include an index because index was passed explicitly: {text}"
            ))));
        }
        if i < 0 {
            return Err(to_rhai(TorchError::runtime(
                "Device index must not be negative",
            )));
        }
        dev.index = Some(i);
    }
    Ok(dev)
}

/// A device string (`cuda:1`) read as PyTorch reads it, or PyTorch's parse error.
fn parse(text: &str) -> RhaiResult<Device> {
    parse_device(text).map_err(to_rhai)
}

/// A device string (`cuda:1`) read as PyTorch reads it, or PyTorch's parse error.
pub fn parse_device(text: &str) -> crate::core::error::Result<Device> {
    if text.is_empty() {
        return Err(TorchError::runtime("Device string must not be empty"));
    }
    let (kind, index) = match text.split_once(':') {
        Some((k, i)) => (k, Some(i)),
        None => (text, None),
    };
    let invalid = || TorchError::runtime(format!("Invalid device string: '{text}'"));
    let valid_name = kind.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let valid_index = index.is_none_or(|i| !i.is_empty() && i.chars().all(|c| c.is_ascii_digit()));
    if !valid_name || !valid_index {
        return Err(invalid());
    }
    let kind = DEVICE_TYPES
        .iter()
        .copied()
        .find(|t| *t == kind)
        .ok_or_else(|| {
            TorchError::runtime(format!(
                "Expected one of {} device type at start of device string: {text}",
                DEVICE_TYPES.join(", ")
            ))
        })?;
    let index = match index {
        // PyTorch keeps a device index in 8 bits and refuses what does not parse as an int.
        Some(i) => Some(i.parse::<i32>().map(i64::from).map_err(|_| {
            TorchError::runtime(format!(
                "Could not parse device index '{i}' in device string '{text}'"
            ))
        })?),
        None => None,
    };
    Ok(Device { kind, index })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(v: Dynamic) -> String {
        device("zeros", &v).unwrap_err().to_string()
    }

    #[test]
    fn the_cpu_is_accepted_in_every_spelling() {
        for ok in [
            Dynamic::from("cpu"),
            Dynamic::from("cpu:1"),
            Dynamic::from(Device::CPU),
        ] {
            assert!(device("zeros", &ok).is_ok());
        }
    }

    #[test]
    fn other_devices_get_pytorchs_errors() {
        assert!(err(Dynamic::from("cuda")).contains("Found no NVIDIA driver"));
        assert!(err(Dynamic::from(0_i64)).contains("Found no NVIDIA driver"));
        assert!(err(Dynamic::from(-1_i64)).contains("Device index must not be negative"));
        assert!(err(Dynamic::from("cpu:-1")).contains("Invalid device string: 'cpu:-1'"));
        assert!(err(Dynamic::from("cpu ")).contains("Invalid device string: 'cpu '"));
        assert!(err(Dynamic::from("")).contains("Device string must not be empty"));
        assert!(err(Dynamic::from("CPU")).contains("device type at start of device string: CPU"));
        assert!(err(Dynamic::from("meta")).contains("tensh has no 'meta' device"));
        assert!(
            err(Dynamic::from(true)).contains("argument 'device' must be torch.device, not bool")
        );
    }
}
