//! The REPL in a real pseudo-terminal (expectrl): prompts and echo, multi-line input,
//! completion, Ctrl-C, Ctrl-D, history across sessions, and colour settings.

use std::process::Command;
use std::time::Duration;

use expectrl::{ControlCode, Eof, Expect, Session};

/// A REPL session with its own history file; colour off unless `color` is given.
fn spawn(history: &std::path::Path, color: Option<&str>) -> expectrl::session::OsSession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tensh"));
    cmd.env("TENSH_HISTORY", history).env("TERM", "xterm");
    match color {
        Some(flag) => {
            cmd.env_remove("NO_COLOR").arg(flag);
        }
        None => {
            cmd.env("NO_COLOR", "1");
        }
    }
    let mut p = Session::spawn(cmd).expect("spawn tensh in a pty");
    p.set_expect_timeout(Some(Duration::from_secs(20)));
    p.expect(">>> ").expect("first prompt");
    p
}

fn temp_history(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tensh-repl-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("history")
}

fn exit_status(p: &expectrl::session::OsSession) -> String {
    format!("{:?}", p.get_process().wait().expect("wait"))
}

#[test]
fn prompt_echoes_values_with_pytorch_repr() {
    let mut p = spawn(&temp_history("echo"), None);
    p.send_line("let x = torch::arange(6).view(2, 3);").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("x.t()").unwrap();
    p.expect("tensor([[0, 3],\r\n        [1, 4],\r\n        [2, 5]])")
        .unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("x.stride()").unwrap();
    p.expect("[3, 1]").unwrap();
}

#[test]
fn three_line_function_then_its_call() {
    let mut p = spawn(&temp_history("fn"), None);
    p.send_line("fn area(t) {").unwrap();
    p.expect("... ").unwrap();
    p.send_line("  t.size(0) * t.size(1)").unwrap();
    p.expect("... ").unwrap();
    p.send_line("}").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("area(torch::zeros(3, 4))").unwrap();
    p.expect("12").unwrap();
}

#[test]
fn tab_completes_torch_functions_and_tensor_methods() {
    let mut p = spawn(&temp_history("complete"), None);
    // `torch::zer` has three completions (zero_, zeros, zeros_like): the common prefix
    // `zero` fills in, then `s(2)` finishes the call.
    p.send("torch::zer").unwrap();
    p.send(ControlCode::HorizontalTabulation).unwrap();
    p.send("s(2)\r").unwrap();
    p.expect("tensor([0., 0.])").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("let m = torch::ones(2, 3);").unwrap();
    p.expect(">>> ").unwrap();
    // `.permu` has one completion, `permute(`.
    p.send("m.permu").unwrap();
    p.send(ControlCode::HorizontalTabulation).unwrap();
    p.send("1, 0).shape\r").unwrap();
    p.expect("torch.Size([3, 2])").unwrap();
    p.expect(">>> ").unwrap();
    // After a chain, typed by the declared return types; an ambiguous first Tab lists the
    // candidates at once (as IPython does), then the line goes on.
    p.send("m.t().is_co").unwrap();
    p.send(ControlCode::HorizontalTabulation).unwrap();
    p.expect("is_contiguous(").unwrap();
    p.send("ntiguous()\r").unwrap();
    p.expect("false").unwrap();
}

#[test]
fn the_prompt_in_python_echoes_reprs_runs_blocks_and_stops_on_ctrl_c() {
    let mut p = spawn(&temp_history("python"), Some("--python"));
    p.send_line("import torch").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("x = torch.arange(6).view(2, 3)").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("x.t().stride(), x.is_contiguous()").unwrap();
    p.expect("((1, 3), True)").unwrap();
    p.expect(">>> ").unwrap();
    // A block ends with a blank line (the prompt's indentation alone counts as blank).
    p.send_line("for r in x:").unwrap();
    p.expect("... ").unwrap();
    p.send_line("print(r.sum().item())").unwrap();
    p.expect("... ").unwrap();
    p.send_line("").unwrap();
    p.expect("3\r\n12").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("x.view(4)").unwrap();
    p.expect("RuntimeError: shape '[4]' is invalid for input of size 6")
        .unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("while True: pass").unwrap();
    p.expect("... ").unwrap();
    p.send_line("").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    p.send(ControlCode::EndOfText).unwrap();
    p.expect("KeyboardInterrupt").unwrap();
    p.expect(">>> ").unwrap();
    // Rhai and back; the variables come along.
    p.send_line(":rhai").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("torch::ones(2).stride()").unwrap();
    p.expect("[1]").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("x.t().is_contiguous()").unwrap();
    p.expect("false").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line(":python").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("_ is None, x.shape").unwrap();
    p.expect("(False, torch.Size([2, 3]))").unwrap();
}

