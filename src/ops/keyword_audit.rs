//! No keyword is ignored in silence. A call that gives a parameter a value other than its
//! declared default is watched while its body runs (`Args` records each parameter the body
//! asks for); a parameter the body never asked for was not honoured, and the call raises
//! `NotImplementedError` naming it instead of returning a result computed without it.
//! Calls without keywords, and keywords left at their defaults, are not watched; nor are
//! keywords that binding moved into their positions (`signature::bind`).

use std::cell::RefCell;
use std::rc::Rc;

use rhai::Dynamic;

use super::args::Args;
use super::errors::{RhaiResult, to_rhai};
use super::signature::Declaration;
use crate::core::error::TorchError;

/// A watched call: the keywords given a non-default value, and what the body asked for.
pub struct KeywordAudit {
    op: &'static str,
    given: Vec<String>,
    reads: Rc<RefCell<Vec<String>>>,
}

/// Starts watching `args` if it gives some keyword a value other than its default in
/// `declared`. It runs on the bound call: a keyword naming a positional parameter has been
/// moved into its place and is read by position, as a positional call would be; what is
/// watched is what the body must ask for by name.
pub fn watch(declared: Option<&'static Declaration>, args: &mut Args) -> Option<KeywordAudit> {
    let d = declared?;
    if args.kw.is_empty() {
        return None;
    }
    let given: Vec<String> = args
        .kw
        .iter()
        .filter(|(k, v)| !v.is_unit() && !d.default_of(k).is_some_and(|t| equals_default(v, t)))
        .map(|(k, _)| k.to_string())
        .collect();
    if given.is_empty() {
        return None;
    }
    Some(KeywordAudit {
        op: d.name.rsplit("::").next().unwrap_or(d.name),
        given,
        reads: args.watch(),
    })
}

impl KeywordAudit {
    /// After the body succeeded: the first keyword given and never asked for is an error.
    pub fn finish(self) -> RhaiResult<()> {
        let reads = self.reads.borrow();
        match self.given.iter().find(|k| !reads.contains(k)) {
            None => Ok(()),
            Some(k) => Err(to_rhai(TorchError::not_implemented(format!(
                "tensh does not implement the {k}= argument of {}()",
                self.op
            )))),
        }
    }
}

/// Whether `v` is the value PyTorch's text of a default (`False`, `0`, `1e-05`, `"cpu"`)
/// stands for.
fn equals_default(v: &Dynamic, text: &str) -> bool {
    let text = text.trim();
    let number = v.as_int().map(|i| i as f64).or_else(|_| v.as_float()).ok();
    match text {
        "None" => v.is_unit(),
        "False" | "True" => v.as_bool().is_ok_and(|b| b == (text == "True")),
        _ => {
            if let Ok(d) = text.parse::<f64>() {
                return number == Some(d) && !v.is_bool();
            }
            let unquoted = text.trim_matches(|c| c == '"' || c == '\'');
            if unquoted.len() + 2 == text.len() {
                return v.clone().into_string().is_ok_and(|s| s == unquoted);
            }
            v.to_string() == text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_recognised_by_their_text() {
        assert!(equals_default(&Dynamic::from(false), "False"));
        assert!(!equals_default(&Dynamic::from(true), "False"));
        assert!(equals_default(&Dynamic::from(1_i64), "1"));
        assert!(equals_default(&Dynamic::from(1.0_f64), "1"));
        assert!(!equals_default(&Dynamic::from(2_i64), "1"));
        assert!(equals_default(&Dynamic::from(1e-5_f64), "1e-05"));
        assert!(equals_default(&Dynamic::from("cpu"), "\"cpu\""));
        assert!(!equals_default(&Dynamic::from(true), "1"));
    }

    /// `add_(1, #{alpha: value})` as its body receives it.
    fn add_with_alpha(alpha: i64) -> Args {
        let mut kw = rhai::Map::new();
        kw.insert("alpha".into(), Dynamic::from(alpha));
        Args::from_parts(vec![Dynamic::from(1_i64)], kw, &Args::default())
    }

    #[test]
    fn a_keyword_never_asked_for_is_refused() {
        let declared = crate::ops::signature::lookup("Tensor", "add_");
        let mut args = add_with_alpha(2);
        let audit = watch(declared, &mut args).expect("alpha=2 is watched");
        let _ = args.get(0, "other");
        let err = audit.finish().unwrap_err().to_string();
        assert!(
            err.contains("does not implement the alpha= argument of add_()"),
            "{err}"
        );

        let mut args = add_with_alpha(2);
        let audit = watch(declared, &mut args).expect("alpha=2 is watched");
        let _ = args.kw("alpha");
        assert!(audit.finish().is_ok());
    }

    #[test]
    fn keywords_at_their_defaults_are_not_watched() {
        let declared = crate::ops::signature::lookup("Tensor", "add_");
        let mut args = add_with_alpha(1);
        assert!(watch(declared, &mut args).is_none());
    }
}
