//! Operators: arithmetic, comparisons, membership and identity, with Python's rules for its
//! own values and tensh's (PyTorch's broadcasting and promotion) for tensors.

use std::rc::Rc;

use ruff_python_ast::{CmpOp, UnaryOp};

use super::{Flow, Interpreter};
use crate::python::convert::{Arrays, from_dynamic, to_dynamic};
use crate::python::host::HostCall;
use crate::python::number::{self, BinOp};
use crate::python::value::Value;

impl Interpreter {
    /// `a op b`.
    pub(super) fn binary(&mut self, op: BinOp, a: Value, b: Value) -> Flow<Value> {
        if let Some(r) = self.object_binary(op, &a, &b)? {
            return Ok(r);
        }
        if let Some(r) = self.size_arithmetic(op, &a, &b)? {
            return Ok(r);
        }
        if let (BinOp::Add, Value::Host(x), Value::Host(y)) = (op, &a, &b)
            && is_buffer(x)
            && is_buffer(y)
        {
            // `b"ab" + b"cd"`: the bytes of both, as a new bytes value.
            let mut all = self.collect(&a)?;
            all.extend(self.collect(&b)?);
            return self.call_builtin("bytes", vec![Value::list(all)], Vec::new());
        }
        if let (BinOp::Mul, Value::Host(x), n) | (BinOp::Mul, n, Value::Host(x)) = (op, &a, &b)
            && (is_bytes(x) || is_bytearray(x))
            && let Some(n) = n.as_int()
        {
            // `b"ab" * 3`: the bytes repeated.
            let items = self.collect(&Value::Host(x.clone()))?;
            let repeated = Value::list(items);
            let all = self.repeat(&repeated, n)?;
            let name = if is_bytearray(x) {
                "bytearray"
            } else {
                "bytes"
            };
            return self.call_builtin(name, vec![all], Vec::new());
        }
        if matches!(op, BinOp::And | BinOp::Or | BinOp::Sub | BinOp::Xor)
            && (is_set_like_view(&a) || is_set_like_view(&b))
        {
            // A keys or items view with any iterable: the set operation, as a set.
            let x = self.call_builtin("set", vec![a], Vec::new())?;
            let y = self.call_builtin("set", vec![b], Vec::new())?;
            return self.binary(op, x, y);
        }
        if let Some(r) = self.tensor_and_python_value(op, &a, &b) {
            return r;
        }
        if matches!(op, BinOp::Add | BinOp::Mul) && (is_named_tuple(&a) || is_named_tuple(&b)) {
            // A named tuple (`torch.return_types.max`) is a tuple to `+` and `*`: they make a
            // plain tuple.
            let plain = |me: &mut Self, v: Value| -> Flow<Value> {
                if is_named_tuple(&v) {
                    return Ok(Value::tuple(me.collect(&v)?));
                }
                Ok(v)
            };
            if !is_tensor(&a) && !is_tensor(&b) {
                let (a, b) = (plain(self, a)?, plain(self, b)?);
                return self.binary(op, a, b);
            }
        }
        if a.is_tensh() || b.is_tensh() {
            return self.host_binary(op, &a, &b);
        }
        if let Some(r) = number::binary(op, &a, &b) {
            return self.lift(r);
        }
        match (op, &a, &b) {
            (BinOp::Add, Value::Str(x), Value::Str(y)) => Ok(Value::str(format!("{x}{y}"))),
            (BinOp::Add, Value::List(x), Value::List(y)) => {
                let mut items = x.borrow().to_vec();
                items.extend(y.borrow().iter().cloned());
                Ok(Value::list(items))
            }
            (BinOp::Add, Value::Tuple(x), Value::Tuple(y)) => {
                let mut items = x.to_vec();
                items.extend(y.iter().cloned());
                Ok(Value::tuple(items))
            }
            (BinOp::Mul, Value::Str(_) | Value::List(_) | Value::Tuple(_), _)
                if b.as_int().is_some() =>
            {
                self.repeat(&a, b.as_int().unwrap_or(0))
            }
            (BinOp::Mul, _, Value::Str(_) | Value::List(_) | Value::Tuple(_))
                if a.as_int().is_some() =>
            {
                self.repeat(&b, a.as_int().unwrap_or(0))
            }
            (BinOp::Mul, Value::Str(_) | Value::List(_) | Value::Tuple(_), Value::BigInt(_))
            | (BinOp::Mul, Value::BigInt(_), Value::Str(_) | Value::List(_) | Value::Tuple(_)) => {
                self.raise(
                    "OverflowError",
                    "cannot fit 'int' into an index-sized integer",
                )
            }
            (BinOp::Mul, Value::Str(_) | Value::List(_) | Value::Tuple(_), other)
            | (BinOp::Mul, other, Value::Str(_) | Value::List(_) | Value::Tuple(_))
                if !matches!(other, Value::Str(_) | Value::List(_) | Value::Tuple(_)) =>
            {
                self.raise(
                    "TypeError",
                    format!(
                        "can't multiply sequence by non-int of type '{}'",
                        other.type_name()
                    ),
                )
            }
            (BinOp::Mod, Value::Str(f), _) => {
                let f = f.clone();
                Ok(Value::str(self.percent_format(&f, &b)?))
            }
            (BinOp::Or, Value::Set(x), Value::Set(_)) => {
                let union = self.set_copy(x)?;
                self.set_update(&union, &b)?;
                Ok(Value::Set(union))
            }
            (BinOp::And, Value::Set(x), Value::Set(_)) => {
                Ok(Value::Set(self.set_intersection(x, &b)?))
            }
            (BinOp::Sub, Value::Set(x), Value::Set(_)) => {
                Ok(Value::Set(self.set_difference(x, &b)?))
            }
            (BinOp::Xor, Value::Set(x), Value::Set(_)) => {
                Ok(Value::Set(self.set_symmetric_difference(x, &b)?))
            }
            (BinOp::Or, Value::Dict(x), Value::Dict(y)) => {
                let merged = Rc::new(std::cell::RefCell::new(x.borrow().clone()));
                let extra = y.borrow().pairs();
                for (k, v) in extra {
                    self.dict_set(&merged, k, v)?;
                }
                Ok(Value::Dict(merged))
            }
            _ => self.unsupported_operands(op, &a, &b),
        }
    }

