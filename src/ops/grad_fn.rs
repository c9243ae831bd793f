//! `t.grad_fn`: the recorded op that made a tensor, as PyTorch shows it. A leaf (or a tensor
//! that needs no gradient) has none: `()`, Python's `None`.

use crate::ops::direct::Properties;
use std::rc::Rc;

use rhai::{Dynamic, Engine, Map};

use crate::core::tensor::Tensor;
use crate::core::tensor::graph::{Edge, Node};
use crate::ops::errors::{RhaiResult, type_error};
use crate::ops::signature::Owner;

/// A handle to a tensor's recorded op (`y.grad_fn`); handles to one node are the same
/// Python object (`==` compares identity).
#[derive(Debug, Clone)]
pub struct GradFn(pub Rc<Node>);

impl Owner for GradFn {
    const OWNER: &'static str = "grad_fn";
}

impl GradFn {
    /// `t.grad_fn`: the node, or `()` for a tensor no op recorded.
    pub fn of(t: &Tensor) -> Dynamic {
        match t.grad_state().grad_fn {
            Some(node) => Dynamic::from(GradFn(node)),
            None => Dynamic::UNIT,
        }
    }

    /// `name()`: the node's class name, with the `torch::autograd::` namespace that
    /// PyTorch's hand-written nodes carry (`CopySlices`, `CopyBackwards`); the generated
    /// ones (`MulBackward0`, `FillBackward2`) have none.
    pub fn name(&self) -> String {
        let name = self.0.name.as_str();
        if generated(name) || python_function(name) {
            name.to_string()
        } else {
            format!("torch::autograd::{name}")
        }
    }

    /// Python's default repr: `<MulBackward0 object at 0x7f...>`, the address being the
    /// node's (stable while it lives, like CPython's `id`).
    pub fn repr(&self) -> String {
        crate::platform::varies::note();
        let module = match self.class_module() {
            "builtins" => String::new(),
            m => format!("{m}."),
        };
        format!(
            "<{module}{} object at {:#x}>",
            self.0.name,
            Rc::as_ptr(&self.0) as usize
        )
    }

    /// The module of the node's class: `builtins` for PyTorch's C++ nodes,
    /// `torch.autograd.function` for the ones its Python autograd functions make.
    pub fn class_module(&self) -> &'static str {
        if python_function(&self.0.name) {
            "torch.autograd.function"
        } else {
            "builtins"
        }
    }
}

/// The node that accumulates a leaf's gradient into its `.grad` (PyTorch's
/// `AccumulateGrad`, met in `next_functions`): `variable` is the leaf.
#[derive(Debug, Clone)]
pub struct AccumulateGrad(pub Tensor);

impl AccumulateGrad {
    /// `<AccumulateGrad object at 0x...>`, the address being the leaf's (one leaf, one
    /// node, as PyTorch keeps one per leaf).
    pub fn repr(&self) -> String {
        crate::platform::varies::note();
        format!("<AccumulateGrad object at {:#x}>", self.0.id())
    }
}

/// `g.next_functions`: for each of the node's tensor inputs, the node its gradient flows
/// into and which of that node's outputs it is: another op's node, a leaf's
/// `AccumulateGrad`, or `None` where no gradient flows.
fn next_functions(g: &GradFn) -> rhai::Array {
    let node = &g.0;
    // A Python number an operator wrapped into a tensor is an input of PyTorch's node too
    // (`x * 2` is `MulBackward0` of two tensors), through which no gradient flows.
    // `2 * x` and `2 + x` are `x.__rmul__(2)` and `x.__radd__(2)`: the tensor comes first.
    use crate::core::tensor::graph::{Arith, BackwardOp};
    let numbers = match &node.op {
        BackwardOp::Arith { op, a, b } if node.name != "RsubBackward1" => {
            let (a_number, b_number) = (a.as_tensor().is_none(), b.as_tensor().is_none());
            if a_number && matches!(op, Arith::Add | Arith::Mul) {
                [false, true]
            } else {
                [a_number, b_number]
            }
        }
        _ => [false, false],
    };
    let mut edges: Vec<Option<&Edge>> = node.next.iter().map(Option::as_ref).collect();
    if numbers[0] {
        edges.insert(0, None);
    }
    if numbers[1] {
        edges.push(None);
    }
    edges
        .into_iter()
        .map(|edge| {
            let (node, index) = match edge {
                Some(Edge::Node { node, output }) => {
                    (Dynamic::from(GradFn(node.clone())), *output as i64)
                }
                Some(Edge::Leaf(t)) => (Dynamic::from(AccumulateGrad(t.clone())), 0),
                None => (Dynamic::UNIT, 0),
            };
            Dynamic::from(vec![node, Dynamic::from(index)])
        })
        .collect()
}

