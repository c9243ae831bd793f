//! The Python front end's one way into tensh's ops. A call of a tensor method or a `torch`
//! function, a tensor property, a subscript of a tensor and an operator on tensors reach
//! their entry in the op table directly (`script::op_table`, `script::direct`): the same
//! declarations, argument checks, keyword handling and errors as Rhai scripts get, with no
//! program in between. The methods of storages, buffers and named tuples are called from
//! the table of value methods (`script::value_methods`) the same way. Everything else on a
//! tensh value (properties and indexers of storages, sizes and dtypes, their operators, a
//! repr) is called by its name through the engine's resolution (`script::registered_call`),
//! with no program either. An op's error becomes the exception of its kind, carried beside
//! its text (`ScriptError::kind`).
//!
//! No text is ever compiled here: a name is only ever looked up. A name that is no Rhai
//! identifier ([`is_name`]) — any other string a program hands over as a name (to `getattr`,
//! `hasattr`, `setattr`, a format field, a string from a loaded file) — is no attribute of
//! anything tensh has, and is answered with Python's `AttributeError` before any lookup.

use std::rc::Rc;

use rhai::Dynamic;

use super::exception::PyException;
use crate::core::index::{IndexItem, index};
use crate::core::tensor::Tensor;
use crate::ops::args::{Args, Keywords, Positionals};
use crate::ops::errors::IntoRhai;
use crate::ops::registration::Method;
use crate::ops::runtime::{Runtime, ScriptError};
use crate::ops::tensor::indexing;
use crate::ops::value_methods::ValueMethod;

/// Whether `name` may be written into a program as a name: a Rhai identifier (ASCII
/// letters, digits and `_`, with a letter before any digit), as `rhai::is_valid_identifier`
/// decides it, read byte by byte (every method call asks).
pub fn is_name(name: &str) -> bool {
    let mut lettered = false;
    for &b in name.as_bytes() {
        match b {
            b'_' => {}
            b if b.is_ascii_alphabetic() => lettered = true,
            b if b.is_ascii_digit() && lettered => {}
            _ => return false,
        }
    }
    lettered
}

/// Whether `path` is names joined by `::` (`torch::zeros`, `torch::UntypedStorage::from_file`).
pub fn is_path(path: &str) -> bool {
    path.split("::").all(is_name)
}

/// tensh's engine, as the Python front end calls it.
pub struct Host {
    session: Runtime,
}

/// The receiver, arguments and keywords of one call.
pub struct HostCall {
    /// The receiver of a method call.
    pub receiver: Option<Dynamic>,
    /// Positional arguments (the first four inline: a call allocates nothing for them).
    pub args: Positionals,
    /// Keyword arguments (none: no map at all).
    pub keywords: Keywords,
}

impl HostCall {
    /// How many arguments a registered form must take for this call (`Args::given`).
    pub fn given(&self) -> usize {
        crate::ops::args::given(&self.args, &self.keywords)
    }

    /// A call with positional arguments only.
    pub fn positional(receiver: Option<Dynamic>, args: impl Into<Positionals>) -> HostCall {
        HostCall {
            receiver,
            args: args.into(),
            keywords: Keywords::default(),
        }
    }
}

/// A method found once for a call site, to be called again while the registrations stay
/// as they were ([`registration_generation`]): the same entry the lookup by name would give
/// for a call with as many arguments on a receiver of the same type.
#[derive(Clone)]
pub enum FoundMethod {
    /// A tensor method of the op table.
    Tensor(Rc<Method<Tensor>>),
    /// A method of another value's type (a storage, a buffer, a named tuple).
    Value(Rc<ValueMethod>),
}

/// The registration generation now: what a [`FoundMethod`] was found under stays what a
/// lookup finds while this stays the same.
pub fn registration_generation() -> u64 {
    crate::ops::generation::current()
}

impl Default for Host {
    fn default() -> Self {
        Host::new()
    }
}

impl Host {
    /// A fresh engine (a new session: seed 0, default print options).
    pub fn new() -> Host {
        Host {
            session: Runtime::new(),
        }
    }

    /// The session the ops run in (for Ctrl-C and resetting).
    pub fn session_mut(&mut self) -> &mut Runtime {
        &mut self.session
    }

