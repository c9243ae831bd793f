//! `explain([a, b])`: several tensors over one storage, in text. One strip of slots (the
//! smallest item size among them), a column per tensor naming the index that reads each
//! slot, and for each pair whether they overlap: a write through one is seen through the
//! other exactly where they do. At most [`MAX_DRAWN`] tensors are drawn; the rest of a longer
//! list is counted, so the text stays linear in the list and bounded.

use super::arithmetic::hex;
use super::value_of;
use super::walk::{self, index_text, tuple};
use crate::core::error::{Result, TorchError};
use crate::core::tensor::Tensor;

/// Slots a storage may have for the overlap of each pair to be computed exactly.
const MAX_COMPARED_SLOTS: usize = 1 << 24;
/// Byte ranges named in an overlap line before "...".
const RANGES_NAMED: usize = 4;
/// Tensors drawn side by side at most (columns, and the overlap of each pair of them).
pub const MAX_DRAWN: usize = 16;

/// The storage's slot size for the tensors: the smallest item size among them.
pub fn slot_size(named: &[(String, Tensor)]) -> usize {
    named
        .iter()
        .map(|(_, t)| t.dtype().itemsize())
        .min()
        .unwrap_or(1)
}

/// Checks every tensor views the first one's storage; `explain` draws one storage at a time.
pub fn check_one_storage(named: &[(String, Tensor)]) -> Result<()> {
    let Some((first_name, first)) = named.first() else {
        return Err(TorchError::value(
            "explain() needs at least one tensor in the list",
        ));
    };
    let storage = first.storage();
    for (name, t) in &named[1..] {
        if !t.storage().is_same(&storage) {
            return Err(TorchError::value(format!(
                "explain() draws tensors over one storage: {name} does not view {first_name}'s \
                 storage"
            )));
        }
    }
    Ok(())
}

/// The lowest and highest slot (of `slot` bytes) any of the tensors reads.
pub fn used_slots(named: &[(String, Tensor)], slot: usize) -> Option<(usize, usize)> {
    named
        .iter()
        .filter_map(|(_, t)| walk::used_bytes(&t.layout(), t.dtype().itemsize()))
        .fold(None, |acc, (a, b)| {
            let (lo, hi) = (a / slot, b.saturating_sub(1) / slot);
            Some(acc.map_or((lo, hi), |(x, y): (usize, usize)| (x.min(lo), y.max(hi))))
        })
}

/// For each tensor, which slots (of `slot` bytes, out of `slots`) each element covers:
/// calls `f(tensor, index, first_slot, last_slot)`. Returns false if a tensor was too big
/// to walk.
fn each_cover(
    named: &[(String, Tensor)],
    slot: usize,
    mut f: impl FnMut(usize, &[i64], usize, usize),
) -> bool {
    let mut all = true;
    for (k, (_, t)) in named.iter().enumerate() {
        let item = t.dtype().itemsize();
        all &= walk::each_element(&t.layout(), |index, elem| {
            let Ok(elem) = usize::try_from(elem) else {
                return;
            };
            let start = elem.saturating_mul(item);
            f(k, index, start / slot, (start + item - 1) / slot);
        });
    }
    all
}

/// One cell of the table: the first index reading the slot, and how many read it.
#[derive(Clone, Default)]
struct Cell {
    first: Option<String>,
    count: u64,
}

