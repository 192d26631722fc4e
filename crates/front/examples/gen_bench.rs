//! Times the front end on the benchmark's generated file (CPU-time friendly:
//! run under `time`): `cargo run --release -p tass-front --example gen_bench -- 20`.
use std::path::PathBuf;
use std::time::Instant;
use tass_front::api::*;

include!("../benches/support/generate.rs");

fn main() {
    let iters: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let src = generate(188);
    println!("{} lines", src.lines().count());
    let sources = vec![(PathBuf::from("generated.c"), src)];
    let start = Instant::now();
    for _ in 0..iters {
        assert!(load_sources(&sources, &FrontOptions::default()).is_ok());
    }
    println!(
        "{:.1} ms per load (wall)",
        start.elapsed().as_secs_f64() * 1000.0 / iters as f64
    );
}
