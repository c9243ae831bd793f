//! Python syntax: tensh reads PyTorch sessions as they are written (`tensh FILE.py`), over
//! the same ops Rhai scripts call.
//!
//! A program is parsed with ruff's parser (`source`) and run by a small interpreter of its
//! own (`interp`): Python's values, scopes, control flow and exceptions live here; every
//! operation on a tensh value (a call, attribute, subscript or operator) goes through the
//! engine that runs Rhai scripts (`host`), so both ways in share one set of declared ops,
//! their argument checks, keyword handling and error messages. `docs/architecture.md` says
//! why it is an interpreter and not a translation to Rhai.

pub mod convert;
pub mod exception;
pub mod format;
pub mod function;
pub mod hash;
pub mod help;
pub mod host;
pub mod int_math;
pub mod interp;
pub mod long;
pub mod name_use;
pub mod number;
pub mod session;
pub mod source;
pub mod stdlib;
pub mod struct_format;
pub mod types;
pub mod value;

use std::cell::RefCell;
use std::rc::Rc;

use exception::PyException;
use interp::Interpreter;
use source::SourceText;

/// Python's report of an uncaught exception: `Traceback (most recent call last):`, a
/// `File "...", line N, in f` entry with its source line for each frame, and
/// `Kind: message`.
pub fn traceback_text(interp: &mut Interpreter, e: &PyException) -> String {
    // The chain first, oldest first: what `raise ... from` named, or what was being
    // handled when `e` was raised (each reported once, however they loop).
    let mut chain: Vec<(Rc<PyException>, &str)> = Vec::new();
    let mut at: Option<(Rc<PyException>, &str)> = chained(e);
    while let Some((earlier, how)) = at {
        if chain.iter().any(|(c, _)| Rc::ptr_eq(c, &earlier)) || chain.len() > 100 {
            break;
        }
        at = chained(&earlier);
        chain.push((earlier, how));
    }
    let mut text = String::new();
    for (earlier, how) in chain.iter().rev() {
        text.push_str(&one_traceback(interp, earlier));
        text.push_str(&format!("\n{how}\n\n"));
    }
    text.push_str(&one_traceback(interp, e));
    text
}

/// The exception reported before `e` and the words between them.
fn chained(e: &PyException) -> Option<(Rc<PyException>, &'static str)> {
    if let Some(cause) = e.cause() {
        return Some((
            cause,
            "The above exception was the direct cause of the following exception:",
        ));
    }
    if e.suppress_context() {
        return None;
    }
    e.context().map(|c| {
        (
            c,
            "During handling of the above exception, another exception occurred:",
        )
    })
}

/// One exception's traceback and last line.
fn one_traceback(interp: &mut Interpreter, e: &PyException) -> String {
    let mut text = String::from("Traceback (most recent call last):\n");
    let frames = e.traceback.borrow();
    let mut repeated = 0;
    for (i, frame) in frames.iter().enumerate() {
        // As Python: a frame the same as the one before it is shown three times, then
        // counted.
        let same = |a: &exception::TraceFrame, b: &exception::TraceFrame| {
            a.file == b.file && a.line == b.line && a.function == b.function
        };
        if i > 0 && same(frame, &frames[i - 1]) {
            repeated += 1;
        } else {
            repeated = 0;
        }
        let last_of_run = frames.get(i + 1).is_none_or(|next| !same(frame, next));
        if repeated >= 3 {
            if last_of_run {
                let more = repeated - 2;
                text.push_str(&format!(
                    "  [Previous line repeated {more} more time{}]\n",
                    if more == 1 { "" } else { "s" }
                ));
            }
            continue;
        }
        text.push_str(&format!(
            "  File \"{}\", line {}, in {}\n",
            frame.file, frame.line, frame.function
        ));
        // As Python, no source line for input that has no file (`<stdin>`, `<string>`).
        if !frame.text.is_empty() && !frame.file.starts_with('<') {
            text.push_str(&format!("    {}\n", frame.text));
        }
    }
    text.push_str(&exception_line(interp, e));
    text.push('\n');
    text
}

/// `Kind: message` (just `Kind` for an empty message), as Python's last traceback line.
pub fn exception_line(interp: &mut Interpreter, e: &PyException) -> String {
    let value = value::Value::Exception(Rc::new(PyException {
        class: e.class.clone(),
        args: RefCell::new(e.args.borrow().clone()),
        instance: e.instance.clone(),
        links: Default::default(),
        text: e.text.clone(),
        traceback: Default::default(),
    }));
    let message = interp.str_of(&value).unwrap_or_default();
    let name = if e.class.module == "builtins" {
        e.class.name.to_string()
    } else {
        format!("{}.{}", e.class.module, e.class.name)
    };
    if message.is_empty() {
        name
    } else {
        format!("{name}: {message}")
    }
}

/// The exit status `SystemExit(code)` asks for (`None` is 0, an int is itself, anything
/// else is printed and gives 1).
fn exit_status(interp: &mut Interpreter, e: &PyException) -> i32 {
    let first = e.args.borrow().first().cloned();
    match first.as_ref() {
        None | Some(value::Value::None) => 0,
        Some(value::Value::Int(i)) => *i as i32,
        Some(value::Value::Bool(b)) => *b as i32,
        Some(other) => {
            let text = interp.str_of(other).unwrap_or_default();
            crate::ops::output::stderr_text(&format!("{text}\n"));
            1
        }
    }
}

/// Runs the Python program `code` (from the file `name`) as `python FILE` would; returns the
/// exit status (0, or 1 after an uncaught exception, reported as Python reports it).
pub fn run_file(name: &str, code: &str, args: &[String]) -> i32 {
    run_file_keeping(name, code, args).0
}

/// `run_file`, the interpreter it ran in given back (its caller may let the process take
/// its memory back at exit rather than free it: `cli`).
pub fn run_file_keeping(name: &str, code: &str, args: &[String]) -> (i32, Option<Interpreter>) {
    let source = SourceText::new(name, code);
    let body = match source::parse(&source) {
        Ok(body) => body,
        Err(refusal) => {
            let line = source.line_text(refusal.line);
            let caret = " ".repeat(
                refusal.column.saturating_sub(1) + 4
                    - (line.len() - line.trim_start().len()).min(refusal.column.saturating_sub(1)),
            );
            crate::ops::output::stderr_text(&format!(
                "  File \"{name}\", line {}\n    {}\n{caret}^\n{}: {}\n",
                refusal.line,
                line.trim_start(),
                refusal.kind,
                refusal.message
            ));
            return (1, None);
        }
    };
    let mut argv = vec![name.to_string()];
    argv.extend(args.iter().cloned());
    let mut interp = Interpreter::new(argv);
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        interp.run_module(source.clone(), body)
    }));
    let status = match outcome {
        Ok(Ok(())) => 0,
        Ok(Err(e)) if &*e.class.name == "SystemExit" => exit_status(&mut interp, &e),
        Ok(Err(e)) => {
            crate::ops::output::stderr_text(&traceback_text(&mut interp, &e));
            1
        }
        Err(payload) => {
            let what = crate::core::interrupt::unwound_line(&*payload);
            crate::ops::output::stderr_text(&format!("{what}\n"));
            1
        }
    };
    (status, Some(interp))
}
