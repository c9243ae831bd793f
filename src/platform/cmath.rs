//! The C library's complex elementary functions (`csqrt`, `cexp`, `clog`, the trigonometric
//! and hyperbolic functions and their inverses, `cpow`), in `float` and `double`. PyTorch's CPU
//! kernels compute these through `std::sqrt(c10::complex)` and friends, which end in the C
//! library's own: calling the same functions natively makes complex results agree with
//! PyTorch's bit for bit on the same system (complex64 in single precision, as PyTorch
//! computes it). In the page, where there is no C library, `num-complex` computes them.

use num_complex::Complex;

/// A complex function the C library has.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ComplexFunction {
    /// `csqrt`.
    Sqrt,
    /// `cexp`.
    Exp,
    /// `clog`.
    Log,
    /// `csin`.
    Sin,
    /// `ccos`.
    Cos,
    /// `ctan`.
    Tan,
    /// `csinh`.
    Sinh,
    /// `ccosh`.
    Cosh,
    /// `ctanh`.
    Tanh,
    /// `casin`.
    Asin,
    /// `cacos`.
    Acos,
    /// `catan`.
    Atan,
    /// `casinh`.
    Asinh,
    /// `cacosh`.
    Acosh,
    /// `catanh`.
    Atanh,
}

/// A real type whose complex numbers the C library computes with (`f32`, `f64`).
pub trait ComplexLibm: Sized {
    /// `f(z)`.
    fn apply(f: ComplexFunction, z: Complex<Self>) -> Complex<Self>;
    /// `z ** w` (`cpow`).
    fn pow(z: Complex<Self>, w: Complex<Self>) -> Complex<Self>;
}

#[cfg(not(target_arch = "wasm32"))]
mod system {
    use num_complex::Complex;

