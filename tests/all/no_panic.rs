//! No input makes tensh panic: random calls of tensor methods with random arguments on
//! random tensors must each give a value or a PyTorch-style error, never an internal error.

use proptest::prelude::*;
use tensh::script::session::Session;

const METHODS: &[&str] = &[
    "view",
    "reshape",
    "expand",
    "transpose",
    "permute",
    "t",
    "narrow",
    "select",
    "squeeze",
    "unsqueeze",
    "diagonal",
    "unfold",
    "as_strided",
    "flatten",
    "unflatten",
    "split",
    "chunk",
    "unbind",
    "tensor_split",
    "hsplit",
    "vsplit",
    "dsplit",
    "movedim",
    "contiguous",
    "clone",
    "fill_",
    "zero_",
    "copy_",
    "set_",
    "resize_",
    "as_strided_",
    "add_",
    "mul_",
    "size",
    "stride",
    "item",
    "tolist",
    "real",
    "imag",
    "to",
    "int",
    "bool",
    "half",
    "sum",
    "len",
    "mean",
    "prod",
    "max",
    "min",
    "argmax",
    "argmin",
    "all",
    "any",
    "abs",
    "sqrt",
    "exp",
    "log",
    "pow",
    "remainder",
    "floor_divide",
    "clamp",
    "isclose",
    "matmul",
    "div",
    "sub_",
    "div_",
    "requires_grad_",
    "backward",
];

const TENSORS: &[&str] = &[
    "torch::arange(12).view(3, 4)",
    "torch::zeros(0, 3)",
    "torch::tensor(5)",
    "torch::arange(24.0).view(2, 3, 4).transpose(0, 2)",
    "torch::tensor([1, 2, 3], #{dtype: torch::int8}).expand(2, 3)",
    "torch::tensor([torch::complex(1.0, 2.0)])",
    "torch::frombuffer(bytearray([1, 2, 3, 4]), #{dtype: torch::int16})",
    "torch::ones(2, 2, #{dtype: torch::bool})",
];

fn arg() -> impl Strategy<Value = String> {
    prop_oneof![
        (-5i64..6).prop_map(|i| i.to_string()),
        Just("1 << 62".to_string()),
        Just("-(1 << 62)".to_string()),
        prop::collection::vec(-3i64..5, 0..4).prop_map(|v| format!("{v:?}")),
        Just("torch::float16".to_string()),
        Just("torch::int64".to_string()),
        Just("torch::zeros(3)".to_string()),
        Just("torch::UntypedStorage(4)".to_string()),
        Just("2.5".to_string()),
        Just("()".to_string()),
        Just("\"x\"".to_string()),
        Just("#{dim: 1}".to_string()),
    ]
}

fn index() -> impl Strategy<Value = String> {
    prop_oneof![
        (-5i64..6).prop_map(|i| i.to_string()),
        Just("\"::2, None, ...\"".to_string()),
        Just("\"1:, -1\"".to_string()),
        Just("[0, -1]".to_string()),
        Just("1..=9".to_string()),
        Just("\"::-1\"".to_string()),
        Just("\"a b\"".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn random_calls_never_panic(
        t in 0..TENSORS.len(),
        calls in prop::collection::vec((0..METHODS.len(), prop::collection::vec(arg(), 0..4), index()), 1..4),
    ) {
                tensh::ops::output::start_capture();
        let mut session = Session::new();
        let _ = session.eval(&format!("let x = {};", TENSORS[t])).expect("tensor builds");
        for (m, args, idx) in calls {
            let code = format!("x = x.{}({});", METHODS[m], args.join(", "));
            if let Err(e) = session.eval(&code) {
                prop_assert!(!e.message.contains("InternalError"), "{code}: {}", e.message);
            }
            for code in [format!("print(x[{idx}]);"), format!("x[{idx}] = 7;"), "print(x);".to_string()] {
                if let Err(e) = session.eval(&code) {
                    prop_assert!(!e.message.contains("InternalError"), "{code}: {}", e.message);
                }
            }
        }
    }
}

/// Numbers at and near the ends of `i64`, and the small ones around 0.
fn extreme() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(i64::MIN),
        Just(i64::MIN + 1),
        Just(i64::MAX),
        Just(i64::MAX - 1),
        Just(i64::MAX - 7),
        Just(1i64 << 32),
        Just(1i64 << 62),
        Just(-(1i64 << 62)),
        Just(-1i64),
        Just(0i64),
        Just(1i64),
    ]
}

/// Rhai spells `i64::MIN` as an expression (its literal does not fit before negation).
fn lit(v: i64) -> String {
    if v == i64::MIN {
        "(-9223372036854775807 - 1)".to_string()
    } else {
        v.to_string()
    }
}

const VIEW_OPS: &[(&str, usize)] = &[
    ("view", 2),
    ("reshape", 2),
    ("expand", 2),
    ("narrow", 3),
    ("select", 2),
    ("diagonal", 3),
    ("unfold", 3),
    ("as_strided", 3),
    ("unflatten", 2),
    ("split", 2),
    ("chunk", 2),
    ("tensor_split", 2),
    ("movedim", 2),
    ("transpose", 2),
    ("squeeze", 1),
    ("unsqueeze", 1),
    ("flatten", 2),
    ("resize_", 2),
    ("set_", 4),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// View ops and slices given numbers at and near `i64::MIN`/`i64::MAX`, 0 and ±1: each
    /// call is a valid view (that can be printed and summed) or PyTorch's error.
    #[test]
    fn views_at_the_int64_limits_never_panic(
        t in 0..TENSORS.len(),
        op in 0..VIEW_OPS.len(),
        values in prop::collection::vec(extreme(), 4),
        slice in prop::collection::vec(prop::option::of(extreme()), 3),
    ) {
        tensh::ops::output::start_capture();
        let mut session = Session::new();
        let _ = session.eval(&format!("let x = {};", TENSORS[t])).expect("tensor builds");
        let (name, arity) = VIEW_OPS[op];
        let v: Vec<String> = values.iter().map(|&v| lit(v)).collect();
        let args = match name {
            "as_strided" => format!("[{}], [{}], {}", v[0], v[1], v[2]),
            "set_" => format!("x.untyped_storage(), {}, [{}], [{}]", v[0], v[1], v[2]),
            _ => v[..arity].join(", "),
        };
        let part = |p: &Option<i64>| p.map(|v| v.to_string()).unwrap_or_default();
        let slice = format!("{}:{}:{}", part(&slice[0]), part(&slice[1]), part(&slice[2]));
        for code in [
            // A valid view may have 2^62 elements: only small ones are summed.
            format!("let y = x.{name}({args}); print(y.stride()); if y.numel() < 100000 {{ print(y); print(y.sum()); }}"),
            // (`x` itself may have become a huge view through `set_` or `as_strided`: a
            // reduction over 2^62 elements runs as long as PyTorch's would.)
            format!("let y = x[\"{slice}\"]; print(y); if y.numel() < 100000 {{ print(y.sum()); }}"),
            format!("let y = x[\"..., {slice}\"]; y.fill_(1); print(y.contiguous());"),
        ] {
            if let Err(e) = session.eval(&code) {
                prop_assert!(!e.message.contains("InternalError"), "{code}: {}", e.message);
            }
        }
    }
}
