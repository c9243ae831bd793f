//! Dropout on PyTorch's random stream: `torch.dropout`, `torch.feature_dropout`,
//! `torch.alpha_dropout`, `torch.feature_alpha_dropout` (and their in-place forms), and
//! `torch.nn.functional`'s `dropout`, `dropout1d`, `dropout2d`, `dropout3d`,
//! `alpha_dropout` and `feature_alpha_dropout` over them.
//!
//! On the CPU, ATen composes dropout of ordinary ops, so it is composed here of the table's
//! own (the same nodes, dtype refusals and random draws): a noise tensor shaped like the
//! input (or `[N, C, 1, ...]` for feature dropout) filled by `bernoulli_(1 - p)`, divided
//! by `1 - p`, times the input. Alpha dropout scales the noise by
//! `a = 1 / sqrt((alpha² p + 1)(1 - p))` and adds `b = (noise - 1) alpha a + alpha a p`,
//! keeping a self-normalizing input's mean and variance. With `p` 0, `train` false or no
//! elements the input itself is returned; with `p` 1, the input times a zero.

use std::rc::Rc;

use rhai::Dynamic;

use super::{Functions, call, tensor};
use crate::core::creation;
use crate::core::error::TorchError;
use crate::core::memory_format::MemoryFormat;
use crate::core::tensor::Tensor;
use crate::ops::args::Args;
use crate::ops::convert::py_type_name;
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai, type_error};
use crate::ops::op_table::TensorOp;

/// SELU's `alpha` (`scale * alpha` of `selu`), which alpha dropout keeps the statistics of.
const SELU_ALPHA: f64 = 1.7580993408473766;

/// Which dropout: whole features (`[N, C, 1, ...]` noise) or elements, alpha or plain.
#[derive(Clone, Copy)]
struct Kind {
    feature: bool,
    alpha: bool,
}

impl Kind {
    /// The `torch` function's name (`feature_alpha_dropout`), with `_` when in place.
    fn name(self, in_place: bool) -> String {
        let base = match (self.feature, self.alpha) {
            (false, false) => "dropout",
            (true, false) => "feature_dropout",
            (false, true) => "alpha_dropout",
            (true, true) => "feature_alpha_dropout",
        };
        if in_place {
            format!("{base}_")
        } else {
            base.to_string()
        }
    }
}

/// The table's ops dropout is made of.
struct Parts {
    bernoulli_: TensorOp,
    div_: TensorOp,
    mul: TensorOp,
    mul_: TensorOp,
    add: TensorOp,
    add_: TensorOp,
    unsqueeze: TensorOp,
    unsqueeze_: TensorOp,
    squeeze: TensorOp,
    squeeze_: TensorOp,
}

impl Parts {
    /// `x * y` (`x.mul_(y)` in place).
    fn multiply(&self, x: &Tensor, y: Tensor, in_place: bool) -> RhaiResult<Tensor> {
        let op = if in_place { &self.mul_ } else { &self.mul };
        call(op, x, vec![Dynamic::from(y)])
    }