    // `Complex<T>` is `#[repr(C)]` { re, im }: passed and returned exactly as C's
    // `T _Complex` on the platforms tensh builds for (two floating-point registers or one
    // packed register on x86-64, a homogeneous aggregate on aarch64).
    unsafe extern "C" {
        pub fn csqrt(z: Complex<f64>) -> Complex<f64>;
        pub fn cexp(z: Complex<f64>) -> Complex<f64>;
        pub fn clog(z: Complex<f64>) -> Complex<f64>;
        pub fn csin(z: Complex<f64>) -> Complex<f64>;
        pub fn ccos(z: Complex<f64>) -> Complex<f64>;
        pub fn ctan(z: Complex<f64>) -> Complex<f64>;
        pub fn csinh(z: Complex<f64>) -> Complex<f64>;
        pub fn ccosh(z: Complex<f64>) -> Complex<f64>;
        pub fn ctanh(z: Complex<f64>) -> Complex<f64>;
        pub fn casin(z: Complex<f64>) -> Complex<f64>;
        pub fn cacos(z: Complex<f64>) -> Complex<f64>;
        pub fn catan(z: Complex<f64>) -> Complex<f64>;
        pub fn casinh(z: Complex<f64>) -> Complex<f64>;
        pub fn cacosh(z: Complex<f64>) -> Complex<f64>;
        pub fn catanh(z: Complex<f64>) -> Complex<f64>;
        pub fn cpow(z: Complex<f64>, w: Complex<f64>) -> Complex<f64>;
        pub fn cpowf(z: Complex<f32>, w: Complex<f32>) -> Complex<f32>;
        pub fn csqrtf(z: Complex<f32>) -> Complex<f32>;
        pub fn cexpf(z: Complex<f32>) -> Complex<f32>;
        pub fn clogf(z: Complex<f32>) -> Complex<f32>;
        pub fn csinf(z: Complex<f32>) -> Complex<f32>;
        pub fn ccosf(z: Complex<f32>) -> Complex<f32>;
        pub fn ctanf(z: Complex<f32>) -> Complex<f32>;
        pub fn csinhf(z: Complex<f32>) -> Complex<f32>;
        pub fn ccoshf(z: Complex<f32>) -> Complex<f32>;
        pub fn ctanhf(z: Complex<f32>) -> Complex<f32>;
        pub fn casinf(z: Complex<f32>) -> Complex<f32>;
        pub fn cacosf(z: Complex<f32>) -> Complex<f32>;
        pub fn catanf(z: Complex<f32>) -> Complex<f32>;
        pub fn casinhf(z: Complex<f32>) -> Complex<f32>;
        pub fn cacoshf(z: Complex<f32>) -> Complex<f32>;
        pub fn catanhf(z: Complex<f32>) -> Complex<f32>;
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl ComplexLibm for f64 {
    fn apply(f: ComplexFunction, z: Complex<f64>) -> Complex<f64> {
        use ComplexFunction::*;
        use system::*;
        // SAFETY: each is a pure function of its argument (no pointers, no state).
        unsafe {
            match f {
                Sqrt => csqrt(z),
                Exp => cexp(z),
                Log => clog(z),
                Sin => csin(z),
                Cos => ccos(z),
                Tan => ctan(z),
                Sinh => csinh(z),
                Cosh => ccosh(z),
                Tanh => ctanh(z),
                Asin => casin(z),
                Acos => cacos(z),
                Atan => catan(z),
                Asinh => casinh(z),
                Acosh => cacosh(z),
                Atanh => catanh(z),
            }
        }
    }

    fn pow(z: Complex<f64>, w: Complex<f64>) -> Complex<f64> {
        // SAFETY: a pure function of its arguments.
        unsafe { system::cpow(z, w) }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl ComplexLibm for f32 {
    fn apply(f: ComplexFunction, z: Complex<f32>) -> Complex<f32> {
        use ComplexFunction::*;
        use system::*;
        // SAFETY: as for `f64`.
        unsafe {
            match f {
                Sqrt => csqrtf(z),
                Exp => cexpf(z),
                Log => clogf(z),
                Sin => csinf(z),
                Cos => ccosf(z),
                Tan => ctanf(z),
                Sinh => csinhf(z),
                Cosh => ccoshf(z),
                Tanh => ctanhf(z),
                Asin => casinf(z),
                Acos => cacosf(z),
                Atan => catanf(z),
                Asinh => casinhf(z),
                Acosh => cacoshf(z),
                Atanh => catanhf(z),
            }
        }
    }

    fn pow(z: Complex<f32>, w: Complex<f32>) -> Complex<f32> {
        // SAFETY: a pure function of its arguments.
        unsafe { system::cpowf(z, w) }
    }
}

#[cfg(target_arch = "wasm32")]
fn portable<T: num_traits::Float + num_traits::FloatConst>(
    f: ComplexFunction,
    z: Complex<T>,
) -> Complex<T> {
    use ComplexFunction::*;
    let w = match f {
        Sqrt => z.sqrt(),
        Exp => z.exp(),
        Log => z.ln(),
        Sin => z.sin(),
        Cos => z.cos(),
        Tan => z.tan(),
        Sinh => z.sinh(),
        Cosh => z.cosh(),
        Tanh => z.tanh(),
        Asin => z.asin(),
        Acos => z.acos(),
        Atan => z.atan(),
        Asinh => z.asinh(),
        Acosh => z.acosh(),
        Atanh => z.atanh(),
    };
    // Odd functions: a zero real part keeps its sign, as C's `casinh`/`catanh` keep it.
    if matches!(f, Asinh | Atanh) && z.re == T::zero() && w.re == T::zero() {
        return Complex::new(T::zero().copysign(z.re), w.im);
    }
    w
}

#[cfg(target_arch = "wasm32")]
impl ComplexLibm for f64 {
    fn apply(f: ComplexFunction, z: Complex<f64>) -> Complex<f64> {
        portable(f, z)
    }

    fn pow(z: Complex<f64>, w: Complex<f64>) -> Complex<f64> {
        z.powc(w)
    }
}

#[cfg(target_arch = "wasm32")]
impl ComplexLibm for f32 {
    fn apply(f: ComplexFunction, z: Complex<f32>) -> Complex<f32> {
        portable(f, z)
    }

    fn pow(z: Complex<f32>, w: Complex<f32>) -> Complex<f32> {
        z.powc(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn principal_values() {
        let i = Complex::new(0.0_f64, 1.0);
        assert_eq!(
            f64::apply(ComplexFunction::Sqrt, Complex::new(-4.0, 0.0)),
            2.0 * i
        );
        assert_eq!(
            f32::apply(ComplexFunction::Exp, Complex::new(0.0, 0.0)),
            Complex::new(1.0, 0.0)
        );
        let w = f64::apply(ComplexFunction::Log, Complex::new(-1.0, 0.0));
        assert_eq!((w.re, w.im), (0.0, std::f64::consts::PI));
        // Signed zeros survive (C99 Annex G).
        let w = f64::apply(ComplexFunction::Asinh, Complex::new(-0.0, 0.5));
        assert!(w.re == 0.0 && w.re.is_sign_negative());
    }
}
