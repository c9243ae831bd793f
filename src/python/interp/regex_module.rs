//! `_sre`: the matcher under the `re` module (written in Python, `python::stdlib::re`).
//! A Python pattern is read into the `regex-automata` crate's syntax (`translate`) and
//! compiled once (kept by pattern and flags); matching runs in time linear in the string,
//! so no pattern stalls a session. What that syntax cannot say — backreferences and
//! look-around, which need a backtracking matcher — is refused in words.
//!
//! Positions cross as Python's: indices of characters, not bytes.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use regex_automata::meta::Regex;
use regex_automata::util::syntax;
use regex_automata::{Anchored, Input, PatternID};

use super::{Flow, Interpreter};
use crate::python::value::Value;

/// CPython's flag bits (`re.IGNORECASE`, ...).
const IGNORECASE: i64 = 2;
const MULTILINE: i64 = 8;
const DOTALL: i64 = 16;
const VERBOSE: i64 = 64;
const ASCII: i64 = 256;

/// Patterns kept compiled, at most (CPython keeps 512 too).
const KEPT: usize = 512;

/// A pattern compiled: for `search`/`match`, and followed by `\z` for `fullmatch`.
struct Compiled {
    search: Regex,
    whole: Regex,
    /// For a pattern with `$` outside MULTILINE, the same two with `$` matching before a
    /// newline too: used on a string whose one newline is its last character, where
    /// Python's `$` matches before that newline as well as at the end.
    final_newline: Option<(Regex, Regex)>,
}

/// The patterns compiled so far, by pattern and flags.
type Kept = HashMap<(Rc<str>, i64), Rc<Compiled>>;

thread_local! {
    static COMPILED: RefCell<Kept> = RefCell::new(HashMap::new());
}

