//! The `tensh test` command: its options, the files it reads, and its report (native only:
//! the page checks lessons through `check` directly).

use super::{check, deadline, exercise, parse, unified_diff};

use crate::ops::output;
use std::path::{Path, PathBuf};
use std::time::Duration;

const USAGE: &str = "usage: tensh test [--bless] [--timeout SECONDS] [--color=WHEN] PATHS...

  Runs the transcripts in PATHS (files, or folders searched for *.md, *.tensh and *.pycon;
  `.` for the current folder): ```tensh blocks (and ```rhai blocks with >>> prompts) and
  .tensh files are Rhai sessions, ```pycon blocks (and ```python blocks with prompts) and
  .pycon files Python sessions. In expected output `[..]` matches any text in a line and
  `...` any text (doctest's ellipsis); an expected traceback matches by its exception; an
  input marked `# doctest: +SKIP` is not run. Other fences with prompts are named, untested.
  --bless (or TENSH_BLESS=1) rewrites failing expectations.
  --timeout SECONDS stops an entry that runs longer (default 60; 0: no limit).
  --color=auto|always|never colours the diffs (auto: on a terminal).
  An exercise answer (a .rhai file starting `// exercise: NAME`, or a .py file starting
  `# exercise: NAME`, see docs/exercises) is checked by the exercise's own check.
";

/// An entry's time limit unless `--timeout` says otherwise.
const DEFAULT_TIMEOUT_SECONDS: u64 = 60;

/// Runs `tensh test ARGS`; returns the exit status (0 all passed or blessed, 1 failures,
/// 2 bad usage). `color` is what `tensh --color=WHEN` decided for standard output.
pub fn main(args: &[String], mut color: bool) -> i32 {
    let mut bless = std::env::var("TENSH_BLESS").is_ok_and(|v| v == "1");
    let mut paths = Vec::new();
    let mut timeout = DEFAULT_TIMEOUT_SECONDS;
    let mut args = args.iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bless" => bless = true,
            "--help" | "-h" => {
                output::stdout_text(USAGE);
                return 0;
            }
            "--timeout" => match args.next().and_then(|s| s.parse::<u64>().ok()) {
                Some(s) => timeout = s,
                None => {
                    output::stderr_text(&format!(
                        "tensh test: --timeout needs a whole number of seconds\n{USAGE}"
                    ));
                    return 2;
                }
            },
            flag if flag.starts_with("--color=") => {
                use std::io::IsTerminal;
                match crate::repl::color::ColorChoice::parse(&flag["--color=".len()..]) {
                    Some(choice) => color = choice.resolve_here(std::io::stdout().is_terminal()),
                    None => {
                        output::stderr_text(&format!(
                            "tensh test: --color must be auto, always or never\n{USAGE}"
                        ));
                        return 2;
                    }
                }
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
    // An entry past its time is stopped as Ctrl-C stops it, on this thread.
    crate::core::interrupt::check_on_this_thread();
    let watchdog = (timeout > 0).then(|| deadline::Watchdog::start(Duration::from_secs(timeout)));
    let limit = watchdog.as_ref().map(|w| w as &dyn check::EntryLimit);
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
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
        let name = file.display().to_string();
        if is_markdown(file) {
            for (line, language) in parse::untested_prompt_fences(&text) {
                output::stdout_text(&format!(
                    "{name}:{line}: a ```{language} block with >>> prompts is not tested (mark \
                     it ```tensh or ```rhai for Rhai, ```pycon or ```python for Python)\n"
                ));
            }
        }
        let blocks = blocks_of(file, &text);
        if blocks.iter().all(|b| b.entries.is_empty()) {
            continue;
        }
        let outcome = check::check_file(&text, &blocks, limit);
        passed += outcome.passed;
        skipped += outcome.skipped;
        for line in &outcome.incomplete {
            output::stdout_text(&format!(
                "{name}:{line}: the input never completes (a block, bracket or string left \
                 open; continuation lines need `... `); --bless leaves it as it is\n"
            ));
        }
        for line in &outcome.timed_out {
            output::stdout_text(&format!(
                "{name}:{line}: stopped after {timeout} s, this entry's time limit (--timeout \
                 SECONDS sets it); --bless leaves it as it is\n"
            ));
        }
        if outcome.failed == 0 {
            output::stdout_text(&format!("{name}: {} passed\n", outcome.passed));
            continue;
        }
        if bless {
            let kept = outcome.incomplete.len() + outcome.timed_out.len();
            let blessed = outcome.failed - kept;
            failed += kept;
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
        let diff = unified_diff::unified_diff(
            &text,
            &outcome.blessed,
            &format!("{name} (expected)"),
            &format!("{name} (actual)"),
            3,
        );
        output::stdout_text(&if color {
            unified_diff::coloured(&diff)
        } else {
            diff
        });
    }
    let mut last = format!("{passed} passed, {failed} failed");
    if skipped > 0 {
        last += &format!(", {skipped} skipped");
    }
    output::stdout_text(&format!("{last}\n"));
    i32::from(failed > 0)
}

/// Whether `file` is read as Markdown (neither `.tensh` nor `.pycon`).
fn is_markdown(file: &Path) -> bool {
    !file
        .extension()
        .is_some_and(|e| e == "tensh" || e == "pycon")
}

/// Whether a file is an exercise answer: a `.rhai` or `.py` file naming its exercise on
/// line one.
fn is_answer(file: &Path, text: &str) -> bool {
    file.extension().is_some_and(|e| e == "rhai" || e == "py") && exercise::named_in(text).is_some()
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
        } else if name.ends_with(".py")
            && std::fs::metadata(&p).is_ok_and(|m| m.is_file())
            && std::fs::read_to_string(&p).is_ok_and(|text| is_answer(&p, &text))
        {
            // Other Python files in a folder are programs, not transcripts.
            out.push(p);
        }
    }
    Ok(())
}