    /// Calls `target` (`torch::zeros`, a method name with a receiver, `array`) with `call`'s
    /// arguments.
    pub fn call(&mut self, target: &str, call: HostCall) -> Result<Dynamic, PyException> {
        if let Some(r) = &call.receiver
            && !is_name(target)
        {
            return Err(self.no_attribute(r, target));
        }
        if call.receiver.is_none() && !is_path(target) {
            let (module, name) = target.split_once("::").unwrap_or(("torch", target));
            return Err(PyException::new(
                "AttributeError",
                format!(
                    "module '{}' has no attribute '{name}'",
                    module.replace("::", ".")
                ),
            ));
        }
        let HostCall {
            receiver,
            args,
            keywords,
        } = call;
        let args = match self.call_direct(
            target,
            receiver.as_ref(),
            Args::with_keywords(args, keywords),
        ) {
            Ok(result) => return result.map_err(raised),
            Err(args) => args,
        };
        // A sub-module's function PyTorch has and tensh has not built says so.
        if receiver.is_none()
            && let Some((owner, name)) = target
                .strip_prefix("torch::")
                .and_then(|rest| rest.rsplit_once("::"))
            && let Some(unbuilt) = crate::ops::pytorch_names::not_built(owner, name)
        {
            return Err(PyException::from_torch(&unbuilt));
        }
        self.session.register_mentioned(target);
        let method = receiver.is_some();
        let mut values: Vec<Dynamic> = Vec::with_capacity(args.pos.len() + 2);
        values.extend(receiver);
        let given = args.pos.len();
        values.extend(args.pos);
        let keywords = args.kw.take();
        // A dict passed last stays positional: an empty keyword map follows it.
        if !keywords.is_empty() || (given > 0 && values.last().is_some_and(Dynamic::is_map)) {
            values.push(Dynamic::from(keywords));
        }
        self.session
            .call_registered(target, &mut values, method)
            .map_err(raised)
    }

    /// The method `name` of a tensor for a call of `given` arguments (as `Args::given`
    /// counts them), found as `call_tensor_method` finds it; `None` where that call goes on
    /// to the engine's own resolution.
    pub fn find_tensor_method(&self, name: &str, given: usize) -> Option<FoundMethod> {
        self.session
            .tensor_method(name, given)
            .map(FoundMethod::Tensor)
    }

    /// The method `name` of `receiver`, a value other than a tensor, for a call of `given`
    /// arguments, found as `call` finds it; `None` where that call goes on to the engine's
    /// own resolution (or refuses the name).
    pub fn find_value_method(
        &self,
        receiver: &Dynamic,
        name: &str,
        given: usize,
    ) -> Option<FoundMethod> {
        if !is_name(name) || receiver.is::<Tensor>() {
            return None;
        }
        crate::ops::value_methods::method_for(receiver, name, given).map(FoundMethod::Value)
    }

    /// Calls a tensor method found by `find_tensor_method` on `t` with `call`'s arguments.
    pub fn call_found_tensor_method(
        &self,
        method: &Method<Tensor>,
        t: &Tensor,
        call: HostCall,
    ) -> Result<Dynamic, PyException> {
        let args = Args::with_keywords(call.args, call.keywords);
        self.session
            .call_tensor_entry(method, t, args)
            .map_err(raised)
    }

    /// Calls a method found by `find_value_method` for `receiver`'s type on `receiver`
    /// with `call`'s arguments.
    pub fn call_found_value_method(
        &self,
        method: &ValueMethod,
        receiver: &Dynamic,
        call: HostCall,
    ) -> Result<Dynamic, PyException> {
        let args = Args::with_keywords(call.args, call.keywords);
        self.session
            .call_value_entry(method, receiver, args)
            .map_err(raised)
    }

    /// Calls the method `target` of the tensor `t` with `call`'s arguments (its receiver
    /// unused): the op table's entry when it has one, else as `call` finds it (which
    /// answers a name that is no name with `AttributeError`; the table is only looked in).
    pub fn call_tensor_method(
        &mut self,
        target: &str,
        t: &Tensor,
        call: HostCall,
    ) -> Result<Dynamic, PyException> {
        let HostCall { args, keywords, .. } = call;
        match self
            .session
            .call_method(target, t, Args::with_keywords(args, keywords))
        {
            Ok(result) => result.map_err(raised),
            Err(args) => {
                let keywords = args.kw;
                let call = HostCall {
                    receiver: Some(Dynamic::from(t.clone())),
                    args: args.pos,
                    keywords,
                };
                self.call(target, call)
            }
        }
    }

