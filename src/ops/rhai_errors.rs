//! Rhai's own errors in Python's words. Errors tensh raises are already `Kind: message`
//! strings; the ones Rhai raises itself (an operator on the wrong types, an unknown
//! property, a division by zero, a script function given the wrong number of arguments, a
//! value too large) are translated here into the exception Python raises for the same
//! mistake, so that every error a script sees, caught or not, is one `Kind: message` line.
//!
//! A failure comes either from an `EvalAltResult` (an uncaught error) or from the object map
//! Rhai binds to `catch (e)` for its own errors (see `caught`); both become a [`Failure`].

use std::collections::HashSet;

use rhai::{Engine, EvalAltResult, Map};

use super::generation::Stamp;

/// What Rhai reported: its variant name (`ErrorArithmetic`, ...), its message without the
/// position, and the variant's main field (the function signature, property, type, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The `EvalAltResult` variant's name.
    pub variant: String,
    /// Rhai's message, without ` (line N, position M)`.
    pub message: String,
    /// The variant's main field, as text (empty if it has none).
    pub detail: String,
    /// The second field of a type mismatch (the actual type).
    pub actual: String,
}

/// Rhai's message without the trailing position.
fn without_position(s: String) -> String {
    match s.rfind(" (line ") {
        Some(i) if s.ends_with(')') => s[..i].to_string(),
        _ => s,
    }
}

impl Failure {
    /// The failure an uncaught error describes (a call's inner error for errors raised
    /// inside a script function).
    pub fn from_error(e: &EvalAltResult) -> Failure {
        use EvalAltResult as E;
        if let E::ErrorInFunctionCall(_, _, inner, _) = e {
            return Failure::from_error(inner);
        }
        let variant = format!("{e:?}")
            .split('(')
            .next()
            .unwrap_or_default()
            .to_string();
        let (detail, actual) = match e {
            E::ErrorFunctionNotFound(f, _) => (f.clone(), String::new()),
            E::ErrorDotExpr(p, _) => (p.clone(), String::new()),
            E::ErrorIndexingType(t, _) | E::ErrorDataTooLarge(t, _) => (t.clone(), String::new()),
            E::ErrorVariableNotFound(v, _) | E::ErrorPropertyNotFound(v, _) => {
                (v.clone(), String::new())
            }
            E::ErrorIndexNotFound(v, _) => (v.to_string(), String::new()),
            E::ErrorMismatchDataType(r, a, _) | E::ErrorMismatchOutputType(r, a, _) => {
                (r.clone(), a.clone())
            }
            _ => (String::new(), String::new()),
        };
        Failure {
            variant,
            message: without_position(e.to_string()),
            detail,
            actual,
        }
    }

    /// The failure described by the map Rhai binds to `catch (e)` for its own errors, if
    /// `map` is one (it has Rhai's `error` and `message` fields).
    pub fn from_caught(map: &Map) -> Option<Failure> {
        let text = |key: &str| map.get(key).map(|v| v.to_string());
        let variant = text("error").filter(|v| v.starts_with("Error"))?;
        let message = text("message")?;
        if variant == "ErrorInFunctionCall" {
            return Some(Failure::from_display(&message));
        }
        let detail = [
            "function",
            "property",
            "type",
            "variable",
            "index",
            "requested",
        ]
        .iter()
        .find_map(|k| text(k))
        .unwrap_or_default();
        Some(Failure {
            variant,
            message: without_position(message),
            detail,
            actual: text("actual").unwrap_or_default(),
        })
    }
}

