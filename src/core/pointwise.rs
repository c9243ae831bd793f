//! Elementwise math beyond `+ - * /`: pow,
//! remainder, floor and truncating division, clamp, where, isclose (the functions of one
//! argument are in `unary`). Each follows PyTorch's dtype rule (Python numbers are wrapped
//! numbers in promotion) and its messages.

use super::broadcast::broadcast_layout;
use super::copy;
use super::dtype::{DType, Kind};
use super::engine::{elements, zip};
use super::error::{Result, TorchError};
use super::ops::{Arg, operand, shape};
use super::promotion::result_type;
use super::scalar::Scalar;
use super::tensor::Tensor;
use super::views::broadcast_shapes;
use num_complex::Complex64;

pub use super::unary::{Unary, unary};

/// `f(a, b)` elementwise in `compute` on `f64` lanes (floating dtypes), stored as `out`,
/// in the layout PyTorch gives the result (`engine::zip`: operands read in place, `f`
/// inlined into the chunk loop).
pub(crate) fn zip_float(
    a: &Arg,
    b: &Arg,
    compute: DType,
    out: DType,
    f: impl Fn(f64, f64) -> f64 + Sync,
) -> Result<Tensor> {
    in_layout(zip::zip::<f64>(a, b, compute, out, &zip::each(f))?, a, b)
}

/// `f(a, b)` on `i64` lanes (integer and bool dtypes, bools as 0 and 1, wrapping).
pub(crate) fn zip_int(
    a: &Arg,
    b: &Arg,
    compute: DType,
    out: DType,
    f: impl Fn(i64, i64) -> Result<i64> + Sync,
) -> Result<Tensor> {
    in_layout(
        zip::zip::<i64>(a, b, compute, out, &zip::each_checked(f))?,
        a,
        b,
    )
}

/// `f(a, b)` on complex `f64` lanes (complex dtypes, or real ones read as complex).
pub(crate) fn zip_complex(
    a: &Arg,
    b: &Arg,
    compute: DType,
    out: DType,
    f: impl Fn(Complex64, Complex64) -> Complex64 + Sync,
) -> Result<Tensor> {
    in_layout(
        zip::zip::<Complex64>(a, b, compute, out, &zip::each(f))?,
        a,
        b,
    )
}

/// A fresh row-major result in the layout PyTorch gives an elementwise result of `a`, `b`,
/// a number among them taken as PyTorch wraps it: an operand (`x + 1`, `x.remainder(2)`).
fn in_layout(out: Tensor, a: &Arg, b: &Arg) -> Result<Tensor> {
    let wrapped = a.is_number() || b.is_number();
    super::result_layout::in_operands_order(out, &super::operand::tensors_of(a, b), wrapped)
}

/// `f(a, b)` on the lanes of `common`'s kind, for an op whose number operand is a
/// parameter of PyTorch's kernel, not a wrapped operand (`x.pow(2)`, `x.clamp(0, 1)`):
/// the result is laid out from the tensors alone.
pub(crate) fn zip_with_parameter(
    a: &Arg,
    b: &Arg,
    compute: DType,
    out: DType,
    float: impl Fn(f64, f64) -> f64 + Sync,
    int: impl Fn(i64, i64) -> Result<i64> + Sync,
    complex: impl Fn(Complex64, Complex64) -> Complex64 + Sync,
) -> Result<Tensor> {
    let result = match compute.kind() {
        Kind::Complex => zip::zip::<Complex64>(a, b, compute, out, &zip::each(complex))?,
        Kind::Float => zip::zip::<f64>(a, b, compute, out, &zip::each(float))?,
        _ => zip::zip::<i64>(a, b, compute, out, &zip::each_checked(int))?,
    };
    super::result_layout::in_inputs_order(result, &super::operand::tensors_of(a, b))
}

fn zero_division() -> TorchError {
    TorchError::runtime("ZeroDivisionError")
}

/// Python's float floor division (the result of `a // b` for floats).
fn float_floor_div(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        return a / b;
    }
    let m = a % b;
    let mut div = (a - m) / b;
    if m != 0.0 && (b < 0.0) != (m < 0.0) {
        div -= 1.0;
    }
    if div == 0.0 {
        return 0.0f64.copysign(a / b);
    }
    let floor = div.floor();
    if div - floor > 0.5 {
        floor + 1.0
    } else {
        floor
    }
}

/// Python's float modulo (the sign of the divisor).
fn float_mod(a: f64, b: f64) -> f64 {
    let m = a % b;
    if m != 0.0 && (m < 0.0) != (b < 0.0) {
        m + b
    } else {
        m
    }
}

