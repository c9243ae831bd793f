//! A Python source (a file, a prompt input, a notebook cell): its text, where its lines
//! start, and its module once parsed with ruff's parser. It lives as long as something runs
//! it or refers into it: the session while the input runs, and every function defined in it
//! (`Function::source`), so an input that defines nothing lasting is freed once it has run.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use ruff_python_ast::{ModModule, Stmt};
use ruff_text_size::TextSize;

use super::name_use::NameUse;

/// One source's text, where its lines start, and its parsed module.
///
/// Invariant: the interpreter holds references into `module` (statements, expressions,
/// parameters) as `&'static` (`parse`); each is used only while an `Rc` of this source is
/// held — by the session running it, or by the function value that keeps the reference
/// (`Function::source`). The module is set once and never changed, so what it owns stays
/// where it is until the last `Rc` goes.
pub struct SourceText {
    /// The name tracebacks give it (the path the session was started with, `<stdin>`).
    pub name: Rc<str>,
    text: Box<str>,
    starts: Vec<usize>,
    module: OnceCell<ModModule>,
    /// How each function defined here uses names, by the address of its definition.
    name_uses: RefCell<HashMap<usize, Rc<NameUse>>>,
}

impl SourceText {
    /// `text` under `name`.
    pub fn new(name: &str, text: &str) -> Rc<SourceText> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Rc::new(SourceText {
            name: name.into(),
            text: text.into(),
            starts,
            module: OnceCell::new(),
            name_uses: RefCell::new(HashMap::new()),
        })
    }

    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// How the function defined at `site` (its definition's address in this source's
    /// module) uses names, if found before.
    pub fn name_use(&self, site: usize) -> Option<Rc<NameUse>> {
        self.name_uses.borrow().get(&site).cloned()
    }

    /// Keeps how the function defined at `site` uses names.
    pub fn remember_name_use(&self, site: usize, found: Rc<NameUse>) {
        self.name_uses.borrow_mut().insert(site, found);
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
#[derive(Debug)]
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

/// How deep brackets may nest (CPython's tokenizer refuses more with the same words).
const MAX_BRACKETS: usize = 200;

/// How deep one expression may nest through operators: each operator of a chain (`a + b +
/// ...`, `-x`, `a.b.c`) nests the expression one level, and CPython's compiler stops past its
/// recursion limit too (`RecursionError: maximum recursion depth exceeded during
/// compilation`).
const MAX_OPERATORS: usize = 5000;

/// Refuses source nested deeper than the parser and interpreter should recurse (a stack
/// overflow would abort the process): brackets past 200 levels, or an expression nested
/// through more than 5,000 operators. The nesting at a place is the operators and brackets
/// met since the start of each enclosing element: a comma or colon starts a new element of
/// its bracket (the items of a long list, each `-1.5`, nest side by side, not in each
/// other), and a logical line starts afresh.
fn check_nesting(source: &SourceText) -> Result<(), Refusal> {
    let bytes = source.text.as_bytes();
    // `operators` is the nesting here: the sum of `element` (operators since the current
    // element of each open bracket began) and the brackets open.
    let (mut depth, mut operators) = (0usize, 0usize);
    let mut element: Vec<usize> = vec![0];
    let mut line_start = 0usize;
    let mut i = 0usize;
    let refuse = |at: usize, kind: &'static str, message: &str| Refusal {
        kind,
        message: message.to_string(),
        line: source.line_of(TextSize::from(at as u32)),
        column: source.column_of(TextSize::from(at as u32)),
    };
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'\'' | b'"' => {
                let triple = bytes.get(i..i + 3).is_some_and(|t| t == [c, c, c]);
                i += if triple { 3 } else { 1 };
                while i < bytes.len() {
                    if bytes[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if triple {
                        if bytes.get(i..i + 3).is_some_and(|t| t == [c, c, c]) {
                            i += 3;
                            break;
                        }
                    } else if bytes[i] == c || bytes[i] == b'\n' {
                        i += 1;
                        break;
                    }
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                operators += 1;
                element.push(0);
                if depth > MAX_BRACKETS {
                    return Err(refuse(i, "SyntaxError", "too many nested parentheses"));
                }
            }
            b')' | b']' | b'}' if depth > 0 => {
                depth -= 1;
                operators -= 1 + element.pop().unwrap_or(0);
            }
            b',' | b':' => {
                if let Some(last) = element.last_mut() {
                    operators -= *last;
                    *last = 0;
                }
            }
            b'\n' if depth == 0 && !(i > 0 && bytes[i - 1] == b'\\') => {
                operators = 0;
                element.clear();
                element.push(0);
                line_start = i + 1;
            }
            b'.' if i > 0 && bytes[i - 1].is_ascii_digit() => {}
            b'+' | b'-' | b'*' | b'/' | b'%' | b'@' | b'&' | b'|' | b'^' | b'~' | b'<' | b'>'
            | b'=' | b'!' | b'.' => {
                operators += 1;
                if let Some(last) = element.last_mut() {
                    *last += 1;
                }
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                if matches!(
                    &bytes[start..i],
                    b"not" | b"lambda" | b"if" | b"await" | b"and" | b"or"
                ) {
                    operators += 1;
                    if let Some(last) = element.last_mut() {
                        *last += 1;
                    }
                }
                if operators > MAX_OPERATORS {
                    return Err(refuse(
                        line_start,
                        "RecursionError",
                        "maximum recursion depth exceeded during compilation",
                    ));
                }
                continue;
            }
            _ => {}
        }
        if operators > MAX_OPERATORS {
            return Err(refuse(
                line_start,
                "RecursionError",
                "maximum recursion depth exceeded during compilation",
            ));
        }
        i += 1;
    }
    Ok(())
}

