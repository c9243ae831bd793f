//! The recording side of autograd: what each kind of op saves, under PyTorch's node names.
//! Every op that returns tensors records through `graph::record`, here or directly; the
//! formulas that read these records are in `core::autograd`.

use super::Tensor;
use super::graph::{Arith, BackwardOp, Edge, Saved, ViewReplay, detached, record, record_saving};
use super::version::SavedVersion;
use crate::core::error::{Result, TorchError};
use crate::core::layout::Layout;

/// True when any of `inputs` requires grad (so an op on them must record).
pub fn any_requires_grad(inputs: &[&Tensor]) -> bool {
    inputs.iter().any(|t| t.requires_grad())
}

/// Records `out = a op b`, where either side may be a number. Every binary op calls this:
/// without an operand that requires grad it returns before building anything.
pub fn record_arith(out: &Tensor, op: Arith, a: &Saved, b: &Saved) {
    let (ta, tb) = (a.as_tensor(), b.as_tensor());
    if !ta.is_some_and(Tensor::requires_grad) && !tb.is_some_and(Tensor::requires_grad) {
        return;
    }
    let a_number = ta.is_none();
    let name = match op {
        Arith::Add => "AddBackward0",
        Arith::Sub if a_number => "RsubBackward1",
        Arith::Sub => "SubBackward0",
        Arith::Mul => "MulBackward0",
        // `1 / x` is a reciprocal times a number in PyTorch.
        Arith::Div if a_number => "MulBackward0",
        Arith::Div => "DivBackward0",
    };
    // Edges come from the operands as given; the formula only needs their values.
    let inputs: Vec<&Tensor> = ta.into_iter().chain(tb).collect();
    let saved = BackwardOp::Arith {
        op,
        a: a.detached(),
        b: b.detached(),
    };
    let reads = match op {
        Arith::Mul => product_reads(ta, tb),
        // `a / b` reads `b` for both gradients and `a` for `b`'s; a number over a tensor
        // is a reciprocal times a number in PyTorch, which reads neither operand.
        Arith::Div if !a_number => {
            let mut reads: Vec<SavedVersion> = tb.map(SavedVersion::input).into_iter().collect();
            if tb.is_some_and(Tensor::requires_grad) {
                reads.extend(ta.map(SavedVersion::input));
            }
            reads
        }
        _ => Vec::new(),
    };
    record_saving(&[out], name, &inputs, saved, reads);
}

/// What a product's formula reads: each operand, when the other needs a gradient.
fn product_reads(a: Option<&Tensor>, b: Option<&Tensor>) -> Vec<SavedVersion> {
    let needs = |t: Option<&Tensor>| t.is_some_and(Tensor::requires_grad);
    let mut reads = Vec::new();
    if needs(a) {
        reads.extend(b.map(SavedVersion::input));
    }
    if needs(b) {
        reads.extend(a.map(SavedVersion::input));
    }
    reads
}

/// Records `t.op_(b)` (`add_`, `+=`, ...) on `t`, which now holds the result. The
/// formula for a tensor `b` of `mul_`/`div_` would need `t`'s overwritten values, so that
/// case is recorded without a formula.
pub fn record_arith_in_place(t: &Tensor, op: Arith, b: &Saved) {
    let tb = b.as_tensor();
    let b_tracked = tb.is_some_and(Tensor::requires_grad);
    if !t.requires_grad() && !b_tracked {
        return;
    }
    let others: Vec<&Tensor> = tb.into_iter().collect();
    let (name, formula) = match op {
        Arith::Add => ("AddBackward0", None),
        Arith::Sub => ("SubBackward0", None),
        Arith::Mul => ("MulBackward0", Some("an in-place mul_")),
        Arith::Div => ("DivBackward0", Some("an in-place div_")),
    };
    let backward = match formula {
        Some(what) if b_tracked => BackwardOp::Unsupported {
            op: what.to_string(),
        },
        _ => BackwardOp::Arith {
            op,
            a: Saved::Tensor(detached(t)),
            b: b.detached(),
        },
    };
    // `t.mul_(b)` and `t.div_(b)` read `b` for `t`'s gradient.
    let reads = match (op, tb) {
        (Arith::Mul | Arith::Div, Some(b)) if t.requires_grad() => vec![SavedVersion::input(b)],
        _ => Vec::new(),
    };
    record_in_place_saving(t, name, &others, backward, reads);
}