/// How `div` rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    /// Toward zero.
    Trunc,
    /// Toward negative infinity.
    Floor,
}

/// `a.div(b, rounding_mode=...)` and `floor_divide`: integers stay integers.
pub fn div_rounded(a: &Arg, b: &Arg, mode: Rounding) -> Result<Tensor> {
    let common = super::ops::common_type(a, b)?;
    let kernel = match mode {
        Rounding::Trunc => "div_trunc_cpu",
        Rounding::Floor => "div_floor_cpu",
    };
    super::unbuilt_kernels::require_kernel(kernel, common)?;
    if matches!(common.kind(), Kind::Complex | Kind::Bool) {
        // PyTorch builds no rounding division for complex numbers or bools.
        return Err(super::unbuilt_kernels::not_built(kernel, common));
    }
    let float = move |x: f64, y: f64| match mode {
        Rounding::Trunc => (x / y).trunc(),
        Rounding::Floor => float_floor_div(x, y),
    };
    let int = move |p: i64, q: i64| {
        nonzero_divisor(q)?;
        let t = p.wrapping_div(q);
        Ok(match mode {
            Rounding::Trunc => t,
            Rounding::Floor if (p.wrapping_rem(q) != 0) && ((p < 0) != (q < 0)) => t - 1,
            Rounding::Floor => t,
        })
    };
    match common.kind() {
        Kind::Float => zip_float(a, b, common, common, float),
        _ => zip_int(a, b, common, common, int),
    }
}

/// PyTorch's error for an integer division or remainder by zero. Quotients and remainders
/// otherwise wrap (`i64::MIN / -1` is `i64::MIN`), as PyTorch's integer kernels do.
fn nonzero_divisor(q: i64) -> Result<()> {
    if q == 0 {
        return Err(zero_division());
    }
    Ok(())
}

/// `a % b`, `remainder`: the sign of the divisor, as Python.
pub fn remainder(a: &Arg, b: &Arg) -> Result<Tensor> {
    let common = super::ops::common_type(a, b)?;
    super::unbuilt_kernels::require_kernel("remainder_cpu", common)?;
    if matches!(common.kind(), Kind::Complex | Kind::Bool) {
        return Err(super::unbuilt_kernels::not_built("remainder_cpu", common));
    }
    let int = |p: i64, q: i64| {
        nonzero_divisor(q)?;
        let m = p.wrapping_rem(q);
        Ok(if m != 0 && ((m < 0) != (q < 0)) {
            m + q
        } else {
            m
        })
    };
    match common.kind() {
        Kind::Float => zip_float(a, b, common, common, float_mod),
        _ => zip_int(a, b, common, common, int),
    }
}

/// `a ** b`, `pow`.
pub fn pow(a: &Arg, b: &Arg) -> Result<Tensor> {
    let common = super::ops::common_type(a, b)?;
    super::unbuilt_kernels::require_kernel("pow", common)?;
    if common == DType::Bool && matches!(b, Arg::Tensor(_)) {
        // PyTorch builds no power kernel for bools (a bool raised to an int is an int; to
        // the number `True` or `False`, a copy or ones, which need no kernel).
        return Err(super::unbuilt_kernels::not_built("pow", common));
    }
    // A negative integer exponent given as a number is refused; in a tensor, it is computed
    // as C's integer power does: 1 and -1 keep their magnitude, anything else gives 0.
    if common.is_integral()
        && matches!(b, Arg::Number(s) if !matches!(s, Scalar::Float(_)) && s.to_i64() < 0)
    {
        return Err(TorchError::runtime(
            "Integers to negative integer powers are not allowed.",
        ));
    }
    // Then a tensor's number exponent must convert to the tensor's dtype: an integer type's
    // range, float16's and bfloat16's too (checked before any element is computed, an
    // empty tensor's too).
    if let (Arg::Tensor(_), Arg::Number(e)) = (a, b) {
        if common.is_integral() {
            super::checked_scalar::check_fits(common, *e, super::checked_scalar::TypeNaming::Cpp)?;
        } else if matches!(common, DType::Float16 | DType::BFloat16) {
            super::checked_scalar::check_converts(common, *e, true)?;
        }
    }
    // Integers by squaring, wrapping; bools (0 and 1) come out as `x || !y`.
    let int = |mut base: i64, mut e: i64| {
        if e < 0 {
            return Ok(match base {
                1 => 1,
                -1 if e % 2 != 0 => -1,
                -1 => 1,
                _ => 0,
            });
        }
        let mut acc = 1i64;
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.wrapping_mul(base);
            }
            base = base.wrapping_mul(base);
            e >>= 1;
        }
        Ok(acc)
    };
    let complex = super::complex_power::power(common != DType::Complex128, b);
    let by_number = matches!(common, DType::Float32 | DType::Float64);
    let result = if let (Arg::Tensor(_), Arg::Number(e), true) = (a, b, by_number) {
        // A float32 or float64 tensor to a real number: PyTorch's kernel for a number
        // exponent, in the tensor's own precision. (Its float16 kernel calls `pow`; its
        // bfloat16 one rounds each step to bfloat16, which tensh does not follow.)
        let e = e.to_f64();
        if common == DType::Float64 {
            zip_with_parameter(
                a,
                b,
                common,
                common,
                move |x, _| power_by_number(x, e),
                int,
                complex,
            )?
        } else {
            let e = e as f32;
            let float = move |x: f64, _| f64::from(power_by_number(x as f32, e));
            zip_with_parameter(a, b, common, common, float, int, complex)?
        }
    } else {
        zip_with_parameter(a, b, common, common, f64::powf, int, complex)?
    };
    // A number raised to a tensor is laid out row-major whatever the exponent's strides
    // (PyTorch's `pow(Scalar, Tensor)` does not take its exponent's layout).
    if matches!(a, Arg::Number(_)) && !result.is_contiguous() {
        return super::copy::contiguous_copy(&result);
    }
    Ok(result)
}

