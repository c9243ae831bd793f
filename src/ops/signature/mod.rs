//! Signatures declared once. Each op's overloads are written as PyTorch prints them in its
//! `TypeError`s (`int dim, int start, int length`); that text is parsed into parameters
//! (type, name, default, keyword-only after `*`), and one check (`check`) matches a call's
//! arguments against them with PyTorch's rules and words: too many positionals, a missing
//! argument, a wrong type, an unknown keyword, a value given twice, or no overload at all.
//! What PyTorch implements outside that parser (Python functions, builtins, C methods of
//! no or one argument) is declared in the same file and checked with the interpreter's
//! words (`python`). The same declarations are what `:help` shows.

mod check;
mod python;
mod table;

pub use check::{bind, check};
pub use python::{PySignature, TupleSignature};
pub use table::{all, doc, lookup};

use crate::ops::args::Args;
use crate::ops::errors::{RhaiResult, type_error};

/// The receivers of methods, by the owner name their declarations use (`Tensor.narrow`).
pub trait Owner {
    /// `Tensor`, `UntypedStorage`, `TypedStorage`, `Size`, `buffer`, ...
    const OWNER: &'static str;

    /// Runs the body of a method declared to change the receiver (`mutates:`): refuses it
    /// where PyTorch would (after the arguments are checked, before the body), and counts
    /// the change the body made (a tensor's version, once, and only when it succeeded).
    fn mutating(
        &self,
        _mutation: Mutation,
        body: impl FnOnce() -> RhaiResult<rhai::Dynamic>,
    ) -> RhaiResult<rhai::Dynamic> {
        body()
    }
}

impl Owner for crate::core::tensor::Tensor {
    const OWNER: &'static str = "Tensor";

    fn mutating(
        &self,
        mutation: Mutation,
        body: impl FnOnce() -> RhaiResult<rhai::Dynamic>,
    ) -> RhaiResult<rhai::Dynamic> {
        use crate::core::tensor::record;
        use crate::ops::errors::IntoRhai;
        match mutation {
            Mutation::Values => {
                record::check_inplace(self).rhai()?;
                record::counted_write(self, body)
            }
            // A resize counts a write only when it changed the tensor: its body counts it.
            Mutation::Resize => {
                record::check_resize(self).rhai()?;
                body()
            }
        }
    }
}

/// What a method declared with a `mutates:` line changes of its receiver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    /// Its values or its view of memory (`add_`, `fill_`, `set_`, `as_strided_`): autograd
    /// refuses it on a leaf that requires grad and on views of one.
    Values,
    /// Its size and storage (`resize_`): refused on anything that requires grad.
    Resize,
}
impl Owner for crate::core::memory::storage::Storage {
    const OWNER: &'static str = "UntypedStorage";
}

/// How one name takes its arguments.
#[derive(Debug)]
pub enum Kind {
    /// PyTorch's C++ argument parser, with these overloads.
    Parser(Signature),
    /// A C method without arguments; the names used in its two messages.
    NoArgs {
        /// In "takes no keyword arguments".
        keyword: &'static str,
        /// In "takes no arguments (n given)".
        positional: &'static str,
    },
    /// A C method of exactly one argument; the names used in its two messages.
    OneArg {
        /// In "takes no keyword arguments".
        keyword: &'static str,
        /// In "takes exactly one argument (n given)".
        positional: &'static str,
    },
    /// A Python function.
    Python(PySignature),
    /// A C function parsing a tuple and keywords.
    Tuple(TupleSignature),
    /// A builtin (`len`, `list`, `tuple`) the script spells as a method or function.
    Builtin(&'static str),
    /// A property: prose only, no call.
    Property,
}

/// One name a script can call: who owns it, how it takes arguments, and its prose.
#[derive(Debug)]
pub struct Declaration {
    /// `Tensor`, `torch`, `UntypedStorage`, ...
    pub owner: &'static str,
    /// The name (`narrow`; a path such as `UntypedStorage::from_file` under `torch`).
    pub name: &'static str,
    /// One line of prose for `:help`.
    pub doc: Option<&'static str>,
    /// The block's text after its header, parsed into `kind` on first use.
    body: &'static str,
    kind: std::cell::OnceCell<Kind>,
}

/// A C method of a fixed number of positionals and no keywords, in CPython's words.
fn c_method(
    args: &Args,
    keyword: &str,
    takes: usize,
    wrong_count: impl Fn(usize) -> String,
) -> RhaiResult<()> {
    if !args.kw.is_empty() {
        return Err(type_error(format!(
            "{keyword}() takes no keyword arguments"
        )));
    }
    if args.pos.len() != takes {
        return Err(type_error(wrong_count(args.pos.len())));
    }
    Ok(())
}

/// Parameters PyTorch declares that no tensh op implements: given a value, they are
/// refused in words rather than ignored. (`out=` is built for every `torch` function that
/// declares it: `script::out_argument`.)
const NOT_BUILT: &[&str] = &["names"];

impl Declaration {
    /// Whether its `Tensor` parameters also take numbers (`torch.add(1, 2)`).
    pub fn numbers(&self) -> bool {
        table::body_lines(self.body).any(|l| l == "numbers: yes")
    }

