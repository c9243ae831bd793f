//! The `out=` argument of `torch` functions: the op computes its result as it would without
//! one, then the result is written into the given tensor (or tensors, for ops that return a
//! named tuple), which the call returns.
//!
//! What PyTorch checks before writing differs by op family, and each family's rule and words
//! are kept here ([`rule`]): most ops accept an `out` whose dtype the result can be cast to;
//! some reductions cast into any dtype; unary kernels, matrix products, index ops and
//! factories each have their own check. An `out` of another shape is resized to the result's
//! shape (and strides), with PyTorch's warning when it had elements; an `out` that partly
//! overlaps an input, or any tensor that requires grad, is refused in PyTorch's words.

use rhai::{Array, Dynamic};

use crate::core::dtype::DType;
use crate::core::error::TorchError;
use crate::core::layout::Layout;
use crate::core::promotion::can_cast;
use crate::core::tensor::Tensor;
use crate::ops::args::Args;
use crate::ops::errors::{RhaiResult, to_rhai};
use crate::ops::return_tuple::ReturnTuple;
use crate::ops::signature::Declaration;

/// How an op checks the dtype of its `out` against its result's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// The result must be castable to `out` (PyTorch's TensorIterator ops).
    Castable,
    /// Anything: the result is converted (`sum`, `prod`, `cumsum`, `bernoulli`).
    Any,
    /// `out` must have the result's dtype: "Found dtype Long but expected Float".
    Found,
    /// "Expected out tensor to have dtype float, but got long int instead" (products,
    /// gathers, triangles, sorts, `max`/`min`/`argmax`).
    ExpectedOut,
    /// "result dtype Long does not match input dtype Float" (`dot`, `matmul` of vectors).
    ResultDtype,
    /// "Expected the dtype for input and out to match, ..." (`amax`, `amin`).
    InputAndOut,
    /// "{name}(): self and result must have the same scalar type".
    SameScalarType,
    /// "take(): self and out expected to have the same dtype, but got self.dtype = Float and
    /// out.dtype = Long".
    SelfAndOut,
    /// "torch.histogram: input tensor and hist tensor should have the same dtype, but got
    /// input float and hist long int" (`histc`).
    HistogramOut,
    /// "Expected out type to be Float but got Long" (`where`).
    OutType,
    /// `searchsorted`'s int32-or-int64 check, worded with its `out_int32` flag.
    SearchOut,
    /// `out` must be bool or the result's dtype: "all only supports bool tensor for result".
    BoolResult,
    /// "signbit does not support non-boolean outputs."
    Signbit,
    /// "Expected self.dtype() == output.dtype() to be true, ..." (`narrow_copy`).
    SelfOutput,
    /// "Expected object of scalar type ComplexFloat but got ... for argument 'out'".
    ObjectOfScalarType,
    /// `torch.cat(): input types can't be cast to the desired output type Long` (TypeError).
    Concatenation,
    /// "multinomial expects Long tensor out, got: Float".
    LongOut,
    /// "Expected result to be of dtype uint64, but got Float" (`hash_tensor`).
    ResultOfDtype,
    /// A factory: `out`'s dtype is the result's, unless `dtype=` says otherwise (an error).
    Factory,
}

/// The rule of the `torch` function `name`, or `None` where tensh does not build its `out=`
/// (`normal`, whose `out` takes part in the computation).
fn rule(name: &str) -> Option<Rule> {
    Some(match name {
        "sum" | "prod" | "cumsum" | "bernoulli" => Rule::Any,
        "abs" | "neg" | "negative" | "sgn" | "sign" | "round" | "floor" | "ceil" | "trunc"
        | "frac" | "conj_physical" | "bitwise_not" | "clamp" => Rule::Found,
        "mm" | "bmm" | "mv" | "gather" | "diag" | "tril" | "triu" | "sort" | "msort" | "max"
        | "isin" | "min" | "argmax" | "argmin" | "argsort" | "scatter" | "scatter_add"
        | "scatter_reduce" | "index_add" | "index_copy" | "index_reduce" | "take_along_dim"
        | "addmm" | "addmv" | "addr" | "baddbmm" | "addbmm" => Rule::ExpectedOut,
        "take" => Rule::SelfAndOut,
        "hash_tensor" => Rule::ResultOfDtype,
        "multinomial" => Rule::LongOut,
        "searchsorted" | "bucketize" => Rule::SearchOut,
        "histc" => Rule::HistogramOut,
        "dot" => Rule::ResultDtype,
        "amax" | "amin" => Rule::InputAndOut,
        "masked_select" | "index_select" => Rule::SameScalarType,
        "where" => Rule::OutType,
        "all" | "any" => Rule::BoolResult,
        "signbit" => Rule::Signbit,
        "narrow_copy" => Rule::SelfOutput,
        "complex" => Rule::ObjectOfScalarType,
        "cat" | "concat" | "concatenate" | "stack" => Rule::Concatenation,
        "arange" | "empty" | "eye" | "full" | "linspace" | "ones" | "zeros" | "rand"
        | "randint" | "randn" | "randperm" => Rule::Factory,
        "normal" => return None,
        _ => Rule::Castable,
    })
}