#[test]
fn the_python_prompt_completes_explains_and_shares_its_tensors_with_rhai() {
    let mut p = spawn(&temp_history("python-teach"), Some("--python"));
    p.send_line("import torch").unwrap();
    p.expect(">>> ").unwrap();
    // `torch.ar` is ambiguous: the first Tab lists the candidates, `arange(` among them.
    p.send("y = torch.ar").unwrap();
    p.send(ControlCode::HorizontalTabulation).unwrap();
    p.expect("arange(").unwrap();
    p.send("ange(6).view(2, 3)\r").unwrap();
    p.expect(">>> ").unwrap();
    p.send("y.tr").unwrap();
    p.send(ControlCode::HorizontalTabulation).unwrap();
    p.expect("transpose(").unwrap();
    p.send("anspose(0, 1).shape\r").unwrap();
    p.expect("torch.Size([3, 2])").unwrap();
    p.expect(">>> ").unwrap();
    // After a chain, typed by the declared return types; one candidate fills in.
    p.send("y.t().is_contig").unwrap();
    p.send(ControlCode::HorizontalTabulation).unwrap();
    p.send(")\r").unwrap();
    p.expect("False").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("explain(y.T)").unwrap();
    p.expect("stride (1, 3) elements = (8, 24) bytes").unwrap();
    p.expect("storage: 48 bytes; shared with y").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line(":explain y[1, 2]").unwrap();
    p.expect("element [1, 2] starts at byte 0 + 24*1 + 8*2 = 40")
        .unwrap();
    p.expect(">>> ").unwrap();
    p.send_line(":vars").unwrap();
    p.expect("y: Tensor  size=[2, 3]").unwrap();
    p.expect(">>> ").unwrap();
    // The tensor made in Python is there in Rhai, the same storage.
    p.send_line(":rhai").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("let z = y.t(); z[0][1] = 40; y").unwrap();
    p.expect("[40,  4,  5]").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line(":python").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("z.data_ptr() == y.data_ptr()").unwrap();
    p.expect("True").unwrap();
}

#[test]
fn ctrl_c_stops_a_loop_and_keeps_variables() {
    let mut p = spawn(&temp_history("ctrlc"), None);
    p.send_line("let kept = 41;").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("loop {}").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    p.send(ControlCode::EndOfText).unwrap();
    p.expect("KeyboardInterrupt").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("kept + 1").unwrap();
    p.expect("42").unwrap();
}

#[test]
fn ctrl_c_at_the_prompt_clears_the_line() {
    let mut p = spawn(&temp_history("clear"), None);
    p.send("fn half_typed(").unwrap();
    p.send(ControlCode::EndOfText).unwrap();
    p.send_line("1 + 1").unwrap();
    p.expect("2").unwrap();
}

#[test]
fn ctrl_d_exits_with_status_zero() {
    let mut p = spawn(&temp_history("ctrld"), None);
    p.send(ControlCode::EndOfTransmission).unwrap();
    p.expect(Eof).unwrap();
    assert!(exit_status(&p).contains(", 0)"), "{}", exit_status(&p));
}

