//! Which language the text tensh writes for a person spells code in: `torch::int32` and
//! `#{dtype: ...}` at a Rhai prompt, `torch.int32` and `dtype=...` at a Python one. Set by
//! the front that runs (`repl::console` on `:python`/`:rhai`, a Python file when it
//! starts); read by the teaching text (`explain`, `:why`).

use std::cell::Cell;

thread_local! {
    static PYTHON: Cell<bool> = const { Cell::new(false) };
}

/// Spells code as Python (`true`) or Rhai (`false`) from now on, on this thread.
pub fn set_python(on: bool) {
    PYTHON.with(|p| p.set(on));
}

/// Whether code is spelled as Python now.
pub fn python() -> bool {
    PYTHON.with(Cell::get)
}

/// A `torch` name (`torch.int32`, as `Display` writes a dtype) as the language spells it.
pub fn torch_name(name: &str) -> String {
    if python() {
        name.to_string()
    } else {
        name.replace("torch.", "torch::")
    }
}
