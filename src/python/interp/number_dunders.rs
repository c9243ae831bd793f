//! The special methods of Python's numbers, called by name as CPython has them:
//! `(5).__add__(3)`, `int.__mul__`, `x.__index__()`, `(1.5).__lt__(2)`, `functools.reduce(
//! int.__mul__, ...)`. Each is the operator or builtin it stands for; a binary one whose
//! other operand is not a number of a kind its type takes answers `NotImplemented`, as
//! CPython's (an int's methods take ints and bools, a float's also floats, a complex
//! number's also complex numbers).

use super::{Flow, Interpreter};
use crate::python::number::BinOp;
use crate::python::value::Value;
use ruff_python_ast::{CmpOp, UnaryOp};

/// A number's kind, as its special methods take their other operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Int,
    Float,
    Complex,
}

fn kind(v: &Value) -> Option<Kind> {
    match v {
        Value::Bool(_) | Value::Int(_) | Value::BigInt(_) => Some(Kind::Int),
        Value::Float(_) => Some(Kind::Float),
        Value::Complex(_) => Some(Kind::Complex),
        _ => None,
    }
}

/// The binary operator `name` stands for (without its `__`), and whether it is reflected.
fn binary_operator(name: &str) -> Option<(BinOp, bool)> {
    let (reflected, base) = match name.strip_prefix('r') {
        Some(base) if base != "shift" => (true, base),
        _ => (false, name),
    };
    let op = match base {
        "add" => BinOp::Add,
        "sub" => BinOp::Sub,
        "mul" => BinOp::Mul,
        "truediv" => BinOp::Div,
        "floordiv" => BinOp::FloorDiv,
        "mod" => BinOp::Mod,
        "pow" => BinOp::Pow,
        "lshift" => BinOp::LShift,
        "rshift" => BinOp::RShift,
        "and" => BinOp::And,
        "or" => BinOp::Or,
        "xor" => BinOp::Xor,
        _ => return None,
    };
    Some((op, reflected))
}

/// Whether a number of kind `k` has the binary operator `op` (ints have them all, floats
/// no bitwise ones, complex numbers neither `//` nor `%`).
fn has_operator(k: Kind, op: BinOp) -> bool {
    match k {
        Kind::Int => true,
        Kind::Float => !matches!(
            op,
            BinOp::LShift | BinOp::RShift | BinOp::And | BinOp::Or | BinOp::Xor
        ),
        Kind::Complex => matches!(
            op,
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Pow
        ),
    }
}

fn comparison(name: &str) -> Option<CmpOp> {
    Some(match name {
        "eq" => CmpOp::Eq,
        "ne" => CmpOp::NotEq,
        "lt" => CmpOp::Lt,
        "le" => CmpOp::LtE,
        "gt" => CmpOp::Gt,
        "ge" => CmpOp::GtE,
        _ => return None,
    })
}

/// The special methods a number of kind `k` has besides its operators and comparisons.
fn has_other(k: Kind, name: &str) -> bool {
    match name {
        "neg" | "pos" | "abs" | "bool" | "hash" | "repr" | "str" | "format" => true,
        "divmod" | "rdivmod" => k != Kind::Complex,
        "int" | "float" | "trunc" | "floor" | "ceil" | "round" => k != Kind::Complex,
        "invert" | "index" => k == Kind::Int,
        _ => false,
    }
}

/// Whether `object`, a Python number, has the special method `name`.
pub(super) fn has_number_dunder(object: &Value, name: &str) -> bool {
    let (Some(k), Some(inner)) = (
        kind(object),
        name.strip_prefix("__").and_then(|n| n.strip_suffix("__")),
    ) else {
        return false;
    };
    match binary_operator(inner) {
        Some((op, _)) => has_operator(k, op),
        None => comparison(inner).is_some() || has_other(k, inner),
    }
}

