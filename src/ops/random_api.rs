//! Random numbers in scripts: `torch::manual_seed`, `rand`, `randn`, `randint`, `randperm`,
//! `bernoulli`, `normal`, the `*_like` forms, and the in-place `uniform_`, `normal_`,
//! `random_`.

use rhai::Dynamic;

use super::args::Args;
use super::convert::{to_float, to_int, to_int_list};
use super::errors::{IntoRhai, RhaiResult, to_rhai, type_error};
use super::registry::Registry;
use crate::core::broadcast::broadcast_shapes;
use crate::core::copy;
use crate::core::defaults::default_dtype;
use crate::core::dtype::DType;
use crate::core::error::TorchError;
use crate::core::operand::{Arg, BinaryOp};
use crate::core::random::generator::{manual_seed, with_global};
use crate::core::random::ops;
use crate::core::scalar::Scalar;
use crate::core::tensor::Tensor;
use crate::core::tensor::graph::BackwardOp;
use crate::core::tensor::record::record_in_place;

fn new_tensor(sizes: &[i64], dtype: DType) -> RhaiResult<Tensor> {
    Tensor::zeros(sizes.to_vec(), dtype).rhai()
}

use super::torch_module::finish;

/// The `dtype=` of a factory of floating random values (the default dtype when none is
/// given): a floating or complex dtype, else PyTorch's error naming the kernel.
fn float_dtype(a: &Args, func: &str) -> RhaiResult<DType> {
    let d = a.dtype()?.unwrap_or_else(default_dtype);
    if !d.is_floating_point() && !d.is_complex() {
        return Err(to_rhai(TorchError::not_implemented(format!(
            "\"{func}\" not implemented for '{}'",
            d.cpp_name()
        ))));
    }
    Ok(d)
}

/// `torch.normal(mean, std)` with a tensor for either (a missing `std` is 1): standard
/// normal draws in the broadcast shape, then `z * std + mean`, as PyTorch computes them
/// (so the same seed gives the same values). The dtype is the tensor's (`mean`'s first).
fn normal_of_tensors(a: &Args) -> RhaiResult<Dynamic> {
    let part = |i: usize, name: &str, default: Option<f64>| -> RhaiResult<Arg> {
        match (a.get(i, name), default) {
            (Some(v), _) if v.is::<Tensor>() => Ok(Arg::Tensor(v.clone().cast::<Tensor>())),
            (Some(v), _) => Ok(Arg::Number(Scalar::Float(to_float(v, name)?))),
            (None, Some(d)) => Ok(Arg::Number(Scalar::Float(d))),
            (None, None) => Err(type_error("normal() missing required argument 'std'")),
        }
    };
    let mean = part(0, "mean", None)?;
    let std = part(1, "std", Some(1.0))?;
    let dtype = match (&mean, &std) {
        (Arg::Tensor(t), _) | (_, Arg::Tensor(t)) => t.dtype(),
        _ => default_dtype(),
    };
    if !dtype.is_floating_point() {
        return Err(to_rhai(TorchError::not_implemented(format!(
            "\"normal_kernel_cpu\" not implemented for '{}'",
            dtype.cpp_name()
        ))));
    }
    match &std {
        Arg::Number(s) if s.to_f64() < 0.0 => {
            return Err(to_rhai(TorchError::runtime(format!(
                "normal expects std >= 0.0, but found std {}",
                crate::core::cpp_format::stream_double(s.to_f64())
            ))));
        }
        Arg::Tensor(t) if copy::to_scalars(t).rhai()?.iter().any(|v| v.to_f64() < 0.0) => {
            return Err(to_rhai(TorchError::runtime(
                "normal expects all elements of std >= 0.0",
            )));
        }
        _ => {}
    }
    let shape = broadcast_shapes(&operand_shape(&mean), &operand_shape(&std)).rhai()?;
    let z = new_tensor(&shape, dtype)?;
    ops::normal_(&z, 0.0, 1.0).rhai()?;
    let scaled = crate::core::ops::binary_untracked(BinaryOp::Mul, &Arg::Tensor(z), &std).rhai()?;
    let out =
        crate::core::ops::binary_untracked(BinaryOp::Add, &Arg::Tensor(scaled), &mean).rhai()?;
    finish(out, a)
}