    /// ATen's dropout of `x` with probability `p`: see the module's text.
    fn dropout(
        &self,
        x: &Tensor,
        p: f64,
        train: bool,
        kind: Kind,
        in_place: bool,
    ) -> RhaiResult<Tensor> {
        if !(0.0..=1.0).contains(&p) {
            return Err(to_rhai(TorchError::runtime(format!(
                "dropout probability has to be between 0 and 1, but got {}",
                crate::core::cpp_format::stream_double(p)
            ))));
        }
        if p == 0.0 || !train || x.numel() == 0 {
            return Ok(x.clone());
        }
        if p == 1.0 {
            let zero = Tensor::zeros(vec![], x.dtype()).rhai()?;
            return self.multiply(x, zero, in_place);
        }
        let noise = if kind.feature {
            if x.ndim() < 2 {
                return Err(to_rhai(TorchError::runtime(
                    "Feature dropout requires at least 2 dimensions in the input",
                )));
            }
            let mut sizes = vec![1; x.ndim()];
            sizes[0] = x.sizes()[0];
            sizes[1] = x.sizes()[1];
            Tensor::zeros(sizes, x.dtype().to_real()).rhai()?
        } else {
            // Laid out as `empty_like` lays it out; a complex input's noise is real
            // (`bernoulli_` has no complex kernel): one draw an element, as for a real one.
            let l = MemoryFormat::Preserve.layout_from(&x.layout()).rhai()?;
            creation::empty_strided(&l.sizes, &l.strides, x.dtype().to_real()).rhai()?
        };
        let keep = Dynamic::from(1.0 - p);
        call(&self.bernoulli_, &noise, vec![keep.clone()])?;
        if !kind.alpha {
            call(&self.div_, &noise, vec![keep])?;
            return self.multiply(x, noise, in_place);
        }
        let a = 1.0 / ((SELU_ALPHA * SELU_ALPHA * p + 1.0) * (1.0 - p)).sqrt();
        let shifted = call(&self.add, &noise, vec![Dynamic::from(-1_i64)])?;
        call(&self.mul_, &shifted, vec![Dynamic::from(SELU_ALPHA * a)])?;
        call(
            &self.add_,
            &shifted,
            vec![Dynamic::from(SELU_ALPHA * a * p)],
        )?;
        call(&self.mul_, &noise, vec![Dynamic::from(a)])?;
        let scaled = self.multiply(x, noise, in_place)?;
        call(&self.add_, &scaled, vec![Dynamic::from(shifted)])
    }
}

/// `p < 0.0 or p > 1.0` as `torch.nn.functional` checks it, in Python's words: `p` as a
/// number, or the `TypeError` the comparison raises.
fn python_probability(a: &Args) -> RhaiResult<f64> {
    // `None` given is compared too (`a.get`, which marks `p` read, takes it for not given).
    let _ = a.get(1, "p");
    let Some(v) = a.pos.get(1).or_else(|| a.kw.get("p")) else {
        return Ok(0.5);
    };
    let p = match crate::ops::convert::as_scalar(v) {
        Some(s) if !matches!(s, crate::core::scalar::Scalar::Complex(_)) => s.to_f64(),
        _ => {
            return Err(type_error(format!(
                "'<' not supported between instances of '{}' and 'float'",
                py_type_name(v)
            )));
        }
    };
    // Python's two comparisons (`p < 0.0 or p > 1.0`): a NaN passes both, and the C++
    // check refuses it after.
    if !p.is_nan() && !(0.0..=1.0).contains(&p) {
        let shown = if v.is_int() || v.is_bool() {
            v.to_string()
                .replace("true", "True")
                .replace("false", "False")
        } else {
            crate::print::number::float_repr(p)
        };
        return Err(to_rhai(TorchError::value(format!(
            "dropout probability has to be between 0 and 1, but got {shown}"
        ))));
    }
    Ok(p)
}

/// The flag at `i` (or keyword `name`) as the `torch` functions' parser takes it: a bool,
/// named `shown` in its refusal (`training=` reaches their `train`).
fn flag(
    a: &Args,
    i: usize,
    name: &str,
    shown: &str,
    func: &str,
    default: bool,
) -> RhaiResult<bool> {
    match a.get(i, name) {
        None => Ok(default),
        Some(v) => v.as_bool().map_err(|_| {
            type_error(format!(
                "{func}(): argument '{shown}' (position {}) must be bool, not {}",
                i + 1,
                py_type_name(v)
            ))
        }),
    }
}

/// The dims an `Nd` form expects: its spatial dims, and whether other dims are an error
/// (else a deprecation warning); `None`: any dims.
type Dims = Option<(usize, bool)>;