/// Why a pattern cannot be compiled.
#[derive(Debug)]
enum Refusal {
    /// Not a pattern Python would take either: `re.error`.
    Invalid(String),
    /// Python's, but beyond a linear-time matcher: `NotImplementedError`.
    Unsupported(&'static str),
}

impl Interpreter {
    /// Calls `_sre.name`.
    pub(super) fn regex_function(&mut self, name: &str, args: &[Value]) -> Flow<Value> {
        if let ("slice", [Value::Str(text), Value::Int(start), Value::Int(end)]) = (name, args) {
            return Ok(Value::str(slice(text, *start, *end)));
        }
        let (Some(Value::Str(pattern)), Some(Value::Int(flags))) = (args.first(), args.get(1))
        else {
            return self.raise(
                "TypeError",
                "first argument must be string or compiled pattern",
            );
        };
        let compiled = match compiled(pattern, *flags) {
            Ok(c) => c,
            // `re.compile` raises its module's own `re.error` with the words.
            Err(Refusal::Invalid(message)) => return Ok(Value::str(message)),
            Err(Refusal::Unsupported(what)) => {
                return self.raise(
                    "NotImplementedError",
                    format!("tensh's re does not match {what} (it matches in linear time)"),
                );
            }
        };
        match (name, &args[2..]) {
            ("info", []) => {
                let info = compiled.search.group_info();
                let groups = info.group_len(PatternID::ZERO) - 1;
                let names = info
                    .pattern_names(PatternID::ZERO)
                    .enumerate()
                    .filter_map(|(i, n)| Some((Value::str(n?), Value::Int(i as i64))))
                    .collect();
                Ok(Value::tuple(vec![
                    Value::Int(groups as i64),
                    Value::dict(names),
                ]))
            }
            (
                "spans",
                [
                    Value::Str(text),
                    Value::Int(pos),
                    Value::Int(endpos),
                    Value::Int(count),
                ],
            ) => {
                let at = positions(text);
                let found = all_matches(&compiled, &at, text, *pos, *endpos, *count);
                Ok(Value::list(
                    found
                        .into_iter()
                        .map(|m| Value::list(m.into_iter().map(Value::Int).collect()))
                        .collect(),
                ))
            }
            ("findall", [Value::Str(text), Value::Int(pos), Value::Int(endpos)]) => {
                // CPython's findall: the whole match without groups, the one group's text,
                // or a tuple of every group's ('' for a group that took no part).
                let at = positions(text);
                let found = all_matches(&compiled, &at, text, *pos, *endpos, 0);
                let piece = |m: &[i64], g: usize| {
                    Value::str(if m[2 * g] < 0 {
                        ""
                    } else {
                        slice(text, m[2 * g], m[2 * g + 1])
                    })
                };
                Ok(Value::list(
                    found
                        .iter()
                        .map(|m| match m.len() / 2 {
                            1 => piece(m, 0),
                            2 => piece(m, 1),
                            n => Value::tuple((1..n).map(|g| piece(m, g)).collect()),
                        })
                        .collect(),
                ))
            }
            (
                "search",
                [
                    Value::Str(text),
                    Value::Int(pos),
                    Value::Int(endpos),
                    Value::Int(mode),
                ],
            ) => Ok(search(
                &compiled,
                &positions(text),
                text,
                *pos,
                *endpos,
                *mode,
            )),
            _ => self.raise("TypeError", format!("_sre.{name}(): bad arguments")),
        }
    }
}

/// Whether `pattern` matches at the start of `text`, ignoring case (`warnings`' message
/// filters, which CPython compiles with `re.I` and applies with `match`); `None` for a
/// pattern this matcher cannot take.
pub(super) fn matches_start_ignoring_case(pattern: &Rc<str>, text: &str) -> Option<bool> {
    let c = compiled(pattern, IGNORECASE).ok()?;
    Some(
        c.search
            .search(&Input::new(text).anchored(Anchored::Yes))
            .is_some(),
    )
}

/// The compiled form of `pattern` under `flags`, made once.
fn compiled(pattern: &Rc<str>, flags: i64) -> Result<Rc<Compiled>, Refusal> {
    let key = (pattern.clone(), flags);
    if let Some(c) = COMPILED.with(|m| m.borrow().get(&key).cloned()) {
        return Ok(c);
    }
    let (translated, has_dollar) = translate(pattern, flags, false)?;
    let config = syntax::Config::new()
        .case_insensitive(flags & IGNORECASE != 0)
        .multi_line(flags & MULTILINE != 0)
        .dot_matches_new_line(flags & DOTALL != 0)
        .ignore_whitespace(flags & VERBOSE != 0);
    let build = |text: &str| {
        Regex::builder()
            .syntax(config)
            .build(text)
            .map_err(|e| Refusal::Invalid(crate_error_words(&e.to_string())))
    };
    let final_newline = if has_dollar && flags & MULTILINE == 0 {
        let (before_newline, _) = translate(pattern, flags, true)?;
        Some((
            build(&before_newline)?,
            build(&format!("(?:{before_newline})\\z"))?,
        ))
    } else {
        None
    };
    let c = Rc::new(Compiled {
        search: build(&translated)?,
        whole: build(&format!("(?:{translated})\\z"))?,
        final_newline,
    });
    COMPILED.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= KEPT {
            m.clear();
        }
        m.insert(key, c.clone());
    });
    Ok(c)
}

/// The words of the crate's error for a pattern it cannot read (its message draws the
/// pattern and a caret first).
fn crate_error_words(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    // The crate's message is the pattern, a caret, then the error: keep the error.
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with("error:"))
        .map(|l| l.trim_start_matches("error:").trim().to_string())
        .unwrap_or_else(|| lines.join(" "))
}

/// What a search needs to know of its string beyond its bytes, found once per string (a
/// `finditer` searches the same string again and again).
struct Positions {
    /// Its length in characters.
    chars: usize,
    /// Where each character starts, for a string that is not all ASCII.
    starts: Option<Vec<usize>>,
    /// Where its first newline is.
    first_newline: Option<usize>,
}

impl Positions {
    /// The byte where character `ch` (at most the length) starts.
    fn byte_of(&self, ch: usize, text: &str) -> usize {
        match &self.starts {
            None => ch,
            Some(starts) => starts.get(ch).copied().unwrap_or(text.len()),
        }
    }

