//! Meta-commands: lines starting with `:` talk to the REPL, not to Rhai.

use crate::platform::clock::Instant;

use super::console::{Console, Failure, Logged, Outcome, Step, failure_of, is_hidden};
use super::{help, timing};
use crate::ops::output;

/// Runs the meta-command `line` (it starts with `:`).
pub fn run(console: &mut Console, line: &str) -> Step {
    let (command, rest) = match line.split_once(char::is_whitespace) {
        Some((c, r)) => (c, r.trim()),
        None => (line, ""),
    };
    match command {
        ":help" | ":h" if rest.is_empty() => output::print_line(&help_width(&help::overview())),
        ":help" | ":h" => match help_text(console, rest) {
            Some(text) => output::print_line(&help_width(&text)),
            None => console.usage_error(&format!(
                "no function, method or property named {rest:?} (`:help` lists the topics)"
            )),
        },
        ":vars" => vars(console),
        ":python" => {
            console.set_python(true);
            output::print_line("(Python from here on; :rhai goes back)");
        }
        ":rhai" => {
            console.set_python(false);
            output::print_line("(Rhai from here on; :python goes back)");
        }
        ":why" => {
            if let Err(complaint) = super::why_command::run(rest, console.failed_receiver()) {
                console.usage_error(&complaint);
            }
        }
        ":reset" => {
            console.session_mut().reset();
            console.clear_log();
            output::print_line("(a fresh session)");
        }
        ":load" if rest.is_empty() => console.usage_error(":load needs a FILE"),
        ":load" => {
            load(console, rest);
            if console.exit_requested().is_some() {
                return Step::Quit;
            }
        }
        ":explain" if rest.is_empty() => console.usage_error(":explain needs an EXPR"),
        ":explain" => {
            let code = super::explain_command::call_in(rest, console.is_python());
            console.run(&code);
        }
        ":time" if rest.is_empty() => console.usage_error(":time needs an EXPR"),
        ":time" => {
            let start = Instant::now();
            console.run(rest);
            output::print_line(&format!(
                "Wall time: {}",
                timing::format_time(start.elapsed())
            ));
        }
        ":timeit" if rest.is_empty() => console.usage_error(":timeit needs an EXPR"),
        ":timeit" => timing::timeit(console, rest),
        ":save" if rest.is_empty() => console.usage_error(":save needs a FILE"),
        ":save" => save(console, rest),
        ":quit" | ":q" | ":exit" => return Step::Quit,
        _ => console.usage_error(&format!("unknown command {command} (`:help` lists them)")),
    }
    Step::Done
}

/// Help text wrapped at words to the terminal's width (100 columns elsewhere).
fn help_width(text: &str) -> String {
    let columns = crate::platform::terminal_columns().unwrap_or(100);
    help::wrapped(text, columns.max(40) - 1)
}

/// Whether a meta-command belongs in the session's log (what `:save` writes): those whose
/// output a later run repeats. Timings vary, and `:save` itself is not part of the session.
pub fn is_logged(line: &str) -> bool {
    let command = line.split_whitespace().next().unwrap_or("");
    ![
        ":save", ":time", ":timeit", ":quit", ":q", ":exit", ":reset",
    ]
    .contains(&command)
}

/// The help `:help NAME` shows for `name` (`x.view` for a variable `x` is its type's
/// method), if there is any.
pub fn help_text(console: &Console, name: &str) -> Option<String> {
    help::lookup(&console.catalog(), &receiver_typed(console, name))
}

/// `x.view` for a session variable `x` is `Tensor.view` (its type's method).
fn receiver_typed(console: &Console, name: &str) -> String {
    if let Some((receiver, rest)) = name.split_once('.')
        && let Some(type_name) = console.type_of_variable(receiver)
    {
        return format!("{type_name}.{rest}");
    }
    name.to_string()
}

