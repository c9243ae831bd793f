//! The browser page's side of tensh (`web/`): a session that takes one request and gives
//! one answer, both JSON, so that the page's JavaScript needs no knowledge of Rust and the
//! module needs no binding generator. Compiled on every target, so its tests run natively;
//! the page's WebAssembly module (`web/src/lib.rs`) only moves the bytes.
//!
//! Requests (`{"op": ...}`) and answers:
//! - `line` `{text}`: feeds what the prompt pane sent, as the terminal's prompt feeds a line
//!   (echo, errors, `?name` help, `:commands`, pastes); answers the `events` it showed (text
//!   on `out`/`err`, `svg` pictures) and the next `prompt` and `indent`; `exit` when the
//!   session ended (a fresh one follows).
//! - `picture` `{code}`: draws again the picture an earlier input drew (`explain(x)`), as no
//!   input of the user's (`Console::redraw`): `:why`, `_` and the log are left as they were.
//! - `complete` `{line, cursor}`: Tab completion, `start` (in characters) and `candidates`.
//! - `language` `{python}`: switches the prompt's syntax.
//! - `lessons`: the tutorials of `docs/` as lessons, and the exercises.
//! - `step` `{input, expected, python, fresh}`: runs one lesson entry in the lesson
//!   session as `tensh test` runs it; answers the `actual` lines and whether they `match`.
//! - `exercise` `{name, answer}`: checks an answer as `tensh test` does.
//! - `script` `{name, code, python}`: runs code as `tensh FILE` runs a file, in a fresh
//!   session; answers its `events` and exit `status`.
//! - `reset` `{python}`: a fresh session, with no files, in Python or Rhai; answers the
//!   `banner` and a first thing to `try` (inputs) with the prompt's state.

pub mod events;
pub mod lessons;

use serde_json::{Value, json};

use crate::repl::console::{Console, Step};
use crate::transcript::check::{fresh_console, output_matches, run_entry};
use crate::transcript::parse::Entry;

/// A page's session: its prompt's console, and whether any lesson step ran yet.
pub struct Page {
    console: Console,
    lesson_started: bool,
}

impl Default for Page {
    fn default() -> Page {
        Page::new()
    }
}

impl Page {
    /// A fresh session at the Rhai prompt.
    pub fn new() -> Page {
        Page {
            console: fresh_console(),
            lesson_started: false,
        }
    }

    /// Answers one request (a JSON text) with a JSON text.
    pub fn handle(&mut self, request: &str) -> String {
        let answer = match serde_json::from_str::<Value>(request) {
            Ok(r) => self.answer(&r),
            Err(e) => json!({ "error": format!("not a request: {e}") }),
        };
        answer.to_string()
    }

    fn answer(&mut self, r: &Value) -> Value {
        let text = |k: &str| text(r, k);
        let flag = |k: &str| flag(r, k);
        match text("op") {
            "line" => self.line(text("text")),
            "picture" => {
                let shown = events::Collector::start();
                self.console.redraw(text("code"));
                json!({ "events": shown.finish() })
            }
            "complete" => self.complete(text("line"), r.get("cursor").and_then(Value::as_u64)),
            "language" => {
                self.console.set_python(flag("python"));
                self.prompt_state(json!({}))
            }
            "lessons" => lessons::all(),
            "step" => self.step(r),
            "exercise" => match crate::transcript::exercise::check(text("name"), text("answer")) {
                Ok(()) => json!({ "passed": true, "message": "passed" }),
                Err(message) => json!({ "passed": false, "message": message }),
            },
            "script" => self.script(text("name"), text("code"), flag("python")),
            "reset" => {
                crate::platform::memfs::clear();
                *self = Page::new();
                let python = flag("python");
                if python {
                    self.console.set_python(true);
                }
                self.prompt_state(json!({
                    "banner": crate::repl::console::banner(python, "Stop (Ctrl-C) interrupts"),
                    "try": crate::repl::console::first_steps(python),
                }))
            }
            other => json!({ "error": format!("unknown request {other:?}") }),
        }
    }

    /// The prompt's state added to an answer.
    fn prompt_state(&self, mut answer: Value) -> Value {
        answer["prompt"] = json!(self.console.prompt());
        answer["indent"] = json!(self.console.indent());
        answer["python"] = json!(self.console.is_python());
        answer
    }

