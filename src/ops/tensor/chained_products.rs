//! Products built on `matmul`: `cross` (three-component vectors along a dim),
//! `matrix_power` (repeated squaring, as PyTorch multiplies), `chain_matmul` (the cheapest
//! order of a chain, as `linalg.multi_dot` picks it) and `tensordot` (contracted dims
//! folded into one matrix product), `einsum` (`core::einsum`); and `logcumsumexp`
//! (`core::log_scan`).

use rhai::{Array, Dynamic};

use crate::core::autograd::{cast_grad, sum_to};
use crate::core::error::{Result, TorchError, wrap_dim};
use crate::core::linalg::matmul;
use crate::core::ops::{Arg, BinaryOp, binary_untracked as binary};
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::detached;
use crate::core::tensor::record::record_formula;
use crate::core::views;
use crate::ops::args::Args;
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai};
use crate::ops::registry::Registry;
use crate::ops::warnings::warn_once;

/// `a × b` along `d` of two tensors of one broadcast shape (untracked).
fn cross_along(a: &Tensor, b: &Tensor, d: i64) -> Result<Tensor> {
    let part = |t: &Tensor, i: i64| views::select(t, d, i).map(Arg::Tensor);
    let term = |i: i64, j: i64| -> Result<Tensor> {
        let first = binary(BinaryOp::Mul, &part(a, i)?, &part(b, j)?)?;
        let second = binary(BinaryOp::Mul, &part(a, j)?, &part(b, i)?)?;
        binary(BinaryOp::Sub, &Arg::Tensor(first), &Arg::Tensor(second))
    };
    let parts = [term(1, 2)?, term(2, 0)?, term(0, 1)?];
    crate::core::join::stack(&parts, d)
}

/// `torch.cross(input, other, dim=None)`: broadcast, same dtype, a dim of length 3 (the
/// first one of the broadcast shape when `dim` is not given, with PyTorch's warning).
fn cross(x: &Tensor, a: &Args) -> RhaiResult<Dynamic> {
    let other = a.tensor(0, "other", "cross")?;
    if other.dtype() != x.dtype() {
        return Err(to_rhai(TorchError::runtime(format!(
            "expected scalar type {} but found {}",
            x.dtype().cpp_name(),
            other.dtype().cpp_name()
        ))));
    }
    if x.dtype() == crate::core::dtype::DType::Bool {
        return Err(to_rhai(crate::core::unbuilt_kernels::not_built(
            "cross",
            x.dtype(),
        )));
    }
    let shape = views::broadcast_shapes(&x.sizes(), &other.sizes()).rhai()?;
    let (xa, xb) = (
        views::expand(&detached(x), &shape).rhai()?,
        views::expand(&detached(&other), &shape).rhai()?,
    );
    let d = match a.opt_int(1, "dim")? {
        Some(d) => {
            if shape.is_empty() {
                return Err(to_rhai(TorchError::index(format!(
                    "Dimension specified as {d} but tensor has no dimensions"
                ))));
            }
            let w = wrap_dim(d, shape.len()).rhai()?;
            if shape[w] != 3 {
                return Err(to_rhai(TorchError::runtime(format!(
                    "linalg.cross: inputs dimension {w} must have length 3. Got {} and {}",
                    x.sizes().get(w).copied().unwrap_or(1),
                    other.sizes().get(w).copied().unwrap_or(1)
                ))));
            }
            w
        }
        None => {
            warn_once(
                "cross_without_dim",
                "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree with that of linalg.cross in a future release.",
            );
            shape
                .iter()
                .position(|&s| s == 3)
                .ok_or_else(|| to_rhai(TorchError::runtime("no dimension of size 3 in input")))?
        }
    } as i64;
    let out = cross_along(&xa, &xb, d).rhai()?;
    if x.requires_grad() || other.requires_grad() {
        let (sa, sb) = (detached(x), detached(&other));
        record_formula(
            &out,
            "LinalgCrossBackward0",
            &[x, &other],
            &[x, &other],
            move |g| {
                let ga = cross_along(&xb, g, d)?;
                let gb = cross_along(g, &xa, d)?;
                Ok(vec![
                    Some(cast_grad(&sum_to(&ga, &sa.sizes())?, sa.dtype())?),
                    Some(cast_grad(&sum_to(&gb, &sb.sizes())?, sb.dtype())?),
                ])
            },
        );
    }
    Ok(Dynamic::from(out))
}

