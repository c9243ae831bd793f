//! `torch.nn.functional`'s losses: the ones with kernels of their own through
//! `core::losses` (`mse_loss`, `smooth_l1_loss`, `huber_loss`, `nll_loss`,
//! `binary_cross_entropy`, `binary_cross_entropy_with_logits`), the ones PyTorch composes
//! through the table's ops, so their nodes are PyTorch's (`l1_loss`, `kl_div`, and
//! `cross_entropy`'s probability targets and label smoothing over `log_softmax` and
//! `nll_loss`), with PyTorch's checks, warnings and legacy `size_average`/`reduce`.

use std::rc::Rc;

use rhai::Dynamic;

use super::{Functions, call, number, tensor};
use crate::core::dtype::DType;
use crate::core::error::TorchError;
use crate::core::losses::{self, LossReduction, PointwiseLoss};
use crate::core::tensor::Tensor;
use crate::ops::args::Args;
use crate::ops::convert::py_type_name;
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai, type_error};
use crate::ops::op_table::TensorOp;

/// An unweighted pointwise loss of an input and a target, reduced.
type UnweightedLoss = dyn Fn(&Tensor, &Tensor, LossReduction) -> RhaiResult<Dynamic>;

/// `reduction=` at position `at`, after the legacy `size_average`/`reduce` (positions
/// `legacy`, if the function has them), as PyTorch's `_Reduction` reads them.
fn reduction(a: &Args, at: usize, legacy: Option<(usize, usize)>) -> RhaiResult<LossReduction> {
    if let Some((size_average, reduce)) = legacy {
        let flag = |i: usize, name: &str| -> Option<bool> {
            a.get(i, name).map(|v| v.as_bool().unwrap_or(true))
        };
        let (s, r) = (flag(size_average, "size_average"), flag(reduce, "reduce"));
        if s.is_some() || r.is_some() {
            let (s, r) = (s.unwrap_or(true), r.unwrap_or(true));
            let name = match (s, r) {
                (true, true) => "mean",
                (false, true) => "sum",
                _ => "none",
            };
            crate::ops::warnings::warn(&format!(
                "size_average and reduce args will be deprecated, please use reduction='{name}' instead."
            ));
            return LossReduction::parse(name).rhai();
        }
    }
    match a.get(at, "reduction") {
        None => Ok(LossReduction::Mean),
        Some(v) => match v.clone().into_string() {
            Ok(name) => LossReduction::parse(&name).rhai(),
            Err(_) => Err(to_rhai(TorchError::value(format!(
                "{v} is not a valid value for reduction"
            )))),
        },
    }
}

/// The input and target of a loss that compares them element by element: PyTorch reads
/// `target.size()` first (an `AttributeError` for a non-tensor), warns when the sizes
/// differ and then broadcasts them.
fn compared(a: &Args, func: &str) -> RhaiResult<(Tensor, Tensor)> {
    let sized = |i: usize, name: &str| -> RhaiResult<Tensor> {
        let v = a.req(i, name, func)?;
        v.clone().try_cast::<Tensor>().ok_or_else(|| {
            to_rhai(TorchError::new(
                crate::core::error::ErrorKind::Attribute,
                format!("'{}' object has no attribute 'size'", py_type_name(v)),
            ))
        })
    };
    let target = sized(1, "target")?;
    let input = sized(0, "input")?;
    if target.sizes() != input.sizes() {
        crate::ops::warnings::warn(&format!(
            "Using a target size ({}) that is different to the input size ({}). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
            size_text(&target),
            size_text(&input)
        ));
    }
    let shape = crate::core::broadcast::broadcast_shapes(&input.sizes(), &target.sizes()).rhai()?;
    let expand = |t: &Tensor| crate::core::views::expand(t, &shape).rhai();
    Ok((expand(&input)?, expand(&target)?))
}

/// `torch.Size([2, 3])`.
fn size_text(t: &Tensor) -> String {
    let parts: Vec<String> = t.sizes().iter().map(i64::to_string).collect();
    format!("torch.Size([{}])", parts.join(", "))
}

/// A pointwise kernel's refusal of a non-float result dtype.
fn refuse_integral(input: &Tensor, target: &Tensor, kernel: &str) -> RhaiResult<()> {
    let d = crate::core::promotion::promote_types(input.dtype(), target.dtype()).rhai()?;
    if d.is_integral() {
        return Err(to_rhai(TorchError::not_implemented(format!(
            "\"{kernel}\" not implemented for '{}'",
            d.cpp_name()
        ))));
    }
    Ok(())
}

