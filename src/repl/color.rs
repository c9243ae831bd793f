//! Whether to colour output: `--color=always|never`, or by default (`auto`) only on a
//! terminal, and never with `NO_COLOR` set or `TERM=dumb`.

/// The `--color` choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorChoice {
    /// Colour on a terminal unless the environment says otherwise.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Parses the value of `--color=`.
    pub fn parse(value: &str) -> Option<ColorChoice> {
        match value {
            "auto" => Some(ColorChoice::Auto),
            "always" => Some(ColorChoice::Always),
            "never" => Some(ColorChoice::Never),
            _ => None,
        }
    }

    /// Decides, given whether output is a terminal and the environment variables
    /// `NO_COLOR` and `TERM`.
    pub fn resolve(self, terminal: bool, no_color: Option<&str>, term: Option<&str>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                terminal && no_color.is_none_or(str::is_empty) && term != Some("dumb")
            }
        }
    }

    /// Decides for one of this process's streams (`terminal`: whether it is a terminal)
    /// and its environment. Standard output and standard error decide apart: errors sent to
    /// a file (`2>err.log`) get no colour codes while the prompt is still coloured.
    pub fn resolve_here(self, terminal: bool) -> bool {
        let no_color = std::env::var("NO_COLOR").ok();
        let term = std::env::var("TERM").ok();
        self.resolve(terminal, no_color.as_deref(), term.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_follows_terminal_and_environment() {
        let auto = ColorChoice::Auto;
        assert!(auto.resolve(true, None, Some("xterm")));
        assert!(!auto.resolve(false, None, Some("xterm")));
        assert!(!auto.resolve(true, Some("1"), Some("xterm")));
        assert!(auto.resolve(true, Some(""), None));
        assert!(!auto.resolve(true, None, Some("dumb")));
    }

    #[test]
    fn explicit_choices_win() {
        assert!(ColorChoice::Always.resolve(false, Some("1"), Some("dumb")));
        assert!(!ColorChoice::Never.resolve(true, None, None));
        assert_eq!(ColorChoice::parse("sometimes"), None);
    }
}