    /// The character that starts at byte `b`.
    fn char_of(&self, b: usize) -> i64 {
        match &self.starts {
            None => b as i64,
            Some(starts) => starts.partition_point(|&s| s < b) as i64,
        }
    }
}

thread_local! {
    static LAST_STRING: RefCell<Option<(Rc<str>, Rc<Positions>)>> = const { RefCell::new(None) };
}

/// The positions of `text`, kept for the last string searched.
fn positions(text: &Rc<str>) -> Rc<Positions> {
    if let Some(p) = LAST_STRING.with(|l| {
        l.borrow()
            .as_ref()
            .filter(|(t, _)| Rc::ptr_eq(t, text))
            .map(|(_, p)| p.clone())
    }) {
        return p;
    }
    let starts =
        (!text.is_ascii()).then(|| text.char_indices().map(|(b, _)| b).collect::<Vec<_>>());
    let p = Rc::new(Positions {
        chars: starts.as_ref().map_or(text.len(), Vec::len),
        starts,
        first_newline: text.find('\n'),
    });
    LAST_STRING.with(|l| *l.borrow_mut() = Some((text.clone(), p.clone())));
    p
}

/// `text[start:end]` for `0 <= start <= end <= len(text)` (a match's pieces), found through
/// the string's kept positions: a `sub` or `findall` over a long string cuts it in time
/// proportional to the pieces, not to where they are.
fn slice(text: &Rc<str>, start: i64, end: i64) -> &str {
    let at = positions(text);
    let chars = at.chars as i64;
    let (start, end) = (start.clamp(0, chars) as usize, end.clamp(0, chars) as usize);
    text.get(at.byte_of(start, text)..at.byte_of(end.max(start), text))
        .unwrap_or("")
}

/// Searches `text` between the character positions `pos` and `endpos` (Python's, clamped
/// as Python clamps them): mode 0 anywhere, 1 anchored at `pos` (`match`), 2 anchored and
/// reaching `endpos` (`fullmatch`). The groups' spans as `[start0, end0, start1, ...]`, in
/// characters, `-1` for a group that took no part; `None` without a match.
fn find(
    c: &Compiled,
    at: &Positions,
    text: &str,
    pos: i64,
    endpos: i64,
    mode: i64,
) -> Option<Vec<i64>> {
    let chars = at.chars as i64;
    let end = endpos.clamp(0, chars);
    let start = pos.clamp(0, chars);
    if start > end {
        return None;
    }
    let (start_byte, end_byte) = (
        at.byte_of(start as usize, text),
        at.byte_of(end as usize, text),
    );
    let haystack = &text[..end_byte];
    let (search, whole) = match &c.final_newline {
        Some((search, whole)) if end_byte > 0 && at.first_newline == Some(end_byte - 1) => {
            (search, whole)
        }
        _ => (&c.search, &c.whole),
    };
    let regex = if mode == 2 { whole } else { search };
    let input = Input::new(haystack)
        .span(start_byte..end_byte)
        .anchored(if mode == 0 {
            Anchored::No
        } else {
            Anchored::Yes
        });
    let mut caps = regex.create_captures();
    regex.search_captures(&input, &mut caps);
    if !caps.is_match() {
        return None;
    }
    let groups = caps.group_len();
    let mut spans = Vec::with_capacity(groups * 2);
    for g in 0..groups {
        match caps.get_group(g) {
            Some(span) => {
                spans.push(at.char_of(span.start));
                spans.push(at.char_of(span.end));
            }
            None => spans.extend([-1, -1]),
        }
    }
    Some(spans)
}

/// `find` as `_sre.search` answers: the spans as a list, or `None`.
fn search(c: &Compiled, at: &Positions, text: &str, pos: i64, endpos: i64, mode: i64) -> Value {
    match find(c, at, text, pos, endpos, mode) {
        Some(spans) => Value::list(spans.into_iter().map(Value::Int).collect()),
        None => Value::None,
    }
}

