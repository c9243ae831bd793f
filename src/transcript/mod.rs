//! `tensh test`: transcript tests. Markdown files' ```` ```tensh ```` blocks and `.tensh`
//! files are sessions whose output is checked exactly (`[..]` matches any text in a line);
//! a mismatch shows a unified diff, and `--bless` writes the actual output back.

pub mod check;
pub mod parse;

use std::path::{Path, PathBuf};

use similar::TextDiff;

const USAGE: &str = "usage: tensh test [--bless] [PATHS...]

  Runs the transcripts in PATHS (files, or folders searched for *.md and *.tensh; the
  current folder by default). --bless (or TENSH_BLESS=1) rewrites failing expectations.
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
                print!("{USAGE}");
                return 0;
            }
            flag if flag.starts_with("--") => {
                eprint!("tensh test: unknown option {flag}\n{USAGE}");
                return 2;
            }
            path => paths.push(PathBuf::from(path)),
        }
    }
    if paths.is_empty() {
        paths.push(PathBuf::from("."));
    }
    let mut files = Vec::new();
    for p in &paths {
        if let Err(e) = collect(p, &mut files) {
            eprintln!("tensh test: cannot read {}: {e}", p.display());
            return 2;
        }
    }
    let (mut passed, mut failed) = (0, 0);
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            eprintln!("tensh test: cannot read {}", file.display());
            failed += 1;
            continue;
        };
        let blocks = if file.extension().is_some_and(|e| e == "tensh") {
            parse::parse_tensh(&text)
        } else {
            parse::parse_markdown(&text)
        };
        if blocks.iter().all(|b| b.entries.is_empty()) {
            continue;
        }
        let outcome = check::check_file(&text, &blocks);
        passed += outcome.passed;
        let name = file.display().to_string();
        if outcome.failed == 0 {
            println!("{name}: {} passed", outcome.passed);
            continue;
        }
        if bless {
            match std::fs::write(file, &outcome.blessed) {
                Ok(()) => {
                    println!("{name}: blessed {} entries", outcome.failed);
                    passed += outcome.failed;
                }
                Err(e) => {
                    eprintln!("tensh test: cannot write {name}: {e}");
                    failed += outcome.failed;
                }
            }
            continue;
        }
        failed += outcome.failed;
        println!("{name}: {} failed", outcome.failed);
        print!(
            "{}",
            TextDiff::from_lines(&text, &outcome.blessed)
                .unified_diff()
                .context_radius(3)
                .header(&format!("{name} (expected)"), &format!("{name} (actual)"))
        );
    }
    println!("{passed} passed, {failed} failed");
    i32::from(failed > 0)
}

/// Adds `path` (a file) or the transcripts under it (a folder, recursively, skipping hidden
/// folders and `target`), sorted.
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
        if p.is_dir() {
            if !name.starts_with('.') && name != "target" {
                collect(&p, out)?;
            }
        } else if name.ends_with(".md") || name.ends_with(".tensh") {
            out.push(p);
        }
    }
    Ok(())
}
