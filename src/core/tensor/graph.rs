//! The autograd graph as data. An op on tensors that require grad records a `Node` on its
//! outputs (`grad_fn`): what the op was and what its formula needs (`BackwardOp`), and one
//! `Edge` per tensor input to where that input's gradient goes: the node that made it, or
//! the leaf tensor that accumulates it. Edges are taken from the inputs' state at the moment
//! of recording, so an in-place op that replaces a tensor's `grad_fn` links to the node the
//! tensor had before, never to itself: the graph is acyclic by construction.
//!
//! Nothing here recurses: `core::autograd` walks the graph with an explicit queue, and a
//! node's drop unlinks its chain with an explicit stack (a graph of a million ops drops in
//! constant stack space).
//!
//! This lives beside `Tensor` because the two types contain each other (a tensor holds its
//! node, a node holds saved tensors); formulas live in `core::autograd`, above the ops.

use std::cell::Cell;
use std::rc::Rc;

use super::Tensor;
use crate::core::dtype::DType;
use crate::core::layout::Layout;
use crate::core::scalar::Scalar;

/// Autograd state of a tensor.
#[derive(Debug, Clone, Default)]
pub struct GradState {
    /// `requires_grad` of a leaf, or whether a non-leaf was produced from one.
    pub requires_grad: bool,
    /// The accumulated gradient of a leaf.
    pub grad: Option<Tensor>,
    /// The recorded op that made a non-leaf (`SumBackward0`), shown in the repr.
    pub grad_fn: Option<Rc<Node>>,
    /// Which of `grad_fn`'s outputs this tensor is (split and unbind make several).
    pub output_nr: usize,
    /// For a view made by recorded view ops: the tensor at the root of the chain, whose
    /// history an in-place write through the view changes (PyTorch's `_base`).
    pub base: Option<Tensor>,
    /// A view made while grad mode was off (PyTorch's `CreationMeta::NO_GRAD_MODE`): an
    /// in-place write to it with grad mode on, when autograd would record the write, is
    /// refused.
    pub view_made_without_grad: bool,
    /// `retain_grad()` was called on this non-leaf: backward stores its gradient in `grad`.
    pub retains_grad: bool,
    /// A leaf's gradient hooks (`register_hook`), in the order registered; a non-leaf's
    /// live in its node.
    pub hooks: Vec<super::hooks::TensorHook>,
    /// A leaf's post-accumulate hooks (`register_post_accumulate_grad_hook`).
    pub post_accumulate_hooks: Vec<super::hooks::TensorHook>,
}

/// The four arithmetic ops with gradient formulas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arith {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b`.
    Div,
}

/// One operand of a recorded arithmetic op, as its formula needs it.
#[derive(Debug, Clone)]
pub enum Saved {
    /// A tensor operand, detached (its values and geometry, never its graph).
    Tensor(Tensor),
    /// A Python number operand.
    Number(Scalar),
}

impl Saved {
    /// The tensor, when the operand is one.
    pub fn as_tensor(&self) -> Option<&Tensor> {
        match self {
            Saved::Tensor(t) => Some(t),
            Saved::Number(_) => None,
        }
    }

    /// The same operand without its autograd state.
    pub fn detached(&self) -> Saved {
        match self {
            Saved::Tensor(t) => Saved::Tensor(detached(t)),
            Saved::Number(n) => Saved::Number(*n),
        }
    }
}

/// A gradient formula as a closure: from the output's gradient, one gradient per recorded
/// input (`None`: that input gets none).
#[derive(Clone)]
pub struct GradFormula(pub Rc<GradFn>);

/// The closure a [`GradFormula`] holds.
pub type GradFn = dyn Fn(&Tensor) -> crate::core::error::Result<Vec<Option<Tensor>>>;

impl std::fmt::Debug for GradFormula {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GradFormula")
    }
}

