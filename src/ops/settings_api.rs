//! The `torch` setters of session-wide settings and their getters: deterministic
//! algorithms (`use_deterministic_algorithms`, `set_deterministic_debug_mode`), the float32
//! matmul precision, `set_warn_always` (recorded: tensh's warnings show once per session,
//! as Python's warning filter shows PyTorch's once per place), `set_flush_denormal`, the inter-op thread count,
//! `set_default_device` and `set_default_tensor_type`. The values live in
//! `core::defaults`; what they change in tensh is said on each.

use std::cell::Cell;

use rhai::{Dynamic, ImmutableString};

use crate::core::defaults::{self, Determinism};
use crate::core::error::TorchError;
use crate::ops::args::Args;
use crate::ops::convert::py_type_name;
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::ops::registry::Registry;
use crate::ops::warnings::warn_once;

thread_local! {
    /// The inter-op thread count a script set (PyTorch lets it be set once).
    static INTEROP_THREADS: Cell<Option<i64>> = const { Cell::new(None) };
}

/// Forgets the inter-op thread count a script set (a fresh session).
pub fn reset() {
    INTEROP_THREADS.with(|c| c.set(None));
}

/// A `bool` argument of a setter whose C++ side words its own type error (`what expects a
/// bool, but got int`).
fn bool_for(v: &Dynamic, what: &str) -> RhaiResult<bool> {
    v.as_bool().map_err(|_| {
        to_rhai(TorchError::runtime(format!(
            "{what} expects a bool, but got {}",
            py_type_name(v)
        )))
    })
}

/// `torch.use_deterministic_algorithms(mode, *, warn_only=False)`.
fn use_deterministic_algorithms(a: &Args) -> RhaiResult<Dynamic> {
    let flag = |v: &Dynamic, name: &str| {
        v.as_bool().map_err(|_| {
            to_rhai(TorchError::type_error(format!(
                "_set_deterministic_algorithms(): argument '{name}'{} must be bool, not {}",
                if name == "mode" { " (position 1)" } else { "" },
                py_type_name(v)
            )))
        })
    };
    let mode = flag(a.req(0, "mode", "use_deterministic_algorithms")?, "mode")?;
    let warn_only = match a.kw("warn_only") {
        Some(v) => flag(v, "warn_only")?,
        None => false,
    };
    defaults::set_determinism(Determinism {
        enabled: mode,
        warn_only,
    });
    Ok(Dynamic::UNIT)
}

/// `torch.set_deterministic_debug_mode(debug_mode)`: `0`/`"default"`, `1`/`"warn"` or
/// `2`/`"error"`.
fn set_deterministic_debug_mode(a: &Args) -> RhaiResult<Dynamic> {
    let v = a.req(0, "debug_mode", "set_deterministic_debug_mode")?;
    let mode = if let Some(s) = v.read_lock::<ImmutableString>() {
        match s.as_str() {
            "default" => 0,
            "warn" => 1,
            "error" => 2,
            other => {
                return Err(to_rhai(TorchError::runtime(format!(
                    "invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got {other}"
                ))));
            }
        }
    } else if let Ok(i) = v.as_int() {
        if !(0..=2).contains(&i) {
            return Err(to_rhai(TorchError::runtime(format!(
                "invalid value of debug_mode, expected 0, 1, or 2, but got {i}"
            ))));
        }
        i
    } else {
        return Err(to_rhai(TorchError::type_error(format!(
            "debug_mode must be str or int, but got <class '{}'>",
            py_type_name(v)
        ))));
    };
    defaults::set_determinism(Determinism::from_debug_mode(mode));
    Ok(Dynamic::UNIT)
}

/// `torch.set_float32_matmul_precision(precision)`: recorded (tensh's float32 products are
/// exact whatever it says); an unknown name warns and changes nothing, as in PyTorch.
fn set_float32_matmul_precision(a: &Args) -> RhaiResult<Dynamic> {
    let v = a.req(0, "precision", "set_float32_matmul_precision")?;
    let Some(p) = v.read_lock::<ImmutableString>().map(|s| s.to_string()) else {
        return Err(to_rhai(TorchError::runtime(format!(
            "set_float32_matmul_precision expects a str, but got {}",
            py_type_name(v)
        ))));
    };
    if !defaults::set_matmul_precision(&p) {
        crate::ops::warnings::warn(&format!(
            "{p} is not one of 'highest', 'high', or 'medium'; the \
             currentsetFloat32MatmulPrecision call has no effect."
        ));
    }
    Ok(Dynamic::UNIT)
}

/// A thread count given to `op` (`set_num_threads`, `set_num_interop_threads`): a
/// positive int, or PyTorch's error in `op`'s name.
pub fn thread_count(v: &Dynamic, op: &str) -> RhaiResult<i64> {
    match v.as_int() {
        Ok(n) if n > 0 => Ok(n),
        Ok(_) => Err(to_rhai(TorchError::runtime(format!(
            "{op} expects a positive integer"
        )))),
        Err(_) => Err(to_rhai(TorchError::runtime(format!(
            "{op} expects an int, but got {}",
            py_type_name(v)
        )))),
    }
}

