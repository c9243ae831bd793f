//! `torch.nn.functional`'s `embedding` (rows of a weight picked by index, recorded as
//! `EmbeddingBackward0`), `pad` (PyTorch's checks, then `constant_pad_nd` for the constant
//! mode), and the functions that are `torch`'s own under the same name
//! (`F.cosine_similarity is torch.cosine_similarity` in PyTorch).

use std::rc::Rc;

use rhai::Dynamic;

use super::{Functions, number, tensor};
use crate::core::dtype::DType;
use crate::core::error::TorchError;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::detached;
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai, type_error};

/// The `torch.nn.functional` names that are the `torch` function of the same name.
const SAME_AS_TORCH: &[&str] = &["cosine_similarity", "pairwise_distance", "pdist"];

/// Adds `embedding`, `pad` and the functions `torch` has under the same name.
pub fn add_all(f: &mut Functions) {
    for &name in SAME_AS_TORCH {
        if let Some(target) = f.ops.function_for_direct(name, 0) {
            let max = target.arity();
            f.add(name, max, Rc::new(move |a| target.call(a)));
        }
    }
    f.add("embedding", 7, Rc::new(embedding));
    if let Some(constant_pad) = f.ops.function_for_direct("constant_pad_nd", 0) {
        f.add(
            "pad",
            4,
            Rc::new(move |a| {
                let x = tensor(&a, 0, "input", "pad")?;
                let pad = a.req(1, "pad", "pad")?.clone();
                let count = crate::ops::convert::to_int_list(&pad, "pad")?.len();
                if count % 2 != 0 {
                    return Err(to_rhai(TorchError::runtime(
                        "Padding length must be divisible by 2",
                    )));
                }
                if count / 2 > x.ndim() {
                    return Err(to_rhai(TorchError::runtime(format!(
                        "Padding length should be less than or equal to two times the input \
                         dimension but got padding length {count} and input of dimension {}",
                        x.ndim()
                    ))));
                }
                let mode = match a.get(2, "mode") {
                    None => "constant".to_string(),
                    Some(v) => v.clone().into_string().map_err(|_| {
                        type_error("pad(): argument 'mode' (position 3) must be str")
                    })?,
                };
                match mode.as_str() {
                    "constant" => {
                        let value = match a.get(3, "value") {
                            Some(v) if !v.is_unit() => number(&a, 3, "value", "pad", 0.0)?,
                            _ => 0.0,
                        };
                        let args = crate::ops::args::Args::new(smallvec::smallvec![
                            Dynamic::from(x),
                            pad,
                            Dynamic::from(value),
                        ]);
                        constant_pad.call(args)
                    }
                    "reflect" | "replicate" | "circular" => {
                        Err(to_rhai(TorchError::not_implemented(format!(
                            "tensh's F.pad pads with mode='constant' only yet (mode='{mode}' \
                             is not built)"
                        ))))
                    }
                    other => Err(to_rhai(TorchError::not_implemented(format!(
                        "Unrecognised padding mode {other}"
                    )))),
                }
            }),
        );
    }
}

