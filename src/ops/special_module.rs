//! The `torch::special` module: the functions of `torch.special` that are `torch`
//! functions under another name (`expit` is `sigmoid`, `gammaln` is `lgamma`, `psi` is
//! `digamma`, ...), each an op-table path checked against its own declaration (PyTorch's
//! messages name `special_expit()`) and then calling the `torch` function's entry, so the
//! values, dtypes and autograd nodes are that function's, as in PyTorch.

use std::rc::Rc;

use crate::ops::op_table::OpTable;

/// Each `torch.special` name with the `torch` function it is.
const ALIASES: &[(&str, &str)] = &[
    ("digamma", "digamma"),
    ("psi", "digamma"),
    ("erf", "erf"),
    ("erfc", "erfc"),
    ("erfinv", "erfinv"),
    ("exp2", "exp2"),
    ("expm1", "expm1"),
    ("expit", "sigmoid"),
    ("i0", "i0"),
    ("log1p", "log1p"),
    ("sinc", "sinc"),
    ("round", "round"),
    ("logit", "logit"),
    ("logsumexp", "logsumexp"),
    ("softmax", "softmax"),
    ("log_softmax", "log_softmax"),
    ("polygamma", "polygamma"),
    ("xlogy", "xlogy"),
    ("gammaln", "lgamma"),
    ("multigammaln", "mvlgamma"),
    ("gammainc", "igamma"),
    ("gammaincc", "igammac"),
];

/// Adds the `torch::special` sub-module's functions to `ops`.
pub fn add_special(ops: &mut OpTable) {
    for &(name, of) in ALIASES {
        // The function's last form, which reads the most arguments (registered before this
        // module is made).
        let Some(target) = ops.function_for_direct(of, 0) else {
            continue;
        };
        let max = target.arity();
        ops.submodule_function(
            "special",
            name,
            max,
            Rc::new(move |mut a| {
                // `special_round` is always `round`'s overload with `decimals`
                // (`RoundBackward1`).
                if name == "round" && !a.kw.contains_key("decimals") {
                    a.kw.insert("decimals".into(), rhai::Dynamic::from(0_i64));
                }
                target.call(a)
            }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_alias_is_declared() {
        for &(name, _) in ALIASES {
            let path = format!("special::{name}");
            assert!(
                crate::ops::signature::lookup("torch", &path).is_some(),
                "torch.{path} has no declaration"
            );
        }
    }
}
