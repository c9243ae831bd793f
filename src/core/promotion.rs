//! PyTorch's type promotion: `promote_types` for two dtypes, and `result_type` for an op's
//! operands, where 0-d tensors and Python numbers only raise the category.

use super::defaults::{default_complex_dtype, default_dtype};
use super::dtype::{DType, Kind};
use super::error::{Result, TorchError};
use super::scalar::Scalar;

fn is_float8(d: DType) -> bool {
    matches!(
        d,
        DType::Float8E4M3FN | DType::Float8E4M3FNUZ | DType::Float8E5M2 | DType::Float8E5M2FNUZ
    )
}

fn is_wide_unsigned(d: DType) -> bool {
    matches!(d, DType::UInt16 | DType::UInt32 | DType::UInt64)
}

fn float_rank(d: DType) -> u8 {
    match d {
        DType::Float16 | DType::BFloat16 => 16,
        DType::Float32 => 32,
        _ => 64,
    }
}

fn promote_floats(a: DType, b: DType) -> DType {
    if (a == DType::Float16 && b == DType::BFloat16)
        || (a == DType::BFloat16 && b == DType::Float16)
    {
        return DType::Float32;
    }
    if float_rank(a) >= float_rank(b) { a } else { b }
}

/// `torch.promote_types(a, b)`.
pub fn promote_types(a: DType, b: DType) -> Result<DType> {
    if a == b {
        return Ok(a);
    }
    if is_float8(a) || is_float8(b) {
        return Err(TorchError::runtime(format!(
            "Promotion for Float8 Types is not supported, attempted to promote {} and {}",
            a.cpp_name(),
            b.cpp_name()
        )));
    }
    if is_wide_unsigned(a) || is_wide_unsigned(b) {
        let other = if is_wide_unsigned(a) { b } else { a };
        if other.is_floating_point() {
            return Ok(other);
        }
        return Err(TorchError::runtime(format!(
            "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote {} and {}",
            a.cpp_name(),
            b.cpp_name()
        )));
    }
    let (ka, kb) = (a.kind(), b.kind());
    Ok(match (ka, kb) {
        (Kind::Bool, _) => b,
        (_, Kind::Bool) => a,
        (Kind::Complex, Kind::Complex) => {
            if a.itemsize() >= b.itemsize() {
                a
            } else {
                b
            }
        }
        (Kind::Complex, Kind::Float) | (Kind::Float, Kind::Complex) => {
            let (c, f) = if ka == Kind::Complex { (a, b) } else { (b, a) };
            let real = promote_floats(c.to_real(), f);
            real.to_complex().unwrap_or(c)
        }
        (Kind::Complex, _) => a,
        (_, Kind::Complex) => b,
        (Kind::Float, Kind::Float) => promote_floats(a, b),
        (Kind::Float, _) => a,
        (_, Kind::Float) => b,
        _ => {
            // Both are uint8 or signed integers.
            let bits = |d: DType| d.itemsize() * 8;
            if a == DType::UInt8 || b == DType::UInt8 {
                let signed = if a == DType::UInt8 { b } else { a };
                if signed == DType::Int8 {
                    DType::Int16
                } else {
                    signed
                }
            } else if bits(a) >= bits(b) {
                a
            } else {
                b
            }
        }
    })
}

/// One operand of an op, as type promotion sees it.
#[derive(Debug, Clone, Copy)]
pub enum Operand {
    /// A tensor with at least one dimension.
    Dimensioned(DType),
    /// A 0-d tensor.
    ZeroDim(DType),
    /// A Python number.
    Number(Scalar),
}

fn category(d: DType) -> u8 {
    match d.kind() {
        Kind::Bool => 0,
        Kind::Unsigned | Kind::Signed => 1,
        Kind::Float => 2,
        Kind::Complex => 3,
    }
}

fn combine(higher: Option<DType>, lower: Option<DType>) -> Result<Option<DType>> {
    let (Some(h), Some(l)) = (higher, lower) else {
        return Ok(higher.or(lower));
    };
    if h.is_complex() {
        return Ok(Some(h));
    }
    if l.is_complex() {
        return Ok(Some(if h.is_floating_point() {
            h.to_complex().unwrap_or(l)
        } else {
            l
        }));
    }
    if h.is_floating_point() {
        return Ok(Some(h));
    }
    if h == DType::Bool || l.is_floating_point() {
        return promote_types(h, l).map(Some);
    }
    Ok(Some(h))
}

/// The dtype of an op's result: dimensioned tensors decide, and 0-d tensors then numbers
/// count only when they are of a higher category (bool < int < float < complex).
pub fn result_type(operands: &[Operand]) -> Result<DType> {
    let mut levels: [Option<DType>; 3] = [None, None, None];
    for op in operands {
        let (level, d) = match *op {
            Operand::Dimensioned(d) => (0, d),
            Operand::ZeroDim(d) => (1, d),
            Operand::Number(s) => (
                2,
                match s {
                    Scalar::Bool(_) => DType::Bool,
                    Scalar::Int(_) | Scalar::UInt(_) => DType::Int64,
                    Scalar::Float(_) => default_dtype(),
                    Scalar::Complex(_) => default_complex_dtype(),
                },
            ),
        };
        levels[level] = Some(match levels[level] {
            None => d,
            Some(cur) => promote_types(cur, d)?,
        });
    }
    let lower = combine(levels[1], levels[2])?;
    Ok(combine(levels[0], lower)?.unwrap_or_else(default_dtype))
}

/// Whether a value of `from` may be written into `to` by an in-place op (PyTorch's
/// `canCast`: no complex to real, no float to integer, nothing non-bool to bool).
pub fn can_cast(from: DType, to: DType) -> bool {
    category(from) <= category(to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::dtype::ALL_DTYPES;

    /// The table is what PyTorch's `torch.promote_types` printed for every pair.
    #[test]
    fn matches_pytorch_table() {
        let table = include_str!("testdata/promote_types.txt");
        for (row, a) in table.lines().zip(ALL_DTYPES) {
            let cells: Vec<&str> = row.split(' ').collect();
            assert_eq!(cells[0], a.short_name());
            for (cell, b) in cells[1..].iter().zip(ALL_DTYPES) {
                let got = promote_types(a, b).map(|d| d.short_name()).unwrap_or("ERR");
                assert_eq!(got, *cell, "{a} with {b}");
            }
        }
    }

    #[test]
    fn numbers_only_raise_the_category() {
        let r = |ops: &[Operand]| result_type(ops).unwrap();
        assert_eq!(
            r(&[
                Operand::Dimensioned(DType::UInt8),
                Operand::Number(Scalar::Int(1000))
            ]),
            DType::UInt8
        );
        assert_eq!(
            r(&[
                Operand::Dimensioned(DType::Int32),
                Operand::Number(Scalar::Float(1.5))
            ]),
            DType::Float32
        );
        assert_eq!(
            r(&[
                Operand::Dimensioned(DType::Bool),
                Operand::Number(Scalar::Int(1))
            ]),
            DType::Int64
        );
        assert_eq!(
            r(&[
                Operand::Dimensioned(DType::Float16),
                Operand::ZeroDim(DType::Float64)
            ]),
            DType::Float16
        );
        assert_eq!(
            r(&[
                Operand::Dimensioned(DType::Int8),
                Operand::ZeroDim(DType::Int64)
            ]),
            DType::Int8
        );
        assert_eq!(
            r(&[
                Operand::ZeroDim(DType::Int8),
                Operand::ZeroDim(DType::Int64)
            ]),
            DType::Int64
        );
    }
}
