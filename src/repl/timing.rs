//! `:time` and `:timeit`: wall times in IPython's words (`1.52 ms`, `4.1 µs ± 20 ns per
//! loop (mean ± std. dev. of 7 runs, 100,000 loops each)`), plus the best and the median
//! run, which are steadier than the mean on a busy machine.

use std::time::Duration;

use super::console::Console;
use crate::ops::output;

/// How many timed runs `:timeit` makes.
const RUNS: usize = 7;
/// A run long enough to time: loops are added until one takes this long.
const ENOUGH: Duration = Duration::from_millis(200);

/// `x` with `digits` significant digits, trailing zeros dropped (C's `%.3g` for the
/// magnitudes a time takes here, 1 to 1000).
fn significant(x: f64, digits: usize) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let magnitude = x.abs().log10().floor() as i64;
    let decimals = (digits as i64 - 1 - magnitude).max(0) as usize;
    let text = format!("{x:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// A duration as IPython writes it: three significant digits in s, ms, µs or ns, or
/// `1min 5s` from a minute up.
pub fn format_time(d: Duration) -> String {
    let seconds = d.as_secs_f64();
    if seconds >= 60.0 {
        let mut left = seconds;
        let mut parts = Vec::new();
        for (suffix, length) in [("d", 86400.0), ("h", 3600.0), ("min", 60.0), ("s", 1.0)] {
            let value = (left / length).floor();
            if value > 0.0 {
                left %= length;
                parts.push(format!("{value}{suffix}"));
            }
            if left < 1.0 {
                break;
            }
        }
        return parts.join(" ");
    }
    let order = if seconds > 0.0 {
        ((-seconds.log10().floor() as i64 + 2) / 3).clamp(0, 3) as usize
    } else {
        3
    };
    let (scale, unit) = [(1.0, "s"), (1e3, "ms"), (1e6, "µs"), (1e9, "ns")][order];
    format!("{} {unit}", significant(seconds * scale, 3))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `n` with commas between thousands, as Python's `{:,}`.
fn with_commas(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Runs `code` `loops` times, or reports why it stopped.
fn timed(console: &mut Console, code: &str, loops: usize) -> Option<Duration> {
    if console.is_python() {
        let python = console.python_session()?;
        return match python.time(code, loops) {
            Ok(d) => Some(d),
            Err(crate::python::session::PyOutcome::Raised {
                report,
                kind,
                message,
            }) => {
                console.report_raised(&report, super::console::Failure { kind, message });
                None
            }
            Err(_) => None,
        };
    }
    match console.session_mut().time(code, loops) {
        Ok(d) => Some(d),
        Err(e) => {
            console.report(code, &e);
            None
        }
    }
}

/// What `:timeit`'s options ask for, as IPython's `%timeit` reads them: `-n N` loops per
/// run (found by search when absent), `-r R` runs (7 when absent); `-n10` and `-n 10` alike.
#[derive(Debug, PartialEq, Eq)]
struct TimeitOptions<'a> {
    loops: Option<usize>,
    runs: usize,
    code: &'a str,
}

/// Reads `:timeit`'s options off the front of `text`, or says what is wrong.
fn timeit_options(text: &str) -> Result<TimeitOptions<'_>, String> {
    let mut options = TimeitOptions {
        loops: None,
        runs: RUNS,
        code: text.trim_start(),
    };
    loop {
        let rest = options.code;
        let (flag, after) = match rest.strip_prefix("-n").or_else(|| rest.strip_prefix("-r")) {
            Some(after) => (&rest[..2], after),
            None => return Ok(options),
        };
        let after = after.trim_start();
        let digits = after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len());
        let value = after[..digits]
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!(":timeit {flag} needs a positive whole number"))?;
        if flag == "-n" {
            options.loops = Some(value);
        } else {
            options.runs = value;
        }
        options.code = after[digits..].trim_start();
    }
}

