//! What `catch (e)` binds. Rhai binds the thrown value for errors tensh raises (already a
//! `Kind: message` string), but an object map for its own errors (an operator on the wrong
//! types, a division by zero, ...), and has no hook for that. So before a script is
//! compiled, each `catch (name) {` gets a first statement that turns such a map into
//! Python's words (`rhai_errors`): `name = __tensh_caught(name);`. The insertion is made at
//! the token level (Rhai's own tokenizer, so strings and comments are left alone) on the
//! same line as the brace, so line numbers do not move.

use std::borrow::Cow;

use rhai::{Dynamic, Engine, Map, NativeCallContext, Token};

use super::tokens::{each_token, splice};
use crate::ops::rhai_errors::{Failure, Names, python_words};

/// The function the inserted statement calls.
pub const CAUGHT_HOOK: &str = "__tensh_caught";

/// `code` with a translating first statement in every `catch (name) { ... }` block, and
/// where each was inserted (see `Shifts`), so that positions in the new text can be told
/// in the user's.
pub fn bind_caught_errors<'a>(engine: &Engine, code: &'a str) -> (Cow<'a, str>, Shifts) {
    let inserts = insertions(engine, code);
    if inserts.is_empty() {
        return (Cow::Borrowed(code), Shifts::default());
    }
    let shifts = Shifts::of(code, &inserts);
    (Cow::Owned(splice(code, &inserts)), shifts)
}

/// Text inserted into a line of a script: positions after it, on its line, moved right.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shifts(Vec<Shift>);

/// One insertion: on 1-based `line`, `len` characters starting at 1-based column `at` of
/// the rewritten line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shift {
    line: usize,
    at: usize,
    len: usize,
}

impl Shifts {
    /// Where `inserts` (byte offset into `code`, nothing removed, text) land.
    fn of(code: &str, inserts: &[(usize, usize, String)]) -> Shifts {
        let mut shifts: Vec<Shift> = Vec::with_capacity(inserts.len());
        for (offset, _, text) in inserts {
            let before = &code[..*offset];
            let line = before.matches('\n').count() + 1;
            let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
                .chars()
                .count()
                + 1;
            // Earlier insertions on the same line moved this one right too.
            let moved: usize = shifts
                .iter()
                .filter(|s| s.line == line)
                .map(|s| s.len)
                .sum();
            shifts.push(Shift {
                line,
                at: column + moved,
                len: text.chars().count(),
            });
        }
        Shifts(shifts)
    }

    /// The user's column for `column` of the rewritten `line` (both 1-based).
    pub fn original_column(&self, line: usize, column: usize) -> usize {
        let moved: usize = self
            .0
            .iter()
            .filter(|s| s.line == line && s.at <= column)
            .map(|s| s.len.min(column - s.at))
            .sum();
        column - moved
    }
}

/// Where each `catch (name) {` gets its statement: after the brace.
fn insertions(engine: &Engine, code: &str) -> Vec<(usize, usize, String)> {
    if !code.contains("catch") {
        return Vec::new();
    }
    let mut window: Vec<Token> = Vec::with_capacity(5);
    let mut inserts: Vec<(usize, usize, String)> = Vec::new();
    each_token(engine, code, |token, at| {
        if window.len() == 5 {
            window.remove(0);
        }
        window.push(token.clone());
        if let [
            Token::Catch,
            Token::LeftParen,
            Token::Identifier(name),
            Token::RightParen,
            Token::LeftBrace,
        ] = window.as_slice()
        {
            inserts.push((at + 1, 0, format!(" {name} = {CAUGHT_HOOK}({name}); ")));
        }
    });
    inserts
}

/// The parameters of the script function `name` visible from `ctx`.
fn script_params(ctx: &NativeCallContext, name: &str) -> Option<Vec<String>> {
    ctx.iter_namespaces().find_map(|m| {
        (0..=16)
            .find_map(|n| m.get_script_fn(name, n))
            .map(|f| f.params.iter().map(|p| p.to_string()).collect())
    })
}

/// Registers the translating function.
pub fn register(engine: &mut Engine) {
    engine.register_fn(CAUGHT_HOOK, |ctx: NativeCallContext, value: Dynamic| {
        // The error is handled: a raise behind it no longer concerns the next failed call.
        crate::ops::errors::forget_raised();
        let Some(map) = value.read_lock::<Map>() else {
            return value.clone();
        };
        let Some(failure) = Failure::from_caught(&map) else {
            return value.clone();
        };
        let names = Names {
            engine: ctx.engine(),
            script_params: Box::new(|name| script_params(&ctx, name)),
        };
        Dynamic::from(python_words(&failure, &names))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_catch_block_starts_by_translating_its_variable() {
        let engine = Engine::new();
        let code = "try { 1 } catch (e) { print(e) }\ntry {} catch(err){}";
        let (out, _) = bind_caught_errors(&engine, code);
        assert_eq!(
            out,
            "try { 1 } catch (e) { e = __tensh_caught(e);  print(e) }\n\
             try {} catch(err){ err = __tensh_caught(err); }"
        );
    }

    #[test]
    fn strings_comments_and_catch_without_a_variable_are_left_alone() {
        let engine = Engine::new();
        for code in [
            "let s = \"catch (e) {\";",
            "// catch (e) {\nlet x = 1;",
            "try { 1 } catch { 2 }",
            "let s = `${ if true { 1 } else { 2 } } catch (e) {`;",
        ] {
            assert_eq!(bind_caught_errors(&engine, code).0, code);
        }
    }

    #[test]
    fn catch_after_an_interpolated_string_is_found() {
        let engine = Engine::new();
        let code = "let s = `a${1}b`; try {} catch (e) {}";
        assert!(
            bind_caught_errors(&engine, code)
                .0
                .contains("e = __tensh_caught(e);")
        );
    }

    #[test]
    fn columns_after_an_insertion_are_the_users() {
        let engine = Engine::new();
        let code = "try {} catch (e) {} catch_me; try {} catch (f) {} x\nfoo";
        let (out, shifts) = bind_caught_errors(&engine, code);
        let first_line = out.lines().next().unwrap();
        for word in ["catch_me", "x"] {
            let rewritten = first_line.find(&format!(" {word}")).unwrap() + 2;
            let original = code.find(&format!(" {word}")).unwrap() + 2;
            assert_eq!(shifts.original_column(1, rewritten), original, "{word}");
        }
        // Before the first insertion, and on other lines, nothing moves.
        assert_eq!(shifts.original_column(1, 3), 3);
        assert_eq!(shifts.original_column(2, 2), 2);
    }
}
