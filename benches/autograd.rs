//! `cargo bench --bench autograd`: the backward walk is linear in the graph. Prints the best
//! time of building a graph, of `backward()` through it and of dropping it, for chains of
//! 10^5 and 10^6 ops and for 20 and 40 doublings of a shared subgraph (`y = y + y`, 2^40
//! paths through 40 nodes): if the walk were not memoized, the doublings would never end.

mod common;

use common::best;

use tensh::core::autograd::backward;
use tensh::core::creation::full;
use tensh::core::dtype::DType;
use tensh::core::ops::{Arg, BinaryOp, binary};
use tensh::core::scalar::Scalar;
use tensh::core::tensor::Tensor;

fn leaf() -> Tensor {
    let x = full(&[1], Scalar::Float(1.0), DType::Float32).expect("one element");
    x.with_grad_mut(|g| g.requires_grad = true);
    x
}

fn chain(x: &Tensor, n: usize) -> Tensor {
    let one = Arg::Number(Scalar::Float(1.0));
    let mut y = x.clone();
    for _ in 0..n {
        y = binary(BinaryOp::Mul, &Arg::Tensor(y), &one).expect("mul");
    }
    y
}

fn doublings(x: &Tensor, n: usize) -> Tensor {
    let mut y = x.clone();
    for _ in 0..n {
        y = binary(BinaryOp::Add, &Arg::Tensor(y.clone()), &Arg::Tensor(y)).expect("add");
    }
    y
}

fn report(name: &str, ops: usize, build: f64, walk: f64, drop: f64) {
    println!(
        "{name:<24} build {build:9.2} ms  backward {walk:9.2} ms ({:6.0} ns/op)  drop {drop:7.2} ms",
        walk * 1e6 / ops as f64
    );
}

fn measure(name: &str, ops: usize, make: fn(&Tensor, usize) -> Tensor) {
    let (mut build, mut walk, mut dropped) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    for _ in 0..3 {
        let x = leaf();
        let mut y = None;
        build = build.min(best(1, || y = Some(make(&x, ops))));
        let y = y.expect("built");
        walk = walk.min(best(1, || backward(&y).expect("backward")));
        let mut y = Some(y);
        dropped = dropped.min(best(1, || drop(y.take())));
    }
    report(name, ops, build, walk, dropped);
}

fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let want = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));
    if want("chain") {
        measure("chain_1e5", 100_000, chain);
        measure("chain_1e6", 1_000_000, chain);
    }
    if want("doublings") {
        measure("doublings_20", 20, doublings);
        measure("doublings_40", 40, doublings);
    }
}
