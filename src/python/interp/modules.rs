//! Modules: `import torch` (tensh's `torch` module, reached by path through the engine),
//! `safetensors.torch`, `array`, and the parts of `math`, `sys`, `time` and `warnings` tensor
//! sessions use; grad-mode context managers (`with torch.no_grad():`).

use std::rc::Rc;

use super::expr::CallArgs;
use super::{Flow, Interpreter};
use crate::core::tensor::grad_mode;
use crate::python::exception::PyException;
use crate::python::types;
use crate::python::value::Value;

/// The modules an `import` finds.
const MODULES: &[&str] = &[
    "math",
    "sys",
    "time",
    "warnings",
    "array",
    "os",
    "struct",
    "io",
    "_random",
    "_sre",
    "_tempfile",
];

/// The manager `warnings.catch_warnings(record=True)` makes.
const RECORDING_WARNINGS: &str = "warnings.catch_warnings(record=True)";

/// The grad-mode managers of `torch`.
const GRAD_MODES: &[&str] = &[
    "no_grad",
    "enable_grad",
    "inference_mode",
    "set_grad_enabled",
];

pub use crate::python::value::flow::Entered;

impl Interpreter {
    /// `import name`: the module's value.
    pub(super) fn import(&mut self, name: &str) -> Flow<Value> {
        match name {
            "torch" => Ok(Value::HostPath("torch".into())),
            "safetensors" | "safetensors.torch" => Ok(Value::HostPath("safetensors".into())),
            n if n.starts_with("torch.") && crate::python::stdlib::source(n).is_some() => {
                self.import_source_module(n)
            }
            n if n.starts_with("torch.") => Ok(Value::HostPath(n.replace('.', "::").into())),
            n if MODULES.contains(&n) => Ok(Value::Module(n.into())),
            n if crate::python::stdlib::source(n).is_some() => self.import_source_module(n),
            "os.path" => Ok(Value::Module("os.path".into())),
            other => {
                let top = other.split('.').next().unwrap_or(other);
                // Python's words; `docs/python.md` lists the modules tensh's Python has.
                self.raise("ModuleNotFoundError", format!("No module named '{top}'"))
            }
        }
    }

    /// `torch.name` (or deeper: `torch.UntypedStorage.from_file`).
    pub(super) fn torch_attribute(&mut self, path: &str, name: &str) -> Flow<Value> {
        // Only a name can be one of the module's: any other string is never looked up, and
        // never becomes part of a program (`host::is_name`).
        if !crate::python::host::is_name(name) {
            return self.raise(
                "AttributeError",
                format!(
                    "module '{}' has no attribute '{name}'",
                    path.replace("::", ".")
                ),
            );
        }
        if path == "safetensors" && name == "torch" {
            return Ok(Value::HostPath("safetensors".into()));
        }
        // `torch.autograd.no_grad` is `torch.no_grad` (PyTorch defines them there).
        if path == "torch::autograd" && GRAD_MODES.contains(&name) {
            return Ok(Value::Builtin(format!("torch.{name}").into()));
        }
        if path == "torch::nn" && name == "Parameter" {
            return Ok(Value::Type(types::parameter_class()));
        }
        // A sub-module tensh writes in Python (`torch.nn`, `torch.optim`): that module,
        // which hands the names it does not define back to this lookup.
        if let Some(dotted) = crate::python::stdlib::torch_submodule(path, name) {
            return self.import_source_module(dotted);
        }
        if path == "torch" {
            match name {
                "Tensor" | "Size" | "dtype" | "device" | "UntypedStorage" | "TypedStorage"
                | "Generator" => return Ok(Value::Type(types::host_type(name))),
                "__version__" => return Ok(Value::str("2.15.0+cpu")),
                "__name__" => return Ok(Value::str("torch")),
                n if GRAD_MODES.contains(&n) => {
                    return Ok(Value::Builtin(format!("torch.{n}").into()));
                }
                "is_grad_enabled" | "is_inference_mode_enabled" => {
                    return Ok(Value::Builtin(format!("torch.{name}").into()));
                }
                _ => {}
            }
        }
        let full = format!("{path}::{name}");
        if let Some(v) = self.host.constant(&full) {
            return Ok(crate::python::convert::from_dynamic(
                v,
                crate::python::convert::Arrays::Tuples,
            ));
        }
        // Tensor methods are functions of the engine's one namespace; PyTorch's module has
        // only the names it lists for `torch` (`torch.shape` is no attribute).
        if path == "torch"
            && crate::ops::pytorch_names::contains("Tensor", name)
            && !crate::ops::pytorch_names::contains("torch", name)
        {
            return self.raise(
                "AttributeError",
                format!("module 'torch' has no attribute '{name}'"),
            );
        }
        if path == "torch" && !self.host.torch_has(name) {
            return self.raise(
                "AttributeError",
                format!("module 'torch' has no attribute '{name}'"),
            );
        }
        // A sub-module whose names PyTorch's list holds (`torch.nn.functional`) has those
        // (built or not: calling an unbuilt one says so) and what tensh adds, nothing else.
        if let Some(owner) = path.strip_prefix("torch::")
            && crate::ops::pytorch_names::has_owner(owner)
            && !crate::ops::pytorch_names::contains(owner, name)
            && !self.host.has_path_function(&full)
        {
            return self.raise(
                "AttributeError",
                format!(
                    "module '{}' has no attribute '{name}'",
                    path.replace("::", ".")
                ),
            );
        }
        Ok(Value::HostPath(full.into()))
    }

