//! `cargo bench`: the core kernels on the sizes of `../shared/bench`, next to what the
//! machine itself can do (`memcpy` and `memset` of the same bytes, and the cost of handing
//! work to the second thread). Prints `name best_ms GB/s` lines; best of several runs, as
//! these virtual machines are noisy.

use std::hint::black_box;
mod common;

use common::best;

use tensh::core::copy::{clone_tensor, contiguous_copy, copy_, fill_layout};
use tensh::core::creation::arange;
use tensh::core::dtype::DType;
use tensh::core::kernels::pair;
use tensh::core::layout::Layout;
use tensh::core::memory::storage::Storage;
use tensh::core::ops::{Arg, BinaryOp, binary, binary_, sum_all};
use tensh::core::random::{generator, ops as random};
use tensh::core::scalar::Scalar;
use tensh::core::tensor::Tensor;
use tensh::core::views;
use tensh::core::{linalg, pointwise, reduce, scan, selection, unary};

const N: i64 = 4096;
const MIB: usize = 1 << 20;

/// Prints one line: the name, the best time, and the bytes moved per second when known.
fn report(name: &str, ms: f64, bytes: usize) {
    let rate = if bytes == 0 {
        String::new()
    } else {
        format!("{:8.1} GB/s", bytes as f64 / ms / 1e6)
    };
    println!("{name:<34} {ms:10.4} ms {rate}");
}

