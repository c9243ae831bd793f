//! The tutorials of `docs/` as the page's lessons: each page's prose and its sessions, in
//! order, and the exercises of `docs/exercises`. Built into the module, so the page needs
//! no file but its own.

use serde_json::{Value, json};

use crate::transcript::parse::{Block, Section, sections};

/// The lessons, in the order a learner takes them: (name, the page's text).
const LESSONS: &[(&str, &str)] = &[
    ("layout", include_str!("../../docs/layout.md")),
    ("view", include_str!("../../docs/view.md")),
    ("tensor-views", include_str!("../../docs/tensor-views.md")),
    ("storage", include_str!("../../docs/storage.md")),
    ("frombuffer", include_str!("../../docs/frombuffer.md")),
    ("confusions", include_str!("../../docs/confusions.md")),
    ("files", include_str!("../../docs/files.md")),
    ("explain", include_str!("../../docs/explain.md")),
    ("python", include_str!("../../docs/python.md")),
    (
        "python-to-rhai",
        include_str!("../../docs/python-to-rhai.md"),
    ),
    ("pytorch-pages", include_str!("../../docs/pytorch-pages.md")),
];

/// The exercises' page (its table says what each answer returns).
const EXERCISES: &str = include_str!("../../docs/exercises/README.md");

/// A session as the page shows it: its language, whether it starts afresh, its steps.
fn block_json(b: &Block) -> Value {
    json!({
        "python": b.python,
        "fresh": b.fresh,
        "entries": b.entries.iter().map(|e| json!({
            "input": e.input,
            "expected": e.expected,
        })).collect::<Vec<_>>(),
    })
}

/// A page cut into prose and sessions, in order. A session given in both languages is one
/// part: `block` and its `twin` (which starts afresh where its partner does), and the page
/// shows the one of the language chosen.
fn parts(text: &str) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for section in sections(text) {
        match section {
            // Blank lines between a session and its twin are no part.
            Section::Prose(lines) if lines.iter().all(|l| l.trim().is_empty()) => {}
            Section::Prose(lines) => out.push(json!({ "prose": lines.join("\n") })),
            Section::Session(b) if b.twin => match out.last_mut() {
                Some(part) if part.get("block").is_some() && part.get("twin").is_none() => {
                    part["twin"] = block_json(&b);
                }
                // A twin with no session just before it stands alone.
                _ => out.push(json!({ "block": block_json(&b) })),
            },
            Section::Session(b) => out.push(json!({ "block": block_json(&b) })),
        }
    }
    out
}

/// One exercise per row of the exercises' table: its name and what the answer returns.
fn exercises() -> Vec<Value> {
    EXERCISES
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let name = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            crate::transcript::exercise::CHECKS
                .iter()
                .any(|(n, _, _)| *n == name)
                .then(|| {
                    json!({
                        "name": name,
                        "returns": cells.get(2).copied().unwrap_or(""),
                        "rule": cells.get(3).copied().unwrap_or(""),
                    })
                })
        })
        .collect()
}

/// Every lesson (name, title, parts) and every exercise.
pub fn all() -> Value {
    let lessons: Vec<Value> = LESSONS
        .iter()
        .map(|(name, text)| {
            let title = text.lines().next().unwrap_or(name).trim_start_matches("# ");
            json!({ "name": name, "title": title, "parts": parts(text) })
        })
        .collect();
    json!({ "lessons": lessons, "exercises": exercises() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_keeps_its_sessions_and_prose_in_order() {
        let text = "# T\nintro\n```tensh\n>>> 1 + 1\n2\n```\nmiddle\n```text\nnot run\n```\n```pycon fresh\n>>> 2\n2\n```\n";
        let p = parts(text);
        assert_eq!(p.len(), 4);
        assert_eq!(p[0]["prose"], "# T\nintro");
        assert_eq!(p[1]["block"]["entries"][0]["input"], json!(["1 + 1"]));
        assert_eq!(p[2]["prose"], "middle\n```text\nnot run\n```");
        assert_eq!(p[3]["block"]["python"], true);
        assert_eq!(p[3]["block"]["fresh"], true);
    }

    #[test]
    fn a_session_and_its_twin_are_one_part() {
        let text = "```tensh fresh\n>>> 1\n1\n```\n\n```pycon twin\n>>> 1\n1\n```\ntext\n";
        let p = parts(text);
        assert_eq!(p.len(), 2, "{p:?}");
        assert_eq!(p[0]["block"]["python"], false);
        assert_eq!(p[0]["twin"]["python"], true);
        assert_eq!(p[0]["twin"]["fresh"], true);
        assert_eq!(p[1]["prose"], "text");
    }

    #[test]
    fn every_tutorial_with_sessions_is_a_lesson() {
        let all = all();
        let names: Vec<&str> = all["lessons"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["name"].as_str().unwrap())
            .collect();
        for t in [
            "layout",
            "view",
            "tensor-views",
            "storage",
            "frombuffer",
            "confusions",
            "files",
        ] {
            assert!(names.contains(&t), "{t}");
        }
        assert_eq!(
            all["exercises"].as_array().unwrap().len(),
            crate::transcript::exercise::CHECKS.len()
        );
    }
}