    /// What Python itself does for a `torch` function (`torch.no_grad()`), if anything.
    pub(super) fn call_python_torch(&mut self, path: &str, call: &CallArgs) -> Flow<Option<Value>> {
        let _ = (path, call);
        Ok(None)
    }

    /// Imports a module tensh writes in Python (`python::stdlib`): its source run once in
    /// globals of its own, kept for every later import.
    pub(super) fn import_source_module(&mut self, name: &str) -> Flow<Value> {
        if self.source_modules.contains_key(name) {
            return Ok(Value::Module(name.into()));
        }
        let Some(text) = crate::python::stdlib::source(name) else {
            return self.raise("ModuleNotFoundError", format!("No module named '{name}'"));
        };
        let source = crate::python::source::SourceText::new(&format!("<frozen {name}>"), text);
        let body = match crate::python::source::parse(&source) {
            Ok(body) => body,
            Err(refusal) => {
                return self.raise(
                    "ImportError",
                    format!(
                        "tensh's module '{name}' does not parse (line {}): {}",
                        refusal.line, refusal.message
                    ),
                );
            }
        };
        let globals = crate::python::function::Scope::module();
        globals
            .vars
            .borrow_mut()
            .insert("__name__".into(), Value::str(name));
        // Kept before it runs, as Python's `sys.modules` does (a module importing itself).
        self.source_modules.insert(name.into(), globals.clone());
        self.push_frame("<module>".into(), source)?;
        let result = self.exec_block(body, &globals);
        self.frames.pop();
        if let Err(e) = result {
            self.source_modules.remove(name);
            return Err(e);
        }
        Ok(Value::Module(name.into()))
    }

    /// `func` decorated with the grad-mode manager `manager` (`@torch.no_grad()`): it runs
    /// inside the manager on every call.
    pub(super) fn grad_mode_decorated(&mut self, manager: Value, func: Value) -> Flow<Value> {
        let module = self.import_source_module("_grad_modes")?;
        let decorate = self.get_attribute(&module, "decorate")?;
        self.call_value(
            &decorate,
            CallArgs {
                args: vec![manager, func],
                keywords: Vec::new(),
            },
        )
    }

    /// `math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)`, as CPython decides it.
    fn isclose(&mut self, args: &[Value], keywords: Vec<(Rc<str>, Value)>) -> Flow<Value> {
        let (Some(a), Some(b)) = (
            args.first().and_then(Value::as_float),
            args.get(1).and_then(Value::as_float),
        ) else {
            return self.raise("TypeError", "isclose() takes two real numbers");
        };
        let (mut rel, mut abs) = (1e-9, 0.0);
        for (k, v) in keywords {
            let Some(x) = v.as_float() else {
                return self.raise(
                    "TypeError",
                    format!("must be real number, not {}", v.type_name()),
                );
            };
            match &*k {
                "rel_tol" => rel = x,
                "abs_tol" => abs = x,
                other => {
                    return self.raise(
                        "TypeError",
                        format!("isclose() got an unexpected keyword argument '{other}'"),
                    );
                }
            }
        }
        if rel < 0.0 || abs < 0.0 {
            return self.raise("ValueError", "tolerances must be non-negative");
        }
        if a == b {
            return Ok(Value::Bool(true));
        }
        if a.is_infinite() || b.is_infinite() {
            return Ok(Value::Bool(false));
        }
        let diff = (a - b).abs();
        Ok(Value::Bool(
            diff <= (rel * b).abs() || diff <= (rel * a).abs() || diff <= abs,
        ))
    }

