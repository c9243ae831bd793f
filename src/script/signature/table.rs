//! The declarations, read from `declarations.txt` (one block a name: what PyTorch accepts
//! and a line of prose) once per thread, and kept for the life of the process:
//! registrations hold them.

use std::collections::HashMap;

use super::python::{PySignature, TupleSignature};
use super::{Declaration, Kind, Signature};

/// The declarations file, compiled in.
const DECLARATIONS: &str = include_str!("declarations.txt");

/// Parses one block: its header `[Owner.name] prose` and its lines.
fn block(header: &'static str, lines: &[&'static str]) -> Result<Declaration, String> {
    let (key, prose) = header
        .strip_prefix('[')
        .and_then(|h| h.split_once(']'))
        .ok_or_else(|| format!("bad header {header:?}"))?;
    let (owner, name) = key
        .split_once('.')
        .ok_or_else(|| format!("no owner in {key:?}"))?;
    let prose = prose.trim();
    let mut overloads = Vec::new();
    let mut hidden_texts = Vec::new();
    let (mut hidden, mut numbers, mut display) = (false, false, name);
    let mut kind = None;
    for line in lines {
        let (tag, text) = line.split_once(':').unwrap_or((line, ""));
        let text = text.trim();
        match tag {
            "parser" => overloads.push(text),
            "hidden" if text == "yes" => hidden = true,
            "hidden" => {
                hidden = true;
                hidden_texts.push(text);
            }
            "numbers" => numbers = true,
            "name" => display = text,
            "noargs" | "onearg" => {
                let (keyword, positional) = text.split_once(" | ").unwrap_or((text, text));
                kind = Some(if tag == "noargs" {
                    Kind::NoArgs {
                        keyword,
                        positional,
                    }
                } else {
                    Kind::OneArg {
                        keyword,
                        positional,
                    }
                });
            }
            "python" => {
                let sig = PySignature::parse(text)
                    .ok_or_else(|| format!("bad Python signature in {key}: {text:?}"))?;
                kind = Some(Kind::Python(sig));
            }
            "cargs" => kind = Some(Kind::Tuple(TupleSignature::parse(text))),
            "builtin" => kind = Some(Kind::Builtin(text)),
            "notcallable" => kind = Some(Kind::NotCallable(text)),
            "property" => kind = Some(Kind::Property),
            _ => return Err(format!("unknown line in {key}: {line:?}")),
        }
    }
    let kind = match kind {
        Some(k) => k,
        None if !overloads.is_empty() => {
            let mut sig = Signature::new(display, &overloads);
            sig.hidden = hidden;
            sig.hidden_overloads = hidden_texts
                .into_iter()
                .map(super::Overload::parse)
                .collect();
            if numbers {
                sig = sig.numbers_as_tensors();
            }
            Kind::Parser(sig)
        }
        None => return Err(format!("{key} declares nothing")),
    };
    Ok(Declaration {
        owner,
        name,
        doc: (!prose.is_empty()).then_some(prose),
        kind,
    })
}

/// Every block of the file, in order.
fn parse_all() -> Result<Vec<Declaration>, String> {
    let mut out = Vec::new();
    let mut header: Option<&'static str> = None;
    let mut lines = Vec::new();
    let body = DECLARATIONS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    for line in body.chain(std::iter::once("[end.]")) {
        if line.starts_with('[') {
            if let Some(h) = header.take() {
                out.push(block(h, &lines)?);
            }
            lines.clear();
            header = Some(line);
        } else {
            lines.push(line);
        }
    }
    Ok(out)
}

type Table = HashMap<(&'static str, &'static str), &'static Declaration>;

thread_local! {
    static TABLE: (Table, Vec<&'static Declaration>) = {
        // The file is compiled in and a unit test parses it: an error here is a defect of
        // the build, reported once and leaving an empty table (every call then unchecked).
        let all = parse_all().unwrap_or_else(|e| {
            eprintln!("tensh: declarations.txt: {e}");
            Vec::new()
        });
        let all: Vec<&'static Declaration> =
            all.into_iter().map(|d| &*Box::leak(Box::new(d))).collect();
        let table = all.iter().map(|d| ((d.owner, d.name), *d)).collect();
        (table, all)
    };
}

/// The declaration of `owner.name` (`("Tensor", "narrow")`, `("torch", "zeros")`).
pub fn lookup(owner: &str, name: &str) -> Option<&'static Declaration> {
    TABLE.with(|(t, _)| t.get(&(owner, name)).copied())
}

/// Every declaration, in the file's order.
pub fn all() -> Vec<&'static Declaration> {
    TABLE.with(|(_, all)| all.clone())
}

/// The prose of a bare name: the first block of that name that has some.
pub fn doc(name: &str) -> Option<&'static str> {
    TABLE.with(|(_, all)| all.iter().filter(|d| d.name == name).find_map(|d| d.doc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_parses_and_keys_are_unique() {
        let all = parse_all().expect("declarations.txt parses");
        let mut seen = std::collections::HashSet::new();
        for d in &all {
            assert!(
                seen.insert((d.owner, d.name)),
                "{}.{} twice",
                d.owner,
                d.name
            );
        }
        assert!(all.len() > 300, "{}", all.len());
        assert!(matches!(
            lookup("Tensor", "narrow").map(|d| &d.kind),
            Some(Kind::Parser(_))
        ));
        assert!(matches!(
            lookup("Tensor", "split").map(|d| &d.kind),
            Some(Kind::Python(_))
        ));
    }
}
