//! tensh's own fuzzer: Rhai programs generated from the declarations (every name a script can
//! call, with PyTorch's parameters), run to find inputs that panic, abort, hang or read a
//! view wrongly. `tests/fuzz.rs` runs a bounded number with a fixed seed in `cargo test`;
//! `scripts/fuzz.sh` runs them in child processes for as long as asked and minimizes what
//! fails (`examples/fuzz.rs`).
//!
//! A program is a prelude (a pool of tensors, storages and sizes, and the checking
//! functions of [`PRELUDE`]) and a list of statements, each a call wrapped in `try`, so one
//! error never hides the statements after it. Values are biased to where bugs live: 0, ±1,
//! the ends of `i64`, empty and broadcast shapes, every dtype, wrong types and keywords.

pub mod values;

use crate::ops::signature::{self as table, Declaration, Kind, Overload, Param, Ty};
use values::Rng;

/// Checking functions every program starts with.
///
/// `check_view(v, base)`: when `v` reads the storage of `base` (an `arange`, so each slot
/// holds its own index) as int64, each element of `v` must hold the slot its size, stride
/// and offset name: the brute-force offset model of the strided layout. `check_write(v, w)`
/// fills `v` with -1 and checks that exactly the slots `v` names changed in `w`.
/// A failure prints a line starting `FUZZ MISMATCH`; a caught error that is not a
/// `Kind: message` string prints `FUZZ ERROR VALUE`.
pub const PRELUDE: &str = r#"
fn fuzz_slots(v) {
    let sizes = v.size().tolist();
    let strides = v.stride();
    let slots = [];
    let n = 1;
    for s in sizes { n *= s; }
    if n > 4096 { return (); }
    for k in 0..n {
        let rest = k;
        let off = v.storage_offset();
        let d = sizes.len() - 1;
        while d >= 0 {
            off += (rest % sizes[d]) * strides[d];
            rest /= sizes[d];
            d -= 1;
        }
        slots.push(off);
    }
    slots
}
fn fuzz_flat(l) {
    if type_of(l) != "array" { return [l]; }
    let out = [];
    for x in l { out += fuzz_flat(x); }
    out
}
fn fuzz_reads(v, base) {
    type_of(v) == "Tensor" && v.dtype == torch::int64 && !v.is_conj()
        && v.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()
        && v.untyped_storage().nbytes() == base.untyped_storage().nbytes()
}
fn check_view(v, base) {
    if !fuzz_reads(v, base) { return; }
    let slots = fuzz_slots(v);
    if slots == () { return; }
    let got = fuzz_flat(v.tolist());
    if got != slots { print(`FUZZ MISMATCH read: slots ${slots} values ${got}`); }
}
fn check_write(v, w) {
    if !fuzz_reads(v, w) { return; }
    let slots = fuzz_slots(v);
    if slots == () { return; }
    let before = w.tolist();
    try { v.fill_(-1); } catch { return; }
    let after = w.tolist();
    for i in 0..after.len() {
        let want = if slots.contains(i) { -1 } else { before[i] };
        if after[i] != want { print(`FUZZ MISMATCH write: slot ${i} is ${after[i]}, want ${want}`); }
    }
}
fn fuzz_caught(e) {
    if type_of(e) != "string" { print(`FUZZ ERROR VALUE ${e}`); }
}
"#;

/// What a run may generate beyond ordinary calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Calls that allocate at the edges of memory (`torch::randn([(1 << 31) - 1], ...)`, in
    /// every dtype): run only where each program has a process of its own with a bounded
    /// address space (`examples/fuzz.rs` limits it), so that an allocation tensh does not
    /// check aborts the child instead of exhausting the machine.
    pub huge_allocations: bool,
    /// Empty tensors with a dim near 2^63, then used: an op that walks the outer dims of an
    /// empty tensor loops for ever in plain Rust, which only a child process's time limit
    /// ends, so these run only where one kills the program.
    pub extreme_empties: bool,
}

impl Settings {
    /// For programs run inside the test process: nothing that may really take gigabytes.
    pub const IN_PROCESS: Settings = Settings {
        huge_allocations: false,
        extreme_empties: false,
    };
    /// For programs run one per child process under a memory limit.
    pub const CHILD_PROCESS: Settings = Settings {
        huge_allocations: true,
        extreme_empties: true,
    };
}