/// The `torch.nn.functional` form: `kind`, with the dims check of the `Nd` variants
/// (`batched` the input's dims with a batch; `None`: any) and a missing batch dim added for
/// the call and taken away after, as PyTorch's Python functions do.
fn functional(parts: &Parts, a: &Args, name: &str, kind: Kind, dims: Dims) -> RhaiResult<Dynamic> {
    let p = python_probability(a)?;
    let in_place = flag(a, 3, "inplace", "inplace", name, false)?;
    let x = tensor(a, 0, "input", &kind.name(in_place))?;
    // The alpha forms leave training off unless asked, the others on.
    let train = flag(a, 2, "training", "train", &kind.name(in_place), !kind.alpha)?;
    let mut unbatched = false;
    if let Some((spatial, strict)) = dims {
        let (plain, batched) = (spatial + 1, spatial + 2);
        let n = x.ndim();
        if n != plain && n != batched {
            if strict {
                return Err(to_rhai(TorchError::runtime(format!(
                    "{name}: Expected {plain}D or {batched}D input, but received a {n}D input. \
                     Note that {name} exists to provide channel-wise dropout on inputs with \
                     {spatial} spatial dimension, a channel dimension, and an optional batch \
                     dimension (i.e. {plain}D or {batched}D inputs)."
                ))));
            }
            crate::ops::warnings::warn(&format!(
                "{name}: Received a {n}-D input to {name}, which is deprecated and will result \
                 in an error in a future release. To retain the behavior and silence this \
                 warning, please use dropout instead. Note that {name} exists to provide \
                 channel-wise dropout on inputs with {spatial} spatial dimensions, a channel \
                 dimension, and an optional batch dimension (i.e. {plain}D or {batched}D \
                 inputs)."
            ));
        }
        // dropout2d takes a 3-d input as batched 1-d features (PyTorch's legacy).
        unbatched = n != batched && name != "dropout2d";
        if name == "dropout2d" && n == 3 {
            crate::ops::warnings::warn(
                "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise \
                 1D dropout behavior is desired - input is interpreted as shape (N, C, L), \
                 where C is the channel dim. This behavior will change in a future release to \
                 interpret the input as one without a batch dimension, i.e. shape (C, H, W). \
                 To maintain the 1D channel-wise dropout behavior, please switch to using \
                 dropout1d instead.",
            );
        }
    }
    let zero = || vec![Dynamic::from(0_i64)];
    let input = match (unbatched, in_place) {
        (false, _) => x,
        (true, false) => call(&parts.unsqueeze, &x, zero())?,
        (true, true) => call(&parts.unsqueeze_, &x, zero())?,
    };
    let out = parts.dropout(&input, p, train, kind, in_place)?;
    Ok(Dynamic::from(match (unbatched, in_place) {
        (false, _) => out,
        (true, false) => call(&parts.squeeze, &out, zero())?,
        (true, true) => call(&parts.squeeze_, &out, zero())?,
    }))
}

/// Adds the `torch` functions and the `torch.nn.functional` ones.
pub fn add_all(f: &mut Functions) {
    let parts = Rc::new(Parts {
        bernoulli_: f.op("bernoulli_"),
        div_: f.op("div_"),
        mul: f.op("mul"),
        mul_: f.op("mul_"),
        add: f.op("add"),
        add_: f.op("add_"),
        unsqueeze: f.op("unsqueeze"),
        unsqueeze_: f.op("unsqueeze_"),
        squeeze: f.op("squeeze"),
        squeeze_: f.op("squeeze_"),
    });
    for feature in [false, true] {
        for alpha in [false, true] {
            let kind = Kind { feature, alpha };
            for in_place in [false, true] {
                let name = kind.name(in_place);
                let parts = parts.clone();
                f.ops.function(
                    &name.clone(),
                    3,
                    Rc::new(move |a: Args| {
                        let x = tensor(&a, 0, "input", &name)?;
                        let p = crate::ops::convert::to_float(a.req(1, "p", &name)?, "p")?;
                        let train = flag(&a, 2, "train", "train", &name, true)?;
                        Ok(Dynamic::from(parts.dropout(&x, p, train, kind, in_place)?))
                    }),
                );
            }
        }
    }
    let kind = |feature, alpha| Kind { feature, alpha };
    let forms: [(&str, Kind, Dims); 6] = [
        ("dropout", kind(false, false), None),
        ("dropout1d", kind(true, false), Some((1, true))),
        ("dropout2d", kind(true, false), Some((2, false))),
        ("dropout3d", kind(true, false), Some((3, false))),
        ("alpha_dropout", kind(false, true), None),
        ("feature_alpha_dropout", kind(true, true), None),
    ];
    for (name, kind, dims) in forms {
        let parts = parts.clone();
        f.add(
            name,
            4,
            Rc::new(move |a| functional(&parts, &a, name, kind, dims)),
        );
    }
}
