//! The interactive session. For now a plain prompt loop over a `Session`: each line is run
//! and an expression's value is echoed with PyTorch's repr; errors are shown and the session
//! goes on. (The REPL issue brings rustyline editing, completion and history.)

use std::io::{BufRead, Write};

use crate::script::output;
use crate::script::session::Session;

/// Runs the prompt loop until end of input; returns the exit status.
pub fn run() -> i32 {
    println!(
        "{} — PyTorch's memory model in Rhai. Ctrl-D exits.",
        crate::cli::version()
    );
    let mut session = Session::new();
    let stdin = std::io::stdin();
    let mut buffer = String::new();
    loop {
        print!("{}", if buffer.is_empty() { ">>> " } else { "... " });
        let _ = std::io::stdout().flush();
        let mut line = String::new();
        match stdin.lock().read_line(&mut line) {
            Ok(0) | Err(_) => return 0,
            Ok(_) => {}
        }
        buffer.push_str(&line);
        match session.eval(&buffer) {
            Ok(v) if !v.is_unit() => output::print_line(&echo(&session, v)),
            Ok(_) => {}
            Err(e)
                if e.message.contains("end of script") || e.message.contains("Expecting '}'") =>
            {
                continue;
            }
            Err(e) => output::warning(&e.message),
        }
        buffer.clear();
    }
}

fn echo(session: &Session, v: rhai::Dynamic) -> String {
    session
        .engine()
        .call_fn::<String>(
            &mut rhai::Scope::new(),
            &rhai::AST::empty(),
            "to_debug",
            (v.clone(),),
        )
        .unwrap_or_else(|_| v.to_string())
}