/// The `out=` of a call to a `torch` function that declares one, taken out of the
/// keywords (the op's body computes as if it had not been given); `None` when absent or
/// `None`.
pub fn take(declared: Option<&'static Declaration>, a: &mut Args) -> Option<Dynamic> {
    declared.filter(|d| d.owner == "torch" && d.declares("out"))?;
    if a.kw.get("out").is_none_or(Dynamic::is_unit) {
        return None;
    }
    a.kw.remove("out")
}

/// The tensors of an `out=` value: one tensor, or a tuple (array) of them.
fn out_tensors(out: &Dynamic) -> RhaiResult<Vec<Tensor>> {
    if let Some(t) = out.clone().try_cast::<Tensor>() {
        return Ok(vec![t]);
    }
    if let Some(items) = out.clone().try_cast::<Array>() {
        return items
            .iter()
            .map(|v| {
                v.clone().try_cast::<Tensor>().ok_or_else(|| {
                    to_rhai(TorchError::type_error(
                        "out must be a tuple of Tensors".to_string(),
                    ))
                })
            })
            .collect();
    }
    Err(to_rhai(TorchError::type_error(format!(
        "argument 'out' must be Tensor, not {}",
        crate::ops::convert::py_type_name(out)
    ))))
}

/// Every tensor among a call's arguments (inside lists too: `cat`'s tensors).
fn input_tensors(a: &Args) -> Vec<Tensor> {
    let mut found = Vec::new();
    let mut visit = |v: &Dynamic| {
        if let Some(t) = v.clone().try_cast::<Tensor>() {
            found.push(t);
        } else if let Some(items) = v.clone().try_cast::<Array>() {
            found.extend(items.iter().filter_map(|x| x.clone().try_cast::<Tensor>()));
        }
    };
    a.pos.iter().for_each(&mut visit);
    a.kw.values().for_each(&mut visit);
    found
}

/// An `out=` call, prepared before its op runs: the op's name and dtype rule, the out
/// tensors, and the tensor arguments (for the overlap check after the op).
pub struct OutCall {
    name: &'static str,
    rule: Rule,
    out: Dynamic,
    outs: Vec<Tensor>,
    inputs: Vec<Tensor>,
}

/// What is checked before the op runs: that `out=` is built for the op, that nothing
/// requires grad, and for a factory, its dtype (`out`'s, unless `dtype=` disagrees, set in
/// `a` for the body).
pub fn prepare(name: &'static str, out: Dynamic, a: &mut Args) -> RhaiResult<OutCall> {
    let Some(rule) = rule(name) else {
        return Err(to_rhai(TorchError::not_implemented(format!(
            "tensh does not implement the out= argument of {name}()"
        ))));
    };
    let rule = if name == "matmul" {
        matmul_rule(a)
    } else {
        rule
    };
    if name == "nonzero" && a.kw.get("as_tuple").and_then(|v| v.as_bool().ok()) == Some(true) {
        return Err(to_rhai(TorchError::runtime(
            "nonzero does not support the out kwarg when as_tuple is True",
        )));
    }
    let outs = out_tensors(&out)?;
    let inputs = input_tensors(a);
    if outs.iter().chain(&inputs).any(Tensor::requires_grad) {
        return Err(to_rhai(TorchError::runtime(format!(
            "{name}(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad."
        ))));
    }
    // `multinomial` refuses a non-Long `out` before it draws (so the stream stays put).
    if rule == Rule::LongOut
        && let Some(e) = outs
            .first()
            .and_then(|o| refusal(rule, name, DType::Int64, o.dtype()))
    {
        return Err(to_rhai(e));
    }
    if rule == Rule::Factory
        && let Some(o) = outs.first()
    {
        match a.dtype()? {
            Some(d) if d != o.dtype() => {
                return Err(to_rhai(TorchError::runtime(format!(
                    "dtype {} does not match dtype of out parameter ({})",
                    d.cpp_name(),
                    o.dtype().cpp_name()
                ))));
            }
            Some(_) => {}
            None => {
                a.kw.insert("dtype".into(), Dynamic::from(o.dtype()));
            }
        }
    }
    Ok(OutCall {
        name,
        rule,
        out,
        outs,
        inputs,
    })
}