    /// Every parameter its lines declare, with the text of its default if it has one
    /// (`("alpha", Some("1"))`), in the order written, overloads one after another.
    pub fn params(&self) -> impl Iterator<Item = (&'static str, Option<&'static str>)> {
        table::body_lines(self.body)
            .filter_map(|line| line.split_once(": "))
            .filter(|(tag, _)| matches!(*tag, "parser" | "hidden" | "python" | "cargs"))
            .flat_map(|(_, text)| items(text))
            .filter_map(|item| {
                let (head, default) = match item.split_once('=') {
                    Some((h, d)) => (h, Some(d)),
                    None => (item, None),
                };
                // `non_blocking: 'bool | None'`: the name is before the annotation.
                let head = head.split(':').next().unwrap_or(head).trim();
                let param = head.rsplit([' ', '(']).next().unwrap_or(head);
                let default = default.map(|d| {
                    let d = d.trim();
                    // A `cargs` line ends with ` | ` and the name in messages.
                    let d = d.split(" | ").next().unwrap_or(d);
                    d.strip_suffix(')').unwrap_or(d)
                });
                let param = param.strip_suffix(')').unwrap_or(param);
                (!param.is_empty() && !param.starts_with('*') && param != "/")
                    .then_some((param, default))
            })
    }

    /// The text of the default of the parameter `name` (`False`, `1`, `None`), as the first
    /// line that declares it with one writes it.
    pub fn default_of(&self, name: &str) -> Option<&'static str> {
        self.params()
            .find_map(|(param, default)| default.filter(|_| param == name))
    }

    /// Whether some overload has a parameter `name`.
    pub fn declares(&self, name: &str) -> bool {
        // A substring search first: this runs for every registration at start-up, and most
        // blocks do not mention the name at all.
        self.body.contains(name) && self.params().any(|(param, _)| param == name)
    }

    /// How it takes its arguments (its lines parsed on first use; a unit test parses every
    /// block, so the fallback of no check is never taken by a built binary).
    pub fn kind(&self) -> &Kind {
        self.kind.get_or_init(|| {
            table::parse_kind(self.name, self.body).unwrap_or_else(|e| {
                eprintln!("tensh: declarations.txt: {e}");
                Kind::Property
            })
        })
    }

    /// Checks a call's arguments (the receiver, for a method, is not among them); the
    /// error is PyTorch's (or Python's) `TypeError`.
    pub fn check(&self, args: &Args) -> RhaiResult<()> {
        match self.kind() {
            Kind::Parser(sig) => {
                check(sig, args)?;
                if !args.kw.is_empty()
                    && let Some(p) = NOT_BUILT
                        .iter()
                        .find(|p| args.kw.get(**p).is_some_and(|v| !v.is_unit()))
                {
                    return Err(crate::ops::errors::to_rhai(
                        crate::core::error::TorchError::not_implemented(format!(
                            "tensh does not implement the {p}= argument of {}()",
                            sig.name
                        )),
                    ));
                }
                Ok(())
            }
            Kind::NoArgs {
                keyword,
                positional,
            } => c_method(args, keyword, 0, |n| {
                format!("{positional}() takes no arguments ({n} given)")
            }),
            Kind::OneArg {
                keyword,
                positional,
            } => c_method(args, keyword, 1, |n| {
                format!("{positional}() takes exactly one argument ({n} given)")
            }),
            Kind::Python(sig) => sig.check(args),
            Kind::Tuple(sig) => sig.check(args),
            Kind::Builtin(name) => python::check_builtin(name, self.owner != "torch", args),
            Kind::Property => Ok(()),
        }
    }

    /// The call as the op's body reads it: keywords naming positional parameters moved into
    /// place (only a parser's overloads say which are positional).
    pub fn bind(&self, args: Args) -> Args {
        match self.kind() {
            Kind::Parser(sig) => bind(sig, args),
            _ => args,
        }
    }