    /// Python's error for an operator neither operand takes.
    fn unsupported_operands(&mut self, op: BinOp, a: &Value, b: &Value) -> Flow<Value> {
        if op == BinOp::Add && matches!(a, Value::Str(_) | Value::List(_) | Value::Tuple(_)) {
            // A sequence's own `+` names what it concatenates with.
            let (mine, theirs) = (a.type_name(), b.type_name());
            return self.raise(
                "TypeError",
                format!("can only concatenate {mine} (not \"{theirs}\") to {mine}"),
            );
        }
        self.raise(
            "TypeError",
            format!(
                "unsupported operand type(s) for {}: '{}' and '{}'",
                if op == BinOp::Pow {
                    "** or pow()"
                } else {
                    op.symbol()
                },
                a.type_name(),
                b.type_name()
            ),
        )
    }

    /// An operator between a tensor and a Python value that is neither a number nor a tensh
    /// value (a string, list, tuple, `None`, ...), as Python's protocol resolves it: the
    /// tensor's operator declines, so a sequence repeats by the tensor's `__index__`, a
    /// string, list or tuple on the left refuses to concatenate in its own words, `str %`
    /// formats, and anything else is Python's "unsupported operand type(s)". `None` when
    /// the operands are not of that kind.
    fn tensor_and_python_value(&mut self, op: BinOp, a: &Value, b: &Value) -> Option<Flow<Value>> {
        let (other, tensor_value) = match (is_tensor(a), is_tensor(b)) {
            (true, false) => (b, a),
            (false, true) => (a, b),
            _ => return None,
        };
        let python_number = matches!(
            other,
            Value::Int(_) | Value::BigInt(_) | Value::Float(_) | Value::Bool(_) | Value::Complex(_)
        );
        // A named tuple (`torch.return_types.max`) is a tuple here, named by its class.
        let named = is_named_tuple(other);
        if python_number
            || (matches!(
                other,
                Value::Tensor(_) | Value::Host(_) | Value::HostPath(_)
            ) && !named)
        {
            return None;
        }
        let sequence = named || matches!(other, Value::Str(_) | Value::List(_) | Value::Tuple(_));
        Some(match op {
            BinOp::Mul if sequence => match self.tensor_index(tensor_value) {
                Ok(n) if named => match self.collect(other) {
                    Ok(items) => self.repeat(&Value::tuple(items), n),
                    Err(e) => Err(e),
                },
                Ok(n) => self.repeat(other, n),
                Err(e) => Err(e),
            },
            BinOp::Add if sequence && is_tensor(b) => {
                let kind = if named {
                    "tuple".to_string()
                } else {
                    other.type_name()
                };
                self.raise(
                    "TypeError",
                    format!("can only concatenate {kind} (not \"Tensor\") to {kind}"),
                )
            }
            BinOp::Mod if is_tensor(b) => match other {
                Value::Str(f) => {
                    let f = f.clone();
                    self.percent_format(&f, b).map(Value::str)
                }
                _ => self.unsupported_operands(op, a, b),
            },
            _ => self.unsupported_operands(op, a, b),
        })
    }

    /// A tensor used as an index (`__index__`): the value of one element of an integer
    /// dtype, else PyTorch's TypeError.
    pub(super) fn tensor_index(&mut self, v: &Value) -> Flow<i64> {
        if let Value::Tensor(t) = v
            && t.numel() == 1
            && t.dtype().is_integral()
        {
            let values = crate::core::engine::elements::int64_values(t);
            if let Ok(values) = values {
                return Ok(values[0]);
            }
        }
        self.raise(
            "TypeError",
            "only integer tensors of a single element can be converted to an index",
        )
    }

