//! The typed fast path of elementwise ops and sums: when no operand needs a dtype
//! conversion, values are computed in their own type straight from storage bytes
//! (`kernels`), instead of through the general per-element `Scalar` path in `ops`.

use super::broadcast::broadcast_layout;
use super::dtype::DType;
use super::error::Result;
use super::kernels::binary::{Src, binary, binary_assign};
use super::kernels::lane::{Arith, Lane};
use super::kernels::sum::{SumFloat, cascade_sum};
use super::layout::Layout;
use super::memory::storage::Storage;
use super::operand::{Arg, BinaryOp};
use super::scalar::Scalar;
use super::tensor::Tensor;

/// An operand's bytes, borrowed for the kernel.
enum Held {
    Tensor(Storage, Layout),
    Number(Scalar),
}

fn hold(a: &Arg, dtype: DType, sizes: &[i64]) -> Result<Option<Held>> {
    Ok(Some(match a {
        // A conjugate or negative view's bytes are not its values: it goes through a copy
        // first.
        Arg::Tensor(t) if t.dtype() == dtype && t.is_resolved() => {
            let l = broadcast_layout(&t.layout(), sizes)?;
            Held::Tensor(t.storage(), l)
        }
        Arg::Tensor(_) => return Ok(None),
        Arg::Number(s) => Held::Number(*s),
    }))
}

/// `Some($body)` with the type `$T` standing for the element type of `$dtype`, for the dtypes
/// the typed kernels cover; `None` for the others.
macro_rules! with_covered_type {
    ($dtype:expr, $T:ident => $body:expr) => {
        with_covered_type!(@each $dtype, $T, $body;
            Float32 f32, Float64 f64, Int64 i64, Int32 i32, Int16 i16, Int8 i8, UInt8 u8,
            UInt64 u64, UInt32 u32, UInt16 u16)
    };
    (@each $dtype:expr, $T:ident, $body:expr; $($variant:ident $ty:ty),*) => {
        match $dtype {
            $(DType::$variant => Some({
                type $T = $ty;
                $body
            }),)*
            _ => None,
        }
    };
}

/// Whether the typed kernels cover `dtype`.
fn covered(dtype: DType) -> bool {
    with_covered_type!(dtype, T => T::SIZE).is_some()
}

/// Runs the kernel for element type `T` with both operands borrowed.
fn run_typed<T: Lane, R: Lane>(
    f: impl Fn(T, T) -> R + Send + Sync + Copy,
    to_t: impl Fn(Scalar) -> T,
    a: &Held,
    b: &Held,
    out: &mut [u8],
    sizes: &[i64],
) -> Result<()> {
    let with = |h: &Held, k: &mut dyn FnMut(Src<T>) -> Result<()>| -> Result<()> {
        match h {
            Held::Tensor(s, l) => s.with_bytes(|bytes| {
                l.check_in_bounds(T::SIZE, bytes.len())?;
                k(Src::Strided(bytes, l.clone()))
            }),
            Held::Number(v) => k(Src::Const(to_t(*v))),
        }
    };
    with(a, &mut |sa| {
        with(b, &mut |sb| {
            binary(f, &sa, &sb, out, sizes);
            Ok(())
        })
    })
}

fn arith<T: Arith + PartialOrd>(
    op: BinaryOp,
    a: &Held,
    b: &Held,
    out: &mut [u8],
    sizes: &[i64],
) -> Result<()> {
    let to_t = T::from_scalar;
    let bool_of = |x: bool| u8::from(x);
    match op {
        BinaryOp::Add => run_typed(T::add, to_t, a, b, out, sizes),
        BinaryOp::Sub => run_typed(T::sub, to_t, a, b, out, sizes),
        BinaryOp::Mul => run_typed(T::mul, to_t, a, b, out, sizes),
        BinaryOp::Div => run_typed(T::quotient, to_t, a, b, out, sizes),
        BinaryOp::Eq => run_typed(move |x: T, y: T| bool_of(x == y), to_t, a, b, out, sizes),
        BinaryOp::Ne => run_typed(move |x: T, y: T| bool_of(x != y), to_t, a, b, out, sizes),
        BinaryOp::Lt => run_typed(move |x: T, y: T| bool_of(x < y), to_t, a, b, out, sizes),
        BinaryOp::Le => run_typed(move |x: T, y: T| bool_of(x <= y), to_t, a, b, out, sizes),
        BinaryOp::Gt => run_typed(move |x: T, y: T| bool_of(x > y), to_t, a, b, out, sizes),
        BinaryOp::Ge => run_typed(move |x: T, y: T| bool_of(x >= y), to_t, a, b, out, sizes),
    }
}