/// The shape of a tensor argument; a number has none.
fn operand_shape(x: &Arg) -> Vec<i64> {
    match x {
        Arg::Tensor(t) => t.sizes(),
        Arg::Number(_) => vec![],
    }
}

/// `randint(high, size)` / `randint(low, high, size)`.
fn randint(a: &Args, like: Option<&Tensor>) -> RhaiResult<Dynamic> {
    let pos: Vec<&Dynamic> = a.pos.iter().collect();
    let (low, high, sizes) = match (like, pos.as_slice()) {
        (Some(t), [high]) => (0, to_int(high, "high")?, t.sizes()),
        (Some(t), [low, high]) => (to_int(low, "low")?, to_int(high, "high")?, t.sizes()),
        (None, [high, size]) => (0, to_int(high, "high")?, to_int_list(size, "size")?),
        (None, [low, high, size]) => (
            to_int(low, "low")?,
            to_int(high, "high")?,
            to_int_list(size, "size")?,
        ),
        (None, [high]) if a.kw("size").is_some() => (
            0,
            to_int(high, "high")?,
            to_int_list(a.kw("size").unwrap_or(&Dynamic::UNIT), "size")?,
        ),
        _ => {
            return Err(super::errors::type_error(
                "randint() received an invalid combination of arguments",
            ));
        }
    };
    let dtype = a
        .dtype()?
        .or(like.map(|t| t.dtype()))
        .unwrap_or(DType::Int64);
    let t = match like {
        Some(x) => super::torch_module::empty_like("randint_like", x, a)?,
        None => new_tensor(&sizes, dtype)?,
    };
    ops::random_from_to_(&t, low, high).rhai()?;
    finish(t, a)
}

/// Checks `generator=`: a `torch.Generator` (which the call draws from, see
/// `random_generator`) or `None`.
fn check_generator(a: &Args) -> RhaiResult<()> {
    match a.kw("generator") {
        Some(g) if !g.is::<super::generator_object::GeneratorObject>() => {
            Err(crate::ops::errors::type_error(format!(
                "generator must be a torch.Generator, not {}",
                crate::ops::convert::py_type_name(g)
            )))
        }
        _ => Ok(()),
    }
}