/// Runs `lines` in one session (each with the prompt that follows it), quits, then starts a
/// second session on the same history and recalls the entry two back (past `:quit`),
/// waiting for `shown` (its last line).
fn recall_in_a_second_session(
    name: &str,
    lines: &[(&str, &str)],
    shown: &str,
) -> expectrl::session::OsSession {
    let history = temp_history(name);
    let mut first = spawn(&history, None);
    for (line, prompt) in lines {
        first.send_line(line).unwrap();
        first.expect(*prompt).unwrap();
    }
    first.send_line(":quit").unwrap();
    first.expect(Eof).unwrap();
    // The history file is written as the process ends: wait for it before the second start.
    first.get_process().wait().expect("first session exits");
    let mut second = spawn(&history, None);
    // Up arrow twice (past `:quit`), then Enter: the earlier input runs again. Each recalled
    // entry is awaited before the next key, so a slow machine cannot reorder them.
    second.send("\u{1b}[A").unwrap();
    second.expect(":quit").unwrap();
    second.send("\u{1b}[A").unwrap();
    second.expect(shown).unwrap();
    second.send("\r").unwrap();
    second.expect(">>> ").unwrap();
    second
}

#[test]
fn history_is_recalled_in_a_second_session() {
    let mut second = recall_in_a_second_session(
        "history",
        &[("let remembered = 7 * 6;", ">>> ")],
        "let remembered = 7 * 6;",
    );
    second.send_line("remembered").unwrap();
    second.expect("42").unwrap();
}

#[test]
fn no_color_output_has_no_escape_codes() {
    let mut p = spawn(&temp_history("nocolor"), None);
    p.send_line("let s = \"text\"; torch::zeros(2).view(3)")
        .unwrap();
    let out = p.expect(">>> ").unwrap();
    let text = String::from_utf8_lossy(out.before());
    assert!(
        text.contains("RuntimeError: shape '[3]' is invalid"),
        "{text}"
    );
    // rustyline itself may move the cursor; colour codes are ESC [ ... m.
    assert!(!has_colour(&text), "{text:?}");
}

#[test]
fn color_always_colours_errors() {
    let mut p = spawn(&temp_history("color"), Some("--color=always"));
    p.send_line("torch::zeros(2).view(3)").unwrap();
    let out = p.expect("RuntimeError").unwrap();
    let before = String::from_utf8_lossy(out.before());
    assert!(before.ends_with("\u{1b}[31m"), "{before:?}");
}

#[test]
fn help_lists_commands_and_documents_names() {
    let mut p = spawn(&temp_history("help"), None);
    p.send_line(":help").unwrap();
    p.expect(":vars").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line(":help view").unwrap();
    p.expect("Tensor.view()  (method").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("let t = torch::ones(2, 2);").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line(":vars").unwrap();
    p.expect("t: Tensor  size=[2, 2] dtype=torch.float32 stride=[2, 1] offset=0")
        .unwrap();
}

/// True when `text` holds an SGR (colour) escape sequence.
fn has_colour(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.windows(2).enumerate().any(|(i, w)| {
        w == b"\x1b[" && {
            let rest = &bytes[i + 2..];
            let end = rest
                .iter()
                .position(|b| !(b.is_ascii_digit() || *b == b';'));
            end.is_some_and(|e| rest[e] == b'm')
        }
    })
}

#[test]
fn pasted_and_typed_ahead_lines_all_run() {
    // Several lines arriving at once (a paste without bracketed paste, or lines typed while
    // code runs) are kept, each run in turn, a multi-line block included.
    let mut p = spawn(&temp_history("paste"), None);
    p.send("let a = 40\rlet b = 2\rfn twice(x) {\rx * 2\r}\ra + b\rtwice(b)\r")
        .unwrap();
    p.expect("42").unwrap();
    p.expect("4").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("[a, b]").unwrap();
    p.expect("[40, 2]").unwrap();
}

#[test]
fn ctrl_d_inside_a_block_drops_the_block_and_keeps_the_session() {
    let mut p = spawn(&temp_history("ctrld-block"), None);
    p.send_line("let kept = 5;").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("fn unfinished(x) {").unwrap();
    p.expect("... ").unwrap();
    p.send(ControlCode::EndOfTransmission).unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("kept * 2").unwrap();
    p.expect("10").unwrap();
    // The next prompt is printed once the terminal is raw again: a Ctrl-D sent before that
    // reaches the terminal's cooked mode, whose end-of-file is not a byte rustyline reads.
    p.expect(">>> ").unwrap();
    p.send(ControlCode::EndOfTransmission).unwrap();
    p.expect(Eof).unwrap();
    assert!(exit_status(&p).contains(", 0)"), "{}", exit_status(&p));
}