    /// `s * n` for a string, list or tuple.
    pub(super) fn repeat(&mut self, v: &Value, n: i64) -> Flow<Value> {
        let n = usize::try_from(n).unwrap_or(0);
        let len = match v {
            Value::Str(s) => s.len(),
            Value::List(l) => l.borrow().len(),
            Value::Tuple(t) => t.len(),
            _ => 0,
        };
        if len.saturating_mul(n) > 1 << 28 {
            return self.raise(
                "MemoryError",
                "tensh's Python strings and lists hold at most 2**28 items",
            );
        }
        Ok(match v {
            Value::Str(s) => Value::str(s.repeat(n)),
            Value::List(l) => {
                let items = l.borrow();
                Value::list((0..n).flat_map(|_| items.iter().cloned()).collect())
            }
            Value::Tuple(t) => Value::tuple((0..n).flat_map(|_| t.iter().cloned()).collect()),
            other => other.clone(),
        })
    }

    /// An operator with a tensh value on either side: the engine's operator, or the
    /// `torch` function Python's operator stands for.
    fn host_binary(&mut self, op: BinOp, a: &Value, b: &Value) -> Flow<Value> {
        let tensor_operand = is_tensor(a) || is_tensor(b);
        let x = self.lift(to_dynamic(a))?;
        let y = self.lift(to_dynamic(b))?;
        let function = match op {
            BinOp::FloorDiv => Some("torch::floor_divide"),
            BinOp::MatMul => Some("torch::matmul"),
            BinOp::LShift => Some("torch::bitwise_left_shift"),
            BinOp::RShift => Some("torch::bitwise_right_shift"),
            _ => None,
        };
        let result = match function {
            // Only a tensor's operator reaches these ops; tensh's other values (storages,
            // sizes, named tuples) have no such operator, as in Python.
            Some(_) if !tensor_operand => return self.unsupported_operands(op, a, b),
            Some(f) => self.host.call(f, HostCall::positional(None, vec![x, y])),
            None => self.host.binary(op.symbol(), x, y),
        };
        match result {
            // The engine names its types as Rhai registered them; Python names them by class
            // (`torch.return_types.max`).
            Err(e) if !tensor_operand && is_unsupported_operands(&e) => {
                self.unsupported_operands(op, a, b)
            }
            r => Ok(from_dynamic(self.lift(r)?, Arrays::Tuples)),
        }
    }

    /// `target op= value`: a tensor's in-place method (`add_`, ...), a list's `extend`;
    /// else the plain operator.
    pub(super) fn in_place(&mut self, op: BinOp, current: Value, rhs: Value) -> Flow<Value> {
        if let Some(r) = self.object_in_place(op, &current, &rhs)? {
            return Ok(r);
        }
        if let Value::Tensor(t) = &current {
            let arg = self.lift(to_dynamic(&rhs))?;
            let r = match op {
                BinOp::MatMul => return self.binary(op, current, rhs),
                BinOp::FloorDiv | BinOp::LShift | BinOp::RShift => {
                    let method = match op {
                        BinOp::FloorDiv => "floor_divide_",
                        BinOp::LShift => "bitwise_left_shift_",
                        _ => "bitwise_right_shift_",
                    };
                    self.host
                        .call_tensor_method(method, t, HostCall::positional(None, vec![arg]))
                        .map(|_| ())
                }
                _ => self.host.assign_tensor_op(op.symbol(), t, arg),
            };
            self.lift(r)?;
            return Ok(current);
        }
        if let (BinOp::Add, Value::List(items)) = (op, &current) {
            let extra = self.collect(&rhs)?;
            items.borrow_mut().extend(extra);
            return Ok(current);
        }
        self.binary(op, current, rhs)
    }

