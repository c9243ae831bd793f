//! `torch.autograd.grad`: the gradients of some outputs with respect to some inputs,
//! returned instead of accumulated. The walk is `backward()`'s (one run per node, latest
//! first among the ready ones, hooks on the nodes' outputs), from every output at once,
//! through only the nodes some input is reached from; no leaf's `.grad` is touched. An
//! input that is a leaf takes the sum of what reaches it; an input made by an op takes the
//! gradient of its output of that node, complete when the node is about to run.

use std::collections::{BinaryHeap, HashMap, HashSet};
use std::rc::Rc;

use super::engine::{
    Buffer, Ready, accumulate, add_into, apply_and_release, check_runnable, count_dependencies,
    edge_key, node_key, one_dependency_done, run_node_hooks,
};
use crate::core::copy::cast_copy;
use crate::core::creation::full;
use crate::core::error::{Result, TorchError};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::{Edge, Node, edge_of};
use crate::core::tensor::hooks::HookRunner;

/// Where an input's gradient is taken: a leaf by identity, or an output of a node.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Target {
    Leaf(usize),
    Output(usize, usize),
}

/// The gradients of `outputs` (each with its gradient, `None` for ones of a one-element
/// output) with respect to each of `inputs` (`None` where no path reaches one), walking
/// the graph once. Without `retain`, each node that ran is released as `backward()`
/// releases it.
pub fn grad(
    outputs: &[(Tensor, Option<Tensor>)],
    inputs: &[Tensor],
    retain: bool,
    runner: &mut dyn HookRunner,
) -> Result<Vec<Option<Tensor>>> {
    let mut targets: HashMap<Target, Vec<usize>> = HashMap::new();
    for (i, x) in inputs.iter().enumerate() {
        let target = match edge_of(x) {
            Some(Edge::Leaf(leaf)) => Target::Leaf(leaf.id()),
            Some(Edge::Node { node, output }) => Target::Output(node_key(&node), output),
            None => {
                return Err(TorchError::runtime(
                    "One of the differentiated Tensors does not require grad",
                ));
            }
        };
        targets.entry(target).or_default().push(i);
    }
    let mut found: Vec<Option<Tensor>> = vec![None; inputs.len()];
    let mut roots: Vec<(Rc<Node>, usize, Tensor)> = Vec::new();
    for (k, (out, given)) in outputs.iter().enumerate() {
        let seed = seed(k, out, given.as_ref())?;
        match edge_of(out) {
            None => {
                return Err(TorchError::runtime(format!(
                    "element {k} of tensors does not require grad and does not have a grad_fn"
                )));
            }
            // An output that is itself an input leaf: its gradient is the seed.
            Some(Edge::Leaf(leaf)) => {
                if let Some(at) = targets.get(&Target::Leaf(leaf.id())) {
                    for &i in at {
                        add_into(&mut found[i], seed.clone())?;
                    }
                }
            }
            Some(Edge::Node { node, output }) => roots.push((node, output, seed)),
        }
    }
    let needed = needed_nodes(&roots, &targets);
    let mut deps = count_dependencies_of(&roots);
    let mut buffers: HashMap<usize, Buffer> = HashMap::new();
    let mut ready = BinaryHeap::new();
    let mut queued: HashSet<usize> = HashSet::new();
    for (node, output, seed) in &roots {
        let key = node_key(node);
        let buffer = buffers
            .entry(key)
            .or_insert_with(|| vec![None; node.outputs]);
        add_into(&mut buffer[*output], seed.clone())?;
        if deps.get(&key).copied().unwrap_or(0) == 0 && queued.insert(key) {
            ready.push(Ready(node.clone()));
        }
    }
    let mut leaves: HashMap<usize, Option<Tensor>> = HashMap::new();
    while let Some(Ready(node)) = ready.pop() {
        let key = node_key(&node);
        let mut grads = buffers.remove(&key).unwrap_or_default();
        run_node_hooks(&node, &mut grads, runner)?;
        for (output, g) in grads.iter().enumerate() {
            if let Some(at) = targets.get(&Target::Output(key, output)) {
                for &i in at {
                    found[i] = g.clone();
                }
            }
        }
        if !needed.contains(&key) {
            continue;
        }
        check_runnable(&node)?;
        let input_grads = apply_and_release(&node, &grads, retain)?;
        for (edge, grad) in node.next.iter().zip(input_grads) {
            let Some(edge) = edge else { continue };
            let edge_key = edge_key(edge);
            let remaining = one_dependency_done(&mut deps, edge_key);
            match edge {
                Edge::Node {
                    node: target,
                    output,
                } => {
                    let reaches = needed.contains(&edge_key)
                        || (0..target.outputs)
                            .any(|o| targets.contains_key(&Target::Output(edge_key, o)));
                    if !reaches {
                        continue;
                    }
                    let buffer = buffers
                        .entry(edge_key)
                        .or_insert_with(|| vec![None; target.outputs]);
                    if let Some(g) = grad {
                        add_into(&mut buffer[*output], g)?;
                    }
                    if remaining == 0 && queued.insert(edge_key) {
                        ready.push(Ready(target.clone()));
                    }
                }
                Edge::Leaf(leaf) => {
                    let Some(at) = targets.get(&Target::Leaf(leaf.id())) else {
                        continue;
                    };
                    let slot = leaves.entry(edge_key).or_default();
                    if let Some(g) = grad {
                        add_into(slot, g)?;
                    }
                    if remaining == 0
                        && let Some(total) = leaves.remove(&edge_key).flatten()
                    {
                        for &i in at {
                            add_into(&mut found[i], total.clone())?;
                        }
                    }
                }
            }
        }
    }
    Ok(found)
}

