//! Signatures declared once. Each op's overloads are written as PyTorch prints them in its
//! `TypeError`s (`int dim, int start, int length`); that text is parsed into parameters
//! (type, name, default, keyword-only after `*`), and one check (`check`) matches a call's
//! arguments against them with PyTorch's rules and words: too many positionals, a missing
//! argument, a wrong type, an unknown keyword, a value given twice, or no overload at all.
//! The same declarations are what `:help` shows.

mod check;
mod table;

pub use check::check;
pub use table::{Form, declared, lookup};

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
    /// Whether the lone positional is a `tuple of ints`.
    gathers_ints: bool,
}

impl Overload {
    /// Parses PyTorch's text of an overload.
    pub fn parse(text: &'static str) -> Overload {
        let mut params = Vec::new();
        let mut keyword_only = false;
        for item in text.split(", ").filter(|s| !s.is_empty()) {
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
        let gathers_ints = positional == 1 && params[0].ty == Ty::IntList;
        Overload {
            text,
            params,
            positional,
            required_positional,
            gathers_ints,
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
    /// A method that takes no arguments at all (`Tensor.abs()`), with its own messages.
    pub no_args: bool,
    /// The overload that took the last positional-only call, tried first on the next.
    pub last_fit: std::cell::Cell<usize>,
}

impl Signature {
    /// The same signature where `Tensor` parameters also take numbers, as PyTorch's
    /// arithmetic does.
    pub fn numbers_as_tensors(mut self) -> Signature {
        for p in self.overloads.iter_mut().flat_map(|o| o.params.iter_mut()) {
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
            no_args: false,
            last_fit: std::cell::Cell::new(0),
        }
    }

    /// A method that takes no arguments.
    pub fn no_args(name: &'static str) -> Signature {
        Signature {
            name,
            overloads: vec![Overload::parse("")],
            no_args: true,
            last_fit: std::cell::Cell::new(0),
        }
    }

    /// Whether some overload takes its ints as separate positionals (`x.view(2, 3)`), so
    /// any number of them may be right.
    pub fn gathers_ints(&self) -> bool {
        self.overloads.iter().any(Overload::gathers_ints)
    }

    /// The overloads for `name`, one a line, as `:help` shows them: `narrow(int dim, ...)`.
    pub fn help_lines(&self) -> Vec<String> {
        self.overloads
            .iter()
            .map(|o| format!("{}({})", self.name, o.text))
            .collect()
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