/// Writes the log as a `.tensh` transcript that `tensh test` finishes and passes: an input
/// an interrupt stopped is left out (run again, it would run until stopped again), and the
/// output of an input that read the clock or an address is written as `[..]` lines.
fn save(console: &mut Console, path: &str) {
    let log = console.log();
    let text = transcript_of(log);
    let saved = log.iter().filter(|e| !e.interrupted).count();
    let mut notes = Vec::new();
    let interrupted = log.len() - saved;
    if interrupted > 0 {
        notes.push(format!(
            "{interrupted} stopped by Ctrl-C left out, as they would not finish"
        ));
    }
    let varies = log.iter().filter(|e| e.varies && !e.interrupted).count();
    if varies > 0 {
        notes.push(format!(
            "{varies} printing the clock or an address kept as [..]"
        ));
    }
    let cut = log.iter().filter(|e| e.cut && !e.interrupted).count();
    if cut > 0 {
        notes.push(format!(
            "{cut} printed more than {} MiB, kept in part: `tensh test --bless {path}` writes \
             it whole",
            output::RECORD_LIMIT >> 20
        ));
    }
    if notes.is_empty() {
        notes.push(format!("`tensh test {path}` checks them"));
    }
    match crate::platform::fs::write(path, text) {
        Ok(()) => output::print_line(&format!(
            "(saved {saved} inputs to {path}; {})",
            notes.join("; ")
        )),
        Err(e) => console.usage_error(&format!("cannot write {path}: {e}")),
    }
}

/// The transcript `:save` writes for `log`.
pub fn transcript_of(log: &[Logged]) -> String {
    let mut text = String::new();
    for entry in log.iter().filter(|e| !e.interrupted) {
        for (i, line) in entry.input.iter().enumerate() {
            let prompt = if i == 0 { ">>>" } else { "..." };
            if line.is_empty() {
                text += &format!("{prompt}\n");
            } else {
                text += &format!("{prompt} {line}\n");
            }
        }
        if entry.varies {
            for line in entry.output.lines() {
                text += if line.is_empty() { "\n" } else { "[..]\n" };
            }
        } else {
            text += &entry.output;
        }
    }
    text
}

/// `:load FILE`: runs a script into the session (and `tensh -i FILE`).
pub fn load(console: &mut Console, path: &str) {
    match crate::platform::fs::read_to_string(path) {
        Ok(code) if console.is_python() => match console.evaluate(&code) {
            Outcome::Raised {
                report,
                kind,
                message,
            } => console.report_raised(&report, Failure { kind, message }),
            Outcome::Exit(status) => console.request_exit(status),
            _ => {}
        },
        Ok(code) => {
            let result = console.session_mut().eval(&code);
            if let Err(e) = &result
                && let Some(status) = e.exit
            {
                console.request_exit(status);
            } else if let Err(e) = result {
                let place = match (e.line, e.column) {
                    (Some(l), Some(c)) => format!("{path}:{l}:{c}: "),
                    _ => format!("{path}: "),
                };
                output::error(&format!("{place}{}", e.message));
                console.note_failure(failure_of(&e));
            }
        }
        Err(e) => console.usage_error(&format!("cannot read {path}: {e}")),
    }
}

/// `:vars`: each variable with its type, and its value where it is short (a number, a
/// bool, a string) or its layout (a tensor, a storage); then the script functions defined.
fn vars(console: &mut Console) {
    let mut storages = StorageLabels::default();
    let lines = if console.is_python() {
        python_vars(console, &mut storages)
    } else {
        rhai_vars(console, &mut storages)
    };
    if lines.is_empty() {
        output::print_line("(no variables)");
    }
    for line in lines {
        output::print_line(&line);
    }
}

/// Storages numbered in the order they first appear, so the variables that share one
/// (views, a tensor and its storage) show the same number.
#[derive(Default)]
struct StorageLabels(Vec<crate::core::memory::storage::Storage>);

impl StorageLabels {
    fn label(&mut self, s: &crate::core::memory::storage::Storage) -> String {
        let k = self.0.iter().position(|x| x.is_same(s)).unwrap_or_else(|| {
            self.0.push(s.clone());
            self.0.len() - 1
        });
        format!("storage=#{} ({} bytes)", k + 1, s.nbytes())
    }
}

