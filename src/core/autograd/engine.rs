//! `backward()`: one iterative walk of the recorded graph (`tensor::graph`). Each node runs
//! once, after every node that feeds it a gradient has run (a count of incoming edges, taken
//! by a first walk), so a shared subgraph costs what its size costs, never its number of
//! paths. Among ready nodes the most recently created runs first, as in PyTorch's engine,
//! which fixes the order in which gradients are summed. Leaves accumulate as soon as every
//! gradient for them has arrived: `.grad` is set to the sum, or has the sum added to it.

use std::collections::{BinaryHeap, HashMap};
use std::rc::Rc;

use super::formulas::apply;
use crate::core::copy::{cast_copy, contiguous_copy, copy_};
use crate::core::creation::full;
use crate::core::error::{Result, TorchError};
use crate::core::ops::{Arg, BinaryOp, binary_untracked};
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::{Edge, Node, edge_of};
use crate::core::tensor::hooks::{
    HookRunner, NoHooks, run_gradient_hooks, run_post_accumulate_hooks,
};

/// A gradient waiting for its target: per output of a node, or for a leaf.
pub(super) type Buffer = Vec<Option<Tensor>>;

pub(super) fn node_key(n: &Rc<Node>) -> usize {
    Rc::as_ptr(n) as usize
}

pub(super) fn edge_key(e: &Edge) -> usize {
    match e {
        Edge::Node { node, .. } => node_key(node),
        Edge::Leaf(t) => t.id(),
    }
}

/// `t.backward()` from a one-element tensor, freeing the graph as it goes.
pub fn backward(t: &Tensor) -> Result<()> {
    backward_retaining(t, false)
}

/// `t.backward(retain_graph=retain)`: without `retain`, each node that ran is released, and
/// a later walk through a released node that saved values is refused, as in PyTorch.
pub fn backward_retaining(t: &Tensor, retain: bool) -> Result<()> {
    backward_from(t, None, retain)
}

/// `t.backward(gradient, retain_graph=retain)` where no gradient hook can be called (one
/// met is refused).
pub fn backward_from(t: &Tensor, gradient: Option<&Tensor>, retain: bool) -> Result<()> {
    backward_with_hooks(t, gradient, retain, &mut NoHooks)
}

/// `t.backward(gradient, retain_graph=retain)`: the walk starts from `gradient` (of `t`'s
/// shape; cast to `t`'s dtype, as PyTorch casts it, except that a complex side needs the
/// same dtype on both), or from ones when `t` has one element and no gradient is given.
/// Gradient hooks met on the way are called by `runner`.
pub fn backward_with_hooks(
    t: &Tensor,
    gradient: Option<&Tensor>,
    retain: bool,
    runner: &mut dyn HookRunner,
) -> Result<()> {
    let seed = match gradient {
        Some(g) => {
            let size = |x: &Tensor| {
                let parts: Vec<String> = x.sizes().iter().map(i64::to_string).collect();
                format!("torch.Size([{}])", parts.join(", "))
            };
            if g.sizes() != t.sizes() {
                return Err(TorchError::runtime(format!(
                    "Mismatch in shape: grad_output[0] has a shape of {} and output[0] has a shape of {}.",
                    size(g),
                    size(t)
                )));
            }
            if (g.dtype().is_complex() || t.dtype().is_complex()) && g.dtype() != t.dtype() {
                return Err(TorchError::runtime(format!(
                    "For complex Tensors, both grad_output and output are required to have the same dtype. Mismatch in dtype: grad_output[0] has a dtype of {} and output[0] has a dtype of {}.",
                    g.dtype(),
                    t.dtype()
                )));
            }
            Some(g)
        }
        None if t.numel() != 1 => {
            return Err(TorchError::runtime(
                "grad can be implicitly created only for scalar outputs",
            ));
        }
        None => None,
    };
    let Some(root) = edge_of(t) else {
        return Err(TorchError::runtime(
            "element 0 of tensors does not require grad and does not have a grad_fn",
        ));
    };
    let seed = match seed {
        Some(g) => cast_copy(g, t.dtype())?,
        None => full(&t.sizes(), Scalar::Int(1), t.dtype())?,
    };
    run(root, seed, retain, runner)
}