/// `a op b` in complex `C` (`Complex64` for `complex128` operands, `Complex32` for
/// `complex64` ones): arithmetic and equality; the ordering comparisons are refused for
/// complex before any kernel runs (`ops::binary_untracked`).
fn complex_arith<C: Arith>(
    op: BinaryOp,
    a: &Held,
    b: &Held,
    out: &mut [u8],
    sizes: &[i64],
) -> Result<()> {
    let to_c = C::from_scalar;
    let bool_of = |x: bool| u8::from(x);
    // PyTorch adds `alpha * b`, a complex product even for `alpha` 1, and subtracts by
    // adding `-alpha * b`: an infinite part of `b` makes the other part NaN (`inf * 0`),
    // and `-1 * b` gives its zeros PyTorch's signs (`(0-0j) - 10` is `-10+0j`).
    let one = C::from_scalar(crate::core::scalar::Scalar::Int(1));
    let minus_one = C::from_scalar(crate::core::scalar::Scalar::Int(-1));
    match op {
        BinaryOp::Add => run_typed(move |x: C, y: C| x.add(y.mul(one)), to_c, a, b, out, sizes),
        BinaryOp::Sub => run_typed(
            move |x: C, y: C| x.add(y.mul(minus_one)),
            to_c,
            a,
            b,
            out,
            sizes,
        ),
        BinaryOp::Mul => run_typed(C::mul, to_c, a, b, out, sizes),
        BinaryOp::Div => run_typed(C::quotient, to_c, a, b, out, sizes),
        BinaryOp::Eq => run_typed(move |x: C, y: C| bool_of(x == y), to_c, a, b, out, sizes),
        BinaryOp::Ne => run_typed(move |x: C, y: C| bool_of(x != y), to_c, a, b, out, sizes),
        _ => Err(super::error::TorchError::not_implemented(format!(
            "\"{}_cpu\" not implemented for '{}'",
            op.kernel_name(),
            if C::SIZE == 8 {
                "ComplexFloat"
            } else {
                "ComplexDouble"
            }
        ))),
    }
}

/// `a op b` computed in `dtype` into a new tensor of `out_dtype` and `sizes`, when every
/// tensor operand already has `dtype` and the kernels cover it; `None` otherwise.
pub fn try_binary(
    op: BinaryOp,
    a: &Arg,
    b: &Arg,
    dtype: DType,
    out_dtype: DType,
    sizes: &[i64],
) -> Result<Option<Tensor>> {
    let int_div = op == BinaryOp::Div && dtype.is_integral();
    if int_div || !matches!(out_dtype, d if d == dtype || d == DType::Bool) {
        return Ok(None);
    }
    let (Some(ha), Some(hb)) = (hold(a, dtype, sizes)?, hold(b, dtype, sizes)?) else {
        return Ok(None);
    };
    if matches!(dtype, DType::Complex64 | DType::Complex128) {
        let out = Tensor::zeros(sizes.to_vec(), out_dtype)?;
        out.storage().with_bytes_mut(|bytes| match dtype {
            DType::Complex64 => complex_arith::<num_complex::Complex32>(op, &ha, &hb, bytes, sizes),
            _ => complex_arith::<num_complex::Complex64>(op, &ha, &hb, bytes, sizes),
        })?;
        return Ok(Some(out));
    }
    if !covered(dtype) {
        return Ok(None);
    }
    let out = Tensor::zeros(sizes.to_vec(), out_dtype)?;
    out.storage().with_bytes_mut(|bytes| {
        with_covered_type!(dtype, T => arith::<T>(op, &ha, &hb, bytes, sizes)).unwrap_or(Ok(()))
    })?;
    Ok(Some(out))
}

/// `a = f(a, b)` straight into `a`'s bytes, with `b` borrowed from another storage.
fn assign_typed<T: Arith>(
    f: impl Fn(T, T) -> T + Send + Sync + Copy,
    a: &mut [u8],
    b: &Held,
    sizes: &[i64],
) -> Result<()> {
    match b {
        Held::Tensor(s, l) => s.with_bytes(|bytes| {
            l.check_in_bounds(T::SIZE, bytes.len())?;
            binary_assign(f, a, &Src::Strided(bytes, l.clone()), sizes);
            Ok(())
        }),
        Held::Number(v) => {
            binary_assign(f, a, &Src::Const(T::from_scalar(*v)), sizes);
            Ok(())
        }
    }
}

fn assign<T: Arith>(op: BinaryOp, a: &mut [u8], b: &Held, sizes: &[i64]) -> Result<()> {
    match op {
        BinaryOp::Add => assign_typed(T::add, a, b, sizes),
        BinaryOp::Sub => assign_typed(T::sub, a, b, sizes),
        BinaryOp::Mul => assign_typed(T::mul, a, b, sizes),
        // Only float division reaches here (`try_binary_inplace` checks).
        _ => assign_typed(T::quotient, a, b, sizes),
    }
}