/// `x ** e` for a number `e` as PyTorch's kernel computes it: squares, cubes, square roots,
/// reciprocals and their combinations by multiplication and division (each step rounded
/// to `T`), any other exponent by `pow`.
fn power_by_number<T: num_traits::Float>(x: T, e: T) -> T {
    let one = T::one();
    let two = one + one;
    let half = one / two;
    if e == two {
        x * x
    } else if e == two + one {
        x * x * x
    } else if e == half {
        x.sqrt()
    } else if e == -half {
        one / x.sqrt()
    } else if e == -one {
        one / x
    } else if e == -two {
        one / (x * x)
    } else {
        x.powf(e)
    }
}

/// `t.clamp(min, max)`; either bound may be absent, not both.
pub fn clamp(t: &Tensor, min: Option<Arg>, max: Option<Arg>) -> Result<Tensor> {
    if min.is_none() && max.is_none() {
        return Err(TorchError::runtime(
            "torch.clamp: At least one of 'min' or 'max' must not be None",
        ));
    }
    let input = Arg::Tensor(t.clone());
    let mut ops = vec![operand(&input)];
    ops.extend(min.iter().chain(max.iter()).map(operand));
    let common = result_type(&ops)?;
    let min = min
        .map(|b| representable_bound(b, common, true))
        .transpose()?;
    let max = max
        .map(|b| representable_bound(b, common, false))
        .transpose()?;
    let mut out = match &min {
        Some(lo) => bounded(&input, lo, common, true)?,
        None => super::copy::cast_copy(t, common)?,
    };
    if let Some(hi) = &max {
        out = bounded(&Arg::Tensor(out), hi, common, false)?;
    }
    Ok(out)
}

/// A clamp bound given as a number, as PyTorch takes it for a result of dtype `d`: for an
/// integer dtype, a lower bound above its range (or an upper bound below it) is refused
/// and any other is compared as the number it is (`-1` bounds `uint8` values from below
/// by nothing); for a float dtype, the number must convert. Tensor bounds are unchanged.
fn representable_bound(bound: Arg, d: DType, lower: bool) -> Result<Arg> {
    let Arg::Number(s) = bound else {
        return Ok(bound);
    };
    if d.is_floating_point() {
        super::checked_scalar::check_converts(d, s, true)?;
        return Ok(bound);
    }
    let Some((lo, hi)) = super::checked_scalar::integer_limits(d) else {
        return Ok(bound);
    };
    let v = s.to_f64();
    if (lower && v > hi) || (!lower && v < lo) {
        return Err(TorchError::runtime(format!(
            "Clamp {} value {} is outside the representable range of {}",
            if lower { "min" } else { "max" },
            super::cpp_format::stream_double(v),
            d.cpp_name()
        )));
    }
    Ok(if v < lo || v > hi {
        Arg::Number(Scalar::Int(v.clamp(lo, hi) as i64))
    } else {
        bound
    })
}