/// A view op replayed on another tensor of the same sizes and dtype: the view's outputs
/// made from that tensor by the same op with the same arguments. The view rule's gradient
/// replays the op on a contiguous scratch tensor of the input's sizes, so each input
/// element gets the gradient of the outputs that read *it*, even where the input's own
/// layout overlaps (an expanded input: two input elements, one storage element).
#[derive(Clone)]
pub struct ViewReplay(pub Rc<ReplayFn>);

/// The closure a [`ViewReplay`] holds.
pub type ReplayFn = dyn Fn(&Tensor) -> crate::core::error::Result<Vec<Tensor>>;

impl ViewReplay {
    /// The replay of a view op with one output.
    pub fn one(view: impl Fn(&Tensor) -> crate::core::error::Result<Tensor> + 'static) -> Self {
        ViewReplay(Rc::new(move |t| Ok(vec![view(t)?])))
    }

    /// The replay of a view op with several outputs (`split`, `unbind`).
    pub fn many(
        views: impl Fn(&Tensor) -> crate::core::error::Result<Vec<Tensor>> + 'static,
    ) -> Self {
        ViewReplay(Rc::new(views))
    }
}

impl std::fmt::Debug for ViewReplay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ViewReplay")
    }
}

impl BackwardOp {
    /// A `Formula` over `inputs` inputs.
    pub fn formula(
        inputs: usize,
        grads: impl Fn(&Tensor) -> crate::core::error::Result<Vec<Option<Tensor>>> + 'static,
    ) -> BackwardOp {
        BackwardOp::Formula {
            inputs,
            grads: GradFormula(Rc::new(grads)),
        }
    }
}

