//! Variables the tools keep in a session for themselves (the prompt's last value, `_`):
//! listings, completion and pictures leave them out.

/// The prefix of every such name; no user name starts with it by accident.
pub const PREFIX: &str = "__tensh";

/// Whether `name` is one the tools keep for themselves.
pub fn is_hidden_name(name: &str) -> bool {
    name.starts_with(PREFIX)
}
