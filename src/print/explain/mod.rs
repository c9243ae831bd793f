//! `explain(t)`: a teaching picture of a tensor's memory. The layout in words (sizes, strides
//! in elements and bytes, offset, contiguity and why), then the storage one element-sized
//! slot per line: its bytes in hex, the tensor indices that read those bytes, and the value
//! they read. Slots no index reads are marked unused. Long storages are summarised.

use owo_colors::OwoColorize;

use super::storage_repr::python_scalar;
use crate::core::dtype::DType;
use crate::core::element;
use crate::core::layout::Layout;
use crate::core::tensor::Tensor;

pub mod arithmetic;
pub mod reinterpret;
pub mod shared;
pub mod svg;
pub mod walk;

use walk::{INDICES_PER_SLOT, index_text, tuple};

/// `n` and `word`, plural unless `n` is 1: "1 element", "6 elements".
fn counted(n: i64, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The value `bytes` hold as one element of `dtype`, as Python prints it.
pub fn value_of(dtype: DType, bytes: &[u8]) -> String {
    python_scalar(element::read(dtype, bytes))
}

/// The value `t` reads from one element's `bytes`: the stored value, conjugated when `t` is
/// a conjugate view and negated when it is a negative view (its bit set, its storage
/// unchanged).
pub fn value_read_by(t: &Tensor, bytes: &[u8]) -> String {
    let v = element::read(t.dtype(), bytes);
    let v = if t.is_conj() { v.conj() } else { v };
    python_scalar(if t.is_neg() { -v } else { v })
}

/// Why the layout is or is not contiguous, by PyTorch's rule (size-1 dims and empty tensors
/// don't count).
pub fn contiguity(layout: &Layout) -> String {
    if layout.numel() == 0 {
        return "yes: a tensor with no elements is contiguous".to_string();
    }
    let mut expected = 1i64;
    let mut row_major = vec![0i64; layout.sizes.len()];
    for d in (0..layout.sizes.len()).rev() {
        row_major[d] = expected;
        expected = expected.saturating_mul(layout.sizes[d].max(1));
    }
    let wrong = (0..layout.sizes.len())
        .rev()
        .find(|&d| layout.sizes[d] != 1 && layout.strides[d] != row_major[d]);
    let ones: Vec<usize> = (0..layout.sizes.len())
        .filter(|&d| layout.sizes[d] == 1 && layout.strides[d] != row_major[d])
        .collect();
    match wrong {
        None if ones.is_empty() => format!(
            "yes: each stride is the product of the sizes after it {}",
            tuple(&row_major)
        ),
        None => {
            let dims = ones.iter().map(|d| d.to_string()).collect::<Vec<_>>();
            let (word, verb) = if ones.len() == 1 {
                ("dim", "has")
            } else {
                ("dims", "have")
            };
            format!(
                "yes: each stride of a dim longer than 1 is the product of the sizes after it {}; \
                 {word} {} {verb} size 1, so {} stride never moves and is skipped, as PyTorch's rule skips it",
                tuple(&row_major),
                dims.join(" and "),
                if ones.len() == 1 { "its" } else { "their" }
            )
        }
        Some(d) => {
            let why = if layout.strides[d] == 0 {
                " (stride 0: every index along it reads the same bytes, as expand makes)"
                    .to_string()
            } else {
                String::new()
            };
            format!(
                "no: dim {d} has stride {} where row-major strides {} need {}{why}",
                layout.strides[d],
                tuple(&row_major),
                row_major[d],
            )
        }
    }
}

/// The picture, `sharing` naming the other session variables over the same storage.
pub fn explain(t: &Tensor, sharing: &[String], color: bool) -> String {
    let dtype = t.dtype();
    let layout = t.layout();
    let item = dtype.itemsize();
    let bytes = t.storage().to_vec();
    let paint = |text: String, how: fn(&str) -> String| if color { how(&text) } else { text };
    let mut out = Vec::new();
    out.push(paint(
        format!(
            "tensor: dtype {dtype}, size {}, {} of {}",
            tuple(&layout.sizes),
            counted(layout.numel(), "element"),
            counted(item as i64, "byte")
        ),
        |s| s.bold().to_string(),
    ));
    let byte_strides: Vec<i64> = layout
        .strides
        .iter()
        .map(|s| s.saturating_mul(item as i64))
        .collect();
    out.push(format!(
        "stride {} elements = {} bytes; offset {} = {}",
        tuple(&layout.strides),
        tuple(&byte_strides),
        counted(layout.offset, "element"),
        counted(layout.offset.saturating_mul(item as i64), "byte")
    ));
    let terms: String = byte_strides
        .iter()
        .zip(["i", "j", "k", "l", "m", "n", "o", "p"].iter().cycle())
        .map(|(s, v)| format!(" + {s}*{v}"))
        .collect();
    if !layout.sizes.is_empty() && layout.sizes.len() <= 8 {
        out.push(format!(
            "element [{}] starts at byte {}{terms}",
            ["i", "j", "k", "l", "m", "n", "o", "p"][..layout.sizes.len()].join(", "),
            layout.offset.saturating_mul(item as i64)
        ));
    }
    out.extend(wrap(&format!("contiguous: {}", contiguity(&layout)), WIDTH));
    let shared = if sharing.is_empty() {
        String::new()
    } else {
        format!("; shared with {}", sharing.join(", "))
    };
    out.push(format!("storage: {} bytes{shared}", bytes.len()));
    out.extend(slot_lines(t, &layout, &bytes, color));
    out.join("\n")
}

/// The picture's width.
pub const WIDTH: usize = 80;

/// `text` broken at spaces into lines of at most `width` characters, continuation lines
/// indented by two.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let line = lines.last_mut().expect("starts with one line");
        if !line.trim().is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(format!("  {word}"));
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

/// The first few indices that read a slot, and how many read it in all.
type Readers = (Vec<Vec<i64>>, u64);

/// For each shown slot, its readers; true when the tensor was too big to walk.
fn readers(layout: &Layout, shown: &[usize]) -> (Vec<Readers>, bool) {
    let mut found = vec![(Vec::new(), 0u64); shown.len()];
    let walked = walk::each_element(layout, |index, elem| {
        // Slots are element-sized from byte 0, so an element's slot is its element offset.
        let slot = usize::try_from(elem).ok();
        if let Some(k) = slot.and_then(|s| shown.binary_search(&s).ok()) {
            let (list, count) = &mut found[k];
            if list.len() < INDICES_PER_SLOT {
                list.push(index.to_vec());
            }
            *count += 1;
        }
    });
    (found, !walked)
}

fn slot_lines(t: &Tensor, layout: &Layout, bytes: &[u8], color: bool) -> Vec<String> {
    let dtype = t.dtype();
    let item = dtype.itemsize();
    let slots = bytes.len().div_ceil(item);
    let used = walk::used_range(layout).map(|(lo, hi)| {
        let slot = |e: i64| usize::try_from(e).unwrap_or(0);
        (slot(lo), slot(hi))
    });
    let shown = walk::shown_slots(slots, used);
    let (found, too_big) = readers(layout, &shown);
    let hex_width = item * 3 - 1;
    let mut lines = vec![format!(
        "{:>6}  {:<hex_width$}  read by",
        "byte", "hex (storage order)"
    )];
    if too_big {
        lines.push("(too many elements to map each index; slots shown without readers)".into());
    }
    for (k, &slot) in shown.iter().enumerate() {
        lines.extend(walk::gap_line(&shown, k));
        let start = slot * item;
        let chunk = &bytes[start..(start + item).min(bytes.len())];
        let hex = chunk
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(" ");
        let (list, count) = &found[k];
        let who = if *count == 0 {
            let text = if chunk.len() < item {
                "unused (a partial slot)".to_string()
            } else {
                "unused".to_string()
            };
            if color {
                text.dimmed().to_string()
            } else {
                text
            }
        } else {
            let mut names = list
                .iter()
                .map(|i| index_text(i))
                .collect::<Vec<_>>()
                .join(" ");
            if *count > list.len() as u64 {
                names += &format!(" +{} more", *count - list.len() as u64);
            }
            // A storage resized to end inside an element leaves a partial slot: its bytes
            // are shown, but there is no whole value to read.
            let value = if chunk.len() < item {
                "(cut off: the storage ends inside this element)".to_string()
            } else {
                value_read_by(t, chunk)
            };
            let text = format!("{names} = {value}");
            if color { text.cyan().to_string() } else { text }
        };
        lines.push(format!("{start:>6}  {hex:<hex_width$}  {who}"));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::creation::arange;
    use crate::core::scalar::Scalar;
    use crate::core::views::{narrow, transpose, view};

    fn range(n: i64) -> Tensor {
        arange(Scalar::Int(0), Scalar::Int(n), Scalar::Int(1), None).unwrap()
    }

    #[test]
    fn transposed_tensor_maps_indices_to_slots() {
        let t = transpose(&view(&range(6), &[2, 3]).unwrap(), 0, 1).unwrap();
        let text = explain(&t, &["x".to_string()], false);
        assert!(text.contains("size (3, 2)"), "{text}");
        assert!(
            text.contains("stride (1, 3) elements = (8, 24) bytes"),
            "{text}"
        );
        assert!(
            text.contains("contiguous: no: dim 1 has stride 3"),
            "{text}"
        );
        assert!(text.contains("shared with x"), "{text}");
        assert!(
            text.contains("    24  03 00 00 00 00 00 00 00  [0, 1] = 3"),
            "{text}"
        );
        assert!(text.lines().all(|l| l.chars().count() <= WIDTH), "{text}");
    }

    #[test]
    fn long_storages_show_the_slots_in_use() {
        let t = narrow(&range(1000), 0, 500, 3).unwrap();
        let text = explain(&t, &[], false);
        assert!(
            text.contains("  4000  f4 01 00 00 00 00 00 00  [0] = 500"),
            "{text}"
        );
        assert!(text.contains("[2] = 502"), "{text}");
        assert!(
            text.contains("  7992  e7 03 00 00 00 00 00 00  unused"),
            "{text}"
        );
        assert!(text.contains("more slots"), "{text}");
        assert!(text.lines().count() < 30, "{text}");
    }

    #[test]
    fn a_conjugate_view_reads_the_conjugate() {
        let z = Tensor::zeros(vec![1], DType::Complex64).unwrap();
        let stored = [0u8, 0, 0x80, 0x3f, 0, 0, 0, 0x40];
        z.storage().with_bytes_mut(|b| b.copy_from_slice(&stored));
        let plain = explain(&z, &[], false);
        let conj = explain(&crate::core::views::conj::conj(&z), &[], false);
        assert!(plain.contains("[0] = (1+2j)"), "{plain}");
        assert!(conj.contains("[0] = (1-2j)"), "{conj}");
    }

    #[test]
    fn contiguity_reasons() {
        let t = range(6);
        assert!(contiguity(&t.layout()).starts_with("yes"));
        let e = crate::core::views::expand(&view(&t, &[1, 6]).unwrap(), &[2, 6]).unwrap();
        assert!(contiguity(&e.layout()).contains("stride 0"));
        // A size-1 dim's stride is skipped, and the sentence says so beside it.
        let odd = Layout {
            sizes: vec![3, 1].into(),
            strides: vec![1, 7].into(),
            offset: 0,
        };
        let why = contiguity(&odd);
        assert!(
            why.starts_with("yes: each stride of a dim longer than 1"),
            "{why}"
        );
        assert!(
            why.contains("dim 1 has size 1, so its stride never moves and is skipped"),
            "{why}"
        );
    }

    #[test]
    fn wrapping_keeps_words_whole() {
        let lines = wrap(&"word ".repeat(40), 20);
        assert!(lines.iter().all(|l| l.len() <= 20));
        assert!(lines[1].starts_with("  word"));
    }
}