impl Failure {
    /// The failure whose display starts `message`: Rhai keeps only the text of an error
    /// raised inside a function or closure (`{inner} (line .., position ..)\nin closure
    /// call`), so the innermost error's variant and detail are read back from its words.
    fn from_display(message: &str) -> Failure {
        let inner = without_position(message.split("\nin ").next().unwrap_or(message).into());
        const PREFIXES: [(&str, &str); 9] = [
            ("Function not found: ", "ErrorFunctionNotFound"),
            ("Variable not found: ", "ErrorVariableNotFound"),
            ("Property not found: ", "ErrorPropertyNotFound"),
            ("Indexer unavailable: ", "ErrorIndexingType"),
            ("Invalid index: ", "ErrorIndexNotFound"),
            ("Module not found: ", "ErrorModuleNotFound"),
            ("Unknown property ", "ErrorDotExpr"),
            ("No writable property ", "ErrorDotExpr"),
            ("Stack overflow", "ErrorStackOverflow"),
        ];
        let found = PREFIXES
            .iter()
            .find(|(prefix, _)| inner.starts_with(prefix));
        let (variant, detail) = match found {
            Some((_, variant @ "ErrorDotExpr")) => (*variant, String::new()),
            Some((prefix, variant)) => (*variant, inner[prefix.len()..].to_string()),
            None if inner.starts_with("Division by zero")
                || inner.starts_with("Modulo division by zero") =>
            {
                ("ErrorArithmetic", String::new())
            }
            None if inner.starts_with("Array index ") => ("ErrorArrayBounds", String::new()),
            None if inner.starts_with("String index ") => ("ErrorStringBounds", String::new()),
            None => ("ErrorInFunctionCall", String::new()),
        };
        let message = if variant == "ErrorInFunctionCall" {
            without_position(message.to_string())
        } else {
            inner
        };
        Failure {
            variant: variant.to_string(),
            message,
            detail,
            actual: String::new(),
        }
    }
}

/// The parameter names of a script function, by name (`None`: the script defines none).
pub type ScriptParams<'a> = Box<dyn Fn(&str) -> Option<Vec<String>> + 'a>;

/// What the translation may ask about the running program.
pub struct Names<'a> {
    /// The engine (for the functions of a module such as `torch`).
    pub engine: &'a Engine,
    /// The parameter names of the script function `name`, if the script defines one.
    pub script_params: ScriptParams<'a>,
}

thread_local! {
    /// The name of every registered function of the engine last asked about: `module::name`
    /// in a module, `name` for a global one; kept with the engine's address and the
    /// registration generation it was read at (`op_table`).
    static FUNCTIONS: std::cell::RefCell<Option<(Stamp, HashSet<String>)>> =
        const { std::cell::RefCell::new(None) };
}

impl Names<'_> {
    /// Whether a function `name` is registered (`module::name` for one in a module).
    fn has_function(&self, name: &str) -> bool {
        let key = super::generation::stamp(self.engine);
        FUNCTIONS.with(|cell| {
            let mut cached = cell.borrow_mut();
            if cached.as_ref().is_none_or(|(k, _)| *k != key) {
                let all = self
                    .engine
                    .collect_fn_metadata(
                        None,
                        |info| {
                            Some(if info.namespace.is_empty() {
                                info.metadata.name.to_string()
                            } else {
                                format!("{}::{}", info.namespace, info.metadata.name)
                            })
                        },
                        true,
                    )
                    .into_iter()
                    .collect();
                *cached = Some((key, all));
            }
            cached.as_ref().is_some_and(|(_, all)| all.contains(name))
        })
    }

    fn module_has(&self, module: &str, name: &str) -> bool {
        self.has_function(&format!("{module}::{name}"))
    }
}

/// Python's name for a type as Rhai names it in its messages.
pub fn python_type(rhai_type: &str) -> &str {
    match rhai_type.trim() {
        "i64" | "i32" | "i16" | "i8" | "u64" | "u32" | "u16" | "u8" | "INT" => "int",
        "f64" | "f32" | "FLOAT" => "float",
        "char" | "string" | "ImmutableString" | "String" | "&str" => "str",
        t if t.contains("String") => "str",
        "array" | "Array" => "list",
        "map" | "Map" => "dict",
        "()" => "NoneType",
        "blob" | "Blob" => "bytes",
        "Fn" | "FnPtr" => "function",
        "UntypedStorage" => "torch.storage.UntypedStorage",
        "TypedStorage" => "torch.storage.TypedStorage",
        "dtype" => "torch.dtype",
        "Size" => "torch.Size",
        "device" => "torch.device",
        "return_types" => "torch.return_types",
        t => t.rsplit("::").next().unwrap_or(t),
    }
}