    /// Calls `target` straight from a table when one has it for these arguments: a tensor's
    /// method or a `torch` function from the op table, another value's method from the
    /// table of value methods. No program is made. The arguments are given back when no
    /// table has the call (the engine may still have it).
    fn call_direct(
        &self,
        target: &str,
        receiver: Option<&Dynamic>,
        args: Args,
    ) -> Result<Result<Dynamic, ScriptError>, Args> {
        match receiver {
            Some(r) => match r.read_lock::<Tensor>().map(|t| t.clone()) {
                Some(t) => self.session.call_method(target, &t, args),
                None => self.session.call_value_method(r, target, args),
            },
            None => match target.strip_prefix("torch::").filter(|n| is_name(n)) {
                Some(name) => self.session.call_function(name, args),
                None => self.session.call_path(target, args),
            },
        }
    }

    /// Python's `AttributeError` for `receiver.name`, a name the receiver's type has not.
    fn no_attribute(&self, receiver: &Dynamic, name: &str) -> PyException {
        PyException::new(
            "AttributeError",
            format!(
                "'{}' object has no attribute '{name}'",
                self.python_type_name(receiver)
            ),
        )
    }

    /// The class name Python shows for a tensh value (`Tensor`, `UntypedStorage`).
    fn python_type_name(&self, v: &Dynamic) -> String {
        let name = self.type_name(v);
        name.rsplit("::").next().unwrap_or(&name).to_string()
    }

    /// `receiver.name` (a property).
    pub fn get_attr(&self, receiver: Dynamic, name: &str) -> Result<Dynamic, PyException> {
        if !is_name(name) {
            return Err(self.no_attribute(&receiver, name));
        }
        if let Some(t) = receiver.read_lock::<Tensor>()
            && let Some(read) = self.session.read_property(name, &t)
        {
            return read.map_err(raised);
        }
        self.session.get_registered(&receiver, name).map_err(raised)
    }

    /// `t.name` (a property of a tensor).
    pub fn get_tensor_attr(&self, t: &Tensor, name: &str) -> Result<Dynamic, PyException> {
        if is_name(name)
            && let Some(read) = self.session.read_property(name, t)
        {
            return read.map_err(raised);
        }
        self.get_attr(Dynamic::from(t.clone()), name)
    }

    /// `receiver.name = value`.
    pub fn set_attr(
        &self,
        receiver: Dynamic,
        name: &str,
        value: Dynamic,
    ) -> Result<(), PyException> {
        if !is_name(name) {
            return Err(PyException::new(
                "AttributeError",
                format!(
                    "attribute '{name}' of '{}' objects is not writable",
                    self.python_type_name(&receiver)
                ),
            ));
        }
        self.session
            .set_registered(&receiver, name, value)
            .map_err(raised)
    }

    /// Whether the op table has a function at `path` (`torch::nn::functional::relu`).
    pub fn has_path_function(&self, path: &str) -> bool {
        self.session.has_path_function(path)
    }

    /// Whether the `torch` module has `name` (`Session::torch_has`).
    pub fn torch_has(&self, name: &str) -> bool {
        self.session.torch_has(name)
    }

    /// Whether tensors have a method or property `name` (`Session::tensor_has`).
    pub fn tensor_has(&self, name: &str) -> bool {
        self.session.tensor_has(name)
    }

    /// Whether tensors have a property `name` (`shape`, `grad`): such a name is never an
    /// instance attribute.
    pub fn tensor_has_property(&self, name: &str) -> bool {
        self.session.has_tensor_property(name)
    }

    /// `torch::name` read as a constant (`torch::float32`, `torch::nan`), if the module has
    /// one of that name.
    pub fn constant(&self, path: &str) -> Option<Dynamic> {
        self.session.constant(path)
    }

    /// `receiver[index]`.
    pub fn get_item(&self, receiver: Dynamic, index: Dynamic) -> Result<Dynamic, PyException> {
        if let Some(t) = receiver.read_lock::<Tensor>() {
            return self
                .session
                .run_direct(|| indexing::get(&t, &index).map(Dynamic::from))
                .map_err(raised);
        }
        self.session
            .call_registered("index$get$", &mut [receiver, index], true)
            .map_err(raised)
    }

    /// `receiver[index] = value`.
    pub fn set_item(
        &self,
        receiver: Dynamic,
        index: Dynamic,
        value: Dynamic,
    ) -> Result<(), PyException> {
        if let Some(t) = receiver.read_lock::<Tensor>() {
            return self
                .session
                .run_direct(|| indexing::set(&t, &index, &value).map(|()| Dynamic::UNIT))
                .map(|_| ())
                .map_err(raised);
        }
        self.session
            .call_registered("index$set$", &mut [receiver, index, value], true)
            .map(|_| ())
            .map_err(raised)
    }