impl Interpreter {
    /// Calls the special method `name` of `object`, a number that has it
    /// (`has_number_dunder`), with `args`.
    pub(super) fn call_number_dunder(
        &mut self,
        object: &Value,
        name: &str,
        args: Vec<Value>,
    ) -> Flow<Value> {
        let k = kind(object).unwrap_or(Kind::Int);
        let inner = name.trim_start_matches("__").trim_end_matches("__");
        let takes = |v: &Value| kind(v).is_some_and(|other| other <= k);
        let exactly = |me: &Self, n: usize| {
            if args.len() == n {
                Ok(())
            } else {
                me.raise(
                    "TypeError",
                    format!(
                        "expected {n} argument{}, got {}",
                        if n == 1 { "" } else { "s" },
                        args.len()
                    ),
                )
            }
        };
        if let Some((op, reflected)) = binary_operator(inner) {
            let modulus = if op == BinOp::Pow && args.len() == 2 && !reflected {
                args.get(1).cloned()
            } else {
                exactly(self, 1)?;
                None
            };
            let other = args[0].clone();
            if !takes(&other) {
                return Ok(Value::NotImplemented);
            }
            if let Some(m) = modulus {
                return self.call_builtin("pow", vec![object.clone(), other, m], Vec::new());
            }
            let (a, b) = if reflected {
                (other, object.clone())
            } else {
                (object.clone(), other)
            };
            return self.binary(op, a, b);
        }
        if let Some(op) = comparison(inner) {
            exactly(self, 1)?;
            let ordering = !matches!(op, CmpOp::Eq | CmpOp::NotEq);
            if !takes(&args[0]) || (ordering && k == Kind::Complex) {
                return Ok(Value::NotImplemented);
            }
            return self.compare(op, object, &args[0]);
        }
        match inner {
            "divmod" | "rdivmod" => {
                exactly(self, 1)?;
                if !takes(&args[0]) {
                    return Ok(Value::NotImplemented);
                }
                let mut pair = vec![object.clone(), args[0].clone()];
                if inner == "rdivmod" {
                    pair.reverse();
                }
                self.call_builtin("divmod", pair, Vec::new())
            }
            "neg" | "pos" | "invert" => {
                exactly(self, 0)?;
                let op = match inner {
                    "neg" => UnaryOp::USub,
                    "pos" => UnaryOp::UAdd,
                    _ => UnaryOp::Invert,
                };
                self.unary(op, object.clone())
            }
            "index" => {
                exactly(self, 0)?;
                Ok(Value::long(object.as_long().unwrap_or_default()))
            }
            "floor" | "ceil" | "trunc" if k == Kind::Int => {
                exactly(self, 0)?;
                Ok(Value::long(object.as_long().unwrap_or_default()))
            }
            "floor" | "ceil" | "trunc" => {
                exactly(self, 0)?;
                self.call_module_function(
                    &format!("math.{inner}"),
                    vec![object.clone()],
                    Vec::new(),
                )
            }
            // The builtin of the same name: `abs`, `bool`, `hash`, `repr`, `str`, `format`,
            // `int`, `float`, `round` (each checks its own arguments).
            builtin => {
                let mut all = Vec::with_capacity(args.len() + 1);
                all.push(object.clone());
                all.extend(args);
                self.call_builtin(builtin, all, Vec::new())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_number_has_the_methods_of_its_type() {
        assert!(has_number_dunder(&Value::Int(1), "__add__"));
        assert!(has_number_dunder(&Value::Int(1), "__rlshift__"));
        assert!(has_number_dunder(&Value::Int(1), "__index__"));
        assert!(has_number_dunder(&Value::Float(1.0), "__rpow__"));
        assert!(!has_number_dunder(&Value::Float(1.0), "__and__"));
        assert!(!has_number_dunder(&Value::Float(1.0), "__index__"));
        let z = Value::Complex(num_complex::Complex64::new(0.0, 1.0));
        assert!(has_number_dunder(&z, "__lt__"));
        assert!(!has_number_dunder(&z, "__floordiv__"));
        assert!(!has_number_dunder(&z, "__int__"));
        assert!(!has_number_dunder(&Value::Int(1), "__add"));
        assert!(!has_number_dunder(&Value::None, "__add__"));
        assert_eq!(binary_operator("rshift"), Some((BinOp::RShift, false)));
        assert_eq!(binary_operator("rrshift"), Some((BinOp::RShift, true)));
    }
}