    /// `-v`, `+v`, `~v`.
    pub(super) fn unary(&mut self, op: UnaryOp, v: Value) -> Flow<Value> {
        if let Some(r) = self.object_unary(op, &v)? {
            return Ok(r);
        }
        match (op, &v) {
            (UnaryOp::USub, Value::Int(i)) => Ok(Value::int(-(*i as i128))),
            (UnaryOp::USub, Value::BigInt(i)) => Ok(Value::long(-&**i)),
            (UnaryOp::UAdd, Value::BigInt(_)) => Ok(v),
            (UnaryOp::Invert, Value::BigInt(i)) => Ok(Value::long(!&**i)),
            (UnaryOp::USub, Value::Bool(b)) => Ok(Value::Int(-(*b as i64))),
            (UnaryOp::USub, Value::Float(f)) => Ok(Value::Float(-f)),
            (UnaryOp::USub, Value::Complex(c)) => Ok(Value::Complex(-c)),
            (UnaryOp::USub, Value::Host(_) | Value::Tensor(_)) => {
                let r = self.host.negate(v.to_host().unwrap_or_default());
                Ok(from_dynamic(self.lift(r)?, Arrays::Tuples))
            }
            (UnaryOp::UAdd, Value::Bool(b)) => Ok(Value::Int(*b as i64)),
            (
                UnaryOp::UAdd,
                Value::Int(_)
                | Value::Float(_)
                | Value::Complex(_)
                | Value::Host(_)
                | Value::Tensor(_),
            ) => Ok(v),
            (UnaryOp::Invert, Value::Int(i)) => Ok(Value::Int(!i)),
            (UnaryOp::Invert, Value::Bool(b)) => Ok(Value::Int(!(*b as i64))),
            (UnaryOp::Invert, Value::Host(_) | Value::Tensor(_)) => {
                let r = self.host.invert(v.to_host().unwrap_or_default());
                Ok(from_dynamic(self.lift(r)?, Arrays::Tuples))
            }
            _ => {
                let symbol = match op {
                    UnaryOp::USub => "-",
                    UnaryOp::UAdd => "+",
                    UnaryOp::Invert => "~",
                    UnaryOp::Not => "not",
                };
                self.raise(
                    "TypeError",
                    format!("bad operand type for unary {symbol}: '{}'", v.type_name()),
                )
            }
        }
    }

    /// `a op b` for a comparison operator.
    pub(super) fn compare(&mut self, op: CmpOp, a: &Value, b: &Value) -> Flow<Value> {
        match op {
            CmpOp::Is => return Ok(Value::Bool(same_object(a, b))),
            CmpOp::IsNot => return Ok(Value::Bool(!same_object(a, b))),
            CmpOp::In => return Ok(Value::Bool(self.contains(b, a)?)),
            CmpOp::NotIn => return Ok(Value::Bool(!self.contains(b, a)?)),
            _ => {}
        }
        if let Some(r) = self.object_compare(op, a, b)? {
            return Ok(r);
        }
        if let (Value::Host(x), Value::Host(y)) = (a, b)
            && (is_bytes(x) || is_bytearray(x))
            && (is_bytes(y) || is_bytearray(y))
        {
            // Bytes and bytearrays compare by their bytes, as sequences do.
            let p = Value::list(self.collect(a)?);
            let q = Value::list(self.collect(b)?);
            return self.compare(op, &p, &q);
        }
        if !matches!(op, CmpOp::Eq | CmpOp::NotEq)
            && !matches!(a, Value::Tensor(_))
            && !matches!(b, Value::Tensor(_))
            && (is_tuple_like_host(a) || is_tuple_like_host(b))
        {
            // A named tuple or a `torch.Size` is a tuple: it orders against tuples item by
            // item, and against anything else not at all.
            if is_tuple_like(a) && is_tuple_like(b) {
                let p = self.collect(a)?;
                let q = self.collect(b)?;
                return self.order_sequences(op, &p, &q);
            }
            let symbol = match op {
                CmpOp::Lt => "<",
                CmpOp::LtE => "<=",
                CmpOp::Gt => ">",
                _ => ">=",
            };
            return self.raise(
                "TypeError",
                format!(
                    "'{symbol}' not supported between instances of '{}' and '{}'",
                    a.qualified_type_name(),
                    b.qualified_type_name()
                ),
            );
        }
        if matches!(op, CmpOp::Eq | CmpOp::NotEq)
            && (is_tuple_like_host(a) || is_tuple_like_host(b))
            && (matches!(a, Value::List(_)) || matches!(b, Value::List(_)))
        {
            // A tuple is never equal to a list.
            return Ok(Value::Bool(op == CmpOp::NotEq));
        }
        if matches!(op, CmpOp::Eq | CmpOp::NotEq)
            && (is_tuple_like_host(a) || is_tuple_like_host(b))
            && is_tuple_like(a)
            && is_tuple_like(b)
        {
            // A named tuple or a `torch.Size` equals a tuple item by item, each item equal
            // to itself by identity first, as CPython's tuples compare.
            let p = self.collect(a)?;
            let q = self.collect(b)?;
            let mut equal = p.len() == q.len();
            for (x, y) in p.iter().zip(&q) {
                if !equal {
                    break;
                }
                equal = same_object(x, y) || self.values_equal(x, y)?;
            }
            return Ok(Value::Bool(equal == (op == CmpOp::Eq)));
        }
        if a.is_tensh() || b.is_tensh() {
            if matches!(op, CmpOp::Eq | CmpOp::NotEq)
                && (matches!(a, Value::None) || matches!(b, Value::None))
            {
                return Ok(Value::Bool(op == CmpOp::NotEq));
            }
            if !matches!(op, CmpOp::Eq | CmpOp::NotEq) && tensor_against_python_value(a, b) {
                // The tensor's comparison declines a value that is no number: Python's
                // ordering error.
                return self.order(a, b, op).map(|_| Value::None);
            }
            let symbol = match op {
                CmpOp::Eq => "==",
                CmpOp::NotEq => "!=",
                CmpOp::Lt => "<",
                CmpOp::LtE => "<=",
                CmpOp::Gt => ">",
                _ => ">=",
            };
            // A number on the left declines a tensor (its `__lt__` says `NotImplemented`), so
            // Python asks the tensor's reflected comparison, whose name PyTorch's errors give.
            let (left, right, symbol) = if !a.is_tensh() {
                let reflected = match symbol {
                    "<" => ">",
                    "<=" => ">=",
                    ">" => "<",
                    ">=" => "<=",
                    same => same,
                };
                (b, a, reflected)
            } else {
                (a, b, symbol)
            };
            let x = self.lift(to_dynamic(left))?;
            let y = self.lift(to_dynamic(right))?;
            let r = self.host.binary(symbol, x, y);
            return match r {
                Ok(v) => Ok(from_dynamic(v, Arrays::Tuples)),
                // Values the engine has no `==` for are equal only when they are one object;
                // an op's own refusal (shapes that do not broadcast) is raised.
                Err(e)
                    if matches!(op, CmpOp::Eq | CmpOp::NotEq)
                        && e.class.name.as_ref() == "TypeError" =>
                {
                    Ok(Value::Bool(same_object(a, b) == (op == CmpOp::Eq)))
                }
                Err(e) => Err(self.throw(e)),
            };
        }
        match op {
            CmpOp::Eq => Ok(Value::Bool(self.values_equal(a, b)?)),
            CmpOp::NotEq => Ok(Value::Bool(!self.values_equal(a, b)?)),
            _ if matches!(
                (a, b),
                (Value::List(_), Value::List(_)) | (Value::Tuple(_), Value::Tuple(_))
            ) =>
            {
                let p = self.collect(a)?;
                let q = self.collect(b)?;
                self.order_sequences(op, &p, &q)
            }
            _ => {
                let ordering = self.order(a, b, op)?;
                Ok(Value::Bool(match op {
                    CmpOp::Lt => ordering.is_lt(),
                    CmpOp::LtE => ordering.is_le(),
                    CmpOp::Gt => ordering.is_gt(),
                    _ => ordering.is_ge(),
                }))
            }
        }
    }