/// What the session prints up to `marker` (a value no input contains).
fn until(p: &mut expectrl::session::OsSession, marker: &str) -> String {
    let found = p.expect(marker).expect("marker printed");
    String::from_utf8_lossy(found.before()).to_string()
}

#[test]
fn a_bracketed_paste_runs_each_statement_as_typed() {
    let mut p = spawn(&temp_history("bracketed"), None);
    // A bare expression mid-block echoes, a wrong line is reported and the rest still runs.
    p.send("\u{1b}[200~let a = 40\rlet b = 2\ra * 100 + 1\rnonsense(\r)\rfn twice(x) {\r    x * 2\r}\rtwice(a + b) + 1000\r\u{1b}[201~")
        .unwrap();
    p.send("\r").unwrap();
    p.expect("4001").unwrap();
    p.expect("NameError: name 'nonsense' is not defined")
        .unwrap();
    p.expect("1084").unwrap();
    p.expect(">>> ").unwrap();
}

#[test]
fn a_pasted_transcript_runs_its_inputs_and_skips_its_output() {
    for bracketed in [true, false] {
        let mut p = spawn(&temp_history(&format!("transcript-{bracketed}")), None);
        let text = ">>> let q = 6 * 7;\r>>> fn more(x) {\r...     x + 1\r... }\r>>> more(q) * 1000\rSOMEOUTPUT\r>>> q\r42\r";
        if bracketed {
            p.send(format!("\u{1b}[200~{text}\u{1b}[201~\r")).unwrap();
        } else {
            p.send(text).unwrap();
        }
        p.expect("43000").unwrap();
        // Typed by a person (not within milliseconds of the prompt): it runs.
        std::thread::sleep(Duration::from_millis(300));
        p.send_line("print(\"END\" + \"MARK\")").unwrap();
        let between = until(&mut p, "ENDMARK");
        assert!(!between.contains("NameError"), "{bracketed}: {between}");
    }
}

#[test]
fn a_pytorch_documentation_session_pasted_into_the_python_prompt_prints_every_output() {
    // The Tensor.view page's example as the page prints it, prompts and comments, with each
    // output line replaced by a placeholder: a transcript's output lines are skipped, so what
    // the test sees can only come from running the inputs (the terminal echoes the paste).
    let page = ">>> x = torch.randn(4, 4)\r>>> x.size()\r(output)\r>>> y = x.view(16)\r>>> y.size()\r(output)\r>>> z = x.view(-1, 8)  # the size -1 is inferred from other dimensions\r>>> z.size()\r(output)\r\r>>> a = torch.randn(1, 2, 3, 4)\r>>> a.size()\r(output)\r>>> b = a.transpose(1, 2)  # Swaps 2nd and 3rd dimension\r>>> b.size()\r(output)\r>>> c = a.view(1, 3, 2, 4)  # Does not change tensor layout in memory\r>>> c.size()\r(output)\r>>> torch.equal(b, c)\r(output)\r>>> for i in range(2):\r...     print(i * 10)\r...\r(output)\r(output)\r";
    let mut p = spawn(&temp_history("python-paste"), Some("--python"));
    p.send_line("import torch").unwrap();
    p.expect(">>> ").unwrap();
    p.send(format!("\u{1b}[200~{page}\u{1b}[201~\r")).unwrap();
    for output in [
        "torch.Size([4, 4])",
        "torch.Size([16])",
        "torch.Size([2, 8])",
        "torch.Size([1, 2, 3, 4])",
        "torch.Size([1, 3, 2, 4])",
        "torch.Size([1, 3, 2, 4])",
        "False",
        "0\r\n10",
    ] {
        p.expect(output).unwrap();
    }
    std::thread::sleep(Duration::from_millis(300));
    p.send_line("print('END' + 'MARK')").unwrap();
    let between = until(&mut p, "ENDMARK");
    assert!(!between.contains("Error"), "{between}");
}