/// What a recorded op was and what it saved: everything its gradient formula needs.
#[derive(Debug)]
pub enum BackwardOp {
    /// `a op b`; gradients flow to the tensor operands, in order.
    Arith {
        /// Which op.
        op: Arith,
        /// Left operand.
        a: Saved,
        /// Right operand.
        b: Saved,
    },
    /// `-x`.
    Neg,
    /// A function of one argument (`exp`, `sin`, `floor`, ...): the input's gradient is the
    /// output's times the function's derivative (its conjugate for complex inputs),
    /// computed at backward time from the tensor PyTorch's formula reads.
    Scaled {
        /// Which function.
        f: crate::core::unary_math::Unary,
        /// The output or input the formula reads (detached); `None` for a constant
        /// derivative (0 for rounding and `sign`, 1 for `frac`).
        saved: Option<Tensor>,
    },
    /// `x ** exponent` for a number exponent.
    Pow {
        /// The base, detached.
        input: Tensor,
        /// The exponent.
        exponent: f64,
    },
    /// `sum` or `mean`, of all elements (`dims: None`) or over dims.
    Reduce {
        /// Mean rather than sum.
        mean: bool,
        /// The input's sizes.
        sizes: Vec<i64>,
        /// The input's dtype.
        dtype: DType,
        /// Reduced dims as given.
        dims: Option<Vec<i64>>,
        /// Whether reduced dims were kept.
        keepdim: bool,
    },
    /// A copy (`clone`, `contiguous`, a copying `reshape`, a dtype conversion): the
    /// gradient is the output's, reshaped to `sizes` and cast to `dtype`.
    Copy {
        /// The input's sizes.
        sizes: Vec<i64>,
        /// The input's dtype.
        dtype: DType,
    },
    /// One or several views of the input's storage (every view op, split and unbind
    /// included): the op is replayed on a zeroed contiguous tensor of the input's sizes,
    /// each output's gradient is added in at its replayed layout, and that tensor is the
    /// input's gradient. Without a replay (`as_strided`), the same is done over a zeroed
    /// copy of the whole storage, read back at the input's layout.
    View {
        /// The input's layout.
        input: Layout,
        /// The input's dtype.
        dtype: DType,
        /// Bytes of the storage when the views were made.
        storage_nbytes: usize,
        /// Each output's layout and dtype, by output number.
        outputs: Vec<(Layout, DType)>,
        /// Made by an op returning several views (`split`, `unbind`): PyTorch refuses
        /// in-place writes to them.
        multi_output: bool,
        /// The op, to replay on a contiguous scratch tensor; `None` for `as_strided`, whose
        /// arguments address the storage itself: its gradient follows storage elements.
        replay: Option<ViewReplay>,
    },
    /// `a.matmul(b)` (and `dot`), any ranks: `a`'s gradient is `g @ bᵀ`, `b`'s is
    /// `aᵀ @ g`, with 1-d operands as a row or a column and broadcast batch dims summed.
    MatMul {
        /// The left operand, detached.
        a: Tensor,
        /// The right operand, detached.
        b: Tensor,
    },
    /// `softmax(dim)` / `log_softmax(dim)` / `logsumexp(dims)`, from the saved output
    /// (`softmax`: `y * (g - sum(g * y))`; `log_softmax`: `g - exp(y) * sum(g)`;
    /// `logsumexp`: `g * exp(x - y)`, sums and broadcasts along the reduced dims).
    Softmax {
        /// Which of the three.
        kind: SoftmaxKind,
        /// The input, detached (read by `logsumexp` only).
        input: Tensor,
        /// The output, detached.
        output: Tensor,
        /// The (wrapped) dims reduced along.
        dims: Vec<i64>,
        /// Whether `logsumexp` kept the reduced dims.
        keepdim: bool,
    },
    /// `conj()` / `conj_physical()`: the input's gradient is the conjugate of the output's.
    Conj,
    /// `flip(dims)`: the input's gradient is the output's flipped back.
    Flip {
        /// The flipped dimensions.
        dims: Vec<i64>,
    },
    /// `repeat(repeats)` (and `tile`): the input's gradient sums the output's over every
    /// copy of each element.
    Repeat {
        /// The input's sizes.
        sizes: Vec<i64>,
        /// The repeats, as many as the output has dimensions.
        repeats: Vec<i64>,
    },
    /// `cumsum(dim)`: the input's gradient is the output's summed from the end along `dim`,
    /// cast to the input's dtype.
    Cumsum {
        /// The (wrapped) dimension summed along.
        dim: i64,
        /// The input's dtype.
        dtype: DType,
    },
    /// `tril(diagonal)` / `triu(diagonal)`: the input's gradient is the output's, masked
    /// the same way.
    Triangle {
        /// `triu` rather than `tril`.
        upper: bool,
        /// The diagonal that bounds the kept triangle.
        diagonal: i64,
    },
    /// An in-place op that overwrote its input (`fill_`, `zero_`, `normal_`): the previous
    /// values get a zero gradient.
    Overwritten,
    /// `self.copy_(src)`: the previous values get zeros; `src` gets the gradient, summed
    /// over broadcast dims to `sizes` and cast to `dtype`.
    CopyFrom {
        /// The source's sizes.
        sizes: Vec<i64>,
        /// The source's dtype.
        dtype: DType,
    },
    /// An in-place op (`inner`) applied to a view of `base` (PyTorch's `CopySlices`): the
    /// base's gradient passes through, except in the view's region, where `inner`'s
    /// gradient for its first input replaces it; `inner`'s other inputs get theirs.
    CopySlices {
        /// The base's layout.
        base: Layout,
        /// The view's layout, in the same storage.
        view: Layout,
        /// The dtype of both.
        dtype: DType,
        /// Bytes of the storage at the write.
        storage_nbytes: usize,
        /// The op applied to the view.
        inner: Box<BackwardOp>,
    },
    /// `cat` or `stack` along `dim`: input `i`'s gradient is its slice of the output's
    /// (for `stack`, the entry `i` of the new dimension), cast to its dtype.
    Join {
        /// The dimension joined along.
        dim: usize,
        /// `stack` (each input is one entry of `dim`) rather than `cat`.
        stacked: bool,
        /// Each input's sizes and dtype, and whether `cat` skipped it (a legacy empty
        /// tensor: its gradient is empty).
        parts: Vec<(Vec<i64>, DType, bool)>,
    },
    /// An op whose inputs' gradients a closure computes from the output's (the ops composed
    /// of engine ops: `lerp`, `addcmul`, ...), the tensors it reads captured detached.
    Formula {
        /// How many inputs were recorded (the closure returns one gradient per input).
        inputs: usize,
        /// The inputs' gradients from the output's.
        grads: GradFormula,
    },
    /// An op tensh has no formula for: backward through it raises.
    Unsupported {
        /// The op's Python name, for the message.
        op: String,
    },
}