/// The bitwise binary ops (`&`, `|`, `^`): logical on bools, on the bits of integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bitwise {
    /// `a & b`, `bitwise_and`.
    And,
    /// `a | b`, `bitwise_or`.
    Or,
    /// `a ^ b`, `bitwise_xor`.
    Xor,
}

impl Bitwise {
    /// PyTorch's kernel name (in its refusal for floating and complex dtypes).
    pub fn kernel(self) -> &'static str {
        match self {
            Bitwise::And => "bitwise_and_cpu",
            Bitwise::Or => "bitwise_or_cpu",
            Bitwise::Xor => "bitwise_xor_cpu",
        }
    }
}

/// `a & b`, `a | b`, `a ^ b` with broadcasting and type promotion; integer and bool
/// dtypes only, as in PyTorch.
pub fn bitwise(a: &Arg, b: &Arg, op: Bitwise) -> Result<Tensor> {
    let common = super::ops::common_type(a, b)?;
    if common.is_floating_point() || common.is_complex() {
        return Err(TorchError::not_implemented(format!(
            "\"{}\" not implemented for '{}'",
            op.kernel(),
            common.cpp_name()
        )));
    }
    // Bools are the integers 0 and 1, on which the bit operations are the logical ones.
    let int = move |p: i64, q: i64| {
        Ok(match op {
            Bitwise::And => p & q,
            Bitwise::Or => p | q,
            Bitwise::Xor => p ^ q,
        })
    };
    zip_int(a, b, common, common, int)
}

/// `~t`, `bitwise_not`: logical not of bools, every bit flipped for integers.
pub fn bitwise_not(t: &Tensor) -> Result<Tensor> {
    let d = t.dtype();
    if d.is_floating_point() || d.is_complex() {
        return Err(TorchError::type_error(
            "~ (operator.invert) is only implemented on integer and Boolean-type tensors",
        ));
    }
    // Two's complement: every bit of every byte flipped is the integer's `!`; a bool's 0 or 1
    // is flipped in its lowest bit.
    let mask = if d == DType::Bool { 1 } else { 0xff };
    let flipped = elements::image(t)?.into_iter().map(|b| b ^ mask).collect();
    super::result_layout::elementwise_image(flipped, t, d)
}

/// What `isnan`, `isinf` and `isfinite` ask of each element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatClass {
    /// `isnan`: NaN (for complex: either part).
    Nan,
    /// `isinf`: ±inf (for complex: either part).
    Inf,
    /// `isfinite`: neither (for complex: both parts finite).
    Finite,
}

/// `t.isnan()`, `t.isinf()`, `t.isfinite()`: a bool tensor of `t`'s shape (integers and
/// bools are always finite).
pub fn classify(t: &Tensor, class: FloatClass) -> Result<Tensor> {
    let d = t.dtype();
    let test = |x: f64| match class {
        FloatClass::Nan => x.is_nan(),
        FloatClass::Inf => x.is_infinite(),
        FloatClass::Finite => x.is_finite(),
    };
    let parts_of = |wide: DType| -> Result<Vec<f64>> {
        let copy = copy::cast_copy(t, wide)?;
        Ok(copy.storage().with_bytes(|b| {
            b.chunks_exact(8)
                .map(|v| f64::from_le_bytes(v.try_into().unwrap_or([0; 8])))
                .collect()
        }))
    };
    let out: Vec<u8> = match d.kind() {
        // Every float dtype converts to float64 exactly (NaN and infinities included).
        Kind::Float => parts_of(DType::Float64)?
            .into_iter()
            .map(|x| u8::from(test(x)))
            .collect(),
        Kind::Complex => parts_of(DType::Complex128)?
            .chunks_exact(2)
            .map(|z| {
                u8::from(match class {
                    FloatClass::Finite => test(z[0]) && test(z[1]),
                    _ => test(z[0]) || test(z[1]),
                })
            })
            .collect(),
        _ => {
            let mut all = super::memory::alloc::zeroed_bytes(t.numel().max(0) as usize)?;
            if class == FloatClass::Finite {
                all.fill(1);
            }
            all
        }
    };
    super::result_layout::elementwise_image(out, t, DType::Bool)
}

/// `torch.maximum(a, b)` (`max`) or `torch.minimum(a, b)`, also what `max`/`min` do given a
/// tensor: elementwise with broadcasting and type promotion; NaN on either side wins.
pub fn extreme_of(a: &Tensor, b: &Tensor, max: bool) -> Result<Tensor> {
    let (a, b) = (Arg::Tensor(a.clone()), Arg::Tensor(b.clone()));
    let common = result_type(&[operand(&a), operand(&b)])?;
    if common.is_complex() {
        let name = if max { "maximum" } else { "minimum" };
        return Err(TorchError::type_error(format!(
            "{name} not implemented for complex tensors."
        )));
    }
    // Bools are 0 and 1: their maximum is `or`, their minimum `and`.
    bounded(&a, &b, common, max)
}