/// The layout of a tensor or storage `value`, as `:vars` shows it after the type.
fn layout_shown(value: &rhai::Dynamic, storages: &mut StorageLabels) -> Option<String> {
    // Read in place: a clone would copy a list or map whole.
    if let Some(t) = value.read_lock::<crate::core::tensor::Tensor>() {
        return Some(format!(
            "  size={:?} dtype=torch.{} stride={:?} offset={} {}",
            t.sizes(),
            t.dtype().short_name(),
            t.strides(),
            t.offset(),
            storages.label(&t.storage())
        ));
    }
    if let Some(s) = value.read_lock::<crate::core::memory::storage::Storage>() {
        return Some(format!("  {}", storages.label(&s)));
    }
    if let Some(s) = value.read_lock::<crate::ops::storage::typed::TypedStorage>() {
        return Some(format!(
            "  dtype=torch.{} {}",
            s.dtype.short_name(),
            storages.label(&s.storage)
        ));
    }
    None
}

/// The Rhai session's variables, oldest first, then its functions.
fn rhai_vars(console: &mut Console, storages: &mut StorageLabels) -> Vec<String> {
    let session = console.session_mut();
    // The scope lists the newest definitions first; keep each name's newest (a shadowed
    // `let` is gone for good), then show them oldest first.
    let mut seen = std::collections::HashSet::new();
    let mut newest_first: Vec<_> = session
        .scope()
        .iter_raw()
        .filter(|(name, _, _)| !is_hidden(name) && seen.insert(*name))
        .collect();
    newest_first.reverse();
    let mut lines: Vec<String> = newest_first
        .into_iter()
        .map(|(name, _, value)| {
            let mut line = format!(
                "{name}: {}",
                session.engine().map_type_name(value.type_name())
            );
            if let Some(layout) = layout_shown(value, storages) {
                line += &layout;
            } else if let Some(shown) = short_value(value) {
                line += &format!(" = {shown}");
            } else if let Some(a) = value.read_lock::<rhai::Array>() {
                line += &format!("  ({} items)", a.len());
            } else if let Some(m) = value.read_lock::<rhai::Map>() {
                line += &format!("  ({} keys)", m.len());
            }
            line
        })
        .collect();
    lines.extend(
        session
            .function_signatures()
            .into_iter()
            .map(|f| format!("fn {f}")),
    );
    lines
}

/// The Python session's globals by name, each with its Python type.
fn python_vars(console: &mut Console, storages: &mut StorageLabels) -> Vec<String> {
    use crate::python::value::Value;
    let Some(python) = console.python_session() else {
        return Vec::new();
    };
    let mut globals: Vec<(String, Value)> = python
        .variables()
        .into_iter()
        .filter(|(name, _)| name != "_" && !name.starts_with("__"))
        .collect();
    globals.sort_by(|a, b| a.0.cmp(&b.0));
    globals
        .into_iter()
        .map(|(name, value)| {
            let mut line = format!("{name}: {}", python.type_name_of(&value));
            match &value {
                Value::Host(_) | Value::Tensor(_) => {
                    let d = value.to_host().unwrap_or_default();
                    if let Some(layout) = layout_shown(&d, storages) {
                        line += &layout;
                    }
                }
                Value::List(items) => line += &format!("  ({} items)", items.borrow().len()),
                Value::Tuple(items) => line += &format!("  ({} items)", items.len()),
                Value::Dict(entries) => line += &format!("  ({} keys)", entries.borrow().len()),
                Value::Bool(_)
                | Value::Int(_)
                | Value::BigInt(_)
                | Value::Float(_)
                | Value::Complex(_)
                | Value::None => {
                    if let Some(text) = python.repr(&value) {
                        line += &format!(" = {text}");
                    }
                }
                Value::Str(s) => {
                    let cut: String = s.chars().take(60).collect();
                    let more = if cut.len() < s.len() { "..." } else { "" };
                    if let Some(text) = python.repr(&Value::str(cut)) {
                        line += &format!(" = {text}{more}");
                    }
                }
                _ => {}
            }
            line
        })
        .collect()
}

