//! Gradient hooks with Python functions: `t.register_hook(f)`,
//! `t.register_post_accumulate_grad_hook(f)` and the `t.backward(...)` that calls them. The
//! engine cannot call a Python function, so these three methods are run here, on the same
//! declarations and core functions as the Rhai front's (`script::tensor::hooks`).

use std::rc::Rc;

use rhai::{Dynamic, Map};

use super::expr::CallArgs;
use super::{Flow, Interpreter, Unwind};
use crate::core::error::Result;
use crate::core::tensor::Tensor;
use crate::core::tensor::hooks::{self, Hook, HookRunner, Returned};
use crate::ops::args::Args;
use crate::ops::autograd_module::AutogradRequest;
use crate::ops::registration::{Function, Method};
use crate::ops::tensor::autograd::BackwardRequest;
use crate::ops::tensor::hooks::RemovableHandle;
use crate::python::exception::PyException;
use crate::python::value::Value;

/// Calls Python hooks during a walk; the first exception a hook raises is kept, to be
/// raised as it is.
struct PythonHooks<'a> {
    interp: &'a mut Interpreter,
    failure: Option<Unwind>,
}

impl HookRunner for PythonHooks<'_> {
    fn name(&self, hook: &Hook) -> String {
        match hook.downcast_ref::<Value>() {
            Some(Value::Function(f)) => f.name.to_string(),
            Some(Value::Builtin(b)) => b.rsplit('.').next().unwrap_or(b).to_string(),
            _ => "hook".into(),
        }
    }

    fn call(&mut self, hook: &Hook, arg: Option<&Tensor>) -> Result<Returned> {
        let f = hook.downcast_ref::<Value>().cloned().unwrap_or(Value::None);
        let arg = arg.map_or(Value::None, |t| Value::Tensor(t.clone()));
        let call = CallArgs {
            args: vec![arg],
            keywords: Vec::new(),
        };
        let out = self.interp.call_value(&f, call).map_err(|e| {
            self.failure.get_or_insert(e);
            hooks::script_failed()
        })?;
        Ok(match out {
            Value::None => Returned::Nothing,
            Value::Tensor(t) => Returned::Tensor(t),
            other => Returned::Other(other.type_name().to_string()),
        })
    }
}

impl Interpreter {
    /// Whether `name` is one of the methods this module runs.
    pub(super) fn is_hook_method(name: &str) -> bool {
        matches!(
            name,
            "backward" | "register_hook" | "register_post_accumulate_grad_hook"
        )
    }

    /// `t.name(...)` for one of `is_hook_method`'s names.
    pub(super) fn call_hook_method(
        &mut self,
        t: Tensor,
        name: &str,
        call: CallArgs,
    ) -> Flow<Value> {
        if name == "backward" {
            return self.backward(t, call);
        }
        // Checked against the declaration as the engine checks it, the function standing
        // for itself (the engine takes no Python function).
        let hook = call.args.first().cloned().or_else(|| {
            call.keywords
                .iter()
                .find(|(k, _)| k.as_ref() == "hook")
                .map(|(_, v)| v.clone())
        });
        let stand_in = |v: &Value| match v {
            Value::Function(_) | Value::Builtin(_) | Value::Method(_) => Value::None,
            other => other.clone(),
        };
        let call = CallArgs {
            args: call.args.iter().map(stand_in).collect(),
            keywords: call
                .keywords
                .iter()
                .map(|(k, v)| (k.clone(), stand_in(v)))
                .collect(),
        };
        let _ = self.checked(&t, name, 1, call, |_| Ok(Dynamic::UNIT))?;
        let hook: Hook = Rc::new(hook.unwrap_or(Value::None));
        let handle = if name == "register_hook" {
            hooks::register_hook(&t, hook)
        } else {
            hooks::register_post_accumulate_hook(&t, hook)
        };
        match handle {
            Ok(h) => Ok(Value::Host(Dynamic::from(RemovableHandle(h)))),
            Err(e) => self.raise(e.kind.name(), e.message),
        }
    }

