//! `repr(tensor)`: nested brackets with PyTorch's indentation, summarisation with `...`,
//! line wrapping, complex parts, and the suffixes (`dtype=`, `size=`, `requires_grad=True`).

use std::ops::Range;

use super::formatter::{Formatter, MAX_PRINTED_CHARS};
use super::options::{PrintOptions, current};
use crate::core::copy::to_scalars;
use crate::core::defaults::{default_dtype, repr_default_complex_dtype};
use crate::core::dtype::DType;
use crate::core::error::{ErrorKind, Result, TorchError};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::views::{narrow, select};

/// The formatters for a tensor: one, or one per complex part.
struct Formatters {
    first: Formatter,
    imag: Option<Formatter>,
}

impl Formatters {
    fn element_width(&self) -> usize {
        self.first.width() + 2 + self.imag.as_ref().map_or(0, |f| f.width() + 1)
    }

    fn format(&self, v: Scalar) -> String {
        match &self.imag {
            None => self.first.format(v),
            Some(imag) => {
                let c = v.to_complex();
                let real = self.first.format(Scalar::Float(c.re));
                let im = format!("{}j", imag.format(Scalar::Float(c.im)));
                let im = im.trim_start();
                if im.starts_with('+') || im.starts_with('-') {
                    format!("{real}{im}")
                } else {
                    format!("{real}+{im}")
                }
            }
        }
    }
}

/// Whether a dim of `size` is cut down to its edges when a tensor is summarised: PyTorch's
/// `size > 2 * edgeitems`, in Python's unbounded integers.
fn cut(size: i64, edgeitems: i64) -> bool {
    i128::from(size) > 2 * i128::from(edgeitems)
}

/// The indices `t[:e]` and `t[-e:]` select along a dim of `size`, by Python's slice rules:
/// for `e > 0` the first and last `e`; for `e <= 0`, `t[:e]` drops the last `-e` and
/// `t[-e:]` the first `-e` (so `e == 0` gives nothing and everything).
fn edge_ranges(size: i64, e: i64) -> (Range<i64>, Range<i64>) {
    let clamp = |i: i128| -> i64 {
        let at = if i < 0 { i + i128::from(size) } else { i };
        at.clamp(0, i128::from(size)) as i64
    };
    let head_end = clamp(i128::from(e));
    let tail_start = clamp(-i128::from(e));
    (0..head_end, tail_start..size)
}

/// PyTorch stacks the summarised rows of a tensor of two or more dims; with a negative
/// `edgeitems` it keeps none, and stacking nothing is this error.
fn stack_of_nothing() -> TorchError {
    TorchError::runtime("stack expects a non-empty TensorList")
}

/// The values the formatter measures: all of them, or only the edges when summarised.
fn summarized_values(t: &Tensor, opts: &PrintOptions, out: &mut Vec<Scalar>) -> Result<()> {
    let sizes = t.sizes();
    let e = opts.edgeitems;
    match sizes.len() {
        0 => out.extend(to_scalars(t)?),
        1 => {
            if cut(sizes[0], e) {
                let (head, tail) = edges(t, e)?;
                out.extend(head);
                out.extend(tail);
            } else {
                out.extend(to_scalars(t)?);
            }
        }
        _ => {
            if e == 0 {
                return Ok(());
            }
            if e < 0 {
                return Err(stack_of_nothing());
            }
            let rows: Vec<i64> = if cut(sizes[0], e) {
                (0..e).chain(sizes[0] - e..sizes[0]).collect()
            } else {
                (0..sizes[0]).collect()
            };
            for i in rows {
                summarized_values(&select(t, 0, i)?, opts, out)?;
            }
        }
    }
    Ok(())
}

/// The values `t[:e]` and `t[-e:]` of a 1-d tensor (what a summary shows).
fn edges(t: &Tensor, e: i64) -> Result<(Vec<Scalar>, Vec<Scalar>)> {
    let (head, tail) = edge_ranges(t.sizes()[0], e);
    let part = |r: Range<i64>| to_scalars(&narrow(t, 0, r.start, r.end - r.start)?);
    Ok((part(head)?, part(tail)?))
}