    /// `t[items]`, the items built by the caller: the indexer's read, with no program.
    pub fn index_tensor(&self, t: &Tensor, items: &[IndexItem]) -> Result<Dynamic, PyException> {
        self.session
            .run_direct(|| index(t, items).rhai().map(Dynamic::from))
            .map_err(raised)
    }

    /// `t[items] = value`: the indexer's write, with no program.
    pub fn assign_tensor_index(
        &self,
        t: &Tensor,
        items: &[IndexItem],
        value: &Dynamic,
    ) -> Result<(), PyException> {
        self.session
            .run_direct(|| indexing::set_items(t, items, value).map(|()| Dynamic::UNIT))
            .map(|_| ())
            .map_err(raised)
    }

    /// `a op b` with one of Rhai's operators, as tensh registers them for its values.
    pub fn binary(&self, op: &str, a: Dynamic, b: Dynamic) -> Result<Dynamic, PyException> {
        if let Some(result) = self.session.apply_operator(op, &a, &b) {
            return result.map_err(raised);
        }
        self.session
            .call_registered(op, &mut [a, b], false)
            .map_err(raised)
    }

    /// `t op= b`: the engine's in-place operator on a tensor (PyTorch's `__iadd__` and
    /// friends), which writes into `t`.
    pub fn assign_tensor_op(&self, op: &str, t: &Tensor, b: Dynamic) -> Result<(), PyException> {
        if let Some(result) = self.session.assign_operator(op, t, &b) {
            return result.map(|_| ()).map_err(raised);
        }
        self.binary(op, Dynamic::from(t.clone()), b).map(|_| ())
    }

    /// `-a`.
    pub fn negate(&self, a: Dynamic) -> Result<Dynamic, PyException> {
        self.session
            .call_registered("-", &mut [a], false)
            .map_err(raised)
    }

    /// `~a`: the engine's `!` operator (not the `bitwise_not` op, whose refusals differ).
    pub fn invert(&self, a: Dynamic) -> Result<Dynamic, PyException> {
        self.session
            .call_registered("!", &mut [a], false)
            .map_err(raised)
    }

    /// The name the engine registered a tensh value's type under (`UntypedStorage`,
    /// `Tensor`, `dtype`).
    pub fn type_name(&self, v: &Dynamic) -> String {
        self.session
            .engine()
            .map_type_name(v.type_name())
            .to_string()
    }

    /// The repr tensh prints for a value (PyTorch's).
    pub fn repr(&self, v: Dynamic) -> Result<String, PyException> {
        let d = self
            .session
            .call_registered("to_debug", &mut [v], false)
            .map_err(raised)?;
        Ok(d.into_string().unwrap_or_default())
    }
}

