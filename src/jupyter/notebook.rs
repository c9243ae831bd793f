//! Documentation pages as notebooks, and notebooks checked against the pages.
//!
//! `tensh jupyter notebook PAGE.md` turns a page's prose into Markdown cells and each input
//! of its ```` ```tensh ```` transcripts into a code cell for the tensh kernel, keeping the
//! output the transcript expects in the cell's metadata (`tensh.expected`).
//! `tensh jupyter check RUN.ipynb` reads a notebook a Jupyter front end has executed (e.g.
//! `jupyter nbconvert --to notebook --execute`) and compares what each cell printed with
//! what its transcript expected, line by line with `tensh test`'s rule (`[..]` matches any
//! text): a notebook run by the kernel shows what the prompt shows.

use serde_json::{Value, json};

use crate::transcript::matching::output_matches;
use crate::transcript::parse::{Block, Section, each_section};

/// The notebook for the Markdown `page`, as nbformat 4.5 JSON text.
pub fn from_page(page: &str) -> String {
    let mut text = Vec::new();
    // Writing into memory cannot fail.
    let _ = write_page(page, &mut text);
    String::from_utf8(text).unwrap_or_default()
}

/// Writes the notebook for the Markdown `page` to `out`, as nbformat 4.5 JSON text laid out
/// as `serde_json`'s pretty printer lays out the whole, each cell written as soon as it is
/// made (a long page never holds its notebook in memory).
pub fn write_page(page: &str, out: &mut impl std::io::Write) -> std::io::Result<()> {
    // A page whose first session is Python (```pycon) is a notebook for the "tensh
    // (Python)" kernel.
    let python = each_section(page)
        .find_map(|s| match s {
            Section::Session(b) => Some(b.python),
            Section::Prose(_) => None,
        })
        .unwrap_or(false);
    let mut cells = CellWriter { out, written: 0 };
    let mut prose: Vec<&str> = Vec::new();
    for section in each_section(page) {
        match section {
            Section::Prose(lines) => prose.extend(lines),
            // A twin repeats the session before it in the other language: the notebook
            // is for one kernel.
            Section::Session(block) if block.twin => {}
            Section::Session(block) => {
                cells.markdown(&mut prose)?;
                cells.code_cells(&block)?;
            }
        }
    }
    cells.markdown(&mut prose)?;
    let (out, written) = (cells.out, cells.written);
    out.write_all(if written == 0 {
        b"{\n  \"cells\": []"
    } else {
        b"\n  ]"
    })?;
    let metadata = serde_json::to_string_pretty(&metadata(python)).unwrap_or_default();
    write!(
        out,
        ",\n  \"metadata\": {},\n  \"nbformat\": 4,\n  \"nbformat_minor\": 5\n}}\n",
        metadata.replace('\n', "\n  ")
    )
}

/// The notebook's metadata: its kernel and language.
fn metadata(python: bool) -> Value {
    if python {
        json!({
            "kernelspec": { "name": "tensh-python", "display_name": "tensh (Python)", "language": "python" },
            "language_info": { "name": "python", "file_extension": ".py", "mimetype": "text/x-python" },
        })
    } else {
        json!({
            "kernelspec": { "name": "tensh", "display_name": "tensh", "language": "rhai" },
            "language_info": { "name": "rhai", "file_extension": ".rhai", "mimetype": "text/x-rhai" },
        })
    }
}

/// Writes the notebook's cells as they are made, numbering them.
struct CellWriter<'w, W: std::io::Write> {
    out: &'w mut W,
    written: usize,
}

impl<W: std::io::Write> CellWriter<'_, W> {
    /// Writes `cell` (with its id) into the `cells` array.
    fn write(&mut self, mut cell: Value) -> std::io::Result<()> {
        self.written += 1;
        cell["id"] = json!(format!("cell-{}", self.written));
        let text = serde_json::to_string_pretty(&cell).unwrap_or_default();
        let lead: &[u8] = if self.written == 1 {
            b"{\n  \"cells\": [\n    "
        } else {
            b",\n    "
        };
        self.out.write_all(lead)?;
        self.out.write_all(text.replace('\n', "\n    ").as_bytes())
    }

    /// Writes the prose gathered so far as a Markdown cell (blank lines around it dropped).
    fn markdown(&mut self, prose: &mut Vec<&str>) -> std::io::Result<()> {
        let text = prose.join("\n");
        prose.clear();
        let text = text.trim_matches('\n');
        if text.trim().is_empty() {
            return Ok(());
        }
        self.write(json!({ "cell_type": "markdown", "metadata": {}, "source": text }))
    }

    /// Writes a code cell per input of `block`; a block marked `fresh` starts with `:reset`.
    fn code_cells(&mut self, block: &Block) -> std::io::Result<()> {
        if block.fresh {
            self.write(code_cell(":reset", "(a fresh session)"))?;
        }
        for entry in &block.entries {
            self.write(code_cell(
                &entry.input.join("\n"),
                &entry.expected.join("\n"),
            ))?;
        }
        Ok(())
    }
}

/// A code cell that expects `expected`. A cell whose transcript ends in an exception is
/// tagged `raises-exception`, as Jupyter's tools read it, so a front end that runs the
/// notebook (`nbconvert --execute`) goes on past it as the page does.
fn code_cell(source: &str, expected: &str) -> Value {
    let mut metadata = json!({ "tensh": { "expected": expected } });
    if ends_in_exception(expected) {
        metadata["tags"] = json!(["raises-exception"]);
    }
    json!({
        "cell_type": "code",
        "execution_count": null,
        "metadata": metadata,
        "outputs": [],
        "source": source,
    })
}

