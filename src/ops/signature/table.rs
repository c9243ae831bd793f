//! The declarations, read from `declarations.txt` (one block a name: what PyTorch accepts
//! and a line of prose) once per thread, and kept for the life of the process:
//! registrations hold them.

use std::collections::HashMap;

use super::python::{PySignature, TupleSignature};
use super::{Declaration, Kind, Signature};

/// The declarations file, compiled in.
const DECLARATIONS: &str = include_str!("declarations.txt");

/// Reads one block's header `[Owner.name] prose`; its lines are kept as they are and parsed
/// on first use (`Declaration::kind`), so start-up only indexes the file.
fn block(header: &'static str, body: &'static str) -> Result<Declaration, String> {
    let (key, prose) = header
        .strip_prefix('[')
        .and_then(|h| h.split_once(']'))
        .ok_or_else(|| format!("bad header {header:?}"))?;
    let (owner, name) = key
        .split_once('.')
        .ok_or_else(|| format!("no owner in {key:?}"))?;
    let prose = prose.trim();
    Ok(Declaration {
        owner,
        name,
        doc: (!prose.is_empty()).then_some(prose),
        body,
        kind: std::cell::OnceCell::new(),
    })
}

/// Parses a block's lines into how the name takes its arguments.
pub(super) fn parse_kind(name: &'static str, body: &'static str) -> Result<Kind, String> {
    let mut overloads = Vec::new();
    let mut hidden_texts = Vec::new();
    let (mut hidden, mut numbers, mut display) = (false, false, name);
    let mut kind = None;
    for line in body_lines(body) {
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
                    .ok_or_else(|| format!("bad Python signature in {name}: {text:?}"))?;
                kind = Some(Kind::Python(sig));
            }
            "cargs" => kind = Some(Kind::Tuple(TupleSignature::parse(text))),
            "builtin" => kind = Some(Kind::Builtin(text)),
            "property" => kind = Some(Kind::Property),
            "mutates" if matches!(text, "values" | "resize") => {}
            _ => return Err(format!("unknown line in {name}: {line:?}")),
        }
    }
    match kind {
        Some(k) => Ok(k),
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
            Ok(Kind::Parser(sig))
        }
        None => Err(format!("{name} declares nothing")),
    }
}

/// A block's lines that say something.
pub(super) fn body_lines(body: &'static str) -> impl Iterator<Item = &'static str> {
    body.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
}

/// Every block of the file, in order: its header line and the text up to the next one.
fn parse_all() -> Result<Vec<Declaration>, String> {
    let mut out = Vec::with_capacity(512);
    // A block starts at a line beginning with `[`: found by searching for `[` (memchr;
    // this runs at start-up) and checking the byte before it, which is fewer stops than
    // visiting every line.
    let next_block = |text: &str| {
        let bytes = text.as_bytes();
        let mut at = 1;
        while let Some(i) = text.get(at..).and_then(|t| t.find('[')) {
            at += i;
            if bytes[at - 1] == b'\n' {
                return at;
            }
            at += 1;
        }
        text.len()
    };
    let start = if DECLARATIONS.starts_with('[') {
        0
    } else {
        next_block(DECLARATIONS)
    };
    let mut rest = &DECLARATIONS[start..];
    while !rest.is_empty() {
        let end = next_block(rest);
        let (chunk, next) = rest.split_at(end);
        let (header, body) = chunk.split_once('\n').unwrap_or((chunk, ""));
        out.push(block(header, body)?);
        rest = next;
    }
    Ok(out)
}

/// Keyed by (owner, name); hashed with ahash (already Rhai's), seeded for repeatable runs:
/// every registration looks its name up at start-up.
type Table = HashMap<(&'static str, &'static str), &'static Declaration, ahash::RandomState>;

thread_local! {
    static TABLE: (Table, Vec<&'static Declaration>) = {
        // The file is compiled in and a unit test parses it: an error here is a defect of
        // the build, reported once and leaving an empty table (every call then unchecked).
        let all = parse_all().unwrap_or_else(|e| {
            eprintln!("tensh: declarations.txt: {e}");
            Vec::new()
        });
        let all: Vec<&'static Declaration> = Box::leak(all.into_boxed_slice()).iter().collect();
        let mut table = Table::with_capacity_and_hasher(all.len(), ahash::RandomState::with_seeds(1, 2, 3, 4));
        table.extend(all.iter().map(|d| ((d.owner, d.name), *d)));
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
            if let Err(e) = parse_kind(d.name, d.body) {
                panic!("{e}");
            }
        }
        assert!(all.len() > 300, "{}", all.len());
        assert!(matches!(
            lookup("Tensor", "narrow").map(|d| d.kind()),
            Some(Kind::Parser(_))
        ));
        assert!(matches!(
            lookup("Tensor", "split").map(|d| d.kind()),
            Some(Kind::Python(_))
        ));
    }
}
