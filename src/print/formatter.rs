//! PyTorch's element formatter: from the values it will print, decides integer, fixed or
//! scientific mode and the column width, then formats each value padded to that width.

use super::number::{fixed, fixed_len, scientific, scientific_len};
use super::options::PrintOptions;
use crate::core::error::{ErrorKind, Result, TorchError};
use crate::core::scalar::Scalar;

/// The longest text tensh builds for one printed value: the longest string a script may
/// hold (`script::limits::MAX_STRING`).
pub const MAX_PRINTED_CHARS: usize = 1 << 28;

/// The digits after the point a float is written with, or the error Python's format gives
/// PyTorch's printer for this precision (`'{:.-1f}'`, `'{:.2147483648f}'`), or tensh's
/// `MemoryError` for one whose text could not fit in a tensh string.
fn usable_precision(precision: i64) -> Result<usize> {
    if precision < 0 {
        return Err(TorchError::value("Format specifier missing precision"));
    }
    if precision > i64::from(i32::MAX) {
        return Err(TorchError::value("precision too big"));
    }
    let p = precision as usize;
    if p > MAX_PRINTED_CHARS {
        return Err(TorchError {
            kind: ErrorKind::Memory,
            message: format!(
                "printing a value with precision {p} needs more than {MAX_PRINTED_CHARS} characters, the longest tensh string"
            ),
        });
    }
    Ok(p)
}

/// How every element of one tensor (or one complex part) is written.
#[derive(Debug, Clone)]
pub struct Formatter {
    floating: bool,
    int_mode: bool,
    sci_mode: bool,
    max_width: usize,
    precision: usize,
}

fn int_text(v: Scalar) -> String {
    match v {
        Scalar::Bool(true) => "True".to_string(),
        Scalar::Bool(false) => "False".to_string(),
        Scalar::UInt(u) => u.to_string(),
        other => other.to_i64().to_string(),
    }
}

impl Formatter {
    /// Builds the formatter from the values that will be shown (the summarised ones when the
    /// tensor is summarised). `floating` is the dtype's `is_floating_point`. The precision is
    /// checked only when a value will be written with it, as PyTorch's printer formats it
    /// only then: integer tensors and floats that all print as `3.` take any precision.
    pub fn new(values: &[Scalar], floating: bool, opts: &PrintOptions) -> Result<Formatter> {
        let mut f = Formatter {
            floating,
            int_mode: true,
            sci_mode: false,
            max_width: 1,
            precision: 0,
        };
        if !floating {
            for &v in values {
                f.max_width = f.max_width.max(int_text(v).len());
            }
            return Ok(f);
        }
        let finite: Vec<f64> = values
            .iter()
            .map(|v| v.to_f64())
            .filter(|x| x.is_finite() && *x != 0.0)
            .collect();
        if finite.is_empty() {
            return Ok(f);
        }
        let (min, max) = finite
            .iter()
            .map(|x| x.abs())
            .fold((f64::INFINITY, 0f64), |(lo, hi), a| (lo.min(a), hi.max(a)));
        f.int_mode = finite.iter().all(|x| x.ceil() == *x);
        let chosen = if f.int_mode {
            max / min > 1000.0 || max > 1.0e8
        } else {
            max / min > 1000.0 || max > 1.0e8 || min < 1.0e-4
        };
        // A forced `sci_mode` replaces PyTorch's choice before the widths are measured.
        f.sci_mode = opts.sci_mode.unwrap_or(chosen);
        if f.sci_mode || !f.int_mode {
            f.precision = usable_precision(opts.precision)?;
        }
        let p = f.precision;
        let text_len = |x: f64| {
            if f.sci_mode {
                scientific_len(x, p)
            } else if f.int_mode {
                fixed_len(x, 0) + 1
            } else {
                fixed_len(x, p)
            }
        };
        f.max_width = finite
            .iter()
            .map(|&x| text_len(x))
            .max()
            .unwrap_or(1)
            .max(1);
        Ok(f)
    }

    /// The column width.
    pub fn width(&self) -> usize {
        self.max_width
    }

    /// One value, right-aligned to the column width.
    pub fn format(&self, v: Scalar) -> String {
        let text = if self.floating {
            let x = v.to_f64();
            if self.sci_mode {
                scientific(x, self.precision)
            } else if self.int_mode {
                let mut s = fixed(x, 0);
                if x.is_finite() {
                    s.push('.');
                }
                s
            } else {
                fixed(x, self.precision)
            }
        } else {
            int_text(v)
        };
        let pad = self.max_width.saturating_sub(text.len());
        format!("{}{}", " ".repeat(pad), text)
    }
}
