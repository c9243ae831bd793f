//! Python's operators on instances of classes of statements, through their special methods:
//! `a + b` tries `a.__add__(b)`, then `b.__radd__(a)` when the first is absent or returns
//! `NotImplemented`; `a += b` tries `__iadd__` first; comparisons try the reflected
//! comparison (`a < b` then `b > a`), and `==` falls back to identity.

use ruff_python_ast::{CmpOp, UnaryOp};

use super::{Flow, Interpreter};
use crate::python::number::BinOp;
use crate::python::value::Value;

/// The name inside a binary operator's special method (`add` of `__add__`).
fn stem(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "add",
        BinOp::Sub => "sub",
        BinOp::Mul => "mul",
        BinOp::Div => "truediv",
        BinOp::FloorDiv => "floordiv",
        BinOp::Mod => "mod",
        BinOp::Pow => "pow",
        BinOp::MatMul => "matmul",
        BinOp::And => "and",
        BinOp::Or => "or",
        BinOp::Xor => "xor",
        BinOp::LShift => "lshift",
        BinOp::RShift => "rshift",
    }
}

/// Whether `v` is an instance of a class of a statement (whose special methods are looked up).
fn is_object(v: &Value) -> bool {
    Interpreter::class_of_instance(v).is_some()
}

impl Interpreter {
    /// `a op b` when either is an instance of a class of a statement: its special method's
    /// result; `None` when neither operand is one.
    pub(super) fn object_binary(&mut self, op: BinOp, a: &Value, b: &Value) -> Flow<Option<Value>> {
        if !is_object(a) && !is_object(b) {
            return Ok(None);
        }
        let name = stem(op);
        if let Some(r) = self.special(a, &format!("__{name}__"), vec![b.clone()])?
            && !matches!(r, Value::NotImplemented)
        {
            return Ok(Some(r));
        }
        if let Some(r) = self.special(b, &format!("__r{name}__"), vec![a.clone()])?
            && !matches!(r, Value::NotImplemented)
        {
            return Ok(Some(r));
        }
        if Self::base_value(a).is_some() || Self::base_value(b).is_some() {
            // The builtin type's operator, on the values the instances hold.
            let x = Self::base_value(a).unwrap_or_else(|| a.clone());
            let y = Self::base_value(b).unwrap_or_else(|| b.clone());
            return self.binary(op, x, y).map(Some);
        }
        if matches!(a, Value::Class(_)) || matches!(b, Value::Class(_)) {
            // A class whose metaclass has no such operator: as any other class.
            return Ok(None);
        }
        let what = if op == BinOp::Pow {
            "** or pow()"
        } else {
            op.symbol()
        };
        self.raise(
            "TypeError",
            format!(
                "unsupported operand type(s) for {what}: '{}' and '{}'",
                a.type_name(),
                b.type_name()
            ),
        )
    }

    /// `a op= b` on an instance of a class of a statement: its `__iop__`, else `a op b`;
    /// `None` when `a` is no such instance and `b` is none either.
    pub(super) fn object_in_place(
        &mut self,
        op: BinOp,
        a: &Value,
        b: &Value,
    ) -> Flow<Option<Value>> {
        if !is_object(a) && !is_object(b) {
            return Ok(None);
        }
        if let Some(r) = self.special(a, &format!("__i{}__", stem(op)), vec![b.clone()])?
            && !matches!(r, Value::NotImplemented)
        {
            return Ok(Some(r));
        }
        self.object_binary(op, a, b)
    }

    /// `-a`, `+a`, `~a` on an instance of a class of a statement; `None` for other values.
    pub(super) fn object_unary(&mut self, op: UnaryOp, v: &Value) -> Flow<Option<Value>> {
        if !is_object(v) {
            return Ok(None);
        }
        let name = match op {
            UnaryOp::USub => "__neg__",
            UnaryOp::UAdd => "__pos__",
            UnaryOp::Invert => "__invert__",
            UnaryOp::Not => return Ok(Some(Value::Bool(!self.truthy(v)?))),
        };
        match self.special(v, name, Vec::new())? {
            Some(r) => Ok(Some(r)),
            None => {
                let symbol = match op {
                    UnaryOp::USub => "unary -",
                    UnaryOp::UAdd => "unary +",
                    _ => "unary ~",
                };
                self.raise(
                    "TypeError",
                    format!("bad operand type for {symbol}: '{}'", v.type_name()),
                )
            }
        }
    }

    /// `a cmp b` when either is an instance of a class of a statement: the special method's
    /// result, the reflected one's, identity for `==`/`!=`, else Python's ordering error;
    /// `None` when neither operand is one.
    pub(super) fn object_compare(
        &mut self,
        op: CmpOp,
        a: &Value,
        b: &Value,
    ) -> Flow<Option<Value>> {
        if !is_object(a) && !is_object(b) {
            return Ok(None);
        }
        let (name, reflected, symbol) = match op {
            CmpOp::Eq => ("__eq__", "__eq__", "=="),
            CmpOp::NotEq => ("__ne__", "__ne__", "!="),
            CmpOp::Lt => ("__lt__", "__gt__", "<"),
            CmpOp::LtE => ("__le__", "__ge__", "<="),
            CmpOp::Gt => ("__gt__", "__lt__", ">"),
            CmpOp::GtE => ("__ge__", "__le__", ">="),
            _ => return Ok(None),
        };
        if let Some(r) = self.special(a, name, vec![b.clone()])?
            && !matches!(r, Value::NotImplemented)
        {
            return Ok(Some(r));
        }
        if let Some(r) = self.special(b, reflected, vec![a.clone()])?
            && !matches!(r, Value::NotImplemented)
        {
            return Ok(Some(r));
        }
        if Self::base_value(a).is_some() || Self::base_value(b).is_some() {
            let x = Self::base_value(a).unwrap_or_else(|| a.clone());
            let y = Self::base_value(b).unwrap_or_else(|| b.clone());
            return self.compare(op, &x, &y).map(Some);
        }
        match op {
            CmpOp::Eq => Ok(Some(Value::Bool(super::operators::same_object(a, b)))),
            CmpOp::NotEq => {
                // `!=` without `__ne__` is the negation of `__eq__`.
                if let Some(r) = self.special(a, "__eq__", vec![b.clone()])?
                    && !matches!(r, Value::NotImplemented)
                {
                    return Ok(Some(Value::Bool(!self.truthy(&r)?)));
                }
                Ok(Some(Value::Bool(!super::operators::same_object(a, b))))
            }
            _ => self.raise(
                "TypeError",
                format!(
                    "'{symbol}' not supported between instances of '{}' and '{}'",
                    a.type_name(),
                    b.type_name()
                ),
            ),
        }
    }
}
