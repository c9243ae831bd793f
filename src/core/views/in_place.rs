//! View ops applied to the tensor itself (`t_`, `transpose_`, `squeeze_`, `unsqueeze_`,
//! `as_strided_`): the tensor keeps its identity and storage and takes the layout the
//! matching view op would give it. Autograd records the change as a view of the tensor's
//! previous value, under PyTorch's name for the in-place form (`TBackward1`, ...), so the
//! gradient flows back through the old layout.

use super::super::error::Result;
use super::super::layout::Layout;
use super::super::tensor::Tensor;
use super::super::tensor::graph::{BackwardOp, ViewReplay, record};

/// Gives `x` the layout `view` computes from it, recorded as `name`. `view` runs on an
/// untracked alias of `x`, so it records nothing of its own and its errors (PyTorch's,
/// word for word) leave `x` unchanged; it is kept as the record's replay.
pub fn relayout(
    x: &Tensor,
    name: &str,
    view: impl Fn(&Tensor) -> Result<Tensor> + 'static,
) -> Result<()> {
    let layout = view(&x.alias(x.layout()))?.layout();
    set_recorded(x, layout, name, Some(ViewReplay::one(view)));
    Ok(())
}

/// Sets `x`'s layout to `layout` (already checked against its storage) and, when autograd
/// tracks `x`, records the change as the view node `name`, made again by `replay` (`None`
/// for `as_strided_`, whose gradient follows storage elements).
pub fn set_recorded(x: &Tensor, layout: Layout, name: &str, replay: Option<ViewReplay>) {
    let before = x.layout();
    x.set_layout(layout.clone());
    if x.requires_grad() {
        let op = BackwardOp::View {
            input: before,
            dtype: x.dtype(),
            storage_nbytes: x.storage().nbytes(),
            outputs: vec![(layout, x.dtype())],
            multi_output: false,
            replay,
        };
        record(&[x], name, &[x], op);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::dtype::DType;
    use crate::core::views::transpose;

    #[test]
    fn the_tensor_takes_the_view_layout_and_keeps_its_identity() {
        let x = Tensor::zeros(vec![2, 3], DType::Float32).unwrap();
        let same = x.clone();
        relayout(&x, "TransposeBackward1", |a| transpose(a, 0, 1)).unwrap();
        assert_eq!(same.sizes(), vec![3, 2]);
        assert_eq!(same.layout().strides[..], [1, 3]);
        assert!(x.grad_state().grad_fn.is_none());
    }

    #[test]
    fn an_error_leaves_the_tensor_as_it_was() {
        let x = Tensor::zeros(vec![2, 3], DType::Float32).unwrap();
        assert!(relayout(&x, "TransposeBackward1", |a| transpose(a, 0, 5)).is_err());
        assert_eq!(x.sizes(), vec![2, 3]);
    }

    #[test]
    fn a_tracked_tensor_records_the_in_place_view() {
        let leaf = Tensor::zeros(vec![2, 3], DType::Float32).unwrap();
        leaf.with_grad_mut(|g| g.requires_grad = true);
        let y = leaf.alias(leaf.layout());
        record(
            &[&y],
            "CloneBackward0",
            &[&leaf],
            BackwardOp::Copy {
                sizes: vec![2, 3],
                dtype: DType::Float32,
            },
        );
        relayout(&y, "TransposeBackward1", |a| transpose(a, 0, 1)).unwrap();
        let node = y.grad_state().grad_fn.expect("recorded");
        assert_eq!(node.name, "TransposeBackward1");
    }
}