    /// `struct.pack`, `unpack`, `calcsize`, `iter_unpack`, `unpack_from`.
    fn struct_function(&mut self, name: &str, args: Vec<Value>) -> Flow<Value> {
        use crate::python::struct_format::{Format, Unpacked};
        let Some(Value::Str(text)) = args.first() else {
            return self.raise(
                "TypeError",
                format!("{name}() argument 1 must be a str or bytes object"),
            );
        };
        let format = match Format::parse(text) {
            Ok(f) => f,
            Err(e) => return self.raise(e.kind, e.message),
        };
        if name == "calcsize" {
            return Ok(Value::Int(format.size() as i64));
        }
        if name == "pack" {
            let values = &args[1..];
            let mut buffers = Vec::with_capacity(values.len());
            for v in values {
                buffers.push(match v {
                    Value::Host(d) if d.is::<crate::ops::storage::buffers::PyBuffer>() => {
                        Some(self.byte_values(v)?)
                    }
                    _ => None,
                });
            }
            let mut bytes_of = |v: &Value| {
                let at = values.iter().position(|x| std::ptr::eq(x, v))?;
                buffers[at].clone()
            };
            return match format.pack(values, &mut bytes_of) {
                Ok(bytes) => self.bytes_value(&bytes),
                Err(e) => self.raise(e.kind, e.message),
            };
        }
        let Some(buffer) = args.get(1) else {
            return self.raise(
                "TypeError",
                format!("{name}() missing required argument 'buffer'"),
            );
        };
        let mut bytes = self.byte_values(buffer)?;
        if name == "unpack_from" {
            let offset = args.get(2).and_then(Value::as_int).unwrap_or(0).max(0) as usize;
            let size = format.size();
            if bytes.len() < offset + size {
                return self.raise(
                    "error",
                    format!(
                        "unpack_from requires a buffer of at least {} bytes for unpacking {size} bytes at offset {offset} (actual buffer size is {})",
                        offset + size,
                        bytes.len()
                    ),
                );
            }
            bytes = bytes[offset..offset + size].to_vec();
        }
        let chunks: Vec<Vec<u8>> = if name == "iter_unpack" {
            let size = format.size();
            if size == 0 || bytes.len() % size != 0 {
                return self.raise(
                    "error",
                    format!("iterative unpacking requires a buffer of a multiple of {size} bytes"),
                );
            }
            bytes.chunks(size).map(<[u8]>::to_vec).collect()
        } else {
            vec![bytes]
        };
        let mut rows = Vec::with_capacity(chunks.len());
        for chunk in chunks {
            let items = match format.unpack(&chunk) {
                Ok(items) => items,
                Err(e) => return self.raise(e.kind, e.message),
            };
            let mut row = Vec::with_capacity(items.len());
            for item in items {
                row.push(match item {
                    Unpacked::Value(v) => v,
                    Unpacked::Bytes(b) => self.bytes_value(&b)?,
                });
            }
            rows.push(Value::tuple(row));
        }
        if name == "iter_unpack" {
            return Ok(crate::python::value::iteration::PyIter::Items(
                Rc::new(crate::python::value::Seq(rows)),
                0,
            )
            .into_value());
        }
        Ok(rows.pop().unwrap_or(Value::None))
    }

    /// The bytes of a `bytes`-like value (its items as ints).
    pub(super) fn byte_values(&mut self, v: &Value) -> Flow<Vec<u8>> {
        // The buffer's own bytes (an `array.array`'s elements' bytes, as the buffer
        // protocol gives them).
        if let Value::Host(d) = v
            && let Some(b) = d.read_lock::<crate::ops::storage::buffers::PyBuffer>()
        {
            return Ok(b.storage.to_vec());
        }
        self.raise(
            "TypeError",
            format!("a bytes-like object is required, not '{}'", v.type_name()),
        )
    }

    /// A `bytes` value of `bytes`.
    pub(super) fn bytes_value(&mut self, bytes: &[u8]) -> Flow<Value> {
        use crate::ops::storage::buffers::{BufferKind, PyBuffer};
        Ok(Value::Host(rhai::Dynamic::from(PyBuffer {
            kind: BufferKind::Bytes,
            storage: crate::core::memory::storage::Storage::from_vec(bytes.to_vec()),
        })))
    }

    /// `module.name`.
    pub(super) fn module_attribute(&mut self, module: &str, name: &str) -> Flow<Value> {
        if let Some(scope) = self.source_modules.get(module) {
            let found = scope.vars.borrow().get(name).cloned();
            return match found {
                Some(v) => Ok(v),
                // `torch.nn.functional`, `torch.nn.Parameter`, and the names PyTorch has
                // that tensh's `torch.nn` does not define yet (which say so when called).
                None if module.starts_with("torch.") => {
                    self.torch_attribute(&module.replace('.', "::"), name)
                }
                None => self.raise(
                    "AttributeError",
                    format!("module '{module}' has no attribute '{name}'"),
                ),
            };
        }
        if native_names(module, FUNCTIONS).contains(&name)
            || native_names(module, super::os_module::OS_FUNCTIONS).contains(&name)
        {
            return Ok(Value::Builtin(format!("{module}.{name}").into()));
        }
        match (module, name) {
            ("math", "pi") => Ok(Value::Float(std::f64::consts::PI)),
            ("math", "e") => Ok(Value::Float(std::f64::consts::E)),
            ("math", "tau") => Ok(Value::Float(std::f64::consts::TAU)),
            ("math", "inf") => Ok(Value::Float(f64::INFINITY)),
            ("math", "nan") => Ok(Value::Float(f64::NAN)),
            ("struct", "error") => Ok(Value::Type(types::builtin("error"))),
            ("sys", "argv") => Ok(Value::list(
                self.argv.iter().map(|a| Value::str(a.as_str())).collect(),
            )),
            ("sys", "maxsize") => Ok(Value::Int(i64::MAX)),
            ("sys", "byteorder") => Ok(Value::str("little")),
            ("sys", "platform") => Ok(Value::str("linux")),
            ("sys", "version") => Ok(Value::str("3.11.7 (tensh)")),
            ("sys", "version_info") => {
                let module = self.import_source_module("_sys_info")?;
                self.get_attribute(&module, "version_info")
            }
            ("sys", "stdout" | "stderr") => Ok(Value::Module(format!("sys.{name}").into())),
            ("array", "array") => Ok(Value::HostPath("array".into())),
            ("os", "path") => Ok(Value::Module("os.path".into())),
            ("os", "sep") => Ok(Value::str("/")),
            ("os", "curdir") => Ok(Value::str(".")),
            ("os", "pardir") => Ok(Value::str("..")),
            ("os", "name") => Ok(Value::str("posix")),
            _ => self.raise(
                "AttributeError",
                format!("module '{module}' has no attribute '{name}'"),
            ),
        }
    }

