//! The registration generation: a count of every change to what the engines of this thread
//! have registered (a new engine, a name registered late, a form added to an op table, a
//! value method kept or forgotten), so caches of registrations (`missing`, `rhai_errors`,
//! the Python front's method call sites) know when to look again. An engine lives on one
//! thread (it is not `Send`), and so do those caches. A leaf: it imports nothing of
//! `script`, so every registering module may bump it.

use std::cell::Cell;

use rhai::Engine;

thread_local! {
    static GENERATION: Cell<u64> = const { Cell::new(0) };
}

/// The current registration generation.
pub fn current() -> u64 {
    GENERATION.with(|g| g.get())
}

/// Marks a change to some engine's registrations.
pub fn bump() {
    GENERATION.with(|g| g.set(g.get() + 1));
}

/// Which engine, at which registration generation: a cache of what an engine has registered
/// holds while its stamp stays the same.
pub type Stamp = (usize, u64);

/// The stamp of `engine` now.
pub fn stamp(engine: &Engine) -> Stamp {
    (engine as *const Engine as usize, current())
}
