//! `tensh test`: transcript tests. Markdown files' ```` ```tensh ```` blocks and `.tensh`
//! files (Rhai), ```` ```pycon ```` blocks and `.pycon` files (Python) are sessions whose
//! output is checked exactly (`[..]` matches any text in a line);
//! a mismatch shows a unified diff, and `--bless` writes the actual output back.

pub mod check;
pub mod exercise;
pub mod parse;
pub mod unified_diff;

use crate::script::output;
use std::path::{Path, PathBuf};

const USAGE: &str = "usage: tensh test [--bless] PATHS...

  Runs the transcripts in PATHS (files, or folders searched for *.md, *.tensh and *.pycon;
  `.` for the current folder): ```tensh blocks and .tensh files are Rhai sessions, ```pycon
  blocks and .pycon files Python sessions. --bless (or TENSH_BLESS=1) rewrites failing expectations.
  An exercise answer (a .rhai file starting `// exercise: NAME`, see docs/exercises) is
  checked by the exercise's own check.
";

/// Runs `tensh test ARGS`; returns the exit status (0 all passed or blessed, 1 failures,
/// 2 bad usage).
pub fn main(args: &[String]) -> i32 {
    let mut bless = std::env::var("TENSH_BLESS").is_ok_and(|v| v == "1");
    let mut paths = Vec::new();
    for a in args {
        match a.as_str() {
            "--bless" => bless = true,
            "--help" | "-h" => {
                output::stdout_text(USAGE);
                return 0;
            }
            flag if flag.starts_with("--") => {
                output::stderr_text(&format!("tensh test: unknown option {flag}\n{USAGE}"));
                return 2;
            }
            path => paths.push(PathBuf::from(path)),
        }
    }
    // Blessing rewrites files: it never picks them itself.
    if paths.is_empty() {
        output::stderr_text(&format!("tensh test: no PATHS given\n{USAGE}"));
        return 2;
    }
    let mut files = Vec::new();
    for p in &paths {
        let before = files.len();
        if let Err(e) = collect(p, &mut files) {
            output::stderr_text(&format!("tensh test: cannot read {}: {e}\n", p.display()));
            return 2;
        }
        let has_entries = files[before..].iter().any(|f| {
            std::fs::read_to_string(f).is_ok_and(|text| {
                is_answer(f, &text) || blocks_of(f, &text).iter().any(|b| !b.entries.is_empty())
            })
        });
        if !has_entries {
            output::stderr_text(&format!(
                "tensh test: nothing to test in {} (no ```tensh or ```pycon blocks in *.md \
                 files, no *.tensh or *.pycon files with >>> entries)\n",
                p.display()
            ));
            return 2;
        }
    }
    let (mut passed, mut failed) = (0, 0);
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            output::stderr_text(&format!("tensh test: cannot read {}\n", file.display()));
            failed += 1;
            continue;
        };
        if is_answer(file, &text) {
            let name = file.display().to_string();
            let exercise = exercise::named_in(&text).unwrap_or("");
            match exercise::check(exercise, &text) {
                Ok(()) => {
                    passed += 1;
                    output::stdout_text(&format!("{name}: exercise {exercise} passed\n"));
                }
                Err(why) => {
                    failed += 1;
                    output::stdout_text(&format!("{name}: exercise {exercise}: {why}\n"));
                }
            }
            continue;
        }
        let blocks = blocks_of(file, &text);
        if blocks.iter().all(|b| b.entries.is_empty()) {
            continue;
        }
        let outcome = check::check_file(&text, &blocks);
        passed += outcome.passed;
        let name = file.display().to_string();
        for line in &outcome.incomplete {
            output::stdout_text(&format!(
                "{name}:{line}: the input never completes (a block, bracket or string left \
                 open; continuation lines need `... `); --bless leaves it as it is\n"
            ));
        }
        if outcome.failed == 0 {
            output::stdout_text(&format!("{name}: {} passed\n", outcome.passed));
            continue;
        }
        if bless {
            let blessed = outcome.failed - outcome.incomplete.len();
            failed += outcome.incomplete.len();
            match std::fs::write(file, &outcome.blessed) {
                Ok(()) => {
                    output::stdout_text(&format!("{name}: blessed {blessed} entries\n"));
                    passed += blessed;
                }
                Err(e) => {
                    output::stderr_text(&format!("tensh test: cannot write {name}: {e}\n"));
                    failed += blessed;
                }
            }
            continue;
        }
        failed += outcome.failed;
        output::stdout_text(&format!("{name}: {} failed\n", outcome.failed));
        output::stdout_text(&unified_diff::unified_diff(
            &text,
            &outcome.blessed,
            &format!("{name} (expected)"),
            &format!("{name} (actual)"),
            3,
        ));
    }
    output::stdout_text(&format!("{passed} passed, {failed} failed\n"));
    i32::from(failed > 0)
}

/// Whether a file is an exercise answer: a `.rhai` file naming its exercise on line one.
fn is_answer(file: &Path, text: &str) -> bool {
    file.extension().is_some_and(|e| e == "rhai") && exercise::named_in(text).is_some()
}

/// The sessions of a transcript file, by its kind.
fn blocks_of(file: &Path, text: &str) -> Vec<parse::Block> {
    if file.extension().is_some_and(|e| e == "tensh") {
        parse::parse_tensh(text, false)
    } else if file.extension().is_some_and(|e| e == "pycon") {
        parse::parse_tensh(text, true)
    } else {
        parse::parse_markdown(text)
    }
}

/// Adds `path` (a file) or the transcripts under it (a folder, recursively, skipping hidden
/// folders and `target`), sorted. Inside a folder only regular files are read (a FIFO named
/// `x.md` would block the run) and symbolic links to folders are not followed (a link to
/// an ancestor would loop), as `find` does without `-L`; a path named on the command line is
/// taken as given.
fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if !path.is_dir() {
        std::fs::metadata(path)?;
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let Ok(link) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        if link.is_dir() {
            if !name.starts_with('.') && name != "target" {
                collect(&p, out)?;
            }
        } else if (name.ends_with(".md")
            || name.ends_with(".tensh")
            || name.ends_with(".pycon")
            || name.ends_with(".rhai"))
            && std::fs::metadata(&p).is_ok_and(|m| m.is_file())
        {
            out.push(p);
        }
    }
    Ok(())
}