/// The pool of values statements work on (names declared by [`pool`]).
const TENSORS: [&str; 4] = ["t0", "t1", "t2", "t3"];

/// The statements that make the pool: small tensors of several dtypes and layouts.
fn pool(rng: &mut Rng) -> Vec<String> {
    let makers = [
        "torch::arange(12.0).view(3, 4)",
        "torch::arange(24).view(2, 3, 4).transpose(0, 2)",
        "torch::zeros(0, 3)",
        "torch::tensor(5.5)",
        "torch::tensor([1, 2, 3], #{dtype: torch::int8}).expand(2, 3)",
        "torch::tensor([torch::complex(1.0, 2.0), torch::complex(0.0, -1.0)])",
        "torch::ones(2, 2, #{dtype: torch::bool})",
        "torch::arange(6, #{dtype: torch::float16})",
        "torch::randn(2, 3, #{requires_grad: true})",
        "torch::randn(3).mul(2)",
        "torch::frombuffer(bytearray([1, 2, 3, 4]), #{dtype: torch::int16})",
        "torch::arange(10.0)[\"::3\"]",
    ];
    let mut out: Vec<String> = TENSORS
        .iter()
        .map(|t| format!("let {t} = {};", rng.pick(&makers)))
        .collect();
    out.push("let s0 = torch::UntypedStorage(8);".into());
    out.push("let base = torch::arange(64);".into());
    out
}

/// A receiver of `owner` (`None`: not fuzzed through a receiver).
fn receiver(owner: &str, rng: &mut Rng) -> Option<String> {
    let t = *rng.pick(&TENSORS);
    Some(match owner {
        "Tensor" => t.to_string(),
        "UntypedStorage" => rng
            .pick(&["s0".to_string(), format!("{t}.untyped_storage()")])
            .clone(),
        "TypedStorage" => format!("{t}.storage()"),
        "Size" => format!("{t}.shape"),
        "complex" => "torch::complex(1.5, -2.0)".to_string(),
        "buffer" => "bytearray([1, 2, 3])".to_string(),
        _ => return None,
    })
}

/// Names a fuzzer must not call: they touch files, or change what later programs see.
fn excluded(name: &str) -> bool {
    name.contains("file") || name.contains("save") || name.contains("load")
}

/// The arguments of one call to a name of this kind: positionals, then a keyword map.
fn arguments(kind: &Kind, rng: &mut Rng, wild: bool) -> Vec<String> {
    let overload_params: Option<&[Param]> = match kind {
        Kind::Parser(sig) if !sig.overloads.is_empty() => Some(&rng.pick(&sig.overloads).params),
        _ => None,
    };
    let Some(params) = overload_params else {
        // No declared parameters to follow (Python functions, C methods): a few values.
        let n = match kind {
            Kind::NoArgs { .. } if rng.chance(0.8) => 0,
            Kind::OneArg { .. } if rng.chance(0.8) => 1,
            _ => rng.below(4),
        };
        return (0..n).map(|_| values::any(rng, &TENSORS, wild)).collect();
    };
    let mut positional = Vec::new();
    let mut keywords = Vec::new();
    let mut by_keyword = false;
    for p in params {
        if p.optional && rng.chance(0.6) {
            continue;
        }
        if p.keyword_only || by_keyword || (p.optional && rng.chance(0.2)) {
            by_keyword = true;
            let name = if wild && rng.chance(0.03) {
                "dimm"
            } else {
                p.name
            };
            keywords.push(format!("{name}: {}", values::of(p.ty, rng, &TENSORS, wild)));
        } else if !(wild && rng.chance(0.03)) {
            positional.push(values::of(p.ty, rng, &TENSORS, wild));
        }
    }
    if wild && rng.chance(0.05) {
        positional.push(values::any(rng, &TENSORS, wild));
    }
    if !keywords.is_empty() {
        positional.push(format!("#{{{}}}", keywords.join(", ")));
    }
    positional
}

