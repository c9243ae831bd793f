//! `cargo bench --bench jupyter`: the kernel's start-up (process start to the first
//! `kernel_info_reply` with its iopub status: what a notebook waits for before it can run a
//! cell) and a trivial cell's round trip (`execute_request` for `1 + 1` to its reply and
//! iopub's `idle`), each as best and median over repeated runs.

#[path = "../tests/all/support/kernel_client.rs"]
mod kernel_client;

use std::time::{Duration, Instant};

use kernel_client::{Client, start_kernel};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn report(name: &str, times: Vec<Duration>) {
    let best = times.iter().min().copied().unwrap_or_default();
    println!(
        "{name:<48} best {:8.3} ms  median {:8.3} ms  ({} runs)",
        best.as_secs_f64() * 1e3,
        median(times.clone()).as_secs_f64() * 1e3,
        times.len()
    );
}

fn main() {
    let dir = std::env::temp_dir().join(format!("tensh-kernel-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut starts = Vec::new();
    let mut cells = Vec::new();
    for run in 0..10 {
        let began = Instant::now();
        let (kernel, info) = start_kernel(&dir);
        runtime.block_on(async {
            let mut client = Client::connect(&info).await;
            starts.push(began.elapsed());
            if run == 0 {
                for _ in 0..200 {
                    let t = Instant::now();
                    client.execute("1 + 1").await;
                    cells.push(t.elapsed());
                }
            }
        });
        drop(kernel);
    }
    report("kernel start (spawn to kernel_info + iopub)", starts);
    report("trivial cell round trip (1 + 1)", cells);
    let _ = std::fs::remove_dir_all(&dir);
}
