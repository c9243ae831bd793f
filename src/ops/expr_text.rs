//! An expression as the user wrote it, rebuilt from Rhai's syntax tree: `x.t()`,
//! `torch::arange(6).view(2, 3)`, `x["1:"]`. Pictures and explanations title a tensor with it
//! when the tensor is not simply a variable.

use rhai::Expr;

/// Expressions longer than this are not rebuilt: a title that long does not help.
const MAX_CHARS: usize = 60;

/// The text of `expr` in the forms a tensor expression takes (variables, properties, method
/// and function calls, indexing, literals, arrays, operators); `None` for other forms or when
/// the text would be longer than a title should be.
pub fn source_text(expr: &Expr) -> Option<String> {
    let mut out = String::new();
    write(expr, &mut out)?;
    (out.chars().count() <= MAX_CHARS).then_some(out)
}

fn write(expr: &Expr, out: &mut String) -> Option<()> {
    if out.len() > 4 * MAX_CHARS {
        return None;
    }
    match expr {
        Expr::Variable(v, _, _) => {
            let (_, name, namespace, _) = v.as_ref();
            if !namespace.is_empty() {
                out.push_str(&format!("{namespace}::"));
            }
            out.push_str(name);
        }
        Expr::Property(p, _) => out.push_str(&p.2),
        // Literals, and constants the optimizer folded (an array of literals).
        Expr::IntegerConstant(..)
        | Expr::FloatConstant(..)
        | Expr::BoolConstant(..)
        | Expr::StringConstant(..)
        | Expr::CharConstant(..)
        | Expr::Unit(..)
        | Expr::DynamicConstant(..) => constant(&expr.get_literal_value(None)?, out)?,
        Expr::Array(items, _) => {
            out.push('[');
            list(items.iter(), out)?;
            out.push(']');
        }
        Expr::FnCall(call, _) | Expr::MethodCall(call, _) => {
            let name = call.name.as_str();
            let symbol = !name.starts_with(|c: char| c.is_alphabetic() || c == '_');
            match call.args.as_slice() {
                [lhs, rhs] if symbol => {
                    write(lhs, out)?;
                    out.push_str(&format!(" {name} "));
                    write(rhs, out)?;
                }
                [operand] if symbol => {
                    out.push_str(name);
                    write(operand, out)?;
                }
                args => {
                    if !call.namespace.is_empty() {
                        out.push_str(&format!("{}::", call.namespace));
                    }
                    out.push_str(name);
                    out.push('(');
                    list(args.iter(), out)?;
                    out.push(')');
                }
            }
        }
        Expr::Dot(pair, _, _) => {
            write(&pair.lhs, out)?;
            out.push('.');
            write(&pair.rhs, out)?;
        }
        // `x[i]` ends its chain (BREAK). Otherwise Rhai hangs the rest of the chain under the
        // index: `x[0].t().view(6)` is `Index(x, Dot(Dot(0, t()), view(6)))`, the index
        // the leftmost leaf of the dots.
        Expr::Index(pair, flags, _) => {
            write(&pair.lhs, out)?;
            if flags.contains(rhai::ASTFlags::BREAK) {
                out.push('[');
                write(&pair.rhs, out)?;
                out.push(']');
            } else {
                let mut calls = Vec::new();
                let mut leaf = &pair.rhs;
                while let Expr::Dot(inner, _, _) = leaf {
                    calls.push(&inner.rhs);
                    leaf = &inner.lhs;
                }
                if matches!(leaf, Expr::Index(..) | Expr::Dot(..)) {
                    return None;
                }
                out.push('[');
                write(leaf, out)?;
                out.push(']');
                for call in calls.into_iter().rev() {
                    if matches!(call, Expr::Index(..)) {
                        return None;
                    }
                    out.push('.');
                    write(call, out)?;
                }
            }
        }
        _ => return None,
    }
    Some(())
}

/// The text of a literal value: ints, floats, bools, chars, strings, `()` and arrays of them.
fn constant(value: &rhai::Dynamic, out: &mut String) -> Option<()> {
    if let Ok(n) = value.as_int() {
        out.push_str(&n.to_string());
    } else if let Ok(f) = value.as_float() {
        out.push_str(&format!("{f:?}"));
    } else if let Ok(b) = value.as_bool() {
        out.push_str(&b.to_string());
    } else if let Ok(c) = value.as_char() {
        out.push_str(&format!("{c:?}"));
    } else if value.is_unit() {
        out.push_str("()");
    } else if let Some(s) = value.read_lock::<rhai::ImmutableString>() {
        out.push_str(&format!("{:?}", s.as_str()));
    } else if let Some(items) = value.read_lock::<rhai::Array>() {
        out.push('[');
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            constant(item, out)?;
        }
        out.push(']');
    } else {
        return None;
    }
    Some(())
}

fn list<'a>(items: impl Iterator<Item = &'a Expr>, out: &mut String) -> Option<()> {
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write(item, out)?;
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(code: &str) -> Option<String> {
        let engine = rhai::Engine::new_raw();
        let ast = engine.compile_expression(code).unwrap();
        match &ast.statements()[0] {
            rhai::Stmt::Expr(expr) => source_text(expr),
            rhai::Stmt::FnCall(call, pos) => source_text(&Expr::FnCall(call.clone(), *pos)),
            other => panic!("not an expression: {code} ({other:?})"),
        }
    }

    #[test]
    fn tensor_expressions_read_as_written() {
        for code in [
            "x.t()",
            "x.T",
            "x.view(2, 3)[\"1:\"]",
            "torch::arange(24).view([2, 3, 4])",
            "x[0].transpose(0, 1)",
            "x[0].t().view(6)",
            "x.t()[1]",
            "a + b",
            "-x",
            "x.view(torch::float32)",
            "x.fill_(1.5)",
            "f('c', (), true)",
        ] {
            assert_eq!(text_of(code).as_deref(), Some(code), "{code}");
        }
    }

    #[test]
    fn long_or_unusual_expressions_have_no_text() {
        assert_eq!(text_of("x ?? y"), None);
        assert_eq!(text_of(&format!("x{}", ".t()".repeat(20))), None);
    }
}
