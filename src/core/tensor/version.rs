//! PyTorch's version counter: every in-place write to a tensor adds one to a counter it
//! shares with its views (and `detach()`, but not `.data`). A gradient formula that reads
//! a tensor records the version it saved; if the tensor was written since, `backward()`
//! refuses, in PyTorch's words, rather than compute with the new values.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use super::{Tensor, TensorImpl};
use crate::core::error::TorchError;

/// A counter shared by a tensor and its views.
#[derive(Debug, Clone, Default)]
pub struct VersionCounter(Rc<Cell<u32>>);

impl VersionCounter {
    /// The current version (`t._version`).
    pub fn get(&self) -> u32 {
        self.0.get()
    }

    /// Counts one in-place write.
    pub fn bump(&self) {
        self.0.set(self.0.get().wrapping_add(1));
    }

    /// Puts the count back to `version` (a write counted before it ran was refused).
    pub fn restore(&self, version: u32) {
        self.0.set(version);
    }
}

/// How a saved tensor relates to the node that saved it (for the message).
#[derive(Debug)]
enum Origin {
    /// An output of the node itself (`exp` saves its result), named by the node.
    Output(String),
    /// An input; the message names its grad_fn at the time of the check. Weak, so a saved
    /// input never keeps alive the graph that will later be recorded on it.
    Input(Weak<RefCell<TensorImpl>>),
}

/// A tensor a formula reads, with its version when saved.
#[derive(Debug)]
pub struct SavedVersion {
    counter: VersionCounter,
    at: u32,
    /// `[torch.FloatTensor [2, 3]]`: the tensor as the message shows it.
    described: String,
    origin: Origin,
}

/// `[torch.FloatTensor [2, 3]]`.
fn describe(t: &Tensor) -> String {
    let sizes: Vec<String> = t.sizes().iter().map(i64::to_string).collect();
    format!(
        "[torch.{}Tensor [{}]]",
        t.dtype().cpp_name(),
        sizes.join(", ")
    )
}

impl SavedVersion {
    /// `t`, an input of the op being recorded, as saved now.
    pub fn input(t: &Tensor) -> SavedVersion {
        SavedVersion {
            counter: t.version(),
            at: t.version().get(),
            described: describe(t),
            origin: Origin::Input(Rc::downgrade(&t.0)),
        }
    }

    /// `t`, an output of the node `node` being recorded, as saved now.
    pub fn output(t: &Tensor, node: &str) -> SavedVersion {
        SavedVersion {
            counter: t.version(),
            at: t.version().get(),
            described: describe(t),
            origin: Origin::Output(node.to_string()),
        }
    }

    /// PyTorch's error when the tensor was written in place since it was saved.
    pub fn check(&self) -> Result<(), TorchError> {
        let now = self.counter.get();
        if now == self.at {
            return Ok(());
        }
        let node = match &self.origin {
            Origin::Output(node) => Some(node.clone()),
            Origin::Input(weak) => weak
                .upgrade()
                .map(Tensor)
                .and_then(|t| t.grad_state().grad_fn.map(|n| n.name.clone())),
        };
        let which = node
            .map(|n| format!(", which is output 0 of {},", op_name(&n)))
            .unwrap_or_default();
        Err(TorchError::runtime(format!(
            "one of the variables needed for gradient computation has been modified by an inplace operation: {}{which} is at version {now}; expected version {} instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).",
            self.described, self.at
        )))
    }
}

/// A node's name as this message prints it: `TanhBackward0` is `Tanh`; a node without
/// the `Backward<n>` suffix is named by its C++ class (`torch::autograd::CopySlices`).
fn op_name(node: &str) -> String {
    let digits = node.trim_end_matches(|c: char| c.is_ascii_digit());
    match digits.strip_suffix("Backward") {
        Some(op) if digits.len() < node.len() => op.to_string(),
        _ => format!("torch::autograd::{node}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_names_as_the_message_prints_them() {
        assert_eq!(op_name("TanhBackward0"), "Tanh");
        assert_eq!(op_name("CopySlices"), "torch::autograd::CopySlices");
    }

    #[test]
    fn a_write_after_saving_is_refused_and_views_share_the_counter() {
        let t = Tensor::zeros(vec![2], crate::core::dtype::DType::Float32).unwrap();
        let saved = SavedVersion::input(&t);
        assert!(saved.check().is_ok());
        t.alias(t.layout()).version().bump();
        let e = saved.check().unwrap_err().message;
        assert!(
            e.contains("[torch.FloatTensor [2]] is at version 1; expected version 0"),
            "{e}"
        );
    }
}
