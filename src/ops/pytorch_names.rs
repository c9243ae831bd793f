//! The public names PyTorch has on the types tensh models (`pytorch_names.txt`, written by
//! `tools/pytorch_names.py` from real PyTorch). A name a script asks for that tensh lacks
//! is either one PyTorch has too, which tensh has not built and says so
//! (`NotImplementedError`), or one PyTorch lacks as well, which keeps Python's
//! `AttributeError`.

use crate::core::error::TorchError;

/// `Owner.name` lines, sorted by byte order (the invariant `contains` searches on).
const NAMES: &str = include_str!("pytorch_names.txt");

/// Whether PyTorch has `owner.name` (`owner` is `Tensor`, `UntypedStorage`,
/// `TypedStorage`, `torch` for its functions or `torch_attribute` for its classes and
/// sub-modules).
pub fn contains(owner: &str, name: &str) -> bool {
    lines()
        .binary_search_by(|line| {
            let (o, n) = line.split_once('.').unwrap_or((line, ""));
            o.cmp(owner).then_with(|| n.cmp(name))
        })
        .is_ok()
}

/// Whether the list holds names of `owner` (`nn::functional`): a sub-module whose
/// attributes are checked against PyTorch's.
pub fn has_owner(owner: &str) -> bool {
    let lines = lines();
    // Read on every attribute of a sub-module (`F.relu` in a loop): nothing allocated.
    let owner_of = |line: &'static str| line.split_once('.').map_or(line, |(o, _)| o);
    let first = lines.partition_point(|line| owner_of(line) < owner);
    lines.get(first).is_some_and(|line| owner_of(line) == owner)
}

/// The list's lines, split once: attribute lookups (every `torch.X` in Python) search it.
fn lines() -> &'static [&'static str] {
    static LINES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    LINES.get_or_init(|| NAMES.lines().collect())
}

/// The error for `owner.name` when PyTorch has it and tensh does not: the reason when the
/// name belongs to a family tensh leaves out (`out_of_scope`), else "not yet".
pub fn not_built(owner: &str, name: &str) -> Option<TorchError> {
    // A class or sub-module of `torch` (`torch.FloatTensor`) is listed apart from its
    // functions, and is as unbuilt when called.
    let listed = contains(owner, name) || (owner == "torch" && contains("torch_attribute", name));
    if !listed {
        return None;
    }
    // A sub-module's name is shown by its Python path; the families left out are `torch`'s.
    let submodule = !matches!(
        owner,
        "torch" | "Tensor" | "UntypedStorage" | "TypedStorage"
    );
    let shown = if submodule {
        format!("torch.{}.{name}", owner.replace("::", "."))
    } else {
        format!("{owner}.{name}")
    };
    Some(TorchError::not_implemented(
        match super::out_of_scope::reason(name).filter(|_| !submodule) {
            Some(why) => format!("tensh leaves {shown} out: {why}"),
            None => format!("tensh does not implement {shown} yet (PyTorch has it)"),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted_so_it_can_be_searched() {
        let lines: Vec<&str> = NAMES.lines().collect();
        let keys: Vec<(&str, &str)> = lines
            .iter()
            .map(|l| l.split_once('.').unwrap_or((l, "")))
            .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn knows_pytorch_names_and_only_those() {
        assert!(contains("Tensor", "sort"));
        assert!(contains("torch", "meshgrid"));
        assert!(contains("UntypedStorage", "nbytes"));
        assert!(!contains("Tensor", "frobnicate"));
        assert!(!contains("torch", "sort_"));
        assert!(not_built("Tensor", "frobnicate").is_none());
        assert!(contains("nn::functional", "pad"));
        assert!(has_owner("nn::functional") && has_owner("special") && has_owner("torch"));
        assert!(!has_owner("nn::functiona") && !has_owner("fft::x"));
        // A sub-module's unbuilt name is shown by its Python path, never as left out.
        let e = not_built("nn::functional", "conv2d").map(|e| e.message);
        assert_eq!(
            e.as_deref(),
            Some("tensh does not implement torch.nn.functional.conv2d yet (PyTorch has it)")
        );
        let e = not_built("Tensor", "sort").map(|e| e.message);
        assert_eq!(
            e.as_deref(),
            Some("tensh does not implement Tensor.sort yet (PyTorch has it)")
        );
    }
}