/// PyTorch's refusal of `out` (dtype `o`) for a result of dtype `r` under `rule`, if any.
fn refusal(rule: Rule, name: &str, r: DType, o: DType) -> Option<TorchError> {
    let runtime = |m: String| Some(TorchError::runtime(m));
    match rule {
        Rule::Any | Rule::Factory => None,
        Rule::Castable if can_cast(r, o) => None,
        Rule::Castable => runtime(format!(
            "result type {} can't be cast to the desired output type {}",
            r.cpp_name(),
            o.cpp_name()
        )),
        Rule::Concatenation if can_cast(r, o) => None,
        Rule::Concatenation => Some(TorchError::type_error(format!(
            "torch.cat(): input types can't be cast to the desired output type {}",
            o.cpp_name()
        ))),
        Rule::BoolResult if o == DType::Bool || o == r => None,
        Rule::BoolResult => runtime(format!(
            "{name} only supports bool tensor for result, got: {}",
            o.cpp_name()
        )),
        Rule::Signbit if o == DType::Bool => None,
        Rule::Signbit => runtime("signbit does not support non-boolean outputs.".into()),
        _ if r == o => None,
        Rule::Found => runtime(format!(
            "Found dtype {} but expected {}",
            o.cpp_name(),
            r.cpp_name()
        )),
        Rule::ExpectedOut => runtime(format!(
            "Expected out tensor to have dtype {}, but got {} instead",
            r.c_type_name(),
            o.c_type_name()
        )),
        Rule::LongOut => runtime(format!(
            "{name} expects Long tensor out, got: {}",
            o.cpp_name()
        )),
        Rule::ResultOfDtype => runtime(format!(
            "Expected result to be of dtype {}, but got {}",
            r.short_name(),
            o.cpp_name()
        )),
        Rule::ResultDtype => runtime(format!(
            "result dtype {} does not match input dtype {}",
            o.cpp_name(),
            r.cpp_name()
        )),
        Rule::InputAndOut => runtime(format!(
            "Expected the dtype for input and out to match, but got {} for input's dtype and {} for out's dtype.",
            r.cpp_name(),
            o.cpp_name()
        )),
        Rule::SameScalarType => runtime(format!(
            "{name}(): self and result must have the same scalar type"
        )),
        Rule::HistogramOut => runtime(format!(
            "torch.histogram: input tensor and hist tensor should have the same dtype, but got input {} and hist {}",
            r.c_type_name(),
            o.c_type_name()
        )),
        Rule::SelfAndOut => runtime(format!(
            "{name}(): self and out expected to have the same dtype, but got self.dtype = {} and out.dtype = {}",
            r.cpp_name(),
            o.cpp_name()
        )),
        Rule::SearchOut => runtime(format!(
            "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) depending on whether out_int32 flag is True, but we got output tensor's dtype {} and out_int32 flag is {}",
            o.cpp_name(),
            if r == DType::Int32 { "True" } else { "False" }
        )),
        Rule::OutType => runtime(format!(
            "Expected out type to be {} but got {}",
            r.cpp_name(),
            o.cpp_name()
        )),
        Rule::SelfOutput => runtime(
            "Expected self.dtype() == output.dtype() to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)"
                .into(),
        ),
        Rule::ObjectOfScalarType => runtime(format!(
            "Expected object of scalar type {} but got scalar type {} for argument 'out'",
            r.cpp_name(),
            o.cpp_name()
        )),
    }
}

