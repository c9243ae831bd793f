//! One `execute_request`: the cell runs in the session as an input at the prompt does (the
//! last expression's value is the cell's result, PyTorch's repr), and what it shows goes to
//! the front end as it happens: printed lines as `stream` messages (a line at a time, sent
//! together when they come fast), `explain`'s pictures as `display_data` with
//! `image/svg+xml`, an error as an `error` message with PyTorch's exception type and text.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use jupyter_protocol::{
    DisplayData, ErrorOutput, ExecuteInput, ExecuteReply, ExecuteRequest, ExecuteResult,
    ExecutionCount, JupyterMessage, Media, MediaType, Payload, ReplyError, ReplyStatus, Stdio,
    StreamContent,
};

use super::state::Kernel;
use super::wire::Outgoing;
use crate::ops::output::{self, Shown, Stream};
use crate::repl::console::{Console, Outcome, Step, failure_of, report_lines};
use tokio::sync::mpsc::Sender;

/// Printed text waits at most this long before it is sent.
const FLUSH_AFTER: Duration = Duration::from_millis(50);
/// Printed text is sent once this much has gathered.
const FLUSH_BYTES: usize = 1 << 16;

/// Text printed but not sent yet, and where it goes.
struct Pending {
    out: Sender<Outgoing>,
    parent: JupyterMessage,
    stream: Stream,
    text: String,
    since: Instant,
}

impl Pending {
    fn flush(&mut self) {
        if self.text.is_empty() {
            return;
        }
        let name = match self.stream {
            Stream::Stdout => Stdio::Stdout,
            Stream::Stderr => Stdio::Stderr,
        };
        let content = StreamContent {
            name,
            text: std::mem::take(&mut self.text),
        };
        let _ = self.out.blocking_send(Outgoing::IoPub(JupyterMessage::new(
            content,
            Some(&self.parent),
        )));
    }

    fn show(&mut self, shown: Shown<'_>) {
        match shown {
            Shown::Text(stream, line) => {
                if stream != self.stream {
                    self.flush();
                    self.stream = stream;
                }
                if self.text.is_empty() {
                    self.since = Instant::now();
                }
                self.text.push_str(line);
                if self.text.len() >= FLUSH_BYTES || self.since.elapsed() >= FLUSH_AFTER {
                    self.flush();
                }
            }
            Shown::Svg(svg) => {
                self.flush();
                let data = Media::new(vec![
                    MediaType::Svg(svg.to_string()),
                    MediaType::Plain("<explain's picture (image/svg+xml)>".to_string()),
                ]);
                let _ = self.out.blocking_send(Outgoing::IoPub(JupyterMessage::new(
                    DisplayData::new(data),
                    Some(&self.parent),
                )));
            }
        }
    }
}

/// Runs the cell `request` asks for and answers it; returns when it failed, if it did.
pub fn execute(
    kernel: &mut Kernel,
    parent: &JupyterMessage,
    request: &ExecuteRequest,
) -> Option<Instant> {
    let silent = request.silent;
    if !silent && request.store_history {
        kernel.execution_count += 1;
    }
    let count = ExecutionCount::new(kernel.execution_count);
    if !silent {
        kernel.publish(
            ExecuteInput {
                code: request.code.clone(),
                execution_count: count,
            },
            parent,
        );
    }
    let pending = Rc::new(RefCell::new(Pending {
        out: kernel.outgoing.clone(),
        parent: parent.clone(),
        stream: Stream::Stdout,
        text: String::new(),
        since: Instant::now(),
    }));
    let sink = pending.clone();
    output::set_sink(Some(Box::new(move |shown| {
        if !silent {
            sink.borrow_mut().show(shown);
        }
    })));
    let outcome = run(&mut kernel.console, &request.code);
    let ended = Instant::now();
    output::set_sink(None);
    pending.borrow_mut().flush();

    let mut reply = ExecuteReply {
        status: ReplyStatus::Ok,
        execution_count: count,
        payload: Vec::new(),
        user_expressions: Some(Default::default()),
        error: None,
    };
    match outcome {
        Outcome::Nothing => {}
        Outcome::Value(text) => {
            if !silent {
                kernel.publish(
                    ExecuteResult::new(count, MediaType::Plain(text).into()),
                    parent,
                );
            }
        }
        Outcome::Exit(_) => reply.payload.push(Payload::AskExit { keepkernel: false }),
        Outcome::Failed(_) | Outcome::Raised { .. } => {
            let (ename, evalue, traceback) = failure_parts(outcome, &request.code);
            if !silent {
                kernel.publish(
                    ErrorOutput {
                        ename: ename.clone(),
                        evalue: evalue.clone(),
                        traceback: traceback.clone(),
                    },
                    parent,
                );
            }
            reply.status = ReplyStatus::Error;
            reply.error = Some(Box::new(ReplyError {
                ename,
                evalue,
                traceback,
            }));
        }
    }
    let failed = reply.status == ReplyStatus::Error;
    kernel.reply(reply, parent);
    failed.then_some(ended)
}

/// The error name, value and traceback lines of a failed cell.
fn failure_parts(outcome: Outcome, code: &str) -> (String, String, Vec<String>) {
    match outcome {
        Outcome::Raised {
            report,
            kind,
            message,
        } => (kind, message, report.lines().map(String::from).collect()),
        Outcome::Failed(e) => {
            let failure = failure_of(&e);
            (failure.kind, failure.message, report_lines(code, &e))
        }
        _ => (String::new(), String::new(), Vec::new()),
    }
}

/// Runs a cell: a single line the prompt answers itself (`:explain x`, `?torch::zeros`)
/// and a pasted transcript (its first line starts with `>>> `) as the prompt runs them,
/// the cell failing when an input or command did; anything else as one input, whose last
/// value is the result.
fn run(console: &mut Console, code: &str) -> Outcome {
    let line = code.trim();
    if line.is_empty() {
        return Outcome::Nothing;
    }
    let command = !line.contains('\n') && crate::repl::lines::is_command(line);
    let transcript = crate::repl::paste::after_prompt(line, crate::repl::paste::PRIMARY).is_some();
    if !command && !transcript {
        return console.evaluate(code);
    }
    let _ = console.take_failure();
    let mut step = if command {
        crate::repl::lines::feed(console, line)
    } else {
        crate::repl::lines::feed_text(console, code, false)
    };
    if step == Step::More {
        // The transcript's last input is finished as Enter on an empty line finishes it (a
        // Python block); one still unfinished does not wait for another cell.
        step = crate::repl::lines::feed(console, "");
        if step == Step::More {
            console.cancel();
        }
    }
    if step == Step::Quit {
        return Outcome::Exit(console.exit_status());
    }
    match console.take_failure() {
        // Shown on standard error as it happened: the error message carries no traceback.
        Some(failure) => Outcome::Raised {
            report: String::new(),
            kind: failure.kind,
            message: failure.message,
        },
        None => Outcome::Nothing,
    }
}

/// The reply to an execution not run because one before it failed.
pub fn aborted_reply(count: usize) -> ExecuteReply {
    ExecuteReply {
        status: ReplyStatus::Aborted,
        execution_count: ExecutionCount::new(count),
        payload: Vec::new(),
        user_expressions: None,
        error: None,
    }
}