/// Whether an expected output's last line is an exception's (`RuntimeError: ...`,
/// `KeyboardInterrupt`): a name ending in `Error`, `Exception` or `Interrupt`.
fn ends_in_exception(expected: &str) -> bool {
    let Some(last) = expected.lines().last() else {
        return false;
    };
    let (kind, _) = crate::repl::console::exception_names(last);
    ["Error", "Exception", "Interrupt"]
        .iter()
        .any(|end| kind.len() > end.len() && kind.ends_with(end))
}

/// nbformat's multi-line strings: a string, or a list of strings to join.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

/// What a cell's outputs show as text, in order, as the prompt would print it: streams as
/// they are, a result's `text/plain` and an error's traceback on lines of their own.
/// Pictures (`display_data`) have no text in a transcript and are left out.
pub fn printed(outputs: &[Value]) -> String {
    let mut text = String::new();
    for output in outputs {
        match output["output_type"].as_str() {
            Some("stream") => text += &text_of(&output["text"]),
            Some("execute_result") => {
                text += &text_of(&output["data"]["text/plain"]);
                text.push('\n');
            }
            Some("error") => {
                for line in output["traceback"].as_array().into_iter().flatten() {
                    text += line.as_str().unwrap_or_default();
                    text.push('\n');
                }
            }
            _ => {}
        }
    }
    text
}

/// Compares every code cell of the executed notebook `text` that has an expected output
/// with what it printed; returns how many cells were compared, or the differences.
pub fn check(text: &str) -> Result<usize, String> {
    let notebook: Value = serde_json::from_str(text).map_err(|e| format!("not a notebook: {e}"))?;
    let cells = notebook["cells"]
        .as_array()
        .ok_or("not a notebook: no cells")?;
    let mut compared = 0;
    let mut differences = String::new();
    for (n, cell) in cells.iter().enumerate() {
        let Some(expected) = cell["metadata"]["tensh"]["expected"].as_str() else {
            continue;
        };
        compared += 1;
        let outputs = cell["outputs"].as_array().map_or(&[][..], Vec::as_slice);
        let actual = printed(outputs);
        let want: Vec<String> = expected.lines().map(str::to_string).collect();
        let got: Vec<String> = actual
            .trim_end_matches('\n')
            .lines()
            .map(str::to_string)
            .collect();
        let same = output_matches(&want, &got);
        if !same {
            let (old, new) = (format!("{expected}\n"), format!("{}\n", got.join("\n")));
            differences += &format!(
                "cell {} ({}):\n{}",
                n + 1,
                text_of(&cell["source"]).lines().next().unwrap_or(""),
                crate::transcript::unified_diff::unified_diff(
                    &old, &new, "expected", "executed", 3
                )
            );
        }
    }
    if compared == 0 {
        return Err("no cell of this notebook expects an output \
                    (`tensh jupyter notebook PAGE.md` makes ones that do)"
            .to_string());
    }
    if differences.is_empty() {
        Ok(compared)
    } else {
        Err(differences)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "# Title\n\nSome prose.\n\n```tensh\n>>> let a = 1;\n>>> fn f() {\n...   2\n... }\n>>> a + f()\n3\n```\n\n```rhai\n```tensh inside\n```\n\nMore.\n";

    #[test]
    fn prose_becomes_markdown_and_inputs_code_cells() {
        let nb: Value = serde_json::from_str(&from_page(PAGE)).unwrap();
        let cells = nb["cells"].as_array().unwrap();
        let kinds: Vec<&str> = cells
            .iter()
            .map(|c| c["cell_type"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, ["markdown", "code", "code", "code", "markdown"]);
        assert_eq!(cells[0]["source"], "# Title\n\nSome prose.");
        assert_eq!(cells[2]["source"], "fn f() {\n  2\n}");
        assert_eq!(cells[3]["metadata"]["tensh"]["expected"], "3");
        assert_eq!(cells[4]["source"], "```rhai\n```tensh inside\n```\n\nMore.");
        assert_eq!(nb["metadata"]["kernelspec"]["name"], "tensh");
    }

    #[test]
    fn cells_whose_transcript_raises_are_tagged_for_front_ends() {
        let page = "```tensh\n>>> torch::ones(2).view(3)\nRuntimeError: shape '[3]' is invalid for input of size 2\n>>> print(\"Error: no\")\nError: no\n>>> 1\n1\n```\n";
        let nb: Value = serde_json::from_str(&from_page(page)).unwrap();
        let tags: Vec<&Value> = nb["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| &c["metadata"]["tags"])
            .collect();
        assert_eq!(
            tags,
            [&json!(["raises-exception"]), &Value::Null, &Value::Null]
        );
    }

    #[test]
    fn an_executed_notebook_is_checked_against_the_transcript() {
        let mut nb: Value = serde_json::from_str(&from_page(PAGE)).unwrap();
        nb["cells"][3]["outputs"] = json!([
            { "output_type": "stream", "name": "stdout", "text": ["hello\n"] },
            { "output_type": "display_data", "data": { "image/svg+xml": "<svg/>" } },
            { "output_type": "execute_result", "data": { "text/plain": "3" } },
        ]);
        let err = check(&nb.to_string()).unwrap_err();
        assert!(
            err.contains("cell 4 (a + f())") && err.contains("+hello"),
            "{err}"
        );
        nb["cells"][3]["outputs"].as_array_mut().unwrap().remove(0);
        assert_eq!(check(&nb.to_string()), Ok(3));
        nb["cells"][3]["outputs"] = json!([
            { "output_type": "error", "ename": "E", "evalue": "", "traceback": ["E: x"] },
        ]);
        assert!(check(&nb.to_string()).is_err());
    }
}
