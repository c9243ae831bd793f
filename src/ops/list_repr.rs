//! `print`, `debug`, `to_string` and `to_debug` of lists and maps, as Rhai writes them
//! (`[1, 2]`, `#{"a": 1}`) but bounded: the text grows through fallible reservations and
//! stops at the longest tensh string with a `MemoryError`, where Rhai's own formatter grows
//! a string until the allocator aborts the process. An item whose repr raises makes the
//! whole repr raise, as Python's `repr` of a list does.

use rhai::{Array, Dynamic, Engine, ImmutableString, Map, NativeCallContext};

use super::errors::RhaiResult;
use super::limits::{MAX_STRING, memory_error};

/// The text of one item: its `to_debug`.
fn item_text(ctx: &NativeCallContext, item: &mut Dynamic) -> RhaiResult<ImmutableString> {
    let text = ctx.call_native_fn_raw("to_debug", true, &mut [item])?;
    if text.is_string() {
        return Ok(text.into_immutable_string().unwrap_or_default());
    }
    Ok(ctx.engine().map_type_name(text.type_name()).into())
}

/// Appends `s`, refusing to grow past `MAX_STRING` or past what the allocator gives.
fn push(out: &mut String, s: &str) -> RhaiResult<()> {
    let too_long = || {
        memory_error(format!(
            "printing a list or map needs more than {MAX_STRING} characters, the longest tensh string"
        ))
    };
    if out.len().saturating_add(s.len()) > MAX_STRING {
        return Err(too_long());
    }
    out.try_reserve(s.len()).map_err(|_| too_long())?;
    out.push_str(s);
    Ok(())
}

fn list_repr(ctx: NativeCallContext, list: &mut Array) -> RhaiResult<String> {
    let mut out = String::from("[");
    for (i, item) in list.iter_mut().enumerate() {
        if i > 0 {
            push(&mut out, ", ")?;
        }
        push(&mut out, &item_text(&ctx, item)?)?;
    }
    push(&mut out, "]")?;
    Ok(out)
}

fn map_repr(ctx: NativeCallContext, map: &mut Map) -> RhaiResult<String> {
    let mut out = String::from("#{");
    for (i, (key, value)) in map.iter_mut().enumerate() {
        if i > 0 {
            push(&mut out, ", ")?;
        }
        push(&mut out, &format!("{key:?}: "))?;
        push(&mut out, &item_text(&ctx, value)?)?;
    }
    push(&mut out, "}")?;
    Ok(out)
}

/// Registers the bounded reprs over Rhai's own.
pub fn register(engine: &mut Engine) {
    for name in ["print", "debug", "to_string", "to_debug"] {
        engine.register_fn(name, list_repr);
        engine.register_fn(name, map_repr);
    }
}