#[test]
fn a_line_typed_right_after_an_unbracketed_paste_is_never_taken_for_its_output() {
    // The transcript's first input runs for a while; the person types a block at once, so
    // it is already waiting when the prompt asks for the next line. It was typed, not
    // pasted: it runs (before, it was skipped as transcript output, and the session was
    // left inside nothing the person had typed).
    let mut p = spawn(&temp_history("typed-after-paste"), None);
    p.send(">>> let s = 0; for i in 0..2000000 { s += i; }\r>>> s % 1000\r0\r")
        .unwrap();
    std::thread::sleep(Duration::from_millis(60));
    p.send("fn f() {\r").unwrap();
    p.send("7 * 6 + 1000\r}\rf()\r").unwrap();
    p.expect("1042").unwrap();
    p.expect(">>> ").unwrap();
    p.send(ControlCode::EndOfTransmission).unwrap();
    p.expect(Eof).unwrap();
    assert!(exit_status(&p).contains(", 0)"), "{}", exit_status(&p));
}

#[test]
fn a_block_is_one_history_entry_recalled_whole() {
    // Continuation lines are auto-indented inside the block (`...     `).
    let lines = [
        ("fn seven() {", "...     "),
        ("7", "...     "),
        ("}", ">>> "),
    ];
    let mut second = recall_in_a_second_session("block-history", &lines, "}");
    second.send_line("seven() * 6").unwrap();
    second.expect("42").unwrap();
}

