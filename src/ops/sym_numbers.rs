//! `torch.sym_int`, `sym_float`, `sym_max`, `sym_min`, `sym_not`, `sym_sqrt`, `sym_sum` and
//! `sym_ite`: PyTorch's helpers that work alike on symbolic sizes and plain Python numbers.
//! tensh has no symbolic sizes, so they are the plain-number forms, with PyTorch's checks.

use rhai::{Dynamic, FLOAT, INT, ImmutableString};

use crate::core::error::{ErrorKind, TorchError};
use crate::ops::args::Args;
use crate::ops::convert::{py_type_name, to_float, to_scalar};
use crate::ops::errors::{RhaiResult, to_rhai};
use crate::ops::registry::Registry;

/// A Python number as `sym_max`/`sym_min` take it: an int (a bool counts) or a float.
enum Num {
    Int(i64),
    Float(f64),
}

/// Argument `i` (`name`) of `func`, `None` included (a unit is a given `None` here).
fn arg<'a>(a: &'a Args, i: usize, name: &str, func: &str) -> RhaiResult<&'a Dynamic> {
    match a.pos.get(i).or_else(|| a.kw(name)) {
        Some(v) => Ok(v),
        None => a.req(i, name, func),
    }
}

/// Python's qualified class name of `v` (`torch.Tensor` for a tensor).
fn class_name(v: &Dynamic) -> String {
    match v.is::<crate::core::tensor::Tensor>() {
        true => "torch.Tensor".into(),
        false => py_type_name(v),
    }
}

fn assertion(message: String) -> Box<rhai::EvalAltResult> {
    to_rhai(TorchError::new(ErrorKind::Assertion, message))
}

/// `v` as a number `sym_max`/`sym_min` accept, or PyTorch's assertion.
fn number(v: &Dynamic) -> RhaiResult<Num> {
    if let Ok(i) = v.as_int() {
        return Ok(Num::Int(i));
    }
    if let Ok(b) = v.as_bool() {
        return Ok(Num::Int(b as i64));
    }
    if let Ok(f) = v.as_float() {
        return Ok(Num::Float(f));
    }
    Err(assertion(format!(
        "expected (<class 'numpy.integer'>, <class 'numpy.floating'>, <class 'int'>, <class 'float'>), got <class '{}'>",
        class_name(v)
    )))
}

/// Python's `int(v)`: floats truncate toward zero; strings parse.
fn to_int(v: &Dynamic) -> RhaiResult<i64> {
    if let Some(s) = v.read_lock::<ImmutableString>() {
        return s.trim().parse::<i64>().map_err(|_| {
            to_rhai(TorchError::value(format!(
                "invalid literal for int() with base 10: '{}'",
                s.as_str()
            )))
        });
    }
    let f = match to_scalar(v, "a")? {
        crate::core::scalar::Scalar::Int(i) => return Ok(i),
        crate::core::scalar::Scalar::Bool(b) => return Ok(b as i64),
        s => s.to_f64(),
    };
    if f.is_nan() {
        return Err(to_rhai(TorchError::value(
            "cannot convert float NaN to integer",
        )));
    }
    if f.is_infinite() {
        return Err(to_rhai(TorchError::new(
            ErrorKind::Overflow,
            "cannot convert float infinity to integer",
        )));
    }
    Ok(f.trunc() as i64)
}

/// Python's `float(v)`.
fn to_py_float(v: &Dynamic) -> RhaiResult<f64> {
    if let Some(s) = v.read_lock::<ImmutableString>() {
        return s.trim().parse::<f64>().map_err(|_| {
            to_rhai(TorchError::value(format!(
                "could not convert string to float: '{}'",
                s.as_str()
            )))
        });
    }
    Ok(to_scalar(v, "a")?.to_f64())
}

/// `sym_max` (`larger`) or `sym_min`: a float when either is a float, else the int that wins
/// (the first of two equal ones, as Python's `max`).
fn extreme(a: &Args, name: &str, larger: bool) -> RhaiResult<Dynamic> {
    let (x, y) = (arg(a, 0, "a", name)?, arg(a, 1, "b", name)?);
    let wins = |p: f64, q: f64| if larger { q > p } else { q < p };
    Ok(match (number(x)?, number(y)?) {
        (Num::Int(p), Num::Int(q)) => {
            if wins(p as f64, q as f64) {
                y.clone()
            } else {
                x.clone()
            }
        }
        (p, q) => {
            let f = |n: Num| match n {
                Num::Int(i) => i as f64,
                Num::Float(f) => f,
            };
            let (p, q) = (f(p), f(q));
            Dynamic::from(if wins(p, q) { q } else { p } as FLOAT)
        }
    })
}

/// Python's truthiness of a number.
fn truthy(v: &Dynamic) -> RhaiResult<bool> {
    Ok(match to_scalar(v, "a")? {
        crate::core::scalar::Scalar::Bool(b) => b,
        s => s.to_f64() != 0.0,
    })
}

/// Registers the functions on `torch`.
pub fn register(r: &mut Registry) {
    r.function("sym_int", 1, |a| {
        Ok(Dynamic::from(to_int(a.req(0, "a", "sym_int")?)? as INT))
    });
    r.function("sym_float", 1, |a| {
        Ok(Dynamic::from(
            to_py_float(a.req(0, "a", "sym_float")?)? as FLOAT
        ))
    });
    r.function("sym_max", 2, |a| extreme(&a, "sym_max", true));
    r.function("sym_min", 2, |a| extreme(&a, "sym_min", false));
    r.function("sym_not", 1, |a| {
        Ok(Dynamic::from(!truthy(a.req(0, "a", "sym_not")?)?))
    });
    r.function("sym_sqrt", 1, |a| {
        let x = to_float(a.req(0, "a", "sym_sqrt")?, "a")?;
        if x < 0.0 {
            return Err(to_rhai(TorchError::value("math domain error")));
        }
        Ok(Dynamic::from(x.sqrt()))
    });
    r.function("sym_sum", 1, |a| {
        // One list of numbers, or the numbers themselves (PyTorch takes both).
        let v = a.req(0, "args", "sym_sum")?;
        let items = match (a.pos.len(), v.read_lock::<rhai::Array>()) {
            (1, Some(list)) => list.clone(),
            _ => a.pos.to_vec(),
        };
        let (mut int, mut float, mut any_float) = (0_i64, 0.0_f64, false);
        for item in &items {
            match number(item)? {
                Num::Int(i) => {
                    int = int.wrapping_add(i);
                    float += i as f64;
                }
                Num::Float(f) => {
                    any_float = true;
                    float += f;
                }
            }
        }
        Ok(if any_float {
            Dynamic::from(float)
        } else {
            Dynamic::from(int)
        })
    });
    r.function("sym_ite", 3, |a| {
        let b = a.req(0, "b", "sym_ite")?;
        let Ok(b) = b.as_bool() else {
            return Err(assertion(format!(
                "expected SymBool or bool, got <class '{}'>",
                py_type_name(b)
            )));
        };
        let (t, f) = (arg(&a, 1, "t", "sym_ite")?, arg(&a, 2, "f", "sym_ite")?);
        let (tt, ft) = (class_name(t), class_name(f));
        if tt != ft {
            return Err(assertion(format!(
                "type mismatch: <class '{tt}'> vs <class '{ft}'>"
            )));
        }
        Ok(if b { t.clone() } else { f.clone() })
    });
}
