//! `torch.gradient`: the derivative of sampled values by finite differences along each
//! chosen dim. Inside, second-order central differences (for uneven coordinates, the
//! three-point formula weighted by the two neighbouring steps); at the two edges,
//! one-sided differences of first or second order. It is composed of slices, arithmetic
//! and `cat` as PyTorch composes it, so values round as PyTorch's do, any dtype the
//! arithmetic takes works, and the result records its gradient (`CatBackward0`).

use super::error::{Result, TorchError, wrap_dim};
use super::join::cat;
use super::ops::{Arg, BinaryOp, binary};
use super::scalar::Scalar;
use super::tensor::Tensor;
use super::views::{narrow, select, view};

/// How far apart the samples are along each differentiated dim.
pub enum Spacing {
    /// One step for every dim.
    Step(Scalar),
    /// One step per dim.
    Steps(Vec<Scalar>),
    /// The sample coordinates along each dim (one-dimensional tensors).
    Coordinates(Vec<Tensor>),
}

/// `torch.gradient(input, spacing=..., dim=..., edge_order=...)`: one tensor per dim of
/// `dims` (every dim when `None`), in that order.
pub fn gradient(
    input: &Tensor,
    spacing: &Spacing,
    dims: Option<&[i64]>,
    edge_order: i64,
) -> Result<Vec<Tensor>> {
    if edge_order != 1 && edge_order != 2 {
        return Err(TorchError::runtime(
            "torch.gradient only supports edge_order=1 and edge_order=2.",
        ));
    }
    // A list of steps or coordinates has one per dim; a single step serves them all.
    let given = match spacing {
        Spacing::Step(_) => None,
        Spacing::Steps(s) => Some(s.len()),
        Spacing::Coordinates(c) => Some(c.len()),
    };
    let dims = match dims {
        Some(dims) => {
            if let Some(given) = given.filter(|&g| g != dims.len()) {
                return Err(TorchError::runtime(format!(
                    "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim arguments to have the same length, but got a spacing argument of length {given} and a dim argument of length {}.",
                    dims.len()
                )));
            }
            let mut wrapped: Vec<usize> = Vec::with_capacity(dims.len());
            for &d in dims {
                // PyTorch wraps these dims without allowing a 0-d tensor's 0 and -1.
                if input.ndim() == 0 {
                    return Err(TorchError::index(format!(
                        "Dimension specified as {d} but tensor has no dimensions"
                    )));
                }
                let w = wrap_dim(d, input.ndim())?;
                if wrapped.contains(&w) {
                    return Err(TorchError::runtime(format!(
                        "dim {w} appears multiple times in the list of dims"
                    )));
                }
                wrapped.push(w);
            }
            wrapped
        }
        None => {
            if let Some(given) = given.filter(|&g| g != input.ndim()) {
                return Err(TorchError::runtime(format!(
                    "torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal to 'self.dim() = {}', since dim argument was not given, but got a list of length {given}",
                    input.ndim()
                )));
            }
            (0..input.ndim()).collect()
        }
    };
    if let Spacing::Coordinates(coordinates) = spacing
        && let Some(c) = coordinates.iter().find(|c| c.ndim() != 1)
    {
        return Err(TorchError::runtime(format!(
            "torch.gradient expected each element of spacing to have one dimension, but got an element with {} dimensions!",
            c.ndim()
        )));
    }
    let sizes = input.sizes();
    if dims
        .iter()
        .any(|&d| sizes.get(d).is_none_or(|&n| n < edge_order + 1))
    {
        return Err(TorchError::runtime(
            "torch.gradient expected each dimension size to be at least edge_order+1",
        ));
    }
    dims.iter()
        .enumerate()
        .map(|(i, &d)| match spacing {
            Spacing::Step(step) => along_steps(input, d as i64, *step, edge_order),
            // The lengths were checked above: one per dim.
            Spacing::Steps(steps) => {
                let step = steps.get(i).copied().unwrap_or(Scalar::Int(1));
                along_steps(input, d as i64, step, edge_order)
            }
            Spacing::Coordinates(coordinates) => match coordinates.get(i) {
                Some(c) => along_coordinates(input, d as i64, c, edge_order),
                None => along_steps(input, d as i64, Scalar::Int(1), edge_order),
            },
        })
        .collect()
}

fn t(x: &Tensor) -> Arg {
    Arg::Tensor(x.clone())
}

fn n(x: f64) -> Arg {
    Arg::Number(Scalar::Float(x))
}

fn add(a: Arg, b: Arg) -> Result<Tensor> {
    binary(BinaryOp::Add, &a, &b)
}

fn sub(a: Arg, b: Arg) -> Result<Tensor> {
    binary(BinaryOp::Sub, &a, &b)
}

fn mul(a: Arg, b: Arg) -> Result<Tensor> {
    binary(BinaryOp::Mul, &a, &b)
}

fn div(a: Arg, b: Arg) -> Result<Tensor> {
    binary(BinaryOp::Div, &a, &b)
}

/// `x[start:start+length]` along `dim`, negative starts counting from the end.
fn part(x: &Tensor, dim: i64, start: i64, length: i64) -> Result<Tensor> {
    let size = x.sizes()[dim as usize];
    let start = if start < 0 { size + start } else { start };
    narrow(x, dim, start, length)
}

