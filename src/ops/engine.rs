//! Builds the Rhai engine a session runs in: every type, method, operator and the `torch`
//! module, PyTorch's spellings of words Rhai reserves, and output hooks.

use std::cell::RefCell;
use std::rc::Rc;

use rhai::{Engine, Module, Token};

use super::direct::Properties;
use super::op_table::OpTable;

use super::registry::Registry;
use super::storage::{self, buffers};
use super::tensor::{self, indexing};
use super::{
    complex_api, display, explain_api, output, random_api, random_generator, return_types,
    torch_module, values_api,
};

/// Words Rhai reserves that PyTorch's API uses as names (`s.new()`, `#{shared: true}`,
/// `x.var()`): every name on the list of PyTorch's names (`pytorch_names.txt`) that Rhai's
/// tokenizer reserves.
const PYTORCH_NAMES_RHAI_RESERVES: [&str; 3] = ["new", "shared", "var"];

use super::renamed::IS_SHARED_INTERNAL;

/// The settings of Rhai itself that tensh runs with (its own per-call costs depend on them,
/// so `cargo bench --bench script` gives a bare engine the same).
pub fn configure_rhai(engine: &mut Engine) {
    // Rhai's own size limits walk a whole value after each operation: tensh bounds values
    // in O(1) instead (see `limits`).
    engine.set_max_string_size(0);
    engine.set_max_array_size(0);
    engine.set_max_map_size(0);
    // Operators are looked up among registered functions first, so the bounded string
    // concatenation of `limits` takes the place of Rhai's built-in one.
    engine.set_fast_operators(false);
    // Rhai's optimizer rewrites `x = x + y` into `x += y`, which for tensors is PyTorch's
    // in-place `__iadd__` (registered by `new_engine`): the two must stay distinct, so
    // scripts are run as written.
    engine.set_optimization_level(rhai::OptimizationLevel::None);
}

/// An engine with every name registered (for what lists names: completion, help, tests).
pub fn new_engine() -> Engine {
    let (mut engine, ops) = new_lazy_engine();
    ops.borrow_mut().register_all(&mut engine);
    engine
}

