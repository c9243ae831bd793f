//! PyTorch's element formatter: from the values it will print, decides integer, fixed or
//! scientific mode and the column width, then formats each value padded to that width.

use super::number::{fixed, scientific};
use super::options::PrintOptions;
use crate::core::scalar::Scalar;

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
    /// tensor is summarised). `floating` is the dtype's `is_floating_point`.
    pub fn new(values: &[Scalar], floating: bool, opts: &PrintOptions) -> Formatter {
        let mut f = Formatter {
            floating,
            int_mode: true,
            sci_mode: false,
            max_width: 1,
            precision: opts.precision,
        };
        if !floating {
            for &v in values {
                f.max_width = f.max_width.max(int_text(v).len());
            }
            return f;
        }
        let finite: Vec<f64> = values
            .iter()
            .map(|v| v.to_f64())
            .filter(|x| x.is_finite() && *x != 0.0)
            .collect();
        if finite.is_empty() {
            return f;
        }
        let (min, max) = finite
            .iter()
            .map(|x| x.abs())
            .fold((f64::INFINITY, 0f64), |(lo, hi), a| (lo.min(a), hi.max(a)));
        f.int_mode = finite.iter().all(|x| x.ceil() == *x);
        let p = opts.precision;
        let chosen = if f.int_mode {
            max / min > 1000.0 || max > 1.0e8
        } else {
            max / min > 1000.0 || max > 1.0e8 || min < 1.0e-4
        };
        // A forced `sci_mode` replaces PyTorch's choice before the widths are measured.
        f.sci_mode = opts.sci_mode.unwrap_or(chosen);
        let text_len = |x: f64| {
            if f.sci_mode {
                scientific(x, p).len()
            } else if f.int_mode {
                fixed(x, 0).len() + 1
            } else {
                fixed(x, p).len()
            }
        };
        f.max_width = finite
            .iter()
            .map(|&x| text_len(x))
            .max()
            .unwrap_or(1)
            .max(1);
        f
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