    /// What the method changes of its receiver, from its `mutates:` line (`values`,
    /// `resize`), read off the lines as registration asks it of every name.
    pub fn mutation(&self) -> Option<Mutation> {
        table::body_lines(self.body).find_map(|line| match line.strip_prefix("mutates: ") {
            Some("values") => Some(Mutation::Values),
            Some("resize") => Some(Mutation::Resize),
            _ => None,
        })
    }

    /// The most positionals a call may give (`None`: any number, as `view(2, 3, ...)`),
    /// read off the lines without parsing them (registration asks it of every name).
    pub fn positional_capacity(&self) -> Option<usize> {
        // Items before the first `*...` one, `/` not counted; byte by byte, as this runs
        // for every registration at start-up.
        let positional_items = |text: &str| {
            text.split(',')
                .map(str::trim_start)
                .take_while(|i| !i.starts_with('*') && !i.is_empty())
                .filter(|i| *i != "/")
                .count()
        };
        let mut most = 0;
        for line in table::body_lines(self.body) {
            let (tag, text) = line.split_once(": ").unwrap_or((line, ""));
            let n = match tag {
                "parser" => {
                    let n = positional_items(text);
                    if n == 1 && text.starts_with("tuple of ints ") {
                        return None;
                    }
                    n
                }
                "onearg" => 1,
                "python" => {
                    let params = text.split_once('(').map_or("", |(_, p)| p);
                    let params = params.strip_suffix(')').unwrap_or(params);
                    // `*args` takes any number of positionals (`**kwargs` only keywords).
                    if params
                        .split(", ")
                        .any(|p| p.starts_with('*') && p != "*" && !p.starts_with("**"))
                    {
                        return None;
                    }
                    let implicit = params.starts_with("self") || params.starts_with("cls");
                    positional_items(params) - usize::from(implicit)
                }
                "cargs" => items(text).len(),
                "builtin" => usize::from(self.owner == "torch"),
                _ => 0,
            };
            most = most.max(n);
        }
        Some(most)
    }

    /// The fewest and the most arguments its declared signatures take (the receiver of a
    /// method not counted), where its declaration lists them.
    pub fn argument_counts(&self) -> Option<(usize, usize)> {
        match self.kind() {
            Kind::Parser(sig) => {
                let fewest = sig.overloads.iter().map(Overload::required_total).min()?;
                let most = sig.overloads.iter().map(|o| o.params.len()).max()?;
                Some((fewest, most))
            }
            Kind::NoArgs { .. } => Some((0, 0)),
            Kind::OneArg { .. } => Some((1, 1)),
            _ => None,
        }
    }

    /// The signatures as `:help` shows them, one a line (`Tensor.narrow(int dim, ...)`).
    pub fn help_lines(&self) -> Vec<String> {
        let full = if self.owner == "torch" {
            format!("torch::{}", self.name)
        } else {
            format!("{}.{}", self.owner, self.name)
        };
        match self.kind() {
            Kind::Parser(sig) => sig
                .overloads
                .iter()
                .map(|o| format!("{full}({})", o.text))
                .collect(),
            Kind::NoArgs { .. } => vec![format!("{full}()")],
            Kind::OneArg { .. } => vec![format!("{full}(value)")],
            Kind::Python(sig) => {
                let params = sig
                    .text
                    .split_once(", ")
                    .filter(|(first, _)| *first == "self" || *first == "cls")
                    .map_or(sig.text, |(_, rest)| rest);
                let params = if params == "self" || params == "cls" {
                    ""
                } else {
                    params
                };
                vec![format!("{full}({params})")]
            }
            Kind::Tuple(sig) => vec![format!("{full}({})", sig.text)],
            Kind::Builtin(_) => vec![format!("{full}()")],
            Kind::Property => Vec::new(),
        }
    }
}

/// A PyTorch default as Rhai spells it (`None` is `()`, `False` is `false`).
fn rhai_default(text: &str) -> String {
    match text {
        "None" => "()".to_string(),
        "False" => "false".to_string(),
        "True" => "true".to_string(),
        other => other.replace("torch.", "torch::"),
    }
}

