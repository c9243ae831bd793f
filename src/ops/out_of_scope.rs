//! The families of PyTorch's API that tensh leaves out on purpose, because they are not part
//! of its model of dense CPU tensor memory (`docs/api-coverage.md` lists them with the same
//! reasons). A name of one of these families answers with the reason, not with "not built
//! yet": the list of names still to build holds only names tensh means to build.

/// One family: why tensh leaves it out, and its names (a trailing `*` matches a prefix).
struct Family {
    reason: &'static str,
    names: &'static [&'static str],
}

/// The families, each name owned by `Tensor` or `torch` alike (PyTorch spells them the same
/// on both where it has both).
const FAMILIES: &[Family] = &[
    Family {
        reason: "sparse tensors are a different memory model; tensh models the strided layout",
        names: &[
            "to_sparse*",
            "sparse_*",
            "coalesce",
            "is_coalesced",
            "indices",
            "values",
            "crow_indices",
            "col_indices",
            "ccol_indices",
            "row_indices",
            "indices_copy",
            "values_copy",
            "crow_indices_copy",
            "col_indices_copy",
            "ccol_indices_copy",
            "row_indices_copy",
            "resize_as_sparse_",
            "smm",
            "sspaddmm",
            "hsmm",
            "hspmm",
            "dsmm",
            "saddmm",
            "spmm",
            "native_norm",
        ],
    },
    Family {
        reason: "quantized tensors carry scales and zero points that tensh's storages do not have",
        names: &[
            "q_*",
            "qscheme",
            "int_repr",
            "dequantize",
            "quantize_per_*",
            "quantized_*",
            "fake_quantize_*",
            "choose_qparams_optimized",
            "empty_quantized",
            "fbgemm_*",
            "fused_moving_avg_obs_fake_quant",
        ],
    },
    Family {
        reason: "tensh has no device but the CPU, and no backend library behind it",
        names: &[
            "ipu",
            "mtia",
            "xpu",
            "record_stream",
            "to_mkldnn",
            "mkldnn_*",
            "cudnn_*",
            "miopen_*",
            "get_device_module",
        ],
    },
    Family {
        reason: "automatic mixed precision (autocast) is a dispatch mode for neural-network \
                 layers, outside the tensor memory model",
        names: &[
            "autocast_*",
            "get_autocast_*",
            "set_autocast_*",
            "is_autocast_*",
            "clear_autocast_cache",
        ],
    },
    Family {
        reason: "nested tensors are a different layout; tensh models the strided one",
        names: &["to_padded_tensor", "nested_*"],
    },
    Family {
        reason: "there is no NumPy and no DLPack consumer in the process",
        names: &["numpy", "from_numpy", "from_dlpack", "to_dlpack"],
    },
    Family {
        reason: "signal processing is outside the tensor memory model",
        names: &["stft", "istft"],
    },
    Family {
        reason: "the decompositions of torch.linalg get their last bits from LAPACK, so tensh \
                 would print other digits than PyTorch",
        names: &[
            "cholesky",
            "cholesky_inverse",
            "cholesky_solve",
            "det",
            "eig",
            "geqrf",
            "inverse",
            "logdet",
            "lstsq",
            "lu",
            "lu_solve",
            "lu_unpack",
            "matrix_exp",
            "orgqr",
            "ormqr",
            "pinverse",
            "qr",
            "slogdet",
            "solve",
            "svd",
            "symeig",
            "triangular_solve",
            "lobpcg",
            "matrix_rank",
            "nuclear_norm",
            "pca_lowrank",
            "svd_lowrank",
        ],
    },
    Family {
        reason: "neural-network functions belong to the torch.nn layer, outside the tensor \
                 memory model",
        names: &[
            "adaptive_*",
            "affine_grid_generator",
            "avg_pool*",
            "max_pool*",
            "batch_norm*",
            "native_batch_norm",
            "bilinear",
            "binary_cross_entropy_with_logits",
            "celu*",
            "selu*",
            "rrelu*",
            "prelu",
            "hardshrink",
            "threshold*",
            "channel_shuffle",
            "native_channel_shuffle",
            "pixel_shuffle",
            "pixel_unshuffle",
            "conv*",
            "cosine_embedding_loss",
            "ctc_loss",
            "hinge_embedding_loss",
            "kl_div",
            "margin_ranking_loss",
            "poisson_nll_loss",
            "triplet_margin_loss",
            "native_dropout",
            "embedding*",
            "grid_sampler*",
            "group_norm",
            "native_group_norm",
            "instance_norm",
            "layer_norm",
            "native_layer_norm",
            "rms_norm",
            "gru*",
            "lstm*",
            "rnn_*",
            "module_load",
        ],
    },
    Family {
        reason: "the compiler, TorchScript and symbolic shapes need PyTorch's Python machinery, \
                 which tensh does not have",
        names: &[
            "compile",
            "cond",
            "while_loop",
            "vmap",
            "fork",
            "wait",
            "import_ir_module*",
            "parse_ir",
            "parse_schema",
            "parse_type_comment",
            "merge_type_from_type_comment",
            "unify_type_list",
            "sym_constrain_range*",
            "sym_fresh_size",
            "slice_inverse",
            "classproperty",
            "get_file_path",
            "prepare_multiprocessing_environment",
            "profiler_*",
            "thread_safe_generator",
            "as_subclass",
            "index",
            "set_anomaly_enabled",
        ],
    },
];

/// Whether `pattern` (a name, or a prefix ending in `*` whose rest may hold one more `*`
/// for "anything") names `name`.
fn matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, rest)) => {
            let Some(tail) = name.strip_prefix(head) else {
                return false;
            };
            let rest = rest.trim_end_matches('*');
            rest.is_empty() || tail.contains(rest)
        }
    }
}

/// Why tensh leaves `name` out, when it belongs to a family tensh does not model.
pub fn reason(name: &str) -> Option<&'static str> {
    FAMILIES
        .iter()
        .find(|f| f.names.iter().any(|p| matches(p, name)))
        .map(|f| f.reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_find_their_family() {
        assert!(reason("to_sparse_csr").unwrap().contains("sparse"));
        assert!(reason("native_dropout").unwrap().contains("torch.nn"));
        assert!(
            reason("quantize_per_tensor_dynamic")
                .unwrap()
                .contains("quantized")
        );
        assert!(reason("svd").unwrap().contains("LAPACK"));
        assert_eq!(reason("topk"), None);
        assert_eq!(reason("sort"), None);
        assert_eq!(reason("values_of"), None);
    }
}
