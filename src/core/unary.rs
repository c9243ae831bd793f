//! The functions of one argument (`unary_math`) applied to tensors: values laid out in
//! the input's stride order, `round(decimals=)`, and the factor a gradient is multiplied
//! by, computed at backward time from the tensor the formula saved.

use super::creation::from_scalars;
use super::dtype::DType;
use super::error::{Result, TorchError};
use super::ops::{Arg, cast, values};
use super::scalar::Scalar;
use super::tensor::Tensor;

pub use super::unary_math::Unary;
use super::unary_math::{real_factor_in, real_value};

/// `f(t)` elementwise, laid out in `t`'s stride order as PyTorch's unary kernels are.
pub fn unary(t: &Tensor, f: Unary) -> Result<Tensor> {
    let d = t.dtype();
    let out = f.result_dtype(d)?;
    let sizes = t.sizes();
    // Read in the output dtype, except complex inputs (`abs` reads complex, gives real).
    let read = if d.is_complex() { d } else { out };
    let xs = values(&Arg::Tensor(t.clone()), &sizes, read)?;
    let integral = !out.is_floating_point() && !out.is_complex();
    let ys: Vec<Scalar> = xs
        .into_iter()
        .map(|x| {
            let y = match x {
                Scalar::Complex(z) if f == Unary::Abs => Scalar::Float(z.norm()),
                Scalar::Complex(z) => Scalar::Complex(f.complex(z)),
                v if integral => {
                    let i = f.integer(v.to_i64());
                    if out == DType::Bool {
                        Scalar::Bool(i != 0)
                    } else {
                        Scalar::Int(i)
                    }
                }
                v => Scalar::Float(real_value(f, v.to_f64(), out)),
            };
            cast(out, y)
        })
        .collect();
    let result = from_scalars(&ys, sizes, out)?;
    super::result_layout::in_inputs_order(result, &[t])
}

/// The factor the output's gradient is multiplied by, computed at backward time from the
/// tensor `f`'s formula reads (`saved`: the output when `reads_output()` says so, else
/// the input), in `saved`'s dtype. `None`: tensh has no formula (`sgn` of complex).
pub fn gradient_factor(f: Unary, saved: &Tensor) -> Result<Option<Tensor>> {
    let d = saved.dtype();
    let vs = super::copy::to_scalars(saved)?;
    let mut factors = Vec::with_capacity(vs.len());
    for v in vs {
        factors.push(match v {
            Scalar::Complex(z) => match f.complex_factor(z, z) {
                Some(c) => Scalar::Complex(c),
                None => return Ok(None),
            },
            v => Scalar::Float(real_factor_in(f, v.to_f64(), d)),
        });
    }
    Ok(Some(from_scalars(&factors, saved.sizes(), d)?))
}

/// `t.round(decimals=n)`: each step (scale, round half to even, unscale) rounded to
/// `t`'s dtype, as PyTorch computes it; integer dtypes are refused (even for `n == 0`,
/// in PyTorch's words for each case).
pub fn round_decimals(t: &Tensor, decimals: i64) -> Result<Tensor> {
    let d = t.dtype();
    if !d.is_floating_point() {
        let kernel = if decimals == 0 {
            "round_vml_cpu"
        } else {
            "round_cpu"
        };
        return Err(TorchError::not_implemented(format!(
            "\"{kernel}\" not implemented for '{}'",
            d.cpp_name()
        )));
    }
    let ten = cast(
        d,
        Scalar::Float(10f64.powi(decimals.unsigned_abs().min(400) as i32)),
    )
    .to_f64();
    let xs = values(&Arg::Tensor(t.clone()), &t.sizes(), d)?;
    let ys: Vec<Scalar> = xs
        .into_iter()
        .map(|x| {
            let x = x.to_f64();
            let step = |v: f64| cast(d, Scalar::Float(v)).to_f64();
            Scalar::Float(if decimals >= 0 {
                step(step(x * ten).round_ties_even() / ten)
            } else {
                step(step(x / ten).round_ties_even() * ten)
            })
        })
        .collect();
    let out = from_scalars(&ys, t.sizes(), d)?;
    super::result_layout::in_inputs_order(out, &[t])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(values: &[f64], f: Unary) -> Vec<f64> {
        let t = from_scalars(
            &values.iter().map(|&v| Scalar::Float(v)).collect::<Vec<_>>(),
            vec![values.len() as i64],
            DType::Float64,
        )
        .unwrap();
        let out = unary(&t, f).unwrap();
        super::super::copy::to_scalars(&out)
            .unwrap()
            .iter()
            .map(|s| s.to_f64())
            .collect()
    }

    #[test]
    fn rounding_is_half_to_even_and_frac_keeps_the_sign() {
        assert_eq!(run(&[0.5, 1.5, -2.5], Unary::Round), vec![0.0, 2.0, -2.0]);
        assert_eq!(run(&[-1.25, 2.75], Unary::Frac), vec![-0.25, 0.75]);
        assert_eq!(run(&[-3.0, 0.0, 2.0], Unary::Sign), vec![-1.0, 0.0, 1.0]);
    }

    #[test]
    fn dtype_rules_follow_pytorch() {
        assert_eq!(
            Unary::Exp.result_dtype(DType::Int64).unwrap(),
            crate::core::defaults::default_dtype()
        );
        assert_eq!(
            Unary::Floor.result_dtype(DType::Int64).unwrap(),
            DType::Int64
        );
        assert_eq!(
            Unary::Square.result_dtype(DType::Bool).unwrap(),
            DType::Int64
        );
        assert!(Unary::Frac.result_dtype(DType::Int64).is_err());
        assert!(Unary::Sign.result_dtype(DType::Complex64).is_err());
        assert_eq!(Unary::Sgn.result_dtype(DType::Bool).unwrap(), DType::Bool);
    }

    #[test]
    fn every_function_has_its_name_and_node() {
        for (name, f) in Unary::ALL {
            assert_eq!(f.name(), name);
            assert!(f.node().ends_with("Backward0"));
        }
    }
}