pub(super) const FREED: &str = "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.";

/// How many edges lead into each node and leaf reachable from `root` (keyed by identity).
pub(super) fn count_dependencies(root: &Rc<Node>) -> HashMap<usize, usize> {
    let mut deps: HashMap<usize, usize> = HashMap::new();
    let mut stack = vec![root.clone()];
    deps.insert(node_key(root), 0);
    while let Some(node) = stack.pop() {
        for edge in node.next.iter().flatten() {
            let key = edge_key(edge);
            let seen = deps.contains_key(&key);
            *deps.entry(key).or_insert(0) += 1;
            if let (false, Edge::Node { node, .. }) = (seen, edge) {
                stack.push(node.clone());
            }
        }
    }
    deps
}

/// A node ready to run, ordered by creation (latest first).
pub(super) struct Ready(pub(super) Rc<Node>);

impl PartialEq for Ready {
    fn eq(&self, other: &Self) -> bool {
        self.0.seq == other.0.seq
    }
}
impl Eq for Ready {}
impl PartialOrd for Ready {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Ready {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.seq.cmp(&other.0.seq)
    }
}

/// Refuses to run `node` when its saved values were freed by an earlier backward, or a
/// saved tensor was changed in place since (PyTorch's two errors).
pub(super) fn check_runnable(node: &Node) -> Result<()> {
    if node.released.get() && node.op.saves_values() {
        return Err(TorchError::runtime(FREED));
    }
    for saved in &node.saved {
        saved.check()?;
    }
    Ok(())
}

/// The gradients of `node`'s inputs from its outputs' `grads`; without `retain`, the node's
/// saved values are released after.
pub(super) fn apply_and_release(
    node: &Node,
    grads: &[Option<Tensor>],
    retain: bool,
) -> Result<Vec<Option<Tensor>>> {
    let input_grads = apply(&node.op, grads)?;
    if !retain {
        node.released.set(true);
    }
    Ok(input_grads)
}

/// Counts one of the edges into `key` as done; how many are left.
pub(super) fn one_dependency_done(deps: &mut HashMap<usize, usize>, key: usize) -> usize {
    deps.get_mut(&key).map_or(0, |d| {
        *d = d.saturating_sub(1);
        *d
    })
}

/// Adds `grad` into `slot` (the first gradient is kept as it is).
pub(super) fn add_into(slot: &mut Option<Tensor>, grad: Tensor) -> Result<()> {
    *slot = Some(match slot.take() {
        None => grad,
        Some(old) => binary_untracked(BinaryOp::Add, &Arg::Tensor(old), &Arg::Tensor(grad))?,
    });
    Ok(())
}

/// Runs a leaf's gradient hooks on its finished gradient, adds the result into its `.grad`,
/// then runs its post-accumulate hooks.
pub(super) fn accumulate(leaf: &Tensor, grad: Tensor, runner: &mut dyn HookRunner) -> Result<()> {
    if !leaf.requires_grad() {
        return Ok(());
    }
    let state = leaf.grad_state();
    let grad = if state.hooks.is_empty() {
        grad
    } else {
        match run_gradient_hooks(&state.hooks, Some(grad), runner)? {
            Some(g) => g,
            None => return Ok(()),
        }
    };
    add_to_grad(leaf, grad)?;
    if state.post_accumulate_hooks.is_empty() {
        return Ok(());
    }
    // Hooks registered by the hooks above are seen too, as PyTorch reads the list now.
    let post = leaf.grad_state().post_accumulate_hooks;
    run_post_accumulate_hooks(leaf, &post, runner)
}