/// `name (a, b)` as Rhai writes a call it found no function for: the name and the types.
fn split_call(signature: &str) -> (&str, Vec<&str>) {
    let Some(open) = signature.find(" (") else {
        return (signature, Vec::new());
    };
    let inside = signature[open + 2..].trim_end_matches(')');
    let types = if inside.is_empty() {
        Vec::new()
    } else {
        inside.split(", ").collect()
    };
    (&signature[..open], types)
}

/// Python's `TypeError` for a script function called with the wrong number of arguments.
fn arity_error(name: &str, params: &[String], given: usize) -> String {
    let wanted = params.len();
    if given > wanted {
        let plural = if wanted == 1 { "" } else { "s" };
        let verb = if given == 1 { "was" } else { "were" };
        return format!(
            "TypeError: {name}() takes {wanted} positional argument{plural} but {given} {verb} given"
        );
    }
    let missing: Vec<String> = params[given..].iter().map(|p| format!("'{p}'")).collect();
    let listed = match missing.as_slice() {
        [one] => one.clone(),
        [a, b] => format!("{a} and {b}"),
        [init @ .., last] => format!("{}, and {last}", init.join(", ")),
        [] => String::new(),
    };
    let plural = if missing.len() == 1 { "" } else { "s" };
    format!(
        "TypeError: {name}() missing {} required positional argument{plural}: {listed}",
        missing.len()
    )
}

/// Python's words for a call Rhai found no function for.
fn function_not_found(signature: &str, names: &Names) -> String {
    let (name, types) = split_call(signature);
    let py: Vec<&str> = types.iter().map(|t| python_type(t)).collect();
    let op = name.trim_end_matches('=');
    let compound =
        name.len() > 1 && name.ends_with('=') && !matches!(name, "==" | "!=" | "<=" | ">=");
    match (name, py.as_slice()) {
        ("<" | "<=" | ">" | ">=", [a, b]) => {
            return format!(
                "TypeError: '{name}' not supported between instances of '{a}' and '{b}'"
            );
        }
        ("*" | "*=", [seq @ ("list" | "str"), other])
        | ("*" | "*=", [other, seq @ ("list" | "str")])
            if *other != "int" || *seq == "str" && *other == "list" =>
        {
            let other = if *other == "int" { seq } else { other };
            return format!("TypeError: can't multiply sequence by non-int of type '{other}'");
        }
        ("+" | "+=", [seq @ ("list" | "str"), other]) => {
            return format!("TypeError: can only concatenate {seq} (not \"{other}\") to {seq}");
        }
        ("-" | "+" | "!", [a]) => {
            let op = if name == "!" { "not" } else { name };
            return format!("TypeError: bad operand type for unary {op}: '{a}'");
        }
        (_, [a, b])
            if matches!(
                op,
                "+" | "-" | "*" | "/" | "%" | "**" | "&" | "|" | "^" | "<<" | ">>"
            ) && (compound || name == op) =>
        {
            let shown = match name {
                "**" => "** or pow()".to_string(),
                other => other.to_string(),
            };
            return format!("TypeError: unsupported operand type(s) for {shown}: '{a}' and '{b}'");
        }
        _ => {}
    }
    if let Some((module, function)) = name.rsplit_once("::") {
        if !names.module_has(module, function) {
            // The list names a sub-module by its path under `torch` (`nn::functional`).
            let owner = module.strip_prefix("torch::").unwrap_or(module);
            let module = module.replace("::", ".");
            if let Some(unbuilt) = super::pytorch_names::not_built(owner, function) {
                return format!("NotImplementedError: {}", unbuilt.message);
            }
            return format!("AttributeError: module '{module}' has no attribute '{function}'");
        }
        return format!(
            "TypeError: {function}() got arguments of types ({}) that no form of it takes",
            py.join(", ")
        );
    }
    if let Some(params) = (names.script_params)(name) {
        return arity_error(name, &params, types.len());
    }
    format!(
        "TypeError: {name}() got arguments of types ({}) that no form of it takes",
        py.join(", ")
    )
}