/// The op a [`BackwardOp::Softmax`] node records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SoftmaxKind {
    /// `softmax`.
    Softmax,
    /// `log_softmax`.
    LogSoftmax,
    /// `logsumexp`.
    LogSumExp,
}

/// Where an input's gradient goes.
#[derive(Debug, Clone)]
pub enum Edge {
    /// Into output `output` of the node that made the input.
    Node {
        /// The input's node.
        node: Rc<Node>,
        /// Which of its outputs the input was.
        output: usize,
    },
    /// Into the `.grad` of a leaf that requires grad.
    Leaf(Tensor),
}

/// A recorded op.
#[derive(Debug)]
pub struct Node {
    /// PyTorch's name for the node (`grad_fn=<SumBackward0>`).
    pub name: String,
    /// The op and what its formula needs.
    pub op: BackwardOp,
    /// One entry per tensor input, in the formula's order; `None` where no gradient flows.
    pub next: Vec<Option<Edge>>,
    /// How many tensors the op returned.
    pub outputs: usize,
    /// Creation order: later nodes run first when several are ready, as in PyTorch.
    pub seq: u64,
    /// The tensors the formula reads, each with the version it had when saved.
    pub saved: Vec<super::version::SavedVersion>,
    /// Set once a `backward()` without `retain_graph` has run this node: PyTorch frees what
    /// the node saved then, so running it again is refused (see `BackwardOp::saves_values`).
    pub released: Cell<bool>,
    /// Outputs whose tensors asked to keep their gradient (`retain_grad()`): the output
    /// number and a weak handle (the node must not keep its own output alive).
    pub retained: std::cell::RefCell<Vec<(usize, super::WeakTensor)>>,
    /// Gradient hooks registered on its outputs (`register_hook` on a non-leaf): the
    /// output number and the hook, in the order registered (PyTorch calls them in that
    /// order whichever output each is on).
    pub hooks: std::cell::RefCell<Vec<(usize, super::hooks::TensorHook)>>,
}

thread_local! {
    static NEXT_SEQ: Cell<u64> = const { Cell::new(0) };
}

impl BackwardOp {
    /// Whether PyTorch's node for this op keeps saved tensors or numbers (which a
    /// `backward()` frees): a product or quotient keeps its operands, a power its base, a
    /// matrix product both factors, an index its indices. Sums, views, copies and the like
    /// keep only sizes and dtypes, which are never freed, so their graphs can be walked
    /// again.
    pub fn saves_values(&self) -> bool {
        match self {
            BackwardOp::Arith { op, .. } => matches!(op, Arith::Mul | Arith::Div),
            BackwardOp::Pow { .. }
            | BackwardOp::MatMul { .. }
            | BackwardOp::Softmax { .. }
            | BackwardOp::Unsupported { .. } => true,
            BackwardOp::CopySlices { inner, .. } => inner.saves_values(),
            BackwardOp::Scaled { saved, .. } => saved.is_some(),
            _ => false,
        }
    }
}

impl Drop for Node {
    /// Unlinks the chain of nodes this one holds the last reference to, with a stack
    /// instead of recursion.
    fn drop(&mut self) {
        let mut stack = take_node_edges(&mut self.next);
        while let Some(rc) = stack.pop() {
            if let Ok(mut node) = Rc::try_unwrap(rc) {
                stack.extend(take_node_edges(&mut node.next));
            }
        }
    }
}

fn take_node_edges(next: &mut Vec<Option<Edge>>) -> Vec<Rc<Node>> {
    std::mem::take(next)
        .into_iter()
        .filter_map(|e| match e {
            Some(Edge::Node { node, .. }) => Some(node),
            _ => None,
        })
        .collect()
}

