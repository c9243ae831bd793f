//! The functions of one argument (`unary_math`) applied to tensors: values laid out in
//! the input's stride order, `round(decimals=)`, and the factor a gradient is multiplied
//! by, computed at backward time from the tensor the formula saved.

use half::{bf16, f16};
use num_complex::{Complex, Complex64};

use super::copy::copy_;
use super::dtype::DType;
use super::engine::map::{ElementMap, map_in_place};
use super::error::{Result, TorchError};
use super::result_layout::zeros_in_inputs_order;
use super::tensor::Tensor;

pub use super::unary_math::Unary;

/// `f(t)` elementwise, laid out in `t`'s stride order as PyTorch's unary kernels are: `t`
/// is copied into the result (converted to its dtype), then `f` runs over it in place.
pub fn unary(t: &Tensor, f: Unary) -> Result<Tensor> {
    let d = t.dtype();
    let out = f.result_dtype(d)?;
    let sizes = t.sizes();
    let result = zeros_in_inputs_order(&sizes, out, &[t])?;
    if d.is_complex() && !out.is_complex() {
        // `abs` of complex values: read complex, written real.
        let z = zeros_in_inputs_order(&sizes, d, &[t])?;
        copy_(&z, t)?;
        z.storage()
            .with_bytes(|src| result.storage().with_bytes_mut(|dst| moduli(d, src, dst)));
        return Ok(result);
    }
    copy_(&result, t)?;
    result
        .storage()
        .with_bytes_mut(|b| map_in_place(out, b, &Value(f)));
    Ok(result)
}

/// `|z|` of each complex element of `src` (dtype `d`) into `dst` (the matching real dtype,
/// same element order), computed in `f64` and rounded once.
fn moduli(d: DType, src: &[u8], dst: &mut [u8]) {
    match d {
        DType::Complex128 => {
            for (z, out) in src.chunks_exact(16).zip(dst.chunks_exact_mut(8)) {
                let z = <Complex<f64> as super::kernels::plain::Plain>::read(z);
                out.copy_from_slice(&z.norm().to_le_bytes());
            }
        }
        DType::Complex64 => {
            for (z, out) in src.chunks_exact(8).zip(dst.chunks_exact_mut(4)) {
                let z = <Complex<f32> as super::kernels::plain::Plain>::read(z);
                let w = Complex64::new(z.re.into(), z.im.into());
                out.copy_from_slice(&(w.norm() as f32).to_le_bytes());
            }
        }
        _ => {
            for (z, out) in src.chunks_exact(4).zip(dst.chunks_exact_mut(2)) {
                let part = |i: usize| f16::from_le_bytes([z[i], z[i + 1]]).to_f64();
                let w = Complex64::new(part(0), part(2));
                out.copy_from_slice(&f16::from_f64(w.norm()).to_le_bytes());
            }
        }
    }
}

/// `f`'s value at each element.
struct Value(Unary);

impl ElementMap for Value {
    fn f64(&self, x: f64) -> f64 {
        self.0.real(x)
    }
    fn f32(&self, x: f32) -> f32 {
        self.0.real(x)
    }
    fn complex(&self, z: Complex64) -> Complex64 {
        self.0.complex(z)
    }
    fn complex32(&self, z: num_complex::Complex<f32>) -> num_complex::Complex<f32> {
        self.0.complex32(z)
    }
    fn int(&self, i: i64) -> i64 {
        self.0.integer(i)
    }
    fn uint(&self, u: u64) -> u64 {
        self.0.unsigned(u)
    }
}

/// The factor the output's gradient is multiplied by, computed at backward time from the
/// tensor `f`'s formula reads (`saved`: the output when `reads_output()` says so, else
/// the input), in `saved`'s dtype. `None`: tensh has no formula (`sgn` of complex).
pub fn gradient_factor(f: Unary, saved: &Tensor) -> Result<Option<Tensor>> {
    let d = saved.dtype();
    if d.is_complex() && !f.has_complex_factor() {
        return Ok(None);
    }
    let factors = Tensor::zeros(saved.sizes(), d)?;
    copy_(&factors, saved)?;
    factors
        .storage()
        .with_bytes_mut(|b| map_in_place(d, b, &Factor(f)));
    Ok(Some(factors))
}

/// `f`'s gradient factor at each element (the element is both input and output: a formula
/// reads one of them).
struct Factor(Unary);

impl ElementMap for Factor {
    fn f64(&self, x: f64) -> f64 {
        self.0.real_factor(x, x)
    }
    fn f32(&self, x: f32) -> f32 {
        self.0.real_factor(x, x)
    }
    fn complex(&self, z: Complex64) -> Complex64 {
        self.0.complex_factor(z, z).unwrap_or_default()
    }
    fn int(&self, i: i64) -> i64 {
        self.0.real_factor(i as f32, i as f32) as i64
    }
    fn uint(&self, u: u64) -> u64 {
        self.0.real_factor(u as f32, u as f32) as u64
    }
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
    let step = rounding_to(d);
    let rounding = RoundDecimals {
        ten: step(10f64.powi(decimals.unsigned_abs().min(400) as i32)),
        scale_up: decimals >= 0,
        step,
    };
    let result = zeros_in_inputs_order(&t.sizes(), d, &[t])?;
    copy_(&result, t)?;
    result
        .storage()
        .with_bytes_mut(|b| map_in_place(d, b, &rounding));
    Ok(result)
}

/// The rounding of an `f64` to the float dtype `d` (and back), chosen once per call.
fn rounding_to(d: DType) -> fn(f64) -> f64 {
    match d {
        DType::Float64 => |v| v,
        DType::Float16 => |v| f16::from_f64(v).to_f64(),
        DType::BFloat16 => |v| bf16::from_f64(v).to_f64(),
        DType::Float8E4M3FN => |v| super::float8::E4M3FN.decode(super::float8::E4M3FN.encode(v)),
        DType::Float8E4M3FNUZ => {
            |v| super::float8::E4M3FNUZ.decode(super::float8::E4M3FNUZ.encode(v))
        }
        DType::Float8E5M2 => |v| super::float8::E5M2.decode(super::float8::E5M2.encode(v)),
        DType::Float8E5M2FNUZ => {
            |v| super::float8::E5M2FNUZ.decode(super::float8::E5M2FNUZ.encode(v))
        }
        _ => |v| f64::from(v as f32),
    }
}

/// `round(x * 10^n) / 10^n` (or `round(x / 10^-n) * 10^-n`), each step rounded to the dtype.
struct RoundDecimals {
    ten: f64,
    scale_up: bool,
    step: fn(f64) -> f64,
}

impl RoundDecimals {
    fn at(&self, x: f64) -> f64 {
        let s = self.step;
        if self.scale_up {
            s(s(x * self.ten).round_ties_even() / self.ten)
        } else {
            s(s(x / self.ten).round_ties_even() * self.ten)
        }
    }
}

impl ElementMap for RoundDecimals {
    fn f64(&self, x: f64) -> f64 {
        self.at(x)
    }
    fn f32(&self, x: f32) -> f32 {
        self.at(x.into()) as f32
    }
    fn complex(&self, z: Complex64) -> Complex64 {
        z
    }
    fn int(&self, i: i64) -> i64 {
        i
    }
    fn uint(&self, u: u64) -> u64 {
        u
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::creation::from_scalars;
    use crate::core::scalar::Scalar;

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