    fn line(&mut self, text: &str) -> Value {
        let shown = events::Collector::start();
        let step = crate::repl::lines::feed_text(&mut self.console, text, false);
        let events = shown.finish();
        let mut answer = json!({ "events": events });
        if step == Step::Quit {
            answer["exit"] = json!(self.console.exit_status());
            let python = self.console.is_python();
            self.console = fresh_console();
            self.console.set_python(python);
        }
        self.prompt_state(answer)
    }

    fn complete(&mut self, line: &str, cursor: Option<u64>) -> Value {
        // The page counts characters; the completer counts bytes.
        let chars = cursor.map_or(usize::MAX, |c| c as usize);
        let pos = line
            .char_indices()
            .nth(chars)
            .map_or(line.len(), |(i, _)| i);
        let (start, candidates) = self.console.completions(line, pos);
        json!({
            "start": line[..start].chars().count(),
            "candidates": candidates,
        })
    }

    /// Code run as a file is: as a new process would, from fresh process state. The prompt's
    /// session is started afresh after it.
    fn script(&mut self, name: &str, code: &str, python: bool) -> Value {
        crate::script::session::reset_process_state();
        let shown = events::Collector::start();
        let status = if python {
            crate::python::run_file(name, code, &[])
        } else {
            crate::script::script_file::run(name, code, &[]).0
        };
        let events = shown.finish();
        self.console = fresh_console();
        json!({ "events": events, "status": status })
    }

    /// One lesson entry, in the lesson's own session (the page runs lessons in a module of
    /// their own, so that they never share state with the prompt's).
    fn step(&mut self, r: &Value) -> Value {
        let lines = |k: &str| -> Vec<String> {
            r.get(k)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(String::from)
                        .collect()
                })
                .unwrap_or_default()
        };
        let flag = |k: &str| flag(r, k);
        if flag("fresh") || !self.lesson_started {
            self.console = fresh_console();
            self.lesson_started = true;
        }
        if self.console.is_python() != flag("python") {
            self.console.set_python(flag("python"));
        }
        let entry = Entry {
            input: lines("input"),
            expected: lines("expected"),
            first_line: 0,
            end_line: 0,
            skip: false,
        };
        let (actual, complete) = run_entry(&mut self.console, &entry);
        json!({
            "actual": actual,
            "match": output_matches(&entry.expected, &actual),
            "complete": complete,
        })
    }
}

/// A request's text field (empty when missing).
fn text<'a>(r: &'a Value, key: &str) -> &'a str {
    r.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A request's flag (false when missing).