/// `x.matrix_power(n)` for `n ≥ 0`: the identity, `x` itself, or products by repeated
/// squaring in PyTorch's order (tracked, so gradients flow through the products).
fn matrix_power(x: &Tensor, n: i64) -> Result<Tensor> {
    if x.ndim() < 2 {
        return Err(TorchError::runtime(
            "linalg.matrix_power: The input tensor A must have at least 2 dimensions.",
        ));
    }
    let s = x.sizes();
    let (rows, cols) = (s[s.len() - 2], s[s.len() - 1]);
    if rows != cols {
        return Err(TorchError::runtime(format!(
            "linalg.matrix_power: A must be batches of square matrices, but they are {rows} by {cols} matrices"
        )));
    }
    if n < 0 {
        return Err(TorchError::not_implemented(
            "tensh does not implement matrix_power with a negative exponent: it needs the matrix inverse (torch.linalg's decompositions are outside tensh's model)",
        ));
    }
    if n == 0 {
        let eye = crate::core::creation::eye(rows, rows, x.dtype())?;
        return crate::core::copy::contiguous_copy(&views::expand(&eye, &s)?);
    }
    if n == 1 {
        return crate::core::copy::clone_tensor(x);
    }
    let (mut n, mut z, mut result): (i64, Option<Tensor>, Option<Tensor>) = (n, None, None);
    while n > 0 {
        let bit = n % 2;
        n /= 2;
        let next = match &z {
            Some(z) => matmul(z, z)?,
            None => x.clone(),
        };
        if bit == 1 {
            result = Some(match &result {
                Some(r) => matmul(r, &next)?,
                None => next.clone(),
            });
        }
        z = Some(next);
    }
    result.ok_or_else(|| TorchError::runtime("matrix_power: no product"))
}

/// The order `linalg.multi_dot` multiplies a chain of matrices in (fewest scalar
/// multiplications; ties keep the earlier split), applied with tracked products.
fn multiply_chain(ms: &[Tensor]) -> Result<Tensor> {
    let n = ms.len();
    let dims: Vec<i64> = std::iter::once(ms[0].sizes()[0])
        .chain(ms.iter().map(|m| m.sizes()[1]))
        .collect();
    let split = crate::ops::linalg_chains::chain_order(&dims);
    fn product(ms: &[Tensor], split: &[Vec<usize>], i: usize, j: usize) -> Result<Tensor> {
        if i == j {
            return Ok(ms[i].clone());
        }
        let k = split[i][j];
        matmul(&product(ms, split, i, k)?, &product(ms, split, k + 1, j)?)
    }
    product(ms, &split, 0, n - 1)
}

