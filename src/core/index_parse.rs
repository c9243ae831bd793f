//! Parses the text of a Python subscript (`":, 1:3, ::2, None, ..."`) into index items.

use super::error::{Result, TorchError};
use super::index::IndexItem;

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

/// One comma-separated subscript: integers, slices `a:b:c`, `None`, `...`, `True`/`False`.
pub fn parse_index(text: &str) -> Result<Vec<IndexItem>> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Ok(vec![]);
    }
    let trimmed = trimmed.strip_suffix(',').unwrap_or(trimmed);
    trimmed
        .split(',')
        .map(|part| {
            let p = part.trim();
            match p {
                "..." | "Ellipsis" => Ok(IndexItem::Ellipsis),
                "None" => Ok(IndexItem::NewAxis),
                "True" => Ok(IndexItem::Bool(true)),
                "False" => Ok(IndexItem::Bool(false)),
                _ if p.contains(':') => {
                    let pieces: Vec<&str> = p.split(':').collect();
                    if pieces.len() > 3 {
                        return Err(TorchError::index(format!("could not parse index '{text}'")));
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
                    None => Err(TorchError::index(format!("could not parse index '{text}'"))),
                },
            }
        })
        .collect()
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
    }
}
