//! Reading a chain of calls back from a place in a line: `torch::arange(6).view(2, 3).t()`
//! before `.view`, or `x.t().is_c` before the cursor. Completion types each link of the chain;
//! `:why` names the tensor an error was about as the input wrote it.

/// Where the chain ending at `end` (a char index into `text`) starts: names, `.`, `::`, and
/// bracket groups balanced within the chain; it stops at an open bracket it did not close,
/// a space or an operator.
pub fn chain_start(text: &[char], end: usize) -> usize {
    let mut start = end.min(text.len());
    let mut depth = 0usize;
    while start > 0 {
        match text[start - 1] {
            ')' | ']' | '}' => depth += 1,
            '(' | '[' | '{' if depth == 0 => break,
            '(' | '[' | '{' => depth -= 1,
            _ if depth > 0 => {}
            '.' | '_' | ':' => {}
            c if c.is_alphanumeric() => {}
            _ => break,
        }
        start -= 1;
    }
    start
}

/// One link of a chain: its name, and its call's argument text when it is a call
/// (`Some("")` for `name()`), with the number of index groups after it (`x[0]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The name (`torch::arange` for a path).
    pub name: String,
    /// The text between the call's parentheses, if the link is a call.
    pub args: Option<String>,
    /// How many `[...]` groups follow.
    pub indexed: usize,
}

/// The links of `chain` split at its top-level dots (`a.b().c[0]` → `a`, `b()`, `c[0]`);
/// `None` when a link is not a name followed by calls and indexing.
pub fn links(chain: &str) -> Option<Vec<Link>> {
    let chars: Vec<char> = chain.chars().collect();
    let mut parts = Vec::new();
    let (mut depth, mut from) = (0usize, 0usize);
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.checked_sub(1)?,
            '.' if depth == 0 => {
                parts.push(&chars[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&chars[from..]);
    parts.into_iter().map(link).collect()
}

fn link(part: &[char]) -> Option<Link> {
    let name_end = part
        .iter()
        .position(|c| !(c.is_alphanumeric() || *c == '_' || *c == ':'))
        .unwrap_or(part.len());
    let name: String = part[..name_end].iter().collect();
    let mut rest = &part[name_end..];
    let mut args = None;
    if rest.first() == Some(&'(') {
        let close = matching(rest)?;
        args = Some(rest[1..close].iter().collect::<String>());
        rest = &rest[close + 1..];
    }
    let mut indexed = 0;
    while rest.first() == Some(&'[') {
        let close = matching(rest)?;
        indexed += 1;
        rest = &rest[close + 1..];
    }
    (rest.is_empty()).then_some(Link {
        name,
        args,
        indexed,
    })
}

/// The index of the bracket closing the one `text` starts with.
fn matching(text: &[char]) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.iter().enumerate() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn a_chain_starts_after_an_operator_or_an_open_bracket() {
        let t = chars("let y = a + torch::arange(6).view(2, 3).t");
        assert_eq!(chain_start(&t, t.len()), 12);
        let t = chars("f(x[\"1:\"].t");
        assert_eq!(chain_start(&t, t.len()), 2);
    }

    #[test]
    fn links_split_at_top_level_dots() {
        let got = links("torch::arange(6).view(2, 3)[0].is_c").unwrap();
        let names: Vec<&str> = got.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["torch::arange", "view", "is_c"]);
        assert_eq!(got[1].args.as_deref(), Some("2, 3"));
        assert_eq!(got[1].indexed, 1);
        assert_eq!(got[2].args, None);
        assert_eq!(links("x.view(1.5).t()").unwrap().len(), 3);
        assert_eq!(links("x).t"), None);
    }
}