/// The edge that a gradient for `t` should follow, or `None` when `t` needs none.
pub fn edge_of(t: &Tensor) -> Option<Edge> {
    t.with(|i| match &i.grad.grad_fn {
        Some(node) => Some(Edge::Node {
            node: node.clone(),
            output: i.grad.output_nr,
        }),
        None if i.grad.requires_grad => Some(Edge::Leaf(t.clone())),
        None => None,
    })
}

/// A handle to `t`'s values and geometry without its autograd state.
pub fn detached(t: &Tensor) -> Tensor {
    t.alias(t.layout())
}

/// Records `op` on `outputs` when any of `inputs` requires grad; returns whether it did.
/// The outputs become non-leaves that require grad, output `i` of the new node.
pub fn record(outputs: &[&Tensor], name: &str, inputs: &[&Tensor], op: BackwardOp) -> bool {
    record_saving(outputs, name, inputs, op, Vec::new())
}

/// `record`, for a formula that reads `saved` tensors: backward refuses once any of them
/// was written in place after it was saved.
pub fn record_saving(
    outputs: &[&Tensor],
    name: &str,
    inputs: &[&Tensor],
    op: BackwardOp,
    saved: Vec<super::version::SavedVersion>,
) -> bool {
    if !super::grad_mode::is_enabled() {
        return false;
    }
    let next: Vec<Option<Edge>> = inputs.iter().map(|t| edge_of(t)).collect();
    if next.iter().all(Option::is_none) {
        return false;
    }
    let seq = NEXT_SEQ.with(|s| {
        let v = s.get();
        s.set(v + 1);
        v
    });
    let node = Rc::new(Node {
        name: name.to_string(),
        op,
        next,
        outputs: outputs.len(),
        seq,
        saved,
        released: Cell::new(false),
        retained: std::cell::RefCell::new(Vec::new()),
        hooks: std::cell::RefCell::new(Vec::new()),
    });
    for (i, out) in outputs.iter().enumerate() {
        out.with_grad_mut(|g| {
            g.requires_grad = true;
            g.grad_fn = Some(node.clone());
            g.output_nr = i;
        });
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf() -> Tensor {
        let t = Tensor::zeros(vec![1], DType::Float32).unwrap();
        t.with_grad_mut(|g| g.requires_grad = true);
        t
    }

    #[test]
    fn nothing_is_recorded_without_an_input_that_requires_grad() {
        let a = Tensor::zeros(vec![1], DType::Float32).unwrap();
        let out = Tensor::zeros(vec![1], DType::Float32).unwrap();
        assert!(!record(&[&out], "NegBackward0", &[&a], BackwardOp::Neg));
        assert!(out.grad_state().grad_fn.is_none());
    }

    #[test]
    fn an_in_place_record_links_to_the_previous_node_not_to_itself() {
        let x = leaf();
        let y = Tensor::zeros(vec![1], DType::Float32).unwrap();
        record(&[&y], "MulBackward0", &[&x], BackwardOp::Neg);
        let first = y.grad_state().grad_fn.unwrap();
        // y.add_(y): inputs are y as it is now; the output is y itself.
        record(&[&y], "AddBackward0", &[&y, &y], BackwardOp::Neg);
        let second = y.grad_state().grad_fn.unwrap();
        for e in &second.next {
            match e {
                Some(Edge::Node { node, .. }) => assert!(Rc::ptr_eq(node, &first)),
                other => panic!("unexpected edge {other:?}"),
            }
        }
    }

    #[test]
    fn dropping_a_long_chain_does_not_recurse() {
        let x = leaf();
        let mut y = x.clone();
        for _ in 0..1_000_000 {
            let out = Tensor::zeros(vec![1], DType::Float32).unwrap();
            record(&[&out], "NegBackward0", &[&y], BackwardOp::Neg);
            y = out;
        }
        drop(y);
        assert!(x.requires_grad());
    }
}