impl Declaration {
    /// How a call is written in Rhai, one line per form (`t.narrow(dim, start, length)`,
    /// `t.sum(#{dim: (), keepdim: false})`): the required parameters by position, the others
    /// in the keyword map with their defaults.
    pub fn rhai_calls(&self) -> Vec<String> {
        let call = match self.owner {
            "torch" => format!("torch::{}", self.name),
            "Tensor" => format!("t.{}", self.name),
            "UntypedStorage" | "TypedStorage" => format!("s.{}", self.name),
            other => format!("{}.{}", other.to_lowercase(), self.name),
        };
        match self.kind() {
            Kind::Parser(sig) => sig
                .overloads
                .iter()
                .map(|o| {
                    let items: Vec<&str> = items(o.text);
                    let default_of = |name: &str| {
                        items.iter().find_map(|item| {
                            item.split_once(" = ")
                                .filter(|(head, _)| head.ends_with(&format!(" {name}")))
                                .map(|(_, d)| rhai_default(d))
                        })
                    };
                    let mut positional = Vec::new();
                    let mut keywords = Vec::new();
                    for p in &o.params {
                        if p.optional {
                            let d = default_of(p.name).unwrap_or_else(|| "()".to_string());
                            keywords.push(format!("{}: {d}", p.name));
                        } else if p.keyword_only {
                            keywords.push(format!("{0}: {0}", p.name));
                        } else {
                            positional.push(p.name.to_string());
                        }
                    }
                    if !keywords.is_empty() {
                        positional.push(format!("#{{{}}}", keywords.join(", ")));
                    }
                    format!("{call}({})", positional.join(", "))
                })
                .collect(),
            Kind::NoArgs { .. } => vec![format!("{call}()")],
            Kind::OneArg { .. } => vec![format!("{call}(value)")],
            _ => Vec::new(),
        }
    }
}

/// What a parameter accepts, by PyTorch's name for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// `int` (not `bool`).
    Int,
    /// `float` (an int is accepted).
    Float,
    /// `bool`.
    Bool,
    /// `Number`: int, float, bool or complex.
    Number,
    /// `Tensor`.
    Tensor,
    /// `Tensor` where the op also takes a Python number (`x.add(1)`).
    TensorOrNumber,
    /// `tuple of ints`: a list of ints, or one int.
    IntList,
    /// `torch.dtype`.
    DType,
    /// `str`.
    Str,
    /// `torch.memory_format`.
    MemoryFormat,
    /// `torch.layout`.
    Layout,
    /// `torch.device`.
    Device,
    /// Any other type name: not checked here (the op's body checks it).
    Any,
}

impl Ty {
    fn parse(name: &str) -> Ty {
        match name {
            "int" => Ty::Int,
            "float" => Ty::Float,
            "bool" => Ty::Bool,
            "Number" => Ty::Number,
            "Tensor" => Ty::Tensor,
            "tuple of ints" => Ty::IntList,
            "torch.dtype" => Ty::DType,
            "str" => Ty::Str,
            "torch.memory_format" => Ty::MemoryFormat,
            "torch.layout" => Ty::Layout,
            "torch.device" => Ty::Device,
            _ => Ty::Any,
        }
    }
}

/// One parameter of an overload.
#[derive(Debug, Clone)]
pub struct Param {
    /// PyTorch's type name, as printed (`tuple of ints`).
    pub type_name: &'static str,
    /// What the type accepts.
    pub ty: Ty,
    /// The parameter's name (its keyword).
    pub name: &'static str,
    /// Whether it may be left out (it has a default).
    pub optional: bool,
    /// Whether the default is `None` (so `()` is accepted).
    pub none_default: bool,
    /// Whether it can only be given by keyword (after `*`).
    pub keyword_only: bool,
}

/// One overload: its text as PyTorch prints it, and its parameters.
#[derive(Debug, Clone)]
pub struct Overload {
    /// `int dim, int start, int length`.
    pub text: &'static str,
    /// The parameters, in order.
    pub params: Vec<Param>,
    /// How many may be given by position (computed once: the check runs on every call).
    positional: usize,
    /// How many positional ones must be given.
    required_positional: usize,
    /// Whether the lone positional is a required `tuple of ints` (loose ints gather into it).
    gathers_ints: bool,
    /// Parameters that must be given, by position or keyword.
    required_total: usize,
    /// Items of the text, `*` included (and 1 for the empty text), as PyTorch's message
    /// formatter counts them.
    items: usize,
}

/// The items of an overload's text, split at `, ` outside brackets (a default such as
/// `dims = [0, 1]` is one item).
pub(crate) fn items(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'[' | b'(' => depth += 1,
            b']' | b')' => depth -= 1,
            b',' if depth == 0 && bytes.get(i + 1) == Some(&b' ') => {
                out.push(&text[start..i]);
                start = i + 2;
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&text[start..]);
    out
}