    /// `p op q` for two sequences, as Python's tuples compare: the first items that are not
    /// equal decide, and their own comparison is the result (a tensor's stays a tensor);
    /// when one runs out first, the lengths.
    fn order_sequences(&mut self, op: CmpOp, p: &[Value], q: &[Value]) -> Flow<Value> {
        for (x, y) in p.iter().zip(q) {
            // An item is equal to itself by identity first, as in CPython.
            if !same_object(x, y) && !self.values_equal(x, y)? {
                return self.compare(op, x, y);
            }
        }
        let (m, n) = (p.len(), q.len());
        Ok(Value::Bool(match op {
            CmpOp::Lt => m < n,
            CmpOp::LtE => m <= n,
            CmpOp::Gt => m > n,
            _ => m >= n,
        }))
    }

    /// How `a` orders against `b` (for `<`, `sorted`, `min`, `max`).
    pub(super) fn order(&mut self, a: &Value, b: &Value, op: CmpOp) -> Flow<std::cmp::Ordering> {
        use std::cmp::Ordering;
        if let Some(o) = number::compare(a, b) {
            return Ok(o);
        }
        if Self::class_of_instance(a).is_some() || Self::class_of_instance(b).is_some() {
            let lt = self.compare(CmpOp::Lt, a, b)?;
            if self.truthy(&lt)? {
                return Ok(Ordering::Less);
            }
            if matches!(op, CmpOp::Lt | CmpOp::GtE) {
                return Ok(Ordering::Greater);
            }
            let gt = self.compare(CmpOp::Gt, a, b)?;
            return Ok(if self.truthy(&gt)? {
                Ordering::Greater
            } else {
                Ordering::Equal
            });
        }
        match (a, b) {
            (Value::Float(_), _) | (_, Value::Float(_))
                if a.as_float().is_some() && b.as_float().is_some() =>
            {
                // A NaN: every comparison is false, which no ordering says; treat as equal
                // (`<` and `>` false), as sorting with NaN does.
                return Ok(Ordering::Equal);
            }
            (Value::Str(x), Value::Str(y)) => return Ok(x.cmp(y)),
            (Value::List(_), Value::List(_)) | (Value::Tuple(_), Value::Tuple(_)) => {
                let x = self.collect(a)?;
                let y = self.collect(b)?;
                for (p, q) in x.iter().zip(&y) {
                    // An item is equal to itself by identity first, as in CPython.
                    if !same_object(p, q) && !self.values_equal(p, q)? {
                        return self.order(p, q, op);
                    }
                }
                return Ok(x.len().cmp(&y.len()));
            }
            _ if tensor_against_python_value(a, b) => {}
            _ if a.is_tensh() || b.is_tensh() => {
                let lt = self.compare(CmpOp::Lt, a, b)?;
                if self.truthy(&lt)? {
                    return Ok(Ordering::Less);
                }
                let gt = self.compare(CmpOp::Gt, a, b)?;
                return Ok(if self.truthy(&gt)? {
                    Ordering::Greater
                } else {
                    Ordering::Equal
                });
            }
            _ => {}
        }
        let symbol = match op {
            CmpOp::Lt => "<",
            CmpOp::LtE => "<=",
            CmpOp::Gt => ">",
            _ => ">=",
        };
        self.raise(
            "TypeError",
            format!(
                "'{symbol}' not supported between instances of '{}' and '{}'",
                a.type_name(),
                b.type_name()
            ),
        )
    }