    /// Calls `module.function` (`math.sqrt`) or a `torch` function Python answers itself.
    pub(super) fn call_module_function(
        &mut self,
        name: &str,
        args: Vec<Value>,
        keywords: Vec<(Rc<str>, Value)>,
    ) -> Flow<Value> {
        if let Some(mode) = name.strip_prefix("torch.") {
            return self.torch_python_function(mode, args, keywords);
        }
        if name == "math.isclose" && !keywords.is_empty() {
            return self.isclose(&args, keywords);
        }
        if let Some(f) = name.strip_prefix("math.") {
            return self.math(f, &args);
        }
        if let Some(f) = name.strip_prefix("_random.") {
            return self.random_function(f, &args);
        }
        if let Some(f) = name.strip_prefix("_sre.") {
            return self.regex_function(f, &args);
        }
        if let Some(f) = name.strip_prefix("struct.") {
            return self.struct_function(f, args);
        }
        if let Some(f) = name.strip_prefix("os.") {
            return self.os_function(f, args, keywords);
        }
        if let Some(f) = name.strip_prefix("_tempfile.") {
            return self.temp_function(f);
        }
        let float_arg = |i: usize| args.get(i).and_then(Value::as_float);
        match name {
            "sys.exit" => {
                let code = args.first().cloned().unwrap_or(Value::None);
                Err(self.throw(PyException::of_class(
                    types::builtin("SystemExit"),
                    vec![code],
                )))
            }
            "sys.getrecursionlimit" => Ok(Value::Int(super::RECURSION_LIMIT as i64)),
            "sys.stdout.write" | "sys.stderr.write" => {
                let Some(Value::Str(s)) = args.first() else {
                    return self.raise("TypeError", "write() argument must be str");
                };
                if name.starts_with("sys.stdout") {
                    crate::ops::output::print_raw(s);
                } else {
                    crate::ops::output::stderr_raw(s);
                }
                Ok(Value::Int(s.chars().count() as i64))
            }
            "sys.stdout.flush" | "sys.stderr.flush" => Ok(Value::None),
            "io.BytesIO" | "io.StringIO" => self.memory_file(name == "io.BytesIO", args, keywords),
            "time.time" => {
                crate::platform::varies::note();
                Ok(Value::Float(
                    crate::platform::clock::since_epoch().as_secs_f64(),
                ))
            }
            "time.perf_counter" | "time.monotonic" | "time.process_time" => {
                crate::platform::varies::note();
                thread_local! {
                    static START: crate::platform::clock::Instant = crate::platform::clock::Instant::now();
                }
                Ok(Value::Float(START.with(|s| s.elapsed().as_secs_f64())))
            }
            "time.sleep" => {
                let secs = float_arg(0).unwrap_or(0.0);
                if !(0.0..=1e9).contains(&secs) {
                    return self.raise("ValueError", "sleep length must be non-negative");
                }
                let length = std::time::Duration::from_secs_f64(secs);
                let start = crate::platform::clock::Instant::now();
                while let Some(left) = length.checked_sub(start.elapsed()) {
                    self.check_interrupt()?;
                    crate::platform::clock::sleep(std::time::Duration::from_millis(10).min(left));
                }
                Ok(Value::None)
            }
            "warnings.warn" => {
                let given = args.first().cloned().unwrap_or(Value::str(String::new()));
                let category = args.get(1).or_else(|| {
                    keywords
                        .iter()
                        .find(|(k, _)| &**k == "category")
                        .map(|(_, v)| v)
                });
                // A warning instance names its own category.
                let (category, message) = match (&given, category) {
                    (Value::Exception(e), _) => (e.class.clone(), self.str_text(&given)?),
                    (_, Some(Value::Type(t))) => (t.clone(), self.str_text(&given)?),
                    (_, None | Some(Value::None)) => {
                        (types::builtin("UserWarning"), self.str_text(&given)?)
                    }
                    (_, Some(other)) => {
                        return self.raise(
                            "TypeError",
                            format!(
                                "category must be a Warning subclass, not '{}'",
                                other.type_name()
                            ),
                        );
                    }
                };
                if !category.is_subclass_of(&types::builtin("Warning")) {
                    // CPython names the type of what was given: a class is a 'type'.
                    return self.raise(
                        "TypeError",
                        "category must be a Warning subclass, not 'type'",
                    );
                }
                self.issue_warning(category, message)?;
                Ok(Value::None)
            }
            // The manager `with` enters: it puts the filter back when the block ends.
            "warnings.catch_warnings" => {
                let record = match keywords.iter().find(|(k, _)| &**k == "record") {
                    Some((_, v)) => self.truthy(&v.clone())?,
                    None => false,
                };
                Ok(Value::Builtin(
                    if record { RECORDING_WARNINGS } else { name }.into(),
                ))
            }
            "warnings.resetwarnings" => {
                self.warning_filters.reset();
                Ok(Value::None)
            }
            "warnings.simplefilter" | "warnings.filterwarnings" => {
                self.add_warning_filter(name, &args, &keywords)?;
                Ok(Value::None)
            }
            other => self.raise(
                "NotImplementedError",
                format!("tensh's Python does not have {other}()"),
            ),
        }
    }