/// `a` held at or above (`at_least`) or at or below `b`, computed in `d`'s lane; NaN on
/// either side gives NaN.
fn bounded(a: &Arg, b: &Arg, d: DType, at_least: bool) -> Result<Tensor> {
    let float = move |x: f64, y: f64| {
        if x.is_nan() || y.is_nan() {
            f64::NAN
        } else if at_least {
            x.max(y)
        } else {
            x.min(y)
        }
    };
    let int = move |x: i64, y: i64| Ok(if at_least { x.max(y) } else { x.min(y) });
    let complex = |_: Complex64, _: Complex64| Complex64::new(f64::NAN, f64::NAN);
    // A number bound is `clamp_min`'s / `clamp_max`'s parameter; two tensors are operands
    // of `maximum`/`minimum` alike (no number, so no difference).
    match d.kind() {
        Kind::Complex => Err(TorchError::runtime(
            "tensh: no complex kernel bounds values",
        )),
        _ => zip_with_parameter(a, b, d, d, float, int, complex),
    }
}

/// `torch.where(cond, x, y)`.
pub fn where_(cond: &Tensor, x: &Arg, y: &Arg) -> Result<Tensor> {
    if cond.dtype() != DType::Bool {
        return Err(TorchError::runtime(format!(
            "where expected condition to be a boolean tensor, but got a tensor with dtype {}",
            cond.dtype().cpp_name()
        )));
    }
    let common = result_type(&[operand(x), operand(y)])?;
    let sizes = broadcast_shapes(&cond.sizes(), &broadcast_shapes(&shape(x), &shape(y))?)?;
    let c = elements::image(&cond.alias(broadcast_layout(&cond.layout(), &sizes)?))?;
    let item = common.itemsize();
    let (xs, x_step) = elements::operand_image(x, &sizes, common)?;
    let (ys, y_step) = elements::operand_image(y, &sizes, common)?;
    let mut out = super::memory::alloc::zeroed_bytes(c.len() * item)?;
    for (k, (o, &pick)) in out.chunks_exact_mut(item).zip(&c).enumerate() {
        let (from, step) = if pick != 0 {
            (&xs, x_step)
        } else {
            (&ys, y_step)
        };
        o.copy_from_slice(&from[k * step..k * step + item]);
    }
    let inputs: Vec<&Tensor> = std::iter::once(cond)
        .chain([x, y].into_iter().filter_map(Arg::as_tensor))
        .collect();
    // A number for `x` or `y` is wrapped as an operand (`torch.where(m, x, 0.)`).
    let wrapped = x.is_number() || y.is_number();
    super::result_layout::in_operands_order(
        elements::from_image(out, sizes, common),
        &inputs,
        wrapped,
    )
}

/// `torch.isclose(a, b, rtol, atol, equal_nan)`.
pub fn isclose(a: &Tensor, b: &Tensor, rtol: f64, atol: f64, equal_nan: bool) -> Result<Tensor> {
    if a.dtype() != b.dtype() {
        return Err(TorchError::runtime(format!(
            "{} did not match {}",
            a.dtype().cpp_name(),
            b.dtype().cpp_name()
        )));
    }
    let d = a.dtype();
    let (a, b) = (Arg::Tensor(a.clone()), Arg::Tensor(b.clone()));
    // The lane's value is the answer, 1 or 0, written into a bool.
    let complex = |p: Complex64, q: Complex64| {
        let close = if p == q {
            true
        } else if p.re.is_nan() || p.im.is_nan() || q.re.is_nan() || q.im.is_nan() {
            equal_nan && (p.re.is_nan() || p.im.is_nan()) && (q.re.is_nan() || q.im.is_nan())
        } else if !(p.re.is_finite() && q.re.is_finite()) {
            false
        } else {
            (p - q).norm() <= atol + rtol * q.norm()
        };
        Complex64::new(f64::from(u8::from(close)), 0.0)
    };
    let real = |p: f64, q: f64| {
        let close = p == q || (p - q).abs() <= atol + rtol * q.abs();
        f64::from(u8::from(close))
    };
    match d.kind() {
        Kind::Float | Kind::Complex => zip_complex(&a, &b, d, DType::Bool, complex),
        _ => zip_float(&a, &b, d, DType::Bool, real),
    }
}