/// Records `out = a.matmul(b)` under PyTorch's node for these ranks.
pub fn record_matmul(out: &Tensor, a: &Tensor, b: &Tensor) {
    if !a.requires_grad() && !b.requires_grad() {
        return;
    }
    let name = match (a.ndim(), b.ndim()) {
        (1, 1) => "DotBackward0",
        (2, 1) => "MvBackward0",
        (1, 2) => "SqueezeBackward4",
        (2, 2) => "MmBackward0",
        // A single matrix times a stack: PyTorch expands it and clones the result.
        (da, db) if da >= 2 && db >= 3 && a.sizes()[..da - 2].iter().product::<i64>() == 1 => {
            "CloneBackward0"
        }
        _ => "UnsafeViewBackward0",
    };
    record_matmul_as(out, a, b, name);
}

/// `record_matmul` under PyTorch's node `name` for the op called (`bmm`: `BmmBackward0`).
pub fn record_matmul_as(out: &Tensor, a: &Tensor, b: &Tensor, name: &str) {
    if !a.requires_grad() && !b.requires_grad() {
        return;
    }
    let op = BackwardOp::MatMul {
        a: detached(a),
        b: detached(b),
    };
    record_saving(&[out], name, &[a, b], op, product_reads(Some(a), Some(b)));
}

/// Records `out = -x`.
pub fn record_neg(out: &Tensor, x: &Tensor) {
    record(&[out], "NegBackward0", &[x], BackwardOp::Neg);
}

/// Records `out = x ** exponent` for a number exponent.
pub fn record_pow(out: &Tensor, x: &Tensor, exponent: f64) {
    let input = detached(x);
    record_saving(
        &[out],
        "PowBackward0",
        &[x],
        BackwardOp::Pow { input, exponent },
        vec![SavedVersion::input(x)],
    );
}

fn record_reduction(out: &Tensor, x: &Tensor, dims: Option<&[i64]>, keepdim: bool, mean: bool) {
    let all = dims.is_none_or(|d| d.is_empty());
    let name = match (mean, all) {
        (false, true) => "SumBackward0",
        (false, false) => "SumBackward1",
        (true, true) => "MeanBackward0",
        (true, false) => "MeanBackward1",
    };
    let op = BackwardOp::Reduce {
        mean,
        sizes: x.sizes(),
        dtype: x.dtype(),
        dims: dims.map(<[i64]>::to_vec),
        keepdim,
    };
    record(&[out], name, &[x], op);
}

/// Records `out = x.sum(dims, keepdim)` (`None`: all elements).
pub fn record_sum(out: &Tensor, x: &Tensor, dims: Option<&[i64]>, keepdim: bool) {
    record_reduction(out, x, dims, keepdim, false);
}

/// Records `out`, the sum of every element of `x`, under PyTorch's node name of an op
/// that is such a sum (`trace` sums a diagonal view: its node is `TraceBackward0`).
pub fn record_sum_as(out: &Tensor, x: &Tensor, name: &str) {
    let op = BackwardOp::Reduce {
        mean: false,
        sizes: x.sizes(),
        dtype: x.dtype(),
        dims: None,
        keepdim: false,
    };
    record(&[out], name, &[x], op);
}

/// Records `out = x.mean(dims, keepdim)`.
pub fn record_mean(out: &Tensor, x: &Tensor, dims: Option<&[i64]>, keepdim: bool) {
    record_reduction(out, x, dims, keepdim, true);
}

/// Records `out = f(x)` for a function of one argument: its formula reads the output or
/// the input (`Unary::reads_output`), saved with its version, or nothing.
pub fn record_unary(out: &Tensor, x: &Tensor, f: crate::core::unary_math::Unary) {
    let (saved, version) = match f.reads_output() {
        Some(true) => (
            Some(detached(out)),
            vec![SavedVersion::output(out, f.node())],
        ),
        Some(false) => (Some(detached(x)), vec![SavedVersion::input(x)]),
        None => (None, Vec::new()),
    };
    record_saving(
        &[out],
        f.node(),
        &[x],
        BackwardOp::Scaled { f, saved },
        version,
    );
}

