//! `:why`: the classic errors explained from the layouts involved (noted by the raising code
//! in `core::why`). Each explanation says the rule PyTorch applies, shows where this layout
//! breaks it with the layout's own numbers, says what to do instead, and ends with the
//! `explain` picture of the tensor involved.

use super::explain::walk::{self, index_text, tuple};
use super::explain::{WIDTH, explain, reinterpret, wrap};
use crate::core::layout::Layout;
use crate::core::tensor::Tensor;
use crate::core::why::{Case, Noted};

/// The tensor a picture of the case would draw, if the case has one.
pub fn subject(noted: &Noted) -> Option<Tensor> {
    match &noted.case {
        Case::View { tensor, .. } | Case::ViewDtype { tensor, .. } => Some(tensor.clone()),
        _ => None,
    }
}

/// The explanation of a noted error, in text; `name` is what the input called the tensor
/// involved (`x.t()`, or `t` when it is not known).
pub fn explain_noted(noted: &Noted, name: &str, color: bool) -> String {
    let mut out = vec![format!("why: {}", first_sentence(&noted.message))];
    let mut picture = None;
    match &noted.case {
        Case::View { tensor, shape } => {
            out.extend(view_reason(&tensor.layout(), shape));
            picture = Some(explain(tensor, &[], color));
        }
        Case::ViewDtype { tensor, dtype } => {
            let from = tensor.dtype().itemsize();
            let to = dtype.itemsize();
            let l = tensor.layout();
            let last = l.strides.last().copied().unwrap_or(1);
            out.push(format!(
                "view({dtype}) changes the element size from {from} to {to} bytes, so it regroups \
                 the bytes along the last dimension: {} old element{} per new one{}.",
                (to / from).max(1),
                if to / from > 1 { "s" } else { "" },
                if from > to {
                    format!(", or {} new ones per old one", from / to)
                } else {
                    String::new()
                }
            ));
            out.push(format!(
                "That only works if the last dimension's elements are neighbours in memory \
                 (stride 1); here the last stride is {last}."
            ));
            out.push(format!(
                "Do it on a copy: {name}.contiguous().view({dtype}) (contiguous() copies when it \
                 must)."
            ));
            picture = Some(reinterpret::explain_as(tensor, name, *dtype));
        }
        Case::OverlappingWrite { layout } => out.extend(overlap_reason(layout, name)),
        Case::OutOfBounds {
            layout,
            itemsize,
            nbytes,
        } => out.extend(bounds_reason(layout, *itemsize, *nbytes)),
        Case::NegativeStep { step } => {
            out.push(format!(
                "a slice with step {step} would need a negative stride: it would walk backwards \
                 through memory."
            ));
            out.push(format!(
                "PyTorch's strides are never negative (NumPy's can be), so it refuses. To \
                 reverse, {name}.flip(dims) makes a reversed copy: a new storage, so writes to it \
                 do not reach {name}."
            ));
        }
        Case::ReadOnlyBuffer => {
            out.push(
                "frombuffer does not copy: the tensor's elements are the buffer's own bytes. A \
                 bytes value may never change, yet the tensor can write to it, so PyTorch warns."
                    .to_string(),
            );
            out.push(format!(
                "Share memory you may write with a bytearray(...) or array(...), or copy: {}.",
                if crate::print::spelling::python() {
                    "torch.frombuffer(b, dtype=...).clone()"
                } else {
                    "torch::frombuffer(b, #{dtype: ...}).clone()"
                }
            ));
        }
    }
    let mut lines: Vec<String> = out
        .iter()
        .flat_map(|l| {
            let body = l.trim_start();
            let indent = &l[..l.len() - body.len()];
            wrap(body, WIDTH - indent.len())
                .into_iter()
                .map(move |w| format!("{indent}{w}"))
        })
        .collect();
    if let Some(picture) = picture {
        lines.push(String::new());
        lines.push(picture);
    }
    lines.join("\n")
}

/// The message up to its first period, for the heading.
fn first_sentence(message: &str) -> &str {
    match message.find(". ") {
        Some(end) => &message[..=end],
        None => message,
    }
}

