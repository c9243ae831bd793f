//! `help(obj)` in Python: the help text comes from the prompt's catalog (`repl::help`), which
//! sits above this front end; the prompt (or the command line) provides it here when it
//! starts, so Python code never reaches up for it.

use std::cell::Cell;

/// Finds the help text for a name (`torch.zeros`, `Tensor.view`, a topic).
pub type Provider = fn(&str) -> Option<String>;

thread_local! {
    static PROVIDER: Cell<Option<Provider>> = const { Cell::new(None) };
}

/// Makes `help(...)` answer with `provider`'s texts on this thread.
pub fn provide(provider: Provider) {
    PROVIDER.with(|p| p.set(Some(provider)));
}

/// The help text for `name`, if a provider knows it.
pub fn text(name: &str) -> Option<String> {
    PROVIDER.with(Cell::get).and_then(|p| p(name))
}