    /// `torch.no_grad()` and the other grad-mode functions.
    fn torch_python_function(
        &mut self,
        name: &str,
        args: Vec<Value>,
        keywords: Vec<(Rc<str>, Value)>,
    ) -> Flow<Value> {
        match name {
            "is_grad_enabled" => Ok(Value::Bool(grad_mode::is_enabled())),
            "is_inference_mode_enabled" => Ok(Value::Bool(grad_mode::is_inference())),
            "set_grad_enabled" => {
                let mode = match args.first().or_else(|| keywords.first().map(|(_, v)| v)) {
                    Some(Value::Bool(b)) => *b,
                    Some(other) => {
                        return self.raise(
                            "TypeError",
                            format!("enabled must be a bool (got {})", other.type_name()),
                        );
                    }
                    None => {
                        return self.raise(
                            "TypeError",
                            "set_grad_enabled.__init__() missing 1 required positional argument: 'mode'",
                        );
                    }
                };
                // As a call, it sets the mode at once (and, as a manager, puts the old one
                // back on exit).
                let previous = grad_mode::set_enabled(mode);
                Ok(Value::GradMode(Rc::new((
                    "set_grad_enabled".into(),
                    Some(previous),
                ))))
            }
            "inference_mode"
                if matches!(args.as_slice(), [f] if !matches!(f, Value::Bool(_) | Value::Int(_)))
                    && keywords.is_empty() =>
            {
                let manager = Value::GradMode(Rc::new((name.into(), Some(true))));
                self.grad_mode_decorated(manager, args[0].clone())
            }
            "inference_mode" => {
                let mode = match args.first().or_else(|| keywords.first().map(|(_, v)| v)) {
                    Some(v) => self.truthy(v)?,
                    None => true,
                };
                Ok(Value::GradMode(Rc::new((
                    "inference_mode".into(),
                    Some(mode),
                ))))
            }
            "no_grad" | "enable_grad"
                if matches!(args.as_slice(), [f] if !matches!(f, Value::Bool(_)))
                    && keywords.is_empty() =>
            {
                // `@torch.no_grad` without parentheses: the function, decorated.
                let manager = Value::GradMode(Rc::new((name.into(), None)));
                self.grad_mode_decorated(manager, args[0].clone())
            }
            "no_grad" | "enable_grad" => {
                if !args.is_empty() {
                    return self.raise(
                        "TypeError",
                        format!(
                            "{name}.__init__() takes 1 positional argument but {} were given",
                            args.len() + 1
                        ),
                    );
                }
                Ok(Value::GradMode(Rc::new((name.into(), None))))
            }
            other => self.raise(
                "AttributeError",
                format!("module 'torch' has no attribute '{other}'"),
            ),
        }
    }

    /// An int argument of any size (`bool` counts, as in Python), or CPython's `TypeError`.
    pub(super) fn int_argument(&mut self, v: &Value) -> Flow<num_bigint::BigInt> {
        match v.as_long() {
            Some(n) => Ok(n),
            None => self.raise(
                "TypeError",
                format!(
                    "'{}' object cannot be interpreted as an integer",
                    v.type_name()
                ),
            ),
        }
    }