/// `torch.set_num_interop_threads(n)`: a positive count, once per session.
fn set_num_interop_threads(a: &Args) -> RhaiResult<Dynamic> {
    let v = a.req(0, "int", "set_num_interop_threads")?;
    let n = thread_count(v, "set_num_interop_threads")?;
    if INTEROP_THREADS.with(|c| c.get()).is_some() {
        return Err(to_rhai(TorchError::runtime(
            "Error: cannot set number of interop threads after parallel work has started or set_num_interop_threads called",
        )));
    }
    INTEROP_THREADS.with(|c| c.set(Some(n)));
    Ok(Dynamic::UNIT)
}

/// `torch.set_default_device(device)`: the CPU (or `None`, the CPU again); tensh has no
/// other device.
fn set_default_device(a: &Args) -> RhaiResult<Dynamic> {
    let d = match a.pos.first().or_else(|| a.kw("device")) {
        Some(d) => d,
        None => a.req(0, "device", "set_default_device")?,
    };
    if !d.is_unit() {
        crate::ops::placement::device("set_default_device", d)?;
    }
    Ok(Dynamic::UNIT)
}

/// `torch.set_default_tensor_type(t)` (deprecated): a floating CPU tensor type's name sets
/// the default dtype.
fn set_default_tensor_type(a: &Args) -> RhaiResult<Dynamic> {
    let v = a.req(0, "t", "set_default_tensor_type")?;
    let Some(name) = v.read_lock::<ImmutableString>().map(|s| s.to_string()) else {
        return Err(to_rhai(TorchError::type_error(
            "invalid type object: only floating-point types are supported as the default type",
        )));
    };
    warn_once(
        "set_default_tensor_type",
        "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use \
         torch.set_default_dtype() and torch.set_default_device() as alternatives.",
    );
    if let Some(class) = name.strip_prefix("torch.")
        && !class.contains('.')
        && crate::core::dtype::ALL_DTYPES
            .into_iter()
            .all(|d| format!("{}Tensor", d.cpp_name()) != class)
    {
        return Err(to_rhai(TorchError::attribute(format!(
            "module 'torch' has no attribute '{class}'"
        ))));
    }
    let dtype = crate::ops::tensor::meta::tensor_type(&name)?;
    defaults::set_default_dtype(dtype).rhai()?;
    Ok(Dynamic::UNIT)
}

/// Registers the setters, and the getters whose answer they change.
pub fn register(r: &mut Registry) {
    r.function("use_deterministic_algorithms", 2, |a| {
        use_deterministic_algorithms(&a)
    });
    r.function("are_deterministic_algorithms_enabled", 0, |_| {
        Ok(Dynamic::from(defaults::determinism().enabled))
    });
    r.function("is_deterministic_algorithms_warn_only_enabled", 0, |_| {
        Ok(Dynamic::from(defaults::determinism().warn_only))
    });
    r.function("set_deterministic_debug_mode", 1, |a| {
        set_deterministic_debug_mode(&a)
    });
    r.function("get_deterministic_debug_mode", 0, |_| {
        Ok(Dynamic::from(defaults::determinism().debug_mode()))
    });
    r.function("set_float32_matmul_precision", 1, |a| {
        set_float32_matmul_precision(&a)
    });
    r.function("get_float32_matmul_precision", 0, |_| {
        Ok(Dynamic::from(defaults::matmul_precision().to_string()))
    });
    r.function("set_warn_always", 1, |a| {
        let on = bool_for(a.req(0, "b", "set_warn_always")?, "setWarnOnlyOnce")?;
        defaults::set_warn_always(on);
        Ok(Dynamic::UNIT)
    });
    r.function("is_warn_always_enabled", 0, |_| {
        Ok(Dynamic::from(defaults::warn_always()))
    });
    r.function("set_flush_denormal", 1, |a| {
        let on = bool_for(a.req(0, "mode", "set_flush_denormal")?, "flush_denormal")?;
        if on {
            return Err(to_rhai(TorchError::not_implemented(
                "tensh does not flush denormal numbers to zero: its arithmetic keeps them \
                 (set_flush_denormal(False) is what it does)",
            )));
        }
        Ok(Dynamic::from(true))
    });
    r.function("set_num_interop_threads", 1, |a| {
        set_num_interop_threads(&a)
    });
    r.function("get_num_interop_threads", 0, |_| {
        let set = INTEROP_THREADS.with(|c| c.get());
        Ok(Dynamic::from(
            set.unwrap_or(crate::core::kernels::pair::threads() as i64),
        ))
    });
    r.function("init_num_threads", 0, |_| Ok(Dynamic::UNIT));
    r.function("compiled_with_cxx11_abi", 0, |_| Ok(Dynamic::from(true)));
    r.function("set_default_device", 1, |a| set_default_device(&a));
    r.function("set_default_tensor_type", 1, |a| {
        set_default_tensor_type(&a)
    });
}
