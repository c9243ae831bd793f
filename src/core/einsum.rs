//! `torch.einsum(equation, *operands)`: the subscripts parsed (letters, `...` for
//! broadcast dims, an implicit output of the labels seen once, in PyTorch's label order),
//! repeated labels of one operand taken as diagonals, labels no one needs later summed
//! out, and the operands contracted left to right, each pair as one batched matrix
//! product (batch labels, the pair's free labels, the contracted ones), as PyTorch
//! contracts them. Every step is a tracked op, so gradients flow through the result.

use super::error::{Result, TorchError};
use super::linalg::matmul;
use super::reduce::{Reduction, reduce};
use super::tensor::Tensor;
use super::tensor::record::record_sum;
use super::views;

/// A label: 0–25 for `A`–`Z`, 26–51 for `a`–`z`, 52 on for the dims `...` stands for.
type Label = usize;

/// The first label of the dims an ellipsis stands for.
const ELLIPSIS: Label = 52;

/// One term of the equation: its labels, and where its `...` is (if it has one).
struct Term {
    labels: Vec<Label>,
    ellipsis_at: Option<usize>,
}

fn label_of(c: char) -> Option<Label> {
    match c {
        'A'..='Z' => Some(c as usize - 'A' as usize),
        'a'..='z' => Some(c as usize - 'a' as usize + 26),
        _ => None,
    }
}

fn char_of(l: Label) -> char {
    if l < 26 {
        (b'A' + l as u8) as char
    } else {
        (b'a' + (l - 26) as u8) as char
    }
}

fn parse_term(text: &str) -> Result<Term> {
    let mut labels = Vec::new();
    let mut ellipsis_at = None;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("...") {
            if ellipsis_at.is_some() {
                return Err(TorchError::runtime(
                    "einsum(): found '.' for operand 0 for which an ellipsis was already found",
                ));
            }
            ellipsis_at = Some(labels.len());
            rest = after;
            continue;
        }
        let label = label_of(c).ok_or_else(|| {
            TorchError::runtime(format!(
                "einsum(): invalid subscript given at index {} in the equation string, subscripts must be in [a-zA-Z]",
                text.len() - rest.len()
            ))
        })?;
        labels.push(label);
        rest = &rest[c.len_utf8()..];
    }
    Ok(Term {
        labels,
        ellipsis_at,
    })
}

/// The labels of an operand's dims, its `...` expanded to the last `dims` of the `width`
/// broadcast dims.
fn expanded(term: &Term, dims: usize, width: usize) -> Vec<Label> {
    match term.ellipsis_at {
        None => term.labels.clone(),
        Some(at) => {
            let mut out = term.labels[..at].to_vec();
            out.extend((width - dims..width).map(|k| ELLIPSIS + k));
            out.extend_from_slice(&term.labels[at..]);
            out
        }
    }
}

/// A tensor with one label per dim.
struct Labelled {
    t: Tensor,
    labels: Vec<Label>,
}

impl Labelled {
    /// Repeated labels replaced by their diagonals.
    fn diagonals(mut self) -> Result<Labelled> {
        loop {
            let repeat = self.labels.iter().enumerate().find_map(|(i, l)| {
                self.labels[i + 1..]
                    .iter()
                    .position(|m| m == l)
                    .map(|j| (i, i + 1 + j))
            });
            let Some((i, j)) = repeat else {
                return Ok(self);
            };
            let label = self.labels[i];
            self.t = views::diagonal(&self.t, 0, i as i64, j as i64)?;
            self.labels.remove(j);
            self.labels.remove(i);
            self.labels.push(label);
        }
    }

    /// Sums out the labels `keep` rejects.
    fn sum_unneeded(self, keep: impl Fn(Label) -> bool) -> Result<Labelled> {
        let dims: Vec<i64> = (0..self.labels.len())
            .filter(|&d| !keep(self.labels[d]))
            .map(|d| d as i64)
            .collect();
        if dims.is_empty() {
            return Ok(self);
        }
        let out = reduce(&self.t, Reduction::Sum, Some(&dims), false)?;
        record_sum(&out, &self.t, Some(&dims), false);
        let labels = self.labels.into_iter().filter(|&l| keep(l)).collect();
        Ok(Labelled { t: out, labels })
    }

    fn size(&self, l: Label) -> i64 {
        self.labels
            .iter()
            .position(|&m| m == l)
            .map_or(1, |d| self.t.sizes()[d])
    }