fn flag(r: &Value, key: &str) -> bool {
    r.get(key).and_then(Value::as_bool).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(page: &mut Page, request: Value) -> Value {
        serde_json::from_str(&page.handle(&request.to_string())).unwrap()
    }

    #[test]
    fn a_line_shows_its_echo_its_errors_and_pictures() {
        let mut page = Page::new();
        let a = ask(
            &mut page,
            json!({"op": "line", "text": "let x = torch::arange(6).view(2, 3);"}),
        );
        assert_eq!(a["events"], json!([]));
        assert_eq!(a["prompt"], ">>> ");
        let a = ask(&mut page, json!({"op": "line", "text": "x.t().stride()"}));
        assert_eq!(a["events"], json!([["out", "[1, 3]\n"]]));
        let a = ask(&mut page, json!({"op": "line", "text": "x.t().view(6)"}));
        let err = a["events"][0][1].as_str().unwrap();
        assert_eq!(a["events"][0][0], "err");
        assert!(
            err.starts_with("RuntimeError: view size is not compatible"),
            "{err}"
        );
        let a = ask(&mut page, json!({"op": "line", "text": "explain(x)"}));
        let kinds: Vec<&str> = a["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e[0].as_str().unwrap())
            .collect();
        assert!(kinds.contains(&"svg"), "{a}");
        let a = ask(&mut page, json!({"op": "line", "text": "fn f(a) {"}));
        assert_eq!(a["prompt"], "... ");
        let a = ask(&mut page, json!({"op": "line", "text": "a + 1 }"}));
        assert_eq!(a["prompt"], ">>> ");
        let a = ask(
            &mut page,
            json!({"op": "complete", "line": "x.is_con", "cursor": 8}),
        );
        assert_eq!(a["start"], 2);
        assert!(
            a["candidates"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c == "is_contiguous("),
            "{a}"
        );
    }

    #[test]
    fn a_picture_drawn_again_is_no_input() {
        let mut page = Page::new();
        for line in [
            "let x = torch::arange(6).view(2, 3);",
            "explain(x)",
            "x.t().view(6)",
        ] {
            ask(&mut page, json!({"op": "line", "text": line}));
        }
        // The page redraws the picture on screen after each input.
        for code in ["explain(x)", ":explain x"] {
            let a = ask(&mut page, json!({"op": "picture", "code": code}));
            let events = a["events"].as_array().unwrap();
            assert!(events.iter().any(|e| e[0] == "svg"), "{a}");
        }
        let a = ask(&mut page, json!({"op": "line", "text": ":why"}));
        let why = a["events"].to_string();
        assert!(why.contains("cannot merge"), "{why}");
        // The log (what `:save` writes) holds the four inputs, not the pictures drawn again.
        assert_eq!(page.console.log().len(), 4);
    }

    #[test]
    fn a_script_runs_as_a_file_does() {
        let mut page = Page::new();
        let a = ask(
            &mut page,
            json!({"op": "script", "name": "s.rhai", "code": "print(torch::arange(3));\nlet y = 1;\ntorch::ones(2).view(3)"}),
        );
        assert_eq!(a["status"], 1);
        assert_eq!(a["events"][0], json!(["out", "tensor([0, 1, 2])\n"]));
        let err = a["events"][1][1].as_str().unwrap();
        assert!(err.starts_with("s.rhai:3:"), "{err}");
        let a = ask(
            &mut page,
            json!({"op": "script", "name": "s.py", "python": true, "code": "import torch\nprint(torch.zeros(2).stride())"}),
        );
        assert_eq!(a["events"], json!([["out", "(1,)\n"]]), "{a}");
        assert_eq!(a["status"], 0);
    }

    #[test]
    fn lesson_steps_are_checked_as_tensh_test_checks_them() {
        let mut page = Page::new();
        let a = ask(
            &mut page,
            json!({"op": "step", "input": ["let t = torch::arange(4);"], "expected": []}),
        );
        assert_eq!(a["match"], true);
        let a = ask(
            &mut page,
            json!({"op": "step", "input": ["t.view(2, 2)"], "expected": ["tensor([[0, 1],", "        [2, 3]])"]}),
        );
        assert_eq!(a["match"], true, "{a}");
        let a = ask(
            &mut page,
            json!({"op": "step", "input": ["t.data_ptr()"], "expected": ["1"]}),
        );
        assert_eq!(a["match"], false);
        let a = ask(
            &mut page,
            json!({"op": "exercise", "name": "every_other", "answer": "// exercise: every_other\nfn answer(x) { x[\"::2\"] }"}),
        );
        assert_eq!(a["passed"], true, "{a}");
        let a = ask(
            &mut page,
            json!({"op": "exercise", "name": "every_other", "answer": "fn answer(x) { x.clone() }"}),
        );
        assert_eq!(a["passed"], false);
    }

    #[test]
    fn every_tutorial_is_a_lesson_whose_steps_pass() {
        let lessons = lessons::all();
        let list = lessons["lessons"].as_array().unwrap();
        assert!(list.iter().any(|l| l["name"] == "layout"));
        for lesson in list {
            let mut page = Page::new();
            for part in lesson["parts"].as_array().unwrap() {
                let Some(block) = part.get("block") else {
                    continue;
                };
                for (i, entry) in block["entries"].as_array().unwrap().iter().enumerate() {
                    let mut request = entry.clone();
                    request["op"] = json!("step");
                    request["python"] = block["python"].clone();
                    request["fresh"] = json!(i == 0 && block["fresh"] == true);
                    let a = ask(&mut page, request);
                    assert_eq!(a["match"], true, "{}: {entry} gave {a}", lesson["name"]);
                }
            }
        }
        assert!(!lessons["exercises"].as_array().unwrap().is_empty());
    }
}