/// `torch.chain_matmul(*matrices)`.
fn chain_matmul(a: &Args) -> RhaiResult<Dynamic> {
    warn_once(
        "chain_matmul_deprecated",
        "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than multiple parameters.",
    );
    // Every argument is checked to be a tensor before any is used.
    if let Some((i, v)) = a.pos.iter().enumerate().find(|(_, v)| !v.is::<Tensor>()) {
        return Err(to_rhai(TorchError::type_error(format!(
            "expected Tensor as element {i} in argument 0, but got {}",
            crate::ops::convert::py_type_name(v)
        ))));
    }
    let mut ms = Vec::new();
    for v in a.pos.iter() {
        let m = v.clone().cast::<Tensor>();
        if m.ndim() != 2 {
            return Err(to_rhai(TorchError::runtime(format!(
                "Tensor dimension is {}, expected 2 instead.",
                m.ndim()
            ))));
        }
        ms.push(m);
    }
    if ms.is_empty() {
        return Err(to_rhai(TorchError::runtime(
            "chain_matmul(): Expected one or more matrices",
        )));
    }
    if ms.len() == 1 {
        return Ok(Dynamic::from(
            crate::core::copy::clone_tensor(&ms[0]).rhai()?,
        ));
    }
    for (i, pair) in ms.windows(2).enumerate() {
        let (l, r) = (pair[0].sizes(), pair[1].sizes());
        if l[1] != r[0] {
            return Err(to_rhai(TorchError::runtime(format!(
                "multi_dot(): tensors {i} and {} with shapes {l:?} and {r:?} cannot be multiplied",
                i + 1
            ))));
        }
    }
    Ok(Dynamic::from(multiply_chain(&ms).rhai()?))
}

/// A list of dims from an int or a list (`tensordot`'s `dims` pairs).
fn dim_list(v: &Dynamic, position: usize) -> RhaiResult<Vec<i64>> {
    if v.is_int() {
        return Err(to_rhai(TorchError::type_error(format!(
            "tensordot(): argument '{}' (position {}) must be tuple of ints, not int",
            if position == 3 {
                "dims_self"
            } else {
                "dims_other"
            },
            position
        ))));
    }
    crate::ops::convert::to_int_list(v, "dims")
}

/// `torch.tensordot(a, b, dims=2)`: `dims` an int (the last of `a` with the first of `b`),
/// a pair of lists, or a 0-d tensor.
fn tensordot(a: &Args) -> RhaiResult<Dynamic> {
    let x = a.tensor(0, "a", "tensordot")?;
    let y = a.tensor(1, "b", "tensordot")?;
    let dims = a.get(2, "dims").cloned().unwrap_or(Dynamic::from(2_i64));
    let dims = match dims.clone().try_cast::<Tensor>() {
        Some(t) if t.ndim() == 0 => {
            crate::ops::convert::scalar_to_dynamic(crate::core::copy::to_scalars(&t).rhai()?[0])
        }
        _ => dims,
    };
    let (da, db): (Vec<i64>, Vec<i64>) = if let Ok(n) = dims.as_int() {
        if n < 0 {
            return Err(to_rhai(TorchError::runtime(format!(
                "tensordot expects dims >= 0, but got dims={n}"
            ))));
        }
        if n as usize > x.ndim() || n as usize > y.ndim() {
            return Err(to_rhai(TorchError::runtime(format!(
                "tensordot expects dims < ndim_a or ndim_b, but got dims={n}"
            ))));
        }
        let na = x.ndim() as i64;
        ((na - n..na).collect(), (0..n).collect())
    } else {
        let pair = dims.clone().try_cast::<Array>().unwrap_or_default();
        if pair.len() != 2 {
            return Err(to_rhai(TorchError::runtime(
                "tensordot expects dims to be a pair of lists",
            )));
        }
        (dim_list(&pair[0], 3)?, dim_list(&pair[1], 4)?)
    };
    Ok(Dynamic::from(contract(&x, &y, &da, &db).rhai()?))
}