/// Records `out`, a copy of `x` (`clone`, a copying `reshape`, a conversion).
pub fn record_copy(out: &Tensor, x: &Tensor, name: &str) {
    let op = BackwardOp::Copy {
        sizes: x.sizes(),
        dtype: x.dtype(),
    };
    record(&[out], name, &[x], op);
}

/// Records `outs`, views of `x`'s storage made by one op returning several (`split`,
/// `unbind`), as outputs of one node; `replay` makes the op that makes them again from
/// another tensor, called only when autograd tracks `x`.
#[inline]
pub fn record_views(outs: &[Tensor], x: &Tensor, name: &str, replay: impl FnOnce() -> ViewReplay) {
    if x.requires_grad() {
        record_views_of_tracked(outs, x, name, true, Some(replay()));
    }
    mark_views(outs, x);
}

/// Records `outs`, tensors over `x`'s storage that PyTorch does not track as views
/// (`unsafe_split`), as outputs of one node with the view rule's gradient: in-place writes
/// to them are allowed and leave `x`'s history alone.
pub fn record_untracked_views(outs: &[Tensor], x: &Tensor, name: &str, replay: ViewReplay) {
    if x.requires_grad() {
        record_views_of_tracked(outs, x, name, false, Some(replay));
    }
}

/// Marks `outs` as views of `x`: their base (PyTorch's `_base`) is the root of `x`'s chain
/// of views, or `x`. Every view op calls this, tracked or not, so `_base`, `_is_view()`
/// and the refusal of `detach_()` on a view hold for every view; an in-place write through
/// a view with a tracked value then records `CopySlices` on the base, as in PyTorch.
#[inline]
pub fn mark_views(outs: &[Tensor], x: &Tensor) {
    let base = x.with(|i| i.grad.base.clone()).unwrap_or_else(|| x.clone());
    // A view of a view made under `no_grad` is one too (PyTorch propagates the mark).
    let without_grad = !super::grad_mode::is_enabled() || x.with(|i| i.grad.view_made_without_grad);
    for out in outs {
        out.with_grad_mut(|g| {
            g.base = Some(base.clone());
            g.view_made_without_grad = without_grad;
        });
    }
}

fn record_views_of_tracked(
    outs: &[Tensor],
    x: &Tensor,
    name: &str,
    multi_output: bool,
    replay: Option<ViewReplay>,
) {
    let op = BackwardOp::View {
        input: x.layout(),
        dtype: x.dtype(),
        storage_nbytes: x.storage().nbytes(),
        outputs: outs.iter().map(|o| (o.layout(), o.dtype())).collect(),
        multi_output,
        replay,
    };
    let refs: Vec<&Tensor> = outs.iter().collect();
    record(&refs, name, &[x], op);
}

/// Records `out`, a view of `x`'s storage already marked as one (`Tensor::view_alias`);
/// `replay` makes it again from another tensor (`None`: `as_strided`, whose gradient
/// follows storage elements).
#[inline]
pub fn record_marked_view(out: &Tensor, x: &Tensor, name: &str, replay: Option<ViewReplay>) {
    if x.requires_grad() {
        record_views_of_tracked(std::slice::from_ref(out), x, name, false, replay);
    }
}

/// Records `out`, a view of `x`'s storage made by the op `replay` makes (called only
/// when autograd tracks `x`, so an untracked view builds no replay).
#[inline]
pub fn record_view(out: &Tensor, x: &Tensor, name: &str, replay: impl FnOnce() -> ViewReplay) {
    if x.requires_grad() {
        record_views_of_tracked(std::slice::from_ref(out), x, name, false, Some(replay()));
    }
    mark_views(std::slice::from_ref(out), x);
}

/// Records an in-place op that wrote into `t` (`name`, PyTorch's node; `op`, its formula
/// with `t`'s previous values as first input and `others` after).
pub fn record_in_place(t: &Tensor, name: &str, others: &[&Tensor], op: BackwardOp) {
    record_in_place_saving(t, name, others, op, Vec::new());
}

/// `record_in_place` for a formula that reads `saved` tensors (checked by backward).
pub fn record_in_place_saving(
    t: &Tensor,
    name: &str,
    others: &[&Tensor],
    op: BackwardOp,
    saved: Vec<SavedVersion>,
) {
    write_node(t, &t.layout(), name, others, op, saved);
}