    /// `math.name(args)`.
    fn math(&mut self, name: &str, args: &[Value]) -> Flow<Value> {
        let mut xs = Vec::with_capacity(args.len());
        let needs_floats = !matches!(
            name,
            "prod" | "fsum" | "gcd" | "lcm" | "factorial" | "comb" | "perm" | "isqrt" | "isclose"
        );
        // The logarithms of an int too large for a float, as CPython takes them: the
        // function of its mantissa plus its exponent times the function of 2.
        if matches!(name, "log" | "log2" | "log10")
            && args
                .iter()
                .any(|a| matches!(a, Value::BigInt(n) if crate::python::long::to_f64(n).is_err()))
        {
            let f: fn(f64) -> f64 = match name {
                "log2" => f64::log2,
                "log10" => f64::log10,
                _ => f64::ln,
            };
            let mut logs = Vec::with_capacity(args.len());
            for a in args {
                let log = match a {
                    Value::BigInt(n) if crate::python::long::to_f64(n).is_err() => {
                        match crate::python::int_math::frexp(n) {
                            Some((m, e)) if m > 0.0 => Some(f(m) + f(2.0) * e as f64),
                            _ => None,
                        }
                    }
                    other => other.as_float().filter(|x| *x > 0.0).map(f),
                };
                match log {
                    Some(l) => logs.push(l),
                    None => return self.raise("ValueError", "math domain error"),
                }
            }
            return Ok(Value::Float(match logs.as_slice() {
                [x, base] => x / base,
                [x, ..] => *x,
                [] => f64::NAN,
            }));
        }
        if needs_floats {
            for a in args {
                match a {
                    Value::BigInt(n) => match crate::python::long::to_f64(n) {
                        Ok(x) => xs.push(x),
                        Err(e) => return Err(self.throw(e)),
                    },
                    Value::Host(_) | Value::Tensor(_) => {
                        let item = self.host_method(a.clone(), "item", Vec::new())?;
                        xs.push(item.as_float().unwrap_or(f64::NAN));
                    }
                    other => match other.as_float() {
                        Some(f) => xs.push(f),
                        None => {
                            return self.raise(
                                "TypeError",
                                format!("must be real number, not {}", other.type_name()),
                            );
                        }
                    },
                }
            }
        }
        let x = xs.first().copied().unwrap_or(f64::NAN);
        let domain = |me: &Self| me.raise::<Value>("ValueError", "math domain error");
        let float = |v: f64| Ok(Value::Float(v));
        match name {
            "sqrt" => {
                if x < 0.0 {
                    domain(self)
                } else {
                    float(x.sqrt())
                }
            }
            "log" => {
                if x <= 0.0 {
                    return domain(self);
                }
                match xs.get(1) {
                    Some(b) => float(x.ln() / b.ln()),
                    None => float(x.ln()),
                }
            }
            "log2" => {
                if x <= 0.0 {
                    domain(self)
                } else {
                    float(x.log2())
                }
            }
            "log10" => {
                if x <= 0.0 {
                    domain(self)
                } else {
                    float(x.log10())
                }
            }
            "log1p" => {
                if x <= -1.0 {
                    domain(self)
                } else {
                    float(x.ln_1p())
                }
            }
            "exp" => float(x.exp()),
            "expm1" => float(x.exp_m1()),
            "sin" => float(x.sin()),
            "cos" => float(x.cos()),
            "tan" => float(x.tan()),
            "asin" => float(x.asin()),
            "acos" => float(x.acos()),
            "atan" => float(x.atan()),
            "atan2" => float(x.atan2(xs.get(1).copied().unwrap_or(1.0))),
            "sinh" => float(x.sinh()),
            "cosh" => float(x.cosh()),
            "tanh" => float(x.tanh()),
            "erf" => float(erf(x)),
            "fabs" => float(x.abs()),
            "pow" => float(x.powf(xs.get(1).copied().unwrap_or(1.0))),
            "hypot" => float(xs.iter().map(|v| v * v).sum::<f64>().sqrt()),
            "copysign" => float(x.copysign(xs.get(1).copied().unwrap_or(1.0))),
            "degrees" => float(x.to_degrees()),
            "radians" => float(x.to_radians()),
            "ldexp" => float(x * 2f64.powi(xs.get(1).copied().unwrap_or(0.0) as i32)),
            "modf" => Ok(Value::tuple(vec![
                Value::Float(x.fract()),
                Value::Float(x.trunc()),
            ])),
            "frexp" => {
                if x == 0.0 || !x.is_finite() {
                    return Ok(Value::tuple(vec![Value::Float(x), Value::Int(0)]));
                }
                let e = x.abs().log2().floor() as i64 + 1;
                Ok(Value::tuple(vec![
                    Value::Float(x / 2f64.powi(e as i32)),
                    Value::Int(e),
                ]))
            }
            "isnan" => Ok(Value::Bool(x.is_nan())),
            "isinf" => Ok(Value::Bool(x.is_infinite())),
            "isfinite" => Ok(Value::Bool(x.is_finite())),
            "floor" | "ceil" | "trunc" => {
                if x.is_nan() {
                    return self.raise("ValueError", "cannot convert float NaN to integer");
                }
                if x.is_infinite() {
                    return self.raise("OverflowError", "cannot convert float infinity to integer");
                }
                if let Some(n @ (Value::Int(_) | Value::BigInt(_))) = args.first() {
                    return Ok(n.clone());
                }
                let v = match name {
                    "floor" => x.floor(),
                    "ceil" => x.ceil(),
                    _ => x.trunc(),
                };
                match crate::python::int_math::whole_float(v) {
                    Ok(n) => Ok(Value::long(n)),
                    Err(e) => Err(self.throw(e)),
                }
            }
            "isclose" => self.isclose(args, Vec::new()),
            "prod" | "fsum" => {
                let items = match args.first() {
                    Some(v) => self.collect(v)?,
                    None => return self.raise("TypeError", format!("{name}() takes 1 argument")),
                };
                if name == "fsum" {
                    let mut xs = Vec::with_capacity(items.len());
                    for v in &items {
                        match v.as_float() {
                            Some(x) => xs.push(x),
                            None => {
                                return self.raise(
                                    "TypeError",
                                    format!("must be real number, not {}", v.type_name()),
                                );
                            }
                        }
                    }
                    return match crate::python::number::exact_sum(&xs) {
                        Ok(total) => Ok(Value::Float(total)),
                        Err((kind, message)) => self.raise(kind, message),
                    };
                }
                let mut total = Value::Int(1);
                for v in items {
                    total = self.binary(crate::python::number::BinOp::Mul, total, v)?;
                }
                Ok(total)
            }
            "gcd" | "lcm" | "factorial" | "comb" | "perm" | "isqrt" => {
                use crate::python::int_math;
                let mut ns = Vec::with_capacity(args.len());
                for a in args {
                    ns.push(self.int_argument(a)?);
                }
                let arity = |low: usize, high: usize| (low..=high).contains(&ns.len());
                let result = match name {
                    "gcd" => Ok(int_math::gcd(&ns)),
                    "lcm" => int_math::lcm(&ns),
                    "factorial" if arity(1, 1) => int_math::factorial(&ns[0]),
                    "comb" if arity(2, 2) => int_math::comb(&ns[0], &ns[1]),
                    "perm" if arity(1, 2) => int_math::perm(&ns[0], ns.get(1)),
                    "isqrt" if arity(1, 1) => int_math::isqrt(&ns[0]),
                    _ => {
                        return self.raise(
                            "TypeError",
                            format!(
                                "{name}() takes another number of arguments ({} given)",
                                ns.len()
                            ),
                        );
                    }
                };
                match result {
                    Ok(n) => Ok(Value::long(n)),
                    Err(e) => Err(self.throw(e)),
                }
            }
            other => self.raise(
                "AttributeError",
                format!("module 'math' has no attribute '{other}'"),
            ),
        }
    }

