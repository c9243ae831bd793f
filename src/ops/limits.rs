//! How large a script's own values may grow, checked in O(1) per operation.
//!
//! Two guards hold together:
//! - Every operation that makes a string, list or BLOB of a length a script names in one
//!   step (`pad`, `blob(n)`, `push`, `append`, and what tensh makes: `tolist()`, reprs) is
//!   checked against the bounds below *before* it allocates, and raises `MemoryError`,
//!   which `try`/`catch` catches like any exception.
//! - Growth a step at a time (`m[key] = v` in a loop, `s += s`) is stopped by the heap
//!   budget (`platform::heap`), checked between operations as Ctrl-C is: the script
//!   stops with `MemoryError` (not catchable, as a `KeyboardInterrupt` is not: by then
//!   the process holds three quarters of the machine's memory).
//!
//! Rhai's own size limits are off: they walk the whole value after every operation (a
//! `push` onto a list of n items costs n), and count a string shared by many lists once per
//! reference.

use rhai::{Array, Blob, Dynamic, Engine, INT, ImmutableString};

use super::errors::RhaiResult;
use crate::core::error::{ErrorKind, TorchError};

/// The longest string: 256 MiB.
pub const MAX_STRING: usize = 1 << 28;
/// The most items in an array (or bytes in a BLOB): 64 Mi.
pub const MAX_ARRAY: usize = 1 << 26;

/// Refuses a string of `len` bytes.
fn check_string(len: usize) -> RhaiResult<()> {
    if len > MAX_STRING {
        return Err(memory_error(format!(
            "a string of {len} bytes is too large: a tensh string holds at most {MAX_STRING}"
        )));
    }
    Ok(())
}

/// Refuses a list or BLOB of `len` items.
fn check_array(len: usize) -> RhaiResult<()> {
    if len > MAX_ARRAY {
        return Err(memory_error(format!(
            "a list of {len} items is too large: a tensh list holds at most {MAX_ARRAY}"
        )));
    }
    Ok(())
}

/// A length a script gave, as `usize` (a negative one is 0, as Rhai reads it).
fn length(len: INT) -> usize {
    usize::try_from(len.max(0)).unwrap_or(usize::MAX)
}

/// `s.pad(len, padding)`: `padding` repeated (the last copy cut) until `s` has `len`
/// characters. An empty padding adds nothing (Rhai's own looped forever).
fn pad_string(s: &mut ImmutableString, len: INT, padding: &str) -> RhaiResult<()> {
    let len = length(len);
    let have = s.chars().count();
    if len <= have || padding.is_empty() {
        return Ok(());
    }
    let missing = len - have;
    let per_char = padding.len().div_ceil(padding.chars().count()).max(1);
    check_string(s.len().saturating_add(missing.saturating_mul(per_char)))?;
    let p = s.make_mut();
    p.extend(padding.chars().cycle().take(missing));
    Ok(())
}

/// Registers the growing operations of lists, strings and BLOBs with O(1) bound checks in
/// place of Rhai's (functions registered on the engine are found before Rhai's packages).
pub fn register(engine: &mut Engine) {
    engine.register_fn("push", |a: &mut Array, item: Dynamic| -> RhaiResult<()> {
        check_array(a.len().saturating_add(1))?;
        a.push(item);
        Ok(())
    });
    for name in ["append", "+="] {
        engine.register_fn(name, |a: &mut Array, b: Array| -> RhaiResult<()> {
            check_array(a.len().saturating_add(b.len()))?;
            a.extend(b);
            Ok(())
        });
    }
    engine.register_fn(
        "pad",
        |a: &mut Array, len: INT, item: Dynamic| -> RhaiResult<()> {
            let len = length(len);
            if len > a.len() {
                check_array(len)?;
                a.resize(len, item);
            }
            Ok(())
        },
    );
    engine.register_fn(
        "pad",
        |s: &mut ImmutableString, len: INT, c: char| -> RhaiResult<()> {
            pad_string(s, len, c.encode_utf8(&mut [0; 4]))
        },
    );
    engine.register_fn("pad", pad_string);
    engine.register_fn(
        "pad",
        |b: &mut Blob, len: INT, value: INT| -> RhaiResult<()> {
            let len = length(len);
            if len > b.len() {
                check_array(len)?;
                b.resize(len, value as u8);
            }
            Ok(())
        },
    );
    // Strings grow by concatenation: these take the place of Rhai's built-in operators
    // (with `fast_operators` off, registered operators are found first).
    fn concat(a: &str, b: &str) -> RhaiResult<ImmutableString> {
        check_string(a.len().saturating_add(b.len()))?;
        let mut s = String::with_capacity(a.len() + b.len());
        s.push_str(a);
        s.push_str(b);
        Ok(s.into())
    }
    engine.register_fn("+", |a: ImmutableString, b: ImmutableString| concat(&a, &b));
    engine.register_fn("+", |a: ImmutableString, c: char| {
        concat(&a, c.encode_utf8(&mut [0; 4]))
    });
    engine.register_fn("+", |c: char, b: ImmutableString| {
        concat(c.encode_utf8(&mut [0; 4]), &b)
    });
    for name in ["+=", "append"] {
        engine.register_fn(name, |a: &mut ImmutableString, b: ImmutableString| {
            check_string(a.len().saturating_add(b.len()))?;
            a.make_mut().push_str(&b);
            Ok::<(), Box<rhai::EvalAltResult>>(())
        });
        engine.register_fn(name, |a: &mut ImmutableString, c: char| {
            check_string(a.len().saturating_add(4))?;
            a.make_mut().push(c);
            Ok::<(), Box<rhai::EvalAltResult>>(())
        });
    }
    engine.register_fn("blob", |len: INT| -> RhaiResult<Blob> {
        check_array(length(len))?;
        Ok(vec![0; length(len)])
    });
    engine.register_fn("blob", |len: INT, value: INT| -> RhaiResult<Blob> {
        check_array(length(len))?;
        Ok(vec![value as u8; length(len)])
    });
}

/// A `MemoryError` with `message`.
pub fn memory_error(message: String) -> Box<rhai::EvalAltResult> {
    super::errors::to_rhai(TorchError {
        kind: ErrorKind::Memory,
        message,
    })
}

/// Refuses a list of `n` items (from `what`, such as `tolist()`) larger than an array may be.
pub fn check_list(what: &str, n: usize) -> RhaiResult<()> {
    if n > MAX_ARRAY {
        return Err(memory_error(format!(
            "{what} would make a list of {n} items; a tensh list holds at most {MAX_ARRAY}"
        )));
    }
    Ok(())
}

/// Refuses a repr of `n` items that takes at least `min_chars` characters per item, when it
/// could not fit in a string.
pub fn check_repr(n: usize, min_chars: usize) -> RhaiResult<()> {
    if n.saturating_mul(min_chars) > MAX_STRING {
        return Err(memory_error(format!(
            "printing {n} items needs more than {MAX_STRING} characters, the longest tensh string"
        )));
    }
    Ok(())
}

/// Refuses nested lists of `n` values in all (lists and their items, from `what`, such as
/// `tolist()`) larger than one array may be: memory follows the count, not the depth.
pub fn check_nested(what: &str, n: usize) -> RhaiResult<()> {
    if n > MAX_ARRAY {
        return Err(memory_error(format!(
            "{what} would make {n} lists and items; tensh holds at most {MAX_ARRAY} in one result"
        )));
    }
    Ok(())
}