    /// Permuted to `order` (labels it has) and expanded to `sizes`, then reshaped to
    /// `shape`.
    fn arranged(&self, order: &[Label], sizes: &[i64], shape: &[i64]) -> Result<Tensor> {
        let dims: Vec<i64> = order
            .iter()
            .map(|l| self.labels.iter().position(|m| m == l).unwrap_or(0) as i64)
            .collect();
        let permuted = views::permute(&self.t, &dims)?;
        let expanded = views::expand(&permuted, sizes)?;
        views::reshape(&expanded, shape)
    }
}

/// The contraction of `a` and `b`, keeping the labels `later` needs.
fn contract(a: Labelled, b: Labelled, later: &dyn Fn(Label) -> bool) -> Result<Labelled> {
    let a = a.sum_unneeded(|l| later(l) || b.labels.contains(&l))?;
    let b = b.sum_unneeded(|l| later(l) || a.labels.contains(&l))?;
    let shared = |l: &Label| b.labels.contains(l);
    let batch: Vec<Label> = a
        .labels
        .iter()
        .copied()
        .filter(|l| shared(l) && later(*l))
        .collect();
    let summed: Vec<Label> = a
        .labels
        .iter()
        .copied()
        .filter(|l| shared(l) && !later(*l))
        .collect();
    let a_free: Vec<Label> = a.labels.iter().copied().filter(|l| !shared(l)).collect();
    let b_free: Vec<Label> = b
        .labels
        .iter()
        .copied()
        .filter(|l| !a.labels.contains(l))
        .collect();
    // A label of size 1 in one operand broadcasts to the other's size (0 included).
    let both = |l: Label| if a.size(l) == 1 { b.size(l) } else { a.size(l) };
    let sizes = |ls: &[Label]| -> Vec<i64> { ls.iter().map(|&l| both(l)).collect() };
    let product = |ls: &[Label]| -> i64 { sizes(ls).iter().product() };
    let a_product: i64 = a_free.iter().map(|&l| a.size(l)).product();
    let b_product: i64 = b_free.iter().map(|&l| b.size(l)).product();
    let (n_batch, m, k, n) = (product(&batch), a_product, product(&summed), b_product);
    let a_order: Vec<Label> = batch
        .iter()
        .chain(&a_free)
        .chain(&summed)
        .copied()
        .collect();
    let a_sizes: Vec<i64> = batch
        .iter()
        .map(|&l| both(l))
        .chain(a_free.iter().map(|&l| a.size(l)))
        .chain(summed.iter().map(|&l| both(l)))
        .collect();
    let b_order: Vec<Label> = batch
        .iter()
        .chain(&summed)
        .chain(&b_free)
        .copied()
        .collect();
    let b_sizes: Vec<i64> = batch
        .iter()
        .chain(&summed)
        .map(|&l| both(l))
        .chain(b_free.iter().map(|&l| b.size(l)))
        .collect();
    let left = a.arranged(&a_order, &a_sizes, &[n_batch, m, k])?;
    let right = b.arranged(&b_order, &b_sizes, &[n_batch, k, n])?;
    let out = matmul(&left, &right)?;
    let shape: Vec<i64> = sizes(&batch)
        .into_iter()
        .chain(a_free.iter().map(|&l| a.size(l)))
        .chain(b_free.iter().map(|&l| b.size(l)))
        .collect();
    let labels = batch.into_iter().chain(a_free).chain(b_free).collect();
    Ok(Labelled {
        t: views::reshape(&out, &shape)?,
        labels,
    })
}

