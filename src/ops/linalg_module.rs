//! The `torch::linalg` module's functions that are not decompositions, as op-table paths
//! both fronts call: `vector_norm`, `matrix_norm` (Frobenius, 1 and infinity norms),
//! `norm`, `vecdot`, `matmul`, `diagonal`, `cross`, `matrix_power` (n ≥ 0). Each is
//! composed of the table's ops as ATen composes it, so values and autograd nodes are
//! PyTorch's (`vector_norm` is `LinalgVectorNormBackward0`, the 1-norm of a matrix an
//! `amax` of column sums). The norms that need a singular value decomposition (`'nuc'`,
//! ±2) and negative matrix powers (an inverse) are refused in words: the decompositions
//! are out of tensh's scope (`docs/api-coverage.md`).

use std::rc::Rc;

use rhai::{Dynamic, Map};

use crate::core::error::TorchError;
use crate::core::tensor::Tensor;
use crate::ops::args::Args;
use crate::ops::args::parser_tensor as tensor;
use crate::ops::convert::{py_type_name, to_int, to_int_list};
use crate::ops::errors::{IntoRhai, RhaiResult, to_rhai, type_error};
use crate::ops::op_table::call_tensor_op as call;
use crate::ops::op_table::{OpTable, TensorOp};
use crate::ops::registration::Function;

/// The table's entries the module is composed of.
#[derive(Clone)]
struct Ops {
    norm: Rc<Function>,
    sum: TensorOp,
    abs: TensorOp,
    amax: TensorOp,
    amin: TensorOp,
    mul: TensorOp,
    conj: TensorOp,
}

/// The norm's order: a number (`inf` included) or a string (`'fro'`, `'nuc'`).
enum Order {
    Number(f64),
    Text(String),
}

fn order(v: Option<&Dynamic>) -> RhaiResult<Option<Order>> {
    let Some(v) = v else {
        return Ok(None);
    };
    if let Ok(text) = v.clone().into_string() {
        return Ok(Some(Order::Text(text)));
    }
    match crate::ops::convert::as_scalar(v) {
        Some(s) => Ok(Some(Order::Number(s.to_f64()))),
        None => Err(type_error(format!(
            "argument 'ord' must be Number, not {}",
            py_type_name(v)
        ))),
    }
}

/// `dim=` as a list of ints (an int is one dim), `None` when not given.
fn dims(v: Option<&Dynamic>) -> RhaiResult<Option<Vec<i64>>> {
    match v {
        None => Ok(None),
        Some(v) if v.is_array() => to_int_list(v, "dim").map(Some),
        Some(v) => Ok(Some(vec![to_int(v, "dim")?])),
    }
}

/// `vector_norm(x, ord, dim, keepdim, dtype)` through `torch.norm`'s entry (PyTorch's
/// `torch.norm` is `linalg.vector_norm` for these).
fn vector_norm(
    ops: &Ops,
    x: &Tensor,
    ord: f64,
    dim: Option<Vec<i64>>,
    keepdim: bool,
    dtype: Option<Dynamic>,
) -> RhaiResult<Dynamic> {
    if !(x.dtype().is_floating_point() || x.dtype().is_complex()) {
        return Err(to_rhai(TorchError::not_implemented(format!(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}",
            x.dtype().cpp_name()
        ))));
    }
    let mut kw = Map::new();
    kw.insert("p".into(), Dynamic::from(ord));
    if let Some(dim) = dim {
        let list: rhai::Array = dim.into_iter().map(Dynamic::from).collect();
        kw.insert("dim".into(), Dynamic::from(list));
    }
    kw.insert("keepdim".into(), Dynamic::from(keepdim));
    if let Some(dtype) = dtype {
        kw.insert("dtype".into(), dtype);
    }
    let mut pos = crate::ops::args::Positionals::new();
    pos.push(Dynamic::from(x.clone()));
    ops.norm.call(Args::with_keywords(pos, kw))
}

