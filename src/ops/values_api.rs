//! The script surface of the Python values: `torch.Size`'s indexing, `len`, `numel`,
//! `tolist`, equality and iteration, and dtype equality.

use super::registration;
use super::signature::Owner;
use super::values::Size;

impl Owner for Size {
    const OWNER: &'static str = "Size";
}

/// Registers `Size` indexing, `len`, equality and iteration, and dtype equality.
pub fn register(engine: &mut rhai::Engine) {
    use super::errors::{RhaiResult, to_rhai};
    use crate::core::error::TorchError;
    use crate::core::index_parse::{SequenceIndex, sequence_index};
    use rhai::{Array, Dynamic, INT};
    // `s[i]`, negative `i` counting from the end, as a tuple's.
    let at = |s: &Size, i: INT| -> RhaiResult<INT> {
        let n = s.0.len() as i64;
        let j = if i < 0 { i + n } else { i };
        s.0.get(j.max(0) as usize)
            .copied()
            .filter(|_| j >= 0)
            .ok_or_else(|| to_rhai(TorchError::index("tuple index out of range")))
    };
    engine.register_indexer_get(move |s: &mut Size, i: INT| at(s, i));
    // `s["1:"]`, Python's `s[1:]`: a new `Size` (an index string of one integer is `s[i]`).
    engine.register_indexer_get(move |s: &mut Size, text: &str| -> RhaiResult<Dynamic> {
        super::errors::refuse_attribute_as_index(text, "Size")?;
        match sequence_index(text, s.0.len()).map_err(to_rhai)? {
            SequenceIndex::At(i) => at(s, i).map(Dynamic::from),
            SequenceIndex::Slice(positions) => Ok(Dynamic::from(Size(
                positions.into_iter().map(|j| s.0[j]).collect(),
            ))),
            SequenceIndex::Tuple => Err(super::errors::type_error(
                "tuple indices must be integers or slices, not tuple",
            )),
        }
    });
    registration::method::<Size>(engine, "len", 0, |s, _| Ok(Dynamic::from(s.0.len() as INT)));
    registration::method::<Size>(engine, "numel", 0, |s, _| {
        Ok(Dynamic::from(s.0.iter().product::<i64>()))
    });
    registration::method::<Size>(engine, "tolist", 0, |s, _| {
        Ok(Dynamic::from_array(
            s.0.iter().map(|&x| Dynamic::from(x)).collect(),
        ))
    });
    engine.register_fn("==", |a: Size, b: Size| a == b);
    engine.register_fn("!=", |a: Size, b: Size| a != b);
    engine.register_fn("==", |a: Size, b: Array| {
        a.0.len() == b.len() && a.0.iter().zip(&b).all(|(x, y)| y.as_int() == Ok(*x))
    });
    engine.register_fn("==", |a: Array, b: Size| {
        b.0.len() == a.len() && b.0.iter().zip(&a).all(|(x, y)| y.as_int() == Ok(*x))
    });
    engine.register_iterator::<Size>();
    use super::values::Device;
    engine.register_get("type", |d: &mut Device| d.kind.to_string());
    engine.register_get("index", |d: &mut Device| {
        d.index.map_or(Dynamic::UNIT, Dynamic::from)
    });
    engine.register_fn("==", |a: Device, b: Device| a == b);
    engine.register_fn("!=", |a: Device, b: Device| a != b);
    engine.register_fn(
        "==",
        |a: crate::core::dtype::DType, b: crate::core::dtype::DType| a == b,
    );
    engine.register_fn(
        "!=",
        |a: crate::core::dtype::DType, b: crate::core::dtype::DType| a != b,
    );
}
