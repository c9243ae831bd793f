//! Print options as a value, and the session's current options (`torch.set_printoptions`).

use std::cell::RefCell;

/// PyTorch's `PRINT_OPTS`.
#[derive(Debug, Clone, PartialEq)]
pub struct PrintOptions {
    /// Digits after the point, as given: Python's formatting refuses a negative or huge
    /// one when a float is written (`Formatter::new`), not when it is set.
    pub precision: i64,
    /// Element count above which a tensor is summarised.
    pub threshold: i64,
    /// Items kept at each edge when summarising.
    pub edgeitems: i64,
    /// Characters per line before wrapping.
    pub linewidth: i64,
    /// Forced scientific (`Some(true)`), forced fixed (`Some(false)`), or PyTorch's choice.
    pub sci_mode: Option<bool>,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            precision: 4,
            threshold: 1000,
            edgeitems: 3,
            linewidth: 80,
            sci_mode: None,
        }
    }
}

/// The arguments of one `set_printoptions` call; `None` leaves a field unchanged, except
/// `sci_mode`, which every call sets (PyTorch resets it when a call omits it).
#[derive(Debug, Clone, Default)]
pub struct PrintOptionsUpdate {
    /// `precision=`.
    pub precision: Option<i64>,
    /// `threshold=`.
    pub threshold: Option<i64>,
    /// `edgeitems=`.
    pub edgeitems: Option<i64>,
    /// `linewidth=`.
    pub linewidth: Option<i64>,
    /// `profile=`: `default`, `short` or `full`.
    pub profile: Option<String>,
    /// `sci_mode=`.
    pub sci_mode: Option<bool>,
}

thread_local! {
    static CURRENT: RefCell<PrintOptions> = RefCell::new(PrintOptions::default());
}

/// The session's current options.
pub fn current() -> PrintOptions {
    CURRENT.with(|c| c.borrow().clone())
}

/// Restores PyTorch's defaults (a fresh session).
pub fn reset() {
    CURRENT.with(|c| *c.borrow_mut() = PrintOptions::default());
}

/// Applies one `set_printoptions` call as PyTorch does: the profile first, then each given
/// field; `sci_mode` is always replaced.
pub fn apply(update: &PrintOptionsUpdate) -> Result<(), String> {
    CURRENT.with(|c| {
        let mut o = c.borrow_mut();
        match update.profile.as_deref() {
            None => {}
            Some("default") => {
                o.precision = 4;
                o.threshold = 1000;
                o.edgeitems = 3;
                o.linewidth = 80;
            }
            Some("short") => {
                o.precision = 2;
                o.threshold = 1000;
                o.edgeitems = 2;
                o.linewidth = 80;
            }
            Some("full") => {
                o.precision = 4;
                o.threshold = i64::MAX;
                o.edgeitems = 3;
                o.linewidth = 80;
            }
            Some(other) => return Err(format!("Unknown profile: {other}")),
        }
        if let Some(p) = update.precision {
            o.precision = p;
        }
        if let Some(t) = update.threshold {
            o.threshold = t;
        }
        if let Some(e) = update.edgeitems {
            o.edgeitems = e;
        }
        if let Some(l) = update.linewidth {
            o.linewidth = l;
        }
        o.sci_mode = update.sci_mode;
        Ok(())
    })
}
