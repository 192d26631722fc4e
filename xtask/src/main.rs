//! `cargo xtask`: developer tasks for tass.
//!
//! - `cargo xtask deps`  — the architecture check (see `deps.rs`).

mod deps;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("deps") => deps::run(),
        _ => {
            eprintln!("usage: cargo xtask <deps>");
            eprintln!(
                "  deps    check the crate DAG of docs/architecture.md and the `pub mod api` rule"
            );
            2
        }
    };
    std::process::exit(code);
}