/// A tensor keyword or position that may be `None`.
fn optional_tensor(a: &Args, i: usize, name: &str, func: &str) -> RhaiResult<Option<Tensor>> {
    match a.get(i, name) {
        None => Ok(None),
        Some(v) => v.clone().try_cast::<Tensor>().map(Some).ok_or_else(|| {
            type_error(format!(
                "{func}(): argument '{name}' (position {}) must be Tensor, not {}",
                i + 1,
                py_type_name(v)
            ))
        }),
    }
}

/// Adds the losses.
pub fn add_all(f: &mut Functions) {
    let weighted = Weighted {
        sub: f.op("sub"),
        pow: f.op("pow"),
        abs: f.op("abs"),
        mul: f.op("mul"),
        sum: f.op("sum"),
        mean: f.op("mean"),
        div: f.op("div"),
    };
    let mse = weighted.clone();
    f.add(
        "mse_loss",
        6,
        Rc::new(move |a| {
            let (x, y) = compared(&a, "mse_loss")?;
            let weight = loss_weight(&a, 5, "mse_loss", &x)?;
            let how = reduction(&a, 4, Some((2, 3)))?;
            if let Some(w) = weight {
                // PyTorch's Python composes the weighted form.
                let d = call(&mse.sub, &x, vec![Dynamic::from(y)])?;
                let squared = call(&mse.pow, &d, vec![Dynamic::from(2_i64)])?;
                return mse.reduced(&squared, &w, how, true);
            }
            refuse_integral(&x, &y, "mse_cpu")?;
            let out = losses::pointwise_loss(&x, &y, PointwiseLoss::Mse, how).rhai()?;
            Ok(Dynamic::from(out))
        }),
    );
    let l1_ops = weighted.clone();
    let l1: Rc<UnweightedLoss> = Rc::new(move |x, y, how| {
        let d = call(&l1_ops.sub, x, vec![Dynamic::from(y.clone())])?;
        let l = call(&l1_ops.abs, &d, vec![])?;
        Ok(Dynamic::from(match how {
            LossReduction::None => l,
            LossReduction::Mean => call(&l1_ops.mean, &l, vec![])?,
            LossReduction::Sum => call(&l1_ops.sum, &l, vec![])?,
        }))
    });
    let (l1_loss, l1_weighted) = (l1.clone(), weighted.clone());
    f.add(
        "l1_loss",
        6,
        Rc::new(move |a| {
            let (x, y) = compared(&a, "l1_loss")?;
            let weight = loss_weight(&a, 5, "l1_loss", &x)?;
            let how = reduction(&a, 4, Some((2, 3)))?;
            if let Some(w) = weight {
                let d = call(&l1_weighted.sub, &x, vec![Dynamic::from(y)])?;
                let magnitude = call(&l1_weighted.abs, &d, vec![])?;
                return l1_weighted.reduced(&magnitude, &w, how, true);
            }
            l1_loss(&x, &y, how)
        }),
    );
    f.add(
        "smooth_l1_loss",
        6,
        Rc::new(move |a| {
            let (x, y) = compared(&a, "smooth_l1_loss")?;
            let how = reduction(&a, 4, Some((2, 3)))?;
            let beta = number(&a, 5, "beta", "smooth_l1_loss", 1.0)?;
            if beta == 0.0 {
                return l1(&x, &y, how);
            }
            refuse_integral(&x, &y, "smooth_l1_cpu")?;
            if beta < 0.0 {
                return Err(to_rhai(TorchError::runtime(
                    "smooth_l1_loss does not support negative values for beta.",
                )));
            }
            let out = losses::pointwise_loss(&x, &y, PointwiseLoss::SmoothL1(beta), how).rhai()?;
            Ok(Dynamic::from(out))
        }),
    );
    f.add(
        "huber_loss",
        5,
        Rc::new(move |a| {
            let (x, y) = compared(&a, "huber_loss")?;
            let weight = loss_weight(&a, 4, "huber_loss", &x)?;
            let how = reduction(&a, 2, None)?;
            let delta = number(&a, 3, "delta", "huber_loss", 1.0)?;
            refuse_integral(&x, &y, "huber_cpu")?;
            if delta <= 0.0 {
                return Err(to_rhai(TorchError::runtime(
                    "huber_loss does not support non-positive values for delta.",
                )));
            }
            let unreduced = match weight {
                Some(_) => LossReduction::None,
                None => how,
            };
            let out =
                losses::pointwise_loss(&x, &y, PointwiseLoss::Huber(delta), unreduced).rhai()?;
            match weight {
                Some(w) => weighted.reduced(&out, &w, how, false),
                None => Ok(Dynamic::from(out)),
            }
        }),
    );
    let reshaping = Reshaping {
        reshape: f.op("reshape"),
        view: f.op("view"),
    };
    let nll_reshaping = reshaping.clone();
    f.add(
        "nll_loss",
        7,
        Rc::new(move |a| {
            let reshaping = &nll_reshaping;
            let (x, target) = classified(&a, "nll_loss")?;
            let weight = optional_tensor(&a, 2, "weight", "nll_loss")?;
            let ignore = ignore_index(&a)?;
            let how = reduction(&a, 6, Some((3, 5)))?;
            nll(reshaping, &x, &target, weight.as_ref(), ignore, how).map(Dynamic::from)
        }),
    );
    let log_softmax = f.op("log_softmax");
    let ops = CrossEntropyOps {
        log_softmax,
        mul: f.op("mul"),
        sum: f.op("sum"),
        neg: f.op("neg"),
        div: f.op("div"),
        add: f.op("add"),
        reshaping,
    };
    f.add(
        "cross_entropy",
        8,
        Rc::new(move |a| cross_entropy(&a, &ops)),
    );
    f.add(
        "binary_cross_entropy",
        6,
        Rc::new(|a| {
            let (x, y) = same_size(&a, "binary_cross_entropy", true)?;
            let weight = optional_tensor(&a, 2, "weight", "binary_cross_entropy")?;
            let how = reduction(&a, 5, Some((3, 4)))?;
            refuse_integral(&x, &y, "binary_cross_entropy")?;
            let out = losses::binary_cross_entropy(&x, &y, weight.as_ref(), how).rhai()?;
            Ok(Dynamic::from(out))
        }),
    );
    f.add(
        "binary_cross_entropy_with_logits",
        7,
        Rc::new(|a| {
            let func = "binary_cross_entropy_with_logits";
            let (x, y) = same_size(&a, func, false)?;
            let weight = optional_tensor(&a, 2, "weight", func)?;
            let pos_weight = optional_tensor(&a, 6, "pos_weight", func)?;
            let how = reduction(&a, 5, Some((3, 4)))?;
            refuse_integral(&x, &y, "log_sigmoid_cpu")?;
            let out = losses::binary_cross_entropy_with_logits(
                &x,
                &y,
                weight.as_ref(),
                pos_weight.as_ref(),
                how,
            )
            .rhai()?;
            Ok(Dynamic::from(out))
        }),
    );
    let (xlogy, mul, sub, exp, sum, div, mean) = (
        f.op("xlogy"),
        f.op("mul"),
        f.op("sub"),
        f.op("exp"),
        f.op("sum"),
        f.op("div"),
        f.op("mean"),
    );
    f.add(
        "kl_div",
        6,
        Rc::new(move |a| {
            let x = tensor(&a, 0, "input", "kl_div")?;
            let y = tensor(&a, 1, "target", "kl_div")?;
            let log_target = a.get(5, "log_target").is_some_and(|v| v.as_bool().unwrap_or(true));
            let name = match a.get(4, "reduction") {
                Some(v) => v.clone().into_string().unwrap_or_default(),
                None => "mean".to_string(),
            };
            let how = if name == "batchmean" {
                None
            } else {
                if name == "mean" && a.get(2, "size_average").is_none() && a.get(3, "reduce").is_none() {
                    crate::ops::warnings::warn(
                        "reduction: 'mean' divides the total loss by both the batch size and the support size.'batchmean' divides only by the batch size, and aligns with the KL div math definition.'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                    );
                }
                Some(reduction(&a, 4, Some((2, 3)))?)
            };
            let pointwise = if log_target {
                let e = call(&exp, &y, vec![])?;
                let d = call(&sub, &y, vec![Dynamic::from(x.clone())])?;
                call(&mul, &e, vec![Dynamic::from(d)])?
            } else {
                let entropy = call(&xlogy, &y, vec![Dynamic::from(y.clone())])?;
                let cross = call(&mul, &y, vec![Dynamic::from(x.clone())])?;
                call(&sub, &entropy, vec![Dynamic::from(cross)])?
            };
            Ok(Dynamic::from(match how {
                None => {
                    let total = call(&sum, &pointwise, vec![])?;
                    let batch = x.sizes().first().copied().unwrap_or(1);
                    call(&div, &total, vec![Dynamic::from(batch)])?
                }
                Some(LossReduction::None) => pointwise,
                Some(LossReduction::Mean) => call(&mean, &pointwise, vec![])?,
                Some(LossReduction::Sum) => call(&sum, &pointwise, vec![])?,
            }))
        }),
    );
}

/// The table's ops the weighted losses are composed of.
#[derive(Clone)]
struct Weighted {
    sub: TensorOp,
    pow: TensorOp,
    abs: TensorOp,
    mul: TensorOp,
    sum: TensorOp,
    mean: TensorOp,
    div: TensorOp,
}

impl Weighted {
    /// `l * w` reduced: the mean divides by the weights' sum where `over_weights` (mse and
    /// l1), else it is the plain mean (huber), as PyTorch's Python composes them.
    fn reduced(
        &self,
        l: &Tensor,
        w: &Tensor,
        how: LossReduction,
        over_weights: bool,
    ) -> RhaiResult<Dynamic> {
        let product = call(&self.mul, l, vec![Dynamic::from(w.clone())])?;
        Ok(Dynamic::from(match how {
            LossReduction::None => product,
            LossReduction::Sum => call(&self.sum, &product, vec![])?,
            LossReduction::Mean if over_weights => {
                let total = call(&self.sum, &product, vec![])?;
                let weights = call(&self.sum, w, vec![])?;
                call(&self.div, &total, vec![Dynamic::from(weights)])?
            }
            LossReduction::Mean => call(&self.mean, &product, vec![])?,
        }))
    }
}

/// `weight=` of a pointwise loss: the input's size, or PyTorch's `ValueError`.
fn loss_weight(a: &Args, i: usize, func: &str, input: &Tensor) -> RhaiResult<Option<Tensor>> {
    let weight = optional_tensor(a, i, "weight", func)?;
    if let Some(w) = &weight
        && w.sizes() != input.sizes()
    {
        return Err(to_rhai(TorchError::value(
            "Weights and input must have the same size.",
        )));
    }
    Ok(weight)
}

/// The input and target of a binary cross entropy, whose sizes must match (PyTorch's
/// `ValueError`s; `deprecated` is the wording of `binary_cross_entropy`).
fn same_size(a: &Args, func: &str, deprecated: bool) -> RhaiResult<(Tensor, Tensor)> {
    let x = tensor(a, 0, "input", func)?;
    let y = tensor(a, 1, "target", func)?;
    if x.sizes() != y.sizes() {
        let message = if deprecated {
            format!(
                "Using a target size ({}) that is different to the input size ({}) is deprecated. Please ensure they have the same size.",
                size_text(&y),
                size_text(&x)
            )
        } else {
            format!(
                "Target size ({}) must be the same as input size ({})",
                size_text(&y),
                size_text(&x)
            )
        };
        return Err(to_rhai(TorchError::value(message)));
    }
    Ok((x, y))
}

/// The input and class-index target of `nll_loss`/`cross_entropy`.
fn classified(a: &Args, func: &str) -> RhaiResult<(Tensor, Tensor)> {
    let x = tensor(a, 0, "input", func)?;
    let target = tensor(a, 1, "target", func)?;
    Ok((x, target))
}

/// `ignore_index=` (position 4 of both class losses).
fn ignore_index(a: &Args) -> RhaiResult<i64> {
    match a.get(4, "ignore_index") {
        None => Ok(-100),
        Some(v) => crate::ops::convert::to_int(v, "ignore_index"),
    }
}

/// `nll_loss` after PyTorch's checks of its target's dtype and its input's rank.
fn nll(
    ops: &Reshaping,
    x: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    ignore: i64,
    how: LossReduction,
) -> RhaiResult<Tensor> {
    if x.ndim() == 0 {
        return Err(to_rhai(TorchError::value(
            "Expected 1 or more dimensions (got 0)",
        )));
    }
    if !matches!(target.dtype(), DType::Int64 | DType::UInt8) {
        return Err(to_rhai(TorchError::runtime(format!(
            "expected target dtype to be Long or Byte, but got {}",
            target.dtype().cpp_name()
        ))));
    }
    if !x.dtype().is_floating_point() {
        return Err(to_rhai(TorchError::not_implemented(format!(
            "\"nll_loss_out_frame\" not implemented for '{}'",
            x.dtype().cpp_name()
        ))));
    }
    let (n, c) = (x.sizes()[0], x.sizes().get(1).copied().unwrap_or(1));
    if x.ndim() == 3 || x.ndim() > 4 {
        // PyTorch reshapes these to a batch of one-row images, then views the losses back.
        let images = ops.call_reshape(x, &[n, c, 1, -1])?;
        let rows = ops.call_reshape(target, &[n, 1, -1])?;
        let out = losses::nll_loss(&images, &rows, weight, ignore, how).rhai()?;
        return match how {
            LossReduction::None => ops.call_view(&out, &target.sizes()),
            _ => Ok(out),
        };
    }
    losses::nll_loss(x, target, weight, ignore, how).rhai()
}

/// The table's view ops `nll_loss` reshapes with.
#[derive(Clone)]
struct Reshaping {
    reshape: TensorOp,
    view: TensorOp,
}

impl Reshaping {
    fn call_reshape(&self, t: &Tensor, sizes: &[i64]) -> RhaiResult<Tensor> {
        call(&self.reshape, t, vec![Dynamic::from(sizes_value(sizes))])
    }

    fn call_view(&self, t: &Tensor, sizes: &[i64]) -> RhaiResult<Tensor> {
        call(&self.view, t, vec![Dynamic::from(sizes_value(sizes))])
    }
}

/// Sizes as a script's list.
fn sizes_value(sizes: &[i64]) -> rhai::Array {
    sizes.iter().map(|&s| Dynamic::from(s)).collect()
}

/// The table's ops `cross_entropy` is composed of.
struct CrossEntropyOps {
    log_softmax: TensorOp,
    mul: TensorOp,
    sum: TensorOp,
    neg: TensorOp,
    div: TensorOp,
    add: TensorOp,
    reshaping: Reshaping,
}

/// `cross_entropy(input, target, weight, size_average, ignore_index, reduce, reduction,
/// label_smoothing)`: `log_softmax` over the class dim, then `nll_loss` for class indices
/// or `-(log_probs * target).sum()` for class probabilities, with label smoothing mixed
/// in as PyTorch does.
fn cross_entropy(a: &Args, ops: &CrossEntropyOps) -> RhaiResult<Dynamic> {
    let (x, target) = classified(a, "cross_entropy")?;
    let weight = optional_tensor(a, 2, "weight", "cross_entropy")?;
    let ignore = ignore_index(a)?;
    let how = reduction(a, 6, Some((3, 5)))?;
    let smoothing = number(a, 7, "label_smoothing", "cross_entropy", 0.0)?;
    if !(0.0..=1.0).contains(&smoothing) {
        return Err(to_rhai(TorchError::runtime(format!(
            "label_smoothing must be between 0.0 and 1.0. Got: {}",
            crate::core::cpp_format::stream_double(smoothing)
        ))));
    }
    if x.ndim() == 0 {
        return Err(to_rhai(TorchError::value(
            "Expected 1 or more dimensions (got 0)",
        )));
    }
    let class_dim: i64 = if x.ndim() == 1 { 0 } else { 1 };
    let classes = x.sizes()[class_dim as usize];
    let log_probs = call(&ops.log_softmax, &x, vec![Dynamic::from(class_dim)])?;
    let scaled = |t: &Tensor, by: f64| call(&ops.mul, t, vec![Dynamic::from(by)]);
    if target.dtype().is_floating_point() && target.sizes() == x.sizes() {
        // Class probabilities.
        if weight.is_some() {
            return Err(to_rhai(TorchError::not_implemented(
                "tensh's cross_entropy does not take weight= with class probabilities yet",
            )));
        }
        let target = if smoothing > 0.0 {
            let kept = scaled(&target, 1.0 - smoothing)?;
            call(
                &ops.add,
                &kept,
                vec![Dynamic::from(smoothing / classes as f64)],
            )?
        } else {
            target
        };
        let product = call(&ops.mul, &log_probs, vec![Dynamic::from(target)])?;
        return Ok(Dynamic::from(match how {
            LossReduction::None => {
                let total = call(&ops.sum, &product, vec![Dynamic::from(class_dim)])?;
                call(&ops.neg, &total, vec![])?
            }
            LossReduction::Sum => {
                let total = call(&ops.sum, &product, vec![])?;
                call(&ops.neg, &total, vec![])?
            }
            LossReduction::Mean => {
                let total = call(&ops.sum, &product, vec![])?;
                let negated = call(&ops.neg, &total, vec![])?;
                let batch = (x.numel() / classes.max(1)) as f64;
                // ATen divides by a number here: the Scalar overload, `DivBackward1`.
                divided_by_number(&negated, batch)?
            }
        }));
    }
    if target.dtype().is_floating_point() {
        return Err(to_rhai(TorchError::runtime(format!(
            "expected target dtype to be Long or Byte, but got {}",
            target.dtype().cpp_name()
        ))));
    }
    let nll_loss = nll(
        &ops.reshaping,
        &log_probs,
        &target,
        weight.as_ref(),
        ignore,
        how,
    )?;
    if smoothing == 0.0 {
        return Ok(Dynamic::from(nll_loss));
    }
    // The smoothing term: minus the (weighted) log-probabilities summed over the classes,
    // nothing where the target is ignored, reduced as the loss is.
    let weighted = match &weight {
        Some(w) => {
            let mut shape = vec![1_i64; x.ndim()];
            shape[class_dim as usize] = classes;
            let w = crate::core::views::reshape(w, &shape).rhai()?;
            call(&ops.mul, &log_probs, vec![Dynamic::from(w)])?
        }
        None => log_probs,
    };
    let summed = call(&ops.sum, &weighted, vec![Dynamic::from(class_dim)])?;
    let smooth = call(&ops.neg, &summed, vec![])?;
    let kept = crate::core::autograd::grad_ops::cmp(
        crate::core::ops::BinaryOp::Ne,
        crate::core::autograd::grad_ops::t(&target),
        crate::core::autograd::grad_ops::n(ignore as f64),
    )
    .rhai()?;
    let kept = crate::core::copy::cast_copy(&kept, smooth.dtype()).rhai()?;
    let smooth = call(&ops.mul, &smooth, vec![Dynamic::from(kept.clone())])?;
    let smooth = match how {
        LossReduction::None => smooth,
        LossReduction::Sum => call(&ops.sum, &smooth, vec![])?,
        LossReduction::Mean => {
            let total = call(&ops.sum, &smooth, vec![])?;
            let denominator = match &weight {
                Some(w) => {
                    let safe = crate::core::autograd::grad_ops::mul(
                        crate::core::autograd::grad_ops::t(&target),
                        crate::core::autograd::grad_ops::t(
                            &crate::core::copy::cast_copy(&kept, DType::Int64).rhai()?,
                        ),
                    )
                    .rhai()?;
                    let taken = crate::core::selection::index_select(
                        w,
                        0,
                        &crate::core::views::reshape(&safe, &[-1]).rhai()?,
                    )
                    .rhai()?;
                    let taken = crate::core::autograd::grad_ops::mul(
                        crate::core::autograd::grad_ops::t(&taken),
                        crate::core::autograd::grad_ops::t(
                            &crate::core::views::reshape(&kept, &[-1]).rhai()?,
                        ),
                    )
                    .rhai()?;
                    crate::core::reduce::reduce(
                        &taken,
                        crate::core::reduce::Reduction::Sum,
                        None,
                        false,
                    )
                    .rhai()?
                }
                None => crate::core::reduce::reduce(
                    &kept,
                    crate::core::reduce::Reduction::Sum,
                    None,
                    false,
                )
                .rhai()?,
            };
            call(&ops.div, &total, vec![Dynamic::from(denominator)])?
        }
    };
    let main = scaled(&nll_loss, 1.0 - smoothing)?;
    let extra = scaled(&smooth, smoothing / classes as f64)?;
    Ok(Dynamic::from(call(
        &ops.add,
        &main,
        vec![Dynamic::from(extra)],
    )?))
}

/// `t / by` for a number `by`, recorded as ATen's Scalar overload (`DivBackward1`).
fn divided_by_number(t: &Tensor, by: f64) -> RhaiResult<Tensor> {
    use crate::core::autograd::grad_ops::{div, n, t as operand};
    let out = div(operand(t), n(by)).rhai()?;
    crate::core::autograd::tracked::single(&out, "DivBackward1", t, move |g, _| {
        div(operand(g), n(by))
    });
    Ok(out)
}
