//! The values the fuzzer passes: a small seeded generator, and Rhai literals of each declared
//! parameter type, biased to the edges (0, ±1, the ends of `i64`, empty lists, every dtype)
//! and now and then of the wrong type.

use crate::ops::signature::Ty;

/// A small, seeded pseudo-random generator (SplitMix64): the same seed, the same program.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The generator of program `n` of the run seeded with `seed`: both numbers pass through
    /// SplitMix64's finalizer first. (Starting at `seed ^ n * γ`, with γ the step the stream
    /// itself advances by, made program `n + 1` program `n` shifted by one statement.)
    pub fn for_program(seed: u64, n: u64) -> Rng {
        let mix = |z: u64| Rng(z).next_u64();
        Rng(mix(seed) ^ mix(n ^ 0xD1B5_4A32_D192_ED03))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    /// One item of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const SMALL_INTS: &[&str] = &["0", "1", "-1", "2", "3", "-2", "4", "5"];
const EDGE_INTS: &[&str] = &[
    "9223372036854775807",
    "(-9223372036854775807 - 1)",
    "(1 << 62)",
    "-(1 << 62)",
    "(1 << 40)",
    "64",
    "65536",
    "-65536",
];
/// Ints for print options beyond `EDGE_INTS`: past Python's precision limit. (Not in
/// `EDGE_INTS`: as a size, 2^31 allocates gigabytes, which only a child process may try.)
const PRINT_OPTION_INTS: &[&str] = &["((1 << 31) - 1)", "(1 << 31)"];
/// Element counts where allocations fail or their byte counts overflow in some dtype: a
/// size that fits in one dtype's bytes may not in another's.
pub const ALLOCATION_SIZES: &[&str] = &[
    "((1 << 31) - 1)",
    "(1 << 31)",
    "(1 << 33)",
    "(1 << 40)",
    "(1 << 61)",
    "9223372036854775807",
];
const FLOATS: &[&str] = &[
    "0.0",
    "1.5",
    "-1.0",
    "0.5",
    "1e308",
    "(1.0 / 0.0)",
    "(0.0 / 0.0)",
];
/// Every dtype a script can name: kernels that forget one are found through it.
pub const DTYPES: &[&str] = &[
    "torch::float32",
    "torch::float64",
    "torch::float16",
    "torch::bfloat16",
    "torch::int8",
    "torch::uint8",
    "torch::int16",
    "torch::int32",
    "torch::int64",
    "torch::bool",
    "torch::complex64",
    "torch::complex128",
    "torch::complex32",
    "torch::uint16",
    "torch::uint32",
    "torch::uint64",
    "torch::float8_e4m3fn",
    "torch::float8_e5m2",
    "torch::float8_e4m3fnuz",
    "torch::float8_e5m2fnuz",
];
const STRINGS: &[&str] = &["\"x\"", "\"\"", "\"cpu\"", "\"mean\"", "\"floor\""];

/// An int literal, mostly small (always, unless `wild`).
fn int(rng: &mut Rng, wild: bool) -> String {
    if wild && rng.chance(0.1) {
        rng.pick(EDGE_INTS).to_string()
    } else {
        rng.pick(SMALL_INTS).to_string()
    }
}

/// A list of ints (or, as PyTorch allows, one int).
fn int_list(rng: &mut Rng, wild: bool) -> String {
    if rng.chance(0.15) {
        return int(rng, wild);
    }
    let n = rng.below(4);
    let items: Vec<String> = (0..n).map(|_| int(rng, wild)).collect();
    format!("[{}]", items.join(", "))
}

/// A literal of the declared type `ty` (when `wild`, one time in ten of any type, and ints
/// now and then at the ends of `i64`).
pub fn of(ty: Ty, rng: &mut Rng, tensors: &[&str], wild: bool) -> String {
    if wild && rng.chance(0.1) {
        return any(rng, tensors, wild);
    }
    match ty {
        Ty::Int => int(rng, wild),
        Ty::Float => rng.pick(FLOATS).to_string(),
        Ty::Bool => rng.pick(&["true", "false"]).to_string(),
        Ty::Number => match rng.below(4) {
            0 => int(rng, wild),
            1 => rng.pick(FLOATS).to_string(),
            2 => "true".into(),
            _ => "torch::complex(0.5, -1.0)".into(),
        },
        Ty::Tensor => rng.pick(tensors).to_string(),
        Ty::TensorOrNumber => {
            if rng.chance(0.5) {
                rng.pick(tensors).to_string()
            } else {
                int(rng, wild)
            }
        }
        Ty::IntList => int_list(rng, wild),
        Ty::DType => rng.pick(DTYPES).to_string(),
        Ty::Str => rng.pick(STRINGS).to_string(),
        Ty::MemoryFormat => rng
            .pick(&[
                "torch::contiguous_format",
                "torch::channels_last",
                "torch::channels_last_3d",
                "torch::preserve_format",
            ])
            .to_string(),
        Ty::Layout => "torch::strided".into(),
        Ty::Device => rng
            .pick(&[
                "torch::device(\"cpu\")",
                "torch::device(\"cuda\", 1)",
                "torch::device(\"meta\")",
            ])
            .to_string(),
        Ty::Any => any(rng, tensors, wild),
    }
}

/// A literal of any type.
pub fn any(rng: &mut Rng, tensors: &[&str], wild: bool) -> String {
    match rng.below(9) {
        0 | 1 => int(rng, wild),
        2 => rng.pick(FLOATS).to_string(),
        3 => int_list(rng, wild),
        4 => rng.pick(DTYPES).to_string(),
        5 => rng.pick(tensors).to_string(),
        6 => rng.pick(STRINGS).to_string(),
        7 => "()".into(),
        _ => rng.pick(&["true", "s0", "#{}", "[1.5, 2]"]).to_string(),
    }
}

/// An int at the edges of `i64`.
pub fn edge_int(rng: &mut Rng) -> String {
    rng.pick(EDGE_INTS).to_string()
}

/// A print option's value at the edges: of `i64`, or past what Python's formatting takes.
pub fn print_option_int(rng: &mut Rng) -> String {
    if rng.chance(0.2) {
        rng.pick(PRINT_OPTION_INTS).to_string()
    } else {
        edge_int(rng)
    }
}

/// A Python slice that selects nothing, starting at, past or far past the end of any small
/// dim (`"5:5"`, `"9:2"`, `"-1:-1"`): the views PyTorch allows whose offset lies beyond
/// their storage's last element.
pub fn empty_slice(rng: &mut Rng) -> String {
    let at = rng.pick(&["0", "1", "2", "3", "4", "5", "7", "9", "64", "-1", "-3"]);
    let stop = if rng.chance(0.7) {
        at.to_string()
    } else {
        rng.pick(&["0", "1", "-4"]).to_string()
    };
    let step = if rng.chance(0.5) { ":1" } else { "" };
    format!("\"{at}:{stop}{step}\"")
}

/// An index: an int, a Python index string, a list, a range, a tensor.
pub fn index(rng: &mut Rng) -> String {
    let wild = true;
    match rng.below(6) {
        0 => int(rng, wild),
        1 => rng
            .pick(&[
                "\"::2, None, ...\"",
                "\"1:, -1\"",
                "\"::-1\"",
                "\"...\"",
                "\"\"",
                "\":9:9223372036854775800\"",
                "\"[0, 1], 0\"",
            ])
            .to_string(),
        2 => int_list(rng, wild),
        3 => "1..=9".into(),
        4 => "torch::tensor([true, false])".into(),
        _ => "torch::tensor(0)".into(),
    }
}