fn vector_str(
    t: &Tensor,
    indent: usize,
    summarize: bool,
    f: &Formatters,
    opts: &PrintOptions,
) -> Result<String> {
    let element = f.element_width() as i64;
    let per_line = (opts.linewidth.saturating_sub(indent as i64) / element).max(1) as usize;
    let size = t.sizes()[0];
    let e = opts.edgeitems;
    let data: Vec<String> = if summarize && e == 0 {
        vec!["...".to_string()]
    } else if summarize && cut(size, e) {
        let (head, tail) = edges(t, e)?;
        let mut d: Vec<String> = head.into_iter().map(|v| f.format(v)).collect();
        d.push(" ...".to_string());
        d.extend(tail.into_iter().map(|v| f.format(v)));
        d
    } else {
        to_scalars(t)?
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                crate::core::interrupt::check_every(i);
                f.format(v)
            })
            .collect()
    };
    let lines: Vec<String> = data.chunks(per_line).map(|c| c.join(", ")).collect();
    Ok(format!(
        "[{}]",
        lines.join(&format!(",\n{}", " ".repeat(indent + 1)))
    ))
}

fn tensor_str_with(
    t: &Tensor,
    indent: usize,
    summarize: bool,
    f: &Formatters,
    opts: &PrintOptions,
) -> Result<String> {
    let dim = t.ndim();
    if dim == 0 {
        let v = to_scalars(t)?;
        return Ok(f.format(v[0]));
    }
    if dim == 1 {
        return vector_str(t, indent, summarize, f, opts);
    }
    let size = t.sizes()[0];
    let e = opts.edgeitems;
    // Rows to show: all, or the edges around a "..." row when summarised.
    // (A negative `edgeitems` never gets here with two or more dims: measuring the values
    // refused it, as PyTorch's stack does; `max(0)` keeps the ranges empty regardless.)
    let rows: Vec<Option<i64>> = if summarize && cut(size, e) {
        let e = e.max(0);
        (0..e)
            .map(Some)
            .chain([None])
            .chain((size - e..size).map(Some))
            .collect()
    } else {
        (0..size).map(Some).collect()
    };
    let mut slices = Vec::with_capacity(rows.len());
    for row in rows {
        slices.push(match row {
            Some(i) => tensor_str_with(&select(t, 0, i)?, indent + 1, summarize, f, opts)?,
            None => "...".to_string(),
        });
    }
    let sep = format!(",{}{}", "\n".repeat(dim - 1), " ".repeat(indent + 1));
    Ok(format!("[{}]", slices.join(&sep)))
}

fn tensor_str(t: &Tensor, indent: usize, opts: &PrintOptions) -> Result<String> {
    if t.numel() == 0 {
        return Ok("[]".to_string());
    }
    let summarize = t.numel() > opts.threshold;
    let mut values = vec![];
    if summarize {
        summarized_values(t, opts, &mut values)?;
    } else {
        values = to_scalars(t)?;
    }
    let dtype = t.dtype();
    let formatters = if dtype.is_complex() {
        let re: Vec<Scalar> = values
            .iter()
            .map(|v| Scalar::Float(v.to_complex().re))
            .collect();
        let im: Vec<Scalar> = values
            .iter()
            .map(|v| Scalar::Float(v.to_complex().im))
            .collect();
        Formatters {
            first: Formatter::new(&re, true, opts)?,
            imag: Some(Formatter::new(&im, true, opts)?),
        }
    } else {
        Formatters {
            first: Formatter::new(&values, dtype.is_floating_point(), opts)?,
            imag: None,
        }
    };
    // Every value shown takes its column's width, so this bounds the text before it is built.
    let shown = if summarize {
        values.len()
    } else {
        t.numel() as usize
    };
    if shown.saturating_mul(formatters.element_width()) > MAX_PRINTED_CHARS {
        return Err(TorchError {
            kind: ErrorKind::Memory,
            message: format!(
                "printing {shown} values {} characters wide needs more than {MAX_PRINTED_CHARS} characters, the longest tensh string",
                formatters.element_width()
            ),
        });
    }
    tensor_str_with(t, indent, summarize, &formatters, opts)
}