    /// Python's `a == b` as a truth value.
    pub(super) fn values_equal(&mut self, a: &Value, b: &Value) -> Flow<bool> {
        if let Some(eq) = number::equal(a, b) {
            return Ok(eq);
        }
        // Containers compare their items: as deep as Python's recursion limit allows.
        if self.comparing + self.frames.len() > super::RECURSION_LIMIT {
            return self.raise(
                "RecursionError",
                "maximum recursion depth exceeded in comparison",
            );
        }
        if Self::class_of_instance(a).is_some() || Self::class_of_instance(b).is_some() {
            self.comparing += 1;
            let r = self.object_compare(CmpOp::Eq, a, b);
            self.comparing -= 1;
            return match r? {
                Some(r) => self.truthy(&r),
                None => Ok(false),
            };
        }
        self.comparing += 1;
        let equal = self.equal_beyond_numbers(a, b);
        self.comparing -= 1;
        equal
    }

    /// `values_equal` of values that are not both numbers.
    fn equal_beyond_numbers(&mut self, a: &Value, b: &Value) -> Flow<bool> {
        Ok(match (a, b) {
            (Value::None, Value::None) | (Value::Ellipsis, Value::Ellipsis) => true,
            (Value::Str(x), Value::Str(y)) => x == y,
            (Value::List(_), Value::List(_)) | (Value::Tuple(_), Value::Tuple(_)) => {
                let x = self.collect(a)?;
                let y = self.collect(b)?;
                if x.len() != y.len() {
                    return Ok(false);
                }
                for (p, q) in x.iter().zip(&y) {
                    if !same_object(p, q) && !self.values_equal(p, q)? {
                        return Ok(false);
                    }
                }
                true
            }
            (Value::Dict(x), Value::Dict(y)) => {
                if x.borrow().len() != y.borrow().len() {
                    return Ok(false);
                }
                let pairs = x.borrow().pairs();
                for (k, v) in &pairs {
                    match self.dict_get(y, k)? {
                        // A value compares to itself by identity first, as in CPython.
                        Some(w) if same_object(v, &w) || self.values_equal(v, &w)? => {}
                        _ => return Ok(false),
                    }
                }
                true
            }
            (Value::Set(x), Value::Set(y)) => {
                if x.borrow().len() != y.borrow().len() {
                    return Ok(false);
                }
                let items = x.borrow().items();
                for item in &items {
                    if !self.set_contains(y, item)? {
                        return Ok(false);
                    }
                }
                true
            }
            (Value::Range(a1, b1, c1), Value::Range(a2, b2, c2)) => (a1, b1, c1) == (a2, b2, c2),
            // Keys and items views equal sets (and each other) with the same items.
            _ if acts_as_set(a) && acts_as_set(b) => {
                let items = self.collect(a)?;
                if items.len() as i64 != self.length(b)? {
                    return Ok(false);
                }
                for item in &items {
                    if !self.contains(b, item)? {
                        return Ok(false);
                    }
                }
                true
            }
            _ if a.is_tensh() || b.is_tensh() => {
                let r = self.compare(CmpOp::Eq, a, b)?;
                self.truthy(&r)?
            }
            (Value::Type(x), Value::Type(y)) => x.name == y.name && x.module == y.module,
            (Value::Builtin(x), Value::Builtin(y)) => x == y,
            (Value::HostPath(x), Value::HostPath(y)) => x == y,
            _ => same_object(a, b),
        })
    }

