//! The command line: parses arguments, runs a script, code, standard input or the REPL, and
//! maps the outcome to an exit status (0 success, 1 script error, 2 bad command line).

use std::io::{IsTerminal, Read};

use crate::ops::output;
use crate::repl::color::ColorChoice;

const USAGE: &str = "usage: tensh [--color=auto|always|never] [--python | --lang python|rhai]
             [[-i] FILE.rhai|FILE.py [ARGS...] | -e CODE]
       tensh --help | --version

  tensh                 interactive session (a script from standard input when piped)
  tensh --python        interactive session in Python (:python and :rhai switch)
  tensh FILE.rhai ARGS  run a script; ARGS are in the array ARGS
  tensh FILE.py ARGS    run a Python session as `python FILE.py` would; ARGS are sys.argv[1:]
  --lang python|rhai    read FILE, -e CODE or standard input in this language (a FILE's
                        extension decides otherwise: .py is Python)
  tensh -e CODE         run CODE
  tensh -i FILE ARGS    run a script, then the interactive session with its variables
  tensh test [--bless] [PATHS...]
                        check transcripts (```tensh blocks in *.md, *.tensh files;
                        ```pycon blocks and *.pycon files in Python)
  tensh jupyter install [--user|--sys-prefix] | uninstall [--user|--sys-prefix]
                        make Jupyter offer the tensh kernels (\"tensh\" and
                        \"tensh (Python)\"), or remove them again
  tensh jupyter kernel [--python] CONNECTION_FILE
                        run a kernel (Jupyter starts this)
  tensh jupyter notebook PAGE.md > PAGE.ipynb
                        write a documentation page as a notebook
  tensh jupyter check EXECUTED.ipynb
                        compare an executed notebook with the outputs its cells expect
  tensh web [--port N] [--dir DIR]
                        serve the playground page (built by web/build) on
                        http://127.0.0.1:8432/ (or port N)
  tensh --version       print the version
  --color=WHEN          colour errors and warnings (and the prompt's input): auto (on a
                        terminal, unless NO_COLOR is set or TERM=dumb), always, never
";

fn run_code(name: &str, code: &str, args: &[String]) -> i32 {
    let (status, session) = crate::script::script_file::run(name, code, args);
    // The process exits next, and the system takes its memory back at once. Freeing the
    // engine's thousands of registered functions one by one first was a fifth of start-up
    // (callgrind: 0.85 M of 4.1 M instructions for `tensh -e '1'`). Nothing is lost: no
    // tensh value does work when dropped (mapped files are the kernel's to write back).
    std::mem::forget(session);
    status
}

/// `run_code` for a Python program: its interpreter left for the system to reclaim too
/// (freeing it was a fifth of a Python program's start-up: 1.55 M of 8.1 M instructions).
fn run_python(name: &str, code: &str, args: &[String]) -> i32 {
    crate::repl::help::provide_to_python();
    let (status, interp) = crate::python::run_file_keeping(name, code, args);
    std::mem::forget(interp);
    status
}

/// Runs tensh with these command-line arguments (without the program name); returns the exit
/// status. Meant to be called once per process, which exits after it: a script's session is
/// left for the system to reclaim rather than freed.
pub fn run(mut args: Vec<String>) -> i32 {
    let mut choice = ColorChoice::Auto;
    if let Some(flag) = args.first().and_then(|a| a.strip_prefix("--color=")) {
        match ColorChoice::parse(flag) {
            Some(c) => choice = c,
            None => {
                output::stderr_text(&format!(
                    "tensh: --color must be auto, always or never\n{USAGE}"
                ));
                return 2;
            }
        }
        args.remove(0);
    }
    // `--python` or `--lang python|rhai`: the language of the prompt, code and files.
    let mut lang: Option<bool> = None;
    match args.first().map(String::as_str) {
        Some("--python") => {
            lang = Some(true);
            args.remove(0);
        }
        Some("--lang") => {
            lang = match args.get(1).map(String::as_str) {
                Some("python") => Some(true),
                Some("rhai") => Some(false),
                _ => {
                    output::stderr_text(&format!("tensh: --lang must be python or rhai\n{USAGE}"));
                    return 2;
                }
            };
            args.drain(..2);
        }
        _ => {}
    }
    // Colour on standard output is the prompt's own (its input and banner); warnings and
    // errors go to standard error, which decides for itself.
    let color = choice.resolve_here(std::io::stdout().is_terminal());
    output::set_color(choice.resolve_here(std::io::stderr().is_terminal()));
    match args.first().map(String::as_str) {
        Some("--help" | "-h") => {
            output::stdout_text(USAGE);
            0
        }
        Some("--version" | "-V") => {
            output::stdout_text(&format!("{}\n", crate::version()));
            0
        }
        Some("test") => crate::transcript::command::main(&args[1..], color),
        Some("jupyter") => crate::jupyter::main(&args[1..]),
        Some("web") => crate::page_server::main(&args[1..]),
        Some("-i") => match args.get(1) {
            Some(path) if std::path::Path::new(path).is_file() => crate::repl::run(
                color,
                Some((path, &args[2..])),
                lang.unwrap_or(path.ends_with(".py")),
            ),
            Some(path) => {
                output::stderr_text(&format!("tensh: cannot read {path}: no such file\n"));
                2
            }
            None => {
                output::stderr_text(&format!("tensh: -i needs FILE\n{USAGE}"));
                2
            }
        },
        Some("-e") => match args.get(1) {
            Some(code) if lang == Some(true) => run_python("<string>", code, &args[2..]),
            Some(code) => run_code("-e", code, &args[2..]),
            None => {
                output::stderr_text(&format!("tensh: -e needs CODE\n{USAGE}"));
                2
            }
        },
        Some(flag) if flag.starts_with('-') && flag != "-" => {
            output::stderr_text(&format!("tensh: unknown option {flag}\n{USAGE}"));
            2
        }
        Some(path) if path != "-" => match std::fs::read_to_string(path) {
            Ok(code) if lang.unwrap_or(path.ends_with(".py")) => {
                run_python(path, &code, &args[1..])
            }
            Ok(code) => run_code(path, &code, &args[1..]),
            Err(e) => {
                output::stderr_text(&format!("tensh: cannot read {path}: {e}\n"));
                2
            }
        },
        _ => {
            if std::io::stdin().is_terminal() && args.is_empty() {
                crate::repl::run(color, None, lang == Some(true))
            } else {
                // Piped input is a script: no prompts, and no colour unless asked for.
                output::set_color(choice == ColorChoice::Always);
                let mut code = String::new();
                if let Err(e) = std::io::stdin().read_to_string(&mut code) {
                    output::stderr_text(&format!("tensh: cannot read standard input: {e}\n"));
                    return 2;
                }
                if lang == Some(true) {
                    return run_python("<stdin>", &code, args.get(1..).unwrap_or(&[]));
                }
                run_code("<stdin>", &code, args.get(1..).unwrap_or(&[]))
            }
        }
    }
}