fn main() {
    let runs = 15;
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let want = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));

    let bytes64 = 64 * MIB;
    if want("baseline") {
        let src = vec![1u8; bytes64];
        let mut dst = vec![0u8; bytes64];
        dst[0] = 1;
        report(
            "baseline_memcpy_64MiB",
            best(runs, || {
                black_box(&mut dst).copy_from_slice(black_box(&src))
            }),
            bytes64,
        );
        let mut big = vec![0u8; 256 * MIB];
        report(
            "baseline_memset_256MiB",
            best(runs, || black_box(&mut big).fill(7)),
            256 * MIB,
        );
        // Same allocation path as tensors (huge pages), so the baseline is comparable.
        let mut words = tensh::core::memory::alloc::zeroed_bytes(bytes64).unwrap();
        words.fill(3);
        let (w1, w2) = words.split_at(bytes64 / 2);
        let sum_words = |w: &[u8]| {
            w.chunks_exact(8).fold(0u64, |a, x| {
                a.wrapping_add(u64::from_le_bytes(x.try_into().unwrap()))
            })
        };
        report(
            "baseline_read_64MiB_two_threads",
            best(runs, || {
                let (mut a, mut b) = (0, 0);
                pair::join(
                    || a = sum_words(black_box(w1)),
                    || b = sum_words(black_box(w2)),
                );
                black_box(a.wrapping_add(b));
            }),
            bytes64,
        );
        report(
            "baseline_pair_join_empty",
            best(200, || {
                pair::join(|| black_box(1), || black_box(2));
            }),
            0,
        );
        report(
            "baseline_thread_spawn_empty",
            best(200, || {
                std::thread::scope(|s| {
                    s.spawn(|| black_box(2));
                    black_box(1);
                });
            }),
            0,
        );
    }

    let f32_arange = |n: i64| {
        arange(
            Scalar::Int(0),
            Scalar::Int(n),
            Scalar::Int(1),
            Some(DType::Float32),
        )
        .unwrap()
    };
    let x = views::view(&f32_arange(N * N), &[N, N]).unwrap();
    let xt = views::t(&x).unwrap();
    if want("clone") {
        report(
            "clone_4096sq_f32",
            best(runs, || drop(clone_tensor(&x))),
            bytes64,
        );
    }
    if want("contiguous") {
        report(
            "contiguous_transposed_4096sq_f32",
            best(runs, || drop(contiguous_copy(&xt))),
            bytes64,
        );
    }
    if want("copy_transposed") {
        let y = Tensor::zeros(vec![N, N], DType::Float32).unwrap();
        report(
            "copy_transposed_into_4096sq",
            best(runs, || copy_(&y, &xt).unwrap()),
            bytes64,
        );
    }
    if want("fill") {
        let s = Storage::zeroed(256 * MIB).unwrap();
        let layout = Layout::contiguous(vec![256 * MIB as i64]);
        report(
            "fill_256MiB_storage",
            best(runs, || {
                fill_layout(&s, DType::UInt8, &layout, Scalar::Int(7)).unwrap()
            }),
            256 * MIB,
        );
    }
    if want("sum") {
        report("sum_4096sq", best(runs, || drop(sum_all(&x))), bytes64);
    }
    if want("add") {
        let a = Arg::Tensor(x.clone());
        report(
            "add_4096sq",
            best(runs, || drop(binary(BinaryOp::Add, &a, &a))),
            3 * bytes64,
        );
        let y = clone_tensor(&x).unwrap();
        report(
            "add_inplace_4096sq",
            best(runs, || binary_(BinaryOp::Add, &y, &a).unwrap()),
            3 * bytes64,
        );
    }
    if want("rand") {
        let t = Tensor::zeros(vec![1 << 24], DType::Float32).unwrap();
        generator::manual_seed(0);
        report(
            "rand_16M",
            best(5, || random::uniform_(&t, 0.0, 1.0).unwrap()),
            bytes64,
        );
        report(
            "randn_16M",
            best(5, || random::normal_(&t, 0.0, 1.0).unwrap()),
            bytes64,
        );
    }
    if want("compute") {
        // The engine's modes and the matrix products, on bench_compute's sizes.
        generator::manual_seed(0);
        let randn = |sizes: Vec<i64>| {
            let t = Tensor::zeros(sizes, DType::Float32).unwrap();
            random::normal_(&t, 0.0, 1.0).unwrap();
            t
        };
        let (a, c) = (randn(vec![1024, 1024]), randn(vec![1024, 1024]));
        report(
            "compute_matmul_1024sq",
            best(5, || drop(linalg::matmul(&a, &c).unwrap())),
            0,
        );
        let (b1, b2) = (randn(vec![64, 128, 128]), randn(vec![64, 128, 128]));
        report(
            "compute_bmm_64x128sq",
            best(runs, || drop(linalg::matmul(&b1, &b2).unwrap())),
            0,
        );
        let m = randn(vec![N, N]);
        report(
            "compute_max_dim1_4096sq",
            best(runs, || {
                drop(reduce::extreme_with_indices(&m, true, 1, false).unwrap())
            }),
            bytes64,
        );
        let s = randn(vec![1 << 22]);
        report(
            "compute_sort_4M",
            best(5, || drop(selection::sort(&s, 0, false).unwrap())),
            0,
        );
        let rows = randn(vec![2048, 2048]);
        report(
            "compute_sort_rows_2048sq",
            best(5, || drop(selection::sort(&rows, 1, false).unwrap())),
            0,
        );
        let long = randn(vec![1 << 24]);
        report(
            "compute_cumsum_16M",
            best(runs, || drop(scan::cumsum(&long, 0, None).unwrap())),
            2 * bytes64,
        );
        let table = randn(vec![4096, 256]);
        // Every row 16 times over, in a strided order (rows 0..4096, sixteen times).
        let rows = arange(Scalar::Int(0), Scalar::Int(4096), Scalar::Int(1), None).unwrap();
        let index = views::expand(&rows, &[16, 4096]).unwrap();
        let index = views::reshape(&contiguous_copy(&index).unwrap(), &[65536]).unwrap();
        report(
            "compute_index_select_64k_rows",
            best(runs, || {
                drop(selection::index_select(&table, 0, &index).unwrap())
            }),
            2 * bytes64,
        );
    }
    if want("cast") {
        // Conversions between dtypes (typed run converters) and the sums that read through
        // them, on 4096² elements.
        let x = Tensor::zeros(vec![N, N], DType::Float32).unwrap();
        random::uniform_(&x, 0.0, 1.0).unwrap();
        report(
            "cast_f32_to_f64_4096sq",
            best(runs, || {
                drop(tensh::core::copy::cast_copy(&x, DType::Float64).unwrap())
            }),
            3 * bytes64,
        );
        let i = tensh::core::copy::cast_copy(&x, DType::Int64).unwrap();
        report(
            "cast_i64_to_f32_4096sq",
            best(runs, || {
                drop(tensh::core::copy::cast_copy(&i, DType::Float32).unwrap())
            }),
            3 * bytes64,
        );
        report(
            "sum_int64_4096sq",
            best(runs, || drop(sum_all(&i))),
            2 * bytes64,
        );
        let h = tensh::core::copy::cast_copy(&x, DType::Float16).unwrap();
        report(
            "sum_f16_4096sq",
            best(runs, || drop(sum_all(&h))),
            bytes64 / 2,
        );
    }
    if want("engine") {
        // The engine's elementwise, row and element-moving modes on 4096² float32.
        generator::manual_seed(0);
        let x = Tensor::zeros(vec![N, N], DType::Float32).unwrap();
        random::uniform_(&x, 0.0, 1.0).unwrap();
        report(
            "engine_map_exp_16M",
            best(5, || drop(unary::unary(&x, unary::Unary::Exp).unwrap())),
            2 * bytes64,
        );
        let i = views::view(
            &arange(Scalar::Int(0), Scalar::Int(N * N), Scalar::Int(1), None).unwrap(),
            &[N, N],
        )
        .unwrap();
        report(
            "engine_binary_f32_plus_i64_16M",
            best(5, || {
                drop(
                    binary(
                        BinaryOp::Add,
                        &Arg::Tensor(x.clone()),
                        &Arg::Tensor(i.clone()),
                    )
                    .unwrap(),
                )
            }),
            0,
        );
        report(
            "engine_rows_sum_dim1_4096sq",
            best(runs, || {
                drop(reduce::reduce(&x, reduce::Reduction::Sum, Some(&[1]), false).unwrap())
            }),
            bytes64,
        );
        report(
            "engine_rows_sum_dim0_4096sq",
            best(5, || {
                drop(reduce::reduce(&x, reduce::Reduction::Sum, Some(&[0]), false).unwrap())
            }),
            bytes64,
        );
        let mask = binary(
            BinaryOp::Gt,
            &Arg::Tensor(x.clone()),
            &Arg::Number(Scalar::Float(0.5)),
        )
        .unwrap();
        report(
            "engine_elements_masked_fill_16M",
            best(5, || {
                drop(selection::masked_fill(&x, &mask, Scalar::Float(1.0)).unwrap())
            }),
            2 * bytes64,
        );
        report(
            "engine_elements_where_16M",
            best(5, || {
                drop(
                    pointwise::where_(
                        &mask,
                        &Arg::Tensor(x.clone()),
                        &Arg::Number(Scalar::Float(0.0)),
                    )
                    .unwrap(),
                )
            }),
            2 * bytes64,
        );
    }
}