/// An engine whose tensor methods and `torch` functions wait in the returned
/// `OpTable` until a program names them (`OpTable::register_mentioned`); a method named
/// only at run time is called from there by the missing-function hook.
pub fn new_lazy_engine() -> (Engine, Rc<RefCell<OpTable>>) {
    let ops = Rc::new(RefCell::new(OpTable::default()));
    super::value_methods::forget_all();
    let mut engine = Engine::new();
    configure_rhai(&mut engine);
    super::limits::register(&mut engine);
    engine.on_print(output::print_line);
    // A call of nothing: Python's NameError/AttributeError/TypeError, not Rhai's error map
    // (or a held-back method named at run time, called from where it waits).
    let held = ops.clone();
    #[allow(deprecated)]
    engine.on_missing_function(move |name, args, is_method, ctx| {
        if let Ok(held) = held.try_borrow()
            && let Some(result) = held.call_method(name, args)
        {
            return result.map(Some);
        }
        super::missing::on_missing(name, args, is_method, ctx)
    });
    engine.on_debug(|text, _, _| output::print_line(text));
    clock_reads_vary(&mut engine);
    #[allow(deprecated)]
    engine.on_parse_token(|token, _, _| match token {
        Token::Reserved(word) if PYTORCH_NAMES_RHAI_RESERVES.contains(&word.as_str()) => {
            Token::Identifier(word)
        }
        // Rhai treats `is_shared` as its own keyword function; PyTorch's method is renamed
        // internally so `s.is_shared()` reaches the storage.
        Token::Identifier(word) | Token::Reserved(word) if word.as_str() == "is_shared" => {
            Token::Identifier(Box::new(IS_SHARED_INTERNAL.into()))
        }
        other => other,
    });
    display::register(&mut engine);
    super::list_repr::register(&mut engine);
    super::exit::register(&mut engine);
    values_api::register(&mut engine);
    super::formats::register(&mut engine);
    complex_api::register(&mut engine);
    return_types::register(&mut engine);
    super::grad_fn::register(&mut engine);
    buffers::register(&mut engine);
    indexing::register(&mut engine);
    explain_api::register(&mut engine);
    tensor::meta::register_dtype_properties(&mut engine);
    {
        let mut held = ops.borrow_mut();
        let mut p = Properties {
            engine: &mut engine,
            direct: &mut held.direct,
        };
        tensor::meta::register_properties(&mut p);
        tensor::tensor_queries::register_properties(&mut p);
        super::grad_fn::register_property(&mut p);
        super::formats::register_property(&mut p);
    }
    let mut torch = Module::new();
    torch_module::register_constants(&mut torch);
    super::formats::register_constants(&mut torch);
    {
        let mut held = ops.borrow_mut();
        let mut r = Registry {
            engine: &mut engine,
            torch: &mut torch,
            ops: &mut held,
        };
        tensor::meta::register(&mut r);
        tensor::views::register(&mut r);
        tensor::selection::register(&mut r);
        tensor::scatter::register(&mut r);
        tensor::in_place_views::register(&mut r);
        tensor::unary::register(&mut r);
        tensor::join::register(&mut r);
        tensor::mutation::register(&mut r);
        tensor::new::register(&mut r);
        tensor::math::register(&mut r);
        tensor::reduce::register(&mut r);
        tensor::softmax::register(&mut r);
        tensor::binary_math::register(&mut r);
        tensor::order_stats::register(&mut r);
        tensor::composite::register(&mut r);
        tensor::pointwise::register(&mut r);
        tensor::autograd::register(&mut r);
        tensor::hooks::register(&mut r);
        tensor::view_copies::register(&mut r);
        tensor::counting::register(&mut r);
        tensor::in_place_twins::register(&mut r);
        tensor::float_values::register(&mut r);
        tensor::fused_pointwise::register(&mut r);
        tensor::norms::register(&mut r);
        tensor::search::register(&mut r);
        tensor::chained_products::register(&mut r);
        tensor::more_factories::register(&mut r);
        tensor::tensor_queries::register(&mut r);
        tensor::index_put::register(&mut r);
        tensor::statistics::register(&mut r);
        tensor::array_builders::register(&mut r);
        tensor::integration::register(&mut r);
        tensor::numeric_gradient::register(&mut r);
        tensor::distances::register(&mut r);
        tensor::segments::register(&mut r);
        tensor::gamma_functions::register(&mut r);
        tensor::windows::register(&mut r);
        tensor::stacking::register(&mut r);
        tensor::fused_products::register(&mut r);
        tensor::view_scatter::register(&mut r);
        tensor::legacy_methods::register(&mut r);
        tensor::element_functions::register(r.engine);
        random_api::register(&mut r);
        random_generator::register(&mut r);
        super::settings_api::register(&mut r);
        super::sym_numbers::register(&mut r);
        super::grad_mode_api::register(r.torch);
        storage::untyped::register(&mut r);
        storage::typed::register(&mut r);
        storage::untyped::register_files_and_sharing(&mut r);
        storage::untyped::register_devices(&mut r);
        storage::devices::register(r.engine);
        torch_module::register(&mut r);
        super::files::register(&mut r);
        super::dtype_info::register(&mut r);
    }
    {
        let held = &mut ops.borrow_mut();
        torch.set_sub_module(
            "UntypedStorage",
            storage::untyped::untyped_storage_module(held),
        );
        for (class, dtype) in storage::typed::LEGACY_CLASSES {
            torch.set_sub_module(
                class,
                storage::typed::class_module(held, class, Some(dtype)),
            );
        }
        // Registered with the engine when a program mentions them.
        super::nn_functional::add_functional(held);
        super::autograd_module::add_autograd(held);
        super::special_module::add_special(held);
        super::linalg_module::add_linalg(held);
        super::nn_module::add_nn(held);
        let typed = storage::typed::class_module(held, "TypedStorage", None);
        torch.set_sub_module("TypedStorage", typed);
        held.install_torch(&mut engine, torch);
        let safetensors = super::files::safetensors_module(held);
        engine.register_static_module("safetensors", safetensors.into());
    }
    super::generation::bump();
    (engine, ops)
}

/// The types scripts call methods on, with the names Rhai knows them by (for completion and
/// help).
pub fn receiver_types() -> Vec<(std::any::TypeId, &'static str)> {
    use std::any::TypeId;
    vec![
        (TypeId::of::<crate::core::tensor::Tensor>(), "Tensor"),
        (
            TypeId::of::<crate::core::memory::storage::Storage>(),
            "UntypedStorage",
        ),
        (
            TypeId::of::<super::storage::typed::TypedStorage>(),
            "TypedStorage",
        ),
        (TypeId::of::<super::storage::buffers::PyBuffer>(), "buffer"),
        (TypeId::of::<crate::core::dtype::DType>(), "dtype"),
        (TypeId::of::<super::values::Size>(), "Size"),
        (TypeId::of::<super::values::Device>(), "device"),
        (TypeId::of::<super::values::PyComplex>(), "complex"),
        (
            TypeId::of::<super::return_types::ReturnTuple>(),
            "return_types",
        ),
        (TypeId::of::<super::grad_fn::GradFn>(), "grad_fn"),
    ]
}

/// Rhai's clock, `timestamp()` and a timestamp's `elapsed`, noted as reads that differ from
/// run to run (`platform::varies`); registered over the standard package's own, with its
/// meaning.
fn clock_reads_vary(engine: &mut Engine) {
    engine.register_fn("timestamp", || {
        crate::platform::varies::note();
        rhai::Instant::now()
    });
    let elapsed = |t: &mut rhai::Instant| {
        crate::platform::varies::note();
        t.elapsed().as_secs_f64()
    };
    engine.register_get("elapsed", elapsed);
    engine.register_fn("elapsed", elapsed);
}