#[test]
fn help_time_and_save_at_the_prompt() {
    let dir = std::env::temp_dir().join(format!("tensh-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("session.tensh");
    let mut p = spawn(&temp_history("save"), None);
    p.send_line("?narrow").unwrap();
    p.expect("t.narrow(dim, start, length)").unwrap();
    p.send_line(":time torch::ones(3).sum()").unwrap();
    p.expect("tensor(3.)").unwrap();
    p.expect("Wall time: ").unwrap();
    p.send_line("let x = torch::arange(6).view(2, 3);").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("x.t().contiguous()").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line("_.stride()").unwrap();
    p.expect("[2, 1]").unwrap();
    p.send_line("x.view(4)").unwrap();
    p.expect("RuntimeError").unwrap();
    p.send_line(format!(":save {}", file.display())).unwrap();
    p.expect("saved").unwrap();
    p.expect(">>> ").unwrap();
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.contains(">>> _.stride()\n[2, 1]\n"), "{saved}");
    let test = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .args(["test", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        test.status.success(),
        "{saved}\n{}",
        String::from_utf8_lossy(&test.stdout)
    );
}

#[test]
fn minus_i_runs_a_script_then_the_prompt_keeps_its_variables() {
    let dir = std::env::temp_dir().join(format!("tensh-minus-i-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("setup.rhai");
    std::fs::write(
        &file,
        "let base = torch::arange(4);\nfn twice(t) { t * 2 }\n",
    )
    .unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tensh"));
    cmd.env("TENSH_HISTORY", temp_history("minus-i"))
        .env("NO_COLOR", "1")
        .args(["-i", file.to_str().unwrap()]);
    let mut p = Session::spawn(cmd).expect("spawn");
    p.set_expect_timeout(Some(Duration::from_secs(20)));
    p.expect(">>> ").unwrap();
    p.send_line("twice(base)").unwrap();
    p.expect("tensor([0, 2, 4, 6])").unwrap();
    p.send_line("exit(4)").unwrap();
    p.expect(Eof).unwrap();
    assert!(exit_status(&p).contains(", 4)"), "{}", exit_status(&p));
}

#[test]
fn errors_sent_to_a_file_carry_no_colour_codes() {
    let dir = std::env::temp_dir().join(format!("tensh-err-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("err.log");
    let mut cmd = Command::new("sh");
    cmd.env("TENSH_HISTORY", temp_history("err-log"))
        .env("TERM", "xterm")
        .env_remove("NO_COLOR")
        .arg("-c")
        .arg(format!(
            "exec {} 2>{}",
            env!("CARGO_BIN_EXE_tensh"),
            log.display()
        ));
    let mut p = Session::spawn(cmd).expect("spawn");
    p.set_expect_timeout(Some(Duration::from_secs(20)));
    p.expect(">>> ").unwrap();
    p.send_line("torch::zeros(2).view(3)").unwrap();
    p.expect(">>> ").unwrap();
    p.send_line(":quit").unwrap();
    p.expect(Eof).unwrap();
    let _ = p.get_process().wait();
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("RuntimeError: shape '[3]'"), "{text:?}");
    assert!(!text.contains('\u{1b}'), "{text:?}");
}

#[test]
fn ctrl_c_stops_one_long_operation_and_one_long_print() {
    let mut p = spawn(&temp_history("ctrlc-kernel"), None);
    p.send_line("let kept = 41;").unwrap();
    p.expect(">>> ").unwrap();
    // One call that runs for seconds (4.5 s on the 2-core CI machine): a random fill of
    // 400 million elements, its pages touched as it goes.
    p.send_line("let big = torch::randn(20000, 20000);")
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    p.send(ControlCode::EndOfText).unwrap();
    // Stopped soon after, not at the end of the fill.
    p.set_expect_timeout(Some(Duration::from_secs(3)));
    p.expect("KeyboardInterrupt").unwrap();
    p.expect(">>> ").unwrap();
    p.set_expect_timeout(Some(Duration::from_secs(20)));
    p.send_line("big").unwrap();
    p.expect("NameError: name 'big' is not defined").unwrap();
    // One print of twenty million lines.
    p.send_line("print(torch::zeros(20000000, #{dtype: torch::uint8}).untyped_storage())")
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    p.send(ControlCode::EndOfText).unwrap();
    p.set_expect_timeout(Some(Duration::from_secs(3)));
    p.expect("KeyboardInterrupt").unwrap();
    p.expect(">>> ").unwrap();
    p.set_expect_timeout(Some(Duration::from_secs(20)));
    p.send_line("kept + 1").unwrap();
    p.expect("42").unwrap();
}

#[test]
fn ctrl_c_stops_a_long_sort_and_a_long_matrix_product() {
    let mut p = spawn(&temp_history("ctrlc-sort"), None);
    p.set_expect_timeout(Some(Duration::from_secs(60)));
    p.send_line("let x = torch::rand(100000000); let m = torch::randn(4096, 4096);")
        .unwrap();
    p.expect(">>> ").unwrap();
    // Each runs for about a second or more on the 2-core machine: one sort of 10^8 values
    // (a single row), one product of two 4096 x 4096 matrices.
    // And a random fill on the one-value-at-a-time path (bfloat16, 2^30 values, the fuzzer's
    // "hang").
    for (name, call) in [
        ("s", "x.sort()"),
        ("p", "m.matmul(m)"),
        ("r", "torch::rand([1 << 30], #{dtype: torch::bfloat16})"),
    ] {
        p.send_line(format!("let {name} = {call};")).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        let sent = std::time::Instant::now();
        p.send(ControlCode::EndOfText).unwrap();
        p.set_expect_timeout(Some(Duration::from_secs(3)));
        p.expect("KeyboardInterrupt").unwrap();
        // The latency, for the record (docs/performance.md); the bound above is generous.
        eprintln!(
            "{call}: stopped {} ms after Ctrl-C",
            sent.elapsed().as_millis()
        );
        p.expect(">>> ").unwrap();
        p.set_expect_timeout(Some(Duration::from_secs(20)));
        // The assignment never happened.
        p.send_line(name).unwrap();
        p.expect(format!("NameError: name '{name}' is not defined").as_str())
            .unwrap();
    }
}

#[test]
fn help_wraps_at_words_to_the_terminals_width() {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tensh"));
    cmd.env("TENSH_HISTORY", temp_history("help-width"))
        .env("TERM", "xterm")
        .env("NO_COLOR", "1")
        .env("COLUMNS", "80");
    let mut p = Session::spawn(cmd).expect("spawn tensh in a pty");
    p.set_expect_timeout(Some(Duration::from_secs(20)));
    p.expect(">>> ").unwrap();
    p.send_line(":help sum").unwrap();
    let shown = p.expect(">>> ").unwrap();
    let text = String::from_utf8_lossy(shown.before()).to_string();
    assert!(
        text.contains("torch::sum(Tensor input, tuple of ints dim, bool keepdim = False, *,\r\n      torch.dtype dtype = None, Tensor out = None)"),
        "{text}"
    );
    for line in text.split("\r\n") {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    p.send_line(":help transpose").unwrap();
    p.expect("torch::transpose  (function, 3 arguments)")
        .unwrap();
}
