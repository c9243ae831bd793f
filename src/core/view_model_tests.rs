//! Property test: random chains of view ops agree, element for element, with a brute-force
//! model that keeps only the storage offset of every element in row-major order and applies
//! each op by index arithmetic on that list. Any disagreement in shape or in which storage
//! element an index reaches is a bug in a layout computation.

use proptest::prelude::*;

use super::copy::to_scalars;
use super::creation::arange;
use super::dtype::DType;
use super::scalar::Scalar;
use super::tensor::Tensor;
use super::views;

/// The model: a shape and each element's storage offset, row-major.
#[derive(Debug, Clone)]
struct Model {
    shape: Vec<i64>,
    offsets: Vec<i64>,
}

fn strides_of(shape: &[i64]) -> Vec<i64> {
    super::layout::contiguous_strides(shape)
}

fn unravel(mut flat: i64, shape: &[i64]) -> Vec<i64> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        idx[d] = flat % shape[d].max(1);
        flat /= shape[d].max(1);
    }
    idx
}

impl Model {
    fn at(&self, idx: &[i64]) -> i64 {
        let flat: i64 = idx
            .iter()
            .zip(strides_of(&self.shape))
            .map(|(i, s)| i * s)
            .sum();
        self.offsets[flat as usize]
    }

    /// Builds a new model of `shape` whose element at `idx` is the old element `map(idx)`.
    fn remap(&self, shape: Vec<i64>, map: impl Fn(&[i64]) -> Vec<i64>) -> Model {
        let n: i64 = shape.iter().product();
        let offsets = (0..n).map(|f| self.at(&map(&unravel(f, &shape)))).collect();
        Model { shape, offsets }
    }
}

#[derive(Debug, Clone)]
enum Op {
    Transpose(usize, usize),
    Narrow(usize, i64, i64),
    Select(usize, i64),
    Unsqueeze(usize),
    Squeeze,
    Expand(usize, i64),
    Diagonal(i64),
    Unfold(usize, i64, i64),
    Flatten,
    Step(usize, i64),
}

fn op_strategy() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0..4usize, 0..4usize).prop_map(|(a, b)| Op::Transpose(a, b)),
        (0..4usize, 0..4i64, 0..4i64).prop_map(|(d, s, l)| Op::Narrow(d, s, l)),
        (0..4usize, 0..4i64).prop_map(|(d, i)| Op::Select(d, i)),
        (0..5usize).prop_map(Op::Unsqueeze),
        Just(Op::Squeeze),
        (0..4usize, 1..4i64).prop_map(|(d, n)| Op::Expand(d, n)),
        (-2..3i64).prop_map(Op::Diagonal),
        (0..4usize, 0..3i64, 1..3i64).prop_map(|(d, s, st)| Op::Unfold(d, s, st)),
        Just(Op::Flatten),
        (0..4usize, 1..3i64).prop_map(|(d, s)| Op::Step(d, s)),
    ]
}