    /// `item in container`.
    pub(super) fn contains(&mut self, container: &Value, item: &Value) -> Flow<bool> {
        if let Some(r) = self.special(container, "__contains__", vec![item.clone()])? {
            return self.truthy(&r);
        }
        if let Some(base) = Self::base_value(container) {
            return self.contains(&base, item);
        }
        match container {
            Value::Str(s) => match item {
                Value::Str(sub) => Ok(s.contains(&**sub)),
                other => self.raise(
                    "TypeError",
                    format!(
                        "'in <string>' requires string as left operand, not {}",
                        other.type_name()
                    ),
                ),
            },
            Value::Dict(entries) => Ok(self.dict_get(entries, item)?.is_some()),
            Value::Set(items) => self.set_contains(items, item),
            Value::DictView(kind, entries) => {
                use crate::python::value::dict::ViewKind;
                match (kind, item) {
                    (ViewKind::Keys, _) => Ok(self.dict_get(entries, item)?.is_some()),
                    (ViewKind::Items, Value::Tuple(pair)) if pair.0.len() == 2 => {
                        match self.dict_get(entries, &pair.0[0])? {
                            Some(v) => self.values_equal(&v, &pair.0[1]),
                            None => Ok(false),
                        }
                    }
                    (ViewKind::Items, _) => Ok(false),
                    (ViewKind::Values, _) => {
                        for v in entries.borrow().values() {
                            if self.values_equal(&v, item)? {
                                return Ok(true);
                            }
                        }
                        Ok(false)
                    }
                }
            }
            Value::Range(start, stop, step) => Ok(match item.as_int() {
                Some(i) => {
                    let inside = if *step > 0 {
                        *start <= i && i < *stop
                    } else {
                        *stop < i && i <= *start
                    };
                    inside && (i - start) % step == 0
                }
                None => false,
            }),
            Value::Tensor(t) => {
                // PyTorch: `(element == self).any()`.
                let x = self.lift(to_dynamic(item))?;
                let eq = self.host.binary("==", rhai::Dynamic::from(t.clone()), x);
                let eq = self.lift(eq)?;
                let any = self
                    .host
                    .call("any", HostCall::positional(Some(eq), Vec::new()));
                let any = from_dynamic(self.lift(any)?, Arrays::Tuples);
                self.truthy(&any)
            }
            other => {
                let items = self.collect(other)?;
                for x in &items {
                    if same_object(x, item) || self.values_equal(x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
        }
    }

    /// Whether two dict keys or set items are the same key (tensors by identity, as their
    /// hash is their `id`); unhashable keys raise.
    pub(super) fn key_equal(&mut self, a: &Value, b: &Value) -> Flow<bool> {
        for v in [a, b] {
            if matches!(v, Value::List(_) | Value::Dict(_) | Value::Set(_)) {
                return self.raise("TypeError", format!("unhashable type: '{}'", v.type_name()));
            }
        }
        if a.is_tensh() || b.is_tensh() {
            return Ok(same_object(a, b) || self.host_value_key_equal(a, b));
        }
        self.values_equal(a, b)
    }

    /// Non-tensor tensh values (dtypes, devices) are keys by value.
    fn host_value_key_equal(&mut self, a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Host(x), Value::Host(y)) => self
                .host
                .binary("==", x.clone(), y.clone())
                .ok()
                .and_then(|v| v.as_bool().ok())
                .unwrap_or(false),
            _ => false,
        }
    }

    /// A set of `items` (the first of equal items kept), found equal through a dict's
    /// index of them.
    pub(super) fn make_set(&mut self, items: Vec<Value>) -> Flow<Value> {
        Ok(Value::Set(self.set_of(items)?))
    }

    /// The `(key, value)` pairs of a mapping (`**kwargs`, `dict(m)`, `{**m}`).
    pub(super) fn mapping_items(&mut self, v: &Value) -> Flow<Vec<(Value, Value)>> {
        match v {
            Value::Dict(entries) => Ok(entries.borrow().pairs()),
            Value::Instance(i) if i.base.is_some() => {
                let base = i.base.clone().unwrap_or(Value::None);
                self.mapping_items(&base)
            }
            other => self.raise(
                "TypeError",
                format!("'{}' object is not a mapping", other.type_name()),
            ),
        }
    }
}

/// Whether a tensh value is a `bytes`.
fn is_bytes(d: &rhai::Dynamic) -> bool {
    use crate::ops::storage::buffers::{BufferKind, PyBuffer};
    d.read_lock::<PyBuffer>()
        .is_some_and(|b| b.kind == BufferKind::Bytes)
}

/// Whether a tensh value is a `bytearray`.
fn is_bytearray(d: &rhai::Dynamic) -> bool {
    use crate::ops::storage::buffers::{BufferKind, PyBuffer};
    d.read_lock::<PyBuffer>()
        .is_some_and(|b| b.kind == BufferKind::ByteArray)
}

/// Whether a tensh value is one of the Python-like buffers (`bytes`, `bytearray`, `array`).
fn is_buffer(d: &rhai::Dynamic) -> bool {
    d.is::<crate::ops::storage::buffers::PyBuffer>()
}

/// Python's `a is b`.
pub fn same_object(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::None, Value::None) | (Value::Ellipsis, Value::Ellipsis) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        // Small ints are cached by CPython; sessions compare ints with `is` rarely.
        (Value::Int(x), Value::Int(y)) => x == y && (-5..=256).contains(x),
        (Value::Str(x), Value::Str(y)) => Rc::ptr_eq(x, y) || (x.len() <= 1 && x == y),
        (Value::List(x), Value::List(y)) => Rc::ptr_eq(x, y),
        (Value::Set(x), Value::Set(y)) => Rc::ptr_eq(x, y),
        (Value::Tuple(x), Value::Tuple(y)) => Rc::ptr_eq(x, y) || (x.is_empty() && y.is_empty()),
        (Value::Dict(x), Value::Dict(y)) => Rc::ptr_eq(x, y),
        (Value::Function(x), Value::Function(y)) => Rc::ptr_eq(x, y),
        (Value::Exception(x), Value::Exception(y)) => Rc::ptr_eq(x, y),
        (Value::Instance(x), Value::Instance(y)) => Rc::ptr_eq(x, y),
        (Value::Class(x), Value::Class(y)) => Rc::ptr_eq(x, y),
        (Value::Descriptor(x), Value::Descriptor(y)) => Rc::ptr_eq(x, y),
        (Value::NotImplemented, Value::NotImplemented) => true,
        (Value::Iterator(x), Value::Iterator(y)) => Rc::ptr_eq(x, y),
        (Value::Type(x), Value::Type(y)) => x.name == y.name && x.module == y.module,
        (Value::Builtin(x), Value::Builtin(y)) | (Value::HostPath(x), Value::HostPath(y)) => x == y,
        (Value::Module(x), Value::Module(y)) => x == y,
        (Value::Tensor(p), Value::Tensor(q)) => p.ptr_eq(q),
        (Value::Host(x), Value::Host(y)) => {
            // dtypes are singletons in PyTorch: `x.dtype is torch.float32` holds.
            if let (Some(p), Some(q)) = (
                x.read_lock::<crate::core::dtype::DType>(),
                y.read_lock::<crate::core::dtype::DType>(),
            ) {
                return *p == *q;
            }
            if let (Some(p), Some(q)) = (
                x.read_lock::<crate::ops::generator_object::GeneratorObject>(),
                y.read_lock::<crate::ops::generator_object::GeneratorObject>(),
            ) {
                return p.same(&q);
            }
            // Handles to one autograd node are one Python object.
            match (
                x.read_lock::<crate::ops::grad_fn::GradFn>(),
                y.read_lock::<crate::ops::grad_fn::GradFn>(),
            ) {
                (Some(p), Some(q)) => Rc::ptr_eq(&p.0, &q.0),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Whether one operand is a tensor and the other a Python value that is neither a number
/// nor a tensh value (`None`, a string, a list, ...), which tensors do not order against.
fn tensor_against_python_value(a: &Value, b: &Value) -> bool {
    // A named tuple is a tuple to a tensor's operators.
    let plain = |v: &Value| {
        is_named_tuple(v)
            || !matches!(
                v,
                Value::Int(_)
                    | Value::BigInt(_)
                    | Value::Float(_)
                    | Value::Bool(_)
                    | Value::Complex(_)
                    | Value::Tensor(_)
                    | Value::Host(_)
                    | Value::HostPath(_)
            )
    };
    (is_tensor(a) && plain(b)) || (is_tensor(b) && plain(a))
}

/// Whether `e` is Python's refusal of an operator neither operand has.
fn is_unsupported_operands(e: &crate::python::exception::PyException) -> bool {
    e.class.name.as_ref() == "TypeError"
        && e.text
            .as_deref()
            .is_some_and(|t| t.starts_with("unsupported operand type(s)"))
}

/// Whether `v` is a tensor.
fn is_tensor(v: &Value) -> bool {
    matches!(v, Value::Tensor(_))
}

/// Whether `v` is one of `torch.return_types`' named tuples.
/// A tensh value Python sees as a tuple: a named tuple (`torch.return_types.sort`) or a
/// `torch.Size`.
fn is_tuple_like_host(v: &Value) -> bool {
    is_named_tuple(v) || v.is_host::<crate::ops::values::Size>()
}

/// A tuple, or a tensh value Python sees as one.
fn is_tuple_like(v: &Value) -> bool {
    matches!(v, Value::Tuple(_)) || is_tuple_like_host(v)
}

fn is_named_tuple(v: &Value) -> bool {
    matches!(v, Value::Host(d) if d.is::<crate::ops::return_types::ReturnTuple>())
}

/// Whether `v` is a keys or items view (which act as sets; a values view does not).
fn is_set_like_view(v: &Value) -> bool {
    matches!(v, Value::DictView(kind, _) if *kind != crate::python::value::dict::ViewKind::Values)
}

/// Whether `v` compares as a set: a set, or a keys or items view.
fn acts_as_set(v: &Value) -> bool {
    matches!(v, Value::Set(_)) || is_set_like_view(v)
}
