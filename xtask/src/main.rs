//! `cargo xtask`: developer tasks for tass.
//!
//! - `cargo xtask deps`  — the architecture check (see `deps.rs`).
//! - `cargo xtask bench` — the criterion benchmarks (see `bench.rs`).
//! - `cargo xtask fevs`  — the example suite with expected verdicts (see `fevs.rs`).
//! - `cargo xtask difftest` — random programs, tass against real runs (see `difftest.rs`).
//! - `cargo xtask mbi --dir DIR` — the MPI Bugs Initiative suite, scored as MBI does (see `mbi.rs`).
//! - `cargo xtask mpi-list` — writes the guide's list of supported MPI functions from
//!   `crates/model/src/mpi.rs` (the test `tass-model`'s `guide_mpi_list` checks it).

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
        Some("mpi-list") => write_mpi_list(),
        _ => {
            eprintln!("usage: cargo xtask <deps|bench|fevs|difftest|mbi|mpi-list> [ARGS]");
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
            eprintln!(
                "  mpi-list  write docs/guide.md's list of MPI functions from the MPI description"
            );
            2
        }
    };
    std::process::exit(code);
}

/// `cargo xtask mpi-list`: the test that checks the guide's MPI list, run in
/// its writing mode (the list is rendered by `tass_model`, which xtask does
/// not link).
fn write_mpi_list() -> i32 {
    let status = std::process::Command::new(std::env::var("CARGO").unwrap_or("cargo".into()))
        .args(["test", "-q", "-p", "tass-model", "--test", "guide_mpi_list"])
        .env("TASS_WRITE_GUIDE_MPI_LIST", "1")
        .status();
    match status {
        Ok(s) if s.success() => {
            println!("docs/guide.md: MPI list written from crates/model/src/mpi.rs");
            0
        }
        Ok(_) => 1,
        Err(e) => {
            eprintln!("cannot run cargo: {e}");
            2
        }
    }
}