/// The gradient an output starts from: `given` (of the output's shape, cast to its dtype),
/// or ones for a one-element output.
fn seed(k: usize, out: &Tensor, given: Option<&Tensor>) -> Result<Tensor> {
    match given {
        Some(g) => {
            if g.sizes() != out.sizes() {
                let size = |x: &Tensor| {
                    let parts: Vec<String> = x.sizes().iter().map(i64::to_string).collect();
                    format!("torch.Size([{}])", parts.join(", "))
                };
                return Err(TorchError::runtime(format!(
                    "Mismatch in shape: grad_output[{k}] has a shape of {} and output[{k}] has a shape of {}.",
                    size(g),
                    size(out)
                )));
            }
            cast_copy(g, out.dtype())
        }
        None if out.numel() != 1 => Err(TorchError::runtime(
            "grad can be implicitly created only for scalar outputs",
        )),
        None => full(&out.sizes(), Scalar::Int(1), out.dtype()),
    }
}

/// Incoming edges of every node and leaf reachable from the roots (a root reached from
/// another root waits for it).
fn count_dependencies_of(roots: &[(Rc<Node>, usize, Tensor)]) -> HashMap<usize, usize> {
    let mut all: HashMap<usize, usize> = HashMap::new();
    let mut counted: HashSet<usize> = HashSet::new();
    for (node, _, _) in roots {
        if !counted.insert(node_key(node)) {
            continue;
        }
        for (key, n) in count_dependencies(node) {
            *all.entry(key).or_insert(0) += n;
        }
    }
    all
}

/// The nodes from which some target is reached (their formulas must run).
fn needed_nodes(
    roots: &[(Rc<Node>, usize, Tensor)],
    targets: &HashMap<Target, Vec<usize>>,
) -> HashSet<usize> {
    // Every reachable node, in an order where a node comes before those it leads to.
    let mut order: Vec<Rc<Node>> = Vec::new();
    let mut seen: HashSet<usize> = HashSet::new();
    let mut stack: Vec<(Rc<Node>, bool)> =
        roots.iter().map(|(n, _, _)| (n.clone(), false)).collect();
    while let Some((node, expanded)) = stack.pop() {
        let key = node_key(&node);
        if expanded {
            order.push(node);
            continue;
        }
        if !seen.insert(key) {
            continue;
        }
        stack.push((node.clone(), true));
        for edge in node.next.iter().flatten() {
            if let Edge::Node { node: next, .. } = edge
                && !seen.contains(&node_key(next))
            {
                stack.push((next.clone(), false));
            }
        }
    }
    // `order` lists each node after everything below it: decide bottom-up.
    let mut needed: HashSet<usize> = HashSet::new();
    for node in &order {
        let key = node_key(node);
        let reaches = node.next.iter().flatten().any(|edge| match edge {
            Edge::Leaf(leaf) => targets.contains_key(&Target::Leaf(leaf.id())),
            Edge::Node { node: next, output } => {
                let k = node_key(next);
                needed.contains(&k) || targets.contains_key(&Target::Output(k, *output))
            }
        });
        if reaches {
            needed.insert(key);
        }
    }
    needed
}

/// `torch.autograd.backward(tensors, grad_tensors, inputs=...)`: the gradients of every
/// output with respect to `inputs` (every leaf the outputs reach when `None`), from one
/// walk, each added into its tensor's `.grad` as `backward()` adds them.
pub fn backward_many(
    outputs: &[(Tensor, Option<Tensor>)],
    inputs: Option<&[Tensor]>,
    retain: bool,
    runner: &mut dyn HookRunner,
) -> Result<()> {
    let inputs = match inputs {
        Some(given) => given.to_vec(),
        None => reachable_leaves(outputs),
    };
    let grads = grad(outputs, &inputs, retain, runner)?;
    for (x, g) in inputs.iter().zip(grads) {
        if let Some(g) = g {
            accumulate(x, g, runner)?;
        }
    }
    Ok(())
}

/// Every leaf that requires grad reached from `outputs`, in the order first met.
fn reachable_leaves(outputs: &[(Tensor, Option<Tensor>)]) -> Vec<Tensor> {
    let mut leaves = Vec::new();
    let mut seen_leaves: HashSet<usize> = HashSet::new();
    let mut seen: HashSet<usize> = HashSet::new();
    let mut stack: Vec<Rc<Node>> = Vec::new();
    for (out, _) in outputs {
        match edge_of(out) {
            Some(Edge::Leaf(leaf)) if seen_leaves.insert(leaf.id()) => leaves.push(leaf),
            Some(Edge::Node { node, .. }) => stack.push(node),
            _ => {}
        }
    }
    while let Some(node) = stack.pop() {
        if !seen.insert(node_key(&node)) {
            continue;
        }
        for edge in node.next.iter().flatten() {
            match edge {
                Edge::Leaf(leaf) if seen_leaves.insert(leaf.id()) => leaves.push(leaf.clone()),
                Edge::Leaf(_) => {}
                Edge::Node { node: next, .. } => stack.push(next.clone()),
            }
        }
    }
    leaves
}