fn add_suffixes(body: String, suffixes: &[String], indent: usize, linewidth: i64) -> String {
    let mut out = body.clone();
    let mut last_line = match body.rfind('\n') {
        Some(i) => body.len() - i + 1,
        None => body.len() + 2,
    } as i64;
    for s in suffixes {
        let len = s.len() as i64;
        if last_line + len + 2 > linewidth {
            out.push_str(&format!(",\n{}{}", " ".repeat(indent), s));
            last_line = (indent as i64) + len;
        } else {
            out.push_str(&format!(", {s}"));
            last_line += len + 2;
        }
    }
    out.push(')');
    out
}

fn size_tuple(sizes: &[i64]) -> String {
    match sizes {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            sizes
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// PyTorch's `repr(t)` with the session's print options.
pub fn tensor_repr(t: &Tensor) -> Result<String> {
    tensor_repr_with(t, &current())
}

/// The most dimensions PyTorch's printer gets through: it recurses in Python, a few frames
/// per dimension, and a tensor of 495 dimensions (holding any elements) meets Python's
/// default recursion limit of 1000 when printed at the top level (checked with the oracle).
/// tensh's printer recurses too, so the same limit also keeps its stack bounded.
pub const MAX_PRINTED_DIMS: usize = 494;

/// The most elements printed in full: each takes at least three characters (a digit and
/// the `, ` or line break after it), so more would not fit in a script's longest string
/// (`MAX_PRINTED_CHARS`). Checked before any value is read, so such a print costs nothing.
pub const MAX_PRINTED_ELEMENTS: i64 = (MAX_PRINTED_CHARS / 3) as i64;

/// PyTorch's `repr(t)` with the given options.
pub fn tensor_repr_with(t: &Tensor, opts: &PrintOptions) -> Result<String> {
    if t.ndim() > MAX_PRINTED_DIMS && t.numel() != 0 {
        return Err(TorchError {
            kind: ErrorKind::Recursion,
            message: "maximum recursion depth exceeded while calling a Python object".into(),
        });
    }
    if t.numel() > MAX_PRINTED_ELEMENTS && t.numel() <= opts.threshold {
        return Err(TorchError {
            kind: ErrorKind::Memory,
            message: format!(
                "printing {} elements in full needs more than the longest tensh string \
                 (print a slice, or set_printoptions(threshold=...) to summarize)",
                t.numel()
            ),
        });
    }
    let prefix = "tensor(";
    let indent = prefix.len();
    let dtype = t.dtype();
    let default_float = default_dtype();
    let has_default_dtype = [
        default_float,
        repr_default_complex_dtype(),
        DType::Int64,
        DType::Bool,
    ]
    .contains(&dtype);
    let mut suffixes = vec![];
    let body = if t.numel() == 0 {
        if t.ndim() != 1 {
            suffixes.push(format!("size={}", size_tuple(&t.sizes())));
        }
        if dtype != default_float {
            suffixes.push(format!("dtype={dtype}"));
        }
        "[]".to_string()
    } else {
        if opts.edgeitems == 0 {
            suffixes.push(format!("size={}", size_tuple(&t.sizes())));
        }
        if !has_default_dtype {
            suffixes.push(format!("dtype={dtype}"));
        }
        tensor_str(t, indent, opts)?
    };
    let grad = t.grad_state();
    if let Some(node) = grad.grad_fn {
        suffixes.push(format!("grad_fn=<{}>", node.name));
    } else if grad.requires_grad {
        suffixes.push("requires_grad=True".to_string());
    }
    let text = add_suffixes(format!("{prefix}{body}"), &suffixes, indent, opts.linewidth);
    // `nn.Parameter`'s repr: its class's line above the tensor's.
    Ok(if t.is_parameter() {
        format!("Parameter containing:\n{text}")
    } else {
        text
    })
}
