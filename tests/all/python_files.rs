//! `tensh FILE.py`: a Python session runs as `python FILE.py` would with PyTorch installed:
//! the same standard output and exit status, an uncaught exception as Python's traceback on
//! standard error, and constructs tensh's Python does not run refused in words when reached.

use std::process::{Command, Stdio};

/// Runs `tensh ARGS` in `dir`; returns the status, standard output and standard error.
fn tensh_in(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("tensh runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A folder of its own with `name` holding `code`.
fn script(name: &str, code: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tensh-py-{}-{}",
        name.replace('.', "-"),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), code).unwrap();
    dir
}

#[test]
fn an_uncaught_exception_is_pythons_traceback_and_status_1() {
    let dir = script(
        "fails.py",
        "import torch\nprint('before')\n\ndef reshape(t):\n    return t.view(3, 5)\n\nx = torch.zeros(4, 4)\nreshape(x)\nprint('after')\n",
    );
    let (code, out, err) = tensh_in(&dir, &["fails.py"]);
    assert_eq!(code, 1);
    assert_eq!(out, "before\n");
    assert_eq!(
        err,
        "Traceback (most recent call last):\n  \
         File \"fails.py\", line 8, in <module>\n    reshape(x)\n  \
         File \"fails.py\", line 5, in reshape\n    return t.view(3, 5)\n\
         RuntimeError: shape '[3, 5]' is invalid for input of size 16\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_uncaught_chained_exception_reports_the_chain_as_python_does() {
    // CPython 3.11's report of this file: each exception's traceback, oldest first, joined
    // by the words for a cause or a context.
    let code = "def load(d):\n    return d['k']\ntry:\n    load({})\nexcept KeyError as e:\n    try:\n        1 / 0\n    except ZeroDivisionError:\n        raise ValueError('bad') from e\n";
    let dir = script("chained.py", code);
    let (status, _, err) = tensh_in(&dir, &["chained.py"]);
    assert_eq!(status, 1);
    let expected = [
        "Traceback (most recent call last):",
        "  File \"chained.py\", line 2, in load",
        "KeyError: 'k'",
        "The above exception was the direct cause of the following exception:",
        "Traceback (most recent call last):",
        "  File \"chained.py\", line 9, in <module>",
        "ValueError: bad",
    ];
    let mut at = 0;
    for line in expected {
        match err[at..].find(line) {
            Some(p) => at += p + line.len(),
            None => panic!("{line:?} missing in order from:\n{err}"),
        }
    }
    assert!(!err.contains("During handling"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_construct_outside_tensh_python_is_refused_when_its_statement_runs() {
    for (code, what) in [
        ("print(1)\nasync def f():\n    pass\n", "async functions"),
        ("print(1)\ny = t'{1}'\n", "template strings"),
    ] {
        let dir = script("refused.py", code);
        let (status, out, err) = tensh_in(&dir, &["refused.py"]);
        // The statements before it run, as in Python.
        assert_eq!((status, out.as_str()), (1, "1\n"), "{code}");
        assert!(
            err.contains(&format!(
                "NotImplementedError: tensh's Python does not run {what}"
            )),
            "{err}"
        );
        assert!(err.contains("line 2"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
    let dir = script("bad.py", "x = = 1\n");
    let (status, _, err) = tensh_in(&dir, &["bad.py"]);
    assert_eq!(status, 1);
    assert!(
        err.contains("File \"bad.py\", line 1") && err.contains("SyntaxError"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn modules_outside_the_session_set_raise_module_not_found() {
    let dir = script("numpy.py", "import torch\nimport numpy as np\n");
    let (status, _, err) = tensh_in(&dir, &["numpy.py"]);
    assert_eq!(status, 1);
    assert!(err.contains("line 2, in <module>"), "{err}");
    assert!(
        err.contains("ModuleNotFoundError: No module named 'numpy'"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sys_argv_and_sys_exit_work_as_in_python() {
    let dir = script(
        "args.py",
        "import sys\nprint(sys.argv[1:])\nif len(sys.argv) > 2:\n    sys.exit(int(sys.argv[2]))\nprint('end')\n",
    );
    let (status, out, _) = tensh_in(&dir, &["args.py", "a", "3"]);
    assert_eq!((status, out.as_str()), (3, "['a', '3']\n"));
    let (status, out, _) = tensh_in(&dir, &["args.py", "a"]);
    assert_eq!((status, out.as_str()), (0, "['a']\nend\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_language_follows_the_extension_unless_lang_says() {
    let dir = script(
        "session.txt",
        "import torch\nprint(torch.arange(3).stride())\n",
    );
    let (status, out, _) = tensh_in(&dir, &["--lang", "python", "session.txt"]);
    assert_eq!((status, out.as_str()), (0, "(1,)\n"));
    let (status, out, _) = tensh_in(
        &dir,
        &["--lang", "python", "-e", "print(2 ** 10, None, (1,))"],
    );
    assert_eq!((status, out.as_str()), (0, "1024 None (1,)\n"));
    let (status, _, err) = tensh_in(&dir, &["--lang", "ruby", "session.txt"]);
    assert_eq!(status, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ints_of_any_size_reach_an_op_only_within_64_bits() {
    let dir = script(
        "big.py",
        "import torch\nprint(-2**63, 2**64, (2**64) // 2**60)\nprint(torch.tensor([-2**63]))\ntorch.tensor([2**63])\n",
    );
    let (status, out, err) = tensh_in(&dir, &["big.py"]);
    assert_eq!(status, 1);
    assert_eq!(
        out,
        "-9223372036854775808 18446744073709551616 16\ntensor([-9223372036854775808])\n"
    );
    assert!(
        err.contains("ValueError: Overflow when unpacking long long"),
        "{err}"
    );
    let (status, out, err) = tensh_in(&dir, &["--lang", "python", "-e", "print(2**200 // 3**100)"]);
    assert_eq!((status, out.as_str()), (0, "3117982410207\n"), "{err}");
    // A result too large to hold is refused before it is computed, not ground out.
    let (status, _, err) = tensh_in(&dir, &["--lang", "python", "-e", "2 ** 10 ** 9"]);
    assert_eq!(status, 1);
    assert!(
        err.contains("MemoryError") && err.contains("at most 16777216 bits"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn warnings_filters_turn_tensh_warnings_off_and_catch_warnings_puts_them_back() {
    let dir = script(
        "warn.py",
        "import warnings, torch\nwith warnings.catch_warnings():\n    warnings.simplefilter('ignore')\n    torch.ones(2).storage()\n    warnings.warn('hidden')\nprint('inside done')\nwarnings.warn('shown')\ntorch.ones(2).storage()\n",
    );
    let (status, out, err) = tensh_in(&dir, &["warn.py"]);
    assert_eq!((status, out.as_str()), (0, "inside done\n"));
    assert!(!err.contains("hidden"), "{err}");
    assert!(err.contains("warn.py:7: UserWarning: shown"), "{err}");
    // PyTorch gives the TypedStorage warning once per process: the one the filter dropped
    // was it.
    assert!(!err.contains("TypedStorage is deprecated"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn constructs_refused_while_running_say_so_with_their_line() {
    for (code, line, message) in [
        (
            "import torch\nfrom torch import *\n",
            2,
            "NotImplementedError: tensh's Python does not run 'from torch import *'",
        ),
        (
            "from . import x\n",
            1,
            "ImportError: attempted relative import with no known parent package",
        ),
        (
            "import torch\nt = torch.ones(2)\nt.add(lambda g: g)\n",
            3,
            "NotImplementedError: tensh's Python does not pass Python functions to torch functions yet",
        ),
        (
            "print(1)\nprint(dir())\n",
            2,
            "NotImplementedError: tensh's Python does not have dir()",
        ),
        (
            "import warnings\nwarnings.simplefilter('error')\nwarnings.warn('now raised')\n",
            3,
            "UserWarning: now raised",
        ),
        (
            "x = object()\n",
            1,
            "NotImplementedError: tensh's Python does not make plain objects",
        ),
    ] {
        let dir = script("runtime.py", code);
        let (status, _, err) = tensh_in(&dir, &["runtime.py"]);
        assert_eq!(status, 1, "{code}");
        assert!(
            err.contains(&format!("line {line}, in <module>")),
            "{code}: {err}"
        );
        assert!(err.trim_end().ends_with(message), "{code}: {err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Runs `code` as a Python file, stopping it after `limit` seconds; `None` if it ran over.
fn run_within(name: &str, code: &str, limit: u64) -> Option<(i32, String, String)> {
    let dir = script(name, code);
    let mut child = Command::new(env!("CARGO_BIN_EXE_tensh"))
        .arg(name)
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tensh runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(limit);
    while child.try_wait().expect("waits").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            let _ = std::fs::remove_dir_all(&dir);
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    let _ = std::fs::remove_dir_all(&dir);
    Some((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// Dicts and sets look a key up by its hash: a million keys take about a second (they took
/// hours when every lookup compared every key), and emptying them stays linear.
#[test]
fn dicts_and_sets_of_a_million_keys_answer_at_once() {
    let code = "d = {}\nfor i in range(1000000):\n    d[i] = i\nd[2.0] = 'two'\n\
                s = set()\nfor i in range(1000000):\n    s.add(i % 1000)\n\
                print(len(d), d[2], d[999999], 123456.0 in d, len(s), 999 in s, 1000 in s)\n\
                while d:\n    d.popitem()\nwhile s:\n    s.pop()\nprint(len(d), len(s))\n";
    let (status, out, err) = run_within("million_keys.py", code, 120).expect("finishes in time");
    assert_eq!((status, err.as_str()), (0, ""));
    assert_eq!(out, "1000000 two 999999 True 1000 True False\n0 0\n");
}

/// A dict that holds itself compares equal to itself (its values compare by identity
/// first, as CPython's do) instead of overflowing the stack.
#[test]
fn a_dict_holding_itself_compares_without_overflowing() {
    let code = "d = {}\nd['self'] = d\nprint(d == d, d == {'self': d})\n";
    let (status, out, err) = run_within("self_dict.py", code, 60).expect("finishes in time");
    assert_eq!((status, out.as_str(), err.as_str()), (0, "True True\n", ""));
}

/// Values that hold themselves or nest deeply: a repr shows `[...]` for a list met inside
/// itself (it never ended before), comparisons past the recursion limit raise
/// `RecursionError`, and a list nested ten million deep is dropped without overflowing the
/// stack (each aborted the process before).
#[test]
fn self_holding_and_deep_values_neither_hang_nor_abort() {
    let code = "l = [1]\nl.append(l)\nl.append(l)\nprint(l)\n\
                d = {}\nd[1] = d\nd[2] = [d]\nprint(d)\n\
                a = []\nb = []\nfor i in range(100000):\n    a = [a]\n    b = [b]\n\
                try:\n    a == b\nexcept RecursionError as e:\n    print(e)\n\
                try:\n    repr(a)\nexcept RecursionError as e:\n    print(e)\n\
                c = []\nfor i in range(10000000):\n    c = [c]\nc = None\nprint('dropped')\n";
    let (status, out, err) = run_within("deep.py", code, 120).expect("finishes in time");
    assert_eq!((status, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "[1, [...], [...]]\n{1: {...}, 2: [{...}]}\n\
         maximum recursion depth exceeded in comparison\n\
         maximum recursion depth exceeded while getting the repr of an object\ndropped\n"
    );
}

/// Iterators are lazy: asking for the first of 10**12 items, short-circuiting over them,
/// zipping with them and slicing such a range answer at once (each built the whole list
/// before, and aborted on the allocation).
#[test]
fn iterators_over_huge_ranges_answer_at_once() {
    let code = "print(next(iter(range(10**12))))\n\
                print(any(True for _ in range(10**12)), all(i < 3 for i in range(10**12)))\n\
                print(list(zip('ab', range(10**12))), next(enumerate(range(10**12), 1)))\n\
                print(next(map(lambda i: i * 2, range(1, 10**12))), range(10**12)[:3])\n\
                print(next(x for x in range(10**12) if x > 5), next(reversed(range(10**12))))\n";
    let (status, out, err) = run_within("lazy.py", code, 60).expect("finishes in time");
    assert_eq!((status, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "0\nTrue False\n[('a', 0), ('b', 1)] (1, 0)\n2 range(0, 3)\n6 999999999999\n"
    );
}

/// Generator expressions nested a million deep (each over the last) raise `RecursionError`
/// when asked for an item, rather than overflow the interpreter's stack (CPython crashes).
#[test]
fn deeply_nested_generators_raise_rather_than_overflow() {
    let code = "g = iter(range(3))\nfor i in range(1000000):\n    g = (x for x in g)\n\
                try:\n    next(g)\nexcept RecursionError as e:\n    print(e)\n\
                g = (x for x in iter(range(3)))\nprint(next(g))\n";
    let (status, out, err) = run_within("nested_generators.py", code, 120).expect("finishes");
    assert_eq!((status, err.as_str()), (0, ""));
    assert_eq!(out, "maximum recursion depth exceeded\n0\n");
}