    /// Enters a context manager.
    pub(super) fn enter(&mut self, manager: &Value) -> Flow<Entered> {
        match manager {
            Value::GradMode(m) => {
                let before = (grad_mode::is_enabled(), grad_mode::is_inference());
                let restore = match (&*m.0, m.1) {
                    ("no_grad", _) => {
                        grad_mode::set_enabled(false);
                        before
                    }
                    ("enable_grad", _) => {
                        grad_mode::set_enabled(true);
                        before
                    }
                    ("inference_mode", Some(on)) => {
                        if on {
                            grad_mode::set_inference(true);
                        }
                        before
                    }
                    // `set_grad_enabled(b)` set the mode when it was called; its exit
                    // puts back the mode from before that call.
                    (_, previous) => (previous.unwrap_or(before.0), before.1),
                };
                Ok(Entered {
                    value: Value::None,
                    restore: Some(restore),
                    warnings_saved: false,
                    warnings_recorded: false,
                })
            }
            Value::File(f) => Ok(Entered {
                value: Value::File(f.clone()),
                restore: None,
                warnings_saved: false,
                warnings_recorded: false,
            }),
            Value::Builtin(name) if &**name == "warnings.catch_warnings" => {
                self.saved_warning_filters
                    .push(self.warning_filters.clone());
                Ok(Entered {
                    value: Value::None,
                    restore: None,
                    warnings_saved: true,
                    warnings_recorded: false,
                })
            }
            Value::Builtin(name) if &**name == RECORDING_WARNINGS => {
                // `catch_warnings(record=True)`: `as` binds the list warnings go to.
                let list = Value::list(Vec::new());
                self.warning_records.push(list.clone());
                self.saved_warning_filters
                    .push(self.warning_filters.clone());
                Ok(Entered {
                    value: list,
                    restore: None,
                    warnings_saved: true,
                    warnings_recorded: true,
                })
            }
            Value::Instance(_) if Self::has_special(manager, "__exit__") => {
                let Some(value) = self.special(manager, "__enter__", Vec::new())? else {
                    return self.raise(
                        "TypeError",
                        format!(
                            "'{}' object does not support the context manager protocol",
                            manager.type_name()
                        ),
                    );
                };
                Ok(Entered {
                    value,
                    restore: None,
                    warnings_saved: false,
                    warnings_recorded: false,
                })
            }
            other => self.raise(
                "TypeError",
                format!(
                    "'{}' object does not support the context manager protocol",
                    other.type_name()
                ),
            ),
        }
    }

