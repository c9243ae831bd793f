//! What `catch (e)` binds. Rhai binds the thrown value for errors tensh raises (already a
//! `Kind: message` string), but an object map for its own errors (an operator on the wrong
//! types, a division by zero, ...), and has no hook for that. So before a script is
//! compiled, each `catch (name) {` gets a first statement that turns such a map into
//! Python's words (`rhai_errors`): `name = __tensh_caught(name);`. The insertion is made at
//! the token level (Rhai's own tokenizer, so strings and comments are left alone) on the
//! same line as the brace, so line numbers do not move.

use std::borrow::Cow;

use rhai::{Dynamic, Engine, Map, NativeCallContext, Token};

use super::rhai_errors::{Failure, Names, python_words};
use super::tokens::{each_token, splice};

/// The function the inserted statement calls.
pub const CAUGHT_HOOK: &str = "__tensh_caught";

/// `code` with a translating first statement in every `catch (name) { ... }` block.
pub fn bind_caught_errors<'a>(engine: &Engine, code: &'a str) -> Cow<'a, str> {
    if !code.contains("catch") {
        return Cow::Borrowed(code);
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
    if inserts.is_empty() {
        return Cow::Borrowed(code);
    }
    Cow::Owned(splice(code, &inserts))
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
        let out = bind_caught_errors(&engine, code);
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
            assert_eq!(bind_caught_errors(&engine, code), code);
        }
    }

    #[test]
    fn catch_after_an_interpolated_string_is_found() {
        let engine = Engine::new();
        let code = "let s = `a${1}b`; try {} catch (e) {}";
        assert!(bind_caught_errors(&engine, code).contains("e = __tensh_caught(e);"));
    }
}