/// Whether PyTorch makes the node with a Python autograd function (`Tensor.resize`'s).
fn python_function(name: &str) -> bool {
    name == "ResizeBackward"
}

/// Whether PyTorch generates the node class from its derivative table: those are named
/// `<Op>Backward<N>`.
fn generated(name: &str) -> bool {
    // The copies of views are generated too (`ViewBackward0_copy`).
    let name = name.strip_suffix("_copy").unwrap_or(name);
    name.rsplit_once("Backward")
        .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Registers the `grad_fn` property of tensors.
pub fn register_property(p: &mut Properties) {
    p.get("grad_fn", GradFn::of);
}

/// Registers the autograd node's type, repr, `name()` and identity.
pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<GradFn>("grad_fn");
    for name in ["to_string", "to_debug"] {
        engine.register_fn(name, |g: &mut GradFn| g.repr());
    }
    engine.register_fn("==", |a: GradFn, b: GradFn| Rc::ptr_eq(&a.0, &b.0));
    engine.register_get("next_functions", |g: &mut GradFn| next_functions(g));
    engine.register_type_with_name::<AccumulateGrad>("AccumulateGrad");
    for name in ["to_string", "to_debug"] {
        engine.register_fn(name, |g: &mut AccumulateGrad| g.repr());
    }
    engine.register_get("variable", |g: &mut AccumulateGrad| g.0.clone());
    engine.register_get("next_functions", |_: &mut AccumulateGrad| {
        rhai::Array::new()
    });
    engine.register_fn("name", |_: AccumulateGrad| {
        "torch::autograd::AccumulateGrad".to_string()
    });
    engine.register_fn("==", |a: AccumulateGrad, b: AccumulateGrad| {
        a.0.id() == b.0.id()
    });
    engine.register_fn("!=", |a: GradFn, b: GradFn| !Rc::ptr_eq(&a.0, &b.0));
    // Registered by hand: PyTorch's refusals name the node's class (`MulBackward0.name()
    // takes no arguments`), which no declaration can know in advance.
    engine.register_fn("name", |g: GradFn| name_call(&g, &[]));
    engine.register_fn("name", |g: GradFn, a: Dynamic| name_call(&g, &[a]));
    engine.register_fn("name", |g: GradFn, a: Dynamic, b: Dynamic| {
        name_call(&g, &[a, b])
    });
}

/// `g.name(...)`: no arguments, as a C method with `METH_NOARGS` takes them.
fn name_call(g: &GradFn, args: &[Dynamic]) -> RhaiResult<String> {
    let (keywords, positionals) = match args.split_last() {
        Some((last, rest)) if last.is::<Map>() => (last.clone().cast::<Map>(), rest),
        _ => (Map::new(), args),
    };
    let class = &g.0.name;
    if !positionals.is_empty() {
        return Err(type_error(format!(
            "{class}.name() takes no arguments ({} given)",
            positionals.len()
        )));
    }
    if !keywords.is_empty() {
        return Err(type_error(format!(
            "{class}.name() takes no keyword arguments"
        )));
    }
    Ok(g.name())
}

#[cfg(test)]
mod tests {
    use super::generated;

    #[test]
    fn generated_names_end_in_backward_and_a_number() {
        assert!(generated("MulBackward0"));
        assert!(generated("FillBackward2"));
        assert!(generated("DiagonalBackward0_copy"));
        assert!(!generated("CopySlices"));
        assert!(!generated("CopyBackwards"));
        assert!(!generated("AccumulateGrad"));
    }
}