/// The picture of `named` (name, tensor) over the storage they share: the first
/// [`MAX_DRAWN`] of them, and a count of the others.
pub fn explain_shared(named: &[(String, Tensor)]) -> Result<String> {
    check_one_storage(named)?;
    let (named, others) = named.split_at(named.len().min(MAX_DRAWN));
    let storage = named[0].1.storage();
    let bytes = storage.to_vec();
    let slot = slot_size(named);
    let slots = bytes.len().div_ceil(slot);
    let mut names = named
        .iter()
        .map(|(n, _)| n.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    if !others.is_empty() {
        names += &format!(" and {} more", others.len());
    }
    let mut out = vec![format!(
        "storage: {} bytes, {slots} slots of {slot} byte{}, viewed by {names}",
        bytes.len(),
        if slot == 1 { "" } else { "s" },
    )];
    if !others.is_empty() {
        out.push(format!(
            "  (the first {MAX_DRAWN} are drawn; the other {} view this storage too: explain \
             them {MAX_DRAWN} at a time)",
            others.len()
        ));
    }
    for (name, t) in named {
        let l = t.layout();
        out.push(format!(
            "  {name}: {}, size {}, stride {}, offset {}",
            t.dtype(),
            tuple(&l.sizes),
            tuple(&l.strides),
            l.offset
        ));
    }
    let shown = walk::shown_slots(slots, used_slots(named, slot));
    let mut cells = vec![vec![Cell::default(); named.len()]; shown.len()];
    let compare = slots <= MAX_COMPARED_SLOTS;
    let mut read = vec![SlotSet::new(if compare { slots } else { 0 }); named.len()];
    let walked = each_cover(named, slot, |k, index, first, last| {
        let last = last.min(slots.saturating_sub(1));
        if first > last {
            return;
        }
        if compare {
            read[k].insert(first..=last);
        }
        for s in first..=last {
            if let Ok(row) = shown.binary_search(&s) {
                let cell = &mut cells[row][k];
                if cell.first.is_none() {
                    cell.first = Some(index_text(index));
                }
                cell.count += 1;
            }
        }
    });
    let same_dtype = named.iter().all(|(_, t)| t.dtype() == named[0].1.dtype());
    let texts: Vec<Vec<String>> = cells
        .iter()
        .map(|row| {
            row.iter()
                .map(|c| match (&c.first, c.count) {
                    (None, _) => "-".to_string(),
                    (Some(i), 1) => i.clone(),
                    (Some(i), n) => format!("{i} +{}", n - 1),
                })
                .collect()
        })
        .collect();
    let widths: Vec<usize> = named
        .iter()
        .enumerate()
        .map(|(k, (name, _))| {
            texts
                .iter()
                .map(|r| r[k].chars().count())
                .chain([name.chars().count()])
                .max()
                .unwrap_or(1)
        })
        .collect();
    let hex_width = slot * 3 - 1;
    let mut header = format!("{:>6}  {:<hex_width$}", "byte", "hex");
    for (k, (name, _)) in named.iter().enumerate() {
        header += &format!("  {name:<w$}", w = widths[k]);
    }
    if same_dtype {
        header += "  value";
    }
    out.push(header.trim_end().to_string());
    if !walked {
        out.push("(too many elements to map each index; slots shown without readers)".into());
    }
    for (row, &s) in shown.iter().enumerate() {
        out.extend(walk::gap_line(&shown, row));
        let start = s * slot;
        let chunk = &bytes[start..(start + slot).min(bytes.len())];
        let mut line = format!("{start:>6}  {:<hex_width$}", hex(chunk));
        for (k, text) in texts[row].iter().enumerate() {
            line += &format!("  {text:<w$}", w = widths[k]);
        }
        if same_dtype && chunk.len() == slot {
            line += &format!("  {}", value_of(named[0].1.dtype(), chunk));
        }
        out.push(line.trim_end().to_string());
    }
    for a in 0..named.len() {
        for b in a + 1..named.len() {
            let (na, nb) = (&named[a].0, &named[b].0);
            out.push(if !compare || !walked {
                format!("{na} and {nb}: too large to compare slot by slot")
            } else {
                overlap_line(na, nb, &read[a], &read[b], slot)
            });
        }
    }
    Ok(out.join("\n"))
}

/// The slots a tensor reads, a bit each.
#[derive(Clone)]
struct SlotSet {
    words: Vec<u64>,
    len: usize,
}

impl SlotSet {
    fn new(len: usize) -> SlotSet {
        SlotSet {
            words: vec![0; len.div_ceil(64)],
            len,
        }
    }

    fn insert(&mut self, slots: std::ops::RangeInclusive<usize>) {
        for s in slots {
            self.words[s / 64] |= 1 << (s % 64);
        }
    }

    fn contains(&self, s: usize) -> bool {
        self.words[s / 64] & (1 << (s % 64)) != 0
    }
}

/// Whether two tensors read common slots, and which bytes.
fn overlap_line(na: &str, nb: &str, a: &SlotSet, b: &SlotSet, slot: usize) -> String {
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    let mut common = 0usize;
    for s in 0..a.len {
        crate::core::interrupt::check_every(s);
        if a.contains(s) && b.contains(s) {
            common += 1;
            match ranges.last_mut() {
                Some(r) if r.1 == s * slot => r.1 += slot,
                _ => ranges.push((s * slot, s * slot + slot)),
            }
        }
    }
    if common == 0 {
        return format!("{na} and {nb} do not overlap: no slot is read by both");
    }
    let mut named: Vec<String> = ranges
        .iter()
        .take(RANGES_NAMED)
        .map(|(x, y)| format!("{x}..{y}"))
        .collect();
    if ranges.len() > RANGES_NAMED {
        named.push("...".into());
    }
    format!(
        "{na} and {nb} overlap in {common} slot{} (bytes {}): a write through one is seen \
         through the other",
        if common == 1 { "" } else { "s" },
        named.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::creation::arange;
    use crate::core::dtype::DType;
    use crate::core::scalar::Scalar;
    use crate::core::views::dtype::view_dtype;
    use crate::core::views::{narrow, view};

    fn range(n: i64) -> Tensor {
        arange(
            Scalar::Int(0),
            Scalar::Int(n),
            Scalar::Int(1),
            Some(DType::Int32),
        )
        .unwrap()
    }

    #[test]
    fn two_slices_of_one_storage() {
        let x = range(6);
        let a = narrow(&x, 0, 0, 4).unwrap();
        let b = narrow(&x, 0, 3, 3).unwrap();
        let named = vec![("a".to_string(), a), ("b".to_string(), b)];
        let text = explain_shared(&named).unwrap();
        assert!(
            text.contains("  b: torch.int32, size (3,), stride (1,), offset 3"),
            "{text}"
        );
        assert!(text.contains("    12  03 00 00 00  [3]  [0]  3"), "{text}");
        assert!(text.contains("    16  04 00 00 00  -    [1]  4"), "{text}");
        assert!(
            text.contains("a and b overlap in 1 slot (bytes 12..16)"),
            "{text}"
        );
    }

    #[test]
    fn mixed_dtypes_use_the_smaller_slot() {
        let x = range(2);
        let bytes = view_dtype(&x, DType::Int16).unwrap();
        let named = vec![("x".to_string(), x), ("h".to_string(), bytes)];
        let text = explain_shared(&named).unwrap();
        assert!(text.contains("4 slots of 2 bytes"), "{text}");
        assert!(text.contains("     2  00 00  [0]  [1]"), "{text}");
        assert!(!text.contains("value"), "{text}");
    }

    #[test]
    fn a_long_list_draws_its_first_tensors_and_counts_the_rest() {
        let x = range(4);
        let named: Vec<(String, Tensor)> = (0..65536)
            .map(|k| (format!("#{k}"), narrow(&x, 0, k % 4, 1).unwrap()))
            .collect();
        let text = explain_shared(&named).unwrap();
        assert!(text.contains("viewed by #0, #1, "), "{text}");
        assert!(text.contains("#15 and 65520 more\n"), "{text}");
        assert!(
            text.contains("the other 65520 view this storage too"),
            "{text}"
        );
        let pairs = text.lines().filter(|l| l.contains(" overlap")).count();
        assert_eq!(pairs, MAX_DRAWN * (MAX_DRAWN - 1) / 2);
        assert!(text.contains("#0 and #4 overlap in 1 slot"), "{text}");
        assert!(text.len() < 16 << 10, "{} bytes", text.len());
    }

    #[test]
    fn different_storages_are_refused() {
        let named = vec![("a".to_string(), range(2)), ("b".to_string(), range(2))];
        let e = explain_shared(&named).unwrap_err();
        assert!(e.message.contains("b does not view a's storage"));
        let v = view(&range(4), &[2, 2]).unwrap();
        assert!(explain_shared(&[("v".into(), v)]).is_ok());
    }
}
