//! What a request showed, gathered for the page: text on a stream, runs of text on one
//! stream joined, and pictures.

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::{Value, json};

use crate::ops::output::{self, Shown, Stream};

/// Gathers what the session shows while it lives (it is the output's sink until
/// `finish`).
pub struct Collector {
    shown: Rc<RefCell<Vec<(&'static str, String)>>>,
}

impl Collector {
    /// Starts gathering this thread's output.
    pub fn start() -> Collector {
        let shown: Rc<RefCell<Vec<(&'static str, String)>>> = Rc::default();
        let sink = shown.clone();
        output::set_sink(Some(Box::new(move |s: Shown<'_>| {
            let (kind, text) = match s {
                Shown::Text(Stream::Stdout, t) => ("out", t),
                Shown::Text(Stream::Stderr, t) => ("err", t),
                Shown::Svg(svg) => ("svg", svg),
            };
            let mut shown = sink.borrow_mut();
            match shown.last_mut() {
                Some((last, text_so_far)) if *last == kind && kind != "svg" => {
                    text_so_far.push_str(text)
                }
                _ => shown.push((kind, text.to_string())),
            }
        })));
        Collector { shown }
    }

    /// Stops gathering; the events as `[kind, text]` pairs in the order shown.
    pub fn finish(self) -> Value {
        let shown = std::mem::take(&mut *self.shown.borrow_mut());
        Value::Array(shown.into_iter().map(|(k, t)| json!([k, t])).collect())
    }
}

impl Drop for Collector {
    /// The output goes back to the terminal (or capture) when gathering ends, `finish`ed or
    /// not.
    fn drop(&mut self) {
        output::set_sink(None);
    }
}