    /// `t.backward(...)`, its hooks called here.
    fn backward(&mut self, t: Tensor, call: CallArgs) -> Flow<Value> {
        let request = self.checked(&t, "backward", 3, call, |a| {
            Ok(Dynamic::from(BackwardRequest::read(&a)?))
        })?;
        let Some(request) = request.try_cast::<BackwardRequest>() else {
            return Ok(Value::None);
        };
        let mut runner = PythonHooks {
            interp: self,
            failure: None,
        };
        let walked = request.run(&t, &mut runner);
        let failure = runner.failure.take();
        match (walked, failure) {
            (Ok(()), _) => Ok(Value::None),
            (Err(_), Some(failure)) => Err(failure),
            (Err(e), None) => self.raise(e.kind.name(), e.message),
        }
    }

    /// Runs `body` on `t.name(...)`'s arguments, checked and bound by `name`'s declaration
    /// as the engine's registered methods are.
    fn checked(
        &mut self,
        t: &Tensor,
        name: &str,
        max: usize,
        call: CallArgs,
        body: impl Fn(Args) -> crate::ops::errors::RhaiResult<Dynamic> + 'static,
    ) -> Flow<Dynamic> {
        let values = self.registered_arguments(call)?;
        let method = Method::<Tensor>::new(name, max, Rc::new(move |_, a| body(a)));
        let result = method.call(t, Args::new(values));
        self.lift(result.map_err(|e| PyException::from_rhai(&e)))
    }

    /// A call's arguments as a registered body takes them: the positionals, then the
    /// keywords as one map (a dict passed last stays positional: an empty map follows it).
    fn registered_arguments(&mut self, call: CallArgs) -> Flow<crate::ops::args::Positionals> {
        let host = self.host_arguments(None, call)?;
        let mut values: crate::ops::args::Positionals = host.args.into_iter().collect();
        if !host.keywords.is_empty() || values.last().is_some_and(|v| v.is::<Map>()) {
            values.push(Dynamic::from(host.keywords.take()));
        }
        Ok(values)
    }

    /// `torch.autograd.grad` (`grad`) or `torch.autograd.backward`: checked by its
    /// declaration as the op table checks it, and run here, so Python hooks met on the way
    /// are called.
    pub(super) fn call_autograd(&mut self, grad: bool, call: CallArgs) -> Flow<Value> {
        let values = self.registered_arguments(call)?;
        let (path, max) = AutogradRequest::declared(grad);
        let read = if grad {
            AutogradRequest::read_grad
        } else {
            AutogradRequest::read_backward
        };
        let function = Function::new(path, max, Rc::new(move |a| Ok(Dynamic::from(read(&a)?))));
        let request = function.call(Args::new(values));
        let request = self.lift(request.map_err(|e| PyException::from_rhai(&e)))?;
        let Some(request) = request.try_cast::<AutogradRequest>() else {
            return Ok(Value::None);
        };
        let mut runner = PythonHooks {
            interp: self,
            failure: None,
        };
        let walked = request.run(&mut runner);
        let failure = runner.failure.take();
        match (walked, failure) {
            (Ok(v), _) => Ok(crate::python::convert::from_dynamic(
                v,
                crate::python::convert::Arrays::Tuples,
            )),
            (Err(_), Some(failure)) => Err(failure),
            (Err(e), None) => self.lift(Err(PyException::from_rhai(&e))),
        }
    }
}

/// Whether `path` is `torch.autograd.grad` (`Some(true)`) or `torch.autograd.backward`
/// (`Some(false)`), which the interpreter runs itself (`call_autograd`).
pub(super) fn autograd_function(path: &str) -> Option<bool> {
    match path {
        "torch::autograd::grad" => Some(true),
        "torch::autograd::backward" => Some(false),
        _ => None,
    }
}