/// `torch.einsum(equation, operands)`.
pub fn einsum(equation: &str, operands: &[Tensor]) -> Result<Tensor> {
    let equation: String = equation.chars().filter(|c| !c.is_whitespace()).collect();
    let (inputs, output) = match equation.split_once("->") {
        Some((i, o)) => (i, Some(o)),
        None => (equation.as_str(), None),
    };
    let terms: Vec<Term> = inputs.split(',').map(parse_term).collect::<Result<_>>()?;
    if terms.len() > operands.len() {
        return Err(TorchError::runtime(
            "einsum(): fewer operands were provided than specified in the equation",
        ));
    }
    if terms.len() < operands.len() {
        return Err(TorchError::runtime(
            "einsum(): more operands were provided than specified in the equation",
        ));
    }
    // Each operand's ellipsis width, and the widest.
    let mut widths = Vec::with_capacity(terms.len());
    for (i, (term, t)) in terms.iter().zip(operands).enumerate() {
        let (n, ndim) = (term.labels.len(), t.ndim());
        let width = match term.ellipsis_at {
            None if n != ndim => {
                return Err(TorchError::runtime(format!(
                    "einsum(): the number of subscripts in the equation ({n}) does not match the number of dimensions ({ndim}) for operand {i} and no ellipsis was given"
                )));
            }
            None => 0,
            Some(_) if n > ndim => {
                return Err(TorchError::runtime(format!(
                    "einsum(): the number of subscripts in the equation ({n}) is more than the number of dimensions ({ndim}) for operand {i}"
                )));
            }
            Some(_) => ndim - n,
        };
        widths.push(width);
    }
    let width = widths.iter().copied().max().unwrap_or(0);
    let mut labelled: Vec<Labelled> = terms
        .iter()
        .zip(operands)
        .zip(&widths)
        .map(|((term, t), &w)| Labelled {
            t: t.clone(),
            labels: expanded(term, w, width),
        })
        .collect();
    // Sizes agree or broadcast.
    let mut seen: Vec<Option<i64>> = vec![None; ELLIPSIS + width];
    for (i, op) in labelled.iter().enumerate() {
        for (d, &l) in op.labels.iter().enumerate() {
            let s = op.t.sizes()[d];
            match seen[l] {
                Some(prev) if prev != s && prev != 1 && s != 1 => {
                    return Err(TorchError::runtime(format!(
                        "einsum(): subscript {} has size {s} for operand {i} which does not broadcast with previously seen size {prev}",
                        char_of(l)
                    )));
                }
                Some(prev) if prev != 1 => {}
                _ => seen[l] = Some(s),
            }
        }
    }
    // The dtypes are checked after the sizes, as PyTorch's einsum reaches its kernel.
    let dtype = operands[0].dtype();
    if let Some(other) = operands.iter().find(|o| o.dtype() != dtype) {
        return Err(TorchError::runtime(format!(
            "expected scalar type {} but found {}",
            dtype.cpp_name(),
            other.dtype().cpp_name()
        )));
    }
    let out_labels: Vec<Label> = match output {
        Some(text) => {
            let term = parse_term(text)?;
            let labels = expanded(&term, width, width);
            for (k, &l) in labels.iter().enumerate() {
                if l < ELLIPSIS && !labelled.iter().any(|o| o.labels.contains(&l)) {
                    return Err(TorchError::runtime(format!(
                        "einsum(): output subscript {} does not appear in the equation for any input operand",
                        char_of(l)
                    )));
                }
                if labels[..k].contains(&l) {
                    return Err(TorchError::runtime(format!(
                        "einsum(): output subscript {} appears more than once in the output",
                        char_of(l)
                    )));
                }
            }
            labels
        }
        None => {
            let count = |l: Label| {
                terms
                    .iter()
                    .map(|t| t.labels.iter().filter(|&&m| m == l).count())
                    .sum::<usize>()
            };
            (ELLIPSIS..ELLIPSIS + width)
                .chain((0..ELLIPSIS).filter(|&l| count(l) == 1))
                .collect()
        }
    };
    labelled = labelled
        .into_iter()
        .map(Labelled::diagonals)
        .collect::<Result<_>>()?;
    let mut rest = labelled.into_iter();
    let Some(mut acc) = rest.next() else {
        return Err(TorchError::runtime(
            "einsum(): must provide at least one operand",
        ));
    };
    let remaining: Vec<Labelled> = rest.collect();
    for (i, op) in remaining.iter().enumerate() {
        let later_ops = &remaining[i + 1..];
        let later =
            |l: Label| out_labels.contains(&l) || later_ops.iter().any(|o| o.labels.contains(&l));
        let next = Labelled {
            t: op.t.clone(),
            labels: op.labels.clone(),
        };
        acc = contract(acc, next, &later)?;
    }
    let acc = acc.sum_unneeded(|l| out_labels.contains(&l))?;
    let order: Vec<i64> = out_labels
        .iter()
        .filter_map(|l| acc.labels.iter().position(|m| m == l).map(|d| d as i64))
        .collect();
    let is_identity = order.iter().enumerate().all(|(i, &d)| i as i64 == d);
    let out = if is_identity {
        acc.t
    } else {
        views::permute(&acc.t, &order)?
    };
    // Output labels broadcast from size 1 in every operand stay 1; a label only in the
    // output of size-1 broadcasts is kept by `expand` below.
    let sizes: Vec<i64> = out_labels.iter().map(|&l| seen[l].unwrap_or(1)).collect();
    if out.sizes() == sizes {
        Ok(out)
    } else {
        views::expand(&out, &sizes)
    }
}
