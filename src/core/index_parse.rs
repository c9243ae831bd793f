//! Parses the text of a Python subscript (`":, 1:3, ::2, None, ..., [0, 2]"`) into index items.

use super::copy::cast_copy;
use super::creation::{Data, tensor_from_data};
use super::dtype::DType;
use super::error::{Result, TorchError};
use super::index::IndexItem;
use super::scalar::Scalar;
use super::tensor::Tensor;

fn unparsable(whole: &str) -> TorchError {
    TorchError::index(format!("could not parse index '{whole}'"))
}

fn parse_int(s: &str, whole: &str) -> Result<Option<i64>> {
    let s = s.trim();
    if s.is_empty() || s == "None" {
        return Ok(None);
    }
    s.parse::<i64>().map(Some).map_err(|_| {
        TorchError::index(format!(
            "could not parse index '{whole}': '{s}' is not an integer"
        ))
    })
}

/// Splits `text` at the commas outside square brackets; an unbalanced bracket is an error.
fn split_top_level<'a>(text: &'a str, whole: &str) -> Result<Vec<&'a str>> {
    let mut parts = vec![];
    let mut depth = 0usize;
    let mut start = 0;
    for (at, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.checked_sub(1).ok_or_else(|| unparsable(whole))?,
            ',' if depth == 0 => {
                parts.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(unparsable(whole));
    }
    parts.push(&text[start..]);
    Ok(parts)
}

/// One element of a list literal: a nested list, `True`/`False`, an integer or a float.
fn parse_list_element(text: &str, whole: &str) -> Result<Data> {
    let p = text.trim();
    if p.starts_with('[') {
        return parse_list(p, whole);
    }
    let scalar = match p {
        "True" => Scalar::Bool(true),
        "False" => Scalar::Bool(false),
        _ => match p.parse::<i64>() {
            Ok(i) => Scalar::Int(i),
            Err(_) => Scalar::Float(p.parse::<f64>().map_err(|_| unparsable(whole))?),
        },
    };
    Ok(Data::Scalar(scalar))
}

/// A Python list literal `[0, 2]`, `[[0], [1]]`, `[True, False]`, `[]`.
fn parse_list(text: &str, whole: &str) -> Result<Data> {
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| unparsable(whole))?;
    let inner = inner.trim();
    if inner.is_empty() {
        return Ok(Data::List(vec![]));
    }
    let inner = inner.strip_suffix(',').unwrap_or(inner);
    let elements = split_top_level(inner, whole)?
        .into_iter()
        .map(|e| parse_list_element(e, whole))
        .collect::<Result<_>>()?;
    Ok(Data::List(elements))
}

/// The index tensor a Python list stands for: bool when every element is a bool, int64
/// otherwise (floats truncate, as PyTorch converts an index list).
pub fn index_tensor_from_data(data: &Data) -> Result<Tensor> {
    let t = tensor_from_data(data, None)?;
    if t.dtype() == DType::Bool && t.numel() > 0 {
        Ok(t)
    } else {
        cast_copy(&t, DType::Int64)
    }
}

fn list_index(text: &str, whole: &str) -> Result<IndexItem> {
    Ok(IndexItem::Tensor(index_tensor_from_data(&parse_list(
        text, whole,
    )?)?))
}

/// A comma-separated subscript: integers, slices `a:b:c`, `None`, `...`, `True`/`False` and
/// list literals (advanced indices).
pub fn parse_index(text: &str) -> Result<Vec<IndexItem>> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Ok(vec![]);
    }
    let trimmed = trimmed.strip_suffix(',').unwrap_or(trimmed);
    split_top_level(trimmed, text)?
        .into_iter()
        .map(|part| {
            let p = part.trim();
            match p {
                "..." | "Ellipsis" => Ok(IndexItem::Ellipsis),
                "None" => Ok(IndexItem::NewAxis),
                "True" => Ok(IndexItem::Bool(true)),
                "False" => Ok(IndexItem::Bool(false)),
                _ if p.starts_with('[') => list_index(p, text),
                _ if p.contains(':') => {
                    let pieces: Vec<&str> = p.split(':').collect();
                    if pieces.len() > 3 {
                        return Err(unparsable(text));
                    }
                    Ok(IndexItem::Slice {
                        start: parse_int(pieces[0], text)?,
                        stop: parse_int(pieces[1], text)?,
                        step: match pieces.get(2) {
                            Some(s) => parse_int(s, text)?,
                            None => None,
                        },
                    })
                }
                _ => match parse_int(p, text)? {
                    Some(i) => Ok(IndexItem::Int(i)),
                    None => Err(unparsable(text)),
                },
            }
        })
        .collect()
}

/// One subscript of a Python sequence (a list, `bytes`, a `torch.Size`) written as an index
/// string: `s["i"]` or `s["start:stop:step"]`.
#[derive(Debug, PartialEq)]
pub enum SequenceIndex {
    /// One position; a negative one counts from the end (the caller checks its range).
    At(i64),
    /// The positions a slice selects, in order (a slice of a sequence is a copy).
    Slice(Vec<usize>),
    /// Several items (`"0, 1"`): a tuple, which each sequence refuses in its own words.
    Tuple,
}

