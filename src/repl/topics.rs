//! Help topics that are not `torch::` functions or methods: tensh's own global functions
//! (`explain`, `array`, ...), Rhai's `print`, and the prompt itself. `:help` lists them and
//! `:help NAME` (or `?NAME`) shows one; a test runs every example.

/// One topic: its name, how it is called, what it does, and an example to type.
pub struct Topic {
    /// The name, as typed after `:help`.
    pub name: &'static str,
    /// How it is called.
    pub usage: &'static str,
    /// What it does, in PyTorch's terms where there are any.
    pub what: &'static str,
    /// An example that runs at a fresh prompt.
    pub example: &'static str,
}

/// The topics, in the order `:help` lists them.
pub const TOPICS: &[Topic] = &[
    Topic {
        name: "explain",
        usage: "explain(t)   explain([a, b])   explain(t, [i, j])   explain(t, #{byte: b})   \
                explain(t, #{\"as\": dtype})   explain(t, #{svg: \"fig.svg\"})   (at the prompt \
                also :explain EXPR, :explain t[i, j], :explain EXPR > fig.svg)",
        what: "A picture of a tensor's memory: sizes, strides, offset, the storage's bytes and \
               which elements read them, and the session's other tensors over the same storage. \
               With a list, several tensors over one storage and where they overlap; with an \
               index, that element's address arithmetic; with #{byte}, every index reading a \
               byte; with #{\"as\"}, the bytes read as two dtypes; with #{svg}, also an SVG \
               picture. After a classic layout error, :why explains it. See docs/explain.md.",
        example: "explain(torch::arange(6).view(2, 3).t())",
    },
    Topic {
        name: "array",
        usage: "array(typecode, values)   array(typecode)",
        what: "Python's array.array: a typed buffer that torch::frombuffer and \
               UntypedStorage::from_buffer can view without copying.",
        example: "torch::frombuffer(array(\"i\", [1, 2, 3]), #{dtype: torch::int32})",
    },
    Topic {
        name: "bytearray",
        usage: "bytearray(values)   bytearray()",
        what: "Python's bytearray: writable bytes, shared with the tensors made from it by \
               torch::frombuffer.",
        example: "torch::frombuffer(bytearray([1, 0, 2, 0]), #{dtype: torch::int16})",
    },
    Topic {
        name: "bytes",
        usage: "bytes(values)",
        what: "Python's bytes: read-only bytes (torch::frombuffer warns that the tensor \
               would be writable).",
        example: "bytes([104, 105])",
    },
    Topic {
        name: "print",
        usage: "print(value)",
        what: "Prints str(value) as Python's print does (a tensor prints as PyTorch prints \
               it); several values go in one interpolated string: print(`${a} ${b}`).",
        example: "print(torch::ones(2))",
    },
    Topic {
        name: "help",
        usage: "help(name)   ?name   name?   :help name",
        what: "The doc of a function, method or property: what it does, the signatures PyTorch \
               declares (keywords and defaults), and how to write a call in Rhai.",
        example: "help(narrow)",
    },
    Topic {
        name: "_",
        usage: "_",
        what: "The last value the prompt echoed, as in Python's interactive session.",
        example: "_",
    },
];

/// The topic named `name`.
pub fn topic(name: &str) -> Option<&'static Topic> {
    TOPICS.iter().find(|t| t.name == name)
}

/// The text `:help NAME` shows for a topic.
pub fn text(t: &Topic) -> String {
    format!(
        "{}  (tensh)\n{}\nexample:\n  {}",
        t.usage, t.what, t.example
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::output;
    use crate::repl::console::Console;

    #[test]
    fn every_example_runs() {
        let mut c = Console::new();
        for t in TOPICS {
            output::start_capture();
            crate::repl::lines::feed(&mut c, "1");
            crate::repl::lines::feed(&mut c, t.example);
            let out = output::take_capture();
            assert!(
                !out.contains("Error"),
                "{}: {} printed {out}",
                t.name,
                t.example
            );
        }
    }
}