/// `matrix_norm(A, ord, dim=(-2, -1), keepdim)`: Frobenius as a vector norm of the two
/// dims; 1 and infinity norms as ATen composes them (an extreme of absolute sums).
fn matrix_norm(
    ops: &Ops,
    x: &Tensor,
    ord: Order,
    dim: Option<Vec<i64>>,
    keepdim: bool,
    dtype: Option<Dynamic>,
) -> RhaiResult<Dynamic> {
    if x.ndim() < 2 {
        return Err(to_rhai(TorchError::runtime(
            "linalg.matrix_norm: The input tensor A must have at least 2 dimensions.",
        )));
    }
    let dim = dim.unwrap_or_else(|| vec![-2, -1]);
    let ndim = x.ndim();
    let wrapped: Vec<usize> = dim
        .iter()
        .map(|&d| crate::core::error::wrap_dim(d, ndim))
        .collect::<crate::core::error::Result<_>>()
        .rhai()?;
    if wrapped.len() != 2 || wrapped[0] == wrapped[1] {
        return Err(to_rhai(TorchError::runtime(format!(
            "linalg.matrix_norm: dims must be different. Got ({}, {})",
            dim.first().copied().unwrap_or(0),
            dim.get(1).copied().unwrap_or(0)
        ))));
    }
    match ord {
        Order::Text(t) if t == "fro" => vector_norm(ops, x, 2.0, Some(dim), keepdim, dtype),
        Order::Text(t) if t == "nuc" => Err(to_rhai(TorchError::not_implemented(
            "tensh does not build linalg.matrix_norm(ord='nuc'): it needs a singular value decomposition",
        ))),
        Order::Text(t) => Err(to_rhai(TorchError::runtime(format!(
            "linalg.matrix_norm: Order {t} not supported."
        )))),
        Order::Number(n) if n.abs() == 2.0 => Err(to_rhai(TorchError::not_implemented(format!(
            "tensh does not build linalg.matrix_norm(ord={}): it needs a singular value decomposition",
            crate::core::cpp_format::stream_double(n)
        )))),
        Order::Number(n) if n.abs() == 1.0 || n.is_infinite() => {
            // Column sums then their extreme (1), or row sums (infinity).
            let (mut first, mut second) = (wrapped[0], wrapped[1]);
            if n.is_infinite() {
                std::mem::swap(&mut first, &mut second);
            }
            if !keepdim && first < second {
                second -= 1;
            }
            let magnitude = call(&ops.abs, x, vec![])?;
            let sums = call(
                &ops.sum,
                &magnitude,
                vec![Dynamic::from(first as i64), Dynamic::from(keepdim)],
            )?;
            let extreme = if n > 0.0 { &ops.amax } else { &ops.amin };
            let out = call(
                extreme,
                &sums,
                vec![Dynamic::from(second as i64), Dynamic::from(keepdim)],
            )?;
            Ok(Dynamic::from(out))
        }
        Order::Number(n) => Err(to_rhai(TorchError::runtime(format!(
            "linalg.matrix_norm: Order {} not supported.",
            crate::core::cpp_format::stream_double(n)
        )))),
    }
}

/// A norm's `(input, ord, dim, keepdim, dtype)`.
type NormArguments = (
    Tensor,
    Option<Order>,
    Option<Vec<i64>>,
    bool,
    Option<Dynamic>,
);

/// Reads `(input, ord, dim, keepdim, *, dtype)`.
fn norm_arguments(a: &Args, func: &str) -> RhaiResult<NormArguments> {
    let x = tensor(a, 0, "input", func)?;
    let ord = order(a.get(1, "ord"))?;
    let dim = dims(a.get(2, "dim"))?;
    let keepdim = a.bool_or(3, "keepdim", false)?;
    let dtype = a.kw("dtype").cloned();
    if a.kw("out").is_some() {
        return Err(to_rhai(TorchError::not_implemented(format!(
            "tensh's {func} does not take out= yet"
        ))));
    }
    Ok((x, ord, dim, keepdim, dtype))
}