/// The rule for `matmul`: a product of two vectors is a `dot`, any other an `mm`.
fn matmul_rule(a: &Args) -> Rule {
    let vectors = a
        .pos
        .iter()
        .take(2)
        .filter_map(|v| v.clone().try_cast::<Tensor>())
        .filter(|t| t.ndim() == 1)
        .count();
    if vectors == 2 {
        Rule::ResultDtype
    } else {
        Rule::ExpectedOut
    }
}

impl OutCall {
    /// Writes the op's `result` into the outs and returns what PyTorch returns: `out`
    /// itself, or a `<kind>_out` named tuple of the outs.
    pub fn write(self, result: Dynamic) -> RhaiResult<Dynamic> {
        let OutCall {
            name,
            rule,
            out,
            outs,
            inputs,
        } = self;
        let (results, tuple) = match result.clone().try_cast::<ReturnTuple>() {
            Some(r) => (
                r.fields
                    .iter()
                    .filter_map(|(_, v)| v.clone().try_cast::<Tensor>())
                    .collect::<Vec<_>>(),
                Some(r),
            ),
            None => (result.try_cast::<Tensor>().into_iter().collect(), None),
        };
        if results.len() != outs.len() {
            return Err(to_rhai(TorchError::type_error(format!(
                "{name}(): argument 'out' must be a tuple of {} Tensors, not {}",
                results.len(),
                outs.len()
            ))));
        }
        for (o, r) in outs.iter().zip(&results) {
            if let Some(e) = refusal(rule, name, r.dtype(), o.dtype()) {
                return Err(to_rhai(e));
            }
        }
        for o in &outs {
            for i in &inputs {
                crate::core::overlap::check_no_partial_overlap(o, i).map_err(to_rhai)?;
            }
        }
        for (o, r) in outs.iter().zip(&results) {
            fit(o, r, rule == Rule::Factory).map_err(to_rhai)?;
            crate::core::copy::copy_(o, r).map_err(to_rhai)?;
            crate::core::tensor::record::count_write(o);
        }
        Ok(match tuple {
            None => out,
            Some(t) => Dynamic::from(ReturnTuple {
                kind: out_kind(t.kind),
                fields: t
                    .fields
                    .iter()
                    .zip(&outs)
                    .map(|((field, _), o)| (*field, Dynamic::from(o.clone())))
                    .collect(),
            }),
        })
    }
}

/// The named tuple type of an op's `out=` form (`max` -> `max_out`).
fn out_kind(kind: &'static str) -> &'static str {
    match kind {
        "max" => "max_out",
        "min" => "min_out",
        "sort" => "sort_out",
        "topk" => "topk_out",
        "kthvalue" => "kthvalue_out",
        "mode" => "mode_out",
        "median" => "median_out",
        "aminmax" => "aminmax_out",
        "frexp" => "frexp_out",
        other => other,
    }
}

/// Gives `o` the result `r`'s shape when it has another: resized (with PyTorch's warning
/// when it held elements, except for factories) and laid out with `r`'s strides when those
/// are dense, as PyTorch lays out a resized output.
fn fit(o: &Tensor, r: &Tensor, factory: bool) -> crate::core::error::Result<()> {
    let sizes = r.sizes();
    if o.sizes() == sizes {
        return Ok(());
    }
    if o.numel() != 0 && !factory {
        crate::ops::warnings::warn(&format!(
            "An output with one or more elements was resized since it had shape {}, which does not match the required output shape {}. This behavior is deprecated, and in a future PyTorch release outputs will not be resized unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).",
            crate::core::layout::fmt_list(&o.sizes()),
            crate::core::layout::fmt_list(&sizes)
        ));
    }
    let rl = r.layout();
    if !rl.is_non_overlapping_and_dense() {
        return crate::core::resize::resize(o, sizes).map(|_| ());
    }
    let layout = Layout {
        sizes: rl.sizes,
        strides: rl.strides,
        offset: o.offset(),
    };
    crate::core::resize::grow_to_fit(&o.storage(), &layout, o.dtype().itemsize())?;
    o.set_layout(layout);
    Ok(())
}
