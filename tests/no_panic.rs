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
                tensh::script::output::start_capture();
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