/// `:timeit [-n N] [-r R] EXPR`: finds a number of loops that takes long enough (1, 2, 5,
/// 10, 20, ...) unless `-n` gives it, then times seven runs (or `-r`'s) of that many.
/// Ctrl-C stops it (the progress hook raises `KeyboardInterrupt` inside the code).
pub fn timeit(console: &mut Console, text: &str) {
    let options = match timeit_options(text) {
        Ok(o) if o.code.is_empty() => return console.usage_error(":timeit needs an EXPR"),
        Ok(o) => o,
        Err(e) => return console.usage_error(&e),
    };
    let (code, runs) = (options.code, options.runs);
    let mut loops = options.loops.unwrap_or(1);
    'search: for scale in [1usize, 10, 100, 1000, 10_000, 100_000, 1_000_000] {
        if options.loops.is_some() {
            break;
        }
        for step in [1, 2, 5] {
            loops = step * scale;
            let Some(took) = timed(console, code, loops) else {
                return;
            };
            if took >= ENOUGH {
                break 'search;
            }
        }
    }
    let mut per_loop = Vec::with_capacity(runs);
    for _ in 0..runs {
        let Some(took) = timed(console, code, loops) else {
            return;
        };
        per_loop.push(took.as_secs_f64() / loops as f64);
    }
    let mean = per_loop.iter().sum::<f64>() / runs as f64;
    let variance = per_loop.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / runs as f64;
    per_loop.sort_by(f64::total_cmp);
    let time = |s: f64| format_time(Duration::from_secs_f64(s));
    output::print_line(&format!(
        "{} ± {} per loop (mean ± std. dev. of {runs} run{}, {} loop{} each)",
        time(mean),
        time(variance.sqrt()),
        plural(runs),
        with_commas(loops),
        plural(loops),
    ));
    output::print_line(&format!(
        "best {}, median {}",
        time(per_loop[0]),
        time(per_loop[runs / 2])
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_ipython_writes_them() {
        assert_eq!(format_time(Duration::from_micros(1520)), "1.52 ms");
        assert_eq!(format_time(Duration::from_nanos(4100)), "4.1 µs");
        assert_eq!(format_time(Duration::from_nanos(999)), "999 ns");
        assert_eq!(format_time(Duration::from_millis(2500)), "2.5 s");
        assert_eq!(format_time(Duration::from_secs(65)), "1min 5s");
        assert_eq!(format_time(Duration::from_nanos(0)), "0 ns");
        assert_eq!(format_time(Duration::from_millis(100)), "100 ms");
    }

    #[test]
    fn timeit_reads_ipythons_options() {
        let read = |t| timeit_options(t).unwrap();
        assert_eq!(
            read("-n 10 x.t()"),
            TimeitOptions {
                loops: Some(10),
                runs: RUNS,
                code: "x.t()"
            }
        );
        assert_eq!(
            read("-n10 -r 3 x"),
            TimeitOptions {
                loops: Some(10),
                runs: 3,
                code: "x"
            }
        );
        assert_eq!(read("-x").code, "-x");
        assert_eq!(read("x - n").loops, None);
        assert!(timeit_options("-n 0 x").is_err());
        assert!(timeit_options("-n x").is_err());
    }

    #[test]
    fn timeit_with_loops_given_runs_that_many() {
        let mut c = Console::new();
        crate::ops::output::start_capture();
        crate::repl::lines::feed(&mut c, "let calls = 0;");
        timeit(&mut c, "-n 3 -r 2 calls += 1");
        crate::repl::lines::feed(&mut c, "calls");
        let out = crate::ops::output::take_capture();
        assert!(
            out.contains("(mean ± std. dev. of 2 runs, 3 loops each)"),
            "{out}"
        );
        assert!(out.ends_with("6\n"), "{out}");
    }

    #[test]
    fn thousands_get_commas() {
        assert_eq!(with_commas(1_000_000), "1,000,000");
        assert_eq!(with_commas(500), "500");
    }

    #[test]
    fn timeit_reports_mean_best_and_median() {
        let mut c = Console::new();
        output::start_capture();
        timeit(&mut c, "let x = 1; x + 1");
        let out = output::take_capture();
        assert!(
            out.contains(" per loop (mean ± std. dev. of 7 runs, "),
            "{out}"
        );
        assert!(out.contains("\nbest "), "{out}");
        assert!(c.variables().is_empty(), "timed runs leave no variables");
    }
}
