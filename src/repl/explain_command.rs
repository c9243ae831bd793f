//! `:explain EXPR`: the prompt's spelling of `explain(...)`. `:explain t[1, 2]` (Python's
//! index, not Rhai's) shows that element's arithmetic, and `:explain EXPR > fig.svg` also
//! writes the picture as SVG.

/// The call `:explain REST` stands for, in Python (`python`) or Rhai.
pub fn call_in(rest: &str, python: bool) -> String {
    if python {
        python_call(rest)
    } else {
        call(rest)
    }
}

/// The Python call `:explain REST` stands for.
pub fn python_call(rest: &str) -> String {
    let rest = rest.trim();
    if let Some((expr, path)) = svg_target(rest) {
        let quoted = path.replace('\\', "\\\\").replace('\'', "\\'");
        return format!("explain({expr}, svg='{quoted}')");
    }
    if let Some((expr, index)) = element_index(rest) {
        return format!("explain({expr}, [{index}])");
    }
    format!("explain({rest})")
}

/// `EXPR > FILE.svg`: the expression and the file.
fn svg_target(rest: &str) -> Option<(&str, &str)> {
    let (expr, path) = rest.rsplit_once('>')?;
    let path = path.trim();
    (!expr.trim().is_empty() && path.ends_with(".svg") && !path.chars().any(char::is_whitespace))
        .then(|| (expr.trim(), path))
}

/// The Rhai call `:explain REST` stands for.
pub fn call(rest: &str) -> String {
    let rest = rest.trim();
    if let Some((expr, path)) = svg_target(rest) {
        let quoted = path.replace('\\', "\\\\").replace('"', "\\\"");
        return format!("explain({expr}, #{{svg: \"{quoted}\"}})");
    }
    if let Some((expr, index)) = element_index(rest) {
        return format!("explain({expr}, [{index}])");
    }
    format!("explain({rest})")
}

/// `EXPR[i, j, ...]` with two or more integer literals: the expression and the indices.
fn element_index(text: &str) -> Option<(&str, String)> {
    let inner_end = text.strip_suffix(']')?;
    let open = inner_end.rfind('[')?;
    let (expr, inside) = (&inner_end[..open], &inner_end[open + 1..]);
    let parts: Vec<&str> = inside.split(',').map(str::trim).collect();
    if expr.trim().is_empty() || parts.len() < 2 || parts.iter().any(|p| p.parse::<i64>().is_err())
    {
        return None;
    }
    Some((expr.trim_end(), parts.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::call;

    #[test]
    fn the_prompt_forms() {
        assert_eq!(call("x"), "explain(x)");
        assert_eq!(call("x[1..3]"), "explain(x[1..3])");
        assert_eq!(call("x[1]"), "explain(x[1])");
        assert_eq!(call("x[1, -2]"), "explain(x, [1, -2])");
        assert_eq!(call("x.t()[0,1]"), "explain(x.t(), [0, 1])");
        assert_eq!(call("x[\"0, 1\"]"), "explain(x[\"0, 1\"])");
        assert_eq!(
            call("x.t() > fig.svg"),
            "explain(x.t(), #{svg: \"fig.svg\"})"
        );
        assert_eq!(
            call("[a, b] > out/p.svg"),
            "explain([a, b], #{svg: \"out/p.svg\"})"
        );
        assert_eq!(call("x > 0"), "explain(x > 0)");
    }

    #[test]
    fn the_prompt_forms_in_python() {
        use super::python_call;
        assert_eq!(python_call("x.T"), "explain(x.T)");
        assert_eq!(python_call("x[1:3]"), "explain(x[1:3])");
        assert_eq!(python_call("x[1, -2]"), "explain(x, [1, -2])");
        assert_eq!(
            python_call("x.t() > fig.svg"),
            "explain(x.t(), svg='fig.svg')"
        );
        assert_eq!(python_call("x > it's.svg"), "explain(x, svg='it\\'s.svg')");
        assert_eq!(python_call("x > 0"), "explain(x > 0)");
    }
}
