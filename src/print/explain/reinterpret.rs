//! `explain(t, #{as: dtype})`: the bytes a tensor reads, read as its own dtype and as
//! another side by side, with the bits of floating-point values split into sign, exponent
//! and mantissa, and what `t.view(dtype)` makes of them. The lesson of `view(dtype)`: the
//! bytes stay, only their reading changes.

use super::arithmetic::hex;
use super::value_of;
use super::walk::{self, tuple};
use crate::core::dtype::DType;
use crate::core::tensor::Tensor;
use crate::core::views::dtype::view_dtype;

/// Exponent and mantissa widths of a real floating-point dtype (the sign is one bit).
fn float_fields(dtype: DType) -> Option<(u32, u32)> {
    match dtype {
        DType::Float16 => Some((5, 10)),
        DType::BFloat16 => Some((8, 7)),
        DType::Float32 => Some((8, 23)),
        DType::Float64 => Some((11, 52)),
        DType::Float8E4M3FN | DType::Float8E4M3FNUZ => Some((4, 3)),
        DType::Float8E5M2 | DType::Float8E5M2FNUZ => Some((5, 2)),
        _ => None,
    }
}

/// One float's bits, most significant first, as "sign exponent mantissa".
pub fn float_bits(dtype: DType, bytes: &[u8]) -> Option<String> {
    let (exp, mant) = float_fields(dtype)?;
    // Elements are stored in the machine's byte order.
    let mut value: u64 = 0;
    for (i, b) in bytes.iter().enumerate() {
        let shift = if cfg!(target_endian = "little") {
            8 * i
        } else {
            8 * (bytes.len() - 1 - i)
        };
        value |= u64::from(*b) << shift;
    }
    let bits = format!("{value:0width$b}", width = (1 + exp + mant) as usize);
    let (sign, rest) = bits.split_at(1);
    let (e, m) = rest.split_at(exp as usize);
    Some(format!("{sign} {e} {m}"))
}

/// Rows shown at most before the middle is summarised.
const ROWS: usize = walk::HEAD_SLOTS + walk::TAIL_SLOTS + 1;

/// The side-by-side reading of `t`'s bytes (`name` in the session) as its dtype and as
/// `other`.
pub fn explain_as(t: &Tensor, name: &str, other: DType) -> String {
    let own = t.dtype();
    let storage = t.storage();
    let bytes = storage.to_vec();
    let row = own.itemsize().max(other.itemsize());
    let endian = if cfg!(target_endian = "little") {
        "little-endian: an element's lowest byte comes first in memory"
    } else {
        "big-endian: an element's highest byte comes first in memory"
    };
    let mut out = Vec::new();
    let Some((first, last)) = walk::used_bytes(&t.layout(), own.itemsize()) else {
        out.push(format!(
            "the tensor reads no bytes; {own} and {other} have {} and {} bytes per element",
            own.itemsize(),
            other.itemsize()
        ));
        out.push(view_line(t, name, other));
        return out.join("\n");
    };
    let start = first - first % row;
    let end = last.div_ceil(row).saturating_mul(row).min(bytes.len());
    out.push(format!(
        "bytes {start}..{end} of the storage, read as {own} ({} byte{}) and as {other} ({} \
         byte{})",
        own.itemsize(),
        if own.itemsize() == 1 { "" } else { "s" },
        other.itemsize(),
        if other.itemsize() == 1 { "" } else { "s" },
    ));
    out.push(endian.to_string());
    let dtypes = if own == other {
        vec![own]
    } else {
        vec![own, other]
    };
    let floats: Vec<DType> = dtypes
        .iter()
        .copied()
        .filter(|d| float_fields(*d).is_some())
        .collect();
    let rows = (end.saturating_sub(start)).div_ceil(row);
    let shown = if rows <= ROWS {
        (0..rows).collect()
    } else {
        walk::shown_slots(rows, Some((0, rows - 1)))
    };
    let mut table: Vec<Vec<String>> = Vec::new();
    let mut header = vec!["byte".to_string(), "hex".to_string()];
    let short = |d: &DType| d.to_string().replace("torch.", "");
    header.extend(dtypes.iter().map(short));
    header.extend(floats.iter().map(|d| format!("{} bits", short(d))));
    table.push(header);
    let mut gaps = Vec::new();
    for (k, &r) in shown.iter().enumerate() {
        if k > 0 && shown[k - 1] + 1 != r {
            gaps.push((table.len(), r - shown[k - 1] - 1));
        }
        let at = start + r * row;
        let chunk = &bytes[at..(at + row).min(end)];
        let mut cells = vec![at.to_string(), hex(chunk)];
        for d in &dtypes {
            cells.push(split(chunk, d.itemsize(), |c| value_of(*d, c)));
        }
        for d in &floats {
            cells.push(split(chunk, d.itemsize(), |c| {
                float_bits(*d, c).unwrap_or_default()
            }));
        }
        table.push(cells);
    }
    out.extend(aligned(&table, &gaps));
    out.push(view_line(t, name, other));
    out.join("\n")
}