/// Records an in-place op that wrote into `region` of `target`'s storage (`target[i] = v`
/// writes a region; `t.fill_(v)` all of `t`). When the region is all of a tensor that is
/// not a view, that tensor gets the node itself. Otherwise the base (the root of
/// `target`'s recorded views, or `target`) gets PyTorch's `CopySlices` around the node,
/// and `target`, if it is not the base, becomes a view of the new base.
pub fn record_write(
    target: &Tensor,
    region: &Layout,
    name: &str,
    others: &[&Tensor],
    op: BackwardOp,
) {
    write_node(target, region, name, others, op, Vec::new());
}

fn write_node(
    target: &Tensor,
    region: &Layout,
    name: &str,
    others: &[&Tensor],
    op: BackwardOp,
    saved: Vec<SavedVersion>,
) {
    if !target.requires_grad() && !others.iter().any(|o| o.requires_grad()) {
        return;
    }
    let tracked_base = target.with(|i| i.grad.base.clone());
    if tracked_base.is_none() && *region == target.layout() {
        let mut inputs = vec![target];
        inputs.extend_from_slice(others);
        record_saving(&[target], name, &inputs, op, saved);
        return;
    }
    let base = tracked_base.unwrap_or_else(|| target.clone());
    let copy_slices = BackwardOp::CopySlices {
        base: base.layout(),
        view: region.clone(),
        dtype: target.dtype(),
        storage_nbytes: target.storage().nbytes(),
        inner: Box::new(op),
    };
    let mut base_inputs = vec![&base];
    base_inputs.extend_from_slice(others);
    record_saving(&[&base], "CopySlices", &base_inputs, copy_slices, saved);
    if !base.ptr_eq(target) {
        target.with_grad_mut(|g| {
            g.grad_fn = None;
            g.base = None;
        });
        // PyTorch regenerates the view with `as_strided`: its gradient follows storage.
        record_marked_view(target, &base, "AsStridedBackward0", None);
        mark_views(std::slice::from_ref(target), &base);
    }
}

/// Records `out` of an op whose gradients `formula` computes (one per input, from the
/// output's gradient); `saved` are the inputs the formula reads, so backward refuses once
/// one of them was written in place.
pub fn record_formula(
    out: &Tensor,
    name: &str,
    inputs: &[&Tensor],
    saved: &[&Tensor],
    formula: impl Fn(&Tensor) -> Result<Vec<Option<Tensor>>> + 'static,
) {
    let op = BackwardOp::Formula {
        inputs: inputs.len(),
        grads: super::graph::GradFormula(std::rc::Rc::new(formula)),
    };
    let reads = saved.iter().map(|t| SavedVersion::input(t)).collect();
    record_saving(&[out], name, inputs, op, reads);
}

/// Records an op PyTorch itself has no derivative for (its node is `NotImplemented`):
/// the output requires grad, and `backward` through it raises PyTorch's error.
pub fn record_not_differentiable(out: &Tensor, op: &str, inputs: &[&Tensor]) {
    let message = format!("derivative for aten::{op} is not implemented");
    record_formula(out, "NotImplemented", inputs, &[], move |_| {
        Err(TorchError::runtime(message.clone()))
    });
}

/// Records an op tensh has no formula for: its output requires grad as in PyTorch, and
/// `backward` through it raises instead of guessing.
pub fn record_without_formula(out: &Tensor, name: &str, op: &str, inputs: &[&Tensor]) {
    let op = BackwardOp::Unsupported { op: op.to_string() };
    record(&[out], name, inputs, op);
}

/// Counts one in-place write of `t` (and its views: they share the counter). Writes are
/// counted in one place each, never by an op's body: `counted_write` around a declared
/// mutating method, an in-place operator or an index assignment; this after an `out=` write.
pub fn count_write(t: &Tensor) {
    t.version().bump();
}

/// Runs the write `f` to `t`, counted as one version. The count comes first, as PyTorch
/// counts a write before it records the op (an in-place node saves `t` at its new version),
/// and is taken back when `f` refuses the write, so a refused write counts nothing.
pub fn counted_write<T, E>(
    t: &Tensor,
    f: impl FnOnce() -> std::result::Result<T, E>,
) -> std::result::Result<T, E> {
    let counter = t.version();
    let before = counter.get();
    counter.bump();
    let done = f();
    if done.is_err() {
        counter.restore(before);
    }
    done
}

