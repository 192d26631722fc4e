//! `cargo xtask`: developer tasks for tass.
//!
//! - `cargo xtask deps`  — the architecture check (see `deps.rs`).
//! - `cargo xtask bench` — the criterion benchmarks (see `bench.rs`).
//! - `cargo xtask fevs`  — the example suite with expected verdicts (see `fevs.rs`).
//! - `cargo xtask difftest` — random programs, tass against real runs (see `difftest.rs`).
//! - `cargo xtask mbi --dir DIR` — the MPI Bugs Initiative suite, scored as MBI does (see `mbi.rs`).

mod bench;
mod deps;
mod difftest;
mod fevs;
mod mbi;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("deps") => deps::run(),
        Some("bench") => bench::run(&args[1..]),
        Some("fevs") => fevs::run(&args[1..]),
        Some("difftest") => difftest::run(&args[1..]),
        Some("mbi") => mbi::run(&args[1..]),
        _ => {
            eprintln!("usage: cargo xtask <deps|bench|fevs|difftest|mbi> [ARGS]");
            eprintln!(
                "  deps    check the crate DAG of docs/architecture.md and the `pub mod api` rule"
            );
            eprintln!("  bench   run the criterion benchmarks (extra arguments go to criterion)");
            eprintln!(
                "  fevs    run fevs/manifest.toml and print the Fig. 10-style table (--help)"
            );
            eprintln!("  difftest  random C and C/MPI programs: tass vs concrete runs (--help)");
            eprintln!(
                "  mbi     tass on MPI Bugs Initiative programs, scored as MBI does (--help)"
            );
            2
        }
    };
    std::process::exit(code);
}