/// Along `dim` with an even step `h`.
fn along_steps(f: &Tensor, dim: i64, h: Scalar, edge_order: i64) -> Result<Tensor> {
    let size = f.sizes()[dim as usize];
    let h = Arg::Number(h);
    let inner = sub(
        t(&part(f, dim, 2, size - 2)?),
        t(&part(f, dim, 0, size - 2)?),
    )?;
    let center = div(t(&div(t(&inner), h.clone())?), n(2.0))?;
    let (first, last) = if edge_order == 1 {
        (
            div(
                t(&sub(t(&part(f, dim, 1, 1)?), t(&part(f, dim, 0, 1)?))?),
                h.clone(),
            )?,
            div(
                t(&sub(t(&part(f, dim, -1, 1)?), t(&part(f, dim, -2, 1)?))?),
                h,
            )?,
        )
    } else {
        // The second-order one-sided stencils: −3/2 f₀ + 2 f₁ − 1/2 f₂ and
        // 1/2 f₋₃ − 2 f₋₂ + 3/2 f₋₁.
        let sample = |k: i64| part(f, dim, k, 1);
        let two = Arg::Number(Scalar::Int(2));
        let start = sub(
            t(&add(
                t(&mul(n(-1.5), t(&sample(0)?))?),
                t(&mul(two.clone(), t(&sample(1)?))?),
            )?),
            t(&mul(n(0.5), t(&sample(2)?))?),
        )?;
        let end = add(
            t(&sub(
                t(&mul(n(0.5), t(&sample(-3)?))?),
                t(&mul(two, t(&sample(-2)?))?),
            )?),
            t(&mul(n(1.5), t(&sample(-1)?))?),
        )?;
        (div(t(&start), h.clone())?, div(t(&end), h)?)
    };
    cat(&[first, center, last], dim)
}

/// Along `dim` at the sample coordinates `c`.
fn along_coordinates(f: &Tensor, dim: i64, c: &Tensor, edge_order: i64) -> Result<Tensor> {
    let size = f.sizes()[dim as usize];
    let count = c.sizes()[0];
    let steps = sub(
        t(&narrow(c, 0, 1, count - 1)?),
        t(&narrow(c, 0, 0, count - 1)?),
    )?;
    let step_count = steps.sizes()[0];
    let (h1, h2) = (
        narrow(&steps, 0, 0, step_count - 1)?,
        narrow(&steps, 0, 1, step_count - 1)?,
    );
    // Weights of the left, middle and right samples, laid along `dim`.
    let mut shape = vec![1; f.ndim()];
    shape[dim as usize] = -1;
    let span = add(t(&h1), t(&h2))?;
    let left = div(t(&mul(n(-1.0), t(&h2))?), t(&mul(t(&h1), t(&span))?))?;
    let middle = div(t(&sub(t(&h2), t(&h1))?), t(&mul(t(&h1), t(&h2))?))?;
    let right = div(t(&h1), t(&mul(t(&h2), t(&span))?))?;
    let center = add(
        t(&add(
            t(&mul(
                t(&view(&left, &shape)?),
                t(&part(f, dim, 0, size - 2)?),
            )?),
            t(&mul(
                t(&view(&middle, &shape)?),
                t(&part(f, dim, 1, size - 2)?),
            )?),
        )?),
        t(&mul(
            t(&view(&right, &shape)?),
            t(&part(f, dim, 2, size - 2)?),
        )?),
    )?;
    let step = |k: i64| select(&steps, 0, if k < 0 { step_count + k } else { k });
    let (first, last) = if edge_order == 1 {
        (
            div(
                t(&sub(t(&part(f, dim, 1, 1)?), t(&part(f, dim, 0, 1)?))?),
                t(&step(0)?),
            )?,
            div(
                t(&sub(t(&part(f, dim, -1, 1)?), t(&part(f, dim, -2, 1)?))?),
                t(&step(-1)?),
            )?,
        )
    } else {
        let three_point = |start: i64, weights: [Tensor; 3]| -> Result<Tensor> {
            let term = |k: usize| mul(t(&weights[k]), t(&part(f, dim, start + k as i64, 1)?));
            add(t(&add(t(&term(0)?), t(&term(1)?))?), t(&term(2)?))
        };
        let (a, b) = (step(0)?, step(1)?);
        let ab = add(t(&a), t(&b))?;
        let start = [
            div(
                t(&mul(n(-1.0), t(&add(t(&mul(n(2.0), t(&a))?), t(&b))?))?),
                t(&mul(t(&a), t(&ab))?),
            )?,
            div(t(&ab), t(&mul(t(&a), t(&b))?))?,
            div(t(&mul(n(-1.0), t(&a))?), t(&mul(t(&b), t(&ab))?))?,
        ];
        let (a, b) = (step(-2)?, step(-1)?);
        let ab = add(t(&a), t(&b))?;
        let end = [
            div(t(&b), t(&mul(t(&a), t(&ab))?))?,
            div(
                t(&mul(n(-1.0), t(&add(t(&b), t(&a))?))?),
                t(&mul(t(&a), t(&b))?),
            )?,
            div(
                t(&add(t(&mul(n(2.0), t(&b))?), t(&a))?),
                t(&mul(t(&b), t(&ab))?),
            )?,
        ];
        (three_point(0, start)?, three_point(-3, end)?)
    };
    cat(&[first, center, last], dim)
}