/// PyTorch's error for an in-place op on a leaf that requires grad, on a view of one, or
/// on an output of an op returning several views. Every in-place write a script makes
/// passes here first; the write is counted after it succeeds (`count_write`).
pub fn check_inplace(t: &Tensor) -> Result<()> {
    check_inplace_with(t, false)
}

/// `check_inplace` for a write whose other operands require grad when `operands_track`
/// (the write is recorded even if `t` does not require grad), in PyTorch's order: a view
/// made under `no_grad`, then an output of a multi-view op, then a view whose base is a
/// leaf (`_base.is_leaf`, whether or not the base requires grad: a leaf view that was
/// given `requires_grad_()` is refused so too), then a leaf.
pub fn check_inplace_with(t: &Tensor, operands_track: bool) -> Result<()> {
    if !super::grad_mode::is_enabled() {
        // Under `no_grad` nothing is recorded, so writing a leaf is allowed.
        return Ok(());
    }
    let (requires_grad, leaf, base, made_without_grad) = t.with(|i| {
        (
            i.grad.requires_grad,
            i.grad.grad_fn.is_none(),
            i.grad.base.clone(),
            i.grad.view_made_without_grad,
        )
    });
    if !(requires_grad || operands_track) {
        return Ok(());
    }
    if let Some(base) = base {
        if made_without_grad {
            return Err(TorchError::runtime(NO_GRAD_VIEW));
        }
        if let ViewOrigin::MultiOutput { op, output } = view_origin(t) {
            return Err(multi_output_error(&op, output));
        }
        if requires_grad && base.with(|i| i.grad.grad_fn.is_none()) {
            return Err(view_of_leaf_error());
        }
    }
    if requires_grad && leaf {
        return Err(TorchError::runtime(
            "a leaf Variable that requires grad is being used in an in-place operation.",
        ));
    }
    Ok(())
}

/// PyTorch's refusal of an in-place write, with grad mode on, to a view made under `no_grad`.
const NO_GRAD_VIEW: &str = "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked).";

/// PyTorch's check before writing through an index (`t[i] = v`): Python indexes first, so
/// the write goes to a view, and a leaf that requires grad is refused as a view of itself.
pub fn check_write_through_view(t: &Tensor) -> Result<()> {
    if !super::grad_mode::is_enabled() {
        return Ok(());
    }
    let leaf = t.with(|i| i.grad.requires_grad && i.grad.grad_fn.is_none());
    if leaf {
        return Err(view_of_leaf_error());
    }
    check_inplace(t)
}

fn view_of_leaf_error() -> TorchError {
    TorchError::runtime(
        "a view of a leaf Variable that requires grad is being used in an in-place operation.",
    )
}

/// Where a tensor's chain of recorded views starts, as far as in-place writes care.
enum ViewOrigin {
    /// A view (possibly of a view) of output `output` of `op`, which made several views.
    MultiOutput { op: String, output: usize },
    /// Anything else.
    Other,
}

/// PyTorch's name of an op in its messages: the node's name without `Backward<n>`.
fn op_name(node: &str) -> String {
    node.trim_end_matches(char::is_numeric)
        .trim_end_matches("Backward")
        .to_string()
}

fn view_origin(t: &Tensor) -> ViewOrigin {
    let (first, output) = t.with(|i| (i.grad.grad_fn.clone(), i.grad.output_nr));
    // A view of an output of a multi-view op inherits the refusal, named after the view's
    // own op and output.
    let own_name = first.as_ref().map(|n| op_name(&n.name));
    let mut node = first;
    while let Some(n) = node {
        let BackwardOp::View { multi_output, .. } = &n.op else {
            return ViewOrigin::Other;
        };
        if *multi_output {
            return ViewOrigin::MultiOutput {
                op: own_name.unwrap_or_default(),
                output,
            };
        }
        node = match n.next.first() {
            Some(Some(Edge::Node { node, .. })) => Some(node.clone()),
            _ => None,
        };
    }
    ViewOrigin::Other
}

fn multi_output_error(op: &str, output: usize) -> TorchError {
    TorchError::runtime(format!(
        "Output {output} of {op} is a view and is being modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one."
    ))
}

/// PyTorch's refusal to resize a tensor that requires grad.
pub fn check_resize(t: &Tensor) -> Result<()> {
    if t.requires_grad() {
        return Err(TorchError::runtime(
            "cannot resize variables that require grad",
        ));
    }
    Ok(())
}