/// `tensordot` of `x` and `y` over `da` (of `x`) paired with `db` (of `y`).
fn contract(x: &Tensor, y: &Tensor, da: &[i64], db: &[i64]) -> Result<Tensor> {
    if da.len() != db.len() {
        return Err(TorchError::runtime(format!(
            "both dimension lists should have same length, but got {} and {}",
            da.len(),
            db.len()
        )));
    }
    if x.dtype() != y.dtype() {
        return Err(TorchError::runtime("both inputs should have same dtype"));
    }
    let (sa, sb) = (x.sizes(), y.sizes());
    let mut ca = Vec::new();
    let mut cb = Vec::new();
    for (&i, &j) in da.iter().zip(db) {
        let (wi, wj) = (wrap_dim(i, x.ndim())?, wrap_dim(j, y.ndim())?);
        if sa[wi] != sb[wj] {
            return Err(TorchError::runtime(format!(
                "contracted dimensions need to match, but first has size {} in dim {wi} and second has size {} in dim {wj}",
                sa[wi], sb[wj]
            )));
        }
        ca.push(wi);
        cb.push(wj);
    }
    let free_a: Vec<usize> = (0..x.ndim()).filter(|d| !ca.contains(d)).collect();
    let free_b: Vec<usize> = (0..y.ndim()).filter(|d| !cb.contains(d)).collect();
    let k: i64 = ca.iter().map(|&d| sa[d]).product();
    let m: i64 = free_a.iter().map(|&d| sa[d]).product();
    let n: i64 = free_b.iter().map(|&d| sb[d]).product();
    let order_a: Vec<i64> = free_a.iter().chain(&ca).map(|&d| d as i64).collect();
    let order_b: Vec<i64> = cb.iter().chain(&free_b).map(|&d| d as i64).collect();
    let left = views::reshape(&views::permute(x, &order_a)?, &[m, k])?;
    let right = views::reshape(&views::permute(y, &order_b)?, &[k, n])?;
    let product = matmul(&left, &right)?;
    let shape: Vec<i64> = free_a
        .iter()
        .map(|&d| sa[d])
        .chain(free_b.iter().map(|&d| sb[d]))
        .collect();
    views::reshape(&product, &shape)
}

/// `torch.einsum(equation, *operands)` (the operands may also come as one list, nested).
fn einsum(a: &Args) -> RhaiResult<Dynamic> {
    let first = a.req(0, "equation", "einsum")?;
    let equation = first.clone().into_string().map_err(|_| {
        to_rhai(TorchError::type_error(format!(
            "einsum(): argument 'equation' (position 1) must be str, not {}",
            crate::ops::convert::py_type_name(first)
        )))
    })?;
    // PyTorch's wrapper unwraps a lone list or tuple of operands, as often as it is nested,
    // then its parser wants every operand a tensor.
    let mut items: Vec<Dynamic> = a.pos[1..].to_vec();
    while let [one] = items.as_slice()
        && one.is_array()
    {
        items = one.clone().try_cast::<Array>().unwrap_or_default();
    }
    let mut operands = Vec::with_capacity(items.len());
    for (i, v) in items.iter().enumerate() {
        operands.push(v.clone().try_cast::<Tensor>().ok_or_else(|| {
            to_rhai(TorchError::type_error(format!(
                "expected Tensor as element {i} in argument 1, but got {}",
                crate::ops::convert::py_type_name(v)
            )))
        })?);
    }
    Ok(Dynamic::from(
        crate::core::einsum::einsum(&equation, &operands).rhai()?,
    ))
}

/// Registers the chained products and `logcumsumexp`.
pub fn register(r: &mut Registry) {
    r.function("einsum", 8, |a| einsum(&a));
    r.method_and_function("cross", 2, |x, a| cross(x, &a));
    r.method_and_function("matrix_power", 1, |x, a| {
        let n = a.int(0, "n", "matrix_power")?;
        Ok(Dynamic::from(matrix_power(x, n).rhai()?))
    });
    r.function("chain_matmul", 8, |a| chain_matmul(&a));
    r.function("tensordot", 3, |a| tensordot(&a));
    r.method_and_function("logcumsumexp", 1, |x, a| {
        let dim = a.int(0, "dim", "logcumsumexp")?;
        let out = crate::core::log_scan::logcumsumexp(x, dim).rhai()?;
        crate::core::autograd::tracked::single_with_output(
            &out,
            "LogcumsumexpBackward0",
            x,
            move |g, x, out| {
                crate::core::autograd::reduction_grads::logcumsumexp_grad(g, x, out, dim)
            },
        );
        Ok(Dynamic::from(out))
    });
}