/// Reads `text` as a subscript of a sequence of `len` items, with Python's slice rules; a
/// step of 0 is Python's `ValueError`.
pub fn sequence_index(text: &str, len: usize) -> Result<SequenceIndex> {
    match parse_index(text)?.as_slice() {
        [IndexItem::Int(i)] => Ok(SequenceIndex::At(*i)),
        [IndexItem::Slice { start, stop, step }] => {
            let step = step.unwrap_or(1);
            if step == 0 {
                return Err(TorchError::value("slice step cannot be zero"));
            }
            Ok(SequenceIndex::Slice(
                slice_positions(len as i64, *start, *stop, step).collect(),
            ))
        }
        _ => Ok(SequenceIndex::Tuple),
    }
}

/// The positions a Python slice `start:stop:step` (step not zero) selects from `n` items,
/// with Python's rules: negative bounds count from the end, bounds past either end clamp.
fn slice_positions(
    n: i64,
    start: Option<i64>,
    stop: Option<i64>,
    step: i64,
) -> impl Iterator<Item = usize> {
    let clamp = |v: i64, low: i64, high: i64| {
        let v = if v < 0 { v.saturating_add(n) } else { v };
        v.clamp(low, high)
    };
    let (first, end) = if step > 0 {
        (
            start.map_or(0, |v| clamp(v, 0, n)),
            stop.map_or(n, |v| clamp(v, 0, n)),
        )
    } else {
        (
            start.map_or(n - 1, |v| clamp(v, -1, n - 1)),
            stop.map_or(-1, |v| clamp(v, -1, n - 1)),
        )
    };
    // In i128: a step of i64::MIN has no negation in i64. Every position lies in 0..n.
    let (first, end, step) = (i128::from(first), i128::from(end), i128::from(step));
    // The span to cover and the stride, both non-negative: ceil(span / stride) positions.
    let (span, stride) = if step > 0 {
        ((end - first).max(0), step)
    } else {
        ((first - end).max(0), -step)
    };
    let count = (span + stride - 1) / stride;
    (0..count).map(move |k| (first + k * step) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_python_subscripts() {
        let items = parse_index(":, 1:3, ::2, None, ..., -1").unwrap();
        assert_eq!(items.len(), 6);
        assert!(matches!(
            items[0],
            IndexItem::Slice {
                start: None,
                stop: None,
                step: None
            }
        ));
        assert!(matches!(
            items[1],
            IndexItem::Slice {
                start: Some(1),
                stop: Some(3),
                step: None
            }
        ));
        assert!(matches!(
            items[2],
            IndexItem::Slice {
                start: None,
                stop: None,
                step: Some(2)
            }
        ));
        assert!(matches!(items[3], IndexItem::NewAxis));
        assert!(matches!(items[4], IndexItem::Ellipsis));
        assert!(matches!(items[5], IndexItem::Int(-1)));
        assert!(parse_index("a").is_err());
        assert!(parse_index("[0, 1").is_err());
        assert!(parse_index("0]").is_err());
    }

    #[test]
    fn parses_list_literals_as_advanced_indices() {
        let items = parse_index(":, [0, 2], [[True], [False]], []").unwrap();
        assert_eq!(items.len(), 4);
        let IndexItem::Tensor(list) = &items[1] else {
            panic!("a list literal is an advanced index")
        };
        assert_eq!((list.sizes(), list.dtype()), (vec![2], DType::Int64));
        let IndexItem::Tensor(nested) = &items[2] else {
            panic!("a nested list literal is an advanced index")
        };
        assert_eq!((nested.sizes(), nested.dtype()), (vec![2, 1], DType::Bool));
        let IndexItem::Tensor(empty) = &items[3] else {
            panic!("an empty list literal is an advanced index")
        };
        assert_eq!((empty.sizes(), empty.dtype()), (vec![0], DType::Int64));
    }

    #[test]
    fn sequence_subscripts_read_one_position_a_slice_or_a_tuple() {
        assert_eq!(sequence_index("-1", 3).unwrap(), SequenceIndex::At(-1));
        assert_eq!(
            sequence_index("::-1", 3).unwrap(),
            SequenceIndex::Slice(vec![2, 1, 0])
        );
        assert_eq!(sequence_index("0, 1", 3).unwrap(), SequenceIndex::Tuple);
        assert!(sequence_index("::0", 3).is_err());
    }

    #[test]
    fn slices_select_as_python_does() {
        let picks = |n, a, b, s| slice_positions(n, a, b, s).collect::<Vec<_>>();
        assert_eq!(picks(16, Some(4), Some(8), 1), [4, 5, 6, 7]);
        assert_eq!(picks(5, None, None, -2), [4, 2, 0]);
        assert_eq!(picks(5, Some(-2), None, 1), [3, 4]);
        assert_eq!(picks(5, Some(9), Some(-9), -1), [4, 3, 2, 1, 0]);
        assert_eq!(picks(5, Some(3), Some(1), 1), Vec::<usize>::new());
        assert_eq!(picks(0, None, None, -1), Vec::<usize>::new());
        assert_eq!(picks(5, Some(i64::MIN), Some(i64::MAX), i64::MAX), [0]);
        assert_eq!(picks(5, None, None, i64::MIN), [4]);
    }
}
