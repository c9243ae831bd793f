//! One element's arithmetic and its inverse: `explain(t, [1, 2])` shows where element
//! `[1, 2]` starts (`offset + stride*index` summed, in bytes) and the bytes it reads;
//! `explain(t, #{byte: 10})` shows which indices of which tensors read one byte.

use super::value_read_by;
use super::walk::{self, index_text};
use crate::core::error::{Result, TorchError};
use crate::core::tensor::Tensor;

/// Indices listed per tensor before "+N more".
const LISTED: usize = 6;

/// The bytes `[start, end)` of `bytes` in hex, space-separated.
pub fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `index` with negative entries counted from the end, checked against `t`'s sizes with
/// PyTorch's indexing errors.
fn normalized(t: &Tensor, index: &[i64]) -> Result<Vec<i64>> {
    let sizes = t.sizes();
    if index.len() > sizes.len() {
        return Err(TorchError::index(format!(
            "too many indices for tensor of dimension {}",
            sizes.len()
        )));
    }
    if index.len() < sizes.len() {
        return Err(TorchError::index(format!(
            "explain(t, index) needs one index per dimension: the tensor has {} dimension{}, \
             the index {}",
            sizes.len(),
            if sizes.len() == 1 { "" } else { "s" },
            index.len()
        )));
    }
    index
        .iter()
        .zip(sizes.iter())
        .enumerate()
        .map(|(d, (&i, &size))| {
            let j = if i < 0 { i.saturating_add(size) } else { i };
            if j < 0 || j >= size {
                Err(TorchError::index(format!(
                    "index {i} is out of bounds for dimension {d} with size {size}"
                )))
            } else {
                Ok(j)
            }
        })
        .collect()
}

/// `explain(t, [i, j])`: "element [1, 2] starts at byte 0 + 6*1 + 2*2 = 10", then the
/// bytes it reads and the value they hold.
pub fn element_arithmetic(t: &Tensor, index: &[i64]) -> Result<String> {
    let index = normalized(t, index)?;
    let layout = t.layout();
    let item = t.dtype().itemsize() as i64;
    let offset_bytes = layout.offset.saturating_mul(item);
    let mut terms = vec![offset_bytes.to_string()];
    let mut start = offset_bytes;
    for (i, stride) in index.iter().zip(&layout.strides) {
        let byte_stride = stride.saturating_mul(item);
        terms.push(format!("{byte_stride}*{i}"));
        start = start.saturating_add(byte_stride.saturating_mul(*i));
    }
    let sum = if terms.len() == 1 {
        format!("byte {start}")
    } else {
        format!("byte {} = {start}", terms.join(" + "))
    };
    let mut out = format!("element {} starts at {sum}\n", index_text(&index));
    let end = start.saturating_add(item);
    let storage = t.storage();
    let nbytes = storage.nbytes() as i64;
    if start < 0 || end > nbytes {
        out += &format!(
            "bytes {start}..{end} are past the end of the {nbytes}-byte storage (it was resized \
             after the tensor was made)"
        );
    } else {
        let bytes = storage.with_bytes(|b| b[start as usize..end as usize].to_vec());
        out += &format!(
            "bytes {start}..{end} = {} → {}",
            hex(&bytes),
            value_read_by(t, &bytes)
        );
    }
    Ok(out)
}

/// `explain(t, #{byte: b})`: which indices read byte `b` of the storage, in each of `named`
/// (the explained tensor first, then the session's other tensors over the same storage).
pub fn byte_readers(byte: i64, named: &[(String, Tensor)]) -> Result<String> {
    let Some((_, first)) = named.first() else {
        return Ok(String::new());
    };
    let storage = first.storage();
    let bytes = storage.to_vec();
    let Some(value) = usize::try_from(byte).ok().and_then(|b| bytes.get(b)) else {
        return Err(TorchError::index(format!(
            "byte {byte} is outside the storage, which has {} bytes",
            bytes.len()
        )));
    };
    let mut lines = vec![format!(
        "byte {byte} of the storage ({} bytes) holds {value:02x}",
        bytes.len()
    )];
    for (name, t) in named {
        let item = t.dtype().itemsize() as i64;
        let slot = byte / item;
        let (start, end) = (slot * item, slot * item + item);
        let mut found = Vec::new();
        let mut count = 0u64;
        let walked = walk::each_element(&t.layout(), |index, elem| {
            if elem == slot {
                if found.len() < LISTED {
                    found.push(index_text(index));
                }
                count += 1;
            }
        });
        let line = if !walked {
            format!("{name}: too many elements to search")
        } else if count == 0 {
            format!("{name}: no index reads it")
        } else {
            let more = if count > found.len() as u64 {
                format!(" +{} more", count - found.len() as u64)
            } else {
                String::new()
            };
            let what = match usize::try_from(end)
                .ok()
                .and_then(|e| bytes.get(start as usize..e))
            {
                Some(chunk) => format!("{} → {}", hex(chunk), value_read_by(t, chunk)),
                None => "cut off: the storage ends inside this element".to_string(),
            };
            format!(
                "{name}: {}{more} read{} bytes {start}..{end} = {what}",
                found.join(" "),
                if count == 1 { "s" } else { "" }
            )
        };
        lines.push(line);
    }
    Ok(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::creation::arange;
    use crate::core::dtype::DType;
    use crate::core::scalar::Scalar;
    use crate::core::views::{transpose, view};

    fn int16_grid() -> Tensor {
        let t = arange(
            Scalar::Int(0),
            Scalar::Int(6),
            Scalar::Int(1),
            Some(DType::Int16),
        )
        .unwrap();
        view(&t, &[2, 3]).unwrap()
    }

    #[test]
    fn one_elements_sum_of_strides() {
        let text = element_arithmetic(&int16_grid(), &[1, 2]).unwrap();
        assert_eq!(
            text,
            "element [1, 2] starts at byte 0 + 6*1 + 2*2 = 10\nbytes 10..12 = 05 00 → 5"
        );
        let text = element_arithmetic(&int16_grid(), &[-1, 0]).unwrap();
        assert!(text.starts_with("element [1, 0] starts at byte 0 + 6*1 + 2*0 = 6"));
    }

    #[test]
    fn bad_indices_raise_index_errors() {
        let e = element_arithmetic(&int16_grid(), &[2, 0]).unwrap_err();
        assert_eq!(
            e.message,
            "index 2 is out of bounds for dimension 0 with size 2"
        );
        let e = element_arithmetic(&int16_grid(), &[0, 0, 0]).unwrap_err();
        assert_eq!(e.message, "too many indices for tensor of dimension 2");
        assert!(element_arithmetic(&int16_grid(), &[0]).is_err());
    }

    #[test]
    fn a_byte_is_read_by_each_view_at_its_own_index() {
        let x = int16_grid();
        let xt = transpose(&x, 0, 1).unwrap();
        let named = vec![("x".to_string(), x), ("xt".to_string(), xt)];
        let text = byte_readers(11, &named).unwrap();
        assert!(
            text.contains("x: [1, 2] reads bytes 10..12 = 05 00 → 5"),
            "{text}"
        );
        assert!(text.contains("xt: [2, 1] reads bytes 10..12"), "{text}");
        assert!(byte_readers(12, &named).is_err());
    }
}
