//! Names a script writes that reach Rhai under another name, because Rhai has a function
//! of that name itself. A leaf: the engine (which renames them) and the registrations (which
//! register them) both read it, and neither imports the other for it.

/// `x.is_shared()` as the engine registers it (Rhai's own `is_shared` would shadow it).
pub const IS_SHARED_INTERNAL: &str = "torch_is_shared";

/// The name a script wrote, for a name as registered.
pub fn as_written(registered: &str) -> &str {
    match registered {
        IS_SHARED_INTERNAL => "is_shared",
        other => other,
    }
}

/// The name a script's `written` reaches the engine as (the engine's token hook renames it
/// in programs; a call by name renames it here).
pub fn as_registered(written: &str) -> &str {
    match written {
        "is_shared" => IS_SHARED_INTERNAL,
        other => other,
    }
}