impl Overload {
    /// Parses PyTorch's text of an overload.
    pub fn parse(text: &'static str) -> Overload {
        let mut params = Vec::new();
        let mut keyword_only = false;
        for item in items(text).into_iter().filter(|s| !s.is_empty()) {
            if item == "*" {
                keyword_only = true;
                continue;
            }
            let (decl, default) = match item.split_once(" = ") {
                Some((d, v)) => (d, Some(v)),
                None => (item, None),
            };
            let (type_name, name) = decl.rsplit_once(' ').unwrap_or(("", decl));
            params.push(Param {
                type_name,
                ty: Ty::parse(type_name),
                name,
                optional: default.is_some(),
                none_default: default == Some("None"),
                keyword_only,
            });
        }
        let positional = params.iter().filter(|p| !p.keyword_only).count();
        let required_positional = params
            .iter()
            .filter(|p| !p.keyword_only && !p.optional)
            .count();
        // PyTorch gathers loose ints into the list only when the list cannot take one int
        // itself: a `dim` that may be omitted (`int[1]? dim=None`, `var`'s second form)
        // takes a single int, so `x.var(0, 1)` is two positionals there, not `dim=(0, 1)`.
        let gathers_ints = positional == 1 && params[0].ty == Ty::IntList && !params[0].optional;
        let required_total = params.iter().filter(|p| !p.optional).count();
        Overload {
            text,
            params,
            positional,
            required_positional,
            gathers_ints,
            required_total,
            items: items(text).len(),
        }
    }

    /// Parameters that may be given by position.
    pub fn positional(&self) -> usize {
        self.positional
    }

    /// Whether this overload's lone positional is a `tuple of ints`, which also takes its
    /// ints as separate positionals.
    pub fn gathers_ints(&self) -> bool {
        self.gathers_ints
    }

    /// Parameters that must be given, by position or keyword.
    pub fn required_total(&self) -> usize {
        self.required_total
    }

    /// Items of the text as PyTorch's message formatter counts them (`*` included).
    pub fn items(&self) -> usize {
        self.items
    }

    /// Positional parameters that must be given.
    pub fn required_positional(&self) -> usize {
        self.required_positional
    }
}

/// An op's name and overloads.
#[derive(Debug, Clone)]
pub struct Signature {
    /// The name in messages (`narrow`).
    pub name: &'static str,
    /// The overloads, in PyTorch's order.
    pub overloads: Vec<Overload>,
    /// Whether PyTorch has overloads its messages do not list (`add`'s deprecated ones),
    /// which changes how a call none takes is reported.
    pub hidden: bool,
    /// Hidden overloads a call may still match (PyTorch's deprecated ones).
    pub hidden_overloads: Vec<Overload>,
    /// The overload that took the last positional-only call, tried first on the next.
    pub last_fit: std::cell::Cell<usize>,
}

impl Signature {
    /// The same signature where `Tensor` parameters also take numbers, as PyTorch's
    /// arithmetic does.
    pub fn numbers_as_tensors(mut self) -> Signature {
        let all = self
            .overloads
            .iter_mut()
            .chain(self.hidden_overloads.iter_mut());
        for p in all.flat_map(|o| o.params.iter_mut()) {
            if p.ty == Ty::Tensor {
                p.ty = Ty::TensorOrNumber;
            }
        }
        self
    }

    /// Parses an op's overload texts.
    pub fn new(name: &'static str, overloads: &[&'static str]) -> Signature {
        Signature {
            name,
            overloads: overloads.iter().map(|t| Overload::parse(t)).collect(),
            hidden: false,
            hidden_overloads: Vec::new(),
            last_fit: std::cell::Cell::new(0),
        }
    }

    /// Whether some overload takes its ints as separate positionals (`x.view(2, 3)`), so
    /// any number of them may be right.
    pub fn gathers_ints(&self) -> bool {
        self.overloads.iter().any(Overload::gathers_ints)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_pytorch_overload_text() {
        let o =
            Overload::parse("tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None");
        let names: Vec<_> = o.params.iter().map(|p| p.name).collect();
        assert_eq!(names, ["dim", "keepdim", "dtype"]);
        assert_eq!(o.params[0].ty, Ty::IntList);
        assert!(o.params[1].optional && !o.params[1].none_default);
        assert!(o.params[2].keyword_only && o.params[2].none_default);
        assert_eq!((o.positional(), o.required_positional()), (2, 1));
        assert!(Overload::parse("").params.is_empty());
    }
}