/// `a.add_(b)` and friends computed straight into `a`, when `a` is contiguous and already has
/// `dtype` (the dtype the op computes and returns in), `b` is a number or a tensor of `dtype`
/// in memory `a` does not share, and the kernels cover the op; `false` otherwise, with `a`
/// untouched. The caller has already made PyTorch's checks (casting, broadcasting, overlap).
pub fn try_binary_inplace(
    op: BinaryOp,
    a: &Tensor,
    b: &Arg,
    dtype: DType,
    out_dtype: DType,
) -> Result<bool> {
    let arithmetic = matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul)
        || (op == BinaryOp::Div && dtype.is_floating_point());
    let l = a.layout();
    let fits = a.dtype() == dtype && out_dtype == dtype && l.is_contiguous() && a.is_resolved();
    if !arithmetic || !fits || !covered(dtype) {
        return Ok(false);
    }
    if matches!(b, Arg::Tensor(t) if t.storage().shares_memory(&a.storage())) {
        return Ok(false);
    }
    let Some(hb) = hold(b, dtype, &l.sizes)? else {
        return Ok(false);
    };
    let sizes = &l.sizes;
    a.with_dense_bytes_mut(|out| {
        with_covered_type!(dtype, T => assign::<T>(op, out, &hb, sizes)).unwrap_or(Ok(()))
    })??;
    Ok(true)
}

fn sum_float<T: SumFloat>(t: &Tensor) -> Result<T> {
    t.with_dense_bytes(cascade_sum::<T>)
}

/// The sum of all elements of a float32 or float64 tensor in PyTorch's order, when the
/// tensor is dense (some order of its dims is contiguous); `None` otherwise.
pub fn try_sum_float(t: &Tensor) -> Result<Option<Scalar>> {
    // A dense layout's elements fill `[offset, offset + numel)`: summing that range in
    // memory order is the order PyTorch reduces a dense tensor in.
    let l = t.layout();
    if !l.is_non_overlapping_and_dense() || !t.is_resolved() {
        return Ok(None);
    }
    Ok(match t.dtype() {
        DType::Float32 => Some(Scalar::Float(sum_float::<f32>(t)? as f64)),
        DType::Float64 => Some(Scalar::Float(sum_float::<f64>(t)?)),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::copy::{clone_tensor, to_scalars};
    use crate::core::creation::arange;
    use crate::core::ops::binary_untracked;
    use crate::core::views;

    fn range(n: i64, dtype: DType) -> Tensor {
        arange(
            Scalar::Int(-7),
            Scalar::Int(n - 7),
            Scalar::Int(1),
            Some(dtype),
        )
        .unwrap()
    }

    /// Every dtype and op the in-place kernels cover, with a same-shape, a broadcast, a
    /// transposed and a number operand: writing into the target gives exactly the values of
    /// the out-of-place op.
    #[test]
    fn in_place_fast_path_equals_the_out_of_place_op() {
        let dtypes = [
            DType::Float32,
            DType::Float64,
            DType::Int64,
            DType::Int32,
            DType::Int16,
            DType::Int8,
            DType::UInt8,
        ];
        for dtype in dtypes {
            let a = views::view(&range(12, dtype), &[3, 4]).unwrap();
            let same = views::view(&range(12, dtype), &[3, 4]).unwrap();
            let row = range(4, dtype);
            let transposed = views::t(&views::view(&range(12, dtype), &[4, 3]).unwrap()).unwrap();
            let operands = [
                Arg::Tensor(same),
                Arg::Tensor(row),
                Arg::Tensor(transposed),
                Arg::Number(Scalar::Int(3)),
            ];
            let mut ops = vec![BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul];
            if dtype.is_floating_point() {
                ops.push(BinaryOp::Div);
            }
            for op in ops {
                for b in &operands {
                    let expected = binary_untracked(op, &Arg::Tensor(a.clone()), b).unwrap();
                    let target = clone_tensor(&a).unwrap();
                    assert!(try_binary_inplace(op, &target, b, dtype, dtype).unwrap());
                    let (got, want) =
                        (to_scalars(&target).unwrap(), to_scalars(&expected).unwrap());
                    assert_eq!(format!("{got:?}"), format!("{want:?}"), "{dtype:?} {op:?}");
                }
            }
        }
    }

    #[test]
    fn in_place_fast_path_declines_what_it_does_not_cover() {
        let a = range(6, DType::Float32);
        // The operand shares the target's memory.
        let b = Arg::Tensor(a.clone());
        assert!(
            !try_binary_inplace(BinaryOp::Add, &a, &b, DType::Float32, DType::Float32).unwrap()
        );
        // A strided target.
        let strided = views::t(&views::view(&a, &[2, 3]).unwrap()).unwrap();
        let n = Arg::Number(Scalar::Int(1));
        let f32 = DType::Float32;
        assert!(!try_binary_inplace(BinaryOp::Add, &strided, &n, f32, f32).unwrap());
        // Integer division returns floats; comparisons return bools.
        let i = range(6, DType::Int64);
        assert!(!try_binary_inplace(BinaryOp::Div, &i, &n, DType::Int64, DType::Int64).unwrap());
        assert!(!try_binary_inplace(BinaryOp::Lt, &a, &n, f32, DType::Bool).unwrap());
        // A half-precision target.
        let h = range(6, DType::Float16);
        let f16 = DType::Float16;
        assert!(!try_binary_inplace(BinaryOp::Add, &h, &n, f16, f16).unwrap());
    }
}