/// Applies `op` to both, or returns `None` when the op does not apply to this shape.
fn apply(t: &Tensor, m: &Model, op: &Op) -> Option<(Tensor, Model)> {
    let n = m.shape.len();
    let sh = &m.shape;
    match *op {
        Op::Transpose(a, b) if a < n && b < n => {
            let t2 = views::transpose(t, a as i64, b as i64).ok()?;
            let mut shape = sh.clone();
            shape.swap(a, b);
            let m2 = m.remap(shape, |i| {
                let mut j = i.to_vec();
                j.swap(a, b);
                j
            });
            Some((t2, m2))
        }
        Op::Narrow(d, s, l) if d < n && s + l <= sh[d] => {
            let t2 = views::narrow(t, d as i64, s, l).ok()?;
            let mut shape = sh.clone();
            shape[d] = l;
            Some((
                t2,
                m.remap(shape, |i| {
                    let mut j = i.to_vec();
                    j[d] += s;
                    j
                }),
            ))
        }
        Op::Select(d, i) if d < n && i < sh[d] => {
            let t2 = views::select(t, d as i64, i).ok()?;
            let mut shape = sh.clone();
            shape.remove(d);
            Some((
                t2,
                m.remap(shape, |idx| {
                    let mut j = idx.to_vec();
                    j.insert(d, i);
                    j
                }),
            ))
        }
        Op::Unsqueeze(d) if d <= n && n < 6 => {
            let t2 = views::unsqueeze(t, d as i64).ok()?;
            let mut shape = sh.clone();
            shape.insert(d, 1);
            Some((
                t2,
                m.remap(shape, |idx| {
                    let mut j = idx.to_vec();
                    j.remove(d);
                    j
                }),
            ))
        }
        Op::Squeeze => {
            let t2 = views::squeeze(t, None).ok()?;
            let keep: Vec<usize> = (0..n).filter(|&d| sh[d] != 1).collect();
            let shape = keep.iter().map(|&d| sh[d]).collect();
            Some((
                t2,
                m.remap(shape, |idx| {
                    let mut j = vec![0; n];
                    for (k, &d) in keep.iter().enumerate() {
                        j[d] = idx[k];
                    }
                    j
                }),
            ))
        }
        Op::Expand(d, size) if d < n && sh[d] == 1 => {
            let mut shape = sh.clone();
            shape[d] = size;
            let t2 = views::expand(t, &shape).ok()?;
            Some((
                t2,
                m.remap(shape, |idx| {
                    let mut j = idx.to_vec();
                    j[d] = 0;
                    j
                }),
            ))
        }
        Op::Diagonal(off) if n >= 2 => {
            let t2 = views::diagonal(t, off, 0, 1).ok()?;
            let len = if off >= 0 {
                sh[0].min(sh[1] - off)
            } else {
                (sh[0] + off).min(sh[1])
            }
            .max(0);
            let mut shape: Vec<i64> = sh[2..].to_vec();
            shape.push(len);
            Some((
                t2,
                m.remap(shape, |idx| {
                    let k = idx[idx.len() - 1];
                    let (r, c) = if off >= 0 { (k, k + off) } else { (k - off, k) };
                    let mut j = vec![r, c];
                    j.extend_from_slice(&idx[..idx.len() - 1]);
                    j
                }),
            ))
        }
        Op::Unfold(d, size, step) if d < n && size <= sh[d] => {
            let t2 = views::unfold(t, d as i64, size, step).ok()?;
            let mut shape = sh.clone();
            shape[d] = (sh[d] - size) / step + 1;
            shape.push(size);
            Some((
                t2,
                m.remap(shape, |idx| {
                    let mut j = idx[..n].to_vec();
                    j[d] = idx[d] * step + idx[n];
                    j
                }),
            ))
        }
        Op::Flatten => {
            // reshape keeps row-major element order whether it views or copies; compare the
            // values, and when it is a view, the offsets too.
            let t2 = views::reshape(t, &[-1]).ok()?;
            Some((
                t2,
                Model {
                    shape: vec![m.offsets.len() as i64],
                    offsets: m.offsets.clone(),
                },
            ))
        }
        Op::Step(d, step) if d < n => {
            let items = {
                let mut v: Vec<super::index::IndexItem> = (0..d)
                    .map(|_| super::index::IndexItem::Slice {
                        start: None,
                        stop: None,
                        step: None,
                    })
                    .collect();
                v.push(super::index::IndexItem::Slice {
                    start: None,
                    stop: None,
                    step: Some(step),
                });
                v
            };
            let t2 = super::index::index(t, &items).ok()?;
            let mut shape = sh.clone();
            shape[d] = (sh[d] + step - 1) / step;
            Some((
                t2,
                m.remap(shape, |idx| {
                    let mut j = idx.to_vec();
                    j[d] *= step;
                    j
                }),
            ))
        }
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn view_chains_match_the_offset_model(
        shape in prop::collection::vec(0..4i64, 1..4),
        ops in prop::collection::vec(op_strategy(), 0..8),
    ) {
        let n: i64 = shape.iter().product();
        let base = arange(Scalar::Int(0), Scalar::Int(n), Scalar::Int(1), Some(DType::Int64)).unwrap();
        let mut t = views::view(&base, &shape).unwrap();
        let mut m = Model { shape: shape.clone(), offsets: (0..n).collect() };
        for op in &ops {
            if let Some((t2, m2)) = apply(&t, &m, op) {
                t = t2;
                m = m2;
            }
            prop_assert_eq!(t.sizes(), m.shape.clone(), "shape after {:?}", op);
            // The base holds 0..n, so each element's value is the storage offset it reaches.
            let values: Vec<i64> = to_scalars(&t).unwrap().iter().map(|s| s.to_i64()).collect();
            prop_assert_eq!(&values, &m.offsets, "elements after {:?}", op);
        }
    }
}
