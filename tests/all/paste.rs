//! Every documented session pasted whole at the prompt, prompts and outputs included, runs
//! its inputs and prints what the documentation shows (the prompt's paste rule; the pty
//! tests in `tests/repl.rs` check that a terminal paste reaches it).

use tensh::ops::output;
use tensh::repl::console::Console;
use tensh::transcript::check::line_matches;
use tensh::transcript::parse::{Block, parse_markdown, run_order};

/// A block as it reads on the page: each input after its prompts, then its output.
fn as_pasted(block: &Block) -> (String, Vec<String>) {
    let mut text = String::new();
    let mut expected = Vec::new();
    for entry in &block.entries {
        for (i, line) in entry.input.iter().enumerate() {
            let prompt = if i == 0 { ">>>" } else { "..." };
            text += &format!("{prompt} {line}\n");
        }
        for line in &entry.expected {
            text += &format!("{line}\n");
            if !line.trim().is_empty() {
                expected.push(line.clone());
            }
        }
    }
    (text, expected)
}

#[test]
fn every_docs_session_pasted_with_prompts_and_output_prints_the_same() {
    let docs = concat!(env!("CARGO_MANIFEST_DIR"), "/docs");
    let mut pages: Vec<_> = std::fs::read_dir(docs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    let mut blocks_checked = 0;
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        // Each page is a fresh program, as `tensh test` runs it: warnings shown once per
        // program show again.
        tensh::script::session::reset_process_state();
        let mut console = Console::new();
        // The page's blocks, then its twins (the same sessions in the other language) in a
        // session of their own, as `tensh test` runs them.
        let blocks = parse_markdown(&text);
        for (block, fresh) in run_order(&blocks) {
            if fresh {
                tensh::script::session::reset_process_state();
                console = Console::new();
            }
            if console.is_python() != block.python {
                console.set_python(block.python);
            }
            let (pasted, expected) = as_pasted(block);
            output::start_capture();
            tensh::repl::lines::feed_text(&mut console, &pasted, false);
            let printed = output::take_capture();
            let actual: Vec<&str> = printed.lines().filter(|l| !l.trim().is_empty()).collect();
            assert!(
                expected.len() == actual.len()
                    && expected
                        .iter()
                        .zip(&actual)
                        .all(|(e, a)| line_matches(e, a)),
                "{}: pasting\n{pasted}\nprinted\n{printed}",
                page.display()
            );
            blocks_checked += 1;
        }
    }
    assert!(blocks_checked >= 20, "only {blocks_checked} blocks");
}