/// Which neighbouring dimensions `view` could merge, by the rule
/// `stride[d] == stride[d + 1] * size[d + 1]` (size-1 dimensions don't matter).
fn view_reason(l: &Layout, shape: &[i64]) -> Vec<String> {
    let mut out = vec![
        format!(
            "view({}) must read the elements in index order with one stride per new dimension, \
             so it can only merge (or split) dimensions d and d+1 where stride[d] == \
             stride[d+1] * size[d+1]: where the first steps exactly over the second.",
            shape
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        format!(
            "This tensor has size {} and stride {}:",
            tuple(&l.sizes),
            tuple(&l.strides)
        ),
    ];
    let dims: Vec<usize> = (0..l.sizes.len()).filter(|&d| l.sizes[d] != 1).collect();
    for pair in dims.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let over = l.strides[b].saturating_mul(l.sizes[b]);
        out.push(if l.strides[a] == over {
            format!(
                "  dims {a} and {b} can merge: stride {} == {} * {}",
                l.strides[a], l.strides[b], l.sizes[b]
            )
        } else {
            format!(
                "  dims {a} and {b} cannot merge: stride {} != {} * {} = {over}",
                l.strides[a], l.strides[b], l.sizes[b]
            )
        });
    }
    out.push(
        "reshape(...) gives the shape anyway, copying when it must (here it must); so does \
         contiguous().view(...)."
            .to_string(),
    );
    out
}

/// Where a written-to layout has indices sharing memory.
fn overlap_reason(l: &Layout, name: &str) -> Vec<String> {
    let mut out = vec![format!(
        "an in-place write needs each index to own its memory; this tensor (size {}, stride {}) \
         has indices that share slots:",
        tuple(&l.sizes),
        tuple(&l.strides)
    )];
    for d in 0..l.sizes.len() {
        if l.strides[d] == 0 && l.sizes[d] > 1 {
            out.push(format!(
                "  dim {d} has stride 0: its {} indices all read the same bytes (expand makes \
                 such dimensions)",
                l.sizes[d]
            ));
        }
    }
    let mut seen = std::collections::HashMap::new();
    let mut clash: Option<(Vec<i64>, Vec<i64>, i64)> = None;
    walk::each_element(l, |index, elem| {
        if clash.is_none() {
            if let Some(first) = seen.get(&elem) {
                clash = Some((Vec::clone(first), index.to_vec(), elem));
            } else {
                seen.insert(elem, index.to_vec());
            }
        }
    });
    if let Some((a, b, elem)) = clash {
        out.push(format!(
            "  e.g. {} and {} both read storage element {elem}: a write to one is a write to \
             the other",
            index_text(&a),
            index_text(&b)
        ));
    }
    out.push(format!(
        "Write into a copy that owns its memory: {name}.clone() (or write into the tensor before \
         expanding it)."
    ));
    out
}

/// The arithmetic of the last element's end, against the storage's size.
fn bounds_reason(l: &Layout, itemsize: usize, nbytes: usize) -> Vec<String> {
    let last: Vec<i64> = l.sizes.iter().map(|s| s - 1).collect();
    let terms: Vec<String> = std::iter::once(l.offset.to_string())
        .chain(last.iter().zip(&l.strides).map(|(i, s)| format!("{s}*{i}")))
        .collect();
    let elem = last
        .iter()
        .zip(&l.strides)
        .fold(l.offset as i128, |acc, (i, s)| {
            acc + *i as i128 * *s as i128
        });
    let end = (elem + 1) * itemsize as i128;
    vec![
        format!(
            "the last element {} is storage element {} = {elem}; its bytes end at ({elem} + 1) \
             * {itemsize} = {end},",
            index_text(&last),
            terms.join(" + ")
        ),
        format!(
            "but the storage has {nbytes} bytes. A view may only read bytes its storage has: \
             make the sizes, strides or offset smaller, or the storage bigger (resize_)."
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transpose_cannot_merge_its_dimensions() {
        let l = Layout {
            sizes: smallvec::smallvec![3, 2],
            strides: smallvec::smallvec![1, 3],
            offset: 0,
        };
        let text = view_reason(&l, &[6]).join("\n");
        assert!(
            text.contains("dims 0 and 1 cannot merge: stride 1 != 3 * 2 = 6"),
            "{text}"
        );
    }

    #[test]
    fn an_expanded_layout_names_its_stride_zero_dimension() {
        let l = Layout {
            sizes: smallvec::smallvec![3, 2],
            strides: smallvec::smallvec![0, 1],
            offset: 0,
        };
        let text = overlap_reason(&l, "t").join("\n");
        assert!(text.contains("dim 0 has stride 0: its 3 indices"), "{text}");
        assert!(
            text.contains("[0, 0] and [1, 0] both read storage element 0"),
            "{text}"
        );
    }

    #[test]
    fn out_of_bounds_sums_the_last_element() {
        let l = Layout {
            sizes: smallvec::smallvec![3],
            strides: smallvec::smallvec![1],
            offset: 0,
        };
        let text = bounds_reason(&l, 4, 8).join("\n");
        assert!(
            text.contains("the last element [2] is storage element 0 + 1*2 = 2"),
            "{text}"
        );
        assert!(text.contains("end at (2 + 1) * 4 = 12"), "{text}");
    }
}
