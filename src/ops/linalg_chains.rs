//! `torch.linalg.multi_dot` and `torch.linalg.vander`, composed of the table's ops as
//! PyTorch composes them: `multi_dot` multiplies the chain in the order of fewest
//! multiply-adds (a first or last vector taken as a row or a column) with `mm`, then views
//! the product in the result's shape (`ViewBackward0`); `vander` is a column of ones
//! joined to the running products of `x` (`CatBackward0` over `CumprodBackward0`).

use std::rc::Rc;

use rhai::Dynamic;

use crate::core::dtype::DType;
use crate::core::error::TorchError;
use crate::core::tensor::Tensor;
use crate::ops::args::Args;
use crate::ops::args::parser_tensor as tensor;
use crate::ops::errors::{RhaiResult, to_rhai, type_error};
use crate::ops::op_table::call_tensor_op as call;
use crate::ops::op_table::{OpTable, TensorOp};

/// Adds `multi_dot` and `vander` to `torch::linalg`.
pub fn add(table: &mut OpTable) {
    let op = |name: &str| table.tensor_op(name);
    let (Some(mm), Some(view), Some(unsqueeze), Some(expand), Some(cumprod)) = (
        op("mm"),
        op("view"),
        op("unsqueeze"),
        op("expand"),
        op("cumprod"),
    ) else {
        return;
    };
    let (Some(cat), Some(ones_like)) = (
        table.function_for_direct("cat", 0),
        table.function_for_direct("ones_like", 0),
    ) else {
        return;
    };
    table.submodule_function(
        "linalg",
        "multi_dot",
        2,
        Rc::new(move |a| multi_dot(&mm, &view, &a)),
    );
    table.submodule_function(
        "linalg",
        "vander",
        2,
        Rc::new(move |a| {
            let x = tensor(&a, 0, "x", "linalg_vander")?;
            if x.dtype() == DType::Bool {
                return Err(to_rhai(TorchError::not_implemented(
                    "linalg.vander supports floating point, complex, and integer tensors, but got Bool",
                )));
            }
            let n = match a.get(1, "N") {
                Some(v) if !v.is_unit() => crate::ops::convert::to_int(v, "N")?,
                _ => x.sizes().last().copied().unwrap_or(1),
            };
            if n <= 1 || x.ndim() == 0 {
                return Err(to_rhai(TorchError::runtime("N must be greater than 1.")));
            }
            let column = call(&unsqueeze, &x, vec![Dynamic::from(-1_i64)])?;
            let mut sizes = column.sizes();
            if let Some(last) = sizes.last_mut() {
                *last = n - 1;
            }
            let spread = call(&expand, &column, vec![Dynamic::from(to_dynamic_list(&sizes))])?;
            let powers = call(&cumprod, &spread, vec![Dynamic::from(-1_i64)])?;
            let ones = ones_like.call(Args::new(smallvec::smallvec![Dynamic::from(column)]))?;
            let parts: rhai::Array = vec![ones, Dynamic::from(powers)];
            cat.call(Args::new(smallvec::smallvec![
                Dynamic::from(parts),
                Dynamic::from(-1_i64)
            ]))
        }),
    );
}

fn to_dynamic_list(values: &[i64]) -> rhai::Array {
    values.iter().map(|&v| Dynamic::from(v)).collect()
}

