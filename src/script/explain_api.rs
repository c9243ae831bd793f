//! `explain(t)`: prints the teaching picture of `t`'s memory (`print::explain`), naming the
//! session's other tensors over the same storage. It is syntax rather than a function so it
//! can look at the caller's variables.

use rhai::{Dynamic, Engine};

use super::errors::type_error;
use super::output;
use crate::core::tensor::Tensor;
use crate::print::explain::explain;

/// Registers `explain(EXPR)`.
pub fn register(engine: &mut Engine) {
    let registered =
        engine.register_custom_syntax(["explain", "(", "$expr$", ")"], false, |ctx, inputs| {
            let value = ctx.eval_expression_tree(&inputs[0])?;
            let Some(t) = value.clone().try_cast::<Tensor>() else {
                return Err(type_error(format!(
                    "explain() expects a tensor, got {}",
                    ctx.engine().map_type_name(value.type_name())
                )));
            };
            let storage = t.storage();
            let mut sharing: Vec<String> = Vec::new();
            for (name, _, v) in ctx.scope().iter_raw() {
                if !super::hidden::is_hidden_name(name)
                    && let Some(other) = v.clone().try_cast::<Tensor>()
                    && !other.ptr_eq(&t)
                    && other.storage().shares_memory(&storage)
                    && !sharing.iter().any(|n| n == name)
                {
                    sharing.push(name.to_string());
                }
            }
            sharing.reverse();
            for line in explain(&t, &sharing, output::color()).lines() {
                output::print_line(line);
            }
            Ok(Dynamic::UNIT)
        });
    // The syntax is fixed and valid; registration can only fail on a malformed pattern.
    debug_assert!(registered.is_ok());
}