/// Adds a finished gradient into a leaf's `.grad`.
fn add_to_grad(leaf: &Tensor, grad: Tensor) -> Result<()> {
    let total = match leaf.grad_state().grad {
        None => laid_out_like_leaf(&grad, leaf)?,
        Some(old) => {
            // PyTorch adds into the existing `.grad` in place, so a tensor assigned to
            // `.grad`, or a view of it, sees the sum; where the old gradient cannot hold the
            // sum in place (a broadcast one shares elements), a new tensor replaces it.
            let sum =
                binary_untracked(BinaryOp::Add, &Arg::Tensor(old.clone()), &Arg::Tensor(grad))?;
            if sum.sizes() == old.sizes() && sum.dtype() == old.dtype() && copy_(&old, &sum).is_ok()
            {
                old
            } else {
                sum
            }
        }
    };
    leaf.with_grad_mut(|g| g.grad = Some(total));
    Ok(())
}

/// A leaf's first `.grad`, laid out as PyTorch's gradient accumulation lays it out. A
/// gradient that keeps PyTorch's layout contract is kept as it is laid out: for a
/// non-overlapping and dense leaf, the leaf's strides in every dim longer than 1 (a
/// dim of length 1 may have any stride but 0); for another leaf, a contiguous gradient.
/// Any other gradient is laid out with the leaf's strides (dense leaf) or row-major.
/// Always a copy: the walk's buffers are not handed out.
fn laid_out_like_leaf(grad: &Tensor, leaf: &Tensor) -> Result<Tensor> {
    let layout = leaf.layout();
    let given = grad.layout();
    let strided = |strides: &[i64]| -> Result<Tensor> {
        let out = crate::core::creation::empty_strided(&given.sizes, strides, grad.dtype())?;
        copy_(&out, grad)?;
        Ok(out)
    };
    if layout.is_non_overlapping_and_dense() && given.sizes == layout.sizes {
        let keeps_contract = given
            .sizes
            .iter()
            .zip(given.strides.iter().zip(&layout.strides))
            .all(|(&n, (&own, &leaf))| if n != 1 { own == leaf } else { own != 0 });
        return strided(if keeps_contract {
            &given.strides
        } else {
            &layout.strides
        });
    }
    if grad.is_contiguous() {
        return strided(&given.strides);
    }
    contiguous_copy(grad)
}