/// `F.embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
/// scale_grad_by_freq=False, sparse=False)`: `weight`'s rows at `input`'s indices, shaped
/// `input.shape + (weight.size(1),)`. Its gradient adds each output row into the row of
/// `weight` it came from (none into `padding_idx`'s; divided by how often each index
/// occurs with `scale_grad_by_freq`).
fn embedding(a: crate::ops::args::Args) -> RhaiResult<Dynamic> {
    let input = tensor(&a, 0, "input", "embedding")?;
    let weight = tensor(&a, 1, "weight", "embedding")?;
    let rows = weight.sizes().first().copied().unwrap_or(0);
    // The Python function's own check and wrap of `padding_idx` (an assertion).
    let padding = match a.get(2, "padding_idx") {
        Some(v) if !v.is_unit() => {
            let p = crate::ops::convert::to_int(v, "padding_idx")?;
            if (p > 0 && p >= rows) || (p < 0 && p < -rows) {
                return Err(to_rhai(TorchError::new(
                    crate::core::error::ErrorKind::Assertion,
                    "Padding_idx must be within num_embeddings",
                )));
            }
            if p < 0 { rows + p } else { p }
        }
        _ => -1,
    };
    if a.get(3, "max_norm").is_some_and(|v| !v.is_unit()) {
        return Err(to_rhai(TorchError::not_implemented(
            "tensh's F.embedding does not take max_norm yet (it renormalizes the weight's rows \
             in place)",
        )));
    }
    let by_frequency = match a.get(5, "scale_grad_by_freq") {
        Some(v) => v
            .as_bool()
            .map_err(|_| type_error("embedding(): argument 'scale_grad_by_freq' must be bool"))?,
        None => false,
    };
    if a.get(6, "sparse").is_some_and(|v| v.as_bool() == Ok(true)) {
        return Err(to_rhai(TorchError::not_implemented(
            "tensh leaves sparse gradients out (F.embedding with sparse=True)",
        )));
    }
    if weight.ndim() != 2 {
        return Err(to_rhai(TorchError::runtime("'weight' must be 2-D")));
    }
    if !matches!(input.dtype(), DType::Int64 | DType::Int32) {
        return Err(to_rhai(TorchError::runtime(format!(
            "Expected tensor for argument #1 'indices' to have one of the following scalar \
             types: Long, Int; but got {} instead (while checking arguments for embedding)",
            input.dtype().legacy_type_name()
        ))));
    }
    let flat = crate::core::views::reshape(&input, &[-1]).rhai()?;
    let picked = crate::core::selection::index_select(&detached(&weight), 0, &flat).rhai()?;
    let mut sizes = input.sizes();
    sizes.push(weight.sizes()[1]);
    let out = crate::core::views::reshape(&picked, &sizes).rhai()?;
    // A new tensor, not a view of the picked rows (PyTorch's output has no `_base`).
    let out = detached(&out);
    if crate::core::tensor::grad_mode::is_enabled()
        && weight.requires_grad()
        && (weight.dtype().is_floating_point() || weight.dtype().is_complex())
    {
        let indices = crate::core::engine::gather_rows::index_values(&flat).rhai()?;
        let (shape, dtype) = (weight.sizes(), weight.dtype());
        crate::core::tensor::record::record_formula(
            &out,
            "EmbeddingBackward0",
            &[&weight],
            &[],
            move |g| {
                Ok(vec![Some(embedding_grad(
                    g,
                    &indices,
                    &shape,
                    dtype,
                    padding,
                    by_frequency,
                )?)])
            },
        );
    }
    Ok(Dynamic::from(out))
}

/// The weight's gradient: output row `i` (of `g` seen as rows of the weight's width) added
/// into row `indices[i]`, in index order, skipping `padding`; each divided by its index's
/// count when `by_frequency`.
fn embedding_grad(
    g: &Tensor,
    indices: &[i64],
    shape: &[i64],
    dtype: DType,
    padding: i64,
    by_frequency: bool,
) -> crate::core::error::Result<Tensor> {
    use crate::core::ops::{Arg, BinaryOp, binary_untracked};
    use crate::core::scalar::Scalar;
    let width = shape[1];
    let rows = crate::core::views::reshape(g, &[-1, width])?;
    let mut kept: Vec<i64> = Vec::new();
    let mut picked: Vec<i64> = Vec::new();
    for (i, &index) in indices.iter().enumerate() {
        if index != padding {
            kept.push(index);
            picked.push(i as i64);
        }
    }
    let index_of = |values: &[i64]| {
        let scalars: Vec<Scalar> = values.iter().map(|&v| Scalar::Int(v)).collect();
        crate::core::creation::from_scalars(&scalars, vec![values.len() as i64], DType::Int64)
    };
    let mut source = crate::core::selection::index_select(&rows, 0, &index_of(&picked)?)?;
    if by_frequency {
        let mut counts = std::collections::HashMap::new();
        for &k in &kept {
            *counts.entry(k).or_insert(0_i64) += 1;
        }
        let scale: Vec<Scalar> = kept
            .iter()
            .map(|k| Scalar::Float(1.0 / counts[k] as f64))
            .collect();
        let scale = crate::core::creation::from_scalars(
            &scale,
            vec![kept.len() as i64, 1],
            source.dtype(),
        )?;
        source = binary_untracked(BinaryOp::Mul, &Arg::Tensor(source), &Arg::Tensor(scale))?;
    }
    let zeros = Tensor::zeros(shape.to_vec(), g.dtype())?;
    let summed = crate::core::index_ops::index_add(
        &zeros,
        0,
        &index_of(&kept)?,
        &source,
        crate::core::scalar::Scalar::Int(1),
    )?;
    crate::core::autograd::cast_grad(&summed, dtype)
}
