//! The requests that ask about code rather than run it, answered as the prompt answers them:
//! `complete_request` by the prompt's Tab completion, `inspect_request` by `:help NAME`,
//! `is_complete_request` by the prompt's rule for a continuation line; and the kernel's
//! `kernel_info_reply`.

use jupyter_protocol::{
    CodeMirrorMode, CompleteReply, InspectReply, IsCompleteReply, KernelInfoReply, LanguageInfo,
    Media, MediaType, ReplyStatus,
};

use crate::repl::console::Console;

/// The protocol version tensh speaks.
pub const PROTOCOL_VERSION: &str = "5.3";

/// Set when this process is the "tensh (Python)" kernel: its cells are Python.
static PYTHON: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes this kernel describe itself as the Python one.
pub fn set_python(on: bool) {
    PYTHON.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// What the kernel says of itself. Rhai reads like Rust, so notebooks highlight it as Rust;
/// the Python kernel says Python.
pub fn kernel_info() -> KernelInfoReply {
    let python = PYTHON.load(std::sync::atomic::Ordering::Relaxed);
    let language_info = if python {
        LanguageInfo {
            name: "python".to_string(),
            version: "3.11".to_string(),
            mimetype: Some("text/x-python".to_string()),
            file_extension: Some(".py".to_string()),
            pygments_lexer: Some("ipython3".to_string()),
            codemirror_mode: Some(CodeMirrorMode::Simple("python".to_string())),
            nbconvert_exporter: Some("python".to_string()),
        }
    } else {
        LanguageInfo {
            name: "rhai".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            mimetype: Some("text/x-rhai".to_string()),
            file_extension: Some(".rhai".to_string()),
            pygments_lexer: Some("rust".to_string()),
            codemirror_mode: Some(CodeMirrorMode::Simple("rust".to_string())),
            nbconvert_exporter: None,
        }
    };
    KernelInfoReply {
        status: ReplyStatus::Ok,
        protocol_version: PROTOCOL_VERSION.to_string(),
        implementation: "tensh".to_string(),
        implementation_version: env!("CARGO_PKG_VERSION").to_string(),
        language_info,
        banner: format!(
            "{} — PyTorch's memory model in {}. :help for help.",
            crate::version(),
            crate::repl::console::languages(python)
        ),
        help_links: Vec::new(),
        debugger: false,
        error: None,
    }
}

/// The byte offset of the `chars`-th character of `code` (Jupyter counts cursor positions
/// in characters), clamped to its end.
fn byte_at(code: &str, chars: usize) -> usize {
    code.char_indices()
        .nth(chars)
        .map_or(code.len(), |(i, _)| i)
}

/// Completions at the cursor, from the line it is on.
pub fn complete(console: &mut Console, code: &str, cursor_pos: usize) -> CompleteReply {
    let cursor = byte_at(code, cursor_pos);
    let line_start = code[..cursor].rfind('\n').map_or(0, |i| i + 1);
    let line_end = code[cursor..].find('\n').map_or(code.len(), |i| cursor + i);
    let line = &code[line_start..line_end];
    let (start, matches) = console.completions(line, cursor - line_start);
    CompleteReply {
        matches,
        cursor_start: code[..line_start + start].chars().count(),
        cursor_end: cursor_pos.min(code.chars().count()),
        metadata: Default::default(),
        status: ReplyStatus::Ok,
        error: None,
    }
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == ':' || c == '.'
}

/// The help for the name at (or just before) the cursor: `torch::zeros`, `x.view` for a
/// tensor `x`, a topic.
pub fn inspect(console: &Console, code: &str, cursor_pos: usize) -> InspectReply {
    let cursor = byte_at(code, cursor_pos);
    let start = code[..cursor]
        .char_indices()
        .rev()
        .find(|(_, c)| !is_name_char(*c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = code[cursor..]
        .char_indices()
        .find(|(_, c)| !is_name_char(*c))
        .map_or(code.len(), |(i, _)| cursor + i);
    let name = code[start..end].trim_matches(|c| c == '.' || c == ':');
    let help = (!name.is_empty())
        .then(|| crate::repl::meta::help_text(console, name))
        .flatten();
    InspectReply {
        found: help.is_some(),
        data: help.map_or_else(Media::default, |text| MediaType::Plain(text).into()),
        metadata: Default::default(),
        status: ReplyStatus::Ok,
        error: None,
    }
}

/// Whether `code` is ready to run: incomplete (inside a block, bracket or string; the
/// indent for the next line is the prompt's), invalid (a syntax error Rhai reports now), or
/// complete.
pub fn is_complete(console: &Console, code: &str) -> IsCompleteReply {
    let line = code.trim();
    if !line.contains('\n') && crate::repl::lines::is_command(line) {
        return IsCompleteReply::complete();
    }
    if let Some(incomplete) = console.python_incomplete(code) {
        // Python's `is_complete` as IPython answers it: a block wants a blank line.
        return match incomplete {
            true => IsCompleteReply::incomplete(crate::repl::console::python_indent_after(
                code.lines().last().unwrap_or(""),
            )),
            false if ruff_python_parser::parse_module(code).is_ok() => IsCompleteReply::complete(),
            false => IsCompleteReply::invalid(),
        };
    }
    let session = console.session();
    if session.is_incomplete(code) {
        let depth = crate::script::tokens::open_depth(session.engine(), code).clamp(1, 16);
        return IsCompleteReply::incomplete("    ".repeat(depth));
    }
    match session.engine().compile_with_scope(session.scope(), code) {
        Ok(_) => IsCompleteReply::complete(),
        Err(_) => IsCompleteReply::invalid(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jupyter_protocol::IsCompleteReplyStatus;

    #[test]
    fn completion_positions_count_characters_from_the_cell_start() {
        let mut console = Console::new();
        let code = "let é = 1;\ntorch::zer";
        let n = code.chars().count();
        let reply = complete(&mut console, code, n);
        assert!(
            reply.matches.iter().any(|m| m == "zeros("),
            "{:?}",
            reply.matches
        );
        assert_eq!(reply.cursor_start, n - "zer".len());
        assert_eq!(reply.cursor_end, n);
    }

    #[test]
    fn a_cell_completes_after_a_chain_and_offers_the_users_functions() {
        let mut console = Console::new();
        console.run("let x = torch::arange(6).view(2, 3);\nfn double(t) { t * 2 }");
        let code = "let y = 1;\nx.t().untyped_storage().nb";
        let n = code.chars().count();
        let reply = complete(&mut console, code, n);
        assert_eq!(reply.matches, ["nbytes("], "{:?}", reply.matches);
        assert_eq!(reply.cursor_start, n - "nb".len());
        let reply = complete(&mut console, "dou", 3);
        assert_eq!(reply.matches, ["double("], "{:?}", reply.matches);
    }

    #[test]
    fn inspection_finds_the_name_under_the_cursor() {
        let console = Console::new();
        let code = "let y = torch::zeros(2);";
        let reply = inspect(&console, code, 12);
        assert!(reply.found);
        let text = serde_json::to_value(&reply.data).unwrap()["text/plain"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(text.contains("zeros"), "{text}");
        assert!(!inspect(&console, "   ", 1).found);
    }

    #[test]
    fn open_blocks_are_incomplete_and_syntax_errors_invalid() {
        let console = Console::new();
        let open = is_complete(&console, "fn f(x) {\n  if x {");
        assert_eq!(open.status, IsCompleteReplyStatus::Incomplete);
        assert_eq!(open.indent, "        ");
        assert_eq!(
            is_complete(&console, "let x = 1;").status,
            IsCompleteReplyStatus::Complete
        );
        assert_eq!(
            is_complete(&console, "let = ;").status,
            IsCompleteReplyStatus::Invalid
        );
        assert_eq!(
            is_complete(&console, ":vars").status,
            IsCompleteReplyStatus::Complete
        );
    }

    #[test]
    fn a_python_kernel_completes_and_checks_python() {
        let mut console = Console::new();
        console.set_python(true);
        console.run("import torch\nx = torch.arange(6).view(2, 3)");
        let reply = complete(&mut console, "y = torch.ar", 12);
        assert!(
            reply.matches.iter().any(|m| m == "arange("),
            "{:?}",
            reply.matches
        );
        assert_eq!(reply.cursor_start, 10);
        let reply = complete(&mut console, "x.t().is_c", 10);
        assert!(
            reply.matches.iter().any(|m| m == "is_contiguous("),
            "{:?}",
            reply.matches
        );
        let open = is_complete(&console, "for i in range(3):");
        assert_eq!(open.status, IsCompleteReplyStatus::Incomplete);
        assert_eq!(open.indent, "    ");
        assert_eq!(
            is_complete(&console, "x = (1,").status,
            IsCompleteReplyStatus::Incomplete
        );
        assert_eq!(
            is_complete(&console, "x = 1").status,
            IsCompleteReplyStatus::Complete
        );
        assert_eq!(
            is_complete(&console, "x = = 1").status,
            IsCompleteReplyStatus::Invalid
        );
    }
}