/// Whether `text` nests deeper than tensh's Python parses (it is refused when run).
pub fn too_deep(text: &str) -> bool {
    check_nesting(&SourceText::new("<input>", text)).is_err()
}

/// Parses `source` as a module: its statements, or why it cannot run. The statements are
/// the source's own, to be used only while an `Rc` of it is held (the invariant on
/// `SourceText`).
pub fn parse(source: &SourceText) -> Result<&'static [Stmt], Refusal> {
    check_nesting(source)?;
    let parsed = ruff_python_parser::parse_module(&source.text).map_err(|e| Refusal {
        kind: "SyntaxError",
        message: e.error.to_string(),
        line: source.line_of(e.location.start()),
        column: source.column_of(e.location.start()),
    })?;
    // Parsed once: a second parse of the same source keeps the first module (the same text).
    let module = source.module.get_or_init(|| parsed.into_syntax());
    // SAFETY: the statements are owned by `source.module`, which is never changed or
    // dropped while an `Rc` of `source` lives; the invariant on `SourceText` keeps every use
    // of these references within such an `Rc`'s life.
    let module: &'static ModModule = unsafe { &*std::ptr::from_ref(module) };
    Ok(&module.body)
}

/// The name of a statement tensh's Python does not run (refused in these words when it is
/// reached, so the statements before it run as in Python).
pub fn unsupported_statement(stmt: &Stmt) -> Option<&'static str> {
    match stmt {
        Stmt::TypeAlias(_) => Some("type aliases"),
        Stmt::IpyEscapeCommand(_) => Some("IPython escape commands"),
        Stmt::FunctionDef(f) if f.is_async => Some("async functions"),
        Stmt::For(f) if f.is_async => Some("async for"),
        Stmt::With(w) if w.is_async => Some("async with"),
        Stmt::Try(t) if t.is_star => Some("except* clauses"),
        _ => None,
    }
}

/// The name of an expression tensh's Python does not evaluate.
pub fn unsupported_expression(expr: &ruff_python_ast::Expr) -> Option<&'static str> {
    use ruff_python_ast::Expr;
    match expr {
        Expr::Await(_) => Some("await"),
        Expr::TString(_) => Some("template strings"),
        Expr::IpyEscapeCommand(_) => Some("IPython escape commands"),
        Expr::ListComp(c) if c.generators.iter().any(|g| g.is_async) => {
            Some("async comprehensions")
        }
        Expr::SetComp(c) if c.generators.iter().any(|g| g.is_async) => Some("async comprehensions"),
        Expr::DictComp(c) if c.generators.iter().any(|g| g.is_async) => {
            Some("async comprehensions")
        }
        Expr::Generator(c) if c.generators.iter().any(|g| g.is_async) => {
            Some("async comprehensions")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_construct_outside_tenshs_python_is_named() {
        let cases = [
            ("x = 1\ntype T = int\n", "type aliases"),
            ("async def f():\n    pass\n", "async functions"),
            (
                "try:\n    pass\nexcept* ValueError:\n    pass\n",
                "except* clauses",
            ),
        ];
        for (code, what) in cases {
            let source = SourceText::new("f.py", code);
            let body = parse(&source).expect("parses");
            let named: Vec<&str> = body.iter().filter_map(unsupported_statement).collect();
            assert_eq!(named, vec![what], "{code}");
        }
        let source = SourceText::new("f.py", "y = t'{x}'\n");
        let body = parse(&source).expect("parses");
        let Stmt::Assign(a) = &body[0] else {
            panic!("an assignment")
        };
        assert_eq!(unsupported_expression(&a.value), Some("template strings"));
    }

    fn parses(code: &str) -> Result<usize, Refusal> {
        let source = SourceText::new("f.py", code);
        parse(&source).map(<[Stmt]>::len)
    }

    #[test]
    fn lines_and_refusals() {
        let s = SourceText::new("f.py", "a = 1\nb = 2\n  c\n");
        assert_eq!(s.line_of(TextSize::from(0)), 1);
        assert_eq!(s.line_of(TextSize::from(6)), 2);
        assert_eq!(s.line_text(3), "  c");
        assert_eq!(s.column_of(TextSize::from(14)), 3);
        assert!(parses("x = 1\nprint(x)\n").is_ok());
        assert!(parses("x = 1\nclass A:\n    pass\n").is_ok());
        assert!(parses("def g():\n    yield 1\n").is_ok());
        let e = parses("x = = 1\n").err().unwrap();
        assert_eq!((e.kind, e.line), ("SyntaxError", 1));
        // Nesting past what is safe to recurse is refused, as CPython refuses it.
        let deep = format!("x = {}1{}\n", "(".repeat(250), ")".repeat(250));
        let e = parses(&deep).err().unwrap();
        assert_eq!(
            (e.kind, e.message.as_str()),
            ("SyntaxError", "too many nested parentheses")
        );
        let chain = format!("y = 0\nx = 1{}\n", " + 1".repeat(6000));
        let e = parses(&chain).err().unwrap();
        assert_eq!((e.kind, e.line), ("RecursionError", 2));
        let data = format!("x = [{}]\ns = '((((('\n", "1.5, ".repeat(20000));
        assert!(parses(&data).is_ok());
        // Negative numbers side by side in nested lists do not nest in each other.
        let rows = format!("x = [{}]\n", "[-1.5, -2.5, [-0.5]], ".repeat(5000));
        assert!(parses(&rows).is_ok());
        // A chain inside a bracket nests on top of what encloses it.
        let inner = format!("x = f(1, {})\n", "-1 + ".repeat(5001));
        let e = parses(&inner).err().unwrap();
        assert_eq!(e.kind, "RecursionError");
    }
}
