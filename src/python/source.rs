//! A Python source file: parsed once with ruff's parser and kept for the life of the process
//! (functions hold references into it), with its lines for tracebacks.

use std::rc::Rc;

use ruff_python_ast::{
    Stmt,
    visitor::source_order::{self, SourceOrderVisitor},
};
use ruff_text_size::{Ranged, TextSize};

/// One file's text and where its lines start.
pub struct SourceText {
    /// The name tracebacks give it (the path the session was started with, `<stdin>`).
    pub name: Rc<str>,
    /// The text.
    pub text: &'static str,
    starts: Vec<usize>,
}

impl SourceText {
    /// `text` under `name`.
    pub fn new(name: &str, text: &'static str) -> SourceText {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceText {
            name: name.into(),
            text,
            starts,
        }
    }

    /// The line (from 1) of a byte offset.
    pub fn line_of(&self, offset: TextSize) -> usize {
        let at = usize::from(offset);
        self.starts.partition_point(|&s| s <= at)
    }

    /// The column (from 1, in characters) of a byte offset.
    pub fn column_of(&self, offset: TextSize) -> usize {
        let at = usize::from(offset).min(self.text.len());
        let start = self.starts[self.line_of(offset) - 1];
        self.text[start..at].chars().count() + 1
    }

    /// Line `line` (from 1), without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self.starts.get(line).map_or(self.text.len(), |&e| e);
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// Why a file cannot run: a syntax error, or a construct tensh's Python does not run.
pub struct Refusal {
    /// `SyntaxError` or `NotImplementedError`.
    pub kind: &'static str,
    /// The message.
    pub message: String,
    /// The line (from 1).
    pub line: usize,
    /// The column (from 1).
    pub column: usize,
}

/// Parses `text` as a module: its statements, or why it cannot run.
pub fn parse(source: &SourceText) -> Result<&'static [Stmt], Refusal> {
    let parsed = ruff_python_parser::parse_module(source.text).map_err(|e| Refusal {
        kind: "SyntaxError",
        message: e.error.to_string(),
        line: source.line_of(e.location.start()),
        column: source.column_of(e.location.start()),
    })?;
    let module = Box::leak(Box::new(parsed.into_syntax()));
    let mut check = Unsupported { found: None };
    check.visit_body(&module.body);
    if let Some((what, at)) = check.found {
        return Err(Refusal {
            kind: "NotImplementedError",
            message: format!("tensh's Python does not run {what}"),
            line: source.line_of(at),
            column: source.column_of(at),
        });
    }
    Ok(&module.body)
}

/// Finds the first construct outside what tensh's Python runs.
struct Unsupported {
    found: Option<(&'static str, TextSize)>,
}

impl<'a> SourceOrderVisitor<'a> for Unsupported {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if self.found.is_some() {
            return;
        }
        let what = match stmt {
            Stmt::ClassDef(_) => Some("class statements"),
            Stmt::Match(_) => Some("match statements"),
            Stmt::TypeAlias(_) => Some("type aliases"),
            Stmt::IpyEscapeCommand(_) => Some("IPython escape commands"),
            Stmt::FunctionDef(f) if f.is_async => Some("async functions"),
            Stmt::For(f) if f.is_async => Some("async for"),
            Stmt::With(w) if w.is_async => Some("async with"),
            Stmt::Try(t) if t.is_star => Some("except* clauses"),
            Stmt::FunctionDef(f) if !f.decorator_list.is_empty() => Some("decorators"),
            _ => None,
        };
        if let Some(what) = what {
            self.found = Some((what, stmt.start()));
            return;
        }
        source_order::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a ruff_python_ast::Expr) {
        use ruff_python_ast::Expr;
        if self.found.is_some() {
            return;
        }
        let what = match expr {
            Expr::Yield(_) | Expr::YieldFrom(_) => Some("generators (yield)"),
            Expr::Await(_) => Some("await"),
            Expr::TString(_) => Some("template strings"),
            Expr::IpyEscapeCommand(_) => Some("IPython escape commands"),
            Expr::ListComp(c) if c.generators.iter().any(|g| g.is_async) => {
                Some("async comprehensions")
            }
            _ => None,
        };
        if let Some(what) = what {
            self.found = Some((what, expr.start()));
            return;
        }
        source_order::walk_expr(self, expr);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_refusals() {
        let s = SourceText::new("f.py", "a = 1\nb = 2\n  c\n");
        assert_eq!(s.line_of(TextSize::from(0)), 1);
        assert_eq!(s.line_of(TextSize::from(6)), 2);
        assert_eq!(s.line_text(3), "  c");
        assert_eq!(s.column_of(TextSize::from(14)), 3);
        assert!(parse(&SourceText::new("f.py", "x = 1\nprint(x)\n")).is_ok());
        let e = parse(&SourceText::new("f.py", "x = 1\nclass A:\n    pass\n"))
            .err()
            .unwrap();
        assert_eq!((e.kind, e.line), ("NotImplementedError", 2));
        assert!(e.message.contains("class"));
        let e = parse(&SourceText::new("f.py", "def g():\n    yield 1\n"))
            .err()
            .unwrap();
        assert_eq!((e.kind, e.line), ("NotImplementedError", 2));
        let e = parse(&SourceText::new("f.py", "x = = 1\n")).err().unwrap();
        assert_eq!((e.kind, e.line), ("SyntaxError", 1));
    }
}
