//! What the elementwise ops take and which op they compute: shared by the general path
//! (`ops`) and the typed fast paths (`ops_fast`), which depend on it and not on each other.

use super::scalar::Scalar;
use super::tensor::Tensor;

/// An operand: a tensor or a Python number.
#[derive(Debug, Clone)]
pub enum Arg {
    /// A tensor.
    Tensor(Tensor),
    /// A Python number.
    Number(Scalar),
}

impl Arg {
    /// The tensor, when the operand is one.
    pub fn as_tensor(&self) -> Option<&Tensor> {
        match self {
            Arg::Tensor(t) => Some(t),
            Arg::Number(_) => None,
        }
    }

    /// Whether this is a number.
    pub fn is_number(&self) -> bool {
        matches!(self, Arg::Number(_))
    }
}

/// The tensors among `a`, `b`.
pub fn tensors_of<'t>(a: &'t Arg, b: &'t Arg) -> Vec<&'t Tensor> {
    [a, b].into_iter().filter_map(Arg::as_tensor).collect()
}

/// The binary ops tensh computes elementwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}