/// A call of a random declared Tensor method that does not write, on `receiver`, with
/// arguments of the declared types: how generated programs use what they made.
fn reader_call(rng: &mut Rng, all: &[&'static Declaration], receiver: &str) -> String {
    let d = loop {
        let d = *rng.pick(all);
        if d.owner == "Tensor"
            && d.mutation().is_none()
            && !excluded(d.name)
            && !matches!(d.kind(), Kind::Property)
        {
            break d;
        }
    };
    let args = arguments(d.kind(), rng, false).join(", ");
    format!("{receiver}.{}({args})", d.name)
}

/// An empty view whose storage offset lies at or past the end of its storage (PyTorch
/// allows one: it reads nothing), made by `as_strided`, by a diagonal beyond the matrix, or
/// by a slice selecting nothing from a view that reaches past the end; checked against the
/// offset model, then copied and read by another op.
fn empty_view_past_end(rng: &mut Rng, all: &[&'static Declaration]) -> String {
    let view = match rng.below(3) {
        0 => {
            let (sizes, strides) = *rng.pick(&[
                ("[0]", "[1]"),
                ("[0, 4]", "[4, 1]"),
                ("[4, 0]", "[1, 4]"),
                ("[2, 0, 3]", "[0, 3, 1]"),
            ]);
            let offset = rng.pick(&["64", "65", "70", "1000", "(1 << 40)"]);
            format!("w.as_strided({sizes}, {strides}, {offset})")
        }
        1 => format!(
            "w.view(2, 32).diagonal({})[{}]",
            rng.pick(&["1", "2", "5", "31"]),
            values::empty_slice(rng)
        ),
        _ => format!(
            "w.view(2, 32).diagonal({})",
            rng.pick(&["-2", "-5", "33", "40", "-40"])
        ),
    };
    format!(
        "try {{ let w = torch::arange(64); let v = {view}; check_view(v, w); print(v.clone()); print({}); }} catch (e) {{ fuzz_caught(e); }}",
        reader_call(rng, all, "v")
    )
}

/// One `set_printoptions` call with an extreme value, then a print: precision, widths and
/// edge counts at the ends of `i64`, negative, or past what a string can hold.
fn print_options(rng: &mut Rng, slot: &str) -> String {
    let key = rng.pick(&[
        "precision",
        "edgeitems",
        "linewidth",
        "threshold",
        "sci_mode",
    ]);
    let value = match *key {
        "sci_mode" => rng.pick(&["true", "false", "()"]).to_string(),
        _ if rng.chance(0.7) => values::print_option_int(rng),
        _ => rng.pick(&["0", "1", "-1", "2", "-3"]).to_string(),
    };
    format!(
        "try {{ torch::set_printoptions(#{{{key}: {value}}}); print({slot}); print(torch::arange(2000.0).view(2, 1000)); }} catch (e) {{ fuzz_caught(e); }}"
    )
}

/// An empty tensor of an extreme shape put in the pool, then used: no elements, but a dim at
/// the end of `i64` (what `tolist()`, printing, and every op must not allocate for).
fn extreme_empty(rng: &mut Rng, all: &[&'static Declaration], slot: &str) -> String {
    let edge = values::edge_int(rng);
    let shape = if rng.chance(0.5) {
        format!("[{edge}, 0]")
    } else {
        format!("[0, {edge}, 2]")
    };
    let dtype = rng.pick(values::DTYPES);
    let make = match rng.below(3) {
        0 => format!("torch::empty({shape}, #{{dtype: {dtype}}})"),
        1 => format!("torch::empty(0, #{{dtype: {dtype}}}).resize_({shape})"),
        _ => format!("torch::zeros(1, #{{dtype: {dtype}}}).expand({shape})"),
    };
    let use_it = reader_call(rng, all, slot);
    format!(
        "try {{ {slot} = {make}; print({slot}.tolist().len()); print({slot}); print({use_it}); }} catch (e) {{ fuzz_caught(e); }}"
    )
}

/// A call of a declared name that takes a `size`, with a size at the edge of memory and a
/// random dtype: every allocation a script can ask for, in every element width.
fn allocation(rng: &mut Rng, all: &[&'static Declaration]) -> Option<String> {
    let sized: Vec<(&Declaration, &Overload)> = all
        .iter()
        .filter(|d| !excluded(d.name))
        .filter_map(|d| match d.kind() {
            Kind::Parser(sig) => Some(sig.overloads.iter().map(move |o| (*d, o))),
            _ => None,
        })
        .flatten()
        .filter(|(_, o)| {
            o.params
                .iter()
                .any(|p| p.name == "size" && p.ty == Ty::IntList)
        })
        .collect();
    if sized.is_empty() {
        return None;
    }
    let (d, o) = *rng.pick(&sized);
    let mut positional = Vec::new();
    let mut keywords = Vec::new();
    for p in &o.params {
        if p.name == "size" {
            let n = rng.pick(values::ALLOCATION_SIZES);
            positional.push(if rng.chance(0.5) {
                format!("[{n}]")
            } else {
                format!("[{n}, 3]")
            });
        } else if p.name == "dtype" {
            keywords.push(format!("dtype: {}", rng.pick(values::DTYPES)));
        } else if p.keyword_only || p.optional {
            continue;
        } else {
            positional.push(values::of(p.ty, rng, &TENSORS, false));
        }
    }
    if !keywords.is_empty() {
        positional.push(format!("#{{{}}}", keywords.join(", ")));
    }
    let args = positional.join(", ");
    let call = match d.owner {
        "torch" => format!("torch::{}({args})", d.name),
        owner => format!("{}.{}({args})", receiver(owner, rng)?, d.name),
    };
    Some(format!(
        "try {{ let r = {call}; print(r.numel()); }} catch (e) {{ fuzz_caught(e); }}"
    ))
}

/// One statement: a call of a declared name on a pool value, its result kept in the pool
/// when it is a tensor and printed; a view chain checked against the offset model; an
/// indexed read or write; or one of the edge cases above.
///
/// `huge_left` counts the allocations at the edges of memory the program may still make: a
/// random fill of 2^31 elements takes PyTorch about 14 s here, so a program with two or
/// three would pass the time limit doing legitimate work and be reported as a hang.
fn statement(
    rng: &mut Rng,
    all: &[&'static Declaration],
    settings: Settings,
    huge_left: &mut usize,
) -> String {
    let slot = *rng.pick(&TENSORS);
    match rng.below(100) {
        0 | 1 => return print_options(rng, slot),
        8 | 9 => return empty_view_past_end(rng, all),
        2..=4 if settings.extreme_empties => return extreme_empty(rng, all, slot),
        5..=7 if settings.huge_allocations && *huge_left > 0 => {
            if let Some(s) = allocation(rng, all) {
                *huge_left -= 1;
                return s;
            }
        }
        _ => {}
    }
    let roll = rng.below(10);
    if roll == 0 {
        let index = values::index(rng);
        return if rng.chance(0.5) {
            format!("try {{ print({slot}[{index}]); }} catch (e) {{ fuzz_caught(e); }}")
        } else {
            let value = values::any(rng, &TENSORS, true);
            format!("try {{ {slot}[{index}] = {value}; }} catch (e) {{ fuzz_caught(e); }}")
        };
    }
    if roll <= 2 {
        return view_chain(rng, all);
    }
    let d = loop {
        let d = *rng.pick(all);
        if !excluded(d.name) && (d.owner == "torch" || receiver(d.owner, rng).is_some()) {
            break d;
        }
    };
    let call = match (d.owner, d.kind()) {
        ("torch", Kind::Property) => format!("torch::{}", d.name),
        ("torch", kind) => format!(
            "torch::{}({})",
            d.name,
            arguments(kind, rng, true).join(", ")
        ),
        (owner, Kind::Property) => {
            format!("{}.{}", receiver(owner, rng).unwrap_or_default(), d.name)
        }
        (owner, kind) => format!(
            "{}.{}({})",
            receiver(owner, rng).unwrap_or_default(),
            d.name,
            arguments(kind, rng, true).join(", ")
        ),
    };
    // A result joins the pool only while a quadratic op on it (`diag` of a vector, an outer
    // product) stays small: 4096² elements. (At 10^5, a 65536-element vector got in and its
    // `diag` took 8 GiB inside the test process.)
    format!(
        "try {{ let r = {call}; if type_of(r) == \"Tensor\" && r.numel() <= 4096 {{ {slot} = r; }} print(r); }} catch (e) {{ fuzz_caught(e); }}"
    )
}

/// Up to four Tensor methods that do not write, applied to a fresh view of an `arange`; the
/// result is checked against the offset model, then written through. Mostly the methods
/// the declarations call views, with small arguments of the declared types, so most chains
/// get as far as the check.
fn view_chain(rng: &mut Rng, all: &[&'static Declaration]) -> String {
    let readers: Vec<_> = all
        .iter()
        .filter(|d| d.owner == "Tensor" && d.mutation().is_none() && !excluded(d.name))
        .filter(|d| !matches!(d.kind(), Kind::Property))
        .collect();
    let views: Vec<_> = readers
        .iter()
        .filter(|d| d.doc.is_some_and(|doc| doc.contains("view")))
        .copied()
        .collect();
    let start = rng.pick(&["w.view(4, 4, 4)", "w.view(2, 32)", "w.view(8, 8)", "w"]);
    let mut code = format!("try {{ let w = torch::arange(64); let v = {start};");
    for _ in 0..1 + rng.below(4) {
        if rng.chance(0.2) {
            // An empty slice: its offset may lie at or past the storage's end.
            code.push_str(&format!(" v = v[{}];", values::empty_slice(rng)));
            continue;
        }
        let wild = rng.chance(0.2);
        let d = rng.pick(if wild { &readers } else { &views });
        let args = arguments(d.kind(), rng, wild).join(", ");
        code.push_str(&format!(" v = v.{}({args});", d.name));
        code.push_str(" if type_of(v) == \"array\" && v.len() > 0 { v = v[0]; }");
    }
    code.push_str(" check_view(v, w); check_write(v, w);");
    // Then an op reads the view (a copy, a reduction, a sort, a print).
    code.push_str(&format!(
        " print({}); }} catch (e) {{ fuzz_caught(e); }}",
        reader_call(rng, all, "v")
    ));
    code
}

/// A generated program: its pool and its statements, joined into a script by [`Program::text`].
#[derive(Debug, Clone)]
pub struct Program {
    /// The statements that make the pool.
    pub setup: Vec<String>,
    /// The generated statements, each a call (or chain) wrapped in `try`.
    pub statements: Vec<String>,
}

impl Program {
    /// The program as a script: the prelude, the pool, the statements.
    pub fn text(&self) -> String {
        let mut s = String::from(PRELUDE);
        for line in self.setup.iter().chain(&self.statements) {
            s.push_str(line);
            s.push('\n');
        }
        s
    }
}

/// The program number `n` of the run seeded with `seed`, of `len` statements: the same
/// numbers and settings give the same program, so any failure can be replayed from them.
pub fn program(seed: u64, n: u64, len: usize, settings: Settings) -> Program {
    let mut rng = Rng::for_program(seed, n);
    let all = table::all();
    let mut huge_left = 1;
    Program {
        setup: pool(&mut rng),
        statements: (0..len)
            .map(|_| statement(&mut rng, &all, settings, &mut huge_left))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_reproducible_and_varied() {
        let a = program(7, 3, 50, Settings::IN_PROCESS).text();
        assert_eq!(a, program(7, 3, 50, Settings::IN_PROCESS).text());
        assert_ne!(a, program(7, 4, 50, Settings::IN_PROCESS).text());
        // Neighbouring programs are not shifted copies of each other.
        let (p3, p4) = (
            program(7, 3, 50, Settings::IN_PROCESS),
            program(7, 4, 50, Settings::IN_PROCESS),
        );
        let shared = p3.statements[1..]
            .iter()
            .zip(&p4.statements)
            .filter(|(x, y)| x == y)
            .count();
        assert!(shared < 10, "{shared} statements shared with a shift");
        assert!(a.contains("check_view"), "view chains are generated");
        // Forty programs: which edges a handful holds moves whenever a name is registered.
        let many: String = (0..40)
            .map(|n| program(7, n, 100, Settings::CHILD_PROCESS).text())
            .collect();
        for edge in [
            "as_strided([0",
            "diagonal(-40)",
            "set_printoptions",
            "resize_(",
            "(1 << 31) - 1",
            "float8_e4m3fnuz",
        ] {
            assert!(many.contains(edge), "{edge} is generated");
        }
        let in_process: String = (0..20)
            .map(|n| program(7, n, 100, Settings::IN_PROCESS).text())
            .collect();
        assert!(
            !in_process.contains("print(r.numel())"),
            "no huge allocations in process"
        );
        for n in 0..20 {
            let one = program(7, n, 100, Settings::CHILD_PROCESS).text();
            assert!(
                one.matches("print(r.numel())").count() <= 1,
                "at most one huge allocation in program {n}"
            );
        }
    }
}