/// Adds the `torch::linalg` sub-module's functions to `table`.
pub fn add_linalg(table: &mut OpTable) {
    super::linalg_chains::add(table);
    let op = |name: &str| table.tensor_op(name);
    let (Some(norm), Some(sum), Some(abs), Some(amax), Some(amin), Some(mul), Some(conj)) = (
        table.function_for_direct("norm", 0),
        op("sum"),
        op("abs"),
        op("amax"),
        op("amin"),
        op("mul"),
        op("conj"),
    ) else {
        return;
    };
    let ops = Ops {
        norm,
        sum,
        abs,
        amax,
        amin,
        mul,
        conj,
    };
    let add = |table: &mut OpTable,
               name: &str,
               max: usize,
               body: crate::ops::registration::FunctionBody| {
        table.submodule_function("linalg", name, max, body);
    };
    let o = ops.clone();
    add(
        table,
        "vector_norm",
        6,
        Rc::new(move |a| {
            let (x, ord, dim, keepdim, dtype) = norm_arguments(&a, "linalg_vector_norm")?;
            let ord = match ord {
                None => 2.0,
                Some(Order::Number(n)) => n,
                Some(Order::Text(_)) => {
                    return Err(type_error(
                        "linalg_vector_norm(): argument 'ord' (position 2) must be Number, not str",
                    ));
                }
            };
            vector_norm(&o, &x, ord, dim, keepdim, dtype)
        }),
    );
    let o = ops.clone();
    add(
        table,
        "matrix_norm",
        6,
        Rc::new(move |a| {
            let (x, ord, dim, keepdim, dtype) = norm_arguments(&a, "linalg_matrix_norm")?;
            let ord = ord.unwrap_or(Order::Text("fro".into()));
            matrix_norm(&o, &x, ord, dim, keepdim, dtype)
        }),
    );
    let o = ops.clone();
    add(
        table,
        "norm",
        6,
        Rc::new(move |a| {
            let (x, ord, dim, keepdim, dtype) = norm_arguments(&a, "linalg_norm")?;
            let matrix = match (&dim, &ord) {
                (Some(d), _) => d.len() == 2,
                (None, Some(_)) => x.ndim() == 2,
                (None, None) => false,
            };
            match ord {
                Some(ord) if matrix => matrix_norm(&o, &x, ord, dim, keepdim, dtype),
                None if matrix => {
                    matrix_norm(&o, &x, Order::Text("fro".into()), dim, keepdim, dtype)
                }
                Some(Order::Number(n)) => vector_norm(&o, &x, n, dim, keepdim, dtype),
                Some(Order::Text(t)) => Err(to_rhai(TorchError::runtime(format!(
                    "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {t}"
                )))),
                None => vector_norm(&o, &x, 2.0, dim, keepdim, dtype),
            }
        }),
    );
    let o = ops.clone();
    add(
        table,
        "vecdot",
        3,
        Rc::new(move |a| {
            let x = tensor(&a, 0, "x", "linalg_vecdot")?;
            let y = tensor(&a, 1, "y", "linalg_vecdot")?;
            let dim = match a.kw("dim") {
                Some(v) => to_int(v, "dim")?,
                None => -1,
            };
            if x.dtype() != y.dtype() {
                return Err(to_rhai(TorchError::runtime(format!(
                    "linalg.vecdot: Expected x and y to have the same dtype, but found x of type {} and y of type {} instead",
                    x.dtype().cpp_name(),
                    y.dtype().cpp_name()
                ))));
            }
            let x = if x.dtype().is_complex() {
                call(&o.conj, &x, vec![])?
            } else {
                x
            };
            let product = call(&o.mul, &x, vec![Dynamic::from(y)])?;
            Ok(Dynamic::from(call(
                &o.sum,
                &product,
                vec![Dynamic::from(dim)],
            )?))
        }),
    );
    // The functions that are `torch` functions with other defaults or keyword-only
    // parameters.
    let forwarded: [(&str, &str, usize); 4] = [
        ("matmul", "matmul", 2),
        ("diagonal", "diagonal", 4),
        ("cross", "cross", 3),
        ("matrix_power", "matrix_power", 2),
    ];
    for (name, of, max) in forwarded {
        let Some(target) = table.function_for_direct(of, 0) else {
            continue;
        };
        add(
            table,
            name,
            max,
            Rc::new(move |mut a| {
                match name {
                    "diagonal" => {
                        // `linalg.diagonal(A, *, offset=0, dim1=-2, dim2=-1)`.
                        for (key, default) in [("offset", 0_i64), ("dim1", -2), ("dim2", -1)] {
                            if !a.kw.contains_key(key) {
                                a.kw.insert(key.into(), Dynamic::from(default));
                            }
                        }
                        if let Some(v) = a.kw.remove("A") {
                            a.kw.insert("input".into(), v);
                        }
                    }
                    "cross" if !a.kw.contains_key("dim") => {
                        a.kw.insert("dim".into(), Dynamic::from(-1_i64));
                    }
                    "matrix_power" => {
                        let x = tensor(&a, 0, "input", "linalg_matrix_power")?;
                        let sizes = x.sizes();
                        let n = sizes.len();
                        if n < 2 || sizes[n - 1] != sizes[n - 2] {
                            return Err(to_rhai(TorchError::runtime(format!(
                                "linalg.matrix_power: A must be batches of square matrices, but they are {} by {} matrices",
                                sizes.get(n.wrapping_sub(2)).copied().unwrap_or(0),
                                sizes.last().copied().unwrap_or(0)
                            ))));
                        }
                        if let Some(power) = a.get(1, "n")
                            && to_int(power, "n")? < 0
                        {
                            return Err(to_rhai(TorchError::not_implemented(
                                "tensh does not build negative matrix powers: they need a matrix inverse",
                            )));
                        }
                    }
                    _ => {}
                }
                target.call(a)
            }),
        );
    }
}