fn run(root: Edge, seed: Tensor, retain: bool, runner: &mut dyn HookRunner) -> Result<()> {
    let (root, output) = match root {
        Edge::Leaf(leaf) => return accumulate(&leaf, seed, runner),
        Edge::Node { node, output } => (node, output),
    };
    let mut deps = count_dependencies(&root);
    let mut buffers: HashMap<usize, Buffer> = HashMap::new();
    let mut root_buffer = vec![None; root.outputs];
    root_buffer[output] = Some(seed);
    buffers.insert(node_key(&root), root_buffer);
    let mut ready = BinaryHeap::from([Ready(root)]);
    let mut leaves: HashMap<usize, Option<Tensor>> = HashMap::new();
    while let Some(Ready(node)) = ready.pop() {
        let mut grads = buffers.remove(&node_key(&node)).unwrap_or_default();
        run_node_hooks(&node, &mut grads, runner)?;
        check_runnable(&node)?;
        // Non-leaves that asked to keep their gradient (`retain_grad()`) get it now.
        for (output, weak) in node.retained.borrow().iter() {
            if let (Some(t), Some(Some(g))) = (weak.upgrade(), grads.get(*output)) {
                let mut slot = t.grad_state().grad;
                add_into(&mut slot, contiguous_copy(g)?)?;
                t.with_grad_mut(|s| s.grad = slot);
            }
        }
        let input_grads = apply_and_release(&node, &grads, retain)?;
        for (edge, grad) in node.next.iter().zip(input_grads) {
            let Some(edge) = edge else { continue };
            let key = edge_key(edge);
            let remaining = one_dependency_done(&mut deps, key);
            match edge {
                Edge::Node {
                    node: target,
                    output,
                } => {
                    let buffer = buffers
                        .entry(key)
                        .or_insert_with(|| vec![None; target.outputs]);
                    if let Some(g) = grad {
                        add_into(&mut buffer[*output], g)?;
                    }
                    if remaining == 0 {
                        ready.push(Ready(target.clone()));
                    }
                }
                Edge::Leaf(leaf) => {
                    let slot = leaves.entry(key).or_default();
                    if let Some(g) = grad {
                        add_into(slot, g)?;
                    }
                    if remaining == 0
                        && let Some(total) = leaves.remove(&key).flatten()
                    {
                        accumulate(leaf, total, runner)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Runs the gradient hooks registered on `node`'s outputs, in the order registered, each
/// on its output's gradient (`None` where none arrived), before the node runs.
pub(super) fn run_node_hooks(
    node: &Node,
    grads: &mut Buffer,
    runner: &mut dyn HookRunner,
) -> Result<()> {
    // A copy: a hook may register hooks itself.
    let hooks = node.hooks.borrow().clone();
    for (output, hook) in &hooks {
        let Some(slot) = grads.get_mut(*output) else {
            continue;
        };
        *slot = run_gradient_hooks([hook], slot.take(), runner)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::dtype::DType;
    use crate::core::ops::binary;
    use crate::core::tensor::hooks::Returned;

    fn leaf(v: f64) -> Tensor {
        let x = full(&[1], Scalar::Float(v), DType::Float64).unwrap();
        x.with_grad_mut(|g| g.requires_grad = true);
        x
    }

    fn value(t: &Tensor) -> f64 {
        crate::core::copy::to_scalars(t).unwrap()[0].to_f64()
    }

    #[test]
    fn a_long_chain_runs_without_recursion() {
        let x = leaf(1.0);
        let mut y = x.clone();
        for _ in 0..200_000 {
            y = binary(BinaryOp::Add, &Arg::Tensor(y), &Arg::Number(Scalar::Int(1))).unwrap();
        }
        backward(&y).unwrap();
        assert_eq!(value(&x.grad_state().grad.unwrap()), 1.0);
    }

    #[test]
    fn a_shared_subgraph_runs_once_per_node() {
        let x = leaf(1.0);
        let mut y = x.clone();
        for _ in 0..60 {
            y = binary(BinaryOp::Add, &Arg::Tensor(y.clone()), &Arg::Tensor(y)).unwrap();
        }
        backward(&y).unwrap();
        assert_eq!(value(&x.grad_state().grad.unwrap()), 2f64.powi(60));
    }

    /// A graph whose nodes saved values is released by a walk: a second one is refused,
    /// unless the first retained it.
    #[test]
    fn a_released_graph_with_saved_values_is_refused() {
        let x = leaf(3.0);
        let y = binary(
            BinaryOp::Mul,
            &Arg::Tensor(x.clone()),
            &Arg::Tensor(x.clone()),
        )
        .unwrap();
        backward_retaining(&y, true).unwrap();
        backward(&y).unwrap();
        assert_eq!(value(&x.grad_state().grad.unwrap()), 12.0);
        let e = backward(&y).unwrap_err();
        assert!(
            e.to_string()
                .contains("backward through the graph a second time")
        );
    }

    /// A runner whose gradient hooks are factors (an `f64`): each multiplies the gradient
    /// it gets; a post-accumulate hook (`()`) notes the leaf's gradient.
    #[derive(Default)]
    struct Factors {
        seen: Vec<f64>,
    }

    impl HookRunner for Factors {
        fn name(&self, _: &crate::core::tensor::hooks::Hook) -> String {
            "factor".into()
        }

        fn call(
            &mut self,
            hook: &crate::core::tensor::hooks::Hook,
            arg: Option<&Tensor>,
        ) -> Result<Returned> {
            let t = arg.unwrap();
            let Some(&factor) = hook.downcast_ref::<f64>() else {
                self.seen.push(value(&t.grad_state().grad.unwrap()));
                return Ok(Returned::Nothing);
            };
            self.seen.push(value(t));
            binary(
                BinaryOp::Mul,
                &Arg::Tensor(t.clone()),
                &Arg::Number(Scalar::Float(factor)),
            )
            .map(Returned::Tensor)
        }
    }

    /// Hooks run in order, each on what the one before returned, on a leaf before it
    /// accumulates and on a non-leaf before its node runs; a removed one is skipped.
    #[test]
    fn hooks_run_in_order_and_removed_ones_are_skipped() {
        use crate::core::tensor::hooks::{register_hook, register_post_accumulate_hook};
        let x = leaf(1.0);
        let y = binary(
            BinaryOp::Mul,
            &Arg::Tensor(x.clone()),
            &Arg::Number(Scalar::Float(3.0)),
        )
        .unwrap();
        register_hook(&x, Rc::new(2.0)).unwrap();
        let removed = register_hook(&x, Rc::new(100.0)).unwrap();
        register_hook(&x, Rc::new(5.0)).unwrap();
        register_hook(&y, Rc::new(7.0)).unwrap();
        register_post_accumulate_hook(&x, Rc::new(())).unwrap();
        removed.remove();
        let mut runner = Factors::default();
        backward_with_hooks(&y, None, false, &mut runner).unwrap();
        // y's hook sees 1, x's first 21, its last 42; the post hook sees 210.
        assert_eq!(runner.seen, [1.0, 21.0, 42.0, 210.0]);
        assert_eq!(value(&x.grad_state().grad.unwrap()), 210.0);
        // Without a runner, a hook is refused rather than skipped.
        let y = binary(
            BinaryOp::Mul,
            &Arg::Tensor(x.clone()),
            &Arg::Number(Scalar::Float(3.0)),
        )
        .unwrap();
        assert!(backward(&y).is_err());
    }

    /// A hook's result of another size is refused with PyTorch's words.
    #[test]
    fn a_hook_may_not_change_the_size() {
        struct Summing;
        impl HookRunner for Summing {
            fn name(&self, _: &crate::core::tensor::hooks::Hook) -> String {
                "summing".into()
            }
            fn call(
                &mut self,
                _: &crate::core::tensor::hooks::Hook,
                grad: Option<&Tensor>,
            ) -> Result<Returned> {
                crate::core::ops::sum_all(grad.unwrap()).map(Returned::Tensor)
            }
        }
        let x = full(&[2], Scalar::Float(1.0), DType::Float32).unwrap();
        x.with_grad_mut(|g| g.requires_grad = true);
        crate::core::tensor::hooks::register_hook(&x, Rc::new(())).unwrap();
        let y = binary(
            BinaryOp::Mul,
            &Arg::Tensor(x.clone()),
            &Arg::Number(Scalar::Float(3.0)),
        )
        .unwrap();
        let e = backward_with_hooks(&y, Some(&y), false, &mut Summing).unwrap_err();
        assert_eq!(e.message, "hook 'summing' has changed the size of value");
        assert!(x.grad_state().grad.is_none());
    }

    /// A graph without saved tensors may be walked twice (as in PyTorch); the leaf adds.
    #[test]
    fn leaves_accumulate_across_calls() {
        let x = leaf(3.0);
        let y = binary(
            BinaryOp::Add,
            &Arg::Tensor(x.clone()),
            &Arg::Tensor(x.clone()),
        )
        .unwrap();
        backward(&y).unwrap();
        backward(&y).unwrap();
        assert_eq!(value(&x.grad_state().grad.unwrap()), 4.0);
    }
}
