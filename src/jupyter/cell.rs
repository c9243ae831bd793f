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
use crate::repl::console::{Console, Outcome, Step, message_of, report_lines};
use crate::script::output::{self, Shown, Stream};
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

/// Runs the cell `request` asks for and answers it; returns whether it failed.
pub fn execute(kernel: &mut Kernel, parent: &JupyterMessage, request: &ExecuteRequest) -> bool {
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
    failed
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
            let (ename, evalue) = exception_names(&message_of(&e));
            (ename, evalue, report_lines(code, &e))
        }
        _ => (String::new(), String::new(), Vec::new()),
    }
}

/// Runs a cell: a single line the prompt answers itself (`:explain x`, `?torch::zeros`)
/// as the prompt does; anything else as one input, whose last value is the result.
fn run(console: &mut Console, code: &str) -> Outcome {
    let line = code.trim();
    if line.is_empty() {
        return Outcome::Nothing;
    }
    if !line.contains('\n') && crate::repl::lines::is_command(line) {
        return match crate::repl::lines::feed(console, line) {
            Step::Quit => Outcome::Exit(console.exit_status()),
            Step::More => {
                console.cancel();
                Outcome::Nothing
            }
            Step::Done => Outcome::Nothing,
        };
    }
    console.evaluate(code)
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

/// An error line `Kind: message` as the exception's name and value (`KeyboardInterrupt`
/// alone has no value); a line in no such form is an `Error` with the line as its value.
pub fn exception_names(line: &str) -> (String, String) {
    let is_name = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
            && s.chars().next().is_some_and(char::is_alphabetic)
    };
    if let Some((kind, value)) = line.split_once(": ")
        && is_name(kind)
    {
        return (kind.to_string(), value.to_string());
    }
    if is_name(line) {
        return (line.to_string(), String::new());
    }
    ("Error".to_string(), line.to_string())
}

#[cfg(test)]
mod tests {
    use super::exception_names;

    #[test]
    fn exception_lines_split_into_name_and_value() {
        assert_eq!(
            exception_names("RuntimeError: view size is not compatible: use .reshape(...)"),
            (
                "RuntimeError".to_string(),
                "view size is not compatible: use .reshape(...)".to_string()
            )
        );
        assert_eq!(
            exception_names("KeyboardInterrupt"),
            ("KeyboardInterrupt".to_string(), String::new())
        );
        assert_eq!(
            exception_names("no such thing here: x"),
            ("Error".to_string(), "no such thing here: x".to_string())
        );
    }
}