    /// Leaves a context manager; returns whether it suppresses the exception `raised`.
    pub(super) fn exit(
        &mut self,
        manager: &Value,
        entered: Entered,
        raised: Option<&std::rc::Rc<PyException>>,
    ) -> Flow<bool> {
        if let Value::Instance(_) = manager {
            let args = match raised {
                Some(e) => vec![
                    self.class_value(&Value::Exception(e.clone())),
                    Value::Exception(e.clone()),
                    Value::None,
                ],
                None => vec![Value::None, Value::None, Value::None],
            };
            let suppress = self.special(manager, "__exit__", args)?;
            return match suppress {
                Some(v) => self.truthy(&v),
                None => Ok(false),
            };
        }
        if let Value::File(f) = manager {
            f.borrow_mut().file = None;
        }
        if entered.warnings_saved
            && let Some(saved) = self.saved_warning_filters.pop()
        {
            self.warning_filters = saved;
        }
        if entered.warnings_recorded {
            self.warning_records.pop();
        }
        if let Some((grad, inference)) = entered.restore {
            grad_mode::restore(grad, inference);
        }
        Ok(false)
    }
}

/// The functions of the modules written in Rust, by module.
const FUNCTIONS: &[(&str, &[&str])] = &[
    (
        "math",
        &[
            "sqrt",
            "floor",
            "ceil",
            "exp",
            "log",
            "log2",
            "log10",
            "sin",
            "cos",
            "tan",
            "asin",
            "acos",
            "atan",
            "atan2",
            "sinh",
            "cosh",
            "tanh",
            "fabs",
            "isnan",
            "isinf",
            "isfinite",
            "isclose",
            "prod",
            "fsum",
            "trunc",
            "pow",
            "hypot",
            "gcd",
            "factorial",
            "copysign",
            "degrees",
            "radians",
            "log1p",
            "expm1",
            "erf",
            "lcm",
            "comb",
            "perm",
            "isqrt",
            "modf",
            "frexp",
            "ldexp",
        ],
    ),
    (
        "struct",
        &["pack", "unpack", "calcsize", "iter_unpack", "unpack_from"],
    ),
    ("sys", &["exit", "getrecursionlimit"]),
    ("sys.stdout", &["write", "flush"]),
    ("sys.stderr", &["write", "flush"]),
    (
        "time",
        &["time", "perf_counter", "monotonic", "sleep", "process_time"],
    ),
    (
        "warnings",
        &[
            "warn",
            "simplefilter",
            "filterwarnings",
            "catch_warnings",
            "resetwarnings",
        ],
    ),
    ("io", &["BytesIO", "StringIO"]),
    ("_random", &["seeded", "random", "getrandbits"]),
    ("_sre", &["info", "search", "slice", "spans", "findall"]),
];

/// The other attributes of the modules written in Rust (`module_attribute` makes each).
const VALUES: &[(&str, &[&str])] = &[
    ("math", &["pi", "e", "tau", "inf", "nan"]),
    ("struct", &["error"]),
    (
        "sys",
        &[
            "argv",
            "maxsize",
            "byteorder",
            "platform",
            "version",
            "version_info",
            "stdout",
            "stderr",
        ],
    ),
    ("array", &["array"]),
    ("os", &["path", "sep", "curdir", "pardir", "name"]),
];

/// The names `table` lists for `module`.
fn native_names(
    module: &str,
    table: &[(&str, &'static [&'static str])],
) -> &'static [&'static str] {
    table
        .iter()
        .find(|(m, _)| *m == module)
        .map_or(&[], |(_, names)| names)
}

impl Interpreter {
    /// The attribute names of the module `module` (`dir(math)`), sorted.
    pub(super) fn module_names(&self, module: &str) -> Vec<String> {
        let mut names: Vec<String> = match self.source_modules.get(module) {
            Some(scope) => scope.vars.borrow().keys().map(|k| k.to_string()).collect(),
            None => native_names(module, FUNCTIONS)
                .iter()
                .chain(native_names(module, super::os_module::OS_FUNCTIONS))
                .chain(native_names(module, VALUES))
                .map(|n| n.to_string())
                .collect(),
        };
        names.sort();
        names
    }
}

/// The error function (Abramowitz–Stegun 7.1.26 is too coarse for Python's digits; this is
/// the series/continued-fraction pair, accurate to the last bits for doubles).
fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let t = x.abs();
    let r = if t < 2.5 {
        // Taylor series: erf(t) = 2/sqrt(pi) * sum (-1)^n t^(2n+1) / (n! (2n+1)).
        let mut sum = 0.0_f64;
        let mut term = t;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() || n < 3.0 {
            sum += term / (2.0 * n + 1.0);
            n += 1.0;
            term *= -t * t / n;
            if n > 200.0 {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // Continued fraction for erfc(t).
        let mut f = 0.0;
        for k in (1..=60).rev() {
            f = (k as f64 / 2.0) / (t + f);
        }
        1.0 - (-t * t).exp() / std::f64::consts::PI.sqrt() / (t + f)
    };
    if x < 0.0 { -r } else { r }
}
