//! The prompt's meta-commands as a table: what `meta` runs, what `:help` lists and what
//! completion offers. It sits below all three so that none of them reaches up for it.

/// The meta-commands, with a line of help each.
pub const COMMANDS: &[(&str, &str)] = &[
    (
        ":help",
        "this overview; `:help NAME` shows a function's or method's doc",
    ),
    (
        ":vars",
        "the session's variables, with shape, dtype and strides for tensors",
    ),
    (
        ":explain EXPR",
        "a picture of a tensor's memory: strides, offset, the storage's bytes; `:explain t[1, 2]` \
         one element's arithmetic; `:explain EXPR > fig.svg` also writes it as SVG",
    ),
    (
        ":why",
        "after a classic layout error (view after transpose, view(dtype), writing into an \
         expand, ...), explain it from the tensors' layouts; `:why > fig.svg` draws it",
    ),
    (
        ":python",
        "read Python from here on (the variables come along)",
    ),
    (":rhai", "read Rhai from here on (the variables come along)"),
    (":load FILE", "run a script into this session"),
    (":time EXPR", "run EXPR once and show the wall time it took"),
    (
        ":timeit EXPR",
        "run EXPR many times: mean and spread per run, best and median, as IPython's %timeit",
    ),
    (
        ":save FILE",
        "write the session so far as a transcript (`tensh test FILE` checks it)",
    ),
    (
        ":reset",
        "a fresh session: variables, seed, print options, warnings",
    ),
    (":quit", "leave (as Ctrl-D does)"),
];
