fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    for n in args[0]..args[1] {
        let p = tensh::fuzz::program(1, n, 60, tensh::fuzz::Settings::IN_PROCESS);
        std::fs::write(format!("/tmp/fz/p{n}.rhai"), p.text()).unwrap();
    }
}