/// `multi_dot(tensors)`: PyTorch's checks in its order and words, then the product.
fn multi_dot(mm: &TensorOp, view: &TensorOp, a: &Args) -> RhaiResult<Dynamic> {
    let given = a.req(0, "tensors", "linalg_multi_dot")?;
    let items: Vec<Dynamic> = if let Some(list) = given.clone().try_cast::<rhai::Array>() {
        list
    } else {
        return Err(type_error(format!(
            "linalg_multi_dot(): argument 'tensors' (position 1) must be tuple of Tensors, not {}",
            crate::ops::convert::py_type_name(given)
        )));
    };
    let mut tensors = Vec::with_capacity(items.len());
    for (i, v) in items.into_iter().enumerate() {
        match v.try_cast::<Tensor>() {
            Some(t) => tensors.push(t),
            None => {
                return Err(type_error(format!(
                    "linalg_multi_dot(): argument 'tensors' (position 1) must be tuple of Tensors, but found element of type {} at pos {i}",
                    "object"
                )));
            }
        }
    }
    let n = tensors.len();
    let refuse = |m: String| Err(to_rhai(TorchError::runtime(format!("multi_dot(): {m}"))));
    if n < 2 {
        return refuse(format!("expected at least 2 tensors but got {n}"));
    }
    let (first, last) = (&tensors[0], &tensors[n - 1]);
    if !(1..=2).contains(&first.ndim()) {
        return refuse(format!(
            "the first tensor must be 1D or 2D but got {}D",
            first.ndim()
        ));
    }
    for (i, t) in tensors.iter().enumerate().take(n - 1).skip(1) {
        if t.ndim() != 2 {
            return refuse(format!("tensor {i} must be 2D but got {}D", t.ndim()));
        }
    }
    if !(1..=2).contains(&last.ndim()) {
        return refuse(format!(
            "the last tensor must be 1D or 2D but got {}D",
            last.ndim()
        ));
    }
    let dtype = first.dtype();
    for (i, t) in tensors.iter().enumerate().skip(1) {
        if t.dtype() != dtype {
            return refuse(format!(
                "all tensors must have be the same dtype but tensor 0 is {} and tensor {i} {}",
                dtype.c_type_name(),
                t.dtype().c_type_name()
            ));
        }
    }
    // The result's shape: the first matrix's rows and the last one's columns, each only
    // where that end is a matrix.
    let mut out_shape: Vec<i64> = Vec::new();
    if first.ndim() == 2 {
        out_shape.push(first.sizes()[0]);
    }
    if last.ndim() == 2 {
        out_shape.push(last.sizes()[1]);
    }
    let mut matrices = tensors.clone();
    if first.ndim() == 1 {
        matrices[0] = call(view, first, vec![Dynamic::from(to_dynamic_list(&[1, -1]))])?;
    }
    if last.ndim() == 1 {
        matrices[n - 1] = call(view, last, vec![Dynamic::from(to_dynamic_list(&[-1, 1]))])?;
    }
    for i in 0..n - 1 {
        let (l, r) = (matrices[i].sizes(), matrices[i + 1].sizes());
        if l[1] != r[0] {
            return refuse(format!(
                "tensors {i} and {} with shapes {} and {} cannot be multiplied",
                i + 1,
                crate::core::layout::fmt_list(&tensors[i].sizes()),
                crate::core::layout::fmt_list(&tensors[i + 1].sizes())
            ));
        }
    }
    let dims: Vec<i64> = std::iter::once(matrices[0].sizes()[0])
        .chain(matrices.iter().map(|m| m.sizes()[1]))
        .collect();
    let splits = chain_order(&dims);
    let product = multiply(mm, &matrices, &splits, 0, n - 1)?;
    call(
        view,
        &product,
        vec![Dynamic::from(to_dynamic_list(&out_shape))],
    )
    .map(Dynamic::from)
}

/// The matrix-chain order of fewest multiply-adds for matrices of `dims[i] × dims[i+1]`,
/// as `linalg.multi_dot` (and `chain_matmul`, which is it) picks it: `split[i][j]` is where
/// the product of `i..=j` splits, the first split of least cost; but three matrices are
/// `(a b) c` unless `a (b c)` costs strictly less (checked with the oracle on ties).
pub fn chain_order(dims: &[i64]) -> Vec<Vec<usize>> {
    let n = dims.len() - 1;
    let mut cost = vec![vec![0_i64; n]; n];
    let mut split = vec![vec![0_usize; n]; n];
    for len in 1..n {
        for i in 0..n - len {
            let j = i + len;
            cost[i][j] = i64::MAX;
            for k in i..j {
                let c = cost[i][k].saturating_add(cost[k + 1][j]).saturating_add(
                    dims[i]
                        .saturating_mul(dims[k + 1])
                        .saturating_mul(dims[j + 1]),
                );
                if c < cost[i][j] {
                    cost[i][j] = c;
                    split[i][j] = k;
                }
            }
        }
    }
    if n == 3 {
        let m = |x: i64, y: i64, z: i64| x.saturating_mul(y).saturating_mul(z);
        let left = m(dims[0], dims[1], dims[2]).saturating_add(m(dims[0], dims[2], dims[3]));
        let right = m(dims[1], dims[2], dims[3]).saturating_add(m(dims[0], dims[1], dims[3]));
        split[0][2] = if left <= right { 1 } else { 0 };
    }
    split
}

/// The product of `matrices[i..=j]` in the order `split` gives.
fn multiply(
    mm: &TensorOp,
    matrices: &[Tensor],
    split: &[Vec<usize>],
    i: usize,
    j: usize,
) -> RhaiResult<Tensor> {
    if i == j {
        return Ok(matrices[i].clone());
    }
    let k = split[i][j];
    let left = multiply(mm, matrices, split, i, k)?;
    let right = multiply(mm, matrices, split, k + 1, j)?;
    call(mm, &left, vec![Dynamic::from(right)])
}