/// `Unknown property 'foo' - a getter is not registered for type 'Tensor'` (and the
/// setter's form) as Python's `AttributeError`.
fn property_error(text: &str, names: &Names) -> String {
    let quoted: Vec<&str> = text.split('\'').skip(1).step_by(2).collect();
    match (text.starts_with("No writable property"), quoted.as_slice()) {
        (false, [prop, ty, ..]) => {
            let ty = ty.trim();
            if super::pytorch_names::contains(ty, prop) && names.has_function(prop) {
                return format!(
                    "NotImplementedError: {ty}.{prop} is a method: tensh calls it (x.{prop}(...)) \
                     but cannot take it as a value"
                );
            }
            if let Some(unbuilt) = super::pytorch_names::not_built(ty, prop) {
                return format!("NotImplementedError: {}", unbuilt.message);
            }
            format!(
                "AttributeError: '{}' object has no attribute '{prop}'",
                python_type(ty)
            )
        }
        // PyTorch's tensor properties are the C base class's descriptors.
        (true, [prop, ty, ..]) => format!(
            "AttributeError: attribute '{prop}' of '{}' objects is not writable",
            match python_type(ty) {
                "Tensor" => "torch._C.TensorBase",
                other => other,
            }
        ),
        _ => format!("AttributeError: {text}"),
    }
}

