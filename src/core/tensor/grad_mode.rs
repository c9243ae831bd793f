//! Grad mode: whether ops record themselves for autograd (`torch.no_grad()`,
//! `torch.enable_grad()`, `torch.set_grad_enabled(b)`, `torch.inference_mode()`), one
//! setting per thread as in PyTorch. With recording off, results do not require grad and
//! in-place writes to leaves that require grad are allowed.

use std::cell::Cell;

thread_local! {
    static ENABLED: Cell<bool> = const { Cell::new(true) };
    static INFERENCE: Cell<bool> = const { Cell::new(false) };
}

/// Whether ops record for autograd (`torch.is_grad_enabled()`).
pub fn is_enabled() -> bool {
    ENABLED.with(Cell::get)
}

/// Turns recording on or off; returns the previous setting.
pub fn set_enabled(on: bool) -> bool {
    ENABLED.with(|e| e.replace(on))
}

/// Whether inference mode is on (`torch.is_inference_mode_enabled()`).
pub fn is_inference() -> bool {
    INFERENCE.with(Cell::get)
}

/// Turns inference mode on or off (recording off with it); returns the previous grad and
/// inference settings.
pub fn set_inference(on: bool) -> (bool, bool) {
    let grad = if on { set_enabled(false) } else { is_enabled() };
    (grad, INFERENCE.with(|i| i.replace(on)))
}

/// Puts back settings `set_inference` returned.
pub fn restore(grad: bool, inference: bool) {
    set_enabled(grad);
    INFERENCE.with(|i| i.set(inference));
}

/// Back to the default (recording on, inference off), as a fresh process starts.
pub fn reset() {
    restore(true, false);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_nest_and_restore() {
        assert!(is_enabled());
        let before = set_enabled(false);
        assert!(before && !is_enabled());
        let (g, i) = set_inference(true);
        assert!(is_inference() && !g && !i);
        restore(g, i);
        assert!(!is_inference() && !is_enabled());
        reset();
        assert!(is_enabled());
    }
}