/// The exception an op's error (as the session reports it) stands for: the core error's
/// kind and message as the op raised them; an error of Rhai's own (an operator the engine
/// has, called by name) or an unwound op, by its text.
fn raised(e: ScriptError) -> PyException {
    match e.torch_error() {
        Some(t) => PyException::from_torch(&t),
        None => PyException::from_host_text(&e.message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(target: &str, receiver: Option<Dynamic>, args: Vec<Dynamic>) -> HostCall {
        let _ = target;
        HostCall::positional(receiver, args)
    }

    #[test]
    fn ops_run_through_the_engine_with_their_errors() {
        let mut host = Host::new();
        let t = host
            .call("torch::arange", call("", None, vec![Dynamic::from(6_i64)]))
            .unwrap();
        let v = host
            .call(
                "view",
                call(
                    "",
                    Some(t.clone()),
                    vec![Dynamic::from(2_i64), Dynamic::from(3_i64)],
                ),
            )
            .unwrap();
        assert_eq!(
            host.repr(v).unwrap(),
            "tensor([[0, 1, 2],\n        [3, 4, 5]])"
        );
        let e = host
            .call(
                "view",
                call("", Some(t.clone()), vec![Dynamic::from(4_i64)]),
            )
            .err()
            .unwrap();
        assert_eq!(e.class.name.as_ref(), "RuntimeError");
        assert_eq!(
            e.text.as_deref(),
            Some("shape '[4]' is invalid for input of size 6")
        );
        let missing = host.get_attr(t, "nope").err().unwrap();
        assert_eq!(missing.class.name.as_ref(), "AttributeError");
        assert!(host.constant("torch::float32").is_some());
        assert!(host.constant("torch::nope").is_none());
    }

    /// A storage's methods are called from the table of value methods, with their results
    /// and their errors' kinds as the engine's call gives them.
    #[test]
    fn storage_methods_answer_from_the_table_of_value_methods() {
        let mut host = Host::new();
        let t = host
            .call("torch::ones", call("", None, vec![Dynamic::from(2_i64)]))
            .unwrap();
        let s = host
            .call("untyped_storage", call("", Some(t), Vec::new()))
            .unwrap();
        let n = host
            .call("nbytes", call("", Some(s.clone()), Vec::new()))
            .unwrap();
        assert_eq!(n.as_int(), Ok(8));
        let e = host
            .call("nbytes", call("", Some(s), vec![Dynamic::from(1_i64)]))
            .err()
            .unwrap();
        assert_eq!(e.class.name.as_ref(), "TypeError");
        assert!(!message(&e).starts_with("TypeError"), "{}", message(&e));
    }

    /// An exception's message: its text, or its first argument.
    fn message(e: &PyException) -> String {
        e.text
            .clone()
            .unwrap_or_else(|| match e.args.borrow().first() {
                Some(crate::python::value::Value::Str(s)) => s.to_string(),
                _ => String::new(),
            })
    }

    #[test]
    fn a_name_is_what_rhai_takes_for_an_identifier() {
        for name in [
            "x",
            "_x",
            "x1",
            "_1",
            "__",
            "1x",
            "view",
            "is_shared",
            "a b",
            "é",
            "xé",
            "",
            "_a1_",
            "A",
            "a-b",
            "a::b",
            "\u{0}",
        ] {
            assert_eq!(is_name(name), rhai::is_valid_identifier(name), "{name:?}");
        }
    }

    #[test]
    fn a_string_that_is_no_name_never_becomes_a_program() {
        let mut host = Host::new();
        let t = host
            .call("torch::ones", call("", None, vec![Dynamic::from(2_i64)]))
            .unwrap();
        for name in [
            "shape; print(\"INJECTED\"); 0",
            "a b",
            "view(1)",
            "x = 1",
            "",
        ] {
            assert!(!is_name(name), "{name}");
            let e = host.get_attr(t.clone(), name).err().unwrap();
            assert_eq!(e.class.name.as_ref(), "AttributeError");
            assert_eq!(
                message(&e),
                format!("'Tensor' object has no attribute '{name}'")
            );
            let e = host.set_attr(t.clone(), name, Dynamic::UNIT).err().unwrap();
            assert_eq!(e.class.name.as_ref(), "AttributeError");
            let e = host
                .call(name, call("", Some(t.clone()), Vec::new()))
                .err()
                .unwrap();
            assert_eq!(e.class.name.as_ref(), "AttributeError");
            let path = format!("torch::{name}");
            assert!(host.constant(&path).is_none());
            let e = host.call(&path, call("", None, Vec::new())).err().unwrap();
            assert_eq!(
                message(&e),
                format!("module 'torch' has no attribute '{name}'")
            );
        }
        assert!(is_path("torch::UntypedStorage::from_file"));
    }

    /// Thousands of distinct names asked for keep nothing (there is no store of programs).
    #[test]
    fn names_asked_for_are_looked_up_not_kept() {
        let host = Host::new();
        let dtype = host.constant("torch::float32").unwrap();
        for k in 0..5000 {
            let e = host
                .get_attr(dtype.clone(), &format!("name{k}"))
                .err()
                .unwrap();
            assert_eq!(e.class.name.as_ref(), "AttributeError");
        }
        assert_eq!(
            host.repr(host.get_attr(dtype, "is_signed").unwrap())
                .unwrap(),
            "true"
        );
    }

    /// Ops, properties, subscripts and operators on tensors are called from the op table:
    /// no program is made for them, and they answer as a program's call would.
    #[test]
    fn tensor_calls_reach_their_ops_without_a_program() {
        let mut host = Host::new();
        let int = |i: i64| Dynamic::from(i);
        let t = host
            .call("torch::arange", call("", None, vec![int(6)]))
            .unwrap();
        let mut keywords = rhai::Map::new();
        keywords.insert("alpha".into(), int(2));
        let added = host
            .call(
                "torch::add",
                HostCall {
                    receiver: None,
                    args: smallvec::smallvec![t.clone(), int(1)],
                    keywords: keywords.into(),
                },
            )
            .unwrap();
        assert_eq!(host.repr(added).unwrap(), "tensor([2, 3, 4, 5, 6, 7])");
        let v = host
            .call("view", call("", Some(t.clone()), vec![int(2), int(3)]))
            .unwrap();
        let shape = host.get_attr(v.clone(), "shape").unwrap();
        let row = host.get_item(v.clone(), int(1)).unwrap();
        host.set_item(v.clone(), int(0), int(7)).unwrap();
        let sum = host.binary("+", row, int(10)).unwrap();
        let tensor = t.read_lock::<Tensor>().unwrap().clone();
        host.assign_tensor_op("*", &tensor, int(2)).unwrap();
        let e = host.get_item(v.clone(), int(5)).err().unwrap();
        assert_eq!(e.class.name.as_ref(), "IndexError");
        let e = host.binary("+", t.clone(), t.clone()).map(|_| ());
        assert!(e.is_ok());
        let e = host
            .call("view", call("", Some(t.clone()), vec![int(4)]))
            .err()
            .unwrap();
        assert_eq!(e.class.name.as_ref(), "RuntimeError");
        assert_eq!(host.repr(shape).unwrap(), "torch.Size([2, 3])");
        assert_eq!(host.repr(sum).unwrap(), "tensor([13, 14, 15])");
        assert_eq!(host.repr(t).unwrap(), "tensor([14, 14, 14,  6,  8, 10])");
    }

    /// Methods, properties, indexers and operators of values other than tensors, module
    /// functions and constants are found by name through the engine, as a program's would.
    #[test]
    fn other_values_are_called_by_name_as_programs_call_them() {
        let mut host = Host::new();
        let int = |i: i64| Dynamic::from(i);
        let t = host
            .call("torch::arange", call("", None, vec![int(4)]))
            .unwrap();
        let storage = host
            .call("untyped_storage", call("", Some(t.clone()), vec![]))
            .unwrap();
        let nbytes = host.call("nbytes", call("", Some(storage.clone()), vec![]));
        assert_eq!(nbytes.unwrap().as_int().unwrap(), 32);
        let e = host
            .call("nbytes", call("", Some(storage.clone()), vec![int(1)]))
            .err()
            .unwrap();
        assert_eq!(e.class.name.as_ref(), "TypeError");
        let e = host
            .call("foo", call("", Some(storage.clone()), vec![]))
            .err()
            .unwrap();
        assert_eq!(
            message(&e),
            "'torch.storage.UntypedStorage' object has no attribute 'foo'"
        );
        host.set_item(storage.clone(), int(0), int(9)).unwrap();
        assert_eq!(host.get_item(storage, int(0)).unwrap().as_int().unwrap(), 9);
        let size = host
            .call("size", call("", Some(t.clone()), vec![]))
            .unwrap();
        assert_eq!(
            host.get_item(size.clone(), int(0))
                .unwrap()
                .as_int()
                .unwrap(),
            4
        );
        let e = host.negate(size.clone()).err().unwrap();
        assert_eq!(message(&e), "bad operand type for unary -: 'torch.Size'");
        let same = host.binary("==", size.clone(), size).unwrap();
        assert!(same.as_bool().unwrap());
        let sorted = host
            .call("sort", call("", Some(t.clone()), vec![]))
            .unwrap();
        let indices = host.get_attr(sorted, "indices").unwrap();
        // The storage write above made element 0 the largest.
        assert_eq!(host.repr(indices).unwrap(), "tensor([1, 2, 3, 0])");
        let dtype = host.constant("torch::float64").unwrap();
        let e = host
            .set_attr(dtype.clone(), "is_signed", int(1))
            .err()
            .unwrap();
        assert_eq!(
            message(&e),
            "attribute 'is_signed' of 'torch.dtype' objects is not writable"
        );
        assert!(
            host.get_attr(dtype, "is_signed")
                .unwrap()
                .as_bool()
                .unwrap()
        );
        let e = host
            .call(
                "torch::UntypedStorage::from_file",
                call("", None, vec![int(3)]),
            )
            .err()
            .unwrap();
        assert_eq!(e.class.name.as_ref(), "TypeError");
        assert!(host.constant("torch::UntypedStorage::from_file").is_none());
        assert!(host.constant("torch::pi").is_some());
    }
}