/// A number, bool, character or string as `:vars` shows it (a string cut at 60 characters).
fn short_value(value: &rhai::Dynamic) -> Option<String> {
    if let Ok(i) = value.as_int() {
        return Some(i.to_string());
    }
    if let Ok(f) = value.as_float() {
        return Some(format!("{f:?}"));
    }
    if let Ok(b) = value.as_bool() {
        return Some(b.to_string());
    }
    if let Ok(c) = value.as_char() {
        return Some(format!("{c:?}"));
    }
    let text = value.read_lock::<rhai::ImmutableString>()?;
    let cut: String = text.chars().take(60).collect();
    Some(if cut.len() < text.len() {
        format!("{:?}...", cut)
    } else {
        format!("{cut:?}")
    })
}

#[cfg(test)]
mod tests {
    use crate::ops::output;
    use crate::repl::console::{Console, Step};

    fn run(c: &mut Console, lines: &[&str]) -> String {
        output::start_capture();
        for l in lines {
            crate::repl::lines::feed(c, l);
        }
        output::take_capture()
    }

    #[test]
    fn save_writes_plain_text_after_coloured_pictures() {
        let mut c = Console::new();
        output::set_color(true);
        let dir = std::env::temp_dir().join(format!("tensh-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("colour.txt");
        run(
            &mut c,
            &[
                "let x = torch::arange(6).view(2, 3);",
                "explain(x.t())",
                ":explain x",
                "x.t().view(6)",
                ":why",
                &format!(":save {}", file.display()),
            ],
        );
        output::set_color(false);
        let saved = std::fs::read_to_string(&file).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(saved.contains("stride"), "{saved}");
        assert!(!saved.contains('\x1b'), "{saved}");
    }

    #[test]
    fn save_writes_a_transcript_that_finishes_and_passes() {
        use std::sync::atomic::{AtomicBool, Ordering};
        static STOP: AtomicBool = AtomicBool::new(false);
        let mut c = Console::new();
        c.stop_when(&STOP);
        let dir = std::env::temp_dir().join(format!("tensh-save-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("session.tensh");
        run(&mut c, &["let k = 0;"]);
        let stopper = std::thread::spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            STOP.store(true, Ordering::Relaxed);
        });
        let out = run(&mut c, &["loop { k += 1; }"]);
        stopper.join().unwrap();
        assert!(out.contains("KeyboardInterrupt"), "{out}");
        run(
            &mut c,
            &[
                "let t = timestamp();",
                "t.elapsed > -1.0",
                "torch::zeros(2).data_ptr()",
                "torch::set_printoptions(#{threshold: 1000000});",
                "let big = torch::zeros(300000);",
                "big",
                "big.numel()",
            ],
        );
        let said = run(&mut c, &[&format!(":save {}", file.display())]);
        assert!(said.contains("1 stopped by Ctrl-C left out"), "{said}");
        assert!(
            said.contains("3 printing the clock or an address kept as [..]"),
            "{said}"
        );
        assert!(
            said.contains("1 printed more than 1 MiB, kept in part"),
            "{said}"
        );
        let saved = std::fs::read_to_string(&file).unwrap();
        assert!(!saved.contains("loop"), "{saved}");
        assert!(
            saved.contains(">>> t.elapsed > -1.0\n[..]\n>>> torch::zeros(2).data_ptr()\n[..]\n")
        );
        // The cut output ends with its last whole line: the next input starts a line.
        assert!(
            saved.contains("\n>>> big.numel()\n300000\n"),
            "{}",
            &saved[saved.len() - 200..]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn reset_forgets_variables_seed_and_print_options() {
        let mut c = Console::new();
        let first = run(&mut c, &["torch::rand(1)"]);
        run(
            &mut c,
            &[
                "let a = 1;",
                "torch::manual_seed(5);",
                "torch::set_printoptions(#{precision: 1});",
                ":reset",
            ],
        );
        let out = run(&mut c, &["torch::rand(1)", "a"]);
        assert!(out.starts_with(&first), "{out}");
        assert!(out.contains("NameError: name 'a' is not defined"), "{out}");
    }

    #[test]
    fn vars_lists_tensors_with_layout() {
        let mut c = Console::new();
        let out = run(
            &mut c,
            &[
                "let t = 1;",
                "let t = torch::zeros(2, 3).t();",
                "let n = 3;",
                "let u = t.t().untyped_storage();",
                "let other = torch::ones(1, #{dtype: torch::int8});",
                ":vars",
            ],
        );
        assert_eq!(
            out,
            "t: Tensor  size=[3, 2] dtype=torch.float32 stride=[1, 3] offset=0 storage=#1 (24 bytes)\n\
             n: i64 = 3\n\
             u: UntypedStorage  storage=#1 (24 bytes)\n\
             other: Tensor  size=[1] dtype=torch.int8 stride=[1] offset=0 storage=#2 (1 bytes)\n"
        );
        let out = run(
            &mut c,
            &[
                ":reset",
                "let k = 0.5;",
                "let s = \"hi\";",
                "let a = [1, 2];",
                "fn offset_of(t, i) { t.stride(0) * i }",
                ":vars",
            ],
        );
        assert!(
            out.ends_with(
                "k: f64 = 0.5\ns: string = \"hi\"\na: array  (2 items)\nfn offset_of(t, i)\n"
            ),
            "{out}"
        );
    }

    #[test]
    fn load_runs_a_file_into_the_session() {
        let path = std::env::temp_dir().join(format!("tensh-load-{}.rhai", std::process::id()));
        std::fs::write(
            &path,
            "let loaded = torch::arange(3);\nfn twice(x) { x * 2 }\n",
        )
        .unwrap();
        let mut c = Console::new();
        let out = run(
            &mut c,
            &[&format!(":load {}", path.display()), "twice(loaded)"],
        );
        let _ = std::fs::remove_file(&path);
        assert_eq!(out, "tensor([0, 2, 4])\n");
    }

    #[test]
    fn why_explains_only_the_last_inputs_error_and_draws_it() {
        let mut c = Console::new();
        let svg = std::env::temp_dir().join(format!("tensh-why-{}.svg", std::process::id()));
        let draw = format!(":why > {}", svg.display());
        let out = run(
            &mut c,
            &[
                "let x = torch::arange(6).view(2, 3);",
                "x.t().view(6)",
                &draw,
            ],
        );
        assert!(
            out.contains("dims 0 and 1 cannot merge: stride 1 != 3 * 2 = 6"),
            "{out}"
        );
        assert!(out.contains("picture written to"), "{out}");
        let picture = std::fs::read_to_string(&svg).unwrap();
        assert!(picture.starts_with("<svg"));
        assert!(
            picture.contains(">x.t(): torch.int64, size (3, 2)"),
            "{picture}"
        );
        let _ = std::fs::remove_file(&svg);
        let out = run(&mut c, &["1 + 1", ":why"]);
        assert!(!out.contains("cannot merge"), "{out}");
    }

    #[test]
    fn why_names_the_tensor_as_the_input_wrote_it() {
        let mut c = Console::new();
        let out = run(
            &mut c,
            &[
                "let x = torch::arange(6).view(2, 3);",
                "let y = x.t().view(torch::int32);",
                ":why",
            ],
        );
        assert!(
            out.contains("Do it on a copy: x.t().contiguous().view(torch.int32)"),
            "{out}"
        );
        let out = run(&mut c, &["torch::arange(4)[\"::-1\"]", ":why"]);
        assert!(out.contains("torch::arange(4).flip(dims)"), "{out}");
    }

    #[test]
    fn explain_draws_a_variables_memory() {
        let mut c = Console::new();
        let out = run(&mut c, &["let x = torch::arange(4);", ":explain x[1..3]"]);
        assert!(out.contains("offset 1 element = 8 bytes"), "{out}");
        assert!(out.contains("storage: 32 bytes; shared with x"), "{out}");
        assert!(
            out.contains("     8  01 00 00 00 00 00 00 00  [0] = 1"),
            "{out}"
        );
    }

    #[test]
    fn help_and_unknown_commands() {
        let mut c = Console::new();
        let out = run(
            &mut c,
            &[":help torch::zeros", ":help Tensor.stride", ":nope"],
        );
        assert!(out.contains("torch::zeros  (function"), "{out}");
        assert!(out.contains("A tensor of zeros."), "{out}");
        assert!(out.contains("Tensor.stride()  (method"), "{out}");
        assert!(out.contains("unknown command :nope"), "{out}");
        assert_eq!(crate::repl::lines::feed(&mut c, ":quit"), Step::Quit);
    }
}