/// The values of each `size`-byte piece of `chunk`, joined by " | "; a partial last piece
/// is marked cut off.
fn split(chunk: &[u8], size: usize, f: impl Fn(&[u8]) -> String) -> String {
    chunk
        .chunks(size)
        .map(|c| {
            if c.len() == size {
                f(c)
            } else {
                "(cut off)".to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The table's columns padded to their widest cell (the byte column right-aligned), with
/// "... N more rows ..." before the rows listed in `gaps`.
fn aligned(table: &[Vec<String>], gaps: &[(usize, usize)]) -> Vec<String> {
    let columns = table.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            table
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut lines = Vec::new();
    for (i, row) in table.iter().enumerate() {
        if let Some((_, n)) = gaps.iter().find(|(at, _)| *at == i) {
            lines.push(format!("{:>6}  ... {n} more rows ...", ""));
        }
        let mut line = format!("{:>6}", row[0]);
        for (c, cell) in row.iter().enumerate().skip(1) {
            line += &format!("  {cell:<w$}", w = widths[c]);
        }
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// What `t.view(other)` gives, or the error it raises.
fn view_line(t: &Tensor, tensor: &str, other: DType) -> String {
    let name = crate::print::spelling::torch_name(&other.to_string());
    match view_dtype(t, other) {
        Ok(v) => {
            let l = v.layout();
            format!(
                "{tensor}.view({name}) reads them as size {}, stride {}, offset {}",
                tuple(&l.sizes),
                tuple(&l.strides),
                l.offset
            )
        }
        Err(e) => format!(
            "{tensor}.view({name}) raises {}: {}",
            e.kind.name(),
            e.message
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::creation::arange;
    use crate::core::scalar::Scalar;
    use crate::core::views::transpose;

    #[test]
    fn floats_show_their_fields() {
        assert_eq!(
            float_bits(DType::Float32, &[0, 0, 0x80, 0x3f]).unwrap(),
            "0 01111111 00000000000000000000000"
        );
        assert_eq!(
            float_bits(DType::Float16, &[0x00, 0xc0]).unwrap(),
            "1 10000 0000000000"
        );
        assert!(float_bits(DType::Int32, &[0; 4]).is_none());
    }

    #[test]
    fn a_float_read_as_an_integer() {
        let t = arange(
            Scalar::Int(1),
            Scalar::Int(3),
            Scalar::Int(1),
            Some(DType::Float32),
        )
        .unwrap();
        let text = explain_as(&t, "t", DType::Int32);
        assert!(text.starts_with("bytes 0..8 of the storage, read as torch.float32 (4 bytes)"));
        assert!(
            text.contains("     0  00 00 80 3f  1.0      1065353216  0 01111111 0000"),
            "{text}"
        );
        assert!(
            text.ends_with("t.view(torch::int32) reads them as size (2,), stride (1,), offset 0"),
            "{text}"
        );
        let halves = explain_as(&t, "t", DType::Float16);
        assert!(halves.contains("0.0 | 1.875"), "{halves}");
    }

    #[test]
    fn a_transpose_cannot_be_viewed_as_a_wider_type() {
        let t = arange(
            Scalar::Int(0),
            Scalar::Int(4),
            Scalar::Int(1),
            Some(DType::Int16),
        )
        .unwrap();
        let t = crate::core::views::view(&t, &[2, 2]).unwrap();
        let text = explain_as(&transpose(&t, 0, 1).unwrap(), "t", DType::Int32);
        assert!(text.contains("raises RuntimeError"), "{text}");
    }
}