/// Registers the random functions and methods.
pub fn register(r: &mut Registry) {
    r.function("manual_seed", 1, |a| {
        let seed = a.int(0, "seed", "manual_seed")?;
        manual_seed(seed as u64);
        // PyTorch returns the default generator; Rhai's prompt would echo it after every
        // `torch::manual_seed(0);`, so Rhai's returns nothing and the Python front returns
        // `torch.default_generator` (`python::interp::call`).
        Ok(Dynamic::UNIT)
    });
    r.function("get_rng_state", 0, |_| {
        let bytes = crate::core::random::generator::get_state();
        let n = bytes.len() as i64;
        let t = Tensor::from_parts(
            crate::core::memory::storage::Storage::from_vec(bytes),
            DType::UInt8,
            crate::core::layout::Layout::contiguous(vec![n]),
        );
        Ok(Dynamic::from(t))
    });
    r.function("set_rng_state", 1, |a| {
        let t = a.tensor(0, "new_state", "set_rng_state")?;
        if t.dtype() != DType::UInt8 {
            return Err(super::errors::type_error(format!(
                "expected a torch.ByteTensor, but got {}",
                crate::core::views::legacy_type_prefix(&t) + "Tensor"
            )));
        }
        let bytes = crate::core::copy::to_contiguous_bytes(&t).rhai()?;
        if !crate::core::random::generator::set_state(&bytes) {
            return Err(to_rhai(TorchError::runtime(format!(
                "Expected a CPUGeneratorImplState of size 5056 but found the input RNG state size to be {}",
                bytes.len()
            ))));
        }
        Ok(Dynamic::UNIT)
    });
    r.function("initial_seed", 0, |_| {
        Ok(Dynamic::from(with_global(|g| g.initial_seed()) as i64))
    });
    r.function("seed", 0, |_| {
        let fresh = crate::core::random::generator::Generator::from_clock();
        let seed = fresh.initial_seed();
        crate::core::random::generator::with_global(|g| *g = fresh);
        Ok(Dynamic::from(seed as i64))
    });
    r.function("rand", 8, |a| {
        let t = new_tensor(&a.sizes("size")?, float_dtype(&a, "check_uniform_bounds")?)?;
        ops::uniform_(&t, 0.0, 1.0).rhai()?;
        finish(t, &a)
    });
    r.function("randn", 8, |a| {
        let t = new_tensor(&a.sizes("size")?, float_dtype(&a, "normal_kernel_cpu")?)?;
        ops::normal_(&t, 0.0, 1.0).rhai()?;
        finish(t, &a)
    });
    r.function("randint", 3, |a| randint(&a, None));
    r.function("randperm", 1, |a| {
        let n = a.int(0, "n", "randperm")?;
        finish(
            ops::randperm(n, a.dtype()?.unwrap_or(DType::Int64)).rhai()?,
            &a,
        )
    });
    r.method_and_function("bernoulli", 1, |x, a| {
        check_generator(&a)?;
        match a.get(0, "p") {
            // `bernoulli(input, p)`: a tensor like `input`, filled as `bernoulli_(p)`.
            Some(p) => {
                let out = Tensor::zeros(x.sizes(), x.dtype()).rhai()?;
                ops::bernoulli_scalar_(&out, to_float(p, "p")?).rhai()?;
                Ok(Dynamic::from(out))
            }
            None => Ok(Dynamic::from(ops::bernoulli(x).rhai()?)),
        }
    });
    r.method("bernoulli_", 1, |x, a| {
        check_generator(&a)?;
        let node = match a.get(0, "p") {
            Some(p) if p.is::<Tensor>() => {
                let p = p.clone().cast::<Tensor>();
                ops::bernoulli_tensor_(x, &p).rhai()?;
                "BernoulliBackward1"
            }
            p => {
                let p = p.map(|v| to_float(v, "p")).transpose()?.unwrap_or(0.5);
                ops::bernoulli_scalar_(x, p).rhai()?;
                "BernoulliBackward2"
            }
        };
        record_in_place(x, node, &[], BackwardOp::Overwritten);
        Ok(Dynamic::from(x.clone()))
    });
    r.function("normal", 3, |a| {
        let tensor_at = |i: usize, name: &str| a.get(i, name).is_some_and(|v| v.is::<Tensor>());
        if tensor_at(0, "mean") || tensor_at(1, "std") {
            return normal_of_tensors(&a);
        }
        let mean = to_float(a.req(0, "mean", "normal")?, "mean")?;
        let std = to_float(a.req(1, "std", "normal")?, "std")?;
        let size = to_int_list(a.req(2, "size", "normal")?, "size")?;
        let t = new_tensor(&size, float_dtype(&a, "normal_kernel_cpu")?)?;
        ops::normal_(&t, mean, std).rhai()?;
        finish(t, &a)
    });
    r.function("rand_like", 1, |a| {
        let x = a.tensor(0, "input", "rand_like")?;
        let t = super::torch_module::empty_like("rand_like", &x, &a)?;
        ops::uniform_(&t, 0.0, 1.0).rhai()?;
        finish(t, &a)
    });
    r.function("randn_like", 1, |a| {
        let x = a.tensor(0, "input", "randn_like")?;
        let t = super::torch_module::empty_like("randn_like", &x, &a)?;
        ops::normal_(&t, 0.0, 1.0).rhai()?;
        finish(t, &a)
    });
    r.function("randint_like", 3, |mut a| {
        let x = super::convert::to_tensor(&a.pos.remove(0), "input")?;
        randint(&a, Some(&x))
    });
    r.method("uniform_", 2, |x, a| {
        let from = a
            .get(0, "from")
            .map(|v| to_float(v, "from"))
            .transpose()?
            .unwrap_or(0.0);
        let to = a
            .get(1, "to")
            .map(|v| to_float(v, "to"))
            .transpose()?
            .unwrap_or(1.0);
        ops::uniform_(x, from, to).rhai()?;
        record_in_place(x, "UniformBackward0", &[], BackwardOp::Overwritten);
        Ok(Dynamic::from(x.clone()))
    });
    r.method("normal_", 2, |x, a| {
        let mean = a
            .get(0, "mean")
            .map(|v| to_float(v, "mean"))
            .transpose()?
            .unwrap_or(0.0);
        let std = a
            .get(1, "std")
            .map(|v| to_float(v, "std"))
            .transpose()?
            .unwrap_or(1.0);
        ops::normal_(x, mean, std).rhai()?;
        record_in_place(x, "NormalBackward0", &[], BackwardOp::Overwritten);
        Ok(Dynamic::from(x.clone()))
    });
    // The fills of one uniform double per element, each with its two parameters.
    type Fill = fn(&Tensor, f64, f64) -> crate::core::error::Result<()>;
    // Each: the method, its two parameters with defaults (NaN: required), the fill, the node.
    type FillEntry = (&'static str, [(&'static str, f64); 2], Fill, &'static str);
    let fills: [FillEntry; 4] = [
        (
            "exponential_",
            [("lambd", 1.0), ("", 0.0)],
            |t, l, _| crate::core::random::fills::exponential_(t, l),
            "ExponentialBackward0",
        ),
        (
            "cauchy_",
            [("median", 0.0), ("sigma", 1.0)],
            crate::core::random::fills::cauchy_,
            "CauchyBackward0",
        ),
        (
            "log_normal_",
            [("mean", 1.0), ("std", 2.0)],
            crate::core::random::fills::log_normal_,
            "LogNormalBackward0",
        ),
        (
            "geometric_",
            [("p", f64::NAN), ("", 0.0)],
            |t, p, _| crate::core::random::fills::geometric_(t, p),
            "GeometricBackward0",
        ),
    ];
    for (name, params, fill, node) in fills {
        r.method(name, 2, move |x, a| {
            let mut values = [0.0; 2];
            for (i, (param, default)) in params.into_iter().enumerate() {
                values[i] = match a.get(i, param).filter(|_| !param.is_empty()) {
                    Some(v) => to_float(v, param)?,
                    None if default.is_nan() => to_float(a.req(i, param, name)?, param)?,
                    None => default,
                };
            }
            fill(x, values[0], values[1]).rhai()?;
            record_in_place(x, node, &[], BackwardOp::Overwritten);
            Ok(Dynamic::from(x.clone()))
        });
    }
    r.function("binomial", 2, |a| {
        let count = a.tensor(0, "count", "binomial")?;
        let prob = a.tensor(1, "prob", "binomial")?;
        let out = crate::core::random::binomial::binomial(&count, &prob).rhai()?;
        crate::core::tensor::record::record_not_differentiable(&out, "binomial", &[&count, &prob]);
        Ok(Dynamic::from(out))
    });
    r.function("poisson", 1, |a| {
        let rates = a.tensor(0, "input", "poisson")?;
        let out = crate::core::random::poisson::poisson(&rates).rhai()?;
        // The draws do not depend on the rates smoothly: their gradient is zero.
        crate::core::autograd::tracked::single(&out, "PoissonBackward0", &rates, |g, _| {
            Tensor::zeros(g.sizes(), g.dtype())
        });
        Ok(Dynamic::from(out))
    });
    r.method_and_function("multinomial", 2, |x, a| {
        let n = a.int(0, "num_samples", "multinomial")?;
        let replacement = a.bool_or(1, "replacement", false)?;
        let out = crate::core::random::multinomial::multinomial(x, n, replacement).rhai()?;
        Ok(Dynamic::from(out))
    });
    r.method("random_", 2, |x, a| {
        let (low, high, node) = match (a.opt_int(0, "from")?, a.opt_int(1, "to")?) {
            (Some(high), None) => (0, high, "RandomBackward1"),
            (Some(low), Some(high)) => (low, high, "RandomBackward0"),
            (None, _) => {
                crate::core::random::fills::random_full_(x).rhai()?;
                record_in_place(x, "RandomBackward2", &[], BackwardOp::Overwritten);
                return Ok(Dynamic::from(x.clone()));
            }
        };
        ops::random_from_to_(x, low, high).rhai()?;
        record_in_place(x, node, &[], BackwardOp::Overwritten);
        Ok(Dynamic::from(x.clone()))
    });
}
