//! `:why`: after one of the classic layout errors (or `frombuffer`'s warning), explains it
//! from the layouts involved (`print::why`); `:why > fig.svg` also draws the tensor involved.

use crate::core::why;
use crate::print::explain::svg;
use crate::script::output;

/// What `:why` says when the last input raised nothing it can explain.
const NOTHING: &str = "`:why` explains the last input's error when it is one of the classic \
layout errors: view after transpose or slicing, view(dtype) with a last stride other than 1, \
an in-place write into an expanded tensor, set_ or as_strided out of bounds, a negative slice \
step, or frombuffer's warning on a bytes buffer. The last input raised none of them.";

/// Runs `:why REST`.
pub fn run(rest: &str) {
    let Some(noted) = why::last() else {
        output::error(NOTHING);
        return;
    };
    for line in crate::print::why::explain_noted(&noted, output::color()).lines() {
        output::print_line(line);
    }
    let Some(path) = rest.strip_prefix('>').map(str::trim) else {
        if !rest.is_empty() {
            output::error("`:why` takes nothing, or `> FILE.svg` to draw the tensor involved");
        }
        return;
    };
    let Some(tensor) = crate::print::why::subject(&noted) else {
        output::error("this error has no tensor to draw: its explanation above is the picture");
        return;
    };
    match svg::picture(&[("t".to_string(), tensor)]) {
        Ok(picture) => match crate::script::explain_api::write_file(path, &picture.svg) {
            Ok(()) => output::print_line(&format!("picture written to {path}")),
            Err(e) => output::error(&crate::script::errors::error_text(&e)),
        },
        Err(e) => output::error(&format!("{}: {}", e.kind.name(), e.message)),
    }
}