/// The `Kind: message` line Python would print for `failure`.
pub fn python_words(failure: &Failure, names: &Names) -> String {
    let Failure {
        variant,
        message,
        detail,
        actual,
    } = failure;
    match variant.as_str() {
        "ErrorFunctionNotFound" => function_not_found(detail, names),
        "ErrorDotExpr" => property_error(if detail.is_empty() { message } else { detail }, names),
        "ErrorPropertyNotFound" => format!("AttributeError: object has no attribute '{detail}'"),
        "ErrorVariableNotFound" => format!("NameError: name '{detail}' is not defined"),
        "ErrorUnboundThis" => "NameError: name 'this' is not defined".into(),
        "ErrorArithmetic" if message.starts_with("Division by zero") => {
            "ZeroDivisionError: division by zero".into()
        }
        "ErrorArithmetic" if message.starts_with("Modulo division by zero") => {
            "ZeroDivisionError: integer modulo by zero".into()
        }
        "ErrorArithmetic" => format!("OverflowError: {message}"),
        "ErrorArrayBounds" => "IndexError: list index out of range".into(),
        "ErrorStringBounds" => "IndexError: string index out of range".into(),
        "ErrorBitFieldBounds" => "IndexError: bit index out of range".into(),
        "ErrorIndexingType" => {
            let ty = detail.split(" [").next().unwrap_or(detail);
            format!(
                "TypeError: '{}' object is not subscriptable",
                python_type(ty)
            )
        }
        "ErrorIndexNotFound" => format!("KeyError: {detail}"),
        "ErrorFor" => "TypeError: object is not iterable".into(),
        "ErrorMismatchDataType" | "ErrorMismatchOutputType" => format!(
            "TypeError: expected {}, got {}",
            python_type(detail),
            python_type(actual)
        ),
        "ErrorDataTooLarge" => format!("MemoryError: {message}"),
        "ErrorStackOverflow" => "RecursionError: maximum recursion depth exceeded".into(),
        "ErrorModuleNotFound" => format!("ModuleNotFoundError: No module named '{detail}'"),
        "ErrorParsing" => format!("SyntaxError: {message}"),
        _ => format!("RuntimeError: {message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(script: &str) -> String {
        let engine = Engine::new();
        let e = engine.run(script).expect_err("fails");
        let names = Names {
            engine: &engine,
            script_params: Box::new(|name| (name == "f").then(|| vec!["a".into(), "b".into()])),
        };
        python_words(&Failure::from_error(&e), &names)
    }

    #[test]
    fn operators_on_wrong_types_are_python_type_errors() {
        assert_eq!(
            words("[1] * 2"),
            "TypeError: unsupported operand type(s) for *: 'list' and 'int'"
        );
        assert_eq!(
            words("-[1]"),
            "TypeError: bad operand type for unary -: 'list'"
        );
        let names = Names {
            engine: &Engine::new(),
            script_params: Box::new(|_| None),
        };
        assert_eq!(
            function_not_found("< (array, i64)", &names),
            "TypeError: '<' not supported between instances of 'list' and 'int'"
        );
        assert_eq!(
            words("2.0 ** [1]"),
            "TypeError: unsupported operand type(s) for ** or pow(): 'float' and 'list'"
        );
    }

    #[test]
    fn arithmetic_errors_are_python_exceptions() {
        assert_eq!(words("1 / 0"), "ZeroDivisionError: division by zero");
        assert_eq!(words("1 % 0"), "ZeroDivisionError: integer modulo by zero");
        assert!(words("9223372036854775807 + 1").starts_with("OverflowError: "));
        assert_eq!(words("[1, 2][5]"), "IndexError: list index out of range");
    }

    #[test]
    fn script_functions_given_the_wrong_number_of_arguments() {
        assert_eq!(
            arity_error("g", &["a".into()], 2),
            "TypeError: g() takes 1 positional argument but 2 were given"
        );
        assert_eq!(
            arity_error("g", &["a".into()], 0),
            "TypeError: g() missing 1 required positional argument: 'a'"
        );
        assert_eq!(
            arity_error("g", &["a".into(), "b".into(), "c".into()], 0),
            "TypeError: g() missing 3 required positional arguments: 'a', 'b', and 'c'"
        );
    }

    #[test]
    fn properties_are_attribute_errors() {
        let mut engine = Engine::new();
        engine.register_fn("sort", |x: i64| x);
        let names = Names {
            engine: &engine,
            script_params: Box::new(|_| None),
        };
        let getter = |p: &str| {
            let text =
                format!("Unknown property '{p}' - a getter is not registered for type 'Tensor'");
            property_error(&text, &names)
        };
        assert_eq!(
            getter("foo"),
            "AttributeError: 'Tensor' object has no attribute 'foo'"
        );
        assert_eq!(
            getter("argsort"),
            "NotImplementedError: tensh does not implement Tensor.argsort yet (PyTorch has it)"
        );
        assert_eq!(
            getter("sort"),
            "NotImplementedError: Tensor.sort is a method: tensh calls it (x.sort(...)) but \
             cannot take it as a value"
        );
    }

    #[test]
    fn caught_maps_read_like_errors() {
        let mut m = Map::new();
        m.insert("error".into(), "ErrorArithmetic".into());
        m.insert("message".into(), "Division by zero: 1 / 0".into());
        let f = Failure::from_caught(&m).expect("a Rhai error map");
        assert_eq!(f.variant, "ErrorArithmetic");
        let mut user = Map::new();
        user.insert("error".into(), "mine".into());
        user.insert("message".into(), "x".into());
        assert!(Failure::from_caught(&user).is_none());
    }

    #[test]
    fn errors_caught_from_inside_a_closure_are_read_back_from_their_words() {
        let mut m = Map::new();
        m.insert("error".into(), "ErrorInFunctionCall".into());
        m.insert(
            "message".into(),
            "Function not found: torch::nope (i64) (line 1, position 4)\nin closure call".into(),
        );
        let f = Failure::from_caught(&m).expect("a Rhai error map");
        assert_eq!(f.variant, "ErrorFunctionNotFound");
        assert_eq!(f.detail, "torch::nope (i64)");
        m.insert("message".into(), "Something new\nin closure call".into());
        let f = Failure::from_caught(&m).expect("a Rhai error map");
        assert_eq!(f.variant, "ErrorInFunctionCall");
    }
}
