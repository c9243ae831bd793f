//! The page's stand-in for the SIGBUS guard (`sigbus.rs` natively): the page has no signals,
//! and its maps are buffers of their own (`platform::map`) that a shrinking file cannot
//! fault, so there is nothing to guard.

/// A guarded address range (never made in the page).
#[derive(Debug)]
pub struct Registration;

/// Guards nothing: the page's maps cannot fault.
pub fn register(_start: *const u8, _len: usize) -> Option<Registration> {
    None
}

/// Whether a fault was answered since the last call: never in the page.
pub fn take_fault() -> bool {
    false
}