/// Every match from `pos` on, at most `count` (0: all), each as `find` gives it, by
/// Python's rule for empty matches: one right where the last match ended counts only
/// if that match was not empty too; else the search goes on from the next character.
fn all_matches(
    c: &Compiled,
    at: &Positions,
    text: &str,
    pos: i64,
    endpos: i64,
    count: i64,
) -> Vec<Vec<i64>> {
    let end = endpos.clamp(0, at.chars as i64);
    let mut pos = pos.max(0);
    let mut out = Vec::new();
    let mut last_was_empty = false;
    while pos <= end && (count <= 0 || (out.len() as i64) < count) {
        let Some(spans) = find(c, at, text, pos, end, 0) else {
            break;
        };
        let (s, e) = (spans[0], spans[1]);
        if last_was_empty && s == e && s == pos {
            pos += 1;
            last_was_empty = false;
            continue;
        }
        last_was_empty = s == e;
        pos = e;
        out.push(spans);
    }
    out
}

/// `pattern` in the crate's syntax, and whether it has a `$` outside a class. Python's
/// literal `{`, `[` inside a class, `\Z`, octal escapes, ASCII classes and inline flags are
/// rewritten (and `$` as the multi-line `$` when `dollar_before_newline`); backreferences,
/// look-around, conditionals, atomic groups and possessive repeats are refused, and a
/// repeat of a repeat is Python's error.
fn translate(
    pattern: &str,
    flags: i64,
    dollar_before_newline: bool,
) -> Result<(String, bool), Refusal> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut ascii = flags & ASCII != 0;
    if pattern.starts_with("(?") {
        // Global inline flags (`(?a)`) may say ASCII too.
        let inline: String = chars[2..]
            .iter()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        if chars.get(2 + inline.len()) == Some(&')') && inline.contains('a') {
            ascii = true;
        }
    }
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut i = 0;
    let mut in_class = false;
    let mut has_dollar = false;
    // After a repeat (1), or a repeat made lazy (2): what may follow is limited.
    let mut repeated = 0;
    while i < chars.len() {
        let c = chars[i];
        if !in_class {
            let repeat = matches!(c, '*' | '+' | '?') || (c == '{' && reads_as_repeat(&chars[i..]));
            if repeat {
                match (repeated, c) {
                    (0, _) => repeated = 1,
                    (1, '?') => {
                        out.push('?');
                        repeated = 2;
                        i += 1;
                        continue;
                    }
                    (1, '+') => return Err(Refusal::Unsupported("possessive repeats")),
                    _ => {
                        return Err(Refusal::Invalid(format!("multiple repeat at position {i}")));
                    }
                }
            } else {
                repeated = 0;
            }
        }
        if c == '\\' {
            let Some(&next) = chars.get(i + 1) else {
                return Err(Refusal::Invalid(format!(
                    "bad escape (end of pattern) at position {i}"
                )));
            };
            i += 2;
            match next {
                '1'..='9' if !in_class => return Err(Refusal::Unsupported("backreferences")),
                '0'..='7' => {
                    // An octal escape: up to three digits.
                    let mut value = next.to_digit(8).unwrap_or(0);
                    let mut digits = 1;
                    while digits < 3 {
                        match chars.get(i).and_then(|d| d.to_digit(8)) {
                            Some(d) => {
                                value = value * 8 + d;
                                i += 1;
                                digits += 1;
                            }
                            None => break,
                        }
                    }
                    out.push_str(&format!("\\x{{{value:x}}}"));
                }
                'Z' if !in_class => out.push_str("\\z"),
                'b' if in_class => out.push_str("\\x08"),
                'w' | 'W' | 'd' | 'D' | 's' | 'S' if ascii => out.push_str(ascii_class(next)),
                '<' | '>' => out.push(next),
                c if c.is_ascii_alphanumeric() => {
                    if !"AbBdDsSwWZafnrtvxuUN".contains(c) {
                        return Err(Refusal::Invalid(format!(
                            "bad escape \\{c} at position {}",
                            i - 2
                        )));
                    }
                    out.push('\\');
                    out.push(c);
                }
                c if c.is_ascii() => {
                    out.push('\\');
                    out.push(c);
                }
                c => out.push(c),
            }
            continue;
        }
        if in_class {
            match c {
                ']' => {
                    in_class = false;
                    out.push(']');
                }
                '[' | '&' | '~' => {
                    out.push('\\');
                    out.push(c);
                }
                _ => out.push(c),
            }
            i += 1;
            continue;
        }
        match c {
            '[' => {
                in_class = true;
                out.push('[');
                i += 1;
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if chars.get(i) == Some(&']') {
                    // A `]` first in a class is itself.
                    out.push_str("\\]");
                    i += 1;
                }
            }
            '(' if chars.get(i + 1) == Some(&'?') => {
                let rest: String = chars[i + 2..].iter().take(3).collect();
                if rest.starts_with('=')
                    || rest.starts_with('!')
                    || rest.starts_with("<=")
                    || rest.starts_with("<!")
                {
                    return Err(Refusal::Unsupported("look-ahead or look-behind"));
                }
                if rest.starts_with("P=") {
                    return Err(Refusal::Unsupported("backreferences"));
                }
                if rest.starts_with('(') {
                    return Err(Refusal::Unsupported("conditional groups"));
                }
                if rest.starts_with('>') {
                    return Err(Refusal::Unsupported("atomic groups"));
                }
                if rest.starts_with('#') {
                    // A comment: skipped to its `)`.
                    while i < chars.len() && chars[i] != ')' {
                        i += 1;
                    }
                    i += 1;
                    continue;
                }
                // Inline flags: Python's `a`, `L` and `u` mean nothing to the crate.
                let flags: String = chars[i + 2..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphabetic() || **c == '-')
                    .collect();
                let kept: String = flags
                    .chars()
                    .filter(|c| !matches!(c, 'a' | 'L' | 'u'))
                    .collect();
                let after = chars.get(i + 2 + flags.len()).copied();
                if !flags.is_empty() && matches!(after, Some(')') | Some(':')) {
                    if kept.is_empty() || kept == "-" {
                        if after == Some(')') {
                            i += 3 + flags.len();
                        } else {
                            out.push_str("(?:");
                            i += 3 + flags.len();
                        }
                        continue;
                    }
                    out.push_str("(?");
                    out.push_str(&kept);
                    i += 2 + flags.len();
                    continue;
                }
                out.push_str("(?");
                i += 2;
            }
            '{' => {
                // A repetition when it reads as one; otherwise Python takes `{` as itself.
                let repeat = reads_as_repeat(&chars[i..]);
                let close = chars[i + 1..].iter().position(|&c| c == '}');
                let inner: Option<String> = close.map(|n| chars[i + 1..i + 1 + n].iter().collect());
                match (repeat, inner) {
                    (true, Some(inner)) => {
                        out.push('{');
                        if inner.starts_with(',') {
                            out.push('0');
                        }
                        out.push_str(&inner);
                        out.push('}');
                        i += inner.chars().count() + 2;
                    }
                    _ => {
                        out.push_str("\\{");
                        i += 1;
                    }
                }
            }
            '}' => {
                out.push_str("\\}");
                i += 1;
            }
            '$' => {
                has_dollar = true;
                out.push_str(if dollar_before_newline { "(?m:$)" } else { "$" });
                i += 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    if in_class {
        return Err(Refusal::Invalid(format!(
            "unterminated character set at position {}",
            pattern
                .rfind('[')
                .map_or(0, |b| pattern[..b].chars().count())
        )));
    }
    Ok((out, has_dollar))
}

/// Whether `chars` (starting at a `{`) begin a repeat: `{m}`, `{m,}`, `{,n}` or `{m,n}`.
fn reads_as_repeat(chars: &[char]) -> bool {
    let Some(close) = chars.iter().position(|&c| c == '}') else {
        return false;
    };
    let inner: String = chars[1..close].iter().collect();
    let (lo, hi) = inner.split_once(',').unwrap_or((&inner, ""));
    !inner.is_empty()
        && inner != ","
        && lo.chars().all(|c| c.is_ascii_digit())
        && hi.chars().all(|c| c.is_ascii_digit())
}

/// Python's ASCII classes (`re.ASCII`), as nested classes valid in and out of a class.
fn ascii_class(letter: char) -> &'static str {
    match letter {
        'w' => "[0-9A-Za-z_]",
        'W' => "[^0-9A-Za-z_]",
        'd' => "[0-9]",
        'D' => "[^0-9]",
        's' => "[ \\t\\n\\r\\x0B\\x0C]",
        _ => "[^ \\t\\n\\r\\x0B\\x0C]",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(pattern: &str, flags: i64, text: &str, mode: i64) -> Option<Vec<i64>> {
        let c = compiled(&Rc::from(pattern), flags).ok()?;
        let text: Rc<str> = Rc::from(text);
        match search(&c, &positions(&text), &text, 0, i64::MAX, mode) {
            Value::None => None,
            Value::List(items) => Some(
                items
                    .borrow()
                    .iter()
                    .map(|x| x.as_int().unwrap_or(-9))
                    .collect(),
            ),
            _ => None,
        }
    }

    #[test]
    fn python_patterns_match_in_characters() {
        assert_eq!(
            spans(r"(\d+)-(x)?", 0, "ab 12-", 0),
            Some(vec![3, 6, 3, 5, -1, -1])
        );
        assert_eq!(spans("é(.)", 0, "aéb", 0), Some(vec![1, 3, 2, 3]));
        assert_eq!(spans("a{", 0, "xa{", 0), Some(vec![1, 3]));
        assert_eq!(spans("a{,2}", 0, "aaa", 1), Some(vec![0, 2]));
        assert_eq!(spans("[]a]+", 0, "]a]", 2), Some(vec![0, 3]));
        assert_eq!(spans("a|ab", 0, "ab", 2), Some(vec![0, 2]));
        assert_eq!(spans("b", 0, "ab", 1), None);
        assert_eq!(spans(r"\w+", ASCII, "éa", 0), Some(vec![1, 2]));
        assert!(matches!(
            compiled(&Rc::from(r"(a)\1"), 0),
            Err(Refusal::Unsupported("backreferences"))
        ));
        assert!(matches!(
            compiled(&Rc::from("a(?=b)"), 0),
            Err(Refusal::Unsupported(_))
        ));
        assert!(matches!(
            compiled(&Rc::from("(a"), 0),
            Err(Refusal::Invalid(_))
        ));
        assert!(matches!(
            compiled(&Rc::from("a**"), 0),
            Err(Refusal::Invalid(_))
        ));
        assert!(compiled(&Rc::from("a*?b{2}?"), 0).is_ok());
        // A pattern a backtracking matcher takes exponential time on answers at once.
        let long = format!("{}b", "a".repeat(100_000));
        assert_eq!(spans("(a+)+$", 0, &long, 0), None);
        // Every match of a long string, found in time proportional to the string: its
        // positions are kept, not walked again for each match.
        let text: Rc<str> = Rc::from("é1".repeat(500_000));
        let c = compiled(&Rc::from(r"\d"), 0).unwrap_or_else(|_| panic!("compiles"));
        let found = all_matches(&c, &positions(&text), &text, 0, i64::MAX, 0);
        assert_eq!(found.len(), 500_000);
        assert_eq!(found[499_999], vec![999_999, 1_000_000]);
        assert_eq!(slice(&text, 999_998, 1_000_000), "é1");
        // Empty matches by Python's rule (`re.sub('x*', '-', 'abxd') == '-a-b--d-'`).
        let text: Rc<str> = Rc::from("abxd");
        let c = compiled(&Rc::from("x*"), 0).unwrap_or_else(|_| panic!("compiles"));
        let starts: Vec<(i64, i64)> = all_matches(&c, &positions(&text), &text, 0, 4, 0)
            .iter()
            .map(|m| (m[0], m[1]))
            .collect();
        assert_eq!(starts, [(0, 0), (1, 1), (2, 3), (3, 3), (4, 4)]);
        // `$` before a last newline, as Python's.
        assert_eq!(spans("b$", 0, "ab\n", 0), Some(vec![1, 2]));
    }
}
